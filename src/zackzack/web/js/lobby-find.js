// @ts-check
// The lobby's "Find an opponent" panel: a game and a number of players to seek, or, while
// seeking, the queue's state (js/queue.js) with the way out and the bot offer.

import { h } from "./dom.js";
import { GAME_LIST, GAMES } from "./games.js";
import { count, t } from "./i18n.js";
import { icon } from "./icons.js";
import { queue, queueBox } from "./queue.js";

/** @typedef {import("./lobby-draft.js").Draft} Draft */

// The numbers of players a game's seek offers, and the one chosen (`wanted`, kept in range).
/** @param {{min: number, max: number}} info @param {number} wanted */
export function playerChoice(info, wanted) {
  const n = Math.min(info.max, Math.max(info.min, Number(wanted) || 2));
  return { n, counts: Array.from({ length: info.max - info.min + 1 }, (_, i) => info.min + i) };
}

/**
 * What the panel asks of the lobby: `changed()` after the draft's find fields changed (to
 * store it), `seek(game, players)` to look, `redraw(focus)` to draw the panel anew, `offer`
 * to take the queue's bot offer.
 * @typedef {{changed: () => void, seek: (game: string, players: number) => void,
 *   redraw: (focus: string) => void,
 *   offer: (game: string, players: number, level: string) => void}} FindHooks
 */

/** @param {Draft} draft @param {FindHooks} hooks @returns {HTMLElement} */
export function findPanel(draft, hooks) {
  if (!GAME_LIST.length) return h("div", { hidden: true }); // no game to find one for
  const panel = h("section", { class: "panel find-panel", id: "find", "aria-labelledby": "find-title" },
    h("h2", { id: "find-title" }, icon("search"), " ", t("find_title")));
  panel.append(queue.state || queue.wanted
    ? queueBox({ title: (g) => GAMES[g]?.title ?? g, onOffer: hooks.offer })
    : seekForm(draft, hooks));
  panel.append(h("div", { class: "create-error", "data-from": "find", role: "alert" }),
    h("p", { class: "find-board" }, h("a", { href: "/leaderboard", "data-link": "", id: "to-leaderboard" }, t("find_board_link"))));
  return panel;
}

// The choice of game and players, and the button that seeks.
/** @param {Draft} draft @param {FindHooks} hooks */
function seekForm(draft, hooks) {
  const game = h("select", { name: "find-game", id: "find-game" },
    Object.entries(GAMES).map(([g, info]) => h("option", { value: g, selected: draft.find_game === g }, info.title)));
  const info = GAMES[draft.find_game] ?? GAMES[GAME_LIST[0].name];
  const { n, counts } = playerChoice(info, draft.find_players);
  const players = h("select", { name: "find-players", id: "find-players", disabled: info.min === info.max },
    counts.map((k) => h("option", { value: k, selected: k === n }, count("find_n_players", k))));
  game.addEventListener("change", () => { draft.find_game = game.value; hooks.changed(); hooks.redraw("#find-game"); });
  players.addEventListener("change", () => { draft.find_players = +players.value; hooks.changed(); });
  const fragment = document.createDocumentFragment();
  fragment.append(
    h("p", { class: "hint find-hint", text: t("find_hint") }),
    h("div", { class: "find-row" },
      h("label", { class: "find-field" }, h("span", { text: t("game") }), game),
      h("label", { class: "find-field" }, h("span", { text: t("players") }), players),
      h("button", {
        class: "btn btn-gold", type: "button", id: "seek",
        onclick: () => hooks.seek(draft.find_game, n),
      }, t("find_button"))));
  return fragment;
}
