// @ts-check
// The lobby's arenas: the public ones the server lists (upcoming, running, over of late),
// each with its live clock, players, rated or casual and a link to its page (js/arena.js),
// and the form that makes a new one (`arena_create`; its answer `arena` opens the page).

import { clockText, ServerClock, stateBadge, tickArena } from "./arena.js";
import { h, store } from "./dom.js";
import { GAME_LIST, GAMES } from "./games.js";
import { count, t } from "./i18n.js";
import { net } from "./net.js";

// The arena core's tables (zackzack/arena SEATS): at most four seats, whatever the game allows.
const MOST_SEATS = 4;
const MINUTES = { min: 1, max: 720 };
const START_IN_MINUTES = { min: 0, max: 7 * 24 * 60 };
const DRAFT = "zz.arena";

// The latest list and the server's clock it came with (kept while another page shows).
export const arenas = {
  /** @type {Protocol.ArenaEntry[]} */
  list: [],
  clock: new ServerClock(),
};
net.on("lobby", (msg) => {
  arenas.list = msg.arenas ?? [];
  arenas.clock.set(msg.now);
});

/**
 * The create form's values (remembered in `zz.arena`): minutes of play and minutes until
 * the start, as the form asks them.
 * @typedef {{game: string, seats: number, minutes: number, start_in: number, rated: boolean,
 *   private: boolean, title: string}} ArenaDraft
 */

/** @returns {ArenaDraft} */
export function defaultArena() {
  return { game: GAME_LIST[0]?.name ?? "", seats: 2, minutes: 30, start_in: 0, rated: false, private: false, title: "" };
}

// The seats an arena of `game` offers: from the game's fewest to its most, at most four.
/** @param {string} game @returns {number[]} */
export function seatChoice(game) {
  const info = GAMES[game];
  if (!info) return [2];
  const most = Math.min(info.max, MOST_SEATS);
  return Array.from({ length: Math.max(1, most - info.min + 1) }, (_, i) => info.min + i);
}

/** @param {unknown} value @param {{min: number, max: number}} range @param {number} fallback */
function within(value, { min, max }, fallback) {
  const n = Math.round(Number(value));
  return Number.isFinite(n) ? Math.max(min, Math.min(max, n)) : fallback;
}

// A remembered draft read back, each value in range (a game gone is the first game).
/** @param {string | null | undefined} [text] @returns {ArenaDraft} */
export function loadArena(text = store(DRAFT)) {
  const base = defaultArena();
  /** @type {Record<string, unknown>} */
  let saved = {};
  try { saved = JSON.parse(text ?? "{}") ?? {}; } catch { /* a broken draft: the default */ }
  if (typeof saved !== "object") saved = {};
  const game = typeof saved.game === "string" && GAMES[saved.game] ? saved.game : base.game;
  const seats = seatChoice(game);
  return {
    game,
    seats: within(saved.seats, { min: seats[0], max: seats[seats.length - 1] }, seats[0]),
    minutes: within(saved.minutes, MINUTES, base.minutes),
    start_in: within(saved.start_in, START_IN_MINUTES, base.start_in),
    rated: saved.rated === true,
    private: saved.private === true,
    title: typeof saved.title === "string" ? saved.title.slice(0, 60) : "",
  };
}

/** @param {ArenaDraft} draft */
export function saveArena(draft) {
  store(DRAFT, JSON.stringify(draft));
}

// The message the form sends: the starting time in seconds, no title for an empty one.
/** @param {ArenaDraft} draft @returns {Protocol.ArenaCreate} */
export function arenaMessage(draft) {
  const seats = seatChoice(draft.game);
  return {
    type: "arena_create", game: draft.game,
    seats: within(draft.seats, { min: seats[0], max: seats[seats.length - 1] }, seats[0]),
    minutes: within(draft.minutes, MINUTES, 30),
    start_in: within(draft.start_in, START_IN_MINUTES, 0) * 60,
    rated: draft.rated, private: draft.private,
    title: draft.title.trim() || null,
  };
}

// The list, drawn anew with every lobby message; its clocks tick with `tickArenas`.
/** @param {Protocol.ArenaEntry[]} list @param {ServerClock} clock @returns {HTMLElement} */
export function arenaList(list, clock) {
  if (!list.length) return h("p", { class: "empty", id: "arenas-empty", text: t("arena_none") });
  return h("ul", { class: "arena-list" }, list.map((arena) => h("li", {
    class: "arena-item", dataset: { id: arena.id, state: arena.state },
  },
  h("div", { class: "arena-item-main" },
    h("a", { class: "arena-item-title", href: `/arenas/${arena.id}`, "data-link": "", text: arena.title }),
    h("span", { class: "arena-item-facts" },
      `${GAMES[arena.game]?.title ?? arena.game} · ${count("arena_seats_n", arena.seats)} · `,
      arena.rated ? h("span", { class: "rated-badge", text: t("rated_badge") })
        : h("span", { class: "match-kind", text: t("arena_casual") }))),
  h("div", { class: "arena-item-side" },
    stateBadge(arena, clock.now()),
    h("b", { class: "arena-clock", dataset: { id: arena.id }, text: clockText(arena, clock.now()) }),
    h("small", { class: "arena-count", text: count("arena_players", arena.players) })))));
}

