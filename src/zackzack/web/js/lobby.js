// @ts-check
// The lobby: your name, the live list of tables, quick games against bots, a new table.

import { cardEl } from "./cards.js";
import { h, store } from "./dom.js";
import { icon } from "./icons.js";
import { errorNode, errorText } from "./errors.js";
import { GAME_LIST, GAMES, part, words } from "./games.js";
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
let online = null; // people connected to the whole cluster (null: the server did not say)
net.on("lobby", (msg) => {
  latest = msg.tables;
  online = Number.isInteger(msg.online) && msg.online > 0 ? msg.online : null; // 0: not counted
});

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

// The words `kind` (quick, blurb: js/games.js `words`) of `game`; its title without them.
function said(game, kind) {
  const key = words(game)[kind];
  return key ? t(key) : GAMES[game].title;
}

// The lobby's fan of cards: each game's HERO cards (its web/cards.js), the games taking turns.
function heroCards() {
  const hero = GAME_LIST.map((g) => [g.name, part(g.name, "cards")?.HERO ?? []]);
  const most = Math.max(0, ...hero.map(([, cards]) => cards.length));
  return Array.from({ length: most }, (_, i) => hero.filter(([, cards]) => i < cards.length)
    .map(([game, cards]) => cardEl(game, cards[i]))).flat();
}

// What the create form holds; remembered between visits. A game's options are kept under its
// name (`options[game][option]`), filled from its defaults (GET /api/games) when first shown.
function defaultDraft() {
  return {
    game: GAME_LIST[0]?.name,
    seats: [{ kind: "open" }, bot("normal"), bot("normal"), bot("normal")],
    options: {}, private: false, title: "",
    rated: false, find_game: GAME_LIST[0]?.name, find_players: 2,
  };
}

// The game's options the form offers (GET /api/games: name, type, default, min, max; players
// come from the seats), its handicaps as {kind: {option, value}} (a per-seat option and the
// value a ticked box sets), and the option values of `draft` for it, defaults filled in.
function gameOptions(draft, game) {
  const info = GAMES[game];
  const handicaps = Object.entries(info?.handicaps && !Array.isArray(info.handicaps) ? info.handicaps : {})
    .map(([kind, to]) => ({ kind, option: to?.option ?? to?.[0], value: to?.value ?? to?.[1] }))
    .filter((hc) => (info.options ?? []).some((o) => o.name === hc.option && o.type === "list"));
  const values = (draft.options[game] ??= {});
  const options = (info?.options ?? []).filter((o) => o.name !== "players");
  for (const o of options) {
    if (values[o.name] === undefined && o.default != null) values[o.name] = structuredClone(o.default);
  }
  return { options, handicaps, values };
}

function bot(level, strategy = "") {
  return { kind: "bot", level, strategy };
}

// The remembered draft; a game it names that the server no longer plays is the first one.
function loadDraft() {
  let draft;
  try {
    draft = { ...defaultDraft(), ...JSON.parse(store("zz.draft") ?? "{}") };
  } catch {
    draft = defaultDraft();
  }
  if (!draft.options || typeof draft.options !== "object") draft.options = {};
  if (!Array.isArray(draft.seats) || !draft.seats.length) draft.seats = defaultDraft().seats;
  if (!(draft.game in GAMES)) draft.game = GAME_LIST[0]?.name;
  if (!(draft.find_game in GAMES)) draft.find_game = GAME_LIST[0]?.name;
  const info = GAMES[draft.game];
  if (info) { // the seats the game takes
    draft.seats = draft.seats.slice(0, info.max);
    while (draft.seats.length < info.min) draft.seats.push(bot("normal"));
  }
  return draft;
}

// The create message for a draft (RULES.md options of its game; players come from the seats).
export function createMessage(draft) {
  const seats = draft.seats.map((s) => s.kind === "bot"
    ? { kind: "bot", bot: s.strategy ? `${s.level}:${s.strategy}` : s.level }
    : { kind: "open" });
  // The game's options (GET /api/games) that the form holds; players come from the seats.
  const options = {};
  const { options: offered, handicaps, values } = gameOptions(draft, draft.game);
  for (const option of offered) {
    // Only what the form sets: a yes/no, a number, a handicap's per-seat list (a list it has
    // no field for, a deck, is left out and keeps the game's standard).
    const set = option.type === "bool" || option.type === "int"
      || handicaps.some((hc) => hc.option === option.name);
    const value = values[option.name];
    if (!set) continue;
    if (value === undefined || value === null) continue;
    options[option.name] = option.type === "int" ? +value
      : Array.isArray(value) && option.item === "int" ? value.map(Number) : value;
  }
  const msg = { type: "create", game: draft.game, options, seats, private: draft.private };
  if (draft.rated) msg.rated = true;
  if (draft.title.trim()) msg.title = draft.title.trim();
  return msg;
}

