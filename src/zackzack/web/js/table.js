// @ts-check
// A table page (/t/CODE): the waiting room, the start countdown, the game board, the
// countdowns of automatic steps, the end of a round and of the match, and the event feed.

import { plate, updatePlate } from "./board.js";
import { describe } from "./describe.js";
import { append, clear, h, store, touchOnly } from "./dom.js";
import { errorDetail, errorText } from "./errors.js";
import { boardOr, GAMES, words } from "./games.js";
import { icon } from "./icons.js";
import { count, onLang, seconds, t } from "./i18n.js";
import { announce, interrupt } from "./live.js";
import { botLabel, LEVELS } from "./lobby.js";
import { reportPart } from "./moderation.js";
import { askName, needsName } from "./names.js";
import { net } from "./net.js";
import { ratingNode } from "./rating.js";
import * as sound from "./sound.js";
import { standingsLine, statsPanel } from "./stats.js";
import { say } from "./speech.js";

const FEED_LINES = 40;
// A game's noisy events (its Front.noisy in the catalogue: bots that draw all the time) would
// push every play out of the feed; the plates show their counts anyway. So a bot's are hidden
// unless asked for.
const SHOW_BOT_DRAWS = "zz.feed.botdraws";
const SLOW_MS = 150; // a round trip from this long on is a slow connection
const ASK_AGAIN_MS = 2000; // after "the table's server is changing": ask for it again then
const ASK_AGAIN = new Set(["table_moving", "cluster_unavailable"]);
// The events said to a screen reader (the one polite region, js/live.js). Not plays, draws or
// moves: the new top card says what a play did, and the plates hold the counts; not the start
// and the restart: the assertive region says "3", "2", "1", "los!".
const SAID = new Set(["announced", "cancelled", "went_out", "round_scored", "match_ended",
  "next_round", "paused", "resuming", "joined", "left", "flipped", "reshuffled"]);

/**
 * An event as the table sends it: the table's own (`Protocol.TableEvent`) or its game's, whose
 * fields only the game's modules know.
 * @typedef {{type: string, seat?: number} & Record<string, any>} AnyEvent
 * @typedef {{event: AnyEvent, now: number} | {late: any}} FeedItem
 */

/** @param {HTMLElement} root @param {any} app @param {{code: string, join?: boolean}} params */
export function mount(root, app, params) {
  return new TablePage(root, app, params);
}

class TablePage {
  /** @param {HTMLElement} root @param {any} app @param {{code: string, join?: boolean}} params */
  constructor(root, app, { code, join = false }) {
    this.app = app;
    this.code = code.toUpperCase();
    this.join = join;
    /** @type {any} */
    this.info = null;
    /** @type {any} */
    this.view = null;
    this.offset = performance.now();
    this.board = null;
    this.losUntil = 0;
    this.offer = null;
    this.asking = null; // the join or watch sent and not answered yet (asked again after a reconnect)
    this.offs = [];
    /** @type {Set<string>} */
    this.reported = new Set(); // the reports sent from this page (js/moderation.js)

    this.lagChip = h("span", { class: "lag-chip", hidden: true },
      h("span", { class: "lag-dot", "aria-hidden": "true" }), h("span", { class: "lag-ms" }), h("small"));
    this.el = h("section", { class: "table-page", "data-phase": "loading" },
      this.head = h("div", { class: "table-head" }),
      h("div", { class: "table-body" },
        this.felt = h("div", { class: "felt" },
          this.boardBox = h("div", { class: "board-box" }),
          // Pictures of what js/live.js says once: the countdown bar, the big 3 – 2 – 1.
          this.announce = h("div", { class: "announce" }),
          // The idle rule (docs/rules.md): the table waits on you; a stand-in plays for you.
          this.idleNote = h("div", { class: "idle-note", hidden: true }),
          this.starter = h("div", { class: "starter", "aria-hidden": "true" }),
          this.overlay = h("div", { class: "overlay" })),
        h("aside", { class: "feed", "aria-labelledby": "feed-title" },
          h("div", { class: "feed-head" },
            this.feedTitle = h("h2", { id: "feed-title", text: t("last_events") }),
            this.drawsToggle = h("button", {
              class: "feed-toggle", type: "button", "aria-keyshortcuts": "Shift+B", hidden: true,
              onclick: () => this.toggleBotDraws(),
            })),
          // Not live (js/live.js says what matters); it scrolls, so it takes the focus.
          this.feed = h("ol", { class: "feed-list", tabindex: "0", "aria-label": t("a11y_feed") }))));
    // The feed is kept as what happened, and worded afresh when the language changes.
    /** @type {FeedItem[]} */
    this.feedItems = [];
    this.missing = false;
    this.renderToggle();
    root.replaceChildren(this.el);

    this.offs.push(
      net.on("welcome", () => this.open()),
      net.on("table", (msg) => this.onTable(msg)),
      net.on("events", (msg) => this.onEvents(msg)),
      net.on("error", (msg) => this.onError(msg)),
      net.on("rematch", (msg) => { this.offer = msg; this.renderOverlay(); }),
      net.on("status", (status) => {
        this.el.classList.toggle("offline", status !== "open");
        this.renderLag();
      }),
      net.on("ping", () => this.renderLag()),
      onLang(() => this.relabel()));
    // A button of the overlay keeps its element while it is pressed (pointer or Space down
    // until up): a table message meanwhile (someone's lag, readiness) would replace it, and
    // the browser would drop the click. The panel is updated after the press.
    this.pressing = false;
    this.overlayLate = false;
    /** @param {Event} e */
    const press = (e) => { if (/** @type {Element} */ (e.target).closest("button")) this.pressing = true; };
    this.overlay.addEventListener("pointerdown", press);
    this.overlay.addEventListener("keydown", (/** @type {KeyboardEvent} */ e) => { if (e.key === " ") press(e); });
    const released = () => {
      if (!this.pressing) return;
      this.pressing = false;
      setTimeout(() => { if (this.overlayLate) this.renderOverlay(); }); // after the click
    };
    /** @type {[string, boolean][]} */
    const releases = [["pointerup", true], ["pointercancel", true], ["keyup", true], ["blur", false]];
    for (const [type, capture] of releases) {
      window.addEventListener(type, released, capture);
      this.offs.push(() => window.removeEventListener(type, released, capture));
    }
    this.timer = setInterval(() => this.tick(), 100);
    if (net.open) this.open();
  }

