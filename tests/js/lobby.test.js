// @ts-check
// The lobby's logic that is not DOM: the create form's draft and the messages it sends
// (js/lobby-draft.js), which tables take a player, the count online, the find panel's
// choice of players (js/lobby-tables.js, js/lobby-find.js), the queue's bot offer.
import "./page.js";
import { test } from "node:test";
import assert from "node:assert/strict";

const draftModule = await import("../../src/zackzack/web/js/lobby-draft.js");
const { bot, createMessage, defaultDraft, fitSeats, gameOptions, handicapsOf, loadDraft, quickMessage, saveDraft } = draftModule;
const { canJoin, onlineCount } = await import("../../src/zackzack/web/js/lobby-tables.js");
const { playerChoice } = await import("../../src/zackzack/web/js/lobby-find.js");
const { botOffer } = await import("../../src/zackzack/web/js/queue.js");
const { GAMES } = await import("../../src/zackzack/web/js/games.js");

/** @param {Partial<import("../../src/zackzack/web/js/lobby-draft.js").Draft>} [fields] */
const draftWith = (fields = {}) => ({ ...defaultDraft(), ...fields });

test("a new draft is the first game, me and three normal bots, nothing rated or private", () => {
  const draft = loadDraft(null);
  assert.equal(draft.game, "unter-spannung");
  assert.deepEqual(draft.seats, [{ kind: "open" }, bot("normal"), bot("normal"), bot("normal")]);
  assert.equal(draft.rated, false);
  assert.equal(draft.private, false);
  assert.equal(draft.find_game, "unter-spannung");
});

test("a remembered draft is read back; an unreadable one is the default", () => {
  const draft = draftWith({ game: "schnelllauf", seats: [{ kind: "open" }, bot("pro", "random")], title: "Mine" });
  saveDraft(draft);
  assert.deepEqual(loadDraft(), draft, "zz.draft as it was stored");
  assert.deepEqual(loadDraft("{not json"), defaultDraft());
  assert.deepEqual(loadDraft('{"options": 3, "seats": []}').seats, defaultDraft().seats);
  assert.deepEqual(loadDraft('{"options": 3}').options, {});
});

test("a remembered game the server no longer plays is the first one, its seats fitted", () => {
  const gone = loadDraft(JSON.stringify({ game: "mau-mau", find_game: "skat", seats: [{ kind: "open" }] }));
  assert.equal(gone.game, "unter-spannung");
  assert.equal(gone.find_game, "unter-spannung");
  assert.equal(gone.seats.length, 2, "filled up to the game's fewest players with bots");
  assert.deepEqual(gone.seats[1], bot("normal"));
  const many = loadDraft(JSON.stringify({ game: "schnelllauf", seats: [{ kind: "open" }, bot("pro"), bot("pro"), bot("pro")] }));
  assert.equal(many.seats.length, 2, "cut to the game's most players");
});

test("seats are cut to the most and filled with normal bots to the fewest", () => {
  const open = /** @type {const} */ ({ kind: "open" });
  assert.deepEqual(fitSeats([open], 2, 4), [open, bot("normal")]);
  assert.deepEqual(fitSeats([open, bot("pro"), bot("pro")], 2, 2), [open, bot("pro")]);
  const three = [open, bot("pro"), bot("beginner")];
  assert.deepEqual(fitSeats(three, 2, 6), three);
  assert.notEqual(fitSeats(three, 2, 6), three, "a new list: the draft's is not changed");
});

test("a game's options are filled from its defaults once, and not shared with them", () => {
  const draft = draftWith({ game: "schnelllauf" });
  const { options, handicaps, values } = gameOptions(draft, "schnelllauf");
  assert.deepEqual(options.map((o) => o.name), ["jokers", "wrap", "pile_size", "one_hand_seats", "penalty_ms"],
    "players come from the seats");
  assert.deepEqual(handicaps.map((hc) => hc.kind), ["pile", "one-hand"]);
  assert.deepEqual(values, { jokers: 3, wrap: true, pile_size: [3, 3], one_hand_seats: [false, false], penalty_ms: 1000 });
  /** @type {number[]} */ (values.pile_size)[0] = 4;
  values.jokers = 0;
  assert.deepEqual(GAMES.schnelllauf.options.find((o) => o.name === "pile_size")?.default, [3, 3]);
  assert.equal(gameOptions(draft, "schnelllauf").values.jokers, 0, "a value set is kept");
  assert.equal(draft.options.schnelllauf.jokers, 0, "in the draft, under the game's name");
});

