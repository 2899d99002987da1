// @ts-check
// Stored matches: the list (/matches) and one match (/matches/ID) with its result, a replay
// in the browser (play, pause, step, speed, a timeline) and the log as a JSON download.

import { chip } from "./cards.js";
import { describe } from "./describe.js";
import { h } from "./dom.js";
import { errorNode, getJson } from "./errors.js";
import { icon } from "./icons.js";
import { boardOr, GAMES, words } from "./games.js";
import { duration, when } from "./format.js";
import { onLang, parts, t } from "./i18n.js";
import { playerName } from "./bots.js";
import { statsPanel } from "./stats.js";

const SPEEDS = [0.5, 1, 2, 4, 8];
const MAX_GAP_MS = 2500; // long quiet stretches are shortened to this
const FEED_LINES = 40;

// A stored match as GET /api/matches lists it, and as GET /api/matches/ID gives it (with its
// rounds, statistics and links); its replay (GET /api/matches/ID/replay): every step of the
// log with the spectator's view after it.
/**
 * @typedef {{id: string, game: string, title: string, status?: string,
 *   players: import("./bots.js").MatchSeat[], result?: {placings: Protocol.Placing[]} | null,
 *   started_at?: number | null, ended_at?: number | null, duration_ms?: number | null}} MatchSummary
 * @typedef {MatchSummary & {rounds?: Protocol.RoundResult[], stats?: any[] | null,
 *   links?: {log: string, replay: string}}} Match
 * @typedef {{t: number, view?: any, events?: any[], outcome?: string, code?: string,
 *   seat?: number, action?: {card?: string} | null}} ReplayStep
 * @typedef {{game: string, players?: string[], options?: {penalty_ms?: number},
 *   start_ms?: number, end_ms?: number, steps: ReplayStep[]}} Replay
 * @typedef {{cls: string, seat?: number | null, parts: unknown[]}} FeedLine
 */

/** @param {MatchSummary} match */
function placings(match) {
  const names = new Map(match.players.map((p) => [p.seat, playerName(p)]));
  return (match.result?.placings ?? []).map((p) => ({ ...p, name: names.get(p.seat) ?? "?" }));
}

// What could not be loaded, in words; the server's English reason only as a detail.
/** @param {import("./errors.js").Refusal} error */
function failed(error) {
  return h("div", { class: "empty load-failed" },
    h("p", { text: t("load_failed") }), errorNode(error));
}

// The list ------------------------------------------------------------------------------

/** @param {HTMLElement} root @returns {Page} */
export function mountList(root) {
  const page = h("section", { class: "matches" });
  root.replaceChildren(page);
  /** @type {{matches: MatchSummary[]} | null} */
  let data = null;
  /** @type {import("./errors.js").Refusal | null} */
  let error = null;

  function render() {
    document.title = `${t("matches")} · zackzack`;
    let body;
    if (error) body = failed(error);
    else if (!data) body = h("p", { class: "empty", text: t("loading") });
    else if (!data.matches.length) body = h("p", { class: "empty", text: t("no_matches") });
    else {
      body = h("ul", { class: "match-list" }, data.matches.map((m) => {
        const first = placings(m).find((p) => p.place === 1);
        const abandoned = m.status === "abandoned";
        return h("li", {},
          h("a", { class: "match-item", href: `/matches/${m.id}`, "data-link": "", dataset: { id: m.id, status: m.status } },
            h("span", { class: "match-game", text: GAMES[m.game]?.title ?? m.game }),
            h("span", { class: "match-players", text: m.players.map(playerName).join(" · ") }),
            abandoned ? h("span", { class: "match-abandoned", text: t("match_abandoned") })
              : h("span", { class: "match-winner" }, first ? [icon("trophy"), " ", first.name] : null),
            h("span", { class: "match-when", text: `${when(m.ended_at ?? m.started_at)} · ${duration(m.duration_ms)}` })));
      }));
    }
    page.replaceChildren(h("div", { class: "panel" }, h("h1", { text: t("matches") }), body));
  }

  getJson("/api/matches?limit=100")
    .then((d) => { data = d; }, (e) => { error = e; })
    .finally(render);
  const off = onLang(render);
  render();
  return { unmount: off, helpKeys: () => [] };
}

// One match and its replay --------------------------------------------------------------