  unmount() {
    clearInterval(this.timer);
    clearTimeout(this.again);
    this.offs.forEach((off) => off());
    this.board?.destroy();
    net.send({ type: "leave" });
  }

  // After the welcome (the first, a reconnect's, or the one of the server `moved` sent us to):
  // ask for the table again, with the same join or watch when that one was not answered yet.
  open() {
    this.asking ??= this.join ? { type: "join", code: this.code, seat: null } : { type: "watch", code: this.code };
    this.join = false;
    net.send(this.asking);
  }

  // A join from this page (a seat, the rematch): asked again after a reconnect until answered.
  /** @param {Protocol.ClientMessage} message */
  ask(message) {
    if (!net.send(message)) return false;
    this.asking = message;
    return true;
  }

  // Time: every time in a view is table time; `now` says what table time it was when sent.
  /** @param {number} now */
  sync(now) {
    this.offset = performance.now() - now;
  }

  now() {
    return performance.now() - this.offset;
  }

  get me() {
    return this.info?.you ?? null;
  }

  /** @param {number} seat @returns {string} */
  name(seat) {
    const info = this.info?.seats[seat];
    if (!info) return t("seat", { n: seat + 1 });
    if (info.kind === "bot") return botLabel(info.bot, seat);
    if (info.kind === "open") return t("seat_open");
    return info.name ?? t("seat", { n: seat + 1 });
  }

  /** @param {number} seat */
  who(seat) {
    return seat === this.me ? t("you") : this.name(seat);
  }

  // The table's game as the catalogue lists it (its Front's declarations).
  game() {
    return this.info ? GAMES[this.info.game] : undefined;
  }

  // The game's tournament when this table plays one (its option is on), else null.
  tournament() {
    const found = this.game()?.tournament;
    return found && this.info?.options?.[found.option] ? found : null;
  }

  // Messages ----------------------------------------------------------------------------

  /** @param {Protocol.TableState} msg */
  onTable(msg) {
    const info = msg.table;
    if (this.asking && "code" in this.asking && this.asking.code === info.code) this.asking = null;
    if (info.code !== this.code) {
      this.code = info.code;
      this.app.replace(`/t/${info.code}`);
      this.feed.replaceChildren();
      this.feedItems = [];
      this.offer = null;
      this.board?.destroy();
      this.board = null;
    }
    this.sync(msg.now);
    this.missing = false;
    this.info = info;
    this.view = msg.view;
    this.drawsToggle.hidden = !this.game()?.noisy?.length;
    // A client that arrives during the restart countdown learns of it from the view alone.
    this.resumeAt = msg.view.resumes_in == null ? 0 : performance.now() + msg.view.resumes_in;
    this.app.onTable?.(this);
    // Someone who came by a link to a waiting table with a free seat says their name
    // before sitting down (not its creator: they are at their own table).
    if (info.phase === "waiting" && info.you === null && info.creator !== net.player
        && info.seats.some((/** @type {Protocol.SeatInfo} */ seat) => seat.kind === "open") && !this.asked && needsName()) {
      this.asked = true;
      askName();
    }
    this.renderAll();
  }

  /** @param {Protocol.Events} msg */
  onEvents(msg) {
    if (!this.info) return;
    this.sync(msg.now);
    const was = this.view?.phase;
    this.view = msg.view;
    this.info = { ...this.info, phase: msg.view.phase };
    for (const event of msg.events) {
      if (event.type === "round_started" || event.type === "resumed") this.losUntil = performance.now() + 900;
      if (event.type === "resuming") this.resumeAt = performance.now() + event.in_ms;
      if (event.type === "resumed" || event.type === "paused") this.resumeAt = 0;
    }
    if (was !== msg.view.phase) {
      this.renderAll(msg.events);
    } else {
      this.board?.update(msg.view, msg.events);
      this.sayTop();
      this.renderHead();
      this.renderAnnounce();
      if (msg.events.some((/** @type {AnyEvent} */ e) => ["round_scored", "match_ended", "resuming"].includes(e.type))) {
        this.renderOverlay();
      }
    }
    for (const event of msg.events) this.addFeed(event);
    this.feel(msg.events);
    this.speak(msg.events);
  }