test("handicaps count only for a per-seat list option the game has; pairs are read too", () => {
  const listed = /** @type {GameInfo} */ (/** @type {unknown} */ ({
    options: [{ name: "pile_size", type: "list" }, { name: "jokers", type: "int" }],
    handicaps: { pile: ["pile_size", 4], jokers: { option: "jokers", value: 0 }, gone: { option: "nope", value: 1 } },
  }));
  assert.deepEqual(handicapsOf(listed), [{ kind: "pile", option: "pile_size", value: 4 }]);
  assert.deepEqual(handicapsOf(undefined), []);
});

test("the create message has the seats as bot specs and only the options the form sets", () => {
  const draft = draftWith({ seats: [bot("pro", "random"), { kind: "open" }, bot("beginner")] });
  const msg = createMessage(draft);
  assert.deepEqual(msg, {
    type: "create", game: "unter-spannung", private: false,
    seats: [{ kind: "bot", bot: "pro:random" }, { kind: "open" }, { kind: "bot", bot: "beginner" }],
    options: { tournament: false, penalty_ms: 1000, countdown_ms: 1500 },
  }, "no deck (the form has no field for it), no rated, no title");
});

test("the create message says rated and the title only when set, and numbers as numbers", () => {
  const draft = draftWith({ game: "schnelllauf", seats: [{ kind: "open" }, { kind: "open" }], rated: true, title: "  Duell  ", private: true });
  const values = gameOptions(draft, "schnelllauf").values;
  values.jokers = "2";
  values.pile_size = ["4", 3];
  values.one_hand_seats = [true, false];
  const msg = createMessage(draft);
  assert.equal(msg.rated, true);
  assert.equal(msg.title, "Duell");
  assert.equal(msg.private, true);
  assert.deepEqual(msg.options, { jokers: 2, wrap: true, pile_size: [4, 3], one_hand_seats: [true, false], penalty_ms: 1000 });
  assert.equal("title" in createMessage(draftWith({ title: "   " })), false);
});

test("a quick game seats the player and normal bots, four at most", () => {
  assert.deepEqual(quickMessage("unter-spannung"), {
    type: "create", game: "unter-spannung", options: {}, private: false,
    seats: [{ kind: "open" }, ...Array(3).fill({ kind: "bot", bot: "normal" })],
  });
  assert.equal(quickMessage("schnelllauf").seats?.length, 2);
  assert.deepEqual(quickMessage("unter-spannung", { tournament: true }).options, { tournament: true });
});

test("the queue's bot offer is an unrated table of the player and bots of the level", () => {
  assert.deepEqual(botOffer("unter-spannung", 3, "pro"), {
    type: "create", game: "unter-spannung", options: {}, private: false,
    seats: [{ kind: "open" }, { kind: "bot", bot: "pro" }, { kind: "bot", bot: "pro" }],
  });
  assert.equal(botOffer("schnelllauf", 1, "normal").seats?.length, 2, "at least one bot");
});

test("a table takes a player while it waits with an open seat", () => {
  /** @param {string} phase @param {...("open" | "bot" | "human")} kinds */
  const table = (phase, ...kinds) => /** @type {Protocol.LobbyTable} */ (/** @type {unknown} */ ({
    phase, seats: kinds.map((kind) => ({ kind })),
  }));
  assert.ok(canJoin(table("waiting", "human", "open")));
  assert.ok(!canJoin(table("waiting", "human", "bot")));
  assert.ok(!canJoin(table("playing", "human", "open")));
});

test("the count online shows only a whole number of people above none", () => {
  assert.equal(onlineCount(12), 12);
  assert.equal(onlineCount(0), null, "0: not counted");
  assert.equal(onlineCount(undefined), null);
  assert.equal(onlineCount(2.5), null);
});

test("the find panel offers the game's numbers of players and keeps the choice in range", () => {
  assert.deepEqual(playerChoice({ min: 2, max: 6 }, 4), { n: 4, counts: [2, 3, 4, 5, 6] });
  assert.equal(playerChoice({ min: 2, max: 6 }, 9).n, 6);
  assert.equal(playerChoice({ min: 3, max: 6 }, 0).n, 3, "none chosen: two, at least the fewest");
  assert.deepEqual(playerChoice({ min: 2, max: 2 }, 4), { n: 2, counts: [2] });
});
