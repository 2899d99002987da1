// @ts-check
// Unter Spannung's rules page (/rules/unter-spannung, drawn by js/rules.js) and the keys of
// the words the lobby and the table name it by (js/games.js `words`).

import { t } from "../../js/i18n.js";

export const WORDS = {
  lead: "learn_us_lead", quick: "quick_us", blurb: "us_blurb", score: "minus_points",
  stalemate: "nichts_geht_mehr",
};

// More quick games the lobby offers beside the single round, as prominently (issue 30): the
// tournament (2 × players rounds) against the same bots. `key` its words, `options` its options.
export const QUICK = [{ key: "quick_us_tournament", options: { tournament: true } }];

// The page's sections, made with js/rules.js's helpers: `p(key, cards)` a paragraph,
// `example(items, caption)` cards in a row, `said(key, cards)` a sentence with card chips,
// `race` the section every game shares.
/** @param {RulesHelpers} helpers @returns {RulesSection[]} */
export function sections({ p, example, said, race }) {
  return [
    { id: "cards", head: "learn_us_cards_h", body: () => [p("learn_us_cards"),
      example(["3±1", "7±2", "10±3"], t("learn_us_cards_ex"))] },
    { id: "fit", head: "learn_us_fit_h", body: () => [p("learn_us_fit"),
      example(["5±2", ["→"], "3±1", ["or"], "7±3"], said("learn_us_ex_5")),
      example(["9±3", ["→"], "2±1", ["or"], "6±2"], said("learn_us_ex_9")),
      example(["1±2", ["→"], "9±3", ["or"], "3±1"], said("learn_us_ex_1"))] },
    { id: "deal", head: "learn_us_deal_h", body: () => [p("learn_us_deal")] },
    { id: "draw", head: "learn_us_draw_h", body: () => [p("learn_us_draw")] },
    race,
    { id: "ngm", head: "learn_us_ngm_h", body: () => [p("learn_us_ngm"),
      example(["4±1", "9±2", "6±1", ["→"], "4±1"], said("learn_us_ngm_ex"))] },
    { id: "end", head: "learn_us_end_h", body: () => [p("learn_us_end")] },
    { id: "minus", head: "learn_us_minus_h", body: () => [p("learn_us_minus"),
      example(["10±1", "8±2", "6±3", "3±1"], said("learn_us_ex_27")),
      p("learn_us_tournament")] },
    { id: "keys", head: "learn_keys_h", body: () => [p("learn_us_keys"), p("learn_options")] },
  ];
}
