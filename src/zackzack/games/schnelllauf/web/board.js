// @ts-check
// The Schnelllauf board: your five places large at the bottom, the other player's at the
// top, the two discard piles between. A card (click, tap or 1–5) goes onto the pile it fits;
// when it fits both piles, or neither, the board asks "to which pile?" and the next pile
// (click, tap, Q/W or ←/→) says it, Esc lets go; or drag it there. A pile alone does
// nothing. An empty place (or M) asks which card moves into it. H marks the fitting cards.

import {
  Hinted, bump, flip, freezeOverlay, hintsHelp, hintsKey, HINTS_KEY, justChanged, pendingCard, Pendings,
  plate, shake, showNote, slideBack, stack, tag, tickFreeze, tickPlate, updatePlate, updateStack,
} from "../../js/board.js";
import { cardEl, chip, setCard } from "../../js/art.js";
import { flyFrom, h, store } from "../../js/dom.js";
import { count, t } from "../../js/i18n.js";
import { announce } from "../../js/live.js";
import { Sightings } from "../../js/sightings.js";
import * as timing from "../../js/timing.js";
import * as ART from "./cards.js";
import { parseFr, slFits } from "./cards.js";

const GAME = "schnelllauf";

/**
 * @typedef {import("../../js/board.js").BoardContext} BoardContext
 * @typedef {Protocol.Schnelllauf.View} View
 * @typedef {[string | null, number]} Spot a place: its face-up card (null: empty) and the cards under it
 * @typedef {{type: string, seat?: number} & Record<string, any>} AnyEvent
 * @typedef {{kind: "play" | "move", card: string, el: HTMLElement, shown: HTMLElement,
 *   pile?: number, source?: number, target?: number, changed?: string}} Pending
 * @typedef {{kind: "pile", place: number} | {kind: "move", target: number}} Choice
 */
const PLACES = 5;
const RANK_NAMES = ["*", "A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"];
/** @type {Record<string, number>} */
const PILE_KEYS = { q: 0, arrowleft: 0, w: 1, arrowright: 1 };
const PILE_KEY_NAMES = ["Q", "W"];
const DRAG_PX = 8;

// What a plate says a player holds (js/board.js `updatePlate`): the cards in their layout
// and their reserve, from the view the board shows.
/** @param {BoardContext} ctx @param {number} seat */
function layoutCounts(ctx, seat) {
  /** @type {View | undefined} */
  const state = ctx.view?.()?.state;
  const layout = state?.layouts?.[seat];
  if (!layout) return null;
  const n = layout.reduce((sum, [card, under]) => sum + (card ? 1 + under : 0), 0);
  return { text: `${count("a11y_layout", n)}, ${t("a11y_reserve", { n: state?.reserve_counts[seat] ?? 0 })}` };
}

