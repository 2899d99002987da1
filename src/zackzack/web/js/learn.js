// @ts-check
// The tutorials (/learn/NAME; each game's steps in its folder's learn.js): a scripted deal
// on a real table (`create` with `tutorial: true`, docs/protocol.md) played with the real
// board, a coach bar above it that says what to do and goes on when the table's view shows it
// happened; then a practice game against beginner bots, with the boards' "what fits" marks
// (H) if wanted.

import { HINTS_KEY, toggleHints } from "./board.js";
import { chip } from "./cards.js";
import { h, store, touchOnly } from "./dom.js";
import { errorText } from "./errors.js";
import { GAMES, part } from "./games.js";
import { has, parts, t } from "./i18n.js";
import { announce } from "./live.js";
import { net } from "./net.js";
import { GamePage } from "./page.js";
import * as table from "./table.js";

// The tutorial of `game`: its folder's learn module (INTRO, STEPS, BOTS, done).
// (The route mounts this page only for a game that has one: js/games.js LEARN_GAMES.)
/** @param {string} game */
const script = (game) => /** @type {LearnPart} */ (part(game, "learn"));

/** @typedef {"intro" | "tutorial" | "practice"} Mode */
/** @typedef {ReturnType<typeof table.mount>} TablePage */

/** @param {HTMLElement} root @param {App} app @param {{game: string}} params @returns {Page} */
export function mount(root, app, { game }) {
  return new LearnPage(root, app, game);
}

class LearnPage extends GamePage {
  /** @param {HTMLElement} root @param {App} app @param {string} game */
  constructor(root, app, game) {
    super(app, game);
    /** @type {Mode} */
    this.mode = "intro";
    this.step = 0;
    this.flags = { penalised: false };
    /** @type {TablePage | null} */
    this.table = null;
    /** @type {Mode | null} */
    this.awaiting = null; // the mode whose `create` was sent and whose table is awaited
    this.started = false; // the practice table was started (by us, once)
    /** @type {string | null} */
    this.said = null; // the key of what the coach last said
    /** @type {unknown} */
    this.quiet = null; // the board whose hints the tutorial turned off
    /** @type {HTMLElement | null} */
    this.hintsButton = null;
    this.coach = h("div", { class: "coach" });
    this.box = h("div", { class: "learn-table" });
    this.el = h("section", { class: "learn learn-page", dataset: { game, mode: "intro" } },
      this.coach, this.box);
    root.replaceChildren(this.el);
    this.offs.push(
      net.on("table", (msg) => this.onTable(msg)),
      net.on("events", (msg) => this.onEvents(msg)),
      net.on("error", (msg) => {
        if (this.awaiting && msg.ref == null && !this.table) {
          this.awaiting = null;
          this.app.toast(errorText(msg));
          this.render();
        }
      }),
    );
    this.render();
  }

  unmount() {
    super.unmount();
    this.table?.unmount();
  }

  get view() {
    return this.table?.view ?? null;
  }

  get over() {
    return this.view?.phase === "over";
  }

  // Making the tables ----------------------------------------------------------------------

  /** @param {Mode} mode */
  create(mode) {
    this.table?.unmount();
    this.table = null;
    this.box.replaceChildren();
    this.mode = mode;
    this.awaiting = mode;
    this.step = 0;
    this.flags = { penalised: false };
    this.started = false;
    this.said = null;
    /** @type {Protocol.Create} */
    const message = mode === "tutorial"
      ? { type: "create", game: this.game, tutorial: true }
      : practiceMessage(this.game);
    if (!net.send(message)) {
      const off = net.on("welcome", () => { off(); net.send(message); });
    }
    this.render();
  }

  /** @param {Protocol.TableState} msg */
  onTable(msg) {
    if (this.awaiting && !this.table) {
      this.awaiting = null;
      this.el.dataset.code = msg.table.code;
      this.table = table.mount(this.box, this.tableApp(), { code: msg.table.code });
      this.table.onTable(msg); // the page was made after this message went round
    }
    // Our handler runs before the table page's: look once it has taken the message in.
    queueMicrotask(() => this.check());
  }

  /** @param {Protocol.Events} msg */
  onEvents(msg) {
    const me = this.table?.me;
    if (me == null) return;
    if (msg.events.some((/** @type {{type: string, seat?: number}} */ e) => e.type === "penalised" && e.seat === me)) this.flags.penalised = true;
    queueMicrotask(() => this.check());
  }

