// @ts-check
// What every game's board shares: player plates, stacks of face-down cards, little effects,
// the hint key.

import { cardEl as drawCard } from "./art.js";
import { cardEl } from "./cards.js";
import { h, reducedMotion, store } from "./dom.js";
import { icon } from "./icons.js";
import { count, seconds, t } from "./i18n.js";
import { announce } from "./live.js";

/**
 * What a board is given by its table (js/table.js `ctx()`): who sits where, the view, time.
 * @typedef {{game: string, me(): number | null, seatInfo(seat: number): any,
 *   name(seat: number): string, frozenLeft(seat: number | null): number, view(): any} & Record<string, any>} BoardContext
 * @typedef {{text: string, tips?: (el: HTMLElement) => void} | null} PlateCounts
 */

/** The element `selector` finds in `el` (a board's own markup: it is there). */
/** @param {Element} el @param {string} selector @returns {HTMLElement} */
const find = (el, selector) => /** @type {HTMLElement} */ (el.querySelector(selector));

// A player's plate: avatar, name (always as text), connection, frozen timer, and `info`.
// What it shows in figures and marks, a screen reader hears as one sentence (`.plate-say`):
// "Ben: 5 cards in hand, draw pile 12, away".
/** @param {number} seat */
export function plate(seat) {
  return h("div", { class: "plate", dataset: { seat } },
    h("span", { class: "avatar", "aria-hidden": "true" }),
    h("span", { class: "plate-text", "aria-hidden": "true" },
      h("span", { class: "plate-name" }),
      h("span", { class: "plate-info" }),
      h("span", { class: "plate-away", hidden: true }),
      h("span", { class: "plate-lag", hidden: true })),
    h("span", { class: "plate-frozen", "aria-hidden": "true" }, icon("snow"), h("span", { class: "plate-frozen-s" })),
    h("span", { class: "sr-only plate-say" }));
}

// A plate's counts in words come from its board (`countsOf`: what a player holds, from the view
// the board shows), which may also give `tips(el)`, tooltips of its own marks on the plate.
/**
 * @param {HTMLElement} el @param {number} seat @param {BoardContext} ctx
 * @param {(ctx: BoardContext, seat: number) => PlateCounts} [countsOf]
 */
export function updatePlate(el, seat, ctx, countsOf = () => null) {
  const info = ctx.seatInfo(seat);
  const name = ctx.name(seat);
  find(el, ".plate-name").textContent = name;
  el.title = name; // a name cut with "…" shows whole on hover; `.plate-say` says it whole
  const avatar = find(el, ".avatar");
  const letter = info?.kind === "bot" ? "bot" : (name.trim()[0] ?? "?").toUpperCase();
  if (avatar.dataset.letter !== letter) {
    avatar.dataset.letter = letter;
    avatar.replaceChildren(letter === "bot" ? icon("bot") : letter);
  }
  el.classList.toggle("me", seat === ctx.me());
  el.classList.toggle("away", info?.kind === "human" && !info.connected);
  el.classList.toggle("bot", info?.kind === "bot");
  // Another person's slow connection, in words (their cards may come later than they play).
  const slow = info?.lag === "slow" && seat !== ctx.me();
  el.classList.toggle("slow", slow);
  const lag = /** @type {HTMLElement | null} */ (el.querySelector(".plate-lag"));
  if (lag) {
    lag.hidden = !slow;
    lag.textContent = slow ? `◔ ${t("lag_mark_slow")}` : "";
  }
  // Away in words too (the plate no longer fades: its text keeps its contrast); a person's
  // seat the table waits on (a stand-in coming), or one a stand-in plays (docs/rules.md).
  const away = info?.kind === "human" && !info.connected;
  const standIn = info?.kind === "human" ? (info.bot ? "stand_in_mark" : info.stand_in_at != null ? "stand_in_soon" : "") : "";
  const awayEl = find(el, ".plate-away");
  const mark = [away ? t("disconnected") : "", standIn ? t(standIn) : ""].filter(Boolean).join(" · ");
  awayEl.hidden = !mark;
  awayEl.textContent = mark;
  el.style.setProperty("--seat", `var(--seat-${seat % 6})`);

  const counts = countsOf(ctx, seat);
  const who = seat === ctx.me() && seat !== null ? t("a11y_plate_you", { name }) : name;
  const said = [counts?.text, mark, slow ? t("lag_mark_slow") : ""].filter(Boolean);
  el.dataset.say = said.length ? t("a11y_plate", { who, counts: said.join(", ") }) : who;
  sayPlate(el);
  counts?.tips?.(el);
}

