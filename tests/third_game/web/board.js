// @ts-check
// Höher's web board (a test's game: tests/e2e/test_hoeher.py plays it): the top card, one's
// hand as buttons keyed 1…9, the others' counts on their plates. A game folder's board needs
// nothing else of the client: js/table.js finds it through the catalogue.

import { plate, tickPlate, updatePlate } from "../../js/board.js";
import { h } from "../../js/dom.js";
import { t } from "../../js/i18n.js";

/**
 * @typedef {{top: number, version: number, hand: number[], counts: number[], seat: number | null}} HoeherView
 * @typedef {{me(): number | null, act(action: object): unknown, view(): any}} Context
 */

/**
 * What a plate says a player holds.
 * @param {Context} ctx @param {number} seat
 */
function counts(ctx, seat) {
  /** @type {HoeherView | undefined} */
  const state = ctx.view()?.state;
  const n = state?.counts?.[seat];
  return n === undefined ? null : { text: t("hoeher_cards", { n }) };
}

class HoeherBoard {
  /** @param {HTMLElement} box @param {Context & Record<string, any>} ctx */
  constructor(box, ctx) {
    this.ctx = ctx;
    /** @type {HoeherView | null} */
    this.state = null;
    /** @type {Map<number, HTMLElement>} */
    this.plates = new Map();
    this.el = h("div", { class: "board hoeher" },
      this.others = h("div", { class: "hoeher-others" }),
      h("div", { class: "hoeher-center" },
        this.top = h("div", { class: "hoeher-top", role: "img" })),
      this.hand = h("div", { class: "hoeher-hand", role: "group", "aria-label": t("hoeher_hand") }));
    box.replaceChildren(this.el);
  }

  /** @param {{players: number, state: HoeherView}} view @param {unknown[]} _events */
  update(view, _events) {
    const state = view.state;
    this.state = state;
    const me = this.ctx.me();
    this.others.replaceChildren(...[...Array(view.players).keys()].filter((s) => s !== me).map((seat) => {
      const el = this.plates.get(seat) ?? plate(seat);
      this.plates.set(seat, el);
      updatePlate(el, seat, this.ctx, counts);
      return el;
    }));
    this.top.textContent = state.top ? String(state.top) : "–";
    this.top.dataset.card = String(state.top);
    this.top.setAttribute("aria-label", t("hoeher_top", { card: state.top || "–" }));
    this.hand.replaceChildren(...state.hand.map((card, i) => h("button", {
      class: "hoeher-card", type: "button", dataset: { card: String(card) },
      "aria-keyshortcuts": String(i + 1), onclick: () => this.play(card),
    }, String(card), " ", h("kbd", { text: String(i + 1) }))));
  }

  /** @param {number} card */
  play(card) {
    if (this.state) this.ctx.act({ type: "play", card, seen: this.state.version });
  }

  tick() {
    for (const [seat, el] of this.plates) tickPlate(el, seat, this.ctx);
  }

  /** @param {KeyboardEvent} e */
  key(e) {
    const i = Number(e.key) - 1;
    const card = this.state?.hand[i];
    if (!Number.isInteger(i) || card === undefined) return false;
    this.play(card);
    return true;
  }

  /** @returns {[string, string][]} */
  helpKeys() {
    return [["1…9", t("hoeher_keys_play")]];
  }

  destroy() {
    this.el.remove();
  }
}

export { HoeherBoard as Board };