export class SchnelllaufBoard extends Hinted { // setHints: js/board.js
  /** @param {HTMLElement} root @param {BoardContext} ctx */
  constructor(root, ctx) {
    super();
    this.ctx = ctx;
    /** @type {any} the view's state (`View`) once the first view came; its methods run after it */
    this.state = null;
    this.choice = null; // null, {kind: "pile", place} or {kind: "move", target}
    this.round = null;
    this.hints = store(HINTS_KEY) === "1";
    /** @type {(string | null)[]} */
    this.said = [null, null];
    // Own cards shown before the table's answer: {kind: "play", card, pile} on a pile or
    // {kind: "move", source, target} in an empty place, with `el` (the card pressed) and
    // `shown` (its pending picture).
    /** @type {Pendings<Pending>} */
    this.pending = new Pendings(() => {
      if (!this.state) return;
      this.labelPile(0);
      this.labelPile(1);
      this.mark();
    });
    this.sightings = new Sightings(() => ctx.reactionMs?.() ?? 600, (versions) => ctx.shown?.(versions));
    this.sides = [this.side("them"), this.side("me")];
    this.piles = [0, 1].map((p) => this.pileEl(p));
    this.el = h("div", { class: "board sl" },
      this.sides[0].el,
      h("div", { class: "center" },
        h("div", { class: "piles" }, this.piles.map((p) => p.el)),
        this.prompt = h("div", { class: "choose-prompt" }),
        this.callEl = h("div", { class: "call small", "aria-hidden": "true" })),
      this.sides[1].el);
    this.sides[1].el.append(this.freeze = freezeOverlay());
    this.moveHint = h("span", { class: "key-hint move-hint" }, h("kbd", {}, "M"), " ", t("move_hint"));
    this.sides[1].el.querySelector(".side-info").append(this.moveHint);
    root.replaceChildren(this.el);
    this.el.addEventListener("pointerdown", (/** @type {PointerEvent} */ e) => this.pointerDown(e));
    // A click without a pointer (a screen reader's activation) taps like a finger.
    this.el.addEventListener("click", (/** @type {MouseEvent} */ e) => {
      if (e.detail !== 0 || this.ctx.me() === null) return;
      const target = /** @type {Element} */ (e.target);
      const place = /** @type {HTMLElement | null} */ (target.closest(".side.me .place"));
      const pile = /** @type {HTMLElement | null} */ (target.closest(".pile-zone"));
      if (place) this.tapPlace(Number(place.dataset.place), e.timeStamp);
      else if (pile) this.pilePress(Number(pile.dataset.pile), e.timeStamp);
    });
  }

  destroy() {}

  /** @param {string} which */
  side(which) {
    const places = [...Array(PLACES).keys()].map((k) => {
      const el = h("div", { class: "place", dataset: { place: k } },
        h("div", { class: "backs" }),
        h("div", { class: "slot", text: t("empty_place") }),
        cardEl(ART, null),
        h("span", { class: "under-n" }));
      if (which === "me") {
        // The place is the button and its label says it all; the pictures inside are hidden.
        for (const part of el.querySelectorAll(".backs, :scope > .card, .under-n")) {
          part.setAttribute("aria-hidden", "true");
        }
        // The key is drawn by CSS (cards.css): the place's label already says it, and text
        // here would stand beside "+2" in what the button shows.
        el.append(h("kbd", { class: "place-key", "aria-hidden": "true", dataset: { key: k + 1 } }));
        el.setAttribute("aria-keyshortcuts", String(k + 1));
      }
      return el;
    });
    const reserve = stack(GAME, t("reserve"));
    const plateEl = plate(0);
    return {
      which, places, reserve, plate: plateEl,
      el: h("div", { class: `side ${which}` },
        h("div", { class: "side-info" }, plateEl,
          h("div", { class: "reserve" }, reserve, h("small", { text: t("reserve") }))),
        h("div", { class: "places" }, places)),
    };
  }

  /** @param {number} p */
  pileEl(p) {
    const under = cardEl(ART, null);
    const top = cardEl(ART, null);
    under.classList.add("under");
    top.classList.add("top");
    under.setAttribute("aria-hidden", "true");
    top.setAttribute("aria-hidden", "true");
    const pile = h("div", {
      class: "pile", dataset: { pile: p }, role: "button", tabindex: "0",
      "aria-keyshortcuts": PILE_KEY_NAMES[p],
    },
      h("div", { class: "slot" }), under, top);
    const el = h("div", { class: "pile-zone", dataset: { pile: p } },
      h("span", { class: "key-hint", "aria-hidden": "true" },
        h("kbd", {}, PILE_KEY_NAMES[p]), " / ", h("kbd", {}, p ? "→" : "←")),
      pile,
      h("span", { class: "pile-count" }),
      h("span", { class: "stands" }));
    return { el, pile, under, top, count: el.querySelector(".pile-count"), stands: el.querySelector(".stands") };
  }

  // Which seat each side shows: you at the bottom (a spectator sees seat 0 there).
  seats() {
    const me = this.ctx.me() ?? 0;
    return [1 - me, me];
  }

