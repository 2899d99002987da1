// @ts-check
// The lobby: your name, the live list of tables (js/lobby-tables.js), quick games against
// bots, the arenas and a new one (js/lobby-arenas.js), finding an opponent (js/lobby-find.js),
// learning the games, a new table (js/lobby-create.js, its draft in js/lobby-draft.js). A
// refusal of what was sent from here is shown beside what sent it.

import { renameClaimed } from "./account.js";
import { STRATEGIES } from "./bots.js";
import { cardEl } from "./cards.js";
import { h, store } from "./dom.js";
import { errorNode, errorText } from "./errors.js";
import { GAME_LIST, GAMES, part, said } from "./games.js";
import { onLang, t } from "./i18n.js";
import { arenaList, arenas, arenasPanel, tickArenas } from "./lobby-arenas.js";
import { createPanel } from "./lobby-create.js";
import { createMessage, loadDraft, quickMessage, saveDraft } from "./lobby-draft.js";
import { findPanel } from "./lobby-find.js";
import { backPanel, lobby, tablesPanel } from "./lobby-tables.js";
import { net } from "./net.js";
import { botOffer, onQueue, queue, seek, unseek } from "./queue.js";

// For js/table.js, which reads the bots' names from here (they are js/bots.js's).
export { botLabel, LEVELS } from "./bots.js";

/** @typedef {"form" | "quick" | "find" | "arena"} Sender */
/** @typedef {{from: Sender, msg: Protocol.Error, rated: boolean}} Refused */

// The lobby's fan of cards: each game's HERO cards (its web/cards.js), the games taking turns.
function heroCards() {
  /** @type {[string, string[]][]} */
  const hero = GAME_LIST.map((g) => [g.name, part(g.name, "cards")?.HERO ?? []]);
  const most = Math.max(0, ...hero.map(([, cards]) => cards.length));
  return Array.from({ length: most }, (_, i) => hero.filter(([, cards]) => i < cards.length)
    .map(([game, cards]) => cardEl(game, cards[i]))).flat();
}

// The name field: a guest's name is theirs to change; a claimed one goes through the API.
/** @param {App} app */
function nameField(app) {
  const input = h("input", {
    id: "name", class: "name-input", maxlength: "24", autocomplete: "nickname",
    placeholder: t("name_placeholder"), value: store("zz.name") ?? "",
  });
  input.addEventListener("change", () => {
    const name = input.value.trim();
    if (!name) return;
    if (net.claimed) { // a claimed name is unique: the account API checks it
      renameClaimed(name).catch((/** @type {import("./errors.js").Refusal} */ refusal) => {
        app.toast(errorText(refusal), refusal.reason);
        input.value = net.name;
      });
      return;
    }
    store("zz.name", name);
    app.rename(name);
  });
  return h("label", { class: "name-field" }, h("span", { text: t("your_name") }), input);
}

// One button per game, and as big beside it each more quick game its rules module offers
// (`QUICK`: a game's tournament); `data-quick` the game, or game:key.
/** @param {(message: Protocol.Create) => void} start */
function quickPanel(start) {
  /** @param {string} game @param {{key: string, options: Record<string, unknown>} | null} [more] */
  const quick = (game, more = null) => h("button", {
    class: `quick quick-${game}`, type: "button", "data-quick": more ? `${game}:${more.key}` : game,
    onclick: () => start(quickMessage(game, more?.options)),
  },
  h("span", { class: "quick-cards" }, GAMES[game].preview.map((c) => cardEl(game, c))),
  h("span", { class: "quick-label", text: more ? t(more.key) : said(game, "quick") }));
  return h("div", { class: "panel" },
    h("h2", { text: t("quick_title") }),
    h("div", { class: "quick-row" }, GAME_LIST.flatMap((g) => [quick(g.name),
      ...(part(g.name, "rules")?.QUICK ?? []).map((more) => quick(g.name, more))])),
    h("div", { class: "create-error", "data-from": "quick", role: "alert" }));
}

// Learn the games: each game's rules page and its tutorial (js/rules.js, js/learn.js).
function learnPanel() {
  return h("div", { class: "panel learn-panel" },
    h("h2", { text: t("learn_lobby_title") }),
    h("ul", { class: "learn-list" }, Object.entries(GAMES).map(([game, { title }]) =>
      h("li", { dataset: { game } },
        h("b", { text: title }),
        h("a", { class: "btn btn-small", href: `/rules/${game}`, "data-link": "" }, t("learn_rules_link")),
        h("a", { class: "btn btn-small btn-gold", href: `/learn/${game}`, "data-link": "" },
          t("learn_tutorial_link"))))));
}

