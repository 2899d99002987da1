// @ts-check
// A player's page (/players/NAME, or /players/p_… by public id): per game the rated rating
// and its place, the estimate against bots beside the bot ladder, the rating over time (a
// small line chart with its figures in words and a table), how they play, recent matches.

import { request } from "./account.js";
import { append, h } from "./dom.js";
import { errorNode } from "./errors.js";
import { icon } from "./icons.js";
import { botLabel, LEVELS, playerName } from "./bots.js";
import { day, decimal, percent, when } from "./format.js";
import { GAMES } from "./games.js";
import { count, onLang, t } from "./i18n.js";
import { net } from "./net.js";
import { profileHref, ratingNode } from "./rating.js";

const SVG = "http://www.w3.org/2000/svg";
const CHART_W = 640;
const CHART_H = 120;
const PAD = 8;

// What GET /api/players/NAME answers (the fields the page reads).
/**
 * @typedef {{rating: number, provisional: boolean, matches: number, rank?: number | null,
 *   last_at?: number | null}} RatedRating
 * @typedef {{rating: number, provisional: boolean, matches?: number, plays_like?: string,
 *   fromRated?: boolean}} BotRating
 * @typedef {{matches?: number, wins?: number, win_rate?: number | null,
 *   cards_per_minute?: number | null, wrong_per_round?: number | null,
 *   late_per_round?: number | null, reaction_ms?: number | null}} PlayStats
 * @typedef {{at: number, rating: number}} HistoryPoint
 * @typedef {{rated?: RatedRating | null, bots?: BotRating | null, plays_like?: string | null,
 *   history?: HistoryPoint[], stats?: PlayStats | null}} GameRecord
 * @typedef {{id: string, game: string, players?: import("./bots.js").MatchSeat[],
 *   place?: number | null, status?: string, rated?: boolean, ended_at?: number | null}} RecentMatch
 * @typedef {{player: string, name: string | null, claimed: boolean, deleted?: boolean,
 *   created_at?: number | null, mark?: {reason: string} | null,
 *   games?: Record<string, GameRecord>, bots?: Record<string, Record<string, number>>,
 *   recent?: RecentMatch[]}} Profile
 */

/** @param {string} tag @param {Record<string, string | number>} [attrs] */
function svg(tag, attrs = {}) {
  const el = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attrs)) el.setAttribute(key, String(value));
  return el;
}