  // What the table page may ask of the app: it stays on this page, whatever its code.
  /** @returns {App} */
  tableApp() {
    return {
      ...this.app,
      go: (path) => this.app.go(path),
      replace: () => {},
      onTable: () => {},
    };
  }

  // The coach --------------------------------------------------------------------------------

  check() {
    const view = this.view;
    if (!view || !this.table) return;
    const board = this.table.board;
    if (this.mode === "tutorial" && board && board !== this.quiet) {
      this.quiet = board; // the tutorial says which card fits: no marks (H brings them back)
      board.setHints?.(false);
    }
    if (this.mode === "practice") {
      if (!this.started && view.phase === "waiting" && this.table.info?.creator === net.player) {
        this.started = true;
        net.send({ type: "start" });
      }
      this.renderHints();
      return;
    }
    if (this.mode !== "tutorial" || !view.state) return;
    const steps = script(this.game).STEPS;
    const c = { state: view.state, me: this.table.me ?? 0, flags: this.flags, over: this.over };
    const before = this.step;
    while (this.step < steps.length && steps[this.step].done(c)) this.step += 1;
    const shown = this.text()?.dataset.key;
    if (this.step !== before || this.over !== this.el.classList.contains("done") || !shown) this.render();
  }

  render() {
    this.el.dataset.mode = this.mode;
    this.el.classList.toggle("done", this.mode === "tutorial" && this.over);
    const title = GAMES[this.game].title;
    document.title = `${t("learn_tut_title", { game: title })} · zackzack`;
    if (this.mode === "intro") {
      this.coach.replaceChildren();
      this.box.replaceChildren(this.intro(title));
      return;
    }
    if (this.mode === "practice") {
      this.coach.replaceChildren(
        h("div", { class: "coach-main" },
          h("b", { class: "coach-step", text: t("learn_practice_h") }),
          h("p", { class: "coach-text", text: t("learn_practice_text") })),
        h("div", { class: "coach-actions" },
          this.hintsButton = h("button", {
            class: "btn btn-small", type: "button", id: "learn-hints",
            onclick: () => this.toggleHints(),
          }),
          h("a", { class: "btn btn-small", href: `/rules/${this.game}`, "data-link": "" },
            t("learn_rules_link"))));
      this.renderHints();
      return;
    }
    const steps = script(this.game).STEPS;
    if (this.over) {
      this.coach.replaceChildren(
        h("div", { class: "coach-main" },
          h("b", { class: "coach-step", text: `✓ ${t("learn_tut_done_h")}` }),
          h("p", { class: "coach-text", dataset: { key: "done" } }, this.doneText())),
        h("div", { class: "coach-actions" },
          h("button", { class: "btn btn-gold", type: "button", id: "learn-practice",
            onclick: () => this.create("practice") }, t("learn_practice"), " ", h("kbd", { text: "P" })),
          h("label", { class: "check small learn-hint-choice" },
            h("input", { type: "checkbox", id: "learn-hints-choice", checked: store(HINTS_KEY) === "1",
              onchange: (/** @type {Event} */ e) => store(HINTS_KEY, /** @type {HTMLInputElement} */ (e.target).checked ? "1" : "0") }),
            t("learn_hints_choice")),
          h("button", { class: "btn btn-small", type: "button", id: "learn-again",
            onclick: () => this.create("tutorial") }, t("learn_again"), " ", h("kbd", { text: "A" })),
          h("a", { class: "btn btn-small", href: `/rules/${this.game}`, "data-link": "" },
            t("learn_rules_link"), " ", h("kbd", { text: "R" }))));
      this.say();
      return;
    }
    const step = steps[Math.min(this.step, steps.length - 1)];
    // On a touch-only device a step says only what to tap: its `_touch` words, where the
    // catalogue has them (no "press D" on a phone; issue 30).
    const touch = touchOnly();
    const words = (/** @type {LearnPart["STEPS"][number]} */ s) => parts(touch && has(`${s.key}_touch`) ? `${s.key}_touch` : s.key,
      Object.fromEntries(Object.entries(s.cards).map(([k, c]) => [k, chip(this.game, c)])));
    this.coach.replaceChildren(
      h("div", { class: "coach-main" },
        h("b", { class: "coach-step", dataset: { step: this.step + 1 },
          text: t("learn_step_n", { n: this.step + 1, m: steps.length }) }),
        // The coach keeps the height of its longest step: every step's words lie in the same
        // grid cell, the others unseen (and hidden from screen readers), so the table below
        // does not move by a line (~24 px) from one step to the next (issue 30).
        h("div", { class: "coach-room" },
          // Before the table is there (its countdown) the first step's words show at once,
          // not "Loading…"; the key (what the coach said, `say()`) comes with the table.
          h("p", { class: "coach-text", dataset: { key: this.table ? step.key : "" } }, words(step)),
          steps.map((s) => h("p", { class: "coach-ghost", "aria-hidden": "true" }, words(s))))),
      h("div", { class: "coach-progress", "aria-hidden": "true" },
        steps.map((_, i) => h("span", { class: i < this.step ? "past" : i === this.step ? "now" : "" }))));
    this.say();
  }