export function quickMessage(game, options = {}) {
  const players = Math.min(GAMES[game]?.max ?? 2, 4);
  const seats = [{ kind: "open" }, ...Array(players - 1).fill({ kind: "bot", bot: "normal" })];
  return { type: "create", game, options, seats, private: false };
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
          heroCards()),
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
    // One button per game, and as big beside it each more quick game its rules module offers
    // (`QUICK`: Unter Spannung's tournament); `data-quick` the game, or game:key.
    /** @param {string} game @param {{key: string, options: object} | null} [more] */
    const quick = (game, more = null) => h("button", {
      class: `quick quick-${game}`, type: "button", "data-quick": more ? `${game}:${more.key}` : game,
      onclick: () => create("quick", quickMessage(game, more?.options), true),
    },
    h("span", { class: "quick-cards" }, GAMES[game].preview.map((c) => cardEl(game, c))),
    h("span", { class: "quick-label", text: more ? t(more.key) : said(game, "quick") }));
    /** @type {{key: string, options: object}[]} */
    const none = [];
    return h("div", { class: "panel" },
      h("h2", { text: t("quick_title") }),
      h("div", { class: "quick-row" }, GAME_LIST.flatMap((g) => [quick(g.name),
        ...(part(g.name, "rules")?.QUICK ?? none).map((/** @type {{key: string, options: object}} */ more) => quick(g.name, more))])),
      h("div", { class: "create-error", "data-from": "quick", role: "alert" }));
  }

  // Find an opponent: the matchmaking queue (js/queue.js) for a game and a number of players.
  function findPanel() {
    if (!GAME_LIST.length) return h("div", { hidden: true }); // no game to find one for
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
      const info = GAMES[draft.find_game] ?? GAMES[GAME_LIST[0].name];
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
    return h("div", { class: "panel" },
      h("div", { class: "panel-head" },
        h("h2", { text: t("tables") }),
        online === null ? null : h("span", { class: "online", id: "online", text: count("online", online) })),
      list);
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
    if (!GAME_LIST.length) return h("div", { hidden: true }); // no game to set a table for
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
    const game = draft.game;
    const { options: offered, handicaps: seatHandicaps, values } = gameOptions(draft, game);
    // A label in the game's words (games/<pkg>/words: "<game>.opt_<option>",
    // "<game>.handicap_<kind>"), else the shared words of every game's table options.
    const named = (key, name) => t([`${game}.${key}`, key, name].find(has) ?? `${game}.${key}`);
    const field = (label, input) => h("label", { class: "field" }, h("span", { text: label }), input);
    const number = (key, min, max, step, into = values) => {
      const input = h("input", {
        type: "number", name: key, min, max, step, value: into[key], inputmode: "numeric",
      });
      input.addEventListener("change", () => {
        into[key] = Math.max(min, Math.min(max, Math.round(+input.value || 0)));
        input.value = into[key];
        saveDraft();
      });
      return input;
    };
    const check = (key, label, into = values) => {
      const input = h("input", { type: "checkbox", name: key, checked: into[key] });
      input.addEventListener("change", () => { into[key] = input.checked; saveDraft(); });
      return h("label", { class: "check" }, input, h("span", { text: label }));
    };

    const gameTiles = h("div", { class: "game-tiles", role: "radiogroup" },
      Object.entries(GAMES).map(([tile, info]) => {
        const input = h("input", {
          type: "radio", name: "game", value: tile, checked: draft.game === tile,
        });
        input.addEventListener("change", () => {
          draft.game = tile;
          const n = Math.min(info.max, Math.max(info.min, draft.seats.length));
          draft.seats = draft.seats.slice(0, n);
          while (draft.seats.length < n) draft.seats.push(bot("normal"));
          redraw();
        });
        return h("label", { class: "game-tile" }, input,
          h("span", { class: "game-tile-cards" }, info.preview.slice(0, 2).map((c) => cardEl(tile, c))),
          h("span", { class: "game-tile-text" },
            h("b", { text: info.title }),
            h("small", { text: said(tile, "blurb") })));
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
        const level = h("select", { name: `seat-${i}-level`, "aria-label": t("a11y_seat_level", { n: i + 1 }) },
          LEVELS.map((l) => h("option", { value: l, selected: seat.level === l }, t(`level_${l}`))));
        level.addEventListener("change", () => { seat.level = level.value; saveDraft(); });
        // "" is the server's default strategy (the first); one it does not know is dropped.
        if (STRATEGIES.length && seat.strategy && !STRATEGIES.slice(1).includes(seat.strategy)) seat.strategy = "";
        const strategy = h("select", { name: `seat-${i}-strategy`, class: "strategy",
          "aria-label": t("a11y_seat_strategy", { n: i + 1 }) },
          STRATEGIES.length ? STRATEGIES.map((name, k) => h("option", {
            value: k ? name : "", selected: (k ? name : "") === (seat.strategy ?? ""),
          }, k ? strategyName(name) : t("strategy_default", { name: strategyName(name) })))
            : h("option", { value: seat.strategy ?? "" }, seat.strategy ? strategyName(seat.strategy) : "…"));
        strategy.addEventListener("change", () => { seat.strategy = strategy.value; saveDraft(); });
        row.append(level, strategy);
      }
      if (seatHandicaps.length) row.append(handicaps(i));
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

    // Seat i's handicaps: a box for each, setting its per-seat option to the handicap's value
    // (or back to the option's default); a seat beyond the option's length has none.
    function handicaps(i) {
      return h("span", { class: "handicaps" }, seatHandicaps.map(({ kind, option, value }) => {
        const list = values[option];
        if (!Array.isArray(list) || i >= list.length) return null;
        const usual = offered.find((o) => o.name === option)?.default?.[i] ?? list[i];
        const box = h("input", { type: "checkbox", name: `seat-${i}-${kind}`, checked: list[i] === value && value !== usual });
        box.addEventListener("change", () => { list[i] = box.checked ? value : usual; saveDraft(); });
        return h("label", { class: "check small" }, box, h("span", { text: named(`handicap_${kind}`) }));
      }));
    }

    const addSeat = draft.seats.length < info.max
      ? h("button", {
        type: "button", class: "btn btn-small", text: `+ ${t("seat_n", { n: draft.seats.length + 1 })}`,
        onclick: () => { draft.seats.push(bot("normal")); redraw(); },
      })
      : null;

    // The game's options (GET /api/games) that are a yes/no or a number, each labelled by its
    // words; the per-seat ones are the seat rows' handicaps; a list without one (a deck) keeps
    // the game's default. The table's timings (options of every game, in milliseconds) go
    // under "more", with the title and privacy.
    const editable = offered.filter((o) => (o.type === "bool" || o.type === "int") && values[o.name] != null);
    const input = (o) => o.type === "bool" ? check(o.name, named(`opt_${o.name}`, o.name))
      : field(named(`opt_${o.name}`, o.name), number(o.name, o.min ?? 0, o.max ?? 1000,
        o.name.endsWith("_ms") ? 100 : 1));
    const own = editable.filter((o) => !o.name.endsWith("_ms")).map(input);
    const timings = editable.filter((o) => o.name.endsWith("_ms")).map(input);

    form.append(
      h("h2", { text: t("new_table") }),
      gameTiles,
      h("h3", { text: t("seats") }),
      seatRows, addSeat,
      h("div", { class: "options" }, own),
      ratedSwitch(),
      h("details", { class: "more" },
        h("summary", { text: t("more_options") }),
        h("div", { class: "options" },
          timings,
          field(t("table_title"), titleInput()),
          check("private", t("private_table"), draft))),
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
  offs.push(net.on("welcome", () => {
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
      const state = /** @type {Protocol.Queue} */ (queue.state); // ticks come while in the queue
      for (const [sel, text] of [[".queue-window", `± ${state.window}`], [".queue-count", String(state.waiting)]]) {
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
