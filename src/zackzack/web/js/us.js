// The Unter Spannung board: your hand large, the discard pile in the middle, the others
// around with their card counts. Click a card (or press its key) to play it; D or Space draws.

import {
  bump, flip, freezeOverlay, plate, shake, slideBack, stack, tag, tickFreeze, tickPlate,
  updatePlate, updateStack,
} from "./board.js";
import { cardEl, parseUs, setCard } from "./cards.js";
import { flyFrom, glide, h, positions, sync } from "./dom.js";
import { count, t } from "./i18n.js";
import { icon } from "./icons.js";
import { Sightings } from "./sightings.js";

const GAME = "unter-spannung";
// Hand keys: digits, then letters (no D: it draws; no Y/Z: they swap between keyboards).
export const HAND_KEYS = "1234567890qwertuiopasfghjklxcvbnm";

export class UnterSpannungBoard {
  constructor(root, ctx) {
    this.ctx = ctx;
    this.state = null;
    this.plates = new Map();
    this.sightings = new Sightings(() => ctx.reactionMs?.() ?? 600);
    this.el = h("div", { class: "board us" },
      this.others = h("div", { class: "others" }),
      h("div", { class: "center" },
        h("div", { class: "pile-zone" },
          this.pile = h("div", { class: "pile", "aria-label": t("discard") },
            this.under = cardEl(GAME, null),
            this.top = cardEl(GAME, null)),
          this.pileCount = h("span", { class: "pile-count" })),
        this.callEl = h("div", { class: "call", "aria-live": "polite" })),
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
    this.hand.addEventListener("click", (e) => {
      const card = e.target.closest(".card");
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
      updatePlate(el, seat, this.ctx);
      el.querySelector(".fan").style.setProperty("--n", Math.min(state.hand_counts[seat], 9));
      el.querySelector(".hand-n").textContent = state.hand_counts[seat];
      el.querySelector(".draw-n").textContent = state.draw_counts[seat];
      el.classList.toggle("winner", state.winner === seat);
    });
    for (const el of this.others.children) this.plates.set(+el.dataset.seat, el);

    if (prevTop !== state.top || !this.top.dataset.card) {
      setCard(this.under, GAME, state.discard_count > 1 ? prevTop ?? null : null);
      this.under.hidden = state.discard_count < 2;
      setCard(this.top, GAME, state.top);
    }
    this.pile.style.setProperty("--depth", Math.min(state.discard_count - 1, 5));
    this.pileCount.textContent = count("cards_n", state.discard_count);

    this.mine.hidden = me === null;
    if (me !== null) {
      updatePlate(this.handPlate, me, this.ctx);
      this.handPlate.dataset.seat = me;
      this.handPlate.querySelector(".plate-info").textContent = t("in_hand", { n: state.hand.length });
      this.handPlate.classList.toggle("winner", state.winner === me);
      updateStack(this.drawStack, state.draw_counts[me]);
      this.draw.disabled = state.draw_counts[me] === 0 || state.over;
      const seen = new Map();
      const cards = state.hand.map((card) => {
        const n = seen.get(card) ?? 0;
        seen.set(card, n + 1);
        return { card, key: `${card}#${n}` };
      });
      const moved = positions(this.hand.children);
      sync(this.hand, cards, (c) => c.key, (c) => cardEl(GAME, c.card), (el, c, i) => {
        el.tabIndex = 0;
        el.dataset.index = i;
        el.dataset.hotkey = HAND_KEYS[i] ?? "";
        el.setAttribute("aria-keyshortcuts", HAND_KEYS[i] ?? "");
      });
      this.fit();
      glide(moved);
    }
    this.animate(events, before);
    this.tick();
  }

  // Note when this pile version came on screen (js/sightings.js).
  see(round, events, me) {
    const own = events.some((e) => e.type === "played" && e.seat === me && me !== null);
    this.sightings.note([this.state.version], { round, own: new Set(own ? [0] : []) });
  }

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
    for (const el of this.hand.children) rects.set(el.dataset.key, el.getBoundingClientRect());
    for (const [seat, el] of this.plates) rects.set(`seat${seat}`, el.getBoundingClientRect());
    rects.set("draw", this.drawStack.getBoundingClientRect());
    return rects;
  }

  animate(events, before) {
    const me = this.ctx.me();
    for (const event of events) {
      if (event.type === "played") {
        const origin = event.seat === me
          ? [...before.entries()].find(([k]) => k.startsWith(`${event.card}#`))?.[1]
          : before.get(`seat${event.seat}`);
        flyFrom(this.top, origin);
        this.ctx.call(parseUs(event.card)?.value ?? "", event.seat, this.callEl);
      } else if (event.type === "rotated") {
        flip(this.top);
      } else if (event.type === "drew") {
        if (event.seat === me) {
          const last = this.hand.lastElementChild;
          if (last) flyFrom(last, before.get("draw"), 240);
        } else {
          bump(this.plates.get(event.seat)?.querySelector(".fan"));
        }
      } else if (event.type === "penalised") {
        shake(event.seat === me ? this.hand : this.plates.get(event.seat));
      }
    }
  }

  // Lay the hand out in one row; when it is too long the cards overlap, never wrap.
  fit() {
    const cards = this.hand.children;
    const n = cards.length;
    if (!n) return;
    const width = cards[0].offsetWidth;
    const room = this.hand.clientWidth;
    const gap = Math.min(12, n > 1 ? (room - n * width) / (n - 1) : 12);
    this.hand.style.setProperty("--gap", `${Math.max(gap, -width * 0.72)}px`);
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

  // Play the card `el`, pressed (key, click) at `at` (performance.now() time).
  async play(el, at = performance.now()) {
    if (!this.state || this.ctx.me() === null || el.classList.contains("sent")) return;
    if (this.ctx.frozenLeft(this.ctx.me()) > 0) {
      shake(this.hand);
      return;
    }
    el.classList.add("sent");
    const seen = this.sightings.aimed(0, this.state.version, at);
    const ack = await this.ctx.act({ type: "play", card: el.dataset.card, seen });
    if (ack.ok) {
      // With two equal cards the element that stays may be this one: it is back in the hand.
      el.classList.remove("sent");
      return;
    }
    const why = ack.code === "too_late" ? this.ctx.raceLost(ack) : "";
    if (el.isConnected) {
      slideBack(el);
      if (ack.code === "too_late") tag(el, t("too_late"), "late", why);
      else if (ack.code === "does_not_fit") tag(el, t("wrong_card"), "wrong");
    }
    this.ctx.refused(ack);
  }

  async drawCard() {
    if (!this.state || this.ctx.me() === null || this.draw.disabled) return;
    bump(this.drawStack);
    const ack = await this.ctx.act({ type: "draw" });
    if (!ack.ok) this.ctx.refused(ack);
  }

  key(e) {
    if (this.ctx.me() === null || !this.state) return false;
    const k = e.key.toLowerCase();
    if (k === "enter" && document.activeElement?.closest?.(".hand .card")) {
      this.play(document.activeElement, e.timeStamp);
      return true;
    }
    if (k === " " || k === "d") {
      this.drawCard();
      return true;
    }
    const i = HAND_KEYS.indexOf(k);
    if (i < 0 || k.length !== 1) return false;
    const el = this.hand.children[i];
    if (el) this.play(el, e.timeStamp);
    return true;
  }

  helpKeys() {
    return [
      ["1 … 9, 0, Q … P, A …", t("keys_us_cards")],
      ["D / Space", t("keys_us_draw")],
    ];
  }
}