// Every second: each listed arena's clock and state.
/** @param {HTMLElement} box @param {Protocol.ArenaEntry[]} list @param {ServerClock} clock */
export function tickArenas(box, list, clock) {
  for (const arena of list) tickArena(box, arena, clock.now());
}

// The panel: its head, the list (`listBox`, replaced by the lobby) and the form folded away.
/** @param {HTMLElement} listBox @param {(message: Protocol.ArenaCreate) => void} submit @returns {HTMLElement} */
export function arenasPanel(listBox, submit) {
  return h("section", { class: "panel arenas-panel", id: "arenas", "aria-labelledby": "arenas-title" },
    h("h2", { id: "arenas-title", text: t("arena_lobby_title") }),
    h("p", { class: "hint arena-about", text: t("arena_rule") }),
    listBox,
    GAME_LIST.length ? h("details", { class: "arena-new", id: "arena-new" },
      h("summary", { text: t("arena_new") }),
      arenaForm(loadArena(), submit)) : null,
    h("div", { class: "create-error", "data-from": "arena", role: "alert" }));
}

/** @param {ArenaDraft} draft @param {(message: Protocol.ArenaCreate) => void} submit */
function arenaForm(draft, submit) {
  const form = h("form", { class: "arena-form", id: "arena-form" });
  const save = () => saveArena(draft);
  const game = h("select", { name: "arena-game", id: "arena-game" },
    GAME_LIST.map((g) => h("option", { value: g.name, selected: draft.game === g.name }, g.title)));
  const seats = h("select", { name: "arena-seats", id: "arena-seats" });
  const fillSeats = () => {
    const choice = seatChoice(draft.game);
    if (!choice.includes(draft.seats)) draft.seats = choice[0];
    seats.replaceChildren(...choice.map((n) => h("option", { value: n, selected: n === draft.seats }, String(n))));
    seats.disabled = choice.length < 2;
  };
  fillSeats();
  game.addEventListener("change", () => { draft.game = game.value; fillSeats(); save(); });
  seats.addEventListener("change", () => { draft.seats = Number(seats.value); save(); });
  /** @param {"minutes" | "start_in"} key @param {{min: number, max: number}} range */
  const number = (key, range) => {
    const input = h("input", { type: "number", name: `arena-${key}`, id: `arena-${key}`, inputmode: "numeric", ...range, value: draft[key] });
    input.addEventListener("change", () => {
      draft[key] = within(input.value, range, draft[key]);
      input.value = draft[key];
      save();
    });
    return input;
  };
  /** @param {"rated" | "private"} key @param {string} label */
  const check = (key, label) => {
    const input = h("input", { type: "checkbox", name: `arena-${key}`, id: `arena-${key}`, checked: draft[key] });
    input.addEventListener("change", () => { draft[key] = input.checked; save(); });
    return h("label", { class: "check" }, input, h("span", { text: label }));
  };
  const title = h("input", { type: "text", name: "arena-title", id: "arena-title", maxlength: "60", value: draft.title, placeholder: t("arena_title_placeholder") });
  title.addEventListener("change", () => { draft.title = title.value; save(); });
  /** @param {string} label @param {HTMLElement} input */
  const field = (label, input) => h("label", { class: "field" }, h("span", { text: label }), input);
  form.append(
    h("div", { class: "options" },
      field(t("game"), game),
      field(t("arena_seats_label"), seats),
      field(t("arena_minutes"), number("minutes", MINUTES)),
      field(t("arena_start_in"), number("start_in", START_IN_MINUTES)),
      check("rated", t("rated_switch")),
      check("private", t("arena_private")),
      h("label", { class: "field arena-title-field" }, h("span", { text: t("arena_title_label") }), title)),
    h("button", { class: "btn btn-gold", type: "submit", id: "arena-create" }, t("arena_create")));
  form.addEventListener("submit", (/** @type {SubmitEvent} */ e) => {
    e.preventDefault();
    draft.title = title.value;
    save();
    submit(arenaMessage(draft));
  });
  return form;
}