/** @param {HTMLElement} el */
function sayPlate(el) {
  const text = el.classList.contains("frozen") ? `${el.dataset.say}, ${t("a11y_frozen")}` : el.dataset.say ?? "";
  const say = find(el, ".plate-say");
  if (say.textContent !== text) say.textContent = text;
}

// Show how long `seat` is still frozen on its plate (called by the ticker).
/** @param {HTMLElement} el @param {number} seat @param {BoardContext} ctx */
export function tickPlate(el, seat, ctx) {
  const left = ctx.frozenLeft(seat);
  const was = el.classList.contains("frozen");
  el.classList.toggle("frozen", left > 0);
  find(el, ".plate-frozen-s").textContent = left > 0 ? seconds(left) : "";
  if (was !== left > 0 && el.dataset.say !== undefined) sayPlate(el);
}

// A stack of `n` face-down cards drawn as a few offset layers, with its count; to a screen
// reader one picture with a name: "Your draw pile: 12 cards".
/** @param {string} game @param {string} label */
export function stack(game, label) {
  return h("div", { class: "stack", role: "img", "aria-label": label, dataset: { label } },
    h("div", { class: "stack-cards", "aria-hidden": "true" }, cardEl(game, null)),
    h("span", { class: "stack-count", "aria-hidden": "true" }));
}

/** @param {HTMLElement} el @param {number} n */
export function updateStack(el, n) {
  el.style.setProperty("--depth", String(Math.min(n, 6)));
  el.classList.toggle("empty", n === 0);
  find(el, ".stack-count").textContent = String(n);
  el.setAttribute("aria-label", `${el.dataset.label}: ${count("cards_n", n)}`);
}

// The frozen overlay over one's own cards: a ring that runs down, and the seconds. A picture
// only: the freeze is said once when it starts and when it ends (js/live.js, js/table.js).
export function freezeOverlay() {
  return h("div", { class: "freeze", "aria-hidden": "true" },
    h("div", { class: "freeze-ring" }, h("span", { class: "freeze-s" })),
    h("span", { class: "freeze-label", text: t("frozen") }));
}

/** @param {HTMLElement} el @param {number} left @param {number} total */
export function tickFreeze(el, left, total) {
  const on = left > 0;
  el.classList.toggle("on", on);
  if (!on) return;
  find(el, ".freeze-s").textContent = seconds(left);
  find(el, ".freeze-ring").style.setProperty("--p", String(Math.max(0, Math.min(1, left / (total || 1)))));
}

// A short word that pops up over `el` and fades ("Zu spät!"), with an optional second line.
/** @param {Element} el @param {string} text */
export function tag(el, text, kind = "", detail = "") {
  const rect = el.getBoundingClientRect();
  const note = h("div", { class: `tag ${kind}${detail ? " long" : ""}`, "aria-hidden": "true" },
    h("span", { class: "tag-text", text }),
    detail ? h("small", { class: "tag-detail", text: detail }) : null);
  note.style.left = `${rect.left + rect.width / 2}px`;
  note.style.top = `${rect.top}px`;
  document.body.append(note);
  setTimeout(() => note.remove(), detail ? 2400 : 1300);
}

// One's own card shown at once where it goes, before the table has answered (pending): a
// dashed outline and a "…" badge, not colour alone; its holder's label says so (the
// boards' `board_pending`). The board removes it when the answer comes: on a yes the table's
// own card takes its place in the same frame, on a no the card goes back.
/** @param {CardsPart | null} arts @param {string} card */
export function pendingCard(arts, card) {
  const el = drawCard(arts, card);
  el.classList.add("pending-card");
  el.setAttribute("aria-hidden", "true");
  el.append(h("span", { class: "pending-badge", "aria-hidden": "true", text: "…" }));
  return el;
}

// One's own actions shown at once (`pendingCard`, oldest first) until the table answers;
// `relabel` redraws the board's labels when one goes.
/** @template {{el: HTMLElement, shown: HTMLElement}} P */
export class Pendings {
  /** @param {() => void} relabel */
  constructor(relabel) {
    /** @type {P[]} */
    this.all = [];
    this.relabel = relabel;
  }

