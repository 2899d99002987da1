// @ts-check
// What every game's board shares: player plates, stacks of face-down cards, little effects,
// the hint key.

import { cardEl as drawCard } from "./art.js";
import { cardEl } from "./cards.js";
import { h, reducedMotion, store } from "./dom.js";
import { icon } from "./icons.js";
import { count, seconds, t } from "./i18n.js";
import { announce } from "./live.js";

// A player's plate: avatar, name (always as text), connection, frozen timer, and `info`.
// What it shows in figures and marks, a screen reader hears as one sentence (`.plate-say`):
// "Ben: 5 cards in hand, draw pile 12, away".
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

// The counts a plate stands for, in words, from the view the board shows (`ctx.view()`): of
// a hand and a draw pile, unless the board gives its own (`updatePlate`'s `countsOf`).
function handCounts(ctx, seat) {
  const state = ctx.view?.()?.state;
  if (!state) return null;
  const hand = state.hand_counts?.[seat] ?? (seat === ctx.me() ? state.hand?.length : undefined);
  if (hand === undefined) return null;
  const draw = state.draw_counts?.[seat] ?? 0;
  return { hand, draw, text: `${count("a11y_hand", hand)}, ${t("a11y_draw", { n: draw })}` };
}

/** @param {(ctx: any, seat: number) => {text: string, hand?: number, draw?: number} | null} [countsOf] */
export function updatePlate(el, seat, ctx, countsOf = handCounts) {
  const info = ctx.seatInfo(seat);
  const name = ctx.name(seat);
  el.querySelector(".plate-name").textContent = name;
  el.title = name; // a name cut with "…" shows whole on hover; `.plate-say` says it whole
  const avatar = el.querySelector(".avatar");
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
  const lag = el.querySelector(".plate-lag");
  if (lag) {
    lag.hidden = !slow;
    lag.textContent = slow ? `◔ ${t("lag_mark_slow")}` : "";
  }
  // Away in words too (the plate no longer fades: its text keeps its contrast); a person's
  // seat the table waits on (a stand-in coming), or one a stand-in plays (docs/rules.md).
  const away = info?.kind === "human" && !info.connected;
  const standIn = info?.kind === "human" ? (info.bot ? "stand_in_mark" : info.stand_in_at != null ? "stand_in_soon" : "") : "";
  const awayEl = el.querySelector(".plate-away");
  const mark = [away ? t("disconnected") : "", standIn ? t(standIn) : ""].filter(Boolean).join(" · ");
  awayEl.hidden = !mark;
  awayEl.textContent = mark;
  el.style.setProperty("--seat", `var(--seat-${seat % 6})`);

  const counts = countsOf(ctx, seat);
  const who = seat === ctx.me() && seat !== null ? t("a11y_plate_you", { name }) : name;
  const said = [counts?.text, mark, slow ? t("lag_mark_slow") : ""].filter(Boolean);
  el.dataset.say = said.length ? t("a11y_plate", { who, counts: said.join(", ") }) : who;
  sayPlate(el);
  // The tooltips of another player's counts (Unter Spannung's board): with the figure, and
  // whose pile it is.
  const handTip = el.querySelector(".counts");
  if (handTip && counts?.hand !== undefined) handTip.title = count("a11y_hand", counts.hand);
  const drawTip = el.querySelector(".draw-n-wrap");
  if (drawTip && counts?.draw !== undefined) {
    drawTip.title = seat === ctx.me() ? t("a11y_draw_yours", { n: counts.draw })
      : t("a11y_draw_of", { who: name, n: counts.draw });
  }
}

function sayPlate(el) {
  const text = el.classList.contains("frozen") ? `${el.dataset.say}, ${t("a11y_frozen")}` : el.dataset.say;
  const say = el.querySelector(".plate-say");
  if (say.textContent !== text) say.textContent = text;
}

// Show how long `seat` is still frozen on its plate (called by the ticker).
export function tickPlate(el, seat, ctx) {
  const left = ctx.frozenLeft(seat);
  const was = el.classList.contains("frozen");
  el.classList.toggle("frozen", left > 0);
  el.querySelector(".plate-frozen-s").textContent = left > 0 ? seconds(left) : "";
  if (was !== left > 0 && el.dataset.say !== undefined) sayPlate(el);
}