  /** @returns {HTMLElement | null} */
  text() {
    return this.coach.querySelector(".coach-text");
  }

  // Say a new step (or the end) once, in the page's polite live region (js/live.js).
  say() {
    const key = this.text()?.dataset.key;
    if (!key || key === this.said) return;
    this.said = key;
    announce(`${this.coach.querySelector(".coach-step")?.textContent}: `
      + this.text()?.textContent);
  }

  /** @param {string} title */
  intro(title) {
    return h("div", { class: "panel learn-intro" },
      h("h1", { text: t("learn_tut_title", { game: title }) }),
      h("p", { text: t(script(this.game).INTRO) }),
      h("p", { class: "hint", text: t("learn_tut_how") }),
      h("div", { class: "learn-actions" },
        h("button", { class: "btn btn-gold btn-big", type: "button", id: "learn-start",
          disabled: Boolean(this.awaiting), onclick: () => this.create("tutorial") },
        t("learn_start"), " ", h("kbd", { text: "Enter" })),
        h("a", { class: "btn", href: `/rules/${this.game}`, "data-link": "" },
          t("learn_rules_link"), " ", h("kbd", { text: "R" }))));
  }

  doneText() {
    const [key, fields] = script(this.game).done(/** @type {Protocol.TableView} */ (this.view), this.table?.me ?? 0);
    return t(key, fields);
  }

  renderHints() {
    if (!this.hintsButton) return;
    const on = this.table?.board?.hints ?? store(HINTS_KEY) === "1";
    this.hintsButton.setAttribute("aria-pressed", String(on));
    this.hintsButton.replaceChildren(`${on ? "✓" : "○"} ${t("learn_hints")}: ${t(on ? "learn_on" : "learn_off")} `,
      h("kbd", { text: "H" }));
  }

  toggleHints() {
    const board = this.table?.board;
    if (board?.setHints) toggleHints(board);
    else store(HINTS_KEY, store(HINTS_KEY) === "1" ? "0" : "1");
    this.renderHints();
  }

  // Keys -------------------------------------------------------------------------------------

  /** @param {KeyboardEvent} e */
  key(e) {
    const k = e.key.toLowerCase();
    if (this.mode === "intro") {
      if (k === "enter" && !this.awaiting) this.create("tutorial");
      else if (k === "r") this.app.go(`/rules/${this.game}`);
      else return false;
      return true;
    }
    if (this.mode === "practice" && k === "h") {
      this.toggleHints();
      return true;
    }
    if (this.mode === "tutorial" && this.over) {
      if (k === "p") this.create("practice");
      else if (k === "a") this.create("tutorial");
      else if (k === "r") this.app.go(`/rules/${this.game}`);
      else return false;
      return true;
    }
    return this.table?.key(e) ?? false;
  }

  /** @returns {[string, string][]} */
  helpKeys() {
    /** @type {[string, string][]} */
    const own = this.mode === "intro" ? [["Enter", t("learn_start")], ["R", t("learn_rules_link")]]
      : this.mode === "practice" ? [["H", t("learn_hints")]]
        : this.over ? [["P", t("learn_practice")], ["A", t("learn_again")], ["R", t("learn_rules_link")]]
          : [];
    return [...own, ...(this.table?.helpKeys() ?? [])];
  }
}

// The practice table: me against beginner bots (the tutorial's BOTS), private, started at once.
/** @param {string} game @returns {Protocol.Create} */
function practiceMessage(game) {
  const bots = script(game).BOTS;
  return {
    type: "create", game, options: {}, private: true,
    seats: [{ kind: "open" }, ...Array(bots).fill({ kind: "bot", bot: "beginner" })],
    title: t("learn_practice_title", { game: GAMES[game].title }),
  };
}
