// @ts-check
// The record of one's own plays, press → shown → decided (js/timing.js).
import "./page.js";
import { test } from "node:test";
import assert from "node:assert/strict";
import { decided, plays, pressed, reset, shown, summary } from "../../src/zackzack/web/js/timing.js";

test("a press is timed from a sane event time, else now", () => {
  reset();
  const now = performance.now();
  assert.equal(pressed("g", { type: "draw" }, now - 100).at, now - 100);
  assert.ok(pressed("g", { type: "draw" }, now + 60_000).at <= performance.now(), "a future time: now");
  assert.ok(pressed("g", { type: "draw" }, now - 60_000).at >= now, "a time long past: now");
  assert.equal(plays.length, 3);
});

test("decided notes the answer; summary gives the medians", async () => {
  reset();
  assert.deepEqual(summary(), { n: 0, shown_p50: null, decided_p50: null });
  Object.assign(globalThis, { requestAnimationFrame: (/** @type {() => void} */ fn) => setTimeout(fn, 0) });
  const now = performance.now();
  const records = [300, 100, 200, 400].map((ago) => pressed("g", { type: "play" }, now - ago));
  records.forEach((record) => shown(record));
  decided(records[0], { ok: true });
  decided(records[1], { ok: false, code: "too_late" });
  await new Promise((done) => setTimeout(done, 5));
  assert.equal(records[0].ok, true);
  assert.equal(records[0].code, null);
  assert.equal(records[1].code, "too_late");
  const { n, shown_p50: shownP50, decided_p50: decidedP50 } = summary();
  assert.equal(n, 4);
  assert.ok(shownP50 !== null && shownP50 >= 250, "the median of four: the mean of the middle two");
  assert.ok(decidedP50 !== null && decidedP50 >= 200 && decidedP50 < 1000);
});

test("only the last 200 plays are kept", () => {
  reset();
  for (let i = 0; i < 250; i++) pressed("g", { i }, undefined);
  assert.equal(plays.length, 200);
  assert.deepEqual(plays[0].action, { i: 50 });
  reset();
  assert.equal(plays.length, 0);
});
