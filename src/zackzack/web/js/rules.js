// @ts-check
// The rules pages (/rules/NAME): every rule as the table plays it (docs/rules.md), with
// examples drawn by the real card art; each game's sections come from its folder's rules.js
// (js/games.js). Re-rendered on a language switch.

import { cardEl, chip } from "./cards.js";
import { h } from "./dom.js";
import { GAMES, LEARN_GAMES, part, words } from "./games.js";
import { parts, t } from "./i18n.js";
import { GamePage } from "./page.js";

export { LEARN_GAMES };

// The next game with a rules page after `game` (the first after the last).
/** @param {string} game */
export function otherGame(game) {
  return LEARN_GAMES[(LEARN_GAMES.indexOf(game) + 1) % LEARN_GAMES.length] ?? game;
}

// An example: cards and signs in a row, with a caption under them. Items: a card ("9±3"),
// or ["→"] / ["or"] / ["+"] for a sign between them.
/** @param {string} game @param {ExampleItem[]} items @param {unknown} caption @returns {HTMLElement} */
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
/** @param {string} game @param {string} key @param {Record<string, string>} [cards] */
function said(game, key, cards = {}) {
  /** @type {Record<string, unknown>} */
  const fields = {};
  for (const [name, card] of Object.entries(cards)) fields[name] = chip(game, card);
  return parts(key, fields);
}

// The sections of a page: a heading, paragraphs (keys, or [key, chips]) and examples; the
// game's own from its rules module, given these helpers and the section every game shares.
/** @param {string} game @returns {RulesSection[]} */
function sections(game) {
  /** @type {RulesHelpers["p"]} */
  const p = (key, cards) => h("p", {}, said(game, key, cards));
  /** @type {RulesSection} */
  const race = {
    id: "race", head: "learn_race_h",
    body: () => [p("learn_race"), h("ul", {},
      h("li", {}, h("b", { text: t("too_late") }), " ", said(game, "learn_late")),
      h("li", {}, h("b", { text: t("wrong_card") }), " ", said(game, "learn_wrong")))],
  };
  return part(game, "rules")?.sections({
    p, race,
    example: (items, caption) => example(game, items, caption),
    said: (key, cards) => said(game, key, cards),
  }) ?? [race];
}

/** @param {HTMLElement} root @param {App} app @param {{game: string}} params @returns {Page} */
export function mount(root, app, { game }) {
  return new RulesPage(root, app, game);
}

class RulesPage extends GamePage {
  /** @param {HTMLElement} root @param {App} app @param {string} game */
  constructor(root, app, game) {
    super(app, game);
    this.el = h("section", { class: "learn rules-page", dataset: { game } });
    root.replaceChildren(this.el);
    this.render();
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
          h("p", { class: "learn-lead", text: t(words(game).lead ?? "learn_together") }),
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

  /** @param {KeyboardEvent} e */
  key(e) {
    const k = e.key.toLowerCase();
    if (k === "t") this.app.go(`/learn/${this.game}`);
    else if (k === "g") this.app.go(`/rules/${otherGame(this.game)}`);
    else return false;
    return true;
  }

  /** @returns {[string, string][]} */
  helpKeys() {
    return [["T", t("learn_key_tutorial")], ["G", t("learn_key_other")]];
  }
}
