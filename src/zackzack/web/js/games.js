// The games the server plays (GET /api/games, read once before the first page shows) and
// each game's board module, loaded from the game's own folder (/static/games/NAME/board.js,
// under this page's version) as soon as the list is in: a table rarely waits for its board.

async function fetchGames() {
  try {
    const response = await fetch("/api/games");
    return response.ok ? (await response.json()).games : [];
  } catch {
    return [];
  }
}

// The registered games in the server's order: [{name, title, min_players, max_players,
// options: [{name, type, default, min, max}], board, rules, preview}].
export const GAME_LIST = await fetchGames();

// The same by name, with `min` and `max` players (as the lobby reads them).
export const GAMES = Object.fromEntries(GAME_LIST.map((g) =>
  [g.name, { ...g, min: g.min_players, max: g.max_players }]));

const boards = new Map(); // name → the board class, once loaded
const loading = new Map(); // name → the promise of it

// The board class of `name`, loaded.
export function loadBoard(name) {
  if (!loading.has(name)) {
    const game = GAMES[name];
    const found = (game ? import(`..${game.board.slice("/static".length)}`)
      : Promise.reject(new Error(`no game ${name}`)))
      .then((module) => {
        boards.set(name, module.Board);
        return module.Board;
      });
    found.catch(() => loading.delete(name));
    loading.set(name, found);
  }
  return loading.get(name);
}

// The board for `game` made by `make(Board)` now if its module is loaded; else null, and
// `then()` is called once it is (to draw again).
export function boardOr(game, make, then) {
  const Board = boards.get(game);
  if (Board) return make(Board);
  loadBoard(game).then(then, () => {});
  return null;
}

for (const game of GAME_LIST) loadBoard(game.name).catch(() => {});
