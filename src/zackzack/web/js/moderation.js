// @ts-check
// The operators' page (/moderation): the review queue (the fair-play detector's flags and
// players' reports) with each player's evidence — their reaction times drawn against the
// human floor, the statistics beside their human bounds — the acts (mark, unmark, rename,
// close, clear; each with a reason) and the audit log. The API (docs/protocol.md,
// *Moderation*) answers operators only; anyone else reads that the page is not theirs.
// Also the after-match "Report" part of the table page (reportPart), for the other people.

import { h, store } from "./dom.js";
import { errorText } from "./errors.js";
import { locale } from "./format.js";
import { GAMES } from "./games.js";
import { has, onLang, t } from "./i18n.js";
import { announce } from "./live.js";

const SVG = "http://www.w3.org/2000/svg";
const PLOT_W = 360;
const PLOT_H = 96;
const PAD = 4;
const LOW_MS = 60; // the plot's left edge (a histogram bin from 0 starts here: log scale)

/** The reasons a report may give, as the server lists them (zackzack.moderation.REASONS). */
export const REASONS = ["scripted", "offensive_name", "abuse", "other"];
/** The acts a page may ask for (POST /api/moderation/ACT). */
export const ACTS = ["mark", "unmark", "rename", "close", "clear"];

/** @typedef {{code: string, reason: string}} Refusal */
/** @typedef {{edges_ms: number[], counts: number[]}} Histogram */
/**
 * @typedef {{n: number, median_ms?: number | null, p05_ms?: number | null,
 *   floor?: number | null, spread?: number | null, hick?: number | null,
 *   notice?: number | null, skew?: number | null, mistakes?: number | null,
 *   suspicion?: Record<string, number>, score?: number,
 *   histogram?: Histogram, reports?: Record<string, number>}} Evidence
 */
/**
 * @typedef {{player: string, name: string | null, game: string, source: string, score: number,
 *   at: number, cleared_at: number | null, marked: string | null, evidence: Evidence}} Flag
 */
/**
 * @typedef {{seq: number, at: number, actor: string, act: string, player: string | null,
 *   name?: string | null, reason: string}} Entry
 */
/** @typedef {{limit: number, at: string, why: string}} Bound */
/**
 * @typedef {{flags: Flag[], floor_ms: number, threshold: number, min_reactions: number,
 *   bounds: Record<string, Bound>}} Queue
 */
/** @typedef {{toast: (text: string, detail?: string) => void}} App */

/**
 * GET (no body) or POST (a body) to the API with the player's token; the JSON answer, or a
 * thrown {code, reason}.
 * @param {string} path @param {unknown} [body] @returns {Promise<any>}
 */
