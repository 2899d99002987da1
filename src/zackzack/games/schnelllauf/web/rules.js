// @ts-check
// Schnelllauf's rules page (/rules/schnelllauf, drawn by js/rules.js) and the keys of the
// words the lobby and the table name it by (js/games.js `words`).

export const WORDS = {
  lead: "learn_sl_lead", quick: "quick_sl", blurb: "sl_blurb", score: "cards_left",
  stalemate: "stalemate",
};

// The page's sections, made with js/rules.js's helpers: `p(key, cards)` a paragraph,
// `example(items, caption)` cards in a row, `said(key, cards)` a sentence with card chips,
// `race` the section every game shares.
/** @param {RulesHelpers} helpers @returns {RulesSection[]} */
export function sections({ p, example, said, race }) {
  return [
    { id: "layout", head: "learn_sl_layout_h", body: () => [p("learn_sl_layout")] },
    { id: "fit", head: "learn_sl_fit_h", body: () => [p("learn_sl_fit"),
      example(["Jc", ["→"], "10h", ["or"], "Qs"], said("learn_sl_ex_j")),
      example(["Kd", ["→"], "Qc", ["or"], "Ah"], said("learn_sl_ex_k"))] },
    { id: "empty", head: "learn_sl_empty_h", body: () => [p("learn_sl_empty")] },
    { id: "joker", head: "learn_sl_joker_h", body: () => [p("learn_sl_joker"),
      example(["4s", ["+"], "*", ["→"], "2h", ["or"], "4d", ["or"], "6c"],
        said("learn_sl_ex_joker")),
      p("learn_sl_free")] },
    race,
    { id: "stalemate", head: "learn_sl_stalemate_h", body: () => [p("learn_sl_stalemate"),
      p("learn_sl_reshuffle")] },
    { id: "end", head: "learn_sl_end_h", body: () => [p("learn_sl_end"), p("learn_sl_short")] },
    { id: "handicap", head: "learn_sl_handicap_h", body: () => [p("learn_sl_handicap")] },
    { id: "keys", head: "learn_keys_h", body: () => [p("learn_sl_keys"), p("learn_options")] },
  ];
}
