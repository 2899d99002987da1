// @ts-check
// Which pile version a press aimed at, and the reaction window (js/sightings.js; the same
// rule as tui/board.py's Sightings, docs/fairness.md).
import "./page.js";
import { test } from "node:test";
import assert from "node:assert/strict";
import { Sightings } from "../../src/zackzack/web/js/sightings.js";

/** A Sightings on a clock the test moves, with a reaction time of 600 ms. */
function make() {
  const clock = { now: 10_000 };
  /** @type {number[][]} */
  const told = [];
  const seen = new Sightings(() => 600, (versions) => told.push(versions), () => clock.now);
  return { seen, clock, told };
}

test("a press aims at the version on screen a reaction time before it", () => {
  const { seen, clock } = make();
  seen.note([1], { round: 1 });
  clock.now += 1000;
  seen.note([2]);
  clock.now += 200;
  assert.equal(seen.aimed(0, 2), 1, "0.2 s after version 2: still answering version 1");
  clock.now += 500;
  assert.equal(seen.aimed(0, 2), 2, "0.7 s after: version 2");
  assert.equal(seen.aimed(0, 1), 1, "never newer than the current version");
});

test("a press time from the event counts when it is sane, else now", () => {
  const { seen, clock } = make();
  seen.note([1], { round: 1 });
  clock.now += 1000;
  seen.note([2]);
  clock.now += 700;
  assert.equal(seen.aimed(0, 2, clock.now - 300), 1, "pressed 0.4 s after version 2");
  assert.equal(seen.aimed(0, 2, clock.now + 5), 2, "a time in the future: now");
  assert.equal(seen.aimed(0, 2, clock.now - 60_000), 2, "a time long past: now");
  assert.equal(seen.aimed(0, 2, Number.NaN), 2);
});

test("before a reaction time of this round, the first version shown", () => {
  const { seen, clock } = make();
  seen.note([5], { round: 1 });
  clock.now += 100;
  assert.equal(seen.aimed(0, 5), 5);
  assert.equal(seen.aimed(1, 3), 3, "an unknown pile: the current version");
});

test("one's own card counts as seen at once", () => {
  const { seen, clock } = make();
  seen.note([1], { round: 1 });
  clock.now += 1000;
  seen.note([2], { own: new Set([0]) });
  assert.equal(seen.aimed(0, 2), 2);
  assert.equal(seen.age(0, 2), null, "no age for one's own card");
});

test("age: how long a version has been on screen, null when unknown or not yet", () => {
  const { seen, clock } = make();
  seen.note([1, 1], { round: 1 });
  clock.now += 250;
  assert.equal(seen.age(0, 1), 250);
  assert.equal(seen.age(0, 7), null);
  assert.equal(seen.age(3, 1), null);
});

test("a new round, or a version that goes back, starts the record afresh", () => {
  const { seen, clock } = make();
  seen.note([4], { round: 1 });
  clock.now += 2000;
  seen.note([1], { round: 2 });
  clock.now += 100;
  assert.equal(seen.latest(0), 1);
  assert.equal(seen.aimed(0, 1), 1);
  seen.note([3]);
  seen.note([2]);
  assert.equal(seen.latest(0), 2);
  seen.note([2, 2]);
  assert.equal(seen.shown.length, 2, "another number of piles: a fresh record");
});

test("paint counts another's change from its first frame and tells the server", async () => {
  const { seen, clock, told } = make();
  seen.paint([1], { round: 1 });
  await new Promise((done) => setTimeout(done, 5));
  assert.deepEqual(told, [[1]], "a new round is told");
  clock.now += 1000;
  seen.paint([2]);
  assert.equal(seen.latest(0), 1, "not on screen before the frame");
  clock.now += 30;
  await new Promise((done) => setTimeout(done, 5));
  assert.equal(seen.latest(0), 2);
  assert.equal(seen.age(0, 2), 0, "counted from the frame");
  assert.deepEqual(told, [[1], [2]]);
  seen.paint([3], { own: new Set([0]) });
  assert.equal(seen.latest(0), 3, "one's own card at once");
  await new Promise((done) => setTimeout(done, 5));
  assert.deepEqual(told, [[1], [2]], "nothing to tell of one's own card");
});
