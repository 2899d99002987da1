// @ts-check
// The Unter Spannung board: your hand large, the discard pile in the middle, the others
// around with their card counts. Click a card (or press its key) to play it; D or Space draws.
// A card keeps its key while it is in the hand (as the terminal's tui/keys.py StableKeys);
// H marks the cards that fit (hints).

import {
  Hinted, bump, flip, freezeOverlay, hintsHelp, hintsKey, HINTS_KEY, justChanged, pendingCard, Pendings,
  plate, shake, showNote, slideBack, stack, tag, tickFreeze, tickPlate, updatePlate, updateStack,
} from "../../js/board.js";
import { cardEl, setCard } from "../../js/art.js";
import { flyFrom, glide, h, positions, store, sync } from "../../js/dom.js";
import { count, t } from "../../js/i18n.js";
import { icon } from "../../js/icons.js";
import { announce } from "../../js/live.js";
import { Sightings } from "../../js/sightings.js";
import * as timing from "../../js/timing.js";
import * as ART from "./cards.js";
import { parseUs, usFits } from "./cards.js";

const GAME = "unter-spannung";

/**
 * @typedef {import("../../js/board.js").BoardContext} BoardContext
 * @typedef {{type: string, seat?: number} & Record<string, any>} AnyEvent
 * @typedef {{card: string, el: HTMLElement, shown: HTMLElement}} Pending
 */
// Hand keys: digits, then letters (no D: it draws; no H: hints; no Y/Z: they swap between
// keyboards).
export const HAND_KEYS = "1234567890qwertuiopasfgjklxcvbnm";
// The least of a hand card that shows when the hand overlaps: WCAG 2.2's target size.
const TARGET_PX = 24;

// Which key each hand card has, by the rule of tui/keys.py StableKeys: a new round's hand
// is sorted and keyed in order; a card keeps its key while it is in the hand; a card that
// comes takes the first free key (usually that of the card played last), or, with every key
// taken, goes after the others without one. Of two equal cards the one pressed leaves.
// What a plate says a player holds (js/board.js `updatePlate`): a hand and a draw pile, from
// the view the board shows; and the tooltips of another player's counts on their plate, with
// the figure and whose pile it is.
/** @param {BoardContext} ctx @param {number} seat @returns {import("../../js/board.js").PlateCounts} */
function handCounts(ctx, seat) {
  const state = ctx.view?.()?.state;
  if (!state) return null;
  const hand = state.hand_counts?.[seat] ?? (seat === ctx.me() ? state.hand?.length : undefined);
  if (hand === undefined) return null;
  const draw = state.draw_counts?.[seat] ?? 0;
  const tips = (/** @type {HTMLElement} */ el) => {
    const handTip = /** @type {HTMLElement | null} */ (el.querySelector(".counts"));
    if (handTip) handTip.title = count("a11y_hand", hand);
    const drawTip = /** @type {HTMLElement | null} */ (el.querySelector(".draw-n-wrap"));
    if (drawTip) {
      drawTip.title = seat === ctx.me() ? t("a11y_draw_yours", { n: draw })
        : t("a11y_draw_of", { who: ctx.name(seat), n: draw });
    }
  };
  return { text: `${count("a11y_hand", hand)}, ${t("a11y_draw", { n: draw })}`, tips };
}

export class StableKeys {
  constructor(size = HAND_KEYS.length) {
    this.size = size;
    /** @type {(string | null)[]} */
    this.places = []; // place i holds the card of key i, or null (free)
    /** @type {(number | null)[]} */
    this.ids = []; // a number per held card, for its element
    /** @type {number | null} */
    this.round = null;
    /** @type {number | null} */
    this.last = null; // the place whose key was pressed last
    this.next = 0;
  }

