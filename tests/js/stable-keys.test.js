// @ts-check
// Unter Spannung's hand keys (StableKeys: the rule of tui/keys.py): a card keeps its key.
import "./page.js";
import { test } from "node:test";
import assert from "node:assert/strict";
import { HAND_KEYS, StableKeys } from "../../src/zackzack/games/unter_spannung/web/board.js";

/** The cards by place, "·" for a free key. @param {{card: string, place: number}[]} held */
const layout = (held) => {
  const out = [];
  for (const { card, place } of held) out[place] = card;
  return Array.from(out, (card) => card ?? "·").join(" ");
};

test("a new round's hand is sorted by value, then spread", () => {
  const keys = new StableKeys();
  assert.equal(layout(keys.arrange(1, ["9±1", "2±3", "2±1", "10±2"])), "2±1 2±3 9±1 10±2");
});

test("a card keeps its key; a new card takes the free key", () => {
  const keys = new StableKeys();
  const first = keys.arrange(1, ["3±1", "5±2", "8±3"]);
  keys.pressed(1);
  const after = keys.arrange(1, ["3±1", "8±3"]);
  assert.equal(layout(after), "3±1 · 8±3");
  assert.equal(after[1].id, first[2].id, "the element stays with its card");
  assert.equal(layout(keys.arrange(1, ["3±1", "8±3", "1±1"])), "3±1 1±1 8±3");
});

test("of two equal cards the one pressed leaves", () => {
  const keys = new StableKeys();
  keys.arrange(1, ["4±2", "4±2", "6±1"]);
  keys.pressed(0);
  assert.equal(layout(keys.arrange(1, ["4±2", "6±1"])), "· 4±2 6±1");
});

test("free keys at the end are given back", () => {
  const keys = new StableKeys();
  keys.arrange(1, ["1±1", "2±1", "3±1"]);
  assert.equal(layout(keys.arrange(1, ["1±1"])), "1±1");
});

test("with every key taken, cards wait after the others without one", () => {
  const keys = new StableKeys(2);
  keys.arrange(1, ["1±1", "2±1"]);
  const held = keys.arrange(1, ["1±1", "2±1", "7±3"]);
  assert.equal(layout(held), "1±1 2±1 7±3");
  assert.equal(held[2].place, 2, "past the last key");
  keys.pressed(0);
  assert.equal(layout(keys.arrange(1, ["2±1", "7±3"])), "7±3 2±1", "it takes the key set free");
});

test("a new round starts afresh; there are 32 keys", () => {
  const keys = new StableKeys();
  keys.arrange(1, ["9±1", "1±1"]);
  keys.pressed(0);
  keys.arrange(1, ["9±1"]);
  assert.equal(layout(keys.arrange(2, ["5±1", "4±1"])), "4±1 5±1");
  assert.equal(HAND_KEYS.length, 32);
});
