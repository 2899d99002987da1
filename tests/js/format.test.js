// @ts-check
// Figures, dates and names for people: js/format.js, the bots' and seats' names (js/bots.js),
// ratings (js/rating.js) and refusals (js/errors.js) in the reader's language.
import "./page.js";
import { test } from "node:test";
import assert from "node:assert/strict";

const { day, decimal, duration, minutes, percent, waited, when } = await import("../../src/zackzack/web/js/format.js");
const { botLabel, LEVELS, playerName, STRATEGIES, strategyName } = await import("../../src/zackzack/web/js/bots.js");
const { errorDetail, errorText } = await import("../../src/zackzack/web/js/errors.js");
const { profileHref, ratingText } = await import("../../src/zackzack/web/js/rating.js");
const { setLang } = await import("../../src/zackzack/web/js/i18n.js");
const { net } = await import("../../src/zackzack/web/js/net.js");

test("minutes and seconds: a match rounds to the second, a wait counts whole seconds", () => {
  assert.equal(minutes(62), "1:02");
  assert.equal(minutes(0), "0:00");
  assert.equal(duration(185_400), "3:05");
  assert.equal(duration(185_600), "3:06");
  assert.equal(duration(null), "0:00");
  assert.equal(waited(7_999), "0:07");
  assert.equal(waited(-500), "0:00", "a clock a little behind is no wait");
  assert.equal(waited(600_000), "10:00");
});

test("shares and decimals in the reader's language; nothing to show is a dash", () => {
  assert.equal(percent(0.425), "43 %");
  assert.equal(percent(null), "–");
  assert.equal(percent(Number.NaN), "–");
  assert.equal(decimal(1.5), "1.5");
  assert.equal(decimal(2, 2), "2.00");
  assert.equal(decimal(undefined), "–");
  setLang("de");
  try {
    assert.equal(decimal(1.5), "1,5");
  } finally {
    setLang("en");
  }
});

test("dates: none is a dash (a day) or nothing (a match's time)", () => {
  assert.equal(day(null), "–");
  assert.equal(day(0), "–");
  assert.equal(when(undefined), "");
  const ms = Date.UTC(2026, 11, 1, 12);
  assert.match(day(ms), /2026/);
  assert.match(when(ms), /2026/);
});

test("a bot is named by its level and strategy, a seat number telling bots apart", () => {
  assert.equal(botLabel("pro"), "Bot · pro");
  assert.equal(botLabel("normal", 1), "Bot 2 · normal");
  assert.equal(botLabel("mystery"), "Bot · mystery", "a level the server did not name: as it came");
  assert.equal(botLabel("tutor", 1), "Tutor (never plays)");
  assert.ok(LEVELS.includes("machine"));
  assert.equal(botLabel("easy"), "Bot · easy", "not a level (yet)");
  assert.equal(STRATEGIES.length, 0, "until the server's welcome names them");
  assert.equal(strategyName("random"), "random");
  assert.equal(strategyName("unheard-of"), "unheard-of");
  assert.equal(botLabel("normal:random", 0), "Bot 1 · normal · random");
});

test("the server's welcome brings its levels and strategies", () => {
  net.emit("welcome", /** @type {Protocol.Welcome} */ (/** @type {unknown} */ ({
    type: "welcome", bots: { levels: ["easy", "hard"], strategies: ["greedy", "random"] },
  })));
  assert.deepEqual(LEVELS, ["easy", "hard"]);
  assert.deepEqual(STRATEGIES, ["greedy", "random"]);
  assert.equal(botLabel("easy"), "Bot · level_easy", "a level now (its words are the catalogue's, none here)");
  net.emit("welcome", /** @type {Protocol.Welcome} */ (/** @type {unknown} */ ({ type: "welcome", bots: { levels: [], strategies: [] } })));
  assert.deepEqual(LEVELS, ["easy", "hard"], "an empty list of levels keeps the old ones");
  assert.deepEqual(STRATEGIES, []);
  LEVELS.splice(0, LEVELS.length, "beginner", "normal", "pro", "machine");
});

test("a stored match's seat: a bot by its level, a deleted player neutrally, else the name", () => {
  assert.equal(playerName({ seat: 2, bot: "beginner" }), "Bot 3 · beginner");
  assert.equal(playerName({ seat: 0, name: "Anna", deleted: true }), "deleted player");
  assert.equal(playerName({ seat: 0, name: "Anna" }), "Anna");
  assert.equal(playerName({ seat: 1, name: "" }), "Player 2");
});

test("a rating is its number, '?' while provisional, a dash for none", () => {
  assert.equal(ratingText(1040, true), "1040?");
  assert.equal(ratingText(1040, false), "1040");
  assert.equal(ratingText(null, true), "–");
  assert.equal(profileHref("Zoë & Co"), "/players/Zo%C3%AB%20%26%20Co");
  assert.equal(profileHref(null, "p_123"), "/players/p_123");
});

test("a refusal is a sentence of the catalogue; the English reason only its detail", () => {
  assert.equal(errorText({ code: "name_taken" }), errorText({ code: "name_taken", reason: "whatever" }));
  assert.notEqual(errorText({ code: "name_taken" }), errorText({ code: "no_such_code" }));
  assert.equal(errorText({ code: "no_such_code" }), errorText(null), "an unknown code: the generic sentence");
  assert.equal(errorDetail({ code: "name_taken", reason: "  taken  " }), "taken");
  assert.equal(errorDetail({ code: "name_taken" }), "", "a known code needs no detail");
  assert.equal(errorDetail({ code: "no_such_code" }), "no_such_code", "an unknown one says its code");
});
