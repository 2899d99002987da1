// @ts-check
// The catalogue's sentences, plural forms and fields (js/i18n.js).
import { said } from "./page.js";
import { test } from "node:test";
import assert from "node:assert/strict";
import { count, has, lang, onLang, parts, seconds, setLang, t } from "../../src/zackzack/web/js/i18n.js";

test("the page's language comes from the browser when none is saved", () => {
  assert.equal(lang, "en");
});

test("t fills fields and falls back to the key", () => {
  assert.equal(t("ev_round_won", { n: 3, who: "Anna" }), "Round 3: Anna wins.");
  assert.equal(t("ev_round_won"), "Round :  wins.", "a missing field is empty");
  assert.equal(t("no_such_key_here"), "no_such_key_here");
  assert.ok(has("a11y_hand") && !has("no_such_key_here"));
});

test("count picks the singular form for one, where the catalogue has it", () => {
  assert.equal(count("a11y_hand", 1), "1 card in hand");
  assert.equal(count("a11y_hand", 0), "0 cards in hand");
  assert.equal(count("a11y_hand", 5), "5 cards in hand");
  assert.equal(count("ev_round_won", 1), "Round 1:  wins.", "no _1 form: the key itself");
  assert.equal(count("board_rule", 1, { days: 90 }),
    "Listed: claimed names with at least one rated match in this game, in the past 90 days.",
    "the other fields are filled too");
});

test("parts keeps nodes and lists in place of their fields", () => {
  const node = document.createTextNode("7±2");
  const out = parts("ev_round_won", { n: 2, who: node });
  assert.deepEqual(out.slice(0, 3), ["Round ", "2", ": "]);
  assert.equal(out[3], node);
  assert.equal(said(out), "Round 2: 7±2 wins.");
  assert.equal(said(parts("ev_match_ended", { placings: ["a", ", ", "b"] })), "Match over: a, b.");
});

test("seconds are said to a tenth, never below zero", () => {
  assert.equal(seconds(1500), "1.5");
  assert.equal(seconds(8000), "8");
  assert.equal(seconds(1449), "1.4");
  assert.equal(seconds(-300), "0");
});

test("setLang switches the catalogue, remembers it and tells the listeners", () => {
  /** @type {string[]} */
  const heard = [];
  const off = onLang((next) => heard.push(next));
  setLang("de");
  assert.equal(count("a11y_hand", 1), "1 Karte auf der Hand");
  assert.equal(count("a11y_hand", 2), "2 Karten auf der Hand");
  assert.equal(localStorage.getItem("zz.lang"), "de");
  assert.equal(document.documentElement.lang, "de");
  setLang("de");
  setLang("fr");
  assert.deepEqual(heard, ["de"], "no change, no news; an unknown language is ignored");
  off();
  setLang("en");
  assert.deepEqual(heard, ["de"]);
  assert.equal(t("ev_round_drawn", { n: 1 }), "Round 1: nobody wins.");
});
