// @ts-check
// What the lobby's create form holds (remembered between visits as zz.draft) and the
// messages it sends: a new table from the draft, a quick game against bots. No DOM here.

import { store } from "./dom.js";
import { GAME_LIST, GAMES } from "./games.js";

/** @typedef {{kind: "open"} | {kind: "bot", level: string, strategy: string}} DraftSeat */
/**
 * The form: the game, its seats, each game's options by name (`options[game][option]`),
 * privacy, title, rated; and the find panel's game and number of players.
 * @typedef {{game: string, seats: DraftSeat[], options: Record<string, Record<string, unknown>>,
 *   private: boolean, title: string, rated: boolean, find_game: string, find_players: number}} Draft
 */
/** @typedef {{kind: string, option: string, value: unknown}} Handicap */

const KEY = "zz.draft";

/** @param {string} level @param {string} [strategy] @returns {DraftSeat} */
export function bot(level, strategy = "") {
  return { kind: "bot", level, strategy };
}

const firstGame = () => GAME_LIST[0]?.name ?? "";

/** @returns {Draft} */
export function defaultDraft() {
  return {
    game: firstGame(),
    seats: [{ kind: "open" }, bot("normal"), bot("normal"), bot("normal")],
    options: {}, private: false, title: "",
    rated: false, find_game: firstGame(), find_players: 2,
  };
}

// The seats a game of `min` to `max` players takes: cut to `max`, filled up with bots to `min`.
/** @param {DraftSeat[]} seats @param {number} min @param {number} max @returns {DraftSeat[]} */
export function fitSeats(seats, min, max) {
  const fitted = seats.slice(0, max);
  while (fitted.length < min) fitted.push(bot("normal"));
  return fitted;
}

// The remembered draft (as `text`, zz.draft's JSON); a game it names that the server no longer
// plays is the first one, and anything unreadable is the default.
/** @param {string | null | undefined} [text] @returns {Draft} */
export function loadDraft(text = store(KEY)) {
  /** @type {Draft} */
  let draft;
  try {
    draft = { ...defaultDraft(), ...JSON.parse(text ?? "{}") };
  } catch {
    draft = defaultDraft();
  }
  if (!draft.options || typeof draft.options !== "object") draft.options = {};
  if (!Array.isArray(draft.seats) || !draft.seats.length) draft.seats = defaultDraft().seats;
  if (!(draft.game in GAMES)) draft.game = firstGame();
  if (!(draft.find_game in GAMES)) draft.find_game = firstGame();
  const info = GAMES[draft.game];
  if (info) draft.seats = fitSeats(draft.seats, info.min, info.max);
  return draft;
}

/** @param {Draft} draft */
export function saveDraft(draft) {
  store(KEY, JSON.stringify(draft));
}

// A game's handicaps (GET /api/games `handicaps`: kind → {option, value}) whose option is a
// per-seat list it has.
/** @param {GameInfo | undefined} info @returns {Handicap[]} */
export function handicapsOf(info) {
  const listed = info?.handicaps && !Array.isArray(info.handicaps) ? info.handicaps : {};
  return Object.entries(listed)
    .map(([kind, to]) => {
      const pair = /** @type {{option?: string, value?: unknown} & unknown[]} */ (to);
      return { kind, option: String(pair?.option ?? pair?.[0]), value: pair?.value ?? pair?.[1] };
    })
    .filter((hc) => (info?.options ?? []).some((o) => o.name === hc.option && o.type === "list"));
}

// The game's options the form offers (players come from the seats), its handicaps, and the
// option values of `draft` for it, its defaults filled in (kept in the draft).
/** @param {Draft} draft @param {string} game */
export function gameOptions(draft, game) {
  const info = GAMES[game];
  const values = (draft.options[game] ??= {});
  const options = (info?.options ?? []).filter((o) => o.name !== "players");
  for (const o of options) {
    if (values[o.name] === undefined && o.default != null) values[o.name] = structuredClone(o.default);
  }
  return { options, handicaps: handicapsOf(info), values };
}

// The create message for a draft (RULES.md options of its game; players come from the seats).
/** @param {Draft} draft @returns {Protocol.Create} */
export function createMessage(draft) {
  /** @type {Protocol.SeatSpec[]} */
  const seats = draft.seats.map((s) => s.kind === "bot"
    ? { kind: "bot", bot: s.strategy ? `${s.level}:${s.strategy}` : s.level }
    : { kind: "open" });
  /** @type {Record<string, unknown>} */
  const options = {};
  const { options: offered, handicaps, values } = gameOptions(draft, draft.game);
  for (const option of offered) {
    // Only what the form sets: a yes/no, a number, a handicap's per-seat list (a list it has
    // no field for, a deck, is left out and keeps the game's standard).
    const set = option.type === "bool" || option.type === "int"
      || handicaps.some((hc) => hc.option === option.name);
    const value = values[option.name];
    if (!set) continue;
    if (value === undefined || value === null) continue;
    options[option.name] = option.type === "int" ? Number(value)
      : Array.isArray(value) && option.item === "int" ? value.map(Number) : value;
  }
  /** @type {Protocol.Create} */
  const msg = { type: "create", game: draft.game, options, seats, private: draft.private };
  if (draft.rated) msg.rated = true;
  if (draft.title.trim()) msg.title = draft.title.trim();
  return msg;
}

// A quick game: the player and "normal" bots, as many as the game seats (at most four).
/** @param {string} game @param {Record<string, unknown>} [options] @returns {Protocol.Create} */
export function quickMessage(game, options = {}) {
  const players = Math.min(GAMES[game]?.max ?? 2, 4);
  /** @type {Protocol.SeatSpec[]} */
  const seats = [{ kind: "open" }, ...Array(players - 1).fill({ kind: "bot", bot: "normal" })];
  return { type: "create", game, options, seats, private: false };
}