/** @param {HTMLElement} root @param {App} _app @param {{name: string}} params */
export function mount(root, _app, { name }) {
  const el = h("section", { class: "profile page-narrow" });
  root.replaceChildren(el);
  /** @type {Profile | null} */
  let data = null;
  /** @type {import("./errors.js").Refusal | null} */
  let error = null;

  function render() {
    if (error) {
      const missing = error.code === "no_such_player";
      document.title = `${t(missing ? "profile_missing" : "load_failed")} · zackzack`;
      el.replaceChildren(h("div", { class: "panel profile-missing" },
        h("h1", { text: missing ? t("profile_missing") : t("load_failed") }),
        missing ? h("p", { text: t("profile_missing_why", { name }) }) : null,
        errorNode(error),
        h("p", {}, h("a", { class: "btn btn-gold", href: "/leaderboard", "data-link": "", id: "to-board", text: t("board_title") }))));
      return;
    }
    if (!data) {
      document.title = `${name} · zackzack`;
      el.replaceChildren(h("div", { class: "panel" }, h("h1", { text: name }), h("p", { class: "empty", text: t("loading") })));
      return;
    }
    const found = data;
    const deleted = data.deleted || (!data.name && !data.claimed);
    const shown = deleted ? t("deleted_player") : data.name;
    document.title = `${shown} · zackzack`;
    const games = Object.keys(GAMES).filter((g) => found.games?.[g]);
    el.replaceChildren();
    append(el, [
      h("div", { class: "panel profile-head" },
        h("h1", {}, icon(data.claimed ? "lock" : "user"), " ", shown,
          data.player === net.player ? h("small", { class: "you-tag", text: t("you") }) : null),
        h("p", { class: "hint" },
          deleted ? t("profile_deleted") : t(data.claimed ? "profile_claimed" : "profile_guest"),
          data.created_at ? ` · ${t("profile_since", { date: day(data.created_at) })}` : "")),
      data.mark ? h("div", { class: "panel profile-mark", id: "profile-mark", role: "note", "aria-labelledby": "mark-title" },
        h("h2", { id: "mark-title", text: t("profile_marked") }),
        h("p", { text: t("profile_marked_what") }),
        h("blockquote", { class: "mark-reason", text: data.mark.reason })) : null,
      games.length
        ? games.map((g) => gamePanel(g, /** @type {GameRecord} */ (found.games?.[g]), found.bots?.[g] ?? {}))
        : h("div", { class: "panel" }, h("p", { class: "empty", text: t("profile_no_games") })),
      recentPanel(data.recent ?? [])]);
  }

  /** @param {string} game @param {GameRecord} info @param {Record<string, number>} ladder */
  function gamePanel(game, info, ladder) {
    const title = GAMES[game]?.title ?? game;
    const id = `game-${game}`;
    const rated = info.rated;
    // No estimate against bots yet: the rated rating stands beside the bots instead.
    /** @type {BotRating | null} */
    const bots = info.bots ?? (rated && info.plays_like
      ? { ...rated, plays_like: info.plays_like, fromRated: true } : null);
    return h("section", { class: "panel profile-game", "aria-labelledby": id, dataset: { game } },
      h("h2", { id, text: title }),
      h("div", { class: "profile-ratings" },
        h("div", { class: "rating-box rated" },
          h("h3", { text: t("profile_rated") }),
          rated
            ? [h("p", { class: "big-rating" }, ratingNode(rated.rating, rated.provisional)),
              h("p", { class: "hint" }, [
                count("profile_matches", rated.matches),
                rated.rank ? ` · ${t("profile_rank", { n: rated.rank })}` : ` · ${t("profile_unranked")}`,
                rated.last_at ? ` · ${t("profile_last", { date: day(rated.last_at) })}` : "",
              ].join(""))]
            : h("p", { class: "empty", text: t("profile_no_rated") })),
        h("div", { class: "rating-box bots" },
          h("h3", { text: t("profile_bots") }),
          bots
            ? [h("p", { class: "big-rating" }, ratingNode(bots.rating, bots.provisional)),
              h("p", { class: "plays-like" }, t("profile_plays_like", { level: t(`level_${bots.plays_like}`) })),
              h("p", { class: "hint", text: bots.fromRated ? t("profile_bots_from_rated") : count("profile_bot_matches", bots.matches ?? 0) })]
            : h("p", { class: "empty", text: t("profile_no_bots") }),
          ladderList(ladder, bots))),
      chart(game, info.history ?? []),
      statsList(info.stats));
  }

  // The bot ladder, strongest on top, with the player's estimate in its place (a word, not
  // a colour, marks it).
  /** @param {Record<string, number>} ladder @param {BotRating | null} bots */
  function ladderList(ladder, bots) {
    const levels = LEVELS.filter((l) => Number.isFinite(ladder[l]));
    for (const l of Object.keys(ladder)) if (!levels.includes(l) && Number.isFinite(ladder[l])) levels.push(l);
    if (!levels.length) return null;
    /** @type {{label: string, rating: number, me: boolean, level?: string}[]} */
    const rows = levels.map((l) => ({ label: botLabel(l), rating: ladder[l], me: false, level: l }));
    if (bots && Number.isFinite(bots.rating)) rows.push({ label: t("profile_this_player"), rating: bots.rating, me: true });
    rows.sort((a, b) => b.rating - a.rating || Number(a.me) - Number(b.me));
    return h("div", { class: "ladder" },
      h("h4", { text: t("profile_ladder") }),
      h("ol", { class: "ladder-list" }, rows.map((r) => h("li", { class: r.me ? "me" : "", dataset: { level: r.level ?? "" } },
        r.me ? h("span", { class: "ladder-mark", "aria-hidden": "true", text: "▶" }) : icon("bot"),
        h("span", { class: "ladder-name", text: r.label }),
        r.me ? ratingNode(r.rating, bots?.provisional, { cls: "rating ladder-rating" }) : h("span", { class: "ladder-rating", text: r.rating })))));
  }

  // The rated rating over time: a line, and the same in words and a small table.
  /** @param {string} game @param {HistoryPoint[]} history */
  function chart(game, history) {
    const points = history.filter((p) => Number.isFinite(p.rating));
    if (points.length < 1) return null;
    const values = points.map((p) => p.rating);
    const min = Math.min(...values);
    const max = Math.max(...values);
    const first = points[0];
    const last = points[points.length - 1];
    const span = Math.max(1, max - min);
    const x = (/** @type {number} */ i) => PAD + (points.length === 1 ? (CHART_W - 2 * PAD) / 2 : i * (CHART_W - 2 * PAD) / (points.length - 1));
    const y = (/** @type {number} */ v) => PAD + (max - v) * (CHART_H - 2 * PAD) / span;
    const descId = `chart-${game}-desc`;
    const summary = count("chart_summary", points.length, {
      first: first.rating, last: last.rating, min, max,
      from: day(first.at), to: day(last.at),
    });
    const picture = svg("svg", {
      class: "rating-chart", viewBox: `0 0 ${CHART_W} ${CHART_H}`, role: "img",
      "aria-label": t("chart_label"), "aria-describedby": descId,
    });
    for (const v of [min, max]) {
      picture.append(svg("line", { class: "chart-grid", x1: PAD, x2: CHART_W - PAD, y1: y(v), y2: y(v) }));
    }
    if (points.length > 1) {
      picture.append(svg("polyline", { class: "chart-line", points: points.map((p, i) => `${x(i)},${y(p.rating)}`).join(" ") }));
    }
    picture.append(svg("circle", { class: "chart-dot", cx: x(points.length - 1), cy: y(last.rating), r: 3.5 }));
    return h("figure", { class: "chart" },
      h("h3", { text: t("chart_title") }),
      h("div", { class: "chart-box" },
        h("span", { class: "chart-axis top", "aria-hidden": "true", text: max }),
        picture,
        h("span", { class: "chart-axis bottom", "aria-hidden": "true", text: min })),
      h("figcaption", { id: descId, class: "hint", text: summary }),
      h("table", { class: "scores chart-table" },
        h("caption", { class: "sr-only", text: t("chart_table") }),
        h("thead", {}, h("tr", {},
          ["chart_first", "chart_last", "chart_min", "chart_max"].map((k) => h("th", { scope: "col", class: "num", text: t(k) })))),
        h("tbody", {}, h("tr", {}, [first.rating, last.rating, min, max].map((v) => h("td", { class: "num", text: v }))))));
  }

  /** @param {PlayStats | null | undefined} stats */
  function statsList(stats) {
    if (!stats || !stats.matches) return null;
    const ms = (/** @type {number | null | undefined} */ v) => (v != null && Number.isFinite(v) ? t("stats_ms", { ms: Math.round(v) }) : "–");
    /** @type {[string, string | number][]} */
    const rows = [
      ["profile_stat_matches", stats.matches],
      ["profile_stat_wins", `${stats.wins ?? 0} (${percent(stats.win_rate)})`],
      ["profile_stat_cpm", decimal(stats.cards_per_minute)],
      ["profile_stat_wrong", decimal(stats.wrong_per_round, 2)],
      ["profile_stat_late", decimal(stats.late_per_round, 2)],
      ["profile_stat_reaction", ms(stats.reaction_ms)],
    ];
    return h("div", { class: "profile-stats" },
      h("h3", { text: t("profile_stats") }),
      h("dl", { class: "stat-list" }, rows.map(([key, value]) => h("div", { class: "stat", dataset: { stat: key.slice(13) } },
        h("dt", { text: t(key) }), h("dd", { text: value })))));
  }

  /** @param {RecentMatch[]} recent */
  function recentPanel(recent) {
    return h("section", { class: "panel profile-recent", "aria-labelledby": "recent-title" },
      h("h2", { id: "recent-title", text: t("profile_recent") }),
      recent.length ? h("ul", { class: "match-list" }, recent.map((m) => h("li", {},
        h("a", { class: "match-item", href: `/matches/${m.id}`, "data-link": "", dataset: { id: m.id } },
          h("span", { class: "match-game", text: GAMES[m.game]?.title ?? m.game }),
          h("span", { class: "match-players", text: (m.players ?? []).map(playerName).join(" · ") }),
          h("span", { class: "match-place" },
            m.place ? t("profile_place", { n: m.place }) : m.status === "abandoned" ? t("match_abandoned") : "–",
            " · ", h("span", { class: `match-kind${m.rated ? " rated" : ""}`, text: t(m.rated ? "rated_badge" : "casual_badge") })),
          h("span", { class: "match-when", text: when(m.ended_at) })))))
        : h("p", { class: "empty", text: t("profile_no_recent") }));
  }

  // With the token: one's own profile carries one's mark, if an operator made one.
  request(`/api/players/${encodeURIComponent(name)}`)
    .then((d) => { data = d; }, (e) => { error = e; })
    .finally(render);
  const off = onLang(render);
  render();
  return { unmount: off, helpKeys: () => [], profileHref };
}