  // Say the events that matter to someone who cannot see the table: one's own freeze cuts in,
  // the rest is said politely, worded as in the feed.
  /** @param {AnyEvent[]} events */
  speak(events) {
    for (const event of events) {
      if (event.type === "penalised" && event.seat === this.me && this.me !== null) {
        interrupt(t("ev_penalised_you", { s: seconds(this.info.options?.penalty_ms ?? event.until - this.now()) }));
      } else if (SAID.has(event.type)) {
        const line = describe(event, { game: this.info.game, who: (s) => this.who(s), me: this.me, now: this.now() });
        announce(h("span", {}, line).textContent);
      }
    }
  }

  /** @param {Protocol.Error} msg */
  onError(msg) {
    if (msg.ref != null) return;
    const asking = this.asking;
    if (asking && ASK_AGAIN.has(msg.code)) { // a cluster's table between servers: ask again soon
      clearTimeout(this.again);
      this.again = setTimeout(() => { if (this.asking === asking) net.send(asking); }, ASK_AGAIN_MS);
      this.app.toast(errorText(msg), errorDetail(msg));
      return;
    }
    this.asking = null; // the join or watch was refused: a reconnect watches this table
    if (msg.code === "no_such_table" && !this.info) {
      this.missing = true;
      this.renderMissing();
      return;
    }
    this.app.toast(errorText(msg), errorDetail(msg));
  }

  // A wrong or expired link: say so, and offer the way back (Enter or Escape, or the button).
  renderMissing() {
    this.el.dataset.phase = "missing";
    document.title = `${t("not_found")} · zackzack`;
    const back = h("a", { class: "btn btn-gold btn-big", href: "/", "data-link": "", id: "to-lobby" },
      t("to_lobby"), " ", h("kbd", { text: "Enter" }));
    this.overlay.replaceChildren(h("div", { class: "panel center-panel missing", role: "alert" },
      h("h2", { text: t("not_found") }),
      h("p", { class: "big-code" }, h("small", { text: t("code") }), h("b", { text: this.code })),
      h("p", { class: "hint", text: t("not_found_why") }),
      h("div", { class: "wait-actions" }, back)));
    this.overlay.classList.add("on");
    back.focus();
  }

  // The language changed: word everything again, the board (built once with its words)
  // and the feed's older lines too.
  relabel() {
    this.feedTitle.textContent = t("last_events");
    if (this.feed.hasAttribute("aria-label")) this.feed.setAttribute("aria-label", t("a11y_feed"));
    this.renderToggle();
    if (this.missing) {
      this.renderMissing();
      return;
    }
    // A question the board was asking (which pile?) is asked again, in the new words.
    const choice = this.board?.choice ?? null;
    if (this.board) {
      this.board.destroy();
      this.board = null;
      this.boardBox.replaceChildren();
    }
    this.overlayKind = null;
    delete this.announce.dataset.due;
    this.renderAll();
    this.renderFeed();
    if (choice && this.board?.choose) this.board.choose(choice);
  }

  // Rendering ---------------------------------------------------------------------------

  /** @param {AnyEvent[]} [events] */
  renderAll(events = []) {
    if (!this.info) return;
    const { game } = this.info;
    this.el.dataset.game = game;
    this.el.dataset.phase = this.view?.phase ?? this.info.phase;
    document.title = `${this.info.title} · zackzack`;
    if (this.view?.state && !this.board) {
      this.board = boardOr(game, (Board) => new Board(this.boardBox, this.ctx()),
        () => { if (!this.board && this.info) this.renderAll(); });
    }
    if (this.view?.state && this.board) {
      this.board.update(this.view, events);
      this.sayTop();
    } else if (!this.view?.state) {
      this.board?.destroy();
      this.board = null;
      this.boardBox.replaceChildren(...(this.view?.phase === "starting" ? [this.lineup()] : []));
    }
    this.renderHead();
    this.renderAnnounce();
    this.renderOverlay();
    this.tick();
  }

  // Who plays, shown under the start countdown.
  lineup() {
    const ctx = this.ctx();
    return h("div", { class: "lineup" }, this.info.seats.map((/** @type {unknown} */ _, /** @type {number} */ seat) => {
      const el = plate(seat);
      updatePlate(el, seat, ctx);
      return el;
    }));
  }

  ctx() {
    return {
      game: this.info.game,
      me: () => this.me,
      seatInfo: (/** @type {number} */ seat) => this.info?.seats[seat],
      name: (/** @type {number} */ seat) => this.name(seat),
      frozenLeft: (/** @type {number} */ seat) => Math.max(0, (this.view?.frozen_until?.[seat] ?? 0) - this.now()),
      penaltyMs: () => this.info?.options?.penalty_ms ?? 1000,
      options: () => this.info?.options ?? {},
      view: () => this.view,
      reactionMs: () => net.reactionMs,
      shown: (/** @type {number[]} */ versions) => { if (this.me !== null) net.send({ type: "shown", versions }); },
      act: (/** @type {Record<string, unknown>} */ action) => net.act(action).then((ack) => this.feelAck(ack)),
      call: (/** @type {string} */ value, /** @type {number} */ seat, /** @type {HTMLElement} */ el, speak = true) =>
        this.call(value, seat, el, speak),
      refused: (/** @type {any} */ ack) => this.refused(ack),
      raceLost: (/** @type {any} */ ack) => this.raceLost(ack),
      hint: (/** @type {string} */ text) => this.app.toast(text),
    };
  }

