// The lobby: your name, the live list of tables, quick games against bots, a new table.

import { cardEl } from "./cards.js";
import { h, store } from "./dom.js";
import { icon } from "./icons.js";
import { errorNode, errorText } from "./errors.js";
import { GAME_LIST, GAMES } from "./games.js";
import { count, has, onLang, t } from "./i18n.js";
import { net } from "./net.js";
import { renameClaimed } from "./account.js";
import { botOffer, onQueue, queue, queueBox, seek, unseek } from "./queue.js";
import { ratingNode, ratingText } from "./rating.js";

export { GAMES };
export const LEVELS = ["beginner", "normal", "pro", "machine"];

// The latest list, kept while another page shows: the server sends each version of the list
// once per connection, so asking again on the way back (from the matches) brings nothing new.
let latest = [];
net.on("lobby", (msg) => { latest = msg.tables; });

// The bots the server seats (welcome.bots): levels weakest first, strategies default first.
// Taken from the server, so a new strategy needs no change here.
export const STRATEGIES = [];
net.on("welcome", (msg) => {
  if (Array.isArray(msg.bots?.levels) && msg.bots.levels.length) LEVELS.splice(0, LEVELS.length, ...msg.bots.levels);
  if (Array.isArray(msg.bots?.strategies)) STRATEGIES.splice(0, STRATEGIES.length, ...msg.bots.strategies);
});

function strategyName(name) {
  return has(`strategy_${name}`) ? t(`strategy_${name}`) : name;
}

// What the create form holds; remembered between visits.
function defaultDraft() {
  return {
    game: GAME_LIST[0]?.name ?? "unter-spannung",
    seats: [{ kind: "open" }, bot("normal"), bot("normal"), bot("normal")],
    tournament: false, jokers: 3, wrap: true, penalty_ms: 1000, countdown_ms: 1500,
    max_rounds: 200, pile_size: [3, 3], one_hand_seats: [false, false], private: false, title: "",
    rated: false, find_game: GAME_LIST[0]?.name ?? "unter-spannung", find_players: 2,
  };
}

function bot(level, strategy = "") {
  return { kind: "bot", level, strategy };
}

function loadDraft() {
  try {
    return { ...defaultDraft(), ...JSON.parse(store("zz.draft") ?? "{}") };
  } catch {
    return defaultDraft();
  }
}

// The create message for a draft (RULES.md options of its game; players come from the seats).
export function createMessage(draft) {
  const seats = draft.seats.map((s) => s.kind === "bot"
    ? { kind: "bot", bot: s.strategy ? `${s.level}:${s.strategy}` : s.level }
    : { kind: "open" });
  // The game's options (GET /api/games) that the form holds; players come from the seats.
  const options = {};
  for (const option of GAMES[draft.game]?.options ?? []) {
    const value = draft[option.name];
    if (option.name === "players" || value === undefined) continue;
    options[option.name] = option.type === "int" ? +value
      : Array.isArray(value) && option.item === "int" ? value.map(Number) : value;
  }
  const msg = { type: "create", game: draft.game, options, seats, private: draft.private };
  if (draft.rated) msg.rated = true;
  if (draft.title.trim()) msg.title = draft.title.trim();
  return msg;
}

export function quickMessage(game) {
  const players = Math.min(GAMES[game]?.max ?? 2, 4);
  const seats = [{ kind: "open" }, ...Array(players - 1).fill({ kind: "bot", bot: "normal" })];
  return { type: "create", game, options: {}, seats, private: false };
}