// A stack of `n` face-down cards drawn as a few offset layers, with its count; to a screen
// reader one picture with a name: "Your draw pile: 12 cards".
export function stack(game, label) {
  return h("div", { class: "stack", role: "img", "aria-label": label, dataset: { label } },
    h("div", { class: "stack-cards", "aria-hidden": "true" }, cardEl(game, null)),
    h("span", { class: "stack-count", "aria-hidden": "true" }));
}

export function updateStack(el, n) {
  el.style.setProperty("--depth", Math.min(n, 6));
  el.classList.toggle("empty", n === 0);
  el.querySelector(".stack-count").textContent = n;
  el.setAttribute("aria-label", `${el.dataset.label}: ${count("cards_n", n)}`);
}

// The frozen overlay over one's own cards: a ring that runs down, and the seconds. A picture
// only: the freeze is said once when it starts and when it ends (js/live.js, js/table.js).
export function freezeOverlay() {
  return h("div", { class: "freeze", "aria-hidden": "true" },
    h("div", { class: "freeze-ring" }, h("span", { class: "freeze-s" })),
    h("span", { class: "freeze-label", text: t("frozen") }));
}

export function tickFreeze(el, left, total) {
  const on = left > 0;
  el.classList.toggle("on", on);
  if (!on) return;
  el.querySelector(".freeze-s").textContent = seconds(left);
  el.querySelector(".freeze-ring").style.setProperty("--p", Math.max(0, Math.min(1, left / (total || 1))));
}

// A short word that pops up over `el` and fades ("Zu spät!"), with an optional second line.
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
export function pendingCard(arts, card) {
  const el = drawCard(arts, card);
  el.classList.add("pending-card");
  el.setAttribute("aria-hidden", "true");
  el.append(h("span", { class: "pending-badge", "aria-hidden": "true", text: "…" }));
  return el;
}

// A wrong card pressed shortly after its pile changed (another's card, the table's own step):
// the note says so, "The pile had changed to 7 ±2 only 540 ms before" (issue 30), so that a
// freeze after a near miss is understood. `age`: ms from that top's first frame to the
// press (js/sightings.js `age`); `card`: its name. "" when the pile had been still longer.
export const JUST_CHANGED_MS = 1000; // the table's late_grace_ms: a reaction and a long one
export function justChanged(age, card) {
  if (age === null || age === undefined || age > JUST_CHANGED_MS || !card) return "";
  return t("wrong_just_changed", { card, ms: Math.round(age / 10) * 10 });
}

// The card goes back where it came from, with a little bounce.
export function slideBack(el) {
  el.classList.remove("sent");
  if (reducedMotion()) return;
  el.animate([
    { transform: "translateY(-38%) scale(1.04)" },
    { transform: "translateY(6%)" },
    { transform: "none" },
  ], { duration: 380, easing: "cubic-bezier(.3,1.4,.5,1)" });
}

export function shake(el) {
  if (reducedMotion() || !el) return;
  el.animate([
    { transform: "translateX(0)" }, { transform: "translateX(-9px)" }, { transform: "translateX(8px)" },
    { transform: "translateX(-5px)" }, { transform: "translateX(0)" },
  ], { duration: 320 });
}

export function flip(el) {
  if (reducedMotion() || !el) return;
  el.animate([{ transform: "rotateY(90deg)" }, { transform: "none" }],
    { duration: 260, easing: "ease-out" });
}

export function bump(el) {
  if (reducedMotion() || !el) return;
  el.animate([{ transform: "scale(1)" }, { transform: "scale(1.12)" }, { transform: "scale(1)" }],
    { duration: 260 });
}

export const HINTS_KEY = "zz.hints";

// What every board shares: its hints (H) on or off, then its marks drawn again (its `mark()`).
export class Hinted {
  setHints(on) {
    this.hints = Boolean(on);
    /** @type {this & {mark(): void}} */ (this).mark(); // every board has its own
  }
}

// The hint key of both boards: turn the marks on or off, say so, remember it.
export function toggleHints(board) {
  board.setHints(!board.hints);
  store(HINTS_KEY, board.hints ? "1" : "0");
  board.note(t(board.hints ? "board_hints_on" : "board_hints_off"));
}

// A short note in the board's note line (beside the piles, never over the cards), said once.
export function showNote(el, text, ms = 1800) {
  el.textContent = text;
  clearTimeout(el.fade);
  el.fade = setTimeout(() => { el.textContent = ""; }, ms);
  announce(text);
}
