// The rules pages (/rules/unter-spannung, /rules/schnelllauf): every rule as the table plays
// it (docs/rules.md), with examples drawn by the real card art. Re-rendered on a language switch.

import { cardEl, chip } from "./cards.js";
import { h } from "./dom.js";
import { onLang, parts, t } from "./i18n.js";
import { GAMES } from "./lobby.js";

export const LEARN_GAMES = ["unter-spannung", "schnelllauf"];

export function otherGame(game) {
  return game === "schnelllauf" ? "unter-spannung" : "schnelllauf";
}

// An example: cards and signs in a row, with a caption under them. Items: a card ("9±3"),
// or ["→"] / ["or"] / ["+"] for a sign between them.
export function example(game, items, caption) {
  const row = items.map((item) => {
    if (Array.isArray(item)) {
      const [sign] = item;
      return sign === "or"
        ? h("span", { class: "learn-or", text: t("learn_or") })
        : h("span", { class: "learn-sign", "aria-hidden": "true", text: sign });
    }
    const el = cardEl(game, item);
    el.classList.add("learn-card");
    return el;
  });
  return h("figure", { class: "learn-ex" },
    h("div", { class: "learn-ex-cards" }, row),
    h("figcaption", {}, caption));
}

// A sentence with card chips: {a}, {b}, … in the text are the cards of `cards`.
function said(game, key, cards = {}) {
  const fields = {};
  for (const [name, card] of Object.entries(cards)) fields[name] = chip(game, card);
  return parts(key, fields);
}

const US = "unter-spannung";
const SL = "schnelllauf";

// The sections of each page: a heading, paragraphs (keys, or [key, chips]) and examples.
function sections(game) {
  const p = (key, cards) => h("p", {}, said(game, key, cards));
  const race = {
    id: "race", head: "learn_race_h",
    body: () => [p("learn_race"), h("ul", {},
      h("li", {}, h("b", { text: t("too_late") }), " ", said(game, "learn_late")),
      h("li", {}, h("b", { text: t("wrong_card") }), " ", said(game, "learn_wrong")))],
  };
  if (game === US) {
    return [
      { id: "cards", head: "learn_us_cards_h", body: () => [p("learn_us_cards"),
        example(US, ["3±1", "7±2", "10±3"], t("learn_us_cards_ex"))] },
      { id: "fit", head: "learn_us_fit_h", body: () => [p("learn_us_fit"),
        example(US, ["5±2", ["→"], "3±1", ["or"], "7±3"], said(US, "learn_us_ex_5")),
        example(US, ["9±3", ["→"], "2±1", ["or"], "6±2"], said(US, "learn_us_ex_9")),
        example(US, ["1±2", ["→"], "9±3", ["or"], "3±1"], said(US, "learn_us_ex_1"))] },
      { id: "deal", head: "learn_us_deal_h", body: () => [p("learn_us_deal")] },
      { id: "draw", head: "learn_us_draw_h", body: () => [p("learn_us_draw")] },
      race,
      { id: "ngm", head: "learn_us_ngm_h", body: () => [p("learn_us_ngm"),
        example(US, ["4±1", "9±2", "6±1", ["→"], "4±1"], said(US, "learn_us_ngm_ex"))] },
      { id: "end", head: "learn_us_end_h", body: () => [p("learn_us_end")] },
      { id: "minus", head: "learn_us_minus_h", body: () => [p("learn_us_minus"),
        example(US, ["10±1", "8±2", "6±3", "3±1"], said(US, "learn_us_ex_27")),
        p("learn_us_tournament")] },
      { id: "keys", head: "learn_keys_h", body: () => [p("learn_us_keys"), p("learn_options")] },
    ];
  }
  return [
    { id: "layout", head: "learn_sl_layout_h", body: () => [p("learn_sl_layout")] },
    { id: "fit", head: "learn_sl_fit_h", body: () => [p("learn_sl_fit"),
      example(SL, ["Jc", ["→"], "10h", ["or"], "Qs"], said(SL, "learn_sl_ex_j")),
      example(SL, ["Kd", ["→"], "Qc", ["or"], "Ah"], said(SL, "learn_sl_ex_k"))] },
    { id: "empty", head: "learn_sl_empty_h", body: () => [p("learn_sl_empty")] },
    { id: "joker", head: "learn_sl_joker_h", body: () => [p("learn_sl_joker"),
      example(SL, ["4s", ["+"], "*", ["→"], "2h", ["or"], "4d", ["or"], "6c"],
        said(SL, "learn_sl_ex_joker")),
      p("learn_sl_free")] },
    race,
    { id: "stalemate", head: "learn_sl_stalemate_h", body: () => [p("learn_sl_stalemate"),
      p("learn_sl_reshuffle")] },
    { id: "end", head: "learn_sl_end_h", body: () => [p("learn_sl_end"), p("learn_sl_short")] },
    { id: "handicap", head: "learn_sl_handicap_h", body: () => [p("learn_sl_handicap")] },
    { id: "keys", head: "learn_keys_h", body: () => [p("learn_sl_keys"), p("learn_options")] },
  ];
}

export function mount(root, app, { game }) {
  return new RulesPage(root, app, game);
}

class RulesPage {
  constructor(root, app, game) {
    this.app = app;
    this.game = game;
    this.el = h("section", { class: "learn rules-page", dataset: { game } });
    root.replaceChildren(this.el);
    this.offs = [onLang(() => this.render())];
    this.render();
  }

  unmount() {
    this.offs.forEach((off) => off());
  }

  render() {
    const { game } = this;
    const title = GAMES[game].title;
    const other = otherGame(game);
    document.title = `${t("learn_rules_title", { game: title })} · zackzack`;
    this.el.replaceChildren(
      h("header", { class: "learn-head" },
        h("div", { class: "learn-head-cards", "aria-hidden": "true" },
          GAMES[game].preview.map((c) => cardEl(game, c))),
        h("div", {},
          h("h1", { text: t("learn_rules_title", { game: title }) }),
          h("p", { class: "learn-lead", text: t(game === US ? "learn_us_lead" : "learn_sl_lead") }),
          h("p", { class: "learn-lead", text: t("learn_together") }),
          h("div", { class: "learn-actions" },
            h("a", { class: "btn btn-gold", href: `/learn/${game}`, "data-link": "", id: "learn-tutorial" },
              t("learn_try"), " ", h("kbd", { text: "T" })),
            h("a", { class: "btn", href: `/rules/${other}`, "data-link": "", id: "learn-other" },
              t("learn_rules_title", { game: GAMES[other].title }), " ", h("kbd", { text: "G" }))))),
      h("div", { class: "learn-sections" }, sections(game).map((s) => h("section", {
        class: "panel learn-section", id: `rule-${s.id}`,
      }, h("h2", { text: t(s.head) }), s.body()))));
  }

  key(e) {
    const k = e.key.toLowerCase();
    if (k === "t") this.app.go(`/learn/${this.game}`);
    else if (k === "g") this.app.go(`/rules/${otherGame(this.game)}`);
    else return false;
    return true;
  }

  helpKeys() {
    return [["T", t("learn_key_tutorial")], ["G", t("learn_key_other")]];
  }
}