  /** @param {any} view the table's view @param {AnyEvent[]} [events] */
  update(view, events = []) {
    /** @type {View | null} */
    const state = view.state;
    if (!state) return;
    const before = this.rects();
    const prev = this.state;
    this.state = state;
    if (view.round !== this.round) {
      this.round = view.round;
      this.choose(null);
    }
    this.see(view.round, events);
    this.el.classList.toggle("watching", this.ctx.me() === null);

    this.sides.forEach((side, i) => {
      const seat = this.seats()[i];
      updatePlate(side.plate, seat, this.ctx, layoutCounts);
      side.plate.dataset.seat = seat;
      side.plate.classList.toggle("winner", state.winner === seat);
      const left = state.layouts[seat].reduce((n, [card, under]) => n + (card ? 1 + under : 0), 0);
      side.plate.querySelector(".plate-info").textContent = count("cards_n", left);
      updateStack(side.reserve, state.reserve_counts[seat]);
      side.places.forEach((el, k) => {
        const [card, under] = state.layouts[seat][k];
        const top = el.querySelector(":scope > .card");
        setCard(top, ART, card);
        top.hidden = !card;
        el.classList.toggle("empty", !card);
        el.dataset.under = under;
        el.querySelector(".under-n").textContent = under ? `+${under}` : "";
        const backs = el.querySelector(".backs");
        while (backs.children.length < Math.min(under, 4)) backs.append(cardEl(ART, null));
        while (backs.children.length > Math.min(under, 4)) backs.lastElementChild.remove();
      });
    });

    this.piles.forEach((p, i) => {
      const topCard = state.tops[i];
      if (prev?.tops[i] !== topCard || !p.top.dataset.card) {
        setCard(p.under, ART, state.pile_counts[i] > 1 ? prev?.tops[i] ?? null : null);
        setCard(p.top, ART, topCard);
      }
      p.under.hidden = state.pile_counts[i] < 2;
      p.top.hidden = !topCard;
      p.el.classList.toggle("unstarted", !topCard);
      this.labelPile(i);
      p.pile.style.setProperty("--depth", Math.min(Math.max(state.pile_counts[i] - 1, 0), 5));
      p.count.textContent = topCard ? count("cards_n", state.pile_counts[i]) : "";
      // A new pill for new words: the line's box stays where it is (css/table.css, .stands).
      const stands = topCard === "*" ? standsText(state.stands[i]) : "";
      if (p.stands.textContent !== stands) p.stands.replaceChildren(...stands ? [h("span", { text: stands })] : []);
      p.el.dataset.stands = JSON.stringify(state.stands[i]);
    });
    const mine = state.layouts[this.seats()[1]];
    const c = this.choice;
    if ((c?.kind === "pile" && !mine[c.place][0]) || (c?.kind === "move" && mine[c.target][0])) {
      this.choose(null);
    }
    this.mark();
    this.moveHint.hidden = this.ctx.me() === null
      || !(mine.some(([card]) => !card) && mine.some(([card, under]) => card && under));
    this.animate(events, before);
    this.tick();
  }

  // A pile's name: side, top card, key, and one's own cards on it not confirmed yet.
  /** @param {number} i */
  labelPile(i) {
    const topCard = this.state?.tops[i];
    const label = t("board_pile", {
      pile: t(i ? "board_pile_right" : "board_pile_left"),
      card: topCard ? ART.cardName(topCard) : t("board_pile_none"), key: PILE_KEY_NAMES[i],
    });
    const waiting = this.pending.all.filter((p) => p.kind === "play" && p.pile === i)
      .map((p) => t("board_pending", { card: ART.cardName(p.card) }));
    this.piles[i].pile.setAttribute("aria-label", [label, ...waiting].join(", "));
  }