  renderHead() {
    const info = this.info;
    const view = this.view;
    const tournament = this.tournament();
    const rounds = tournament
      ? t("round_of", { n: view?.round ?? 1, m: tournament.rounds_per_player * info.seats.length })
      : t("round_n", { n: view?.round ?? 1 });
    append(clear(this.head), [
      h("h1", { class: "table-title", text: info.title, title: info.title }), // one line, "…"
      h("span", { class: "code-chip", title: t("code") }, h("small", { text: t("code") }), " ", info.code),
      info.rated ? h("span", { class: "rated-badge rated-chip", text: t("rated_badge") }) : null,
      view && view.phase !== "waiting" ? h("span", { class: "round-chip", text: rounds }) : null,
      this.me === null ? h("span", { class: "watch-chip" }, icon("eye"), " ", t("spectating")) : null,
      info.watchers ? h("span", { class: "watchers", text: count("watchers", info.watchers) }) : null,
      this.lagChip,
      // The tournament total while it runs, from the first round's end on.
      tournament && view?.results?.length && view.totals
        ? standingsLine(view.totals, {
          who: (seat) => this.who(seat), me: this.me, lowWins: this.game()?.low_wins ?? true,
        }) : null]);
    this.renderLag();
  }

  // This connection's round trip as the server measured it: "● 42 ms Verbindung gut".
  renderLag() {
    const rtt = net.open ? net.rtt : null;
    this.lagChip.hidden = rtt == null;
    if (rtt == null) return;
    const ms = Math.round(rtt);
    const slow = ms >= SLOW_MS;
    const word = t(slow ? "lag_slow" : "lag_good");
    this.lagChip.dataset.lag = slow ? "slow" : "good";
    this.lagChip.title = t("lag_title", { ms });
    this.lagChip.setAttribute("aria-label", `${word}: ${ms} ms`);
    this.lagChip.querySelector(".lag-dot").textContent = slow ? "▲" : "●";
    this.lagChip.querySelector(".lag-ms").textContent = `${ms} ms`;
    this.lagChip.querySelector("small").textContent = word;
  }

  renderAnnounce() {
    const countdown = this.view?.countdown;
    this.announce.classList.toggle("on", Boolean(countdown));
    if (!countdown) return;
    if (this.announce.dataset.due === String(countdown.due)) return;
    this.announce.dataset.due = countdown.due;
    const total = Math.max(1, countdown.due - this.now());
    const bar = h("span", { class: "announce-bar" });
    this.announce.replaceChildren(
      h("b", { text: t(words(this.info.game).stalemate ?? "stalemate") }),
      h("span", { class: "announce-text" }),
      h("span", { class: "announce-track" }, bar));
    bar.animate([{ transform: "scaleX(1)" }, { transform: "scaleX(0)" }], { duration: total, fill: "forwards" });
    this.announceStep = countdown.step;
  }

  // The overlay in the middle of the felt: waiting room, or the end of a round / match.
  renderOverlay() {
    const phase = this.view?.phase ?? this.info?.phase;
    let panel = null;
    if (phase === "waiting") panel = this.waitingRoom();
    else if (phase === "between" || phase === "over") panel = this.roundEnd(phase);
    else if (phase === "paused" && !this.resumeAt) {
      panel = h("div", { class: "panel center-panel paused" },
        h("h2", { text: t("paused") }), h("p", { class: "hint", text: t("paused_why") }));
    }
    // Only a panel that is new rises into view; an updated one just changes in place.
    const kind = panel ? phase : null;
    if (this.pressing && kind !== null && kind === this.overlayKind) {
      this.overlayLate = true;
      return;
    }
    this.overlayLate = false;
    panel?.classList.toggle("still", kind === this.overlayKind);
    this.overlayKind = kind;
    this.overlay.replaceChildren(...(panel ? [panel] : []));
    this.overlay.classList.toggle("on", Boolean(panel));
  }

