// @ts-check
// After the game: how each seat played (cards, wrong cards, too late, median reaction), bots
// in the same table, marked as bots; and the running tournament total during the rounds.

import { h } from "./dom.js";
import { icon } from "./icons.js";
import { t } from "./i18n.js";

/**
 * One seat's figures of a finished match (the table message's `stats`).
 * @typedef {{seat: number, bot: boolean, played: number, wrong: number, late: number,
 *   reaction_ms: number | null}} SeatStats
 * @typedef {{who: (seat: number) => string, me?: number | null}} Naming
 */

// The statistics table. `who(seat)` names a seat, `me` is the own seat (null: watching).
/** @param {SeatStats[] | null | undefined} stats @param {Naming} naming */
export function statsPanel(stats, { who, me = null }) {
  if (!Array.isArray(stats) || !stats.length) return null;
  /** @param {number | null | undefined} v */
  const ms = (v) => (v === null || v === undefined ? "–" : t("stats_ms", { ms: v }));
  const rows = stats.map((s) => h("tr", { class: `${s.seat === me ? "me" : ""}${s.bot ? " bot" : ""}`, dataset: { seat: s.seat } },
    // The name on one line, a long one ending in "…": all of it is the header cell's text
    // (what a screen reader says) and the tooltip (issue 30).
    h("th", { class: "who", scope: "row" }, h("span", { class: "who-line" },
      h("span", { class: "dot", style: { "--seat": `var(--seat-${s.seat % 6})` } }),
      s.bot ? icon("bot", t("stats_bot")) : null,
      h("span", { class: "who-name", text: who(s.seat), title: who(s.seat) })),
      s.bot ? h("small", { class: "stats-kind", text: ` (${t("stats_bot")})` }) : null,
      s.seat === me && !s.bot ? h("small", { class: "stats-kind", text: ` (${t("you")})` }) : null),
    h("td", { class: "num", text: s.played }),
    h("td", { class: "num", text: s.wrong }),
    h("td", { class: "num", text: s.late }),
    h("td", { class: "num reaction", text: ms(s.reaction_ms) })));
  const head = h("tr", {},
    h("th", { scope: "col", text: t("stats_player") }),
    h("th", { scope: "col", class: "num", text: t("stats_played") }),
    h("th", { scope: "col", class: "num", text: t("stats_wrong") }),
    h("th", { scope: "col", class: "num", text: t("stats_late") }),
    h("th", { scope: "col", class: "num", text: t("stats_reaction") }));
  return h("section", { class: "stats", "aria-labelledby": "stats-title" },
    h("h3", { id: "stats-title", text: t("stats_title") }),
    h("div", { class: "stats-scroll" },
      h("table", { class: "scores stats-table" }, h("thead", {}, head), h("tbody", {}, rows))),
    comparison(stats, me));
}

// One sentence: the own median reaction against the fastest bot's.
/** @param {SeatStats[]} stats @param {number | null} me */
function comparison(stats, me) {
  const mine = stats.find((s) => s.seat === me && !s.bot)?.reaction_ms;
  const bots = stats.flatMap((s) => (s.bot && typeof s.reaction_ms === "number" && Number.isFinite(s.reaction_ms)
    ? [s.reaction_ms] : []));
  if (typeof mine !== "number" || !Number.isFinite(mine) || !bots.length) {
    return h("p", { class: "hint stats-note", text: t("stats_note") });
  }
  const best = Math.min(...bots);
  const diff = mine - best;
  const key = diff < 0 ? "stats_faster" : diff > 0 ? "stats_slower" : "stats_same";
  return h("p", { class: "stats-compare", text: t(key, { ms: Math.abs(diff) }) });
}

// The tournament so far, fewest points first (`lowWins`, the game's Front.low_wins; else
// most): "Σ 1. Anna 4 · 2. Ben 11".
/** @param {number[]} totals @param {Naming & {lowWins?: boolean}} naming */
export function standingsLine(totals, { who, me = null, lowWins = true }) {
  const order = [...totals.keys()].sort((a, b) => (lowWins ? totals[a] - totals[b] : totals[b] - totals[a]) || a - b);
  let place = 0;
  const items = order.map((seat, i) => {
    if (i === 0 || totals[seat] !== totals[order[i - 1]]) place = i + 1;
    return h("li", { class: seat === me ? "me" : "", dataset: { seat } },
      h("span", { class: "place", text: t("place_n", { n: place }) }), " ",
      h("span", { class: "dot", style: { "--seat": `var(--seat-${seat % 6})` } }),
      h("span", { class: "who", text: who(seat) }), " ",
      h("b", { class: "num", text: totals[seat] }));
  });
  return h("div", { class: "standings-line", role: "group", "aria-label": t("stats_standings") },
    h("span", { class: "standings-label", title: t("stats_standings") }, "Σ ", h("small", { text: t("total") })),
    h("ol", {}, items));
}