/** @param {HTMLElement} root @param {App} _app @param {{id: string}} params @returns {Page} */
export function mountMatch(root, _app, { id }) {
  return new MatchPage(root, id);
}

class MatchPage {
  /** @param {HTMLElement} root @param {string} id */
  constructor(root, id) {
    this.id = id;
    /** @type {Match | null} */
    this.match = null;
    /** @type {Replay | null} */
    this.replay = null;
    /** @type {import("./errors.js").Refusal | null} */
    this.error = null;
    this.index = -1;
    /** @type {number | undefined} the first step with cards dealt */
    this.first = undefined;
    this.clock = 0;
    this.speed = 1;
    this.playing = false;
    /** @type {number | undefined} */
    this.raf = undefined;
    /** @type {any} the game's board (its web/board.js), once it is loaded */
    this.board = null;
    this.el = h("section", { class: "match-page" });
    root.replaceChildren(this.el);
    this.off = onLang(() => this.render());
    this.render();
    Promise.all([getJson(`/api/matches/${encodeURIComponent(id)}`),
      getJson(`/api/matches/${encodeURIComponent(id)}/replay`)])
      .then((/** @type {[Match, Replay]} */ [match, replay]) => {
        this.match = match;
        this.replay = replay;
        this.render();
        // Start where the cards are dealt, not on an empty table.
        this.first = Math.max(0, this.steps.findIndex((step) => step.view?.state));
        this.seek(this.first);
      }, (e) => {
        this.error = e;
        this.render();
      });
  }

  unmount() {
    this.pause();
    this.off();
    this.board?.destroy();
  }

  get steps() {
    return this.replay?.steps ?? [];
  }

  /** @param {number} seat @returns {string} */
  name(seat) {
    const player = this.match?.players.find((p) => p.seat === seat);
    return player ? playerName(player) : (this.replay?.players?.[seat] ?? t("seat", { n: seat + 1 }));
  }

  render() {
    const match = this.match;
    if (!match) {
      this.el.replaceChildren(h("div", { class: "panel" },
        this.error ? failed(this.error) : h("p", { class: "empty", text: t("loading") })));
      return;
    }
    document.title = `${match.title} · zackzack`;
    const rows = placings(match).map((p) => h("tr", {},
      h("td", { class: "place", text: t("place_n", { n: p.place }) }),
      h("td", { class: "who" }, h("span", { class: "dot", style: { "--seat": `var(--seat-${p.seat % 6})` } }), p.name,
        p.place === 1 ? icon("trophy") : null),
      h("td", { class: "num", text: p.score })));
    // One row per round: who won it and each seat's points, under the players' names.
    const seats = match.players.map((p) => p.seat);
    const rounds = (match.rounds ?? []).map((r) => h("tr", {},
      h("th", { scope: "row", text: r.number }),
      h("td", { text: r.winner === null || r.winner === undefined ? "–" : this.name(r.winner) }),
      seats.map((seat) => h("td", { class: "num", text: r.scores[seat] ?? "" }))));
    const abandoned = match.status === "abandoned";
    const log = match.links?.log ?? `/api/matches/${this.id}/log`;
    this.el.replaceChildren(
      h("div", { class: "match-head" },
        h("div", {},
          h("h1", { text: match.title }),
          h("p", { class: "muted" }, `${GAMES[match.game]?.title ?? match.game} · ${when(match.ended_at ?? match.started_at)} · ${duration(match.duration_ms)}`,
            abandoned ? [" · ", h("span", { class: "match-abandoned", text: t("match_abandoned") })] : null)),
        h("a", { class: "btn", href: log, download: `zackzack-${this.id}.json`, id: "download" },
          icon("download"), t("download_log"))),
      h("div", { class: "match-body" },
        h("div", { class: "replay" },
          this.felt = h("div", { class: "felt" },
            this.boardBox = h("div", { class: "board-box" }),
            this.status = h("div", { class: "replay-status" }),
            this.callEl = h("div", { class: "call" })),
          this.controls(),
          // How each seat played, bots marked (js/stats.js): under the board, where it has room.
          match.stats?.length ? h("div", { class: "panel", id: "match-stats" },
            statsPanel(match.stats, { who: (/** @type {number} */ seat) => this.name(seat) })) : null),
        h("div", { class: "match-side" },
          h("div", { class: "panel" },
            h("h2", { text: t("result") }),
            abandoned ? h("p", { class: "abandoned-note", id: "abandoned-note", text: t("match_abandoned_note") }) : null,
            rows.length ? h("table", { class: "scores" }, h("thead", {}, h("tr", {},
              h("th", { scope: "col", text: t("col_place") }), h("th", { scope: "col", text: t("col_player") }),
              h("th", { scope: "col", class: "num", text: t(words(match.game).score ?? "score") }))), h("tbody", {}, rows)) : null,
            rounds.length > 1 || (abandoned && rounds.length) ? h("table", { class: "scores rounds" },
              h("thead", {}, h("tr", {},
                h("th", { scope: "col", text: t("col_round") }),
                h("th", { scope: "col", text: t("col_round_winner") }),
                seats.map((seat) => h("th", { scope: "col", class: "num", title: this.name(seat), text: this.name(seat) })))),
              h("tbody", {}, rounds)) : null),
          h("aside", { class: "feed" },
            h("h3", { text: t("last_events") }),
            this.feed = h("ol", { class: "feed-list" })))));
    this.board?.destroy();
    this.board = null;
    if (this.index >= 0) {
      for (const step of this.steps.slice(Math.max(0, this.index - FEED_LINES), this.index + 1)) this.feedStep(step);
      this.show(this.index, false);
    }
  }

