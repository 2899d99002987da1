// The Schnelllauf board: your five places large at the bottom, the other player's at the
// top, the two discard piles between. Choose a card (click, tap or 1–5), then a pile
// (click, tap, Q/W or ←/→); or drag it there. M (or an empty place) moves it.

import {
  bump, flip, freezeOverlay, plate, shake, slideBack, stack, tag, tickFreeze, tickPlate,
  updatePlate, updateStack,
} from "./board.js";
import { callOf, cardEl, setCard } from "./cards.js";
import { flyFrom, h } from "./dom.js";
import { count, t } from "./i18n.js";
import { Sightings } from "./sightings.js";

const GAME = "schnelllauf";
const PLACES = 5;
const RANK_NAMES = ["*", "A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"];
const PILE_KEYS = { q: 0, arrowleft: 0, w: 1, arrowright: 1 };
const DRAG_PX = 8;

export class SchnelllaufBoard {
  constructor(root, ctx) {
    this.ctx = ctx;
    this.state = null;
    this.selected = null;
    this.armed = null;
    this.sightings = new Sightings(() => ctx.reactionMs?.() ?? 600);
    this.sides = [this.side("them"), this.side("me")];
    this.piles = [0, 1].map((p) => this.pileEl(p));
    this.el = h("div", { class: "board sl" },
      this.sides[0].el,
      h("div", { class: "center" },
        h("div", { class: "piles" }, this.piles.map((p) => p.el)),
        this.callEl = h("div", { class: "call small", "aria-live": "polite" })),
      this.sides[1].el);
    this.sides[1].el.append(this.freeze = freezeOverlay());
    this.moveHint = h("span", { class: "key-hint move-hint" }, h("kbd", {}, "M"), " ", t("move_hint"));
    this.sides[1].el.querySelector(".side-info").append(this.moveHint);
    root.replaceChildren(this.el);
    this.el.addEventListener("pointerdown", (e) => this.pointerDown(e));
  }

  destroy() {}

