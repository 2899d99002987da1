// @ts-check
// An arena's page (/arenas/ID): its title, game and clock, the reader's status with Join /
// Pause / Come back / Withdraw, the live standings (each game's points in order, a streak's
// doubled ones marked), and once it is over the podium and every match. The server pushes
// `arena` after every change (docs/protocol.md, *Arenas*); `arena_paired` sends a member to
// their next table (js/app.js).

import { h } from "./dom.js";
import { errorDetail, errorNode, errorText } from "./errors.js";
import { GAMES } from "./games.js";
import { count, onLang, parts, t } from "./i18n.js";
import { announce } from "./live.js";
import { net } from "./net.js";
import { profileHref, ratingNode } from "./rating.js";

/** @typedef {Pick<Protocol.ArenaEntry, "state" | "start" | "end">} Timed */
/** @typedef {"arena_starts_in" | "arena_ends_in" | "arena_over"} ClockKey */

// A time left as people read a clock: "4:32", from an hour on "1:02:03" (whole seconds, up).
/** @param {number} ms */
export function clockTime(ms) {
  const s = Math.max(0, Math.ceil(ms / 1000));
  const mm = (/** @type {number} */ n) => String(n).padStart(2, "0");
  if (s < 3600) return `${Math.floor(s / 60)}:${mm(s % 60)}`;
  return `${Math.floor(s / 3600)}:${mm(Math.floor(s / 60) % 60)}:${mm(s % 60)}`;
}

// Where an arena stands at the server's time `now` (ms): before its start, running, or over.
// The times decide between the server's messages; "over" from the server is final.
/** @param {Timed} arena @param {number} now @returns {{key: ClockKey, ms: number}} */
export function clock(arena, now) {
  if (arena.state === "over") return { key: "arena_over", ms: 0 };
  if (now < arena.start) return { key: "arena_starts_in", ms: arena.start - now };
  return { key: "arena_ends_in", ms: Math.max(0, arena.end - now) };
}

// The state at `now` by the times (the server's next message says the same a moment later).
/** @param {Timed} arena @param {number} now @returns {Timed["state"]} */
export function stateAt(arena, now) {
  /** @type {Record<ClockKey, Timed["state"]>} */
  const states = { arena_over: "over", arena_starts_in: "upcoming", arena_ends_in: "running" };
  return states[clock(arena, now).key];
}

// The state as a badge: its word, and a border of its own (never its colour alone).
/** @param {Timed & {id: string}} arena @param {number} now */
export function stateBadge(arena, now) {
  const state = stateAt(arena, now);
  return h("span", { class: `arena-state state-${state}`, dataset: { id: arena.id, state }, text: t(`arena_state_${state}`) });
}

/**
 * "starts in 4:32", "ends in 12:03", "over".
 * @param {Timed} arena @param {number} now
 */
export function clockText(arena, now) {
  const { key, ms } = clock(arena, now);
  return t(key, { time: clockTime(ms) });
}

// An arena's badge and clock in `box` at `now` (each second, between the server's messages).
/** @param {ParentNode} box @param {Timed & {id: string}} arena @param {number} now */
export function tickArena(box, arena, now) {
  const clockEl = box.querySelector(`.arena-clock[data-id="${arena.id}"]`);
  if (clockEl) clockEl.textContent = clockText(arena, now);
  const badge = box.querySelector(`.arena-state[data-id="${arena.id}"]`);
  if (badge && badge.getAttribute("data-state") !== stateAt(arena, now)) badge.replaceWith(stateBadge(arena, now));
}

// The server's clock as this tab reads it: its `now` with the time since it came.
export class ServerClock {
  constructor() { this.skew = 0; }

  /** @param {number} serverNow the message's `now` @param {number} [local] */
  set(serverNow, local = Date.now()) {
    if (Number.isFinite(serverNow) && serverNow > 0) this.skew = serverNow - local;
  }

  now(local = Date.now()) {
    return local + this.skew;
  }
}

/**
 * A game of the standings as the page shows it: its points, whether they counted double,
 * its words ("4 points, place 1 of 2, counted double") and its match's page.
 * @typedef {{points: number, doubled: boolean, win: boolean, label: string, href: string | null}} GameMark
 */

/** @param {Protocol.ArenaGame[]} games @returns {GameMark[]} */
export function gameMarks(games) {
  return games.map((g) => ({
    points: g.points, doubled: g.doubled, win: g.win,
    label: count("arena_game", g.points, { place: g.place, seats: g.seats })
      + (g.doubled ? `, ${t("arena_doubled")}` : ""),
    href: g.match ? `/matches/${g.match}` : null,
  }));
}

