// @ts-check
// Arenas in the browser, the parts that are not DOM: the clock's words (js/arena.js), the
// standings' rows and their games' marks, the podium and the matches, what the reader may
// do; the lobby's create form's draft and message (js/lobby-arenas.js).
import "./page.js";
import { test } from "node:test";
import assert from "node:assert/strict";

const { setLang } = await import("../../src/zackzack/web/js/i18n.js");
const { actions, clock, clockText, clockTime, gameMarks, matches, mine, podium, rows, ServerClock, stateAt } =
  await import("../../src/zackzack/web/js/arena.js");
const { arenaMessage, defaultArena, loadArena, seatChoice } = await import("../../src/zackzack/web/js/lobby-arenas.js");

const MIN = 60_000;

/** @param {Partial<Protocol.ArenaGame>} fields @returns {Protocol.ArenaGame} */
const game = (fields = {}) => ({ place: 1, seats: 2, points: 2, win: true, doubled: false, match: null, ...fields });

/** @param {Partial<Protocol.ArenaLine>} fields @returns {Protocol.ArenaLine} */
const line = (fields = {}) => ({
  rank: 1, player: "p1", name: "Ada", rating: 1000, score: 0, performance: null, on_fire: false,
  status: "active", playing: null, games: [], ...fields,
});

/** @param {Partial<Protocol.ArenaInfo>} fields @returns {Protocol.ArenaInfo} */
const arena = (fields = {}) => ({
  id: "K7M2QXAB", game: "unter-spannung", title: "Abend", seats: 2, rated: false, state: "running",
  start: 0, end: 10 * MIN, players: 0, private: false, creator: "Ada", link: "/arenas/K7M2QXAB",
  standings: [], you: null, mine: null, ...fields,
});

test("a time left reads as a clock, in whole seconds rounded up, hours from an hour on", () => {
  assert.equal(clockTime(4 * MIN + 32_000), "4:32");
  assert.equal(clockTime(4 * MIN + 31_001), "4:32", "a started second still shows");
  assert.equal(clockTime(0), "0:00");
  assert.equal(clockTime(-5000), "0:00");
  assert.equal(clockTime(59_000), "0:59");
  assert.equal(clockTime(60 * MIN), "1:00:00");
  assert.equal(clockTime(2 * 60 * MIN + 3 * MIN + 9000), "2:03:09");
});

test("the clock counts to the start, then to the end; over is over, whatever the times", () => {
  const timed = { state: /** @type {const} */ ("upcoming"), start: 10 * MIN, end: 20 * MIN };
  assert.deepEqual(clock(timed, 5 * MIN + 28_000), { key: "arena_starts_in", ms: 4 * MIN + 32_000 });
  // The server's message saying "running" may come a moment after the start: the times decide.
  assert.deepEqual(clock(timed, 10 * MIN), { key: "arena_ends_in", ms: 10 * MIN });
  assert.deepEqual(clock({ ...timed, state: "running" }, 25 * MIN), { key: "arena_ends_in", ms: 0 });
  assert.deepEqual(clock({ ...timed, state: "over" }, 12 * MIN), { key: "arena_over", ms: 0 });
});

test("the state shown follows the times until the server's next message says it", () => {
  const timed = { state: /** @type {const} */ ("upcoming"), start: 10 * MIN, end: 20 * MIN };
  assert.equal(stateAt(timed, 9 * MIN), "upcoming");
  assert.equal(stateAt(timed, 10 * MIN), "running", "started: running before the server says so");
  assert.equal(stateAt({ ...timed, state: "running" }, 21 * MIN), "running", "time is up: the last games still run");
  assert.equal(stateAt({ ...timed, state: "over" }, 15 * MIN), "over");
});

