// @ts-check
// Höher's tutorial (/learn/hoeher, run by js/learn.js): its intro, its steps and what the end
// says; the deal is in this folder's tutorial.json.

export const INTRO = "hoeher_intro";

// The practice table's bots (beginners): one.
export const BOTS = 1;

// Each step's sentence and when it is done, judged from the table's view.
/** @type {LearnPart["STEPS"]} */
export const STEPS = [
  { key: "hoeher_s1", cards: {}, done: (c) => c.state.version >= 1 },
  { key: "hoeher_s2", cards: {}, done: (c) => c.over },
];

/** @type {LearnPart["done"]} */
export function done() {
  return ["hoeher_done", {}];
}