// The refusal boxes of `page` (one per sender): the refused one shows the sentence, and for
// a rated table refused for its options, why it cannot be rated.
/** @param {ParentNode} page @param {Refused | null} refusal */
function showRefusal(page, refusal) {
  for (const box of /** @type {NodeListOf<HTMLElement>} */ (page.querySelectorAll(".create-error"))) {
    const mine = refusal !== null && refusal.from === box.dataset.from;
    const rated = mine && refusal.rated && refusal.msg.code === "bad_options";
    box.replaceChildren(...(mine ? [errorNode(refusal.msg)] : []),
      ...(rated ? [h("p", { class: "rated-why", text: t("rated_refused") })] : []));
  }
}

/** @param {HTMLElement} root @param {App} app @returns {Page} */
export function mount(root, app) {
  return new LobbyPage(root, app);
}

class LobbyPage {
  /** @param {HTMLElement} root @param {App} app */
  constructor(root, app) {
    this.app = app;
    this.draft = loadDraft();
    this.page = h("section", { class: "lobby" });
    root.replaceChildren(this.page);
    // The parts drawn again on their own: live updates replace only the list, so typing in
    // the form is never disturbed.
    this.boxes = { tables: h("div"), back: h("div"), find: h("div"), arenas: h("div") };
    // The answer to what was sent from here: a refusal is shown beside what sent it.
    /** @type {Sender | null} */
    this.sent = null;
    /** @type {Refused | null} */
    this.refusal = null;
    this.sentRated = false; // the refused create asked for a rated table
    /** @type {import("./lobby-find.js").FindHooks} */
    this.findHooks = {
      changed: () => saveDraft(this.draft),
      redraw: (focus) => this.redrawFind(focus),
      seek: (game, players) => this.seek(game, players),
      offer: (game, players, level) => {
        unseek();
        this.create("find", botOffer(game, players, level), true);
      },
    };
    /** @type {import("./lobby-create.js").CreateHooks} */
    this.createHooks = {
      submit: () => this.create("form", createMessage(this.draft), false),
      redrawn: () => this.refused(),
    };
    this.offs = [
      net.on("lobby", () => this.renderTables()),
      net.on("account", () => this.nameNow()),
      net.on("welcome", () => this.onWelcome()),
      net.on("error", (msg) => this.onError(msg)),
      net.on("arena", (msg) => this.onArena(msg)),
      onLang(() => { this.render(); this.refused(); }),
      onQueue((why) => this.onQueue(why)),
    ];
    this.ticker = setInterval(() => this.tick(), 1000);
    if (net.open) net.send({ type: "lobby" });
    this.render();
  }

  unmount() {
    this.offs.forEach((off) => off());
    clearInterval(this.ticker);
  }

  render() {
    this.boxes = { tables: this.tablesPanel(), back: backPanel(this.app.myTables ?? []), find: this.findPanel(),
      arenas: arenaList(arenas.list, arenas.clock) };
    this.page.replaceChildren(
      h("div", { class: "lobby-hero" },
        h("div", { class: "hero-cards", "aria-hidden": "true" },
          heroCards()),
        h("div", { class: "hero-text" },
          h("h1", {}, "zack", h("b", {}, "zack")),
          h("p", { class: "tagline", text: t("tagline") }),
          nameField(this.app))),
      h("div", { class: "lobby-grid" },
        h("div", { class: "lobby-col" }, this.boxes.back,
          quickPanel((message) => this.create("quick", message, true)),
          arenasPanel(this.boxes.arenas, (message) => this.createArena(message)),
          this.boxes.find, learnPanel(),
          this.boxes.tables),
        h("div", { class: "lobby-col" }, createPanel(this.draft, this.createHooks))));
  }

  tablesPanel() {
    return tablesPanel(lobby.tables, lobby.online, (code) => this.app.go(`/t/${code}`, { join: true }));
  }

  findPanel() {
    return findPanel(this.draft, this.findHooks);
  }

  /** @param {"tables" | "back" | "find" | "arenas"} which @param {HTMLElement} fresh */
  replace(which, fresh) {
    this.boxes[which].replaceWith(fresh);
    this.boxes[which] = fresh;
  }