  // The places' marks and labels: "Play 7 of hearts, key 1", the chosen card, the hints.
  mark() {
    if (!this.state) return;
    const c = this.choice;
    const watching = this.ctx.me() === null;
    this.sides[1].places.forEach((el, k) => {
      if (watching) {
        const shown = this.state.layouts[this.seats()[1]][k][0];
        el.removeAttribute("role");
        el.removeAttribute("tabindex");
        el.setAttribute("aria-label", shown ? ART.cardName(shown) : t("empty_place"));
        return;
      }
      el.setAttribute("role", "button");
      el.tabIndex = 0;
      const card = this.myTop(k);
      const fits = this.hints && card !== null && this.fitting(card).length > 0;
      el.querySelector(":scope > .card").classList.toggle("fits", fits);
      el.classList.toggle("selected", c?.kind === "pile" && c.place === k);
      el.classList.toggle("target", c?.kind === "move" && c.target === k);
      const key = String(k + 1);
      const under = this.state.layouts[this.seats()[1]][k][1];
      let label = card ? t("board_play", { card: ART.cardName(card), key })
        : t("board_empty_place", { n: key, key });
      if (card && under) label += `, ${t("board_under", { n: under })}`;
      const moving = this.pending.all.find((p) => p.kind === "move" && p.target === k);
      if (!card && moving) label += `, ${t("board_pending", { card: ART.cardName(moving.card) })}`;
      el.setAttribute("aria-label", fits ? `${label} – ${t("board_fits")}` : label);
    });
  }

  // The sentence of the piles' new top cards for the page's polite live region ("" if none).
  announce() {
    if (!this.state) return "";
    /** @type {string[]} */
    const said = [];
    this.state.tops.forEach((/** @type {string | null} */ top, /** @type {number} */ p) => {
      if (!top || top === this.said[p]) return;
      this.said[p] = top;
      said.push(`${t(p ? "board_pile_right" : "board_pile_left")}: ${ART.cardName(top)}`);
    });
    return said.join(". ");
  }

  // Note when each pile version comes on screen: its first frame (js/sightings.js).
  /** @param {number} round @param {AnyEvent[]} events */
  see(round, events) {
    const me = this.ctx.me();
    const own = new Set(events.filter((e) => e.type === "played" && e.seat === me && me !== null)
      .map((e) => e.pile));
    this.sightings.paint(this.state.versions, { round, own });
  }

  rects() {
    const rects = new Map();
    this.sides.forEach((side, i) => {
      const seat = this.seats()[i];
      side.places.forEach((el, k) => rects.set(`${seat}:${k}`, el.getBoundingClientRect()));
      rects.set(`reserve${seat}`, side.reserve.getBoundingClientRect());
    });
    return rects;
  }

  /** @param {AnyEvent[]} events @param {any} before */
  animate(events, before) {
    const placeEl = (/** @type {number | undefined} */ seat, /** @type {number} */ k) =>
      this.sides[this.seats().indexOf(seat ?? -1)]?.places[k];
    for (const event of events) {
      if (event.type === "played") {
        // One's own card already shown (pending) does not fly in again.
        const mine = event.seat === this.ctx.me()
          && this.pending.confirm((p) => p.kind === "play" && p.card === event.card && p.pile === event.pile);
        if (!mine) flyFrom(this.piles[event.pile].top, before.get(`${event.seat}:${event.place}`));
        if (event.revealed) flip(placeEl(event.seat, event.place)?.querySelector(":scope > .card"));
        this.ctx.call(ART.callOf(event.card), event.seat, this.callEl, false);
      } else if (event.type === "moved") {
        const mine = event.seat === this.ctx.me()
          && this.pending.confirm((p) => p.kind === "move" && p.source === event.source && p.target === event.target);
        if (!mine) {
          flyFrom(placeEl(event.seat, event.target)?.querySelector(":scope > .card"),
            before.get(`${event.seat}:${event.source}`));
        }
        flip(placeEl(event.seat, event.source)?.querySelector(":scope > .card"));
      } else if (event.type === "flipped") {
        event.cards.forEach((/** @type {string | null} */ card, /** @type {number} */ p) => {
          if (card) flyFrom(this.piles[p].top, before.get(`reserve${p}`), 380);
        });
      } else if (event.type === "reshuffled") {
        this.sides.forEach((side) => bump(side.reserve));
      } else if (event.type === "penalised") {
        const side = this.sides[this.seats().indexOf(event.seat ?? -1)];
        shake(side?.el.querySelector(".places"));
      }
    }
  }

