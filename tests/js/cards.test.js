// @ts-check
// Card fitting and naming in both games' cards.js (the rules of docs/rules.md).
import "./page.js";
import { test } from "node:test";
import assert from "node:assert/strict";
import { callOf as usCall, cardName as usName, parseUs, usFits } from "../../src/zackzack/games/unter_spannung/web/cards.js";
import { callOf as slCall, cardName as slName, parseFr, slFits } from "../../src/zackzack/games/schnelllauf/web/cards.js";

test("Unter Spannung cards are read from their notation", () => {
  assert.deepEqual(parseUs("7±2"), { value: 7, spread: 2 });
  assert.deepEqual(parseUs("10±3"), { value: 10, spread: 3 });
  for (const bad of ["0±1", "11±1", "7±4", "7+2", "", null, undefined]) assert.equal(parseUs(bad), null, String(bad));
  assert.equal(usCall("7±2"), 7);
  assert.equal(usCall("x"), "");
  assert.equal(usName("6±2"), "6 ±2");
  assert.equal(usName("nonsense"), "");
});

test("an Unter Spannung card fits when its value is the top's ± spread, wrapping 1…10", () => {
  assert.ok(usFits("9±1", "7±2"));
  assert.ok(usFits("5±3", "7±2"));
  assert.ok(!usFits("7±2", "7±2"));
  assert.ok(!usFits("8±2", "7±2"));
  assert.ok(usFits("1±1", "9±2"), "9 + 2 wraps to 1");
  assert.ok(usFits("10±1", "2±2"), "2 - 2 wraps to 10");
  assert.ok(usFits("8±1", "1±3"), "1 - 3 wraps to 8");
  assert.ok(!usFits("bad", "7±2"));
  assert.ok(!usFits("9±1", null));
});

test("Schnelllauf cards are read from their French notation", () => {
  assert.deepEqual(parseFr("Qd"), { joker: false, rank: 12, name: "Q", suit: "d" });
  assert.deepEqual(parseFr("10s"), { joker: false, rank: 10, name: "10", suit: "s" });
  assert.deepEqual(parseFr("*"), { joker: true, rank: 0 });
  for (const bad of ["1h", "11c", "Qx", "", null]) assert.equal(parseFr(bad), null, String(bad));
  assert.equal(slCall("*"), "★");
  assert.equal(slCall("Kh"), "K");
  assert.equal(slCall("?"), "");
  assert.equal(slName("*"), "Joker");
  assert.equal(slName("7h"), "7 of hearts");
  assert.equal(slName("?"), "");
});

test("a Schnelllauf card fits one rank up or down, the ace beside the king when wrapping", () => {
  assert.ok(slFits("8h", true, [7]));
  assert.ok(slFits("6h", true, [7]));
  assert.ok(!slFits("9h", true, [7]));
  assert.ok(slFits("Ah", true, [13]), "ace on king");
  assert.ok(!slFits("Ah", true, [13], false), "not without wrap");
  assert.ok(slFits("Kc", true, [1]), "king on ace");
  assert.ok(slFits("5d", true, [9, 4]), "a joker's top stands for several ranks");
  assert.ok(slFits("*", true, [7]), "a joker fits everywhere");
  assert.ok(slFits("2s", true, null), "a free pile takes anything");
  assert.ok(!slFits("8h", false, [7]), "not on a pile not started");
  assert.ok(!slFits("bad", true, [7]));
});