/**
 * A line of the standings as the page shows it.
 * @typedef {{rank: number, player: string, name: string, href: string, rating: number,
 *   score: number, performance: string, streak: boolean, me: boolean,
 *   status: "playing" | "active" | "paused" | "withdrawn" | "done", table: string | null,
 *   games: GameMark[]}} Row
 */

// Once the arena is over an active player is done (waiting for nothing).
/**
 * @param {Protocol.ArenaLine[]} standings @param {string | null | undefined} you
 * @param {boolean} [over] @returns {Row[]}
 */
export function rows(standings, you, over = false) {
  return standings.map((line) => ({
    rank: line.rank, player: line.player, name: line.name,
    href: profileHref(line.name, line.player), rating: line.rating, score: line.score,
    performance: line.performance == null ? "–" : String(line.performance),
    streak: line.on_fire, me: Boolean(you) && line.player === you,
    status: line.status !== "active" ? line.status : line.playing ? "playing" : over ? "done" : "active",
    table: line.playing ?? null,
    games: gameMarks(line.games),
  }));
}

// The podium: the first three of the standings who played.
/** @param {Protocol.ArenaLine[]} standings */
export function podium(standings) {
  return standings.filter((line) => line.games.length > 0).slice(0, 3);
}

// Every stored match of the arena once, with who played it, in the order the standings
// first name them.
/** @param {Protocol.ArenaLine[]} standings @returns {{match: string, names: string[]}[]} */
export function matches(standings) {
  /** @type {Map<string, string[]>} */
  const found = new Map();
  for (const line of standings) {
    for (const game of line.games) {
      if (!game.match) continue;
      const names = found.get(game.match) ?? [];
      if (!names.includes(line.name)) names.push(line.name);
      found.set(game.match, names);
    }
  }
  return [...found].map(([match, names]) => ({ match, names }));
}

// The reader's standing with the arena: not joined (null), or their own line (`mine`: the
// standings carry the first hundred only).
/** @param {Protocol.ArenaInfo} arena @returns {Protocol.ArenaLine | null} */
export function mine(arena) {
  if (!arena.you) return null;
  return arena.mine ?? arena.standings.find((line) => line.player === arena.you) ?? null;
}

/**
 * What the reader may do now, each with its key: join (J), pause (P), come back (J),
 * withdraw (W); nothing once the arena is over or they withdrew.
 * @param {Protocol.ArenaInfo} arena
 * @returns {("join" | "pause" | "back" | "withdraw")[]}
 */
export function actions(arena) {
  if (arena.state === "over") return [];
  const line = mine(arena);
  if (!line) return ["join"];
  if (line.status === "withdrawn") return [];
  return line.status === "paused" ? ["back", "withdraw"] : ["pause", "withdraw"];
}

const KEYS = { join: "J", back: "J", pause: "P", withdraw: "W" };
// The refusals of what this page sends, shown under its buttons (any other error is a toast).
const REFUSALS = new Set(["no_such_arena", "arena_over", "arena_withdrawn", "not_in_arena",
  "rated_needs_account", "rated_barred", "playing_elsewhere"]);

/** @param {HTMLElement} root @param {App} app @param {{id: string}} params @returns {Page} */
export function mount(root, app, { id }) {
  return new ArenaPage(root, app, id);
}

class ArenaPage {
  /** @param {HTMLElement} root @param {App} app @param {string} id */
  constructor(root, app, id) {
    this.app = app;
    this.id = id.toUpperCase();
    /** @type {Protocol.ArenaInfo | null} */
    this.arena = null;
    this.clock = new ServerClock();
    this.missing = false;
    this.confirming = false; // "withdraw for good?" is asked
    /** @type {Protocol.Error | null} */
    this.refusal = null;
    this.el = h("section", { class: "arena-page page-narrow" });
    root.replaceChildren(this.el);
    this.offs = [
      net.on("welcome", () => this.watch()),
      net.on("arena", (msg) => this.onArena(msg)),
      net.on("error", (msg) => this.onError(msg)),
      onLang(() => this.render()),
    ];
    this.ticker = setInterval(() => this.tick(), 1000);
    if (net.open) this.watch();
    this.render();
  }

  unmount() {
    this.offs.forEach((off) => off());
    clearInterval(this.ticker);
  }