  tick() {
    this.sides.forEach((side, i) => tickPlate(side.plate, this.seats()[i], this.ctx));
    const me = this.ctx.me();
    tickFreeze(this.freeze, me === null ? 0 : this.ctx.frozenLeft(me), this.ctx.penaltyMs());
  }

  // Acting ----------------------------------------------------------------------------------

  /** @param {number} k */
  myTop(k) {
    const me = this.ctx.me();
    return me === null || !this.state ? null : this.state.layouts[me][k]?.[0] ?? null;
  }

  // The piles `card` fits now, as they are on screen: one's own pending card counts as the
  // top (a card pressed onto it is judged by the server against it once it is taken).
  /** @param {string | null} card */
  fitting(card) {
    const wrap = this.ctx.options?.()?.wrap ?? true;
    return [0, 1].filter((p) => slFits(card, Boolean(this.state.tops[p]), this.shownStands(p), wrap));
  }

  /** @param {number} p */
  shownStands(p) {
    const last = this.pending.all.filter((q) => q.kind === "play" && q.pile === p).pop();
    const shown = last && parseFr(last.card);
    return shown && !shown.joker ? [shown.rank] : this.state.stands[p];
  }

  // Ask for a pile (the card of `place`) or for a card (to move into `target`), or stop asking.
  /** @param {Choice | null} choice */
  choose(choice) {
    this.choice = choice;
    this.el.classList.toggle("choosing-pile", choice?.kind === "pile");
    this.el.classList.toggle("choosing-card", choice?.kind === "move");
    if (!choice) {
      this.prompt.replaceChildren();
    } else if (choice.kind === "pile") {
      const card = this.myTop(choice.place);
      this.prompt.replaceChildren(
        h("span", { class: "prompt-text" }, chip(ART, card), " ", t("board_which_pile"), " ",
          h("kbd", {}, "Q"), " / ", h("kbd", {}, "W")),
        this.cancelButton());
      announce(t("board_which_pile_say", { card: ART.cardName(card) }));
    } else {
      this.prompt.replaceChildren(
        h("span", { class: "prompt-text" }, t("board_which_card"), " ",
          h("kbd", {}, "1"), " … ", h("kbd", {}, "5")),
        this.cancelButton());
      announce(t("board_which_card_say", { n: choice.target + 1 }));
    }
    this.mark();
  }

  // A short note in the prompt's line, under the piles (while nothing is asked).
  /** @param {string} text */
  note(text) {
    if (this.choice) return announce(text);
    this.prompt.replaceChildren(this.noteEl = h("span", { class: "board-note" }));
    showNote(this.noteEl, text);
  }

  cancelButton() {
    return h("button", {
      class: "prompt-cancel", type: "button", onclick: () => this.choose(null),
    }, h("kbd", { "aria-hidden": "true" }, "Esc"), h("span", { text: t("board_cancel") }));
  }

  // A card (click, tap, key 1–5) or an empty place was pressed at `at`.
  /** @param {number} k @param {number} at */
  tapPlace(k, at) {
    const card = this.myTop(k);
    const c = this.choice;
    if (!card) {
      if (c?.kind === "pile") return this.move(c.place, k, at);
      return this.chooseMove(k);
    }
    if (c?.kind === "move") return this.move(k, c.target, at);
    if (c?.kind === "pile" && c.place === k) return this.choose(null);
    const fits = this.fitting(card);
    if (fits.length === 1) return this.play(k, fits[0], at);
    // Both piles (a choice) or neither (a wrong card, played only on purpose): ask.
    return this.choose({ kind: "pile", place: k });
  }

  // A pile (click, tap, Q/W, ←/→) was pressed: it answers "to which pile?", else nothing.
  /** @param {number} p @param {number} at */
  pilePress(p, at) {
    if (this.choice?.kind === "pile") return this.play(this.choice.place, p, at);
    return this.note(t("select_first"));
  }