  // The places of `hand` (the view's hand, in round `round`): [{card, id, place}], in key order.
  /** @param {number} round @param {string[]} hand @returns {{card: string, id: number | null, place: number}[]} */
  arrange(round, hand) {
    if (round !== this.round || !this.places.some((card) => card !== null)) {
      this.round = round;
      this.last = null;
      this.places = [...hand].sort(byValue);
      this.ids = this.places.map(() => this.next++);
    } else {
      /** @type {Map<string, number>} */
      const left = new Map();
      for (const card of hand) left.set(card, (left.get(card) ?? 0) + 1);
      /** @type {(string | null)[]} */
      const places = this.places.map(() => null);
      /** @type {(number | null)[]} */
      const ids = this.places.map(() => null);
      const order = [...this.places.keys()].sort((a, b) => Number(a === this.last) - Number(b === this.last));
      for (const place of order) {
        const card = this.places[place];
        if (card !== null && (left.get(card) ?? 0) > 0) {
          places[place] = card;
          ids[place] = this.ids[place];
          left.set(card, (left.get(card) ?? 0) - 1);
        }
      }
      const coming = [];
      for (let place = this.size; place < places.length; place++) {
        if (places[place] !== null) coming.push([places[place], ids[place]]);
      }
      const arriving = [...left].flatMap(([card, n]) => Array(n).fill(card)).sort(byValue);
      coming.push(...arriving.map((card) => [card, this.next++]));
      places.length = Math.min(places.length, this.size);
      ids.length = places.length;
      for (let place = 0; place < places.length && coming.length; place++) {
        if (places[place] === null) [places[place], ids[place]] = /** @type {[any, any]} */ (coming.shift());
      }
      for (const [card, id] of coming) {
        places.push(card);
        ids.push(id);
      }
      while (places.length && places[places.length - 1] === null) {
        places.pop();
        ids.pop();
      }
      this.places = places;
      this.ids = ids;
    }
    return this.places.flatMap((card, place) => (card === null ? [] : [{ card, id: this.ids[place], place }]));
  }

  /** @param {number} place */
  pressed(place) {
    this.last = place;
  }
}

// A board is made anew when the language changes (js/table.js): the keys stay with the page's
// board box (for the same address), so that a language switch does not move them.
/** @type {WeakMap<HTMLElement, {where: string, keys: StableKeys}>} */
const KEPT = new WeakMap();

/** @param {string | null} a @param {string | null} b */
function byValue(a, b) {
  const x = parseUs(a);
  const y = parseUs(b);
  return x && y ? x.value - y.value || x.spread - y.spread : String(a).localeCompare(String(b));
}

export class UnterSpannungBoard extends Hinted { // setHints: js/board.js
  /** @param {HTMLElement} root @param {BoardContext} ctx */
  constructor(root, ctx) {
    super();
    this.ctx = ctx;
    this.state = null;
    this.plates = new Map();
    const kept = KEPT.get(root);
    this.keys = kept?.where === location.pathname ? kept.keys : new StableKeys();
    KEPT.set(root, { where: location.pathname, keys: this.keys });
    this.hints = store(HINTS_KEY) === "1";
    this.saidTop = null;
    /** @type {Pendings<Pending>} */
    this.pending = new Pendings(() => this.labelPile()); // own cards shown on the pile
    this.sightings = new Sightings(() => ctx.reactionMs?.() ?? 600, (versions) => ctx.shown?.(versions));
    this.el = h("div", { class: "board us" },
      this.others = h("div", { class: "others" }),
      h("div", { class: "center" },
        h("div", { class: "pile-zone" },
          this.pile = h("div", { class: "pile", role: "img", "aria-label": t("discard") },
            this.under = cardEl(ART, null),
            this.top = cardEl(ART, null)),
          this.pileCount = h("span", { class: "pile-count" })),
        this.callEl = h("div", { class: "call", "aria-hidden": "true" }),
        this.noteEl = h("div", { class: "board-note" })),
      this.mine = h("div", { class: "mine" },
        this.draw = h("button", { class: "draw", type: "button", title: `${t("draw")} (D)` },
          this.drawStack = stack(GAME, t("draw_pile")),
          h("span", { class: "key-hint" }, h("kbd", {}, "D"), " ", t("draw"))),
        h("div", { class: "hand-wrap" },
          this.handPlate = plate(0),
          this.hand = h("div", { class: "hand", role: "group", "aria-label": t("hand") }),
          this.freeze = freezeOverlay())));
    this.under.classList.add("under");
    this.top.classList.add("top");
    this.draw.addEventListener("click", () => this.drawCard());
    this.hand.addEventListener("click", (/** @type {MouseEvent} */ e) => {
      const card = /** @type {HTMLElement | null} */ (/** @type {Element} */ (e.target).closest(".card"));
      if (card) this.play(card, e.timeStamp);
    });
    root.replaceChildren(this.el);
    this.resize = new ResizeObserver(() => this.fit());
    this.resize.observe(this.hand);
  }

