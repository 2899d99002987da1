// @ts-check
// Events said as sentences (js/describe.js), as zackzack/words/describe.py says them.
import { said } from "./page.js";
import { test } from "node:test";
import assert from "node:assert/strict";
import { describe } from "../../src/zackzack/web/js/describe.js";

const NAMES = ["Anna", "Ben", "Cleo"];
/** @param {number} seat */
const who = (seat) => NAMES[seat];
/** @param {any} event @param {object} [more] */
const us = (event, more = {}) => said(describe(event, { game: "unter-spannung", who, ...more }));
/** @param {any} event @param {object} [more] */
const sl = (event, more = {}) => said(describe(event, { game: "schnelllauf", who, ...more }));

test("Unter Spannung's events, for others and for oneself", () => {
  assert.equal(us({ type: "played", seat: 1, card: "7±2", version: 4 }), "Ben plays 7±2 – “7!”");
  assert.equal(us({ type: "played", seat: 1, card: "7±2", version: 4 }, { me: 1 }), "You play 7±2 – “7!”");
  assert.equal(us({ type: "drew", seat: 0, card: null, left: 9 }), "Anna draws a card (9 left)");
  assert.equal(us({ type: "drew", seat: 0, card: "3±1", left: 8 }, { me: 0 }), "You draw 3±1 (8 left)");
  assert.equal(us({ type: "rotated", card: "5±3", version: 2, rotations: 1 }),
    "Nichts geht mehr! The bottom card 5±3 goes on top.");
  assert.equal(us({ type: "went_out", seat: 2 }), "Cleo lays the last card face down and wins the round!");
});

test("Schnelllauf's events name piles and places from one", () => {
  assert.equal(sl({ type: "played", seat: 0, card: "Qd", pile: 1, version: 3, place: 0, revealed: "7h" }),
    "Anna plays Q♦ on pile 2, turning up 7♥");
  assert.equal(sl({ type: "played", seat: 0, card: "*", pile: 0, version: 3, place: 0, revealed: null }, { me: 0 }),
    "You play ★ Joker on pile 1");
  assert.equal(sl({ type: "moved", seat: 1, source: 0, target: 4, card: "2c", revealed: "As" }),
    "Ben moves 2♣ to the empty place 5, turning up A♠");
  assert.equal(sl({ type: "flipped", cards: ["3h", null], versions: [1, 1] }),
    "Stalemate: reserve cards turned up: 3♥.");
  assert.equal(sl({ type: "flipped", cards: [null, null], versions: [1, 1] }),
    "Stalemate: reserve cards turned up: –.");
});

test("the table's events: countdowns from now, the penalty as the rules say it", () => {
  assert.equal(us({ type: "announced", step: "rotate", due: 2500 }, { now: 1000 }),
    "Nichts geht mehr! In 1.5 s the bottom card of the pile goes on top.");
  assert.equal(us({ type: "announced", step: "dance", due: 3000 }, { now: 1000 }), "In 2 s: dance.");
  assert.equal(us({ type: "penalised", seat: 1, until: 1900 }, { now: 1000 }),
    "Ben played a wrong card: frozen for 0.9 s.");
  assert.equal(us({ type: "penalised", seat: 1, until: 1900 }, { now: 1000, penaltyMs: 1000 }),
    "Ben played a wrong card: frozen for 1 s.");
  assert.equal(us({ type: "round_scored", result: { number: 2, winner: 0, reason: "went_out", scores: [0, 7, 3] }, totals: [0, 7, 3] }),
    "Round 2: Anna wins. Minus points: Anna 0, Ben 7, Cleo 3.");
  assert.equal(sl({ type: "round_scored", result: { number: 1, winner: null, reason: "dead_end", scores: [4, 6] }, totals: [4, 6] }),
    "Round 1: nobody wins. Cards held: Anna 4, Ben 6.");
  assert.equal(us({ type: "match_ended", result: { placings: [{ seat: 1, place: 1, score: 3, why: "" }, { seat: 0, place: 2, score: 9, why: "" }], rounds: 3, reason: "" } }),
    "Match over: 1. Ben (3), 2. Anna (9).");
  assert.deepEqual(describe({ type: "no_such_event" }, { game: "schnelllauf", who }), []);
});