  /** @param {number} target */
  chooseMove(target) {
    const me = this.ctx.me();
    if (me === null || !this.state.layouts[me].some((/** @type {Spot} */ [card, under]) => card && under)) {
      return this.note(t("nothing_to_move"));
    }
    return this.choose({ kind: "move", target });
  }

  // Play the card of place `k` onto pile `p`, pressed (key, click, drop) at `at`. The card
  // shows on the pile at once, pending, and leaves its place; the table's answer confirms it
  // (the played event, `confirm`) or sends it back.
  /** @param {number} k @param {number} p */
  async play(k, p, at = performance.now()) {
    this.choose(null);
    const card = this.myTop(k);
    if (!card || !this.state.tops[p]) return;
    const el = this.sides[1].places[k].querySelector(":scope > .card");
    if (el.classList.contains("sent")) return;
    if (this.ctx.frozenLeft(this.ctx.me()) > 0) {
      shake(this.sides[1].el.querySelector(".places"));
      return;
    }
    const record = timing.pressed(GAME, "play", at);
    const seen = this.sightings.aimed(p, this.state.versions[p], at);
    const changed = justChanged(this.sightings.age(p, this.state.versions[p], at),
      this.state.tops[p] && ART.cardName(this.state.tops[p]));
    /** @type {Pending} */
    const pending = { kind: "play", card, pile: p, el, shown: pendingCard(ART, card), changed };
    this.show(pending, this.piles[p].pile, record);
    const ack = await this.ctx.act({ type: "play", card, pile: p, seen });
    this.answered(pending, record, ack);
  }

  /** @param {number | null} source @param {number | undefined} target */
  async move(source, target, at = performance.now()) {
    this.choose(null);
    const me = this.ctx.me();
    if (me === null) return undefined;
    const into = target ?? this.state.layouts[me].findIndex((/** @type {Spot} */ [card]) => !card);
    if (into < 0) return this.note(t("no_empty_place"));
    if (source === null || this.state.layouts[me][source][1] === 0) return this.note(t("nothing_to_move"));
    const card = this.myTop(source);
    const el = this.sides[1].places[source].querySelector(":scope > .card");
    const place = this.sides[1].places[into];
    if (!card || el.classList.contains("sent") || this.pending.all.some((q) => q.target === into)) {
      return undefined;
    }
    const record = timing.pressed(GAME, "move", at);
    /** @type {Pending} */
    const pending = { kind: "move", card, source, target: into, el, shown: pendingCard(ART, card) };
    this.show(pending, place, record);
    const ack = await this.ctx.act({ type: "move", source, target: into });
    this.answered(pending, record, ack);
    return undefined;
  }

  // Show `pending` in `where` (a pile, an empty place) at once; its card leaves its place.
  /** @param {Pending} pending @param {HTMLElement} where @param {timing.Play} record */
  show(pending, where, record) {
    this.pending.show(pending, where);
    this.pending.relabel();
    timing.shown(record);
  }

  // The table's answer to a pending action: yes (the events drew it already), or no: the
  // card goes back to its place, with the note of why.
  /** @param {Pending} pending @param {timing.Play} record @param {any} ack */
  answered(pending, record, ack) {
    timing.decided(record, ack);
    this.pending.settle(pending);
    const { el } = pending;
    el.classList.remove("sent", "pending");
    if (ack.ok) return;
    slideBack(el);
    if (ack.code === "too_late") tag(el, t("too_late"), "late", this.ctx.raceLost(ack));
    else if (ack.code === "does_not_fit") {
      tag(el, t("wrong_card"), "wrong", pending.changed ?? "");
      if (pending.changed) announce(pending.changed);
    }
    this.ctx.refused(ack);
  }