test("the clock's words in both languages", () => {
  const timed = { state: /** @type {const} */ ("running"), start: 0, end: 20 * MIN };
  try {
    setLang("en");
    assert.equal(clockText({ ...timed, state: "upcoming", start: 5 * MIN }, 28_000), "starts in 4:32");
    assert.equal(clockText(timed, 7 * MIN + 57_000), "ends in 12:03");
    assert.equal(clockText({ ...timed, state: "over" }, 0), "over");
    setLang("de");
    assert.equal(clockText(timed, 7 * MIN + 57_000), "endet in 12:03");
    assert.equal(clockText({ ...timed, state: "upcoming", start: 5 * MIN }, 28_000), "beginnt in 4:32");
    assert.equal(clockText({ ...timed, state: "over" }, 0), "vorbei");
  } finally {
    setLang("en");
  }
});

test("the server's clock is its `now` moved on by the time since the message came", () => {
  const server = new ServerClock();
  assert.equal(server.now(1000), 1000, "before any message: this machine's clock");
  server.set(50_000, 1000);
  assert.equal(server.now(1000), 50_000);
  assert.equal(server.now(3500), 52_500);
  server.set(0, 9999); // a message without a clock changes nothing
  assert.equal(server.now(3500), 52_500);
});

test("each game's points in order, a doubled one marked in words, its match linked", () => {
  setLang("en");
  const marks = gameMarks([
    game({ points: 2, win: true, match: "m1" }),
    game({ points: 4, win: true, doubled: true, match: "m2" }),
    game({ points: 2, place: 1, win: false, doubled: true }), // a draw on a streak: 1, doubled
    game({ points: 0, place: 2, win: false }),
    game({ points: 1, place: 2, seats: 3, win: false }),
  ]);
  assert.deepEqual(marks.map((m) => [m.points, m.doubled, m.win]),
    [[2, false, true], [4, true, true], [2, true, false], [0, false, false], [1, false, false]]);
  assert.equal(marks[0].label, "2 points, place 1 of 2");
  assert.equal(marks[1].label, "4 points, place 1 of 2, counted double");
  assert.equal(marks[4].label, "1 point, place 2 of 3", "one point is singular");
  assert.deepEqual(marks.map((m) => m.href), ["/matches/m1", "/matches/m2", null, null, null]);
  setLang("de");
  assert.equal(gameMarks([game({ points: 4, doubled: true })])[0].label, "4 Punkte, Platz 1 von 2, doppelt gezählt");
  setLang("en");
});

test("the standings' rows: the reader's line, the streak, status and table, no performance yet, done at the end", () => {
  const standings = [
    line({ rank: 1, player: "p1", name: "Ada", score: 8, performance: 1412, on_fire: true, playing: "ABCD" }),
    line({ rank: 2, player: "p2", name: "Bo Bär", score: 2, performance: 988, status: "paused" }),
    line({ rank: 3, player: "p3", name: "Cy", status: "withdrawn" }),
    line({ rank: 4, player: "p4", name: "Di" }),
  ];
  const shown = rows(standings, "p2");
  assert.deepEqual(shown.map((r) => [r.rank, r.name, r.me, r.streak, r.status, r.table, r.performance]), [
    [1, "Ada", false, true, "playing", "ABCD", "1412"],
    [2, "Bo Bär", true, false, "paused", null, "988"],
    [3, "Cy", false, false, "withdrawn", null, "–"],
    [4, "Di", false, false, "active", null, "–"],
  ]);
  assert.equal(shown[1].href, "/players/Bo%20B%C3%A4r");
  assert.ok(rows(standings, null).every((r) => !r.me), "a watcher has no line");
  assert.deepEqual(rows(standings, null, true).map((r) => r.status), ["playing", "paused", "withdrawn", "done"],
    "over: an active player waits for nothing; a last game still plays");
});