  waitingRoom() {
    const info = this.info;
    const creator = info.creator === net.player;
    const seated = this.me !== null;
    /** @type {Protocol.SeatInfo[]} */
    const seats = info.seats;
    const people = seats.filter((s) => s.kind === "human");
    const full = seats.every((s) => s.kind !== "open");
    const ready = people.every((s) => s.ready || (creator && s.player === net.player));
    const mine = info.seats[this.me];
    const link = info.link || `${location.origin}/t/${info.code}`;
    const linkInput = h("input", { class: "link", readonly: true, value: link, "aria-label": t("share") });
    linkInput.addEventListener("focus", () => linkInput.select());
    const seatRows = seats.map((seat, i) => {
      const status = seat.kind !== "human" ? (creator ? "" : t(seat.kind === "bot" ? "bot" : "open_seat"))
        : !seat.connected ? t("disconnected")
          : seat.player === info.creator ? t("host")
            : seat.ready ? `✓ ${t("is_ready")}` : t("not_ready_yet");
      const row = h("li", { class: `wait-seat ${seat.kind}${seat.ready ? " ready" : ""}`, dataset: { seat: i } },
        h("span", { class: "avatar", style: { "--seat": `var(--seat-${i % 6})` } },
          seat.kind === "bot" ? icon("bot") : seat.kind === "open" ? "+" : (seat.name ?? "?").trim()[0]?.toUpperCase() ?? "?"),
        h("span", { class: "wait-name", text: i === this.me ? `${this.name(i)} (${t("you")})` : this.name(i) }),
        seat.kind === "human" && seat.rating !== null && seat.rating !== undefined
          ? h("span", { class: "wait-rating" }, h("span", { class: "sr-only", text: `${t("rating")} ` }),
            ratingNode(seat.rating, seat.provisional)) : null,
        h("span", { class: "wait-status", text: status }),
        seat.lag === "slow" && i !== this.me ? h("span", { class: "wait-lag", text: `◔ ${t("lag_mark_slow")}` }) : null);
      if (seat.kind === "open" && !seated) {
        row.append(h("button", {
          class: "btn btn-small btn-gold", type: "button", text: t("take_seat"),
          onclick: () => this.sitDown(i),
        }));
      }
      if (i === this.me) {
        row.append(h("button", {
          class: "btn btn-small rename", type: "button", id: "rename", "aria-keyshortcuts": "N",
          title: `${t("name_change")} (N)`, onclick: () => this.renameMe(),
        }, h("span", { "aria-hidden": "true", text: "✎ " }), t("name_change")));
      }
      if (creator && i !== this.me) row.append(this.seatChanger(i, seat));
      return row;
    });
    const actions = h("div", { class: "wait-actions" });
    if (seated && !creator) {
      actions.append(h("button", {
        class: `btn btn-big ${mine?.ready ? "" : "btn-gold"}`, type: "button", id: "ready",
        text: mine?.ready ? t("not_ready") : t("im_ready"),
        onclick: () => net.send({ type: "ready", ready: !mine?.ready }),
      }));
    }
    if (creator) {
      actions.append(h("button", {
        class: "btn btn-big btn-gold", type: "button", id: "start", disabled: !(full && ready),
        text: `${t("start")} ▶`, onclick: () => net.send({ type: "start" }),
      }));
    }
    return h("div", { class: "panel center-panel waiting" },
      h("h2", {}, info.title, info.rated ? [" ", h("span", { class: "rated-badge", text: t("rated_badge") })] : null),
      h("div", { class: "share" },
        h("div", { class: "big-code" }, h("small", { text: t("code") }), h("b", { text: info.code })),
        h("div", { class: "share-link" },
          h("small", { text: t("share") }),
          h("div", { class: "link-row" }, linkInput, h("button", {
            class: "btn btn-small", type: "button", text: t("copy"),
            onclick: () => {
              navigator.clipboard?.writeText(link).then(() => this.app.toast(t("copied")), () => {});
              linkInput.select();
            },
          })))),
      h("ol", { class: "wait-seats" }, seatRows),
      actions,
      h("p", { class: "hint", text: creator ? t(full && ready ? (touchOnly() ? "all_ready_touch" : "all_ready") : "waiting_for")
        : !seated ? t("spectating") : t("waiting_creator") }));
  }

  // The arena that seated the player at this table (js/app.js remembers it), or null.
  arena() {
    return this.info ? this.app.arenaTables?.[this.info.code] ?? null : null;
  }

  // Take seat `i`; someone without a chosen name says it first.
  /** @param {number} i */
  async sitDown(i) {
    if (needsName()) await askName();
    if (!this.ask({ type: "join", code: this.info.code, seat: i })) this.app.toast(t("err_disconnected"));
  }

  // Before the start a seated player may change their name; everyone sees it at once.
  renameMe() {
    if (this.me === null || this.view?.phase !== "waiting") return false;
    askName({ title: t("name_change"), current: this.name(this.me) });
    return true;
  }

  /** @param {number} i @param {Protocol.SeatInfo} seat */
  seatChanger(i, seat) {
    const current = seat.kind === "bot" ? String(seat.bot).split(":")[0] : seat.kind;
    const select = h("select", { class: "seat-change", "aria-label": t("seat_n", { n: i + 1 }) },
      h("option", { value: "open", selected: current === "open" || current === "human" }, t("seat_open")),
      LEVELS.map((l) => h("option", { value: l, selected: current === l }, `${t("seat_bot")}: ${t(`level_${l}`)}`)));
    select.addEventListener("change", () => net.send(select.value === "open"
      ? { type: "seat", seat: i, kind: "open" }
      : { type: "seat", seat: i, kind: "bot", bot: select.value }));
    return select;
  }