  // Clicks, taps and drags: a short press is a click, a longer way is a drag.
  /** @param {PointerEvent} e */
  pointerDown(e) {
    if (this.ctx.me() === null || e.button > 0) return;
    const target = /** @type {Element} */ (e.target);
    const place = /** @type {HTMLElement | null} */ (target.closest(".side.me .place"));
    const pile = /** @type {HTMLElement | null} */ (target.closest(".pile-zone"));
    if (pile) {
      this.pilePress(Number(pile.dataset.pile), e.timeStamp);
      return;
    }
    if (!place) return;
    const k = Number(place.dataset.place);
    if (!this.myTop(k)) {
      this.tapPlace(k, e.timeStamp);
      return;
    }
    const card = /** @type {HTMLElement} */ (place.querySelector(":scope > .card"));
    const x0 = e.clientX;
    const y0 = e.clientY;
    let dragging = false;
    card.setPointerCapture(e.pointerId);
    const moveHandler = (/** @type {PointerEvent} */ m) => {
      const dx = m.clientX - x0;
      const dy = m.clientY - y0;
      if (!dragging && Math.hypot(dx, dy) > DRAG_PX) {
        dragging = true;
        card.classList.add("dragging");
        this.choose(null);
      }
      if (dragging) card.style.transform = `translate(${dx}px, ${dy}px) rotate(${dx / 40}deg)`;
    };
    const upHandler = (/** @type {PointerEvent} */ u) => {
      card.removeEventListener("pointermove", moveHandler);
      card.removeEventListener("pointerup", upHandler);
      card.removeEventListener("pointercancel", upHandler);
      if (!dragging) {
        if (u.type === "pointerup") this.tapPlace(k, e.timeStamp);
        return;
      }
      card.classList.remove("dragging");
      card.style.transform = "";
      const under = document.elementsFromPoint(u.clientX, u.clientY);
      const target = /** @type {HTMLElement | undefined} */ (under.find((el) => el.matches?.(".pile-zone, .side.me .place")));
      if (target?.classList.contains("pile-zone")) this.play(k, Number(target.dataset.pile), u.timeStamp);
      else if (target && !this.myTop(Number(target.dataset.place))) this.move(k, Number(target.dataset.place), u.timeStamp);
    };
    card.addEventListener("pointermove", moveHandler);
    card.addEventListener("pointerup", upHandler);
    card.addEventListener("pointercancel", upHandler);
  }

  /** @param {KeyboardEvent} e */
  key(e) {
    if (this.ctx.me() === null || !this.state) return false;
    const k = e.key.toLowerCase();
    const focused = document.activeElement;
    if ((k === "enter" || k === " ") && focused?.closest?.(".side.me .place, .pile-zone")) {
      const place = focused.closest(".side.me .place");
      if (place instanceof HTMLElement) this.tapPlace(Number(place.dataset.place), e.timeStamp);
      else this.pilePress(Number(/** @type {HTMLElement} */ (focused.closest(".pile-zone")).dataset.pile), e.timeStamp);
      return true;
    }
    if (k >= "1" && k <= "5" && k.length === 1) {
      this.tapPlace(+k - 1, e.timeStamp);
      return true;
    }
    if (k in PILE_KEYS) {
      this.pilePress(PILE_KEYS[k], e.timeStamp);
      return true;
    }
    if (k === "m") {
      if (this.choice?.kind === "pile") this.move(this.choice.place, undefined, e.timeStamp);
      else {
        const empty = this.state.layouts[this.ctx.me() ?? 0].findIndex((/** @type {Spot} */ [card]) => !card);
        if (empty < 0) this.note(t("no_empty_place"));
        else this.chooseMove(empty);
      }
      return true;
    }
    if (hintsKey(this, k)) return true;
    if (k === "escape" && this.choice) {
      this.choose(null);
      return true;
    }
    return false;
  }

  helpKeys() {
    return [
      ["1 … 5", t("board_keys_sl_card")],
      ["Q / ←   W / →", t("board_keys_sl_pile")],
      ["M", t("board_keys_sl_move")],
      hintsHelp(),
    ];
  }
}

/** @param {number[] | null | undefined} stands */
function standsText(stands) {
  if (!stands) return t("joker_free");
  return t("joker_stands", { ranks: stands.map((r) => RANK_NAMES[r]).join(" / ") });
}

// The board the client loads for this game (js/games.js).
export { SchnelllaufBoard as Board };