  watch() {
    net.send({ type: "arena_watch", id: this.id });
  }

  /** @param {"arena_join" | "arena_pause" | "arena_withdraw"} type */
  send(type) {
    this.refusal = null;
    this.confirming = false;
    if (!net.send({ type, id: this.id })) this.app.toast(errorText({ code: "disconnected" }));
    this.render();
  }

  /** @param {Protocol.ArenaState} msg */
  onArena(msg) {
    if (msg.arena.id.toUpperCase() !== this.id) return;
    const was = this.arena;
    this.clock.set(msg.now);
    this.arena = msg.arena;
    this.missing = false;
    if (was && was.state !== msg.arena.state) {
      announce(t(msg.arena.state === "over" ? "arena_ended" : "arena_began"));
    }
    const before = was ? mine(was)?.status ?? null : null;
    const now = mine(msg.arena)?.status ?? null;
    if (was && before !== now) announce(this.youText());
    this.render();
  }

  /** @param {Protocol.Error} msg */
  onError(msg) {
    if (msg.ref != null) return;
    if (msg.code === "no_such_arena" && !this.arena) {
      this.missing = true;
      this.render();
      return;
    }
    if (!REFUSALS.has(msg.code)) {
      this.app.toast(errorText(msg), errorDetail(msg));
      return;
    }
    this.refusal = msg;
    this.render();
  }

  // The reader's status in one sentence.
  youText() {
    const line = this.arena ? mine(this.arena) : null;
    if (!line) return t(this.arena?.state === "over" ? "arena_you_watched" : "arena_you_out");
    if (line.status === "active" && line.playing) return t("arena_you_playing", { code: line.playing });
    return t(`arena_you_${line.status}`);
  }

  // Drawn anew with every message (about once a second while games end): what had the focus
  // keeps it, found again by its id or its `data-focus` (a keyboard user reading the
  // standings stays where they are); a button that went (Pause, once paused) hands it to the
  // next one (Come back), anything else to the heading.
  // The same, with the table one plays at as a link (back to it after a look at the standings).
  youParts() {
    const line = this.arena ? mine(this.arena) : null;
    if (line?.status !== "active" || !line.playing) return [this.youText()];
    const code = line.playing;
    return parts("arena_you_playing", { code: h("a", { href: `/t/${code}`, "data-link": "", id: "to-my-table", text: code }) });
  }

  render() {
    const focused = /** @type {HTMLElement | null} */ (document.activeElement);
    const key = focused && this.el.contains(focused)
      ? focused.id ? `#${focused.id}` : focused.dataset.focus ? `[data-focus="${CSS.escape(focused.dataset.focus)}"]` : "h1"
      : null;
    this.el.replaceChildren(...this.parts().filter((part) => part !== null));
    if (!key) return;
    const inActions = Boolean(focused?.closest(".arena-actions"));
    const again = /** @type {HTMLElement | null} */ (this.el.querySelector(key)
      ?? (inActions ? this.el.querySelector(".arena-actions button") : null) ?? this.el.querySelector("h1"));
    if (again && again.tagName === "H1") again.tabIndex = -1;
    again?.focus({ preventScroll: true });
  }

  parts() {
    if (this.missing) {
      document.title = `${t("err_no_such_arena")} · zackzack`;
      return [h("div", { class: "panel arena-missing", role: "alert" },
        h("h1", { text: t("err_no_such_arena") }),
        h("p", { class: "hint", text: t("arena_missing_why") }),
        h("a", { class: "btn btn-gold", href: "/", "data-link": "", id: "to-lobby" }, t("to_lobby")))];
    }
    const arena = this.arena;
    if (!arena) {
      return [h("div", { class: "panel" }, h("h1", { text: t("arena_title") }),
        h("p", { class: "empty", text: t("loading") }))];
    }
    const game = GAMES[arena.game]?.title ?? arena.game;
    document.title = `${arena.title} · zackzack`;
    const over = arena.state === "over";
    return [
      h("div", { class: "panel arena-head", dataset: { state: arena.state } },
        h("h1", { class: "arena-title" }, arena.title),
        h("p", { class: "arena-facts" },
          h("span", { class: "arena-game-name", text: game }), " · ",
          h("span", { text: count("arena_seats_n", arena.seats) }), " ",
          arena.rated ? h("span", { class: "rated-badge", text: t("rated_badge") })
            : h("span", { class: "match-kind", text: t("arena_casual") }),
          arena.private ? [" ", h("span", { class: "match-kind", text: t("arena_private_badge") })] : null,
          " · ", h("span", { text: t("arena_by", { name: arena.creator }) })),
        h("p", { class: "arena-when" },
          stateBadge(arena, this.clock.now()), " ",
          h("b", { class: "arena-clock", id: "arena-clock", dataset: { id: arena.id }, text: clockText(arena, this.clock.now()) }), " · ",
          h("span", { class: "arena-players", text: count("arena_players", arena.players) })),
        arena.private && !over ? this.share(arena) : null,
        h("p", { class: "arena-you", id: "arena-you" }, this.youParts()),
        this.actionRow(arena),
        h("div", { class: "arena-error", role: "alert" }, this.refusal ? errorNode(this.refusal) : null),
        over ? null : h("p", { class: "hint", text: t("arena_rule") })),
      over ? this.podiumPanel(arena) : null,
      this.standingsPanel(arena),
      over ? this.matchesPanel(arena) : null,
    ];
  }

