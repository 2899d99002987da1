// @ts-check
// The leaderboard (/leaderboard, /leaderboard/GAME?page=N): per game, the players who count
// (claimed, ≥ 5 rated matches in that game, the last one in the past 14 days), best first.

import { h } from "./dom.js";
import { errorNode, getJson } from "./errors.js";
import { day } from "./format.js";
import { GAMES } from "./games.js";
import { count, onLang, t } from "./i18n.js";
import { net } from "./net.js";
import { profileHref, ratingNode } from "./rating.js";

export const PAGE_SIZE = 50;
export const MIN_MATCHES = 5;
export const ACTIVE_DAYS = 14;

// A page of the leaderboard as the API sends it (GET /api/leaderboard).
/**
 * @typedef {{rank: number, player: string, name: string, rating: number, provisional: boolean,
 *   matches: number, last_at: number}} BoardRow
 * @typedef {{players: BoardRow[], total: number, min_matches?: number, active_days?: number}} Board
 */

/** @param {HTMLElement} root @param {App} app @param {{game: string}} params @returns {Page & {game: string}} */
export function mount(root, app, { game }) {
  const games = Object.keys(GAMES);
  const pageNo = Math.max(1, Number.parseInt(new URLSearchParams(location.search).get("page") ?? "1", 10) || 1);
  const el = h("section", { class: "leaderboard page-narrow" });
  root.replaceChildren(el);
  /** @type {Board | null} */
  let data = null;
  /** @type {import("./errors.js").Refusal | null} */
  let error = null;
  const href = (/** @type {string} */ g, n = 1) => `/leaderboard/${g}${n > 1 ? `?page=${n}` : ""}`;

  function render() {
    const title = GAMES[game]?.title ?? game;
    document.title = `${t("board_title")} · ${title} · zackzack`;
    const tabs = h("nav", { class: "game-tabs", "aria-label": t("board_games") },
      games.map((g) => h("a", {
        class: `game-tab${g === game ? " on" : ""}`, href: href(g), "data-link": "",
        "aria-current": g === game ? "page" : null, dataset: { game: g },
      }, GAMES[g].title)));
    let body;
    if (error) body = h("div", { class: "empty load-failed" }, h("p", { text: t("load_failed") }), errorNode(error));
    else if (!data) body = h("p", { class: "empty", text: t("loading") });
    else if (!data.players.length) body = h("p", { class: "empty", id: "board-empty", text: t(pageNo > 1 ? "board_page_empty" : "board_empty") });
    else body = table(data.players);
    el.replaceChildren(h("div", { class: "panel" },
      h("h1", {}, t("board_title"), h("span", { class: "sr-only", text: `: ${title}` })),
      tabs,
      h("p", { class: "board-rule", id: "board-rule", text: count("board_rule", data?.min_matches ?? MIN_MATCHES, { days: data?.active_days ?? ACTIVE_DAYS }) }),
      body,
      data ? pager(data.total) : null,
      h("p", { class: "hint" }, t("board_provisional_note"), " ",
        h("a", { href: "/", "data-link": "", text: t("board_find_link") }))));
  }

  /** @param {BoardRow[]} players */
  function table(players) {
    return h("table", { class: "scores board-table", "aria-describedby": "board-rule" },
      h("caption", { class: "sr-only", text: t("board_caption", { game: GAMES[game]?.title ?? game }) }),
      h("thead", {}, h("tr", {},
        h("th", { scope: "col", class: "num", text: t("board_rank") }),
        h("th", { scope: "col", text: t("stats_player") }),
        h("th", { scope: "col", class: "num", text: t("board_rating") }),
        h("th", { scope: "col", class: "num", text: t("board_matches") }),
        h("th", { scope: "col", text: t("board_last") }))),
      h("tbody", {}, players.map((p) => h("tr", { dataset: { player: p.player }, class: p.player === net.player ? "me" : "" },
        h("td", { class: "num rank", text: p.rank }),
        h("th", { scope: "row", class: "who" },
          h("a", { href: profileHref(p.name, p.player), "data-link": "", text: p.name })),
        h("td", { class: "num" }, ratingNode(p.rating, p.provisional)),
        h("td", { class: "num", text: p.matches }),
        h("td", { class: "when", text: day(p.last_at) })))));
  }

  /** @param {number} total */
  function pager(total) {
    const pages = Math.max(1, Math.ceil(total / PAGE_SIZE));
    if (pages <= 1) return h("p", { class: "hint board-count", text: count("board_count", total) });
    return h("nav", { class: "pager", "aria-label": t("board_pages") },
      pageNo > 1 ? h("a", { class: "btn btn-small", rel: "prev", id: "page-prev", href: href(game, pageNo - 1), "data-link": "" },
        h("span", { "aria-hidden": "true", text: "← " }), t("board_prev")) : null,
      h("span", { class: "pager-where", text: t("board_page_of", { n: pageNo, m: pages, total }) }),
      pageNo < pages ? h("a", { class: "btn btn-small", rel: "next", id: "page-next", href: href(game, pageNo + 1), "data-link": "" },
        t("board_next"), h("span", { "aria-hidden": "true", text: " →" })) : null);
  }

  const offset = (pageNo - 1) * PAGE_SIZE;
  getJson(`/api/leaderboard?game=${encodeURIComponent(game)}&limit=${PAGE_SIZE}&offset=${offset}`)
    .then((/** @type {Partial<Board>} */ d) => { data = { ...d, total: d.total ?? d.players?.length ?? 0, players: d.players ?? [] }; }, (e) => { error = e; })
    .finally(render);
  const off = onLang(render);
  render();

  return {
    game,
    unmount: off,
    helpKeys: () => [["←   →", t("board_keys_pages")], ["G", t("board_keys_game")]],
    /** @param {KeyboardEvent} e */
    key(e) {
      if (e.shiftKey) return false;
      const other = games[(games.indexOf(game) + 1) % games.length];
      const go = (/** @type {string} */ id) => {
        const a = el.querySelector(id);
        if (a) app.go(a.getAttribute("href") ?? "/leaderboard");
        return Boolean(a);
      };
      if (e.key === "ArrowLeft") return go("#page-prev");
      if (e.key === "ArrowRight") return go("#page-next");
      if (e.key.toLowerCase() === "g") {
        app.go(href(other));
        return true;
      }
      return false;
    },
  };
}