  destroy() {
    this.resize.disconnect();
  }

  // Render from the view; animate from the events that led to it.
  /** @param {any} view the table's view @param {AnyEvent[]} [events] */
  update(view, events = []) {
    const state = view.state;
    if (!state) return;
    const me = this.ctx.me();
    const before = this.rects();
    const prevTop = this.state?.top;
    this.state = state;
    this.see(view.round, events, me);
    this.el.classList.toggle("watching", me === null);

    const others = [...Array(view.players).keys()].filter((s) => s !== me);
    sync(this.others, others, String, (seat) => this.otherPlate(seat), (el, seat) => {
      updatePlate(el, seat, this.ctx, handCounts);
      el.querySelector(".fan").style.setProperty("--n", Math.min(state.hand_counts[seat], 9));
      el.querySelector(".hand-n").textContent = state.hand_counts[seat];
      el.querySelector(".draw-n").textContent = state.draw_counts[seat];
      el.classList.toggle("winner", state.winner === seat);
    });
    for (const el of this.others.children) this.plates.set(+el.dataset.seat, el);

    if (prevTop !== state.top || !this.top.dataset.card) {
      setCard(this.under, ART, state.discard_count > 1 ? prevTop ?? null : null);
      this.under.hidden = state.discard_count < 2;
      setCard(this.top, ART, state.top);
    }
    this.labelPile();
    this.pile.style.setProperty("--depth", Math.min(state.discard_count - 1, 5));
    this.pileCount.textContent = count("cards_n", state.discard_count);

    this.mine.hidden = me === null;
    if (me !== null) {
      updatePlate(this.handPlate, me, this.ctx, handCounts);
      this.handPlate.dataset.seat = me;
      this.handPlate.querySelector(".plate-info").textContent = t("in_hand", { n: state.hand.length });
      this.handPlate.classList.toggle("winner", state.winner === me);
      updateStack(this.drawStack, state.draw_counts[me]);
      this.draw.disabled = state.draw_counts[me] === 0 || state.over;
      // Every key's place is a slot: a card, or the gap a played card left until a draw fills
      // it (StableKeys), so that no other card moves when one leaves (issue 30).
      this.keys.arrange(view.round, state.hand);
      const slots = this.keys.places.map((card, place) => (card === null ? { place }
        : { card, id: this.keys.ids[place], place }));
      const moved = positions(this.hand.children);
      sync(this.hand, slots, (c) => (c.card ? `${c.card}#${c.id}` : `gap#${c.place}`),
        (c) => (c.card ? cardEl(ART, c.card) : h("div", { class: "hand-gap", "aria-hidden": "true" })), (el, c) => {
        if (!c.card) return;
        el.tabIndex = 0;
        el.setAttribute("role", "button");
        el.firstElementChild?.setAttribute("aria-hidden", "true"); // the label names it
        el.dataset.place = c.place;
        el.dataset.hotkey = HAND_KEYS[c.place] ?? "";
        if (el.dataset.hotkey) el.setAttribute("aria-keyshortcuts", el.dataset.hotkey);
        else el.removeAttribute("aria-keyshortcuts");
      });
      this.mark();
      this.fit();
      glide(moved);
    }
    this.animate(events, before);
    this.tick();
  }

  // The pile's name: its top card, and one's own cards on it not confirmed yet.
  labelPile() {
    if (!this.state) return;
    const label = t("board_discard", { card: ART.cardName(this.state.top) });
    const waiting = this.pending.all.map((p) => t("board_pending", { card: ART.cardName(p.card) }));
    this.pile.setAttribute("aria-label", [label, ...waiting].join(", "));
  }