  /** @param {string} phase */
  roundEnd(phase) {
    const view = this.view;
    const info = this.info;
    const last = view.results[view.results.length - 1];
    if (!last) return null;
    const tournament = this.tournament();
    /** @type {Protocol.Placing | undefined} */
    const winner = view.result?.placings.find((/** @type {Protocol.Placing} */ p) => p.place === 1);
    const single = phase === "over" && view.results.length === 1 && winner;
    const title = single ? (winner.seat === this.me ? t("winner_you") : t("winner_is", { who: this.name(winner.seat) }))
      : last.winner === null ? t("round_drawn")
        : last.winner === this.me ? t("round_won_you") : t("round_won", { who: this.name(last.winner) });
    // The rows by place: the match's placings at its end; between rounds the standings so
    // far, by the tournament's totals or by the round's scores (the game's Front.low_wins:
    // fewest best), never in seat order without places.
    const order = view.result
      ? view.result.placings.map((/** @type {Protocol.Placing} */ p) => ({ seat: p.seat, place: p.place }))
      : standings(tournament ? view.totals : last.scores, this.game()?.low_wins ?? true);
    const rows = order.map((/** @type {{seat: number, place: number}} */ { seat, place }) => h("tr", { class: seat === this.me ? "me" : "" },
      h("td", { class: "place", text: place ? t("place_n", { n: place }) : "" }),
      // One line: a long name ("Bot 2 · Profi" on a phone) ends in "…", and the whole of it
      // is the cell's text (what a screen reader says) and its tooltip (issue 30).
      h("td", { class: "who" }, h("span", { class: "who-line" },
        h("span", { class: "dot", style: { "--seat": `var(--seat-${seat % 6})` } }),
        h("span", { class: "who-name", text: this.who(seat), title: this.who(seat) }),
        last.winner === seat ? icon("trophy", "🏆") : null,
        phase === "between" && info.seats[seat]?.kind === "human" && info.seats[seat].ready
          ? h("span", { class: "ready-mark", text: ` ✓ ${t("is_ready")}` }) : null)),
      h("td", { class: "num", text: last.scores[seat] }),
      tournament ? h("td", { class: "num total", text: view.totals[seat] }) : null));
    const head = h("tr", {}, h("th", {}, h("span", { class: "sr-only", text: t("a11y_place") })),
      h("th", {}, h("span", { class: "sr-only", text: t("a11y_player") })),
      h("th", { class: "num", text: t(words(info.game).score ?? "score") }),
      tournament ? h("th", { class: "num", text: t("total") }) : null);
    const panel = h("div", { class: `panel center-panel round-end ${phase}` },
      h("div", { class: "round-no", text: single ? t("match_over") : t("round_n", { n: last.number }) }),
      h("h2", { text: title }),
      h("table", { class: "scores" }, h("thead", {}, head), h("tbody", {}, rows)));
    if (phase === "between") {
      panel.append(h("p", { class: "next-round", dataset: { at: view.next_round_at ?? "" } }));
      // Ready when you are (issue 30): the next round starts once every person is ready.
      const mine = this.me === null ? null : info.seats[this.me];
      if (mine && mine.kind === "human" && !mine.bot) {
        const waiting = info.seats.filter((/** @type {Protocol.SeatInfo} */ s) => !s.ready).length;
        panel.append(h("div", { class: "wait-actions" }, mine.ready
          ? h("p", { class: "hint ready-next-done", role: "status", text: count("ready_next_done", waiting) })
          : h("button", {
            class: "btn btn-gold btn-big", type: "button", id: "ready-next", text: t("ready_next"),
            onclick: () => net.send({ type: "ready", ready: true }),
          })));
      }
    } else {
      if (!single) panel.insertBefore(h("div", { class: "match-over" },
        h("small", { text: t("match_over") }),
        h("b", { text: winner ? (winner.seat === this.me ? t("winner_you") : t("winner_is", { who: this.name(winner.seat) })) : "" })),
      panel.children[1]);
      const buttons = h("div", { class: "wait-actions" });
      // At an arena's table the arena seats the player anew: the way back to it, no rematch.
      const arena = this.arena();
      if (arena) {
        buttons.append(h("a", {
          class: "btn btn-gold btn-big", href: `/arenas/${arena}`, "data-link": "", id: "to-arena", "aria-keyshortcuts": "A",
        }, t("arena_back_to"), " ", h("kbd", { text: "A" })));
      } else if (this.offer) {
        buttons.append(h("button", {
          class: "btn btn-gold btn-big", type: "button", id: "rematch",
          text: `${t("rematch")} · ${this.offer.by}`,
          onclick: () => this.ask({ type: "join", code: /** @type {Protocol.RematchOffer} */ (this.offer).code, seat: null }),
        }));
      } else if (this.me !== null) {
        buttons.append(h("button", {
          class: "btn btn-gold btn-big", type: "button", id: "rematch", text: t("rematch"),
          onclick: () => net.send({ type: "rematch" }),
        }));
      }
      if (info.match) {
        buttons.append(h("a", { class: "btn", href: `/matches/${info.match}`, "data-link": "" }, t("open_match")));
      }
      buttons.append(h("a", { class: "btn", href: "/", "data-link": "" }, t("to_lobby")));
      // Report another person of the match (js/moderation.js): a reason from a short list.
      const others = info.seats.flatMap((/** @type {Protocol.SeatInfo} */ s, /** @type {number} */ seat) => (s.kind === "human" && s.player && seat !== this.me
        && s.player !== net.player ? [{ player: s.player, name: s.name ?? "" }] : []));
      const report = this.me !== null ? reportPart(info.match, others, this.reported, (text, detail) => this.app.toast(text, detail)) : null;
      // How everyone played: it comes in the table message right after the end.
      // The actions before the statistics: on a phone they show without scrolling (issue 30).
      panel.append(buttons);
      if (report) panel.append(report);
      const stats = statsPanel(info.stats, { who: (seat) => this.name(seat), me: this.me });
      if (stats) panel.append(stats);
    }
    return panel;
  }

  // Feed items: {event, now} (a table event and the table time it came) or {late: ack}.
  /** @param {AnyEvent} event */
  addFeed(event) {
    this.remember({ event, now: this.now() });
  }

