// @ts-check
// The games the server plays (as GET /api/games lists them, written into the page by the
// server: webpage.py, read at once) and each game's board module, loaded from the game's own
// folder (/static/games/NAME/board.js, under this page's version) right away: a table rarely
// waits for its board.
//
// A game's modules never import this module or js/cards.js (which imports it): the top-level
// await below imports them, and each would wait for the other for ever
// (tests/server/test_webpage.py checks it).

import { pageJson, t } from "./i18n.js";

// The registered games in the server's order: [{name, title, min_players, max_players,
// options: [{name, type, default, min, max}], board, web: {board, cards, rules, learn}, rules,
// preview, handicaps}].
/** @type {GameInfo[]} */
export const GAME_LIST = (pageJson("zz-games")?.games ?? []).filter((/** @type {GameInfo | null} */ g) => g?.name);

// A module of a game's folder, by its address under /static/ (relative to this module).
/** @type {(address: string) => Promise<any>} */
const load = (address) => import(`..${address.slice("/static".length)}`);

// Each game's web modules but its board (cards, rules, learn: small, and wanted at once by the
// lobby's cards), loaded before the first page shows: name → {cards: module, …}.
/** @type {Record<string, Partial<GameParts>>} */
const PARTS = Object.fromEntries(await Promise.all(GAME_LIST.map(async (game) =>
  [game.name, Object.fromEntries(await Promise.all(Object.entries(game.web ?? {})
    .filter(([kind]) => kind !== "board")
    .map(async ([kind, address]) => [kind, await load(address).catch(() => null)])))])));

// The module `kind` (cards, rules, learn) of `game`'s folder; null if it has none.
/** @template {keyof GameParts} K @param {string} game @param {K} kind @returns {GameParts[K] | null} */
export function part(game, kind) {
  return PARTS[game]?.[kind] ?? null;
}

// The games that have a rules page and a tutorial, in the server's order.
export const LEARN_GAMES = GAME_LIST.map((g) => g.name)
  .filter((name) => part(name, "rules") && part(name, "learn"));

// The keys of the words a game is named by outside its board (its rules module's WORDS):
// lead (the rules page's), quick and blurb (the lobby's), score (a round's column),
// stalemate (the table's call when nothing fits).
/** @param {string} game @returns {NonNullable<RulesPart["WORDS"]>} */
export function words(game) {
  return part(game, "rules")?.WORDS ?? {};
}

// The words `kind` (quick, blurb) of `game` in the reader's language; its title without them.
/** @param {string} game @param {"lead" | "quick" | "blurb" | "score" | "stalemate"} kind */
export function said(game, kind) {
  const key = words(game)[kind];
  return key ? t(key) : GAMES[game].title;
}

// The same by name, with `min` and `max` players (as the lobby reads them).
/** @type {Record<string, Game>} */
export const GAMES = Object.fromEntries(GAME_LIST.map((g) =>
  [g.name, { ...g, min: g.min_players, max: g.max_players }]));

// A game's board class (its web/board.js `Board`), as far as the shared code knows it.
/** @typedef {new (...args: any[]) => any} BoardClass */
/** @type {Map<string, BoardClass>} */
const boards = new Map(); // name → the board class, once loaded
/** @type {Map<string, Promise<BoardClass>>} */
const loading = new Map(); // name → the promise of it

// The board class of `name`, loaded.
/** @param {string} name @returns {Promise<BoardClass>} */
export function loadBoard(name) {
  if (!loading.has(name)) {
    const game = GAMES[name];
    const found = (game?.board ? load(game.board)
      : Promise.reject(new Error(`no game ${name}`)))
      .then((/** @type {{Board: BoardClass}} */ module) => {
        boards.set(name, module.Board);
        return module.Board;
      });
    found.catch(() => loading.delete(name));
    loading.set(name, found);
  }
  return /** @type {Promise<BoardClass>} */ (loading.get(name));
}

// The board for `game` made by `make(Board)` now if its module is loaded; else null, and
// `then()` is called once it is (to draw again).
/** @template T @param {string} game @param {(Board: BoardClass) => T} make @param {() => void} then @returns {T | null} */
export function boardOr(game, make, then) {
  const Board = boards.get(game);
  if (Board) return make(Board);
  loadBoard(game).then(then, () => {});
  return null;
}

for (const game of GAME_LIST) loadBoard(game.name).catch(() => {});