  renderTables() {
    this.replace("tables", this.tablesPanel());
    this.replace("back", backPanel(this.app.myTables ?? []));
    this.replace("arenas", arenaList(arenas.list, arenas.clock));
  }

  // The find panel anew (the queue changed), the focus kept on what the player uses next.
  /** @param {string | null} focus */
  redrawFind(focus) {
    const had = this.boxes.find.contains(document.activeElement);
    this.replace("find", this.findPanel());
    this.refused();
    if (had || focus === "#unseek") {
      /** @type {HTMLElement | null} */ (this.boxes.find.querySelector(focus ?? "#unseek")
        ?? this.boxes.find.querySelector("#seek, #unseek"))?.focus();
    }
  }

  refused() {
    showRefusal(this.page, this.refusal);
  }

  /** @param {Sender} from @param {Protocol.Create} message @param {boolean} autostart */
  create(from, message, autostart) {
    this.sentRated = Boolean(message.rated);
    this.sent = from;
    this.refusal = null;
    this.refused();
    this.app.createTable(message, { autostart });
  }

  /** @param {Protocol.ArenaCreate} message */
  createArena(message) {
    this.sent = "arena";
    this.refusal = null;
    this.refused();
    if (!net.send(message)) {
      this.sent = null;
      this.app.toast(errorText({ code: "disconnected" }));
    }
  }

  // The arena made from here: its page shows it.
  /** @param {Protocol.ArenaState} msg */
  onArena(msg) {
    if (this.sent !== "arena") return;
    this.sent = null;
    this.app.go(`/arenas/${msg.arena.id}`);
  }

  /** @param {string} game @param {number} players */
  seek(game, players) {
    this.sent = "find";
    this.refusal = null;
    this.refused();
    if (!seek(game, players)) this.app.toast(errorText({ code: "disconnected" }));
    this.redrawFind("#unseek");
  }

  // The name field follows a claim, a rename, a sign-in or -out (a first visit keeps it empty).
  nameNow() {
    const input = /** @type {HTMLInputElement | null} */ (this.page.querySelector("#name"));
    if (input && document.activeElement !== input && (input.value || net.claimed)) input.value = net.name;
  }

  onWelcome() {
    this.nameNow();
    net.send({ type: "lobby" });
    this.renderTables();
    // The form offers the server's strategies: drawn again only when they changed.
    const form = /** @type {HTMLElement | null} */ (this.page.querySelector("#create-form"));
    if (form && form.dataset.strategies !== STRATEGIES.join()) {
      form.replaceWith(createPanel(this.draft, this.createHooks));
      this.refused();
    }
  }

  /** @param {Protocol.Error} msg */
  onError(msg) {
    if (msg.ref != null || msg.code === "too_many_new_players") return; // the header says that one
    const from = this.sent;
    if (!from) {
      this.app.toast(errorText(msg), msg.reason);
      return;
    }
    this.refusal = { from, msg, rated: this.sentRated && from === "form" };
    this.sent = null;
    if (from === "find" && !queue.state) { // the seek was refused: not waiting after all
      queue.wanted = null;
      this.redrawFind("#seek");
      return;
    }
    this.refused();
  }

  /** @param {import("./queue.js").QueueChange} why */
  onQueue(why) {
    if (why === "tick") {
      const state = /** @type {Protocol.Queue} */ (queue.state); // ticks come while in the queue
      for (const [sel, text] of [[".queue-window", `± ${state.window}`], [".queue-count", String(state.waiting)]]) {
        const el = this.boxes.find.querySelector(sel);
        if (el) el.textContent = text;
      }
      this.tick();
      return;
    }
    if (why === "start" && this.sent === "find") this.sent = null; // the seek was taken
    this.redrawFind(why === "left" || why === "matched" ? "#seek" : why === "offer" ? null : "#unseek");
  }

  // The time waited in the queue, counted on (js/queue.js `queueBox`), and the arenas' clocks.
  tick() {
    tickArenas(this.boxes.arenas, arenas.list, arenas.clock);
    /** @type {{tick?: () => void} | null} */ (this.boxes.find.querySelector("#queue-state"))?.tick?.();
  }

  /** @returns {[string, string][]} */
  helpKeys() {
    return [["Esc", t("queue_keys_leave")]];
  }

  /** @param {KeyboardEvent} e */
  key(e) {
    if (e.key === "Escape" && (queue.state || queue.wanted)) return unseek();
    return false;
  }
}