  /** @param {FeedItem} item */
  remember(item) {
    this.feedItems.push(item);
    if (this.feedItems.length > 4 * FEED_LINES) this.feedItems.splice(0, this.feedItems.length - 4 * FEED_LINES);
    const li = this.feedLine(item);
    if (!li) return;
    this.feed.prepend(li);
    while (this.feed.children.length > FEED_LINES) this.feed.lastElementChild.remove();
  }

  renderFeed() {
    const lines = [];
    for (let i = this.feedItems.length - 1; i >= 0 && lines.length < FEED_LINES; i--) {
      const li = this.feedLine(this.feedItems[i]);
      if (li) lines.push(li);
    }
    this.feed.replaceChildren(...lines);
  }

  /** @param {FeedItem} item */
  feedLine(item) {
    if ("late" in item) return this.lateLine(item.late);
    const { event } = item;
    if (this.game()?.noisy?.includes(event.type) && !this.showBotDraws() && this.isBot(event.seat)) return null;
    const line = describe(event, {
      game: this.info.game, who: (s) => this.who(s), me: this.me, now: item.now,
      penaltyMs: this.info.options?.penalty_ms,
    });
    if (!line.length) return null;
    const li = h("li", { class: `feed-${event.type}`, dataset: { seat: event.seat ?? "" } }, line);
    if (event.seat !== undefined) li.style.setProperty("--seat", `var(--seat-${event.seat % 6})`);
    return li;
  }

  // A bot's seat, or a person's played by a stand-in bot while they are away.
  /** @param {number | undefined} seat */
  isBot(seat) {
    const info = seat === undefined ? undefined : this.info?.seats[seat];
    return info?.kind === "bot" || (info?.kind === "human" && Boolean(info.bot) && seat !== this.me);
  }

  showBotDraws() {
    return store(SHOW_BOT_DRAWS) === "1";
  }

  toggleBotDraws() {
    store(SHOW_BOT_DRAWS, this.showBotDraws() ? "0" : "1");
    this.renderToggle();
    this.renderFeed();
    this.app.toast(t(this.showBotDraws() ? "feed_draws_on" : "feed_draws_off"));
  }

  renderToggle() {
    const on = this.showBotDraws();
    this.drawsToggle.replaceChildren(on ? "☑" : "☐", " ", t("feed_draws"), " ", h("kbd", { text: "⇧B" }));
    this.drawsToggle.setAttribute("aria-pressed", String(on));
    this.drawsToggle.title = t(on ? "feed_draws_on" : "feed_draws_off");
  }

  // The board's sentence of a new top card ("Oben liegt 6 ±2"), said once, politely.
  sayTop() {
    const text = this.board?.announce?.();
    if (text) announce(text);
  }

  // The call: a played value shown large (and spoken, in a game whose board calls, if turned on).
  /** @param {string} value @param {number} seat @param {HTMLElement} el @param {boolean} speak */
  call(value, seat, el, speak) {
    el.textContent = `${value}!`;
    el.style.setProperty("--seat", `var(--seat-${seat % 6})`);
    el.classList.remove("pop");
    void el.offsetWidth; // restart the animation
    el.classList.add("pop");
    if (speak) say(value);
  }

  // A lost race: who was faster and by how much, in words; said in the feed (a live region)
  // and returned for the note over the card.
  /** @param {any} ack an action's answer (js/net.js) */
  raceLost(ack) {
    this.remember({ late: ack });
    const why = this.lateReason(ack);
    announce(why ? t("feed_late", { why }) : t("err_too_late"));
    return why;
  }

  /** @param {any} ack an action's answer (js/net.js) */
  lateReason(ack) {
    if (Number.isInteger(ack.winner)) {
      const margin = Number.isFinite(ack.margin_ms) ? Math.max(0, Math.round(ack.margin_ms)) : null;
      if (ack.winner === this.me) return t("late_self");
      if (margin !== null) return t("late_by", { who: this.name(ack.winner), ms: margin });
      return t("late_who", { who: this.name(ack.winner) });
    }
    return ack.margin_ms != null || "winner" in ack ? t("late_pile") : ""; // the table's own step
  }

  /** @param {any} ack an action's answer (js/net.js) */
  lateLine(ack) {
    const why = this.lateReason(ack);
    const li = h("li", { class: "feed-too_late", dataset: { seat: this.me ?? "" } },
      why ? t("feed_late", { why }) : t("err_too_late"));
    if (Number.isInteger(ack.winner)) li.style.setProperty("--seat", `var(--seat-${ack.winner % 6})`);
    return li;
  }

  /** @param {any} ack an action's answer (js/net.js) */
  refused(ack) {
    if (["too_late", "does_not_fit", "disconnected", "timeout"].includes(ack.code)) return;
    this.app.toast(errorText(ack), errorDetail(ack));
  }

  // Sounds for what happened: cards landing (one's own differs from the others'), the end
  // of a round (won or lost; watchers hear neither).
  /** @param {AnyEvent[]} events */
  feel(events) {
    for (const event of events) {
      if (event.type === "played") sound.play(event.seat === this.me ? "own" : "other");
      else if (event.type === "round_scored" && this.me !== null) {
        sound.play(event.result?.winner === this.me ? "won" : "lost");
      }
    }
  }

