// A table page (/t/CODE): the waiting room, the start countdown, the game board, the
// countdowns of automatic steps, the end of a round and of the match, and the event feed.

import { plate, updatePlate } from "./board.js";
import { describe } from "./describe.js";
import { append, clear, h } from "./dom.js";
import { icon } from "./icons.js";
import { count, onLang, seconds, t } from "./i18n.js";
import { botLabel, LEVELS } from "./lobby.js";
import { net } from "./net.js";
import { SchnelllaufBoard } from "./sl.js";
import { say } from "./speech.js";
import { UnterSpannungBoard } from "./us.js";

const BOARDS = { "unter-spannung": UnterSpannungBoard, schnelllauf: SchnelllaufBoard };
const FEED_LINES = 40;
const SLOW_MS = 150; // a round trip from this long on is a slow connection

export function mount(root, app, params) {
  return new TablePage(root, app, params);
}

class TablePage {
  constructor(root, app, { code, join = false }) {
    this.app = app;
    this.code = code.toUpperCase();
    this.join = join;
    this.info = null;
    this.view = null;
    this.offset = performance.now();
    this.board = null;
    this.losUntil = 0;
    this.offer = null;
    this.offs = [];

    this.lagChip = h("span", { class: "lag-chip", hidden: true },
      h("span", { class: "lag-dot", "aria-hidden": "true" }), h("span", { class: "lag-ms" }), h("small"));
    this.el = h("section", { class: "table-page", "data-phase": "loading" },
      this.head = h("div", { class: "table-head" }),
      h("div", { class: "table-body" },
        this.felt = h("div", { class: "felt" },
          this.boardBox = h("div", { class: "board-box" }),
          this.announce = h("div", { class: "announce", role: "status" }),
          this.starter = h("div", { class: "starter", "aria-live": "assertive" }),
          this.overlay = h("div", { class: "overlay" })),
        h("aside", { class: "feed" },
          h("h3", { text: t("last_events") }),
          this.feed = h("ol", { class: "feed-list", "aria-live": "polite" }))));
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
      onLang(() => this.renderAll()));
    this.timer = setInterval(() => this.tick(), 100);
    if (net.open) this.open();
  }

  unmount() {
    clearInterval(this.timer);
    this.offs.forEach((off) => off());
    this.board?.destroy();
    net.send({ type: "leave" });
  }

  open() {
    net.send(this.join ? { type: "join", code: this.code, seat: null } : { type: "watch", code: this.code });
    this.join = false;
  }

  // Time: every time in a view is table time; `now` says what table time it was when sent.
  sync(now) {
    this.offset = performance.now() - now;
  }

  now() {
    return performance.now() - this.offset;
  }

  get me() {
    return this.info?.you ?? null;
  }

  name(seat) {
    const info = this.info?.seats[seat];
    if (!info) return t("seat", { n: seat + 1 });
    if (info.kind === "bot") return botLabel(info.bot, seat);
    if (info.kind === "open") return t("seat_open");
    return info.name ?? t("seat", { n: seat + 1 });
  }

  who(seat) {
    return seat === this.me ? t("you") : this.name(seat);
  }

  // Messages ----------------------------------------------------------------------------

  onTable(msg) {
    const info = msg.table;
    if (info.code !== this.code) {
      this.code = info.code;
      this.app.replace(`/t/${info.code}`);
      this.feed.replaceChildren();
      this.offer = null;
      this.board?.destroy();
      this.board = null;
    }
    this.sync(msg.now);
    this.info = info;
    this.view = msg.view;
    // A client that arrives during the restart countdown learns of it from the view alone.
    this.resumeAt = msg.view.resumes_in == null ? 0 : performance.now() + msg.view.resumes_in;
    this.app.onTable?.(this);
    this.renderAll();
  }

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
      this.renderHead();
      this.renderAnnounce();
      if (msg.events.some((e) => ["round_scored", "match_ended", "resuming"].includes(e.type))) {
        this.renderOverlay();
      }
    }
    for (const event of msg.events) this.addFeed(event);
  }

  onError(msg) {
    if (msg.ref != null) return;
    if (msg.code === "no_such_table" && !this.info) {
      this.el.dataset.phase = "missing";
      this.overlay.replaceChildren(h("div", { class: "panel center-panel" },
        h("h2", { text: t("not_found") }),
        h("a", { class: "btn btn-gold", href: "/", "data-link": "" }, t("nav_play"))));
      return;
    }
    this.app.toast(errorText(msg));
  }

  // Rendering ---------------------------------------------------------------------------

  renderAll(events = []) {
    if (!this.info) return;
    const { game } = this.info;
    this.el.dataset.game = game;
    this.el.dataset.phase = this.view?.phase ?? this.info.phase;
    document.title = `${this.info.title} · zackzack`;
    if (this.view?.state) {
      if (!this.board) this.board = new BOARDS[game](this.boardBox, this.ctx());
      this.board.update(this.view, events);
    } else {
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
    return h("div", { class: "lineup" }, this.info.seats.map((_, seat) => {
      const el = plate(seat);
      updatePlate(el, seat, ctx);
      return el;
    }));
  }

  ctx() {
    return {
      game: this.info.game,
      me: () => this.me,
      seatInfo: (seat) => this.info?.seats[seat],
      name: (seat) => this.name(seat),
      frozenLeft: (seat) => Math.max(0, (this.view?.frozen_until?.[seat] ?? 0) - this.now()),
      penaltyMs: () => this.info?.options?.penalty_ms ?? 1000,
      reactionMs: () => net.reactionMs,
      act: (action) => net.act(action),
      call: (value, seat, el, speak = true) => this.call(value, seat, el, speak),
      refused: (ack) => this.refused(ack),
      raceLost: (ack) => this.raceLost(ack),
      hint: (text) => this.app.toast(text),
    };
  }

  renderHead() {
    const info = this.info;
    const view = this.view;
    const rounds = info.game === "unter-spannung" && info.options?.tournament
      ? t("round_of", { n: view?.round ?? 1, m: 2 * info.seats.length })
      : t("round_n", { n: view?.round ?? 1 });
    append(clear(this.head), [
      h("h1", { class: "table-title", text: info.title }),
      h("span", { class: "code-chip", title: t("code") }, h("small", { text: t("code") }), " ", info.code),
      view && view.phase !== "waiting" ? h("span", { class: "round-chip", text: rounds }) : null,
      this.me === null ? h("span", { class: "watch-chip" }, icon("eye"), " ", t("spectating")) : null,
      info.watchers ? h("span", { class: "watchers", text: count("watchers", info.watchers) }) : null,
      this.lagChip]);
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
      h("b", { text: t(this.info.game === "schnelllauf" ? "stalemate" : "nichts_geht_mehr") }),
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
    panel?.classList.toggle("still", kind === this.overlayKind);
    this.overlayKind = kind;
    this.overlay.replaceChildren(...(panel ? [panel] : []));
    this.overlay.classList.toggle("on", Boolean(panel));
  }

  waitingRoom() {
    const info = this.info;
    const creator = info.creator === net.player;
    const seated = this.me !== null;
    const people = info.seats.filter((s) => s.kind === "human");
    const full = info.seats.every((s) => s.kind !== "open");
    const ready = people.every((s) => s.ready || (creator && s.player === net.player));
    const mine = info.seats[this.me];
    const link = info.link || `${location.origin}/t/${info.code}`;
    const linkInput = h("input", { class: "link", readonly: true, value: link, "aria-label": t("share") });
    linkInput.addEventListener("focus", () => linkInput.select());
    const seatRows = info.seats.map((seat, i) => {
      const status = seat.kind !== "human" ? (creator ? "" : t(seat.kind === "bot" ? "bot" : "open_seat"))
        : !seat.connected ? t("disconnected")
          : seat.player === info.creator ? t("host")
            : seat.ready ? `✓ ${t("is_ready")}` : t("not_ready_yet");
      const row = h("li", { class: `wait-seat ${seat.kind}${seat.ready ? " ready" : ""}`, dataset: { seat: i } },
        h("span", { class: "avatar", style: { "--seat": `var(--seat-${i % 6})` } },
          seat.kind === "bot" ? icon("bot") : seat.kind === "open" ? "+" : (seat.name ?? "?").trim()[0]?.toUpperCase() ?? "?"),
        h("span", { class: "wait-name", text: i === this.me ? `${this.name(i)} (${t("you")})` : this.name(i) }),
        h("span", { class: "wait-status", text: status }),
        seat.lag === "slow" && i !== this.me ? h("span", { class: "wait-lag", text: `◔ ${t("lag_mark_slow")}` }) : null);
      if (seat.kind === "open" && !seated) {
        row.append(h("button", {
          class: "btn btn-small btn-gold", type: "button", text: t("take_seat"),
          onclick: () => net.send({ type: "join", code: info.code, seat: i }),
        }));
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
      h("h2", { text: info.title }),
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
      h("p", { class: "hint", text: creator ? t(full && ready ? "all_ready" : "waiting_for")
        : !seated ? t("spectating") : t("waiting_creator") }));
  }

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

  roundEnd(phase) {
    const view = this.view;
    const info = this.info;
    const last = view.results[view.results.length - 1];
    if (!last) return null;
    const us = info.game === "unter-spannung";
    const tournament = us && info.options?.tournament;
    const winner = view.result?.placings.find((p) => p.place === 1);
    const single = phase === "over" && view.results.length === 1 && winner;
    const title = single ? (winner.seat === this.me ? t("winner_you") : t("winner_is", { who: this.name(winner.seat) }))
      : last.winner === null ? t("round_drawn")
        : last.winner === this.me ? t("round_won_you") : t("round_won", { who: this.name(last.winner) });
    const order = view.result
      ? view.result.placings.map((p) => ({ seat: p.seat, place: p.place }))
      : tournament ? standings(view.totals) : [...info.seats.keys()].map((seat) => ({ seat, place: null }));
    const rows = order.map(({ seat, place }) => h("tr", { class: seat === this.me ? "me" : "" },
      h("td", { class: "place", text: place ? t("place_n", { n: place }) : "" }),
      h("td", { class: "who" },
        h("span", { class: "dot", style: { "--seat": `var(--seat-${seat % 6})` } }), this.who(seat),
        last.winner === seat ? icon("trophy", "🏆") : null),
      h("td", { class: "num", text: last.scores[seat] }),
      tournament ? h("td", { class: "num total", text: view.totals[seat] }) : null));
    const head = h("tr", {}, h("th"), h("th"),
      h("th", { class: "num", text: us ? t("minus_points") : t("cards_left") }),
      tournament ? h("th", { class: "num", text: t("total") }) : null);
    const panel = h("div", { class: `panel center-panel round-end ${phase}` },
      h("div", { class: "round-no", text: single ? t("match_over") : t("round_n", { n: last.number }) }),
      h("h2", { text: title }),
      h("table", { class: "scores" }, h("thead", {}, head), h("tbody", {}, rows)));
    if (phase === "between") {
      panel.append(h("p", { class: "next-round", dataset: { at: view.next_round_at ?? "" } }));
    } else {
      if (!single) panel.insertBefore(h("div", { class: "match-over" },
        h("small", { text: t("match_over") }),
        h("b", { text: winner ? (winner.seat === this.me ? t("winner_you") : t("winner_is", { who: this.name(winner.seat) })) : "" })),
      panel.children[1]);
      const buttons = h("div", { class: "wait-actions" });
      if (this.offer) {
        buttons.append(h("button", {
          class: "btn btn-gold btn-big", type: "button", id: "rematch",
          text: `${t("rematch")} · ${this.offer.by}`,
          onclick: () => net.send({ type: "join", code: this.offer.code, seat: null }),
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
      panel.append(buttons);
    }
    return panel;
  }

  addFeed(event) {
    const line = describe(event, {
      game: this.info.game, who: (s) => this.who(s), me: this.me, now: this.now(),
    });
    if (!line.length) return;
    const li = h("li", { class: `feed-${event.type}`, dataset: { seat: event.seat ?? "" } }, line);
    if (event.seat !== undefined) li.style.setProperty("--seat", `var(--seat-${event.seat % 6})`);
    this.feed.prepend(li);
    while (this.feed.children.length > FEED_LINES) this.feed.lastElementChild.remove();
  }

  // The call: a played value shown large (and spoken, in Unter Spannung, if turned on).
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
  raceLost(ack) {
    let why = "";
    if (Number.isInteger(ack.winner)) {
      const margin = Number.isFinite(ack.margin_ms) ? Math.max(0, Math.round(ack.margin_ms)) : null;
      if (ack.winner === this.me) why = t("late_self");
      else if (margin !== null) why = t("late_by", { who: this.name(ack.winner), ms: margin });
      else why = t("late_who", { who: this.name(ack.winner) });
    } else if (ack.margin_ms != null || "winner" in ack) {
      why = t("late_pile"); // the table's own step took the pile
    }
    const li = h("li", { class: "feed-too_late", dataset: { seat: this.me ?? "" } },
      why ? t("feed_late", { why }) : t("err_too_late"));
    if (Number.isInteger(ack.winner)) li.style.setProperty("--seat", `var(--seat-${ack.winner % 6})`);
    this.feed.prepend(li);
    while (this.feed.children.length > FEED_LINES) this.feed.lastElementChild.remove();
    return why;
  }

  refused(ack) {
    if (["too_late", "does_not_fit", "disconnected", "timeout"].includes(ack.code)) return;
    this.app.toast(errorText(ack));
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
    }
    const countdown = view.countdown;
    const text = this.announce.querySelector(".announce-text");
    if (countdown && text) {
      text.textContent = t(`step_${countdown.step}`, { s: seconds(countdown.due - now) });
    }
    const next = this.overlay.querySelector(".next-round");
    if (next && view.next_round_at) {
      next.textContent = t("next_round_in", { s: Math.max(0, Math.ceil((view.next_round_at - now) / 1000)) });
    }
  }

  key(e) {
    const phase = this.view?.phase;
    if (phase === "playing" && this.board?.key(e)) return true;
    if (e.key === "Enter" && phase === "waiting") {
      const button = this.overlay.querySelector("#start:not([disabled]), #ready");
      button?.click();
      return Boolean(button);
    }
    return false;
  }

  helpKeys() {
    return [...(this.board?.helpKeys() ?? []), ["Enter", t("keys_ready")]];
  }
}

// The tournament so far: fewest minus points first, ties share a place.
function standings(totals) {
  const order = [...totals.keys()].sort((a, b) => totals[a] - totals[b]);
  let place = 0;
  return order.map((seat, i) => {
    if (i === 0 || totals[seat] !== totals[order[i - 1]]) place = i + 1;
    return { seat, place };
  });
}

export function errorText(msg) {
  const key = `err_${msg.code}`;
  const text = t(key);
  return text !== key ? text : t("err_generic", { reason: msg.reason ?? msg.code });
}