test("the podium is the first three who played; the matches each once, with their players", () => {
  const standings = [
    line({ rank: 1, player: "a", name: "Ada", games: [game({ match: "m1" }), game({ match: "m3" })] }),
    line({ rank: 2, player: "b", name: "Bo", games: [game({ match: "m1", place: 2, points: 0 })] }),
    line({ rank: 3, player: "c", name: "Cy" }), // joined, never played
    line({ rank: 4, player: "d", name: "Di", games: [game({ match: "m2" })] }),
    line({ rank: 5, player: "e", name: "Eve", games: [game({ match: "m2", place: 2 }), game({ match: null })] }),
    line({ rank: 6, player: "f", name: "Flo", games: [game({ match: "m3", place: 2 })] }),
  ];
  assert.deepEqual(podium(standings).map((l) => l.name), ["Ada", "Bo", "Di"]);
  assert.deepEqual(podium(standings.slice(2, 3)), [], "nobody played: no podium");
  assert.deepEqual(matches(standings), [
    { match: "m1", names: ["Ada", "Bo"] },
    { match: "m3", names: ["Ada", "Flo"] },
    { match: "m2", names: ["Di", "Eve"] },
  ]);
});

test("what the reader may do: join; pause or withdraw; come back or withdraw; nothing", () => {
  assert.deepEqual(actions(arena()), ["join"]);
  assert.deepEqual(actions(arena({ state: "upcoming" })), ["join"]);
  const me = (/** @type {Protocol.ArenaLine["status"]} */ status) =>
    arena({ you: "p1", standings: [line({ player: "p1", status })] });
  assert.equal(mine(me("active"))?.player, "p1");
  assert.equal(mine(arena({ you: null, standings: [line()] })), null);
  assert.deepEqual(actions(me("active")), ["pause", "withdraw"]);
  assert.deepEqual(actions(me("paused")), ["back", "withdraw"]);
  assert.deepEqual(actions(me("withdrawn")), []);
  assert.deepEqual(actions({ ...me("active"), state: "over" }), []);
  assert.deepEqual(actions(arena({ state: "over" })), [], "over: nobody joins");
});

test("the create form's message: minutes to wait in seconds, values kept in range, no empty title", () => {
  assert.deepEqual(arenaMessage({ ...defaultArena(), game: "unter-spannung", seats: 3, minutes: 45, start_in: 5, title: "  " }), {
    type: "arena_create", game: "unter-spannung", seats: 3, minutes: 45, start_in: 300,
    rated: false, private: false, title: null,
  });
  const wild = arenaMessage({ game: "schnelllauf", seats: 4, minutes: 9000, start_in: -3, rated: true, private: true, title: " Fr " });
  assert.deepEqual([wild.seats, wild.minutes, wild.start_in, wild.rated, wild.private, wild.title],
    [2, 720, 0, true, true, "Fr"]);
});

test("an arena's seats: the game's fewest to its most, at most four", () => {
  assert.deepEqual(seatChoice("unter-spannung"), [2, 3, 4]);
  assert.deepEqual(seatChoice("schnelllauf"), [2]);
  assert.deepEqual(seatChoice("mau-mau"), [2], "a game the server does not list");
});

test("a remembered arena draft is read back in range; a broken one is the default", () => {
  assert.deepEqual(loadArena(null), defaultArena());
  assert.deepEqual(loadArena("{not json"), defaultArena());
  assert.deepEqual(loadArena("3"), defaultArena());
  const back = loadArena(JSON.stringify({ game: "schnelllauf", seats: 4, minutes: 0, start_in: 20, rated: "yes", title: "Abend" }));
  assert.deepEqual(back, { game: "schnelllauf", seats: 2, minutes: 1, start_in: 20, rated: false, private: false, title: "Abend" });
  assert.equal(loadArena(JSON.stringify({ game: "skat" })).game, "unter-spannung");
});

test("a member's own line comes with the arena when the standings are cut to the first lines", () => {
  const own = line({ rank: 150, player: "p150", name: "Zoe" });
  assert.equal(mine(arena({ you: "p150", mine: own, standings: [line()] })), own);
  assert.equal(mine(arena({ you: null, mine: null, standings: [line()] })), null);
});