export async function api(path, body) {
  /** @type {Record<string, string>} */
  const headers = { Accept: "application/json" };
  const token = store("zz.token");
  if (token) headers.Authorization = `Bearer ${token}`;
  if (body !== undefined) headers["Content-Type"] = "application/json";
  let response;
  try {
    response = await fetch(path, {
      method: body === undefined ? "GET" : "POST", headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (error) {
    throw { code: "network", reason: String(error) };
  }
  const data = await response.json().catch(() => ({}));
  if (!response.ok) {
    throw { code: typeof data?.error === "string" ? data.error : "http", reason: String(data?.reason ?? response.status) };
  }
  return data;
}

/** @param {string} game */
function gameTitle(game) {
  return GAMES[game]?.title ?? game;
}

/** @param {number | null | undefined} x @param {number} [digits] */
function number(x, digits = 2) {
  if (x === null || x === undefined || !Number.isFinite(x)) return "–";
  return x.toLocaleString(locale(), { maximumFractionDigits: digits });
}

/** @param {number} ms */
function moment(ms) {
  return new Date(ms).toLocaleString(locale(), { dateStyle: "short", timeStyle: "short" });
}

/** @param {string} tag @param {Record<string, string | number>} attrs */
function svg(tag, attrs) {
  const el = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attrs)) el.setAttribute(key, String(value));
  return el;
}

// The evidence of one player ---------------------------------------------------------------

/**
 * The reaction times as bars over a log time axis, the span below the human floor shaded,
 * the median marked; the same in words below it (the picture is for the eyes only).
 * @param {Evidence} evidence @param {number} floorMs @param {string} id @param {string} name
 */
export function plot(evidence, floorMs, id, name) {
  const histogram = evidence.histogram;
  if (!histogram || !histogram.counts?.length) return null;
  const edges = histogram.edges_ms.map((e) => Math.max(e, LOW_MS));
  const low = Math.log(edges[0]);
  const high = Math.log(edges[edges.length - 1]);
  const x = (/** @type {number} */ ms) => PAD + (Math.log(Math.max(ms, LOW_MS)) - low) / (high - low) * (PLOT_W - 2 * PAD);
  const most = Math.max(1, ...histogram.counts);
  const picture = svg("svg", { class: "reaction-plot", viewBox: `0 0 ${PLOT_W} ${PLOT_H + 14}`, "aria-hidden": "true" });
  picture.append(svg("rect", { class: "plot-floor", x: PAD, y: 0, width: x(floorMs) - PAD, height: PLOT_H }));
  histogram.counts.forEach((count, i) => {
    if (!count) return;
    const height = count / most * (PLOT_H - PAD);
    picture.append(svg("rect", {
      class: "plot-bar", x: x(edges[i]) + 0.5, y: PLOT_H - height,
      width: Math.max(1, x(edges[i + 1]) - x(edges[i]) - 1), height,
    }));
  });
  if (Number.isFinite(evidence.median_ms)) {
    const at = x(Number(evidence.median_ms));
    picture.append(svg("line", { class: "plot-median", x1: at, x2: at, y1: 0, y2: PLOT_H }));
  }
  picture.append(svg("line", { class: "plot-axis", x1: PAD, x2: PLOT_W - PAD, y1: PLOT_H, y2: PLOT_H }));
  for (const ms of [100, floorMs, 300, 1000, 3000]) {
    const label = svg("text", { class: "plot-tick", x: x(ms), y: PLOT_H + 12, "text-anchor": "middle" });
    label.textContent = ms >= 1000 ? `${ms / 1000} s` : `${ms}`;
    picture.append(label);
  }
  const below = evidence.floor;
  return h("figure", { class: "evidence-plot" },
    picture,
    h("figcaption", { id, class: "hint", text: t("moderation_plot_summary", {
      name, n: evidence.n, median: number(evidence.median_ms, 0), p05: number(evidence.p05_ms, 0),
      below: below === null || below === undefined ? "–" : `${number(below * 100, 1)} %`, floor: floorMs,
    }) }));
}

/**
 * The scored statistics beside the bounds every person keeps, with how far beyond (the
 * suspicion, in standard errors).
 * @param {Evidence} evidence @param {Record<string, Bound>} bounds
 */
export function statsTable(evidence, bounds) {
  const names = Object.keys(bounds);
  return h("table", { class: "scores evidence-table" },
    h("caption", { class: "sr-only", text: t("moderation_stats_caption") }),
    h("thead", {}, h("tr", {},
      h("th", { scope: "col", text: t("moderation_stat") }),
      h("th", { scope: "col", class: "num", text: t("moderation_value") }),
      h("th", { scope: "col", class: "num", text: t("moderation_bound") }),
      h("th", { scope: "col", class: "num", text: t("moderation_suspicion") }))),
    h("tbody", {}, names.map((name) => {
      const bound = bounds[name];
      const value = /** @type {number | null | undefined} */ (/** @type {Record<string, unknown>} */ (evidence)[name]);
      const suspicion = evidence.suspicion?.[name];
      return h("tr", { dataset: { stat: name }, class: suspicion ? "beyond" : "" },
        h("th", { scope: "row", title: bound.why, text: t(`moderation_stat_${name}`) }),
        h("td", { class: "num", text: number(value, 3) }),
        h("td", { class: "num", text: `${bound.at === "most" ? "≤" : "≥"} ${number(bound.limit, 3)}` }),
        h("td", { class: "num", text: number(suspicion ?? 0, 1) }));
    })));
}

// The page ----------------------------------------------------------------------------------

/** @param {HTMLElement} root @param {App} app */
export function mount(root, app) {
  const el = h("section", { class: "moderation page-narrow" });
  root.replaceChildren(el);
  /** @type {Queue | null} */
  let queue = null;
  /** @type {Entry[]} */
  let log = [];
  /** @type {Refusal | null} */
  let error = null;
  let everything = false;
  let status = "";
  let gone = false;
  /** @type {Record<string, Evidence | null>} the timing read now, by "player game" */
  const fresh = {};

  async function load() {
    try {
      const [found, entries] = await Promise.all([
        api(`/api/moderation/flags${everything ? "?all=1" : ""}`), api("/api/moderation/log?limit=100")]);
      queue = found;
      log = entries.log ?? [];
      error = null;
    } catch (caught) {
      error = /** @type {Refusal} */ (caught);
    }
    if (!gone) render();
  }

  function render() {
    document.title = `${t("moderation_title")} · zackzack`;
    const focused = document.activeElement?.id;
    el.replaceChildren(h("div", { class: "panel moderation-head" },
      h("h1", { text: t("moderation_title") }),
      h("p", { class: "moderation-status", id: "moderation-status", role: "status", tabindex: "-1", text: status })));
    if (error) {
      const refused = error.code === "forbidden" || error.code === "bad_token";
      el.append(h("div", { class: "panel empty load-failed", id: "moderation-refused" },
        h("p", { text: refused ? t("moderation_forbidden") : t("load_failed") }),
        h("p", { class: "hint", text: errorText(error) })));
      return;
    }
    if (!queue) {
      el.append(h("p", { class: "empty", text: t("loading") }));
      return;
    }
    const toggle = h("input", { type: "checkbox", id: "show-cleared", checked: everything,
      onchange: () => { everything = toggle.checked; load(); } });
    el.append(h("section", { class: "panel moderation-queue", "aria-labelledby": "queue-title" },
      h("h2", { id: "queue-title", text: t("moderation_queue") }),
      h("p", {}, toggle, " ", h("label", { for: "show-cleared", text: t("moderation_show_cleared") })),
      queue.flags.length
        ? h("ul", { class: "flag-list" }, queue.flags.map((flag, i) => h("li", {}, flagPart(flag, i))))
        : h("p", { class: "empty", id: "queue-empty", text: t("moderation_queue_empty") })),
    logPart());
    if (focused) document.getElementById(focused)?.focus();
  }

  /** @param {Flag} flag @param {number} i */
  function flagPart(flag, i) {
    if (!queue) return null;
    const id = `flag-${i}`;
    const name = flag.name || t("deleted_player");
    const key = `${flag.player} ${flag.game}`;
    const timing = flag.source === "timing" ? flag.evidence : fresh[key];
    return h("article", {
      class: `flag${flag.cleared_at ? " cleared" : ""}${flag.marked ? " marked" : ""}`, "aria-labelledby": `${id}-title`,
      dataset: { player: flag.player, game: flag.game, source: flag.source },
    },
    h("h3", { id: `${id}-title` },
      h("a", { href: `/players/${encodeURIComponent(flag.player)}`, "data-link": "", class: "flag-name", text: name }),
      ` · ${gameTitle(flag.game)} · `,
      h("span", { class: `flag-source ${flag.source}`, text: t(`moderation_source_${flag.source}`) }),
      ` · ${t("moderation_score", { score: number(flag.score, 1) })}`,
      flag.cleared_at ? h("span", { class: "flag-cleared", text: ` · ${t("moderation_cleared")}` }) : null),
    flag.marked ? h("p", { class: "flag-mark", text: t("moderation_marked", { reason: flag.marked }) }) : null,
    flag.source === "reports" ? h("p", { class: "flag-reports", text: t("moderation_reports", {
      list: Object.entries(flag.evidence.reports ?? {}).map(([r, n]) => `${t(`report_reason_${r}`)}: ${n}`).join(", "),
    }) }) : null,
    timing ? h("div", { class: "evidence" },
      plot(timing, queue.floor_ms, `${id}-plot`, name),
      statsTable(timing, queue.bounds))
      : flag.source === "reports" ? (key in fresh
        ? h("p", { class: "hint", text: t("moderation_no_timing") })
        : h("button", { class: "btn btn-small", type: "button", id: `${id}-timing`,
          text: t("moderation_read_timing"), onclick: () => readTiming(flag, key) })) : null,
    actions(flag, id));
  }

  /** @param {Flag} flag @param {string} key */
  async function readTiming(flag, key) {
    try {
      const found = await api(`/api/moderation/evidence?player=${encodeURIComponent(flag.player)}&game=${encodeURIComponent(flag.game)}`);
      fresh[key] = found.evidence?.n ? found.evidence : null;
    } catch (caught) {
      app.toast(errorText(/** @type {Refusal} */ (caught)), /** @type {Refusal} */ (caught).reason);
      return;
    }
    render();
  }

  /** The reason field and the acts' buttons. @param {Flag} flag @param {string} id */
  function actions(flag, id) {
    const reason = h("input", { id: `${id}-reason`, class: "flag-reason", maxlength: "500", autocomplete: "off" });
    const newName = h("input", { id: `${id}-name`, class: "flag-new-name", maxlength: "24", autocomplete: "off" });
    const problem = h("div", { class: "create-error", role: "alert" });
    /** @param {string} act @param {Record<string, unknown>} [more] */
    const act = (act, more = {}) => async () => {
      const why = reason.value.trim();
      if (!why) {
        problem.replaceChildren(h("p", { class: "error-text", text: t("moderation_reason_missing") }));
        reason.focus();
        return;
      }
      if (act === "rename" && !newName.value.trim()) {
        problem.replaceChildren(h("p", { class: "error-text", text: t("moderation_name_missing") }));
        newName.focus();
        return;
      }
      try {
        const done = await api(`/api/moderation/${act}`, { player: flag.player, reason: why, ...more });
        status = t("moderation_done", { act: t(`moderation_act_${act}`), name: done.name || flag.name || flag.player });
      } catch (caught) {
        const refusal = /** @type {Refusal} */ (caught);
        problem.replaceChildren(h("p", { class: "error-text", dataset: { code: refusal.code } },
          errorText(refusal), " ", h("small", { lang: "en", text: refusal.reason })));
        return;
      }
      announce(status);
      await load();
      document.getElementById("moderation-status")?.focus();
    };
    const button = (/** @type {string} */ name, /** @type {() => void} */ onclick, cls = "btn btn-small") =>
      h("button", { class: cls, type: "button", id: `${id}-${name}`, dataset: { act: name }, text: t(`moderation_${name}`), onclick });
    return h("div", { class: "flag-actions", role: "group", "aria-label": t("moderation_acts", { name: flag.name ?? flag.player }) },
      h("div", { class: "account-field" },
        h("label", { for: `${id}-reason`, text: t("moderation_reason") }), reason),
      h("div", { class: "account-buttons" },
        flag.marked ? button("unmark", act("unmark")) : button("mark", act("mark"), "btn btn-small btn-gold"),
        flag.cleared_at ? null : button("clear", act("clear", { game: flag.game, source: flag.source })),
        button("close", act("close"))),
      h("div", { class: "account-field flag-rename" },
        h("label", { for: `${id}-name`, text: t("moderation_new_name") }), newName,
        button("rename", () => act("rename", { name: newName.value.trim() })())),
      problem);
  }

  function logPart() {
    return h("section", { class: "panel moderation-log", "aria-labelledby": "log-title" },
      h("h2", { id: "log-title", text: t("moderation_log") }),
      log.length ? h("table", { class: "scores audit-log" },
        h("thead", {}, h("tr", {}, ["moderation_when", "moderation_who", "moderation_act", "stats_player", "moderation_why"]
          .map((k) => h("th", { scope: "col", text: t(k) })))),
        h("tbody", {}, log.map((entry) => h("tr", { dataset: { act: entry.act, player: entry.player ?? "" } },
          h("td", { class: "when", text: moment(entry.at) }),
          h("td", { text: entry.actor }),
          h("td", { text: has(`moderation_act_${entry.act}`) ? t(`moderation_act_${entry.act}`) : entry.act }),
          h("td", { text: entry.name || entry.player || "–" }),
          h("td", { text: entry.reason })))))
        : h("p", { class: "empty", text: t("moderation_log_empty") }));
  }

  const off = onLang(render);
  render();
  load();
  return {
    unmount() { gone = true; off(); },
    helpKeys: () => [],
    key: () => false,
  };
}

// Reports after a match ----------------------------------------------------------------------

/**
 * The after-match part of the table: for each other person at the table, "Report NAME" opens
 * the short list of reasons; a reason sends the report at once. `sent` keeps what was sent
 * (the panel is drawn again and again), by "match player".
 * @param {string} match @param {{player: string, name: string}[]} others @param {Set<string>} sent
 * @param {(text: string, detail?: string) => void} toast
 */
export function reportPart(match, others, sent, toast) {
  if (!match || !others.length) return null;
  return h("div", { class: "report-part" }, others.map((other) => {
    const key = `${match} ${other.player}`;
    const done = () => h("p", { class: "hint report-done", dataset: { player: other.player }, text: t("report_done", { name: other.name }) });
    if (sent.has(key)) return done();
    const part = h("details", { class: "report", dataset: { player: other.player } },
      h("summary", { class: "btn btn-small", text: t("report_button", { name: other.name }) }),
      h("div", { class: "report-reasons", role: "group", "aria-label": t("report_why", { name: other.name }) },
        REASONS.map((reason) => h("button", {
          class: "btn btn-small", type: "button", dataset: { reason }, text: t(`report_reason_${reason}`),
          onclick: async () => {
            try {
              await api("/api/reports", { match, player: other.player, reason });
            } catch (caught) {
              const refusal = /** @type {Refusal} */ (caught);
              toast(errorText(refusal), refusal.reason);
              return;
            }
            sent.add(key);
            const said = done();
            part.replaceWith(said);
            toast(said.textContent);
          },
        }))));
    return part;
  }));
}