  // Show `pending` in `where` (a pile, an empty place); its card leaves where it was.
  /** @param {P} pending @param {HTMLElement} where */
  show(pending, where) {
    this.all.push(pending);
    where.append(pending.shown);
    pending.el.classList.add("sent", "pending");
  }

  // The table took the first that `match`es: the view has just drawn its card where the
  // pending picture is, which goes in the same frame. Whether one was pending.
  /** @param {(pending: P) => boolean} match */
  confirm(match) {
    const pending = this.all.find(match);
    if (!pending) return false;
    pending.el.classList.remove("sent", "pending");
    this.settle(pending);
    return true;
  }

  // `pending` is answered: its picture goes.
  /** @param {P} pending */
  settle(pending) {
    const i = this.all.indexOf(pending);
    if (i < 0) return;
    this.all.splice(i, 1);
    pending.shown.remove();
    this.relabel();
  }
}

// A wrong card pressed shortly after its pile changed (another's card, the table's own step):
// the note says so, "The pile had changed to 7 ±2 only 540 ms before" (issue 30), so that a
// freeze after a near miss is understood. `age`: ms from that top's first frame to the
// press (js/sightings.js `age`); `card`: its name. "" when the pile had been still longer.
export const JUST_CHANGED_MS = 1000; // the table's late_grace_ms: a reaction and a long one
/** @param {number | null | undefined} age @param {string | null | undefined} card */
export function justChanged(age, card) {
  if (age === null || age === undefined || age > JUST_CHANGED_MS || !card) return "";
  return t("wrong_just_changed", { card, ms: Math.round(age / 10) * 10 });
}

// The card goes back where it came from, with a little bounce.
/** @param {HTMLElement} el */
export function slideBack(el) {
  el.classList.remove("sent");
  if (reducedMotion()) return;
  el.animate([
    { transform: "translateY(-38%) scale(1.04)" },
    { transform: "translateY(6%)" },
    { transform: "none" },
  ], { duration: 380, easing: "cubic-bezier(.3,1.4,.5,1)" });
}

/** @param {Element | null | undefined} el */
export function shake(el) {
  if (reducedMotion() || !el) return;
  el.animate([
    { transform: "translateX(0)" }, { transform: "translateX(-9px)" }, { transform: "translateX(8px)" },
    { transform: "translateX(-5px)" }, { transform: "translateX(0)" },
  ], { duration: 320 });
}

/** @param {Element | null | undefined} el */
export function flip(el) {
  if (reducedMotion() || !el) return;
  el.animate([{ transform: "rotateY(90deg)" }, { transform: "none" }],
    { duration: 260, easing: "ease-out" });
}

/** @param {Element | null | undefined} el */
export function bump(el) {
  if (reducedMotion() || !el) return;
  el.animate([{ transform: "scale(1)" }, { transform: "scale(1.12)" }, { transform: "scale(1)" }],
    { duration: 260 });
}

export const HINTS_KEY = "zz.hints";

// What every board shares: its hints (H) on or off, then its marks drawn again (its `mark()`).
export class Hinted {
  /** @param {unknown} on */
  setHints(on) {
    this.hints = Boolean(on);
    /** @type {this & {mark(): void}} */ (this).mark(); // every board has its own
  }
}

// The hint key of both boards: turn the marks on or off, say so, remember it.
/** @param {Hinted & {note(text: string): void}} board */
export function toggleHints(board) {
  board.setHints(!board.hints);
  store(HINTS_KEY, board.hints ? "1" : "0");
  board.note(t(board.hints ? "board_hints_on" : "board_hints_off"));
}

// The hint key in a board's key handler: whether `k` is it (then the marks are toggled).
/** @param {Hinted & {note(text: string): void}} board @param {string} k */
export function hintsKey(board, k) {
  if (k !== "h") return false;
  toggleHints(board);
  return true;
}

/** The hint key's line in a board's key help. @returns {[string, string]} */
export function hintsHelp() {
  return ["H", t("board_keys_hints")];
}

// A short note in the board's note line (beside the piles, never over the cards), said once.
/** @param {HTMLElement & {fade?: ReturnType<typeof setTimeout>}} el @param {string} text */
export function showNote(el, text, ms = 1800) {
  el.textContent = text;
  clearTimeout(el.fade);
  el.fade = setTimeout(() => { el.textContent = ""; }, ms);
  announce(text);
}