  // A private arena is found by its link only: the way to pass it on.
  /** @param {Protocol.ArenaInfo} arena */
  share(arena) {
    const link = `${location.origin}${arena.link}`;
    return h("p", { class: "share-link arena-share" },
      h("small", { text: t("share") }), h("a", { href: arena.link, "data-link": "", class: "arena-link", text: link }));
  }

  /** @param {Protocol.ArenaInfo} arena */
  actionRow(arena) {
    const row = h("div", { class: "wait-actions arena-actions" });
    if (this.confirming) {
      row.append(h("p", { class: "arena-confirm", id: "withdraw-ask", text: t("arena_withdraw_ask") }),
        h("button", {
          class: "btn btn-gold", type: "button", id: "withdraw-yes", "aria-describedby": "withdraw-ask",
          onclick: () => this.send("arena_withdraw"),
        }, t("arena_withdraw_yes")),
        h("button", {
          class: "btn", type: "button", id: "withdraw-no", "aria-keyshortcuts": "Escape",
          onclick: () => this.cancelWithdraw(),
        }, t("arena_withdraw_no"), " ", h("kbd", { text: "Esc" })));
      return row;
    }
    for (const what of actions(arena)) {
      const key = KEYS[what];
      row.append(h("button", {
        class: `btn ${what === "withdraw" ? "" : "btn-gold"}`, type: "button", id: `arena-${what}`,
        "aria-keyshortcuts": key, onclick: () => this.act(what),
      }, t(`arena_${what}`), " ", h("kbd", { text: key })));
    }
    return row;
  }

  /** @param {"join" | "pause" | "back" | "withdraw"} what */
  act(what) {
    if (what === "withdraw") {
      this.confirming = true;
      this.render();
      /** @type {HTMLElement | null} */ (this.el.querySelector("#withdraw-no"))?.focus();
      return;
    }
    this.send(what === "pause" ? "arena_pause" : "arena_join");
  }

  cancelWithdraw() {
    this.confirming = false;
    this.render();
    /** @type {HTMLElement | null} */ (this.el.querySelector("#arena-withdraw"))?.focus();
  }

  /** @param {Protocol.ArenaInfo} arena */
  standingsPanel(arena) {
    const lines = rows(arena.standings, arena.you, arena.state === "over");
    // On a phone the table scrolls sideways in its box, which Tab reaches (so keys scroll it).
    const body = lines.length ? h("div", { class: "arena-scroll", id: "arena-scroll", tabindex: "0", role: "region", "aria-labelledby": "arena-standings-title" },
      h("table", { class: "scores board-table arena-standings" },
      h("caption", { class: "sr-only", text: t("arena_standings") }),
      h("thead", {}, h("tr", {},
        h("th", { scope: "col", class: "num", text: t("board_rank") }),
        h("th", { scope: "col", text: t("stats_player") }),
        h("th", { scope: "col", class: "num", text: t("board_rating") }),
        h("th", { scope: "col", class: "num", text: t("arena_score") }),
        h("th", { scope: "col", text: t("arena_games") }),
        h("th", { scope: "col", class: "num", text: t("arena_performance") }),
        h("th", { scope: "col", text: t("arena_status") }))),
      h("tbody", {}, lines.map((row) => this.line(row)))))
      : h("p", { class: "empty", id: "arena-empty", text: t("arena_nobody") });
    return h("div", { class: "panel arena-board" }, h("h2", { id: "arena-standings-title", text: t("arena_standings") }), body,
      lines.length ? h("p", { class: "hint arena-legend", text: t("arena_legend") }) : null);
  }