  side(which) {
    const places = [...Array(PLACES).keys()].map((k) => {
      const el = h("div", { class: "place", dataset: { place: k } },
        h("div", { class: "backs" }),
        h("div", { class: "slot", text: t("empty_place") }),
        cardEl(GAME, null),
        h("span", { class: "under-n" }));
      if (which === "me") el.append(h("kbd", { class: "place-key", text: k + 1 }));
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

  pileEl(p) {
    const under = cardEl(GAME, null);
    const top = cardEl(GAME, null);
    under.classList.add("under");
    top.classList.add("top");
    const pile = h("div", { class: "pile", dataset: { pile: p }, role: "button", tabindex: "-1" },
      h("div", { class: "slot" }), under, top);
    const el = h("div", { class: "pile-zone", dataset: { pile: p } },
      h("span", { class: "key-hint" }, h("kbd", {}, p ? "W" : "Q"), " / ", h("kbd", {}, p ? "→" : "←")),
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

  update(view, events = []) {
    const state = view.state;
    if (!state) return;
    const before = this.rects();
    const prev = this.state;
    this.state = state;
    this.see(view.round, events);
    this.el.classList.toggle("watching", this.ctx.me() === null);

    this.sides.forEach((side, i) => {
      const seat = this.seats()[i];
      updatePlate(side.plate, seat, this.ctx);
      side.plate.dataset.seat = seat;
      side.plate.classList.toggle("winner", state.winner === seat);
      const left = state.layouts[seat].reduce((n, [card, under]) => n + (card ? 1 + under : 0), 0);
      side.plate.querySelector(".plate-info").textContent = count("cards_n", left);
      updateStack(side.reserve, state.reserve_counts[seat]);
      side.places.forEach((el, k) => {
        const [card, under] = state.layouts[seat][k];
        const top = el.querySelector(":scope > .card");
        setCard(top, GAME, card);
        top.hidden = !card;
        el.classList.toggle("empty", !card);
        el.dataset.under = under;
        el.querySelector(".under-n").textContent = under ? `+${under}` : "";
        const backs = el.querySelector(".backs");
        while (backs.children.length < Math.min(under, 4)) backs.append(cardEl(GAME, null));
        while (backs.children.length > Math.min(under, 4)) backs.lastElementChild.remove();
        el.classList.toggle("selected", i === 1 && this.selected === k);
      });
    });

    this.piles.forEach((p, i) => {
      const topCard = state.tops[i];
      if (prev?.tops[i] !== topCard || !p.top.dataset.card) {
        setCard(p.under, GAME, state.pile_counts[i] > 1 ? prev?.tops[i] ?? null : null);
        setCard(p.top, GAME, topCard);
      }
      p.under.hidden = state.pile_counts[i] < 2;
      p.top.hidden = !topCard;
      p.el.classList.toggle("unstarted", !topCard);
      p.el.classList.toggle("armed", this.armed === i);
      p.pile.style.setProperty("--depth", Math.min(Math.max(state.pile_counts[i] - 1, 0), 5));
      p.count.textContent = topCard ? count("cards_n", state.pile_counts[i]) : "";
      p.stands.textContent = topCard === "*" ? standsText(state.stands[i]) : "";
      p.el.dataset.stands = JSON.stringify(state.stands[i]);
    });
    if (this.selected !== null && !state.layouts[this.seats()[1]][this.selected][0]) this.select(null);
    const mine = state.layouts[this.seats()[1]];
    this.moveHint.hidden = this.ctx.me() === null
      || !(mine.some(([card]) => !card) && mine.some(([card, under]) => card && under));
    this.animate(events, before);
    this.tick();
  }

  // Note when each pile version came on screen (js/sightings.js).
  see(round, events) {
    const me = this.ctx.me();
    const own = new Set(events.filter((e) => e.type === "played" && e.seat === me && me !== null)
      .map((e) => e.pile));
    this.sightings.note(this.state.versions, { round, own });
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

  animate(events, before) {
    const placeEl = (seat, k) => this.sides[this.seats().indexOf(seat)]?.places[k];
    for (const event of events) {
      if (event.type === "played") {
        flyFrom(this.piles[event.pile].top, before.get(`${event.seat}:${event.place}`));
        if (event.revealed) flip(placeEl(event.seat, event.place)?.querySelector(":scope > .card"));
        this.ctx.call(callOf(GAME, event.card), event.seat, this.callEl, false);
      } else if (event.type === "moved") {
        flyFrom(placeEl(event.seat, event.target)?.querySelector(":scope > .card"),
          before.get(`${event.seat}:${event.source}`));
        flip(placeEl(event.seat, event.source)?.querySelector(":scope > .card"));
      } else if (event.type === "flipped") {
        event.cards.forEach((card, p) => {
          if (card) flyFrom(this.piles[p].top, before.get(`reserve${p}`), 380);
        });
      } else if (event.type === "reshuffled") {
        this.sides.forEach((side) => bump(side.reserve));
      } else if (event.type === "penalised") {
        const side = this.sides[this.seats().indexOf(event.seat)];
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

  myTop(k) {
    const me = this.ctx.me();
    return me === null || !this.state ? null : this.state.layouts[me][k]?.[0] ?? null;
  }

  select(k) {
    this.selected = k;
    this.sides[1].places.forEach((el, i) => el.classList.toggle("selected", i === k));
  }

  arm(p) {
    this.armed = p;
    this.piles.forEach((pile, i) => pile.el.classList.toggle("armed", i === p));
  }

  // Play the card of place `k` onto pile `p`, pressed (key, click, drop) at `at`.
  async play(k, p, at = performance.now()) {
    this.select(null);
    this.arm(null);
    const card = this.myTop(k);
    if (!card || !this.state.tops[p]) return;
    const el = this.sides[1].places[k].querySelector(":scope > .card");
    if (this.ctx.frozenLeft(this.ctx.me()) > 0) {
      shake(this.sides[1].el.querySelector(".places"));
      return;
    }
    el.classList.add("sent", p ? "to-right" : "to-left");
    const seen = this.sightings.aimed(p, this.state.versions[p], at);
    const ack = await this.ctx.act({ type: "play", card, pile: p, seen });
    el.classList.remove("to-left", "to-right");
    if (ack.ok) {
      el.classList.remove("sent");
      return;
    }
    slideBack(el);
    if (ack.code === "too_late") tag(el, t("too_late"), "late", this.ctx.raceLost(ack));
    else if (ack.code === "does_not_fit") tag(el, t("wrong_card"), "wrong");
    this.ctx.refused(ack);
  }

  async move(source, target) {
    this.select(null);
    const me = this.ctx.me();
    if (target === undefined) {
      target = this.state.layouts[me].findIndex(([card]) => !card);
      if (target < 0) return this.ctx.hint(t("no_empty_place"));
    }
    if (source === null || this.state.layouts[me][source][1] === 0) return this.ctx.hint(t("nothing_to_move"));
    const ack = await this.ctx.act({ type: "move", source, target });
    if (!ack.ok) this.ctx.refused(ack);
  }

  // Clicks, taps and drags: a short press is a click, a longer way is a drag.
  pointerDown(e) {
    if (this.ctx.me() === null || e.button > 0) return;
    const place = e.target.closest(".side.me .place");
    const pile = e.target.closest(".pile-zone");
    if (pile) {
      const p = +pile.dataset.pile;
      if (this.selected !== null) this.play(this.selected, p, e.timeStamp);
      else this.arm(this.armed === p ? null : p);
      return;
    }
    if (!place) return;
    const k = +place.dataset.place;
    if (!this.myTop(k)) {
      if (this.selected !== null) this.move(this.selected, k);
      return;
    }
    const card = place.querySelector(":scope > .card");
    const x0 = e.clientX;
    const y0 = e.clientY;
    let dragging = false;
    card.setPointerCapture(e.pointerId);
    const moveHandler = (m) => {
      const dx = m.clientX - x0;
      const dy = m.clientY - y0;
      if (!dragging && Math.hypot(dx, dy) > DRAG_PX) {
        dragging = true;
        card.classList.add("dragging");
      }
      if (dragging) card.style.transform = `translate(${dx}px, ${dy}px) rotate(${dx / 40}deg)`;
    };
    const upHandler = (u) => {
      card.removeEventListener("pointermove", moveHandler);
      card.removeEventListener("pointerup", upHandler);
      card.removeEventListener("pointercancel", upHandler);
      if (!dragging) {
        if (this.armed !== null) this.play(k, this.armed, u.timeStamp);
        else this.select(this.selected === k ? null : k);
        return;
      }
      card.classList.remove("dragging");
      card.style.transform = "";
      const under = document.elementsFromPoint(u.clientX, u.clientY);
      const target = under.find((el) => el.matches?.(".pile-zone, .side.me .place"));
      if (target?.classList.contains("pile-zone")) this.play(k, +target.dataset.pile, u.timeStamp);
      else if (target && !this.myTop(+target.dataset.place)) this.move(k, +target.dataset.place);
    };
    card.addEventListener("pointermove", moveHandler);
    card.addEventListener("pointerup", upHandler);
    card.addEventListener("pointercancel", upHandler);
  }

  key(e) {
    if (this.ctx.me() === null || !this.state) return false;
    const k = e.key.toLowerCase();
    if (k >= "1" && k <= "5" && k.length === 1) {
      const place = +k - 1;
      if (this.armed !== null) this.play(place, this.armed, e.timeStamp);
      else this.select(place);
      return true;
    }
    if (k in PILE_KEYS) {
      if (this.selected !== null) this.play(this.selected, PILE_KEYS[k], e.timeStamp);
      else this.arm(PILE_KEYS[k]);
      return true;
    }
    if (k === "m") {
      this.move(this.selected);
      return true;
    }
    if (k === "escape" && (this.selected !== null || this.armed !== null)) {
      this.select(null);
      this.arm(null);
      return true;
    }
    return false;
  }

  helpKeys() {
    return [
      ["1 … 5", t("keys_sl_place")],
      ["Q / ←   W / →", t("keys_sl_pile")],
      ["M", t("keys_sl_move")],
    ];
  }
}

function standsText(stands) {
  if (!stands) return t("joker_free");
  return t("joker_stands", { ranks: stands.map((r) => RANK_NAMES[r]).join(" / ") });
}