  controls() {
    /** @param {string} id @param {string} label @param {string} name @param {() => void} fn */
    const button = (id, label, name, fn) => h("button", {
      class: "btn ctl", type: "button", id, title: label, "aria-label": label, onclick: fn,
    }, icon(name));
    this.playButton = button("replay-play", t("play"), "play", () => (this.playing ? this.pause() : this.play()));
    this.slider = h("input", {
      type: "range", min: 0, max: Math.max(0, this.steps.length - 1), value: Math.max(0, this.index),
      class: "timeline", "aria-label": t("replay"),
    });
    this.slider.addEventListener("input", () => { this.pause(); this.seek(+this.slider.value); });
    const speed = h("select", { id: "replay-speed", "aria-label": t("speed") },
      SPEEDS.map((s) => h("option", { value: s, selected: s === this.speed }, `${s}×`)));
    speed.addEventListener("change", () => { this.speed = +speed.value; });
    this.time = h("span", { class: "replay-time" });
    return h("div", { class: "replay-controls" },
      button("replay-restart", t("restart"), "restart", () => { this.pause(); this.seek(this.first ?? 0); }),
      this.playButton,
      button("replay-step", t("step"), "step", () => { this.pause(); this.seek(this.index + 1, true); }),
      this.slider, this.time, h("label", { class: "speed" }, t("speed"), " ", speed));
  }

  // Show step `i`: its view, animated from its events when `animate`.
  /** @param {number} i @param {boolean} animate */
  show(i, animate) {
    const step = this.steps[i];
    if (!step || !this.boardBox) return;
    const view = step.view;
    const replay = /** @type {Replay} */ (this.replay);
    if (view?.state && !this.board) {
      this.board = boardOr(replay.game, (Board) => new Board(this.boardBox, this.ctx()),
        () => { if (!this.board) this.show(this.index, false); });
    }
    if (view?.state && this.board) {
      this.board.update(view, animate ? step.events : []);
    } else if (!view?.state && this.board) {
      this.board.destroy();
      this.board = null;
      this.boardBox.replaceChildren();
    }
    const phase = view?.phase ?? "waiting";
    const last = view?.results?.[view.results.length - 1];
    this.status.textContent = phase === "starting" ? t("ev_starting")
      : (phase === "between" || phase === "over") && last
        ? (last.winner === null ? t("round_drawn") : t("round_won", { who: this.name(last.winner) }))
        : "";
    this.status.classList.toggle("on", Boolean(this.status.textContent));
    this.slider.value = i;
    this.time.textContent = `${duration(step.t - (replay.start_ms ?? 0))} / ${duration((replay.end_ms ?? step.t) - (replay.start_ms ?? 0))}`;
  }