  /** @param {Row} row */
  line(row) {
    return h("tr", { class: row.me ? "me" : "", dataset: { player: row.player, status: row.status } },
      h("td", { class: "num rank", text: row.rank }),
      h("th", { scope: "row", class: "who" },
        h("a", { href: row.href, "data-link": "", "data-focus": `name-${row.player}`, text: row.name }),
        row.me ? h("span", { class: "arena-me", text: ` (${t("you")})` }) : null,
        row.streak ? h("span", { class: "streak", title: t("arena_streak_title") },
          h("span", { "aria-hidden": "true", text: " ⚡" }),
          h("span", { class: "sr-only", text: `, ${t("arena_streak")}` })) : null),
      h("td", { class: "num" }, ratingNode(row.rating, false)),
      h("td", { class: "num score", text: row.score }),
      h("td", { class: "games" }, h("ol", { class: "arena-games", "aria-label": t("arena_games_of", { name: row.name }) },
        row.games.map((g, i) => h("li", { class: `arena-game${g.doubled ? " doubled" : ""}${g.win ? " win" : ""}` },
          h(g.href ? "a" : "span", {
            href: g.href, "data-link": g.href ? "" : null, "data-focus": g.href ? `game-${row.player}-${i}` : null, title: g.label,
          },
            h("span", { "aria-hidden": "true", text: g.points }),
            g.doubled ? h("sup", { class: "doubled-mark", "aria-hidden": "true", text: "⚡" }) : null,
            h("span", { class: "sr-only", text: g.label })))))),
      h("td", { class: "num perf", text: row.performance }),
      h("td", { class: "status" }, row.status === "playing" && row.table
        ? h("a", { href: `/t/${row.table}`, "data-link": "", "data-focus": `watch-${row.player}`, class: "arena-watch" },
          t("arena_status_playing"), " · ", t("watch"))
        : t(`arena_status_${row.status}`)));
  }

  /** @param {Protocol.ArenaInfo} arena */
  podiumPanel(arena) {
    const top = podium(arena.standings);
    return h("div", { class: "panel arena-podium-panel" },
      h("h2", { text: t("arena_podium") }),
      top.length ? h("ol", { class: "arena-podium" }, top.map((line, i) => h("li", { class: `podium-${i + 1}` },
        h("span", { class: "podium-place", text: t("place_n", { n: line.rank }) }),
        h("a", { href: profileHref(line.name, line.player), "data-link": "", "data-focus": `podium-${line.player}`, class: "podium-name", text: line.name }),
        h("span", { class: "podium-score", text: count("arena_points", line.score) }))))
        : h("p", { class: "empty", text: t("arena_nobody_played") }));
  }

  /** @param {Protocol.ArenaInfo} arena */
  matchesPanel(arena) {
    const found = matches(arena.standings);
    return h("div", { class: "panel arena-matches-panel" },
      h("h2", { text: t("arena_matches") }),
      found.length ? h("ol", { class: "arena-matches" }, found.map(({ match, names }) => h("li", {},
        h("a", { href: `/matches/${match}`, "data-link": "", dataset: { match, focus: `match-${match}` } }, names.join(" – ")))))
        : h("p", { class: "empty", text: t("arena_no_matches") }));
  }

  // Every second: the clock and the state it gives.
  tick() {
    if (this.arena) tickArena(this.el, this.arena, this.clock.now());
  }

  /** @returns {[string, string][]} */
  helpKeys() {
    /** @type {[string, string][]} */
    const keys = [["J", t("arena_keys_join")], ["P", t("arena_keys_pause")], ["W", t("arena_keys_withdraw")]];
    return this.confirming ? [...keys, ["Esc", t("arena_withdraw_no")]] : keys;
  }

  /** @param {KeyboardEvent} e */
  key(e) {
    if (this.missing && (e.key === "Enter" || e.key === "Escape")) {
      this.app.go("/");
      return true;
    }
    if (this.confirming && e.key === "Escape") {
      this.cancelWithdraw();
      return true;
    }
    if (e.shiftKey || !this.arena || this.confirming) return false;
    const allowed = actions(this.arena);
    const what = allowed.find((a) => KEYS[a] === e.key.toUpperCase());
    if (!what) return false;
    this.act(what);
    return true;
  }
}