export function mount(root, app) {
  let tables = latest;
  const draft = loadDraft();
  const offs = [];

  const page = h("section", { class: "lobby" });
  root.replaceChildren(page);
  let tablesBox = h("div");
  let backBox = h("div");
  let findBox = h("div");

  const saveDraft = () => store("zz.draft", JSON.stringify(draft));
  // The answer to a create sent from here: a refusal is shown beside what sent it.
  let sent = null; // "form" | "quick"
  let refusal = null; // { from, msg }
  let sentRated = false; // the refused create asked for a rated table
  const create = (from, message, autostart) => {
    sentRated = Boolean(message.rated);
    sent = from;
    refusal = null;
    showRefusal();
    app.createTable(message, { autostart });
  };

  // Live updates replace only the list, so typing in the form is never disturbed.
  function renderTables() {
    const fresh = tablesPanel();
    tablesBox.replaceWith(fresh);
    tablesBox = fresh;
    const back = backPanel();
    backBox.replaceWith(back);
    backBox = back;
  }

  function render() {
    tablesBox = tablesPanel();
    backBox = backPanel();
    findBox = findPanel();
    page.replaceChildren(
      h("div", { class: "lobby-hero" },
        h("div", { class: "hero-cards", "aria-hidden": "true" },
          cardEl("unter-spannung", "7±2"), cardEl("schnelllauf", "*"),
          cardEl("unter-spannung", "4±3"), cardEl("schnelllauf", "Kh")),
        h("div", { class: "hero-text" },
          h("h1", {}, "zack", h("b", {}, "zack")),
          h("p", { class: "tagline", text: t("tagline") }),
          nameField())),
      h("div", { class: "lobby-grid" },
        h("div", { class: "lobby-col" }, backBox, quickPanel(), findBox, learnPanel(), tablesBox),
        h("div", { class: "lobby-col" }, createPanel())));
  }

  function nameField() {
    const input = h("input", {
      id: "name", class: "name-input", maxlength: "24", autocomplete: "nickname",
      placeholder: t("name_placeholder"), value: store("zz.name") ?? "",
    });
    input.addEventListener("change", () => {
      const name = input.value.trim();
      if (!name) return;
      if (net.claimed) { // a claimed name is unique: the account API checks it
        renameClaimed(name).catch((refusal) => {
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

  function backPanel() {
    const live = (app.myTables ?? []).filter((m) => m.phase !== "over");
    if (!live.length) return h("div", { hidden: true });
    return h("div", { class: "panel back-to" },
      live.map((m) => h("a", { class: "btn btn-gold", href: `/t/${m.code}`, "data-link": "" },
        `${GAMES[m.game]?.title ?? m.game} · ${m.code} →`)));
  }

  function quickPanel() {
    const quick = (game) => h("button", {
      class: `quick quick-${game}`, type: "button", "data-quick": game,
      onclick: () => create("quick", quickMessage(game), true),
    },
    h("span", { class: "quick-cards" }, GAMES[game].preview.map((c) => cardEl(game, c))),
    h("span", { class: "quick-label", text: t(game === "schnelllauf" ? "quick_sl" : "quick_us") }));
    return h("div", { class: "panel" },
      h("h2", { text: t("quick_title") }),
      h("div", { class: "quick-row" }, GAME_LIST.map((g) => quick(g.name))),
      h("div", { class: "create-error", "data-from": "quick", role: "alert" }));
  }

  // Find an opponent: the matchmaking queue (js/queue.js) for a game and a number of players.
  function findPanel() {
    const panel = h("section", { class: "panel find-panel", id: "find", "aria-labelledby": "find-title" },
      h("h2", { id: "find-title" }, icon("search"), " ", t("find_title")));
    if (queue.state || queue.wanted) {
      panel.append(queueBox({
        title: (g) => GAMES[g]?.title ?? g,
        onOffer: (game, players, level) => {
          unseek();
          create("find", botOffer(game, players, level), true);
        },
      }));
    } else {
      const game = h("select", { name: "find-game", id: "find-game" },
        Object.entries(GAMES).map(([g, info]) => h("option", { value: g, selected: draft.find_game === g }, info.title)));
      const info = GAMES[draft.find_game] ?? GAMES["unter-spannung"];
      const n = Math.min(info.max, Math.max(info.min, +draft.find_players || 2));
      const players = h("select", { name: "find-players", id: "find-players", disabled: info.min === info.max },
        Array.from({ length: info.max - info.min + 1 }, (_, i) => info.min + i)
          .map((k) => h("option", { value: k, selected: k === n }, count("find_n_players", k))));
      game.addEventListener("change", () => { draft.find_game = game.value; saveDraft(); redrawFind("#find-game"); });
      players.addEventListener("change", () => { draft.find_players = +players.value; saveDraft(); });
      panel.append(
        h("p", { class: "hint find-hint", text: t("find_hint") }),
        h("div", { class: "find-row" },
          h("label", { class: "find-field" }, h("span", { text: t("game") }), game),
          h("label", { class: "find-field" }, h("span", { text: t("players") }), players),
          h("button", {
            class: "btn btn-gold", type: "button", id: "seek",
            onclick: () => {
              sent = "find";
              refusal = null;
              showRefusal();
              if (!seek(draft.find_game, n)) app.toast(errorText({ code: "disconnected" }));
              redrawFind("#unseek");
            },
          }, t("find_button"))));
    }
    panel.append(h("div", { class: "create-error", "data-from": "find", role: "alert" }),
      h("p", { class: "find-board" }, h("a", { href: "/leaderboard", "data-link": "", id: "to-leaderboard" }, t("find_board_link"))));
    return panel;
  }

  // The find panel anew (the queue changed), the focus kept on what the player uses next.
  function redrawFind(focus) {
    const had = findBox.contains(document.activeElement);
    const fresh = findPanel();
    findBox.replaceWith(fresh);
    findBox = fresh;
    showRefusal();
    if (had || focus === "#unseek") (findBox.querySelector(focus ?? "#unseek") ?? findBox.querySelector("#seek, #unseek"))?.focus();
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

  function tablesPanel() {
    const list = tables.length
      ? h("ul", { class: "table-list" }, tables.map(tableItem))
      : h("p", { class: "empty", text: t("no_tables") });
    return h("div", { class: "panel" }, h("h2", { text: t("tables") }), list);
  }

  function tableItem(table) {
    const open = table.seats.some((s) => s.kind === "open");
    const canJoin = table.phase === "waiting" && open;
    return h("li", { class: "table-item", "data-code": table.code },
      h("div", { class: "table-item-game" }, cardEl(table.game, GAMES[table.game]?.preview[0])),
      h("div", { class: "table-item-main" },
        h("div", { class: "table-item-title" },
          h("b", { text: table.title }), " ",
          h("span", { class: `phase phase-${table.phase}`, text: t(`phase_${table.phase}`) }),
          table.rated ? h("span", { class: "rated-badge", text: t("rated_badge") }) : null),
        h("div", { class: "seat-chips" }, table.seats.map(seatChip)),
        table.watchers ? h("small", { text: count("watchers", table.watchers) }) : null),
      h("div", { class: "table-item-actions" },
        canJoin ? h("button", {
          class: "btn btn-gold", type: "button",
          onclick: () => app.go(`/t/${table.code}`, { join: true }),
        }, t("join")) : null,
        h("a", { class: "btn", href: `/t/${table.code}`, "data-link": "" }, t("watch"))));
  }

  function seatChip(seat) {
    if (seat.kind === "open") return h("span", { class: "seat-chip open", text: t("open_seat") });
    if (seat.kind === "bot") {
      return h("span", { class: "seat-chip bot" }, icon("bot"), " ", botLabel(seat.bot));
    }
    const rated = seat.rating !== null && seat.rating !== undefined;
    return h("span", { class: `seat-chip human${seat.connected ? "" : " away"}`, title: rated ? `${seat.name} · ${t("rating")} ${ratingText(seat.rating, seat.provisional)}` : null },
      h("span", { class: "seat-name", text: seat.name }),
      rated ? [" ", h("span", { class: "sr-only", text: `, ${t("rating")} ` }), ratingNode(seat.rating, seat.provisional, { cls: "rating seat-rating" })] : null);
  }

  // The create form ----------------------------------------------------------------------

  function createPanel() {
    const form = h("form", { class: "panel create", id: "create-form", dataset: { strategies: STRATEGIES.join() } });
    form.addEventListener("submit", (e) => {
      e.preventDefault();
      saveDraft();
      create("form", createMessage(draft), false);
    });
    const redraw = () => {
      saveDraft();
      form.replaceWith(createPanel());
      showRefusal();
    };
    const hasHandicaps = (GAMES[draft.game]?.handicaps ?? []).length > 0;
    const field = (label, input) => h("label", { class: "field" }, h("span", { text: label }), input);
    const number = (key, min, max, step) => {
      const input = h("input", {
        type: "number", name: key, min, max, step, value: draft[key], inputmode: "numeric",
      });
      input.addEventListener("change", () => {
        draft[key] = Math.max(min, Math.min(max, Math.round(+input.value || 0)));
        input.value = draft[key];
        saveDraft();
      });
      return input;
    };
    const check = (key, label) => {
      const input = h("input", { type: "checkbox", name: key, checked: draft[key] });
      input.addEventListener("change", () => { draft[key] = input.checked; saveDraft(); });
      return h("label", { class: "check" }, input, h("span", { text: label }));
    };

    const gameTiles = h("div", { class: "game-tiles", role: "radiogroup" },
      Object.entries(GAMES).map(([game, info]) => {
        const input = h("input", {
          type: "radio", name: "game", value: game, checked: draft.game === game,
        });
        input.addEventListener("change", () => {
          draft.game = game;
          const n = Math.min(info.max, Math.max(info.min, draft.seats.length));
          draft.seats = draft.seats.slice(0, n);
          while (draft.seats.length < n) draft.seats.push(bot("normal"));
          redraw();
        });
        return h("label", { class: "game-tile" }, input,
          h("span", { class: "game-tile-cards" }, info.preview.slice(0, 2).map((c) => cardEl(game, c))),
          h("span", { class: "game-tile-text" },
            h("b", { text: info.title }),
            h("small", { text: t(game === "schnelllauf" ? "sl_blurb" : "us_blurb") })));
      }));

    const info = GAMES[draft.game];
    const yours = draft.seats.findIndex((s) => s.kind === "open");
    const seatRows = h("ol", { class: "seat-rows" }, draft.seats.map((seat, i) => {
      const kind = h("select", { name: `seat-${i}-kind`, "aria-label": t("seat_n", { n: i + 1 }) },
        h("option", { value: "open", selected: seat.kind === "open" }, t("seat_open")),
        h("option", { value: "bot", selected: seat.kind === "bot" }, t("seat_bot")));
      kind.addEventListener("change", () => {
        draft.seats[i] = kind.value === "bot" ? bot("normal") : { kind: "open" };
        redraw();
      });
      const row = h("li", { class: "seat-row" }, h("span", { class: "seat-no", text: i + 1 }), kind,
        i === yours ? h("span", { class: "you-tag", text: t("seat_you") }) : null);
      if (seat.kind === "bot") {
        const level = h("select", { name: `seat-${i}-level`, "aria-label": t("level") },
          LEVELS.map((l) => h("option", { value: l, selected: seat.level === l }, t(`level_${l}`))));
        level.addEventListener("change", () => { seat.level = level.value; saveDraft(); });
        // "" is the server's default strategy (the first); one it does not know is dropped.
        if (STRATEGIES.length && seat.strategy && !STRATEGIES.slice(1).includes(seat.strategy)) seat.strategy = "";
        const strategy = h("select", { name: `seat-${i}-strategy`, class: "strategy", "aria-label": t("strategy_pick") },
          STRATEGIES.length ? STRATEGIES.map((name, k) => h("option", {
            value: k ? name : "", selected: (k ? name : "") === (seat.strategy ?? ""),
          }, k ? strategyName(name) : t("strategy_default", { name: strategyName(name) })))
            : h("option", { value: seat.strategy ?? "" }, seat.strategy ? strategyName(seat.strategy) : "…"));
        strategy.addEventListener("change", () => { seat.strategy = strategy.value; saveDraft(); });
        row.append(level, strategy);
      }
      if (hasHandicaps) row.append(handicaps(i));
      if (draft.seats.length > info.min) {
        row.append(h("button", {
          type: "button", class: "icon-btn", "aria-label": t("a11y_remove_seat", { n: i + 1 }),
          title: t("a11y_remove_seat", { n: i + 1 }), text: "×",
          onclick: () => { draft.seats.splice(i, 1); redraw(); },
        }));
      }
      return row;
    }));

    // Rated: only people (every seat open) and the game's usual rules; the server judges.
    function ratedSwitch() {
      const bots = draft.seats.some((s) => s.kind === "bot");
      const input = h("input", { type: "checkbox", name: "rated", id: "rated", checked: draft.rated, "aria-describedby": "rated-hint" });
      input.addEventListener("change", () => { draft.rated = input.checked; redraw(); page.querySelector("#rated")?.focus(); });
      return h("div", { class: "rated-switch" },
        h("label", { class: "check" }, input, h("span", { text: t("rated_switch") })),
        h("p", { class: "hint", id: "rated-hint" },
          t("rated_hint"), draft.rated && bots ? h("b", { class: "rated-warn", text: ` ${t("rated_bots_warn")}` }) : null));
    }

    function titleInput() {
      const input = h("input", { name: "title", maxlength: "40", value: draft.title, placeholder: t("optional") });
      input.addEventListener("change", () => { draft.title = input.value; saveDraft(); });
      return input;
    }

    function handicaps(i) {
      const piles = h("input", { type: "checkbox", name: `seat-${i}-piles`, checked: draft.pile_size[i] === 4 });
      piles.addEventListener("change", () => { draft.pile_size[i] = piles.checked ? 4 : 3; saveDraft(); });
      const one = h("input", { type: "checkbox", name: `seat-${i}-onehand`, checked: draft.one_hand_seats[i] });
      one.addEventListener("change", () => { draft.one_hand_seats[i] = one.checked; saveDraft(); });
      return h("span", { class: "handicaps" },
        h("label", { class: "check small" }, piles, h("span", { text: t("handicap_piles") })),
        h("label", { class: "check small" }, one, h("span", { text: t("handicap_one_hand") })));
    }

    const addSeat = draft.seats.length < info.max
      ? h("button", {
        type: "button", class: "btn btn-small", text: `+ ${t("seat_n", { n: draft.seats.length + 1 })}`,
        onclick: () => { draft.seats.push(bot("normal")); redraw(); },
      })
      : null;

    // The game's own options (GET /api/games), each labelled by its name in the words; the
    // per-seat ones are the handicaps of the seat rows, the common ones under "more".
    const COMMON = ["players", "deck", "penalty_ms", "countdown_ms", "max_rounds"];
    const own = (GAMES[draft.game]?.options ?? []).filter((o) => !COMMON.includes(o.name)
      && (o.type === "bool" || o.type === "int"));
    for (const o of own) draft[o.name] ??= o.default;
    const gameOptions = own.map((o) => o.type === "bool" ? check(o.name, t(o.name))
      : field(t(o.name), number(o.name, o.min ?? 0, o.max ?? 1000, 1)));
    const hasMaxRounds = (GAMES[draft.game]?.options ?? []).some((o) => o.name === "max_rounds");

    form.append(
      h("h2", { text: t("new_table") }),
      gameTiles,
      h("h3", { text: t("seats") }),
      seatRows, addSeat,
      h("div", { class: "options" }, gameOptions),
      ratedSwitch(),
      h("details", { class: "more" },
        h("summary", { text: t("more_options") }),
        h("div", { class: "options" },
          field(t("penalty_ms"), number("penalty_ms", 0, 10000, 100)),
          field(t("countdown_ms"), number("countdown_ms", 0, 10000, 100)),
          hasMaxRounds ? field(t("max_rounds"), number("max_rounds", 1, 1000, 1)) : null,
          field(t("table_title"), titleInput()),
          check("private", t("private_table")))),
      h("button", { class: "btn btn-gold btn-big", type: "submit", id: "create" }, t("create")),
      h("div", { class: "create-error", "data-from": "form", role: "alert" }));
    return form;
  }

  offs.push(net.on("lobby", (msg) => { tables = msg.tables; renderTables(); }));
  // The name field follows a claim, a rename, a sign-in or -out (a first visit keeps it empty).
  const nameNow = () => {
    const input = page.querySelector("#name");
    if (input && document.activeElement !== input && (input.value || net.claimed)) input.value = net.name;
  };
  offs.push(net.on("account", nameNow));
  offs.push(net.on("welcome", (msg) => {
    nameNow();
    net.send({ type: "lobby" });
    renderTables();
    // The form offers the server's strategies: drawn again only when they changed.
    const form = page.querySelector("#create-form");
    if (form && form.dataset.strategies !== STRATEGIES.join()) {
      form.replaceWith(createPanel());
      showRefusal();
    }
  }));
  offs.push(net.on("error", (msg) => {
    if (msg.ref != null || msg.code === "too_many_new_players") return; // the header says that one
    if (!sent) {
      app.toast(errorText(msg), msg.reason);
      return;
    }
    refusal = { from: sent, msg, rated: sentRated && sent === "form" };
    if (sent === "find" && !queue.state) { // the seek was refused: not waiting after all
      queue.wanted = null;
      sent = null;
      redrawFind("#seek");
      return;
    }
    sent = null;
    showRefusal();
  }));
  offs.push(onLang(() => { render(); showRefusal(); }));
  offs.push(onQueue((why) => {
    if (why === "tick") {
      for (const [sel, text] of [[".queue-window", `± ${queue.state.window}`], [".queue-count", String(queue.state.waiting)]]) {
        const el = findBox.querySelector(sel);
        if (el) el.textContent = text;
      }
      findBox.querySelector("#queue-state")?.tick?.();
      return;
    }
    if (why === "start" && sent === "find") sent = null; // the seek was taken
    redrawFind(why === "left" || why === "matched" ? "#seek" : why === "offer" ? null : "#unseek");
  }));
  const ticker = setInterval(() => findBox.querySelector("#queue-state")?.tick?.(), 1000);
  offs.push(() => clearInterval(ticker));
  if (net.open) net.send({ type: "lobby" });
  render();

  function showRefusal() {
    for (const box of page.querySelectorAll(".create-error")) {
      const mine = refusal?.from === box.dataset.from;
      const rated = mine && refusal.rated && refusal.msg.code === "bad_options";
      box.replaceChildren(...(mine ? [errorNode(refusal.msg)] : []),
        ...(rated ? [h("p", { class: "rated-why", text: t("rated_refused") })] : []));
    }
  }

  return {
    unmount: () => offs.forEach((off) => off()),
    helpKeys: () => [["Esc", t("queue_keys_leave")]],
    key(e) {
      if (e.key === "Escape" && (queue.state || queue.wanted)) return unseek();
      return false;
    },
  };
}

// A bot's name in the reader's language: "Bot 2 · Profi" (the seat number tells bots apart).
export function botLabel(spec, seat = null) {
  const [level, strategy] = String(spec ?? "").split(":");
  const name = seat === null ? "Bot" : `Bot ${seat + 1}`;
  if (level === "tutor") return t("learn_tutor"); // a tutorial's opponent (js/learn.js)
  if (!LEVELS.includes(level)) return `${name} · ${spec}`;
  return `${name} · ${t(`level_${level}`)}${strategy ? ` · ${strategyName(strategy)}` : ""}`;
}