  // The answer to one's own action: a wrong card or a lost race is heard and felt.
  /** @param {any} ack an action's answer (js/net.js) */
  feelAck(ack) {
    if (ack.code === "does_not_fit" || ack.code === "too_late") {
      const what = ack.code === "does_not_fit" ? "wrong" : "late";
      sound.play(what);
      sound.buzz(what);
    }
    return ack;
  }

  // Every 100 ms: the countdowns that run down.
  tick() {
    const now = this.now();
    const view = this.view;
    if (!view) return;
    this.board?.tick();
    let starter = "";
    if (view.phase === "starting" && view.starts_at) {
      const left = view.starts_at - now;
      starter = left > 0 ? String(Math.min(3, Math.ceil(left / 1000))) : t("los");
    } else if (view.phase === "paused" && this.resumeAt) {
      const left = this.resumeAt - performance.now();
      starter = left > 0 ? String(Math.min(3, Math.ceil(left / 1000))) : t("los");
    } else if (performance.now() < this.losUntil) {
      starter = t("los");
    }
    if (this.starter.textContent !== starter) {
      this.starter.textContent = starter;
      this.starter.classList.remove("beat");
      void this.starter.offsetWidth;
      this.starter.classList.toggle("beat", Boolean(starter));
      if (starter) sound.play(/^\d$/.test(starter) ? "tick" : "go");
      if (starter) interrupt(starter);
    }
    // The end of one's own freeze, said once.
    const frozen = this.me !== null && view.phase === "playing" && (view.frozen_until?.[this.me] ?? 0) > now;
    if (this.wasFrozen && !frozen) announce(t("a11y_free_again"));
    this.wasFrozen = frozen;
    /** @type {Protocol.Announced | null} */
    const countdown = view.countdown;
    // Each second of an automatic step's countdown ticks, like the start's.
    /** @type {number | null} */
    const whole = countdown ? Math.ceil((countdown.due - now) / 1000) : null;
    if (whole !== this.countdownS) {
      if (whole !== null && whole > 0) sound.play("tick");
      /** @type {number | null} */
      this.countdownS = whole;
    }
    this.renderIdle(now);
    const text = this.announce.querySelector(".announce-text");
    if (countdown && text) {
      text.textContent = t(`step_${countdown.step}`, { s: seconds(countdown.due - now) });
    }
    const next = this.overlay.querySelector(".next-round");
    if (next && view.next_round_at) {
      next.textContent = t("next_round_in", { s: Math.max(0, Math.ceil((view.next_round_at - now) / 1000)) });
    }
  }

  // The idle rule's note to this seat's person: the warning with its countdown, then the
  // stand-in that plays until their next action; said (assertively) when it appears.
  /** @param {number} now */
  renderIdle(now) {
    const mine = this.me === null || this.view?.phase !== "playing" ? null : this.info?.seats[this.me];
    /** @type {string} */
    const kind = mine?.bot ? "stand_in_playing_you" : mine?.stand_in_at != null ? "stand_in_you" : "";
    const text = kind ? t(kind, { s: Math.max(0, Math.ceil((mine.stand_in_at - now) / 1000)) }) : "";
    if (this.idleNote.textContent === text) return;
    this.idleNote.textContent = text;
    this.idleNote.hidden = !text;
    if (kind && kind !== this.idleKind) interrupt(text);
    /** @type {string} */
    this.idleKind = kind;
  }

  /** @param {KeyboardEvent} e */
  key(e) {
    const phase = this.view?.phase;
    if (this.missing && (e.key === "Enter" || e.key === "Escape")) {
      this.app.go("/");
      return true;
    }
    // Shift: every plain letter may be a card key.
    if (e.shiftKey && e.key.toLowerCase() === "b") {
      this.toggleBotDraws();
      return true;
    }
    if (phase === "playing" && this.board?.key(e)) return true;
    if (e.key === "Enter" && phase === "waiting") {
      const button = this.overlay.querySelector("#start:not([disabled]), #ready");
      button?.click();
      return Boolean(button);
    }
    if (e.key.toLowerCase() === "n" && !e.shiftKey && phase === "waiting") return this.renameMe();
    if (e.key.toLowerCase() === "a" && !e.shiftKey && phase === "over" && this.arena()) {
      this.app.go(`/arenas/${this.arena()}`);
      return true;
    }
    return false;
  }

  helpKeys() {
    if (this.missing) return [["Enter   Esc", t("keys_to_lobby")]];
    return [...(this.board?.helpKeys() ?? []), ["Enter", t("keys_ready")], ["⇧ B", t("keys_feed_draws")],
      ...(this.me !== null && this.view?.phase === "waiting" ? [["N", t("name_change")]] : []),
      ...(this.view?.phase === "over" && this.arena() ? [["A", t("arena_back_to")]] : [])];
  }
}

// The standings so far: fewest points first (`lowWins`; else most), ties share a place.
/** @param {number[]} totals @param {boolean} lowWins */
function standings(totals, lowWins) {
  const order = [...totals.keys()].sort((a, b) => (lowWins ? totals[a] - totals[b] : totals[b] - totals[a]));
  let place = 0;
  return order.map((seat, i) => {
    if (i === 0 || totals[seat] !== totals[order[i - 1]]) place = i + 1;
    return { seat, place };
  });
}

export { errorText };