  mark() {
    const top = this.state?.top;
    for (const el of this.hand.querySelectorAll(":scope > .card")) {
      const fits = this.hints && usFits(el.dataset.card, top);
      el.classList.toggle("fits", fits);
      const card = ART.cardName(el.dataset.card);
      const key = el.dataset.hotkey?.toUpperCase();
      const label = key ? t("board_play", { card, key }) : t("board_play_nokey", { card });
      el.setAttribute("aria-label", fits ? `${label} – ${t("board_fits")}` : label);
    }
  }

  /** @param {string} text */
  note(text) {
    showNote(this.noteEl, text);
  }

  // The sentence of a new top card for the page's polite live region ("" when it is the same).
  announce() {
    const top = this.state?.top ?? null;
    if (!top || top === this.saidTop) return "";
    this.saidTop = top;
    return t("board_top", { card: ART.cardName(top) });
  }

  // Note when this pile version comes on screen: its first frame (js/sightings.js).
  /** @param {number} round @param {AnyEvent[]} events @param {number | null} me */
  see(round, events, me) {
    const own = events.some((e) => e.type === "played" && e.seat === me && me !== null);
    this.sightings.paint([this.state.version], { round, own: new Set(own ? [0] : []) });
  }

  /** @param {number} seat */
  otherPlate(seat) {
    const el = plate(seat);
    el.classList.add("other");
    el.querySelector(".plate-info").append(
      h("span", { class: "fan", "aria-hidden": "true" }),
      h("span", { class: "counts", title: t("in_hand", { n: "" }) }, h("b", { class: "hand-n" })),
      h("span", { class: "draw-n-wrap", title: t("draw_pile") }, icon("pile"), h("span", { class: "draw-n" })));
    return el;
  }

  rects() {
    const rects = new Map();
    for (const el of this.hand.querySelectorAll(":scope > .card")) rects.set(el.dataset.key, el.getBoundingClientRect());
    for (const [seat, el] of this.plates) rects.set(`seat${seat}`, el.getBoundingClientRect());
    rects.set("draw", this.drawStack.getBoundingClientRect());
    return rects;
  }

  /** @param {AnyEvent[]} events @param {any} before */
  animate(events, before) {
    const me = this.ctx.me();
    for (const event of events) {
      if (event.type === "played") {
        // One's own card already shown (pending): it is there, it does not fly in again.
        if (event.seat === me && this.pending.confirm((p) => p.card === event.card)) {
          this.ctx.call(parseUs(event.card)?.value ?? "", event.seat, this.callEl);
          continue;
        }
        const origin = event.seat === me
          ? [...before.entries()].find(([k]) => k.startsWith(`${event.card}#`))?.[1]
          : before.get(`seat${event.seat}`);
        flyFrom(this.top, origin);
        this.ctx.call(parseUs(event.card)?.value ?? "", event.seat, this.callEl);
      } else if (event.type === "rotated") {
        flip(this.top);
      } else if (event.type === "drew") {
        if (event.seat === me) {
          const drawn = [...this.hand.querySelectorAll(":scope > .card")].find((el) => !before.has(el.dataset.key));
          if (drawn) flyFrom(drawn, before.get("draw"), 240);
        } else {
          bump(this.plates.get(event.seat)?.querySelector(".fan"));
        }
      } else if (event.type === "penalised") {
        shake(event.seat === me ? this.hand : this.plates.get(event.seat));
      }
    }
  }

