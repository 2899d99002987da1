// @ts-check
// Unter Spannung's tutorial (/learn/unter-spannung, run by js/learn.js): its intro, its steps
// and what the end says; the deal is in this folder's tutorial.json.

export const INTRO = "learn_tut_intro_us";

// The practice table's bots (beginners): two.
export const BOTS = 2;

// Each step's sentence (with card chips) and when it is done, judged from the table's view
// (`c`: state, me, flags, over) so that a step already made is passed over.
/** @type {LearnPart["STEPS"]} */
export const STEPS = [
  { key: "learn_us_s1", cards: { a: "9±3", b: "6±3" }, done: (c) => c.state.version >= 1 },
  { key: "learn_us_s2", cards: { a: "6±3", b: "4±2" },
    done: (c) => c.flags.penalised || c.state.draw_counts[c.me] === 0 },
  { key: "learn_us_s3", cards: {}, done: (c) => c.state.draw_counts[c.me] === 0 },
  { key: "learn_us_s4", cards: { a: "3±2", b: "6±3" }, done: (c) => c.state.version >= 2 },
  { key: "learn_us_s5", cards: { a: "3±2", b: "5±3" }, done: (c) => c.state.version >= 3 },
  { key: "learn_us_s6", cards: { a: "5±3", b: "8±1" }, done: (c) => c.state.version >= 4 },
  { key: "learn_us_s7", cards: { a: "8±1", b: "7±1" }, done: (c) => c.over },
];

// What the end of the tutorial says: a key and its fields (the tutor's cards and points).
/** @type {LearnPart["done"]} */
export function done(view, me) {
  const result = view.results[view.results.length - 1];
  const tutor = 1 - me;
  return ["learn_us_done", {
    n: view.state?.hand_counts?.[tutor] ?? 0, points: result?.scores?.[tutor] ?? 0 }];
}