  // What a board asks of the page it is on (js/table.js gives the same at a live table).
  ctx() {
    const replay = /** @type {Replay} */ (this.replay);
    return {
      game: replay.game,
      me: () => null,
      seatInfo: (/** @type {number} */ seat) => {
        const p = this.match?.players.find((x) => x.seat === seat);
        return p ? { kind: p.bot ? "bot" : "human", connected: true, name: p.name, bot: p.bot } : null;
      },
      name: (/** @type {number} */ seat) => this.name(seat),
      frozenLeft: (/** @type {number} */ seat) => Math.max(0, (this.steps[this.index]?.view?.frozen_until?.[seat] ?? 0) - this.clock),
      penaltyMs: () => replay.options?.penalty_ms ?? 1000,
      view: () => this.steps[this.index]?.view, // the plates' counts in words (js/board.js)
      act: async () => ({ ok: false, code: "watching" }),
      call: (/** @type {string} */ value, /** @type {number} */ seat, /** @type {HTMLElement | undefined} */ el) => {
        const target = el ?? this.callEl;
        target.textContent = `${value}!`;
        target.style.setProperty("--seat", `var(--seat-${seat % 6})`);
        target.classList.remove("pop");
        void target.offsetWidth;
        target.classList.add("pop");
      },
      refused: () => {},
      hint: () => {},
    };
  }

  /** @param {ReplayStep} step */
  feedStep(step) {
    const game = /** @type {Replay} */ (this.replay).game;
    const who = (/** @type {number} */ s) => this.name(s);
    /** @type {FeedLine[]} */
    const lines = [];
    if (step.outcome === "rejected" && step.action?.card && step.seat != null
        && ["too_late", "does_not_fit"].includes(step.code ?? "")) {
      lines.push({ cls: `feed-${step.code}`, seat: step.seat,
        parts: parts(`rej_${step.code}`, { who: who(step.seat), card: chip(game, step.action.card) }) });
    }
    for (const event of step.events ?? []) {
      const line = describe(event, { game, who, me: null, now: step.t });
      if (line.length) lines.push({ cls: `feed-${event.type}`, seat: event.seat, parts: line });
    }
    for (const line of lines) {
      const li = h("li", { class: line.cls }, line.parts);
      if (line.seat !== undefined && line.seat !== null) li.style.setProperty("--seat", `var(--seat-${line.seat % 6})`);
      this.feed.prepend(li);
    }
    while (this.feed.children.length > FEED_LINES) this.feed.lastElementChild.remove();
  }

  // Jump to step `i` (animated when it is the next one).
  /** @param {number} i */
  seek(i, animate = false) {
    i = Math.max(0, Math.min(i, this.steps.length - 1));
    if (i === this.index) return;
    if (animate && i === this.index + 1) {
      this.feedStep(this.steps[i]);
    } else {
      this.feed.replaceChildren();
      for (const step of this.steps.slice(Math.max(0, i - FEED_LINES), i + 1)) this.feedStep(step);
    }
    this.index = i;
    this.clock = this.steps[i].t;
    this.show(i, animate);
    if (i === this.steps.length - 1) this.pause();
  }

  play() {
    if (this.index >= this.steps.length - 1) this.seek(this.first ?? 0);
    this.playing = true;
    this.playButton.replaceChildren(icon("pause"));
    this.playButton.title = t("pause");
    let last = performance.now();
    const frame = (/** @type {number} */ now) => {
      if (!this.playing) return;
      this.clock += (now - last) * this.speed;
      last = now;
      const next = this.steps[this.index + 1];
      if (next && next.t - this.clock > MAX_GAP_MS) this.clock = next.t - MAX_GAP_MS;
      while (this.playing && this.steps[this.index + 1] && this.steps[this.index + 1].t <= this.clock) {
        this.seek(this.index + 1, true);
      }
      this.board?.tick();
      this.raf = requestAnimationFrame(frame);
    };
    this.raf = requestAnimationFrame(frame);
  }

  pause() {
    this.playing = false;
    cancelAnimationFrame(this.raf ?? 0);
    if (this.playButton) {
      this.playButton.replaceChildren(icon("play"));
      this.playButton.title = t("play");
    }
  }

  /** @param {KeyboardEvent} e */
  key(e) {
    if (e.key === " " || e.key === "k") {
      if (this.playing) this.pause();
      else this.play();
      return true;
    }
    if (e.key === "ArrowRight" || e.key === "l") {
      this.pause();
      this.seek(this.index + 1, true);
      return true;
    }
    if (e.key === "ArrowLeft" || e.key === "j") {
      this.pause();
      this.seek(this.index - 1);
      return true;
    }
    return false;
  }

  /** @returns {[string, string][]} */
  helpKeys() {
    return [["Space", `${t("play")} / ${t("pause")}`], ["→", t("step")], ["←", t("back")]];
  }
}