  // Lay the hand's slots out from the left (a card that leaves moves no other): in one row,
  // overlapping when it is long; when even then less than TARGET_PX of each card would show
  // (a phone), in two or more rows, each row overlapping the one above by a third. The hand
  // never runs past its box, so it never covers the draw pile (issue 30).
  fit() {
    const slots = this.hand.children;
    const n = slots.length;
    const card = this.hand.querySelector(":scope > .card");
    if (!n || !card) return;
    const width = card.offsetWidth;
    const height = card.offsetHeight;
    const room = this.hand.clientWidth;
    if (!width || !room) return;
    const strip = (/** @type {number} */ k) => (k > 1 ? Math.min(width + 12, (room - width) / (k - 1)) : width + 12);
    let rows = 1;
    while (rows < 4 && strip(Math.ceil(n / rows)) < TARGET_PX) rows++;
    const per = Math.ceil(n / rows);
    const step = Math.round(height * 0.62);
    this.hand.style.setProperty("--per", per);
    this.hand.style.setProperty("--strip", `${Math.max(strip(per), TARGET_PX)}px`);
    this.hand.style.setProperty("--row", `${step}px`);
    this.hand.classList.toggle("rows", rows > 1);
    this.hand.style.height = rows > 1 ? `${18 + height + (rows - 1) * step}px` : "";
  }

  tick() {
    const me = this.ctx.me();
    for (const [seat, el] of this.plates) tickPlate(el, seat, this.ctx);
    if (me !== null) {
      tickPlate(this.handPlate, me, this.ctx);
      tickFreeze(this.freeze, this.ctx.frozenLeft(me), this.ctx.penaltyMs());
    }
  }

  // Acting ----------------------------------------------------------------------------------

  // Play the card `el`, pressed (key, click) at `at` (performance.now() time). The card shows
  // on the pile at once, pending, and leaves the hand; the table's answer confirms it (the
  // played event, `confirm`) or sends it back.
  /** @param {HTMLElement} el */
  async play(el, at = performance.now()) {
    if (!this.state || this.ctx.me() === null || el.classList.contains("sent")) return;
    if (this.ctx.frozenLeft(this.ctx.me()) > 0) {
      shake(this.hand);
      return;
    }
    const card = el.dataset.card ?? "";
    const record = timing.pressed(GAME, "play", at);
    const pending = { card, el, shown: pendingCard(ART, card) };
    this.pending.show(pending, this.pile);
    this.labelPile();
    timing.shown(record);
    this.keys.pressed(Number(el.dataset.place));
    const seen = this.sightings.aimed(0, this.state.version, at);
    const changed = justChanged(this.sightings.age(0, this.state.version, at), ART.cardName(this.state.top));
    const ack = await this.ctx.act({ type: "play", card, seen });
    timing.decided(record, ack);
    this.pending.settle(pending);
    if (ack.ok) {
      // With two equal cards the element that stays may be this one: it is back in the hand.
      el.classList.remove("sent", "pending");
      return;
    }
    const why = ack.code === "too_late" ? this.ctx.raceLost(ack) : "";
    if (el.isConnected) {
      el.classList.remove("pending");
      slideBack(el);
      if (ack.code === "too_late") tag(el, t("too_late"), "late", why);
      else if (ack.code === "does_not_fit") tag(el, t("wrong_card"), "wrong", changed);
    }
    if (ack.code === "does_not_fit" && changed) announce(changed);
    this.ctx.refused(ack);
  }

  async drawCard() {
    if (!this.state || this.ctx.me() === null || this.draw.disabled) return;
    bump(this.drawStack);
    const ack = await this.ctx.act({ type: "draw" });
    if (!ack.ok) this.ctx.refused(ack);
  }

  /** @param {KeyboardEvent} e */
  key(e) {
    if (this.ctx.me() === null || !this.state) return false;
    const k = e.key.toLowerCase();
    if (k === "enter" && document.activeElement?.closest?.(".hand .card")) {
      this.play(/** @type {HTMLElement} */ (document.activeElement), e.timeStamp);
      return true;
    }
    if (k === " " || k === "d") {
      this.drawCard();
      return true;
    }
    if (hintsKey(this, k)) return true;
    const i = HAND_KEYS.indexOf(k);
    if (i < 0 || k.length !== 1) return false;
    const el = this.hand.querySelector(`.card[data-place="${i}"]`);
    if (el) this.play(el, e.timeStamp);
    return true;
  }

  helpKeys() {
    return [
      ["1 … 9, 0, Q … P, A …", t("keys_us_cards")],
      ["D / Space", t("keys_us_draw")],
      hintsHelp(),
    ];
  }
}

// The board the client loads for this game (js/games.js).
export { UnterSpannungBoard as Board };
