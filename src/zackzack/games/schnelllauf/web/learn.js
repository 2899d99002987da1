// @ts-check
// Schnelllauf's tutorial (/learn/schnelllauf, run by js/learn.js): its intro, its steps and
// what the end says; the deal is in this folder's tutorial.json.

export const INTRO = "learn_tut_intro_sl";

// The practice table's bots (beginners): one.
export const BOTS = 1;

/** The card on top of the learner's layout place `place`. @param {StepContext} c @param {number} place */
function top(c, place) {
  return c.state.layouts[c.me][place][0];
}

// Each step's sentence (with card chips) and when it is done, judged from the table's view
// (`c`: state, me, flags, over) so that a step already made is passed over.
/** @type {LearnPart["STEPS"]} */
export const STEPS = [
  { key: "learn_sl_s1", cards: { a: "6s", b: "7h" }, done: (c) => top(c, 0) !== "7h" },
  { key: "learn_sl_s2", cards: { a: "Ah", b: "7h" },
    done: (c) => c.flags.penalised || top(c, 1) !== "8d" },
  { key: "learn_sl_s3", cards: { a: "8d", b: "7h" }, done: (c) => top(c, 1) !== "8d" },
  { key: "learn_sl_s4", cards: { a: "10c" }, done: (c) => top(c, 2) !== "10c" },
  { key: "learn_sl_s5", cards: { a: "*", b: "4s" },
    done: (c) => top(c, 2) !== "10c" && !c.state.layouts[c.me].some((/** @type {[string | null, number]} */ [card]) => card === "*") },
  { key: "learn_sl_s6", cards: { a: "2c" }, done: (c) => top(c, 0) === null },
  { key: "learn_sl_s7", cards: { a: "Ah", b: "2c" }, done: (c) => top(c, 4) === null },
  { key: "learn_sl_s8", cards: {}, done: (c) => c.state.reserve_counts[c.me] < 2 },
  { key: "learn_sl_s9", cards: { a: "10c", b: "10d" }, done: (c) => c.over },
];

// What the end of the tutorial says: a key and its fields.
export function done() {
  return ["learn_sl_done", {}];
}
