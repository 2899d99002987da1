// @ts-check
// Höher's rules page (/rules/hoeher, drawn by js/rules.js) and the keys of the words the lobby
// and the table name it by (js/games.js `words`).

export const WORDS = { lead: "hoeher_lead", quick: "hoeher_quick", blurb: "hoeher_blurb", score: "hoeher_score" };

/** @param {RulesHelpers} helpers @returns {RulesSection[]} */
export function sections({ p, race }) {
  return [
    { id: "fit", head: "hoeher_fit_h", body: () => [p("hoeher_fit")] },
    race,
    { id: "end", head: "hoeher_end_h", body: () => [p("hoeher_end")] },
  ];
}
