// @ts-check
// The lobby's create form: the game, its seats (open or a bot of a level and strategy, with
// the game's handicaps), its options, rated, and under "more" the timings, title and privacy.
// Every change goes into the draft (js/lobby-draft.js) and is remembered.

import { LEVELS, STRATEGIES, strategyName } from "./bots.js";
import { cardEl } from "./cards.js";
import { h } from "./dom.js";
import { GAME_LIST, GAMES, said } from "./games.js";
import { has, t } from "./i18n.js";
import { bot, fitSeats, gameOptions, saveDraft } from "./lobby-draft.js";

/** @typedef {import("./lobby-draft.js").Draft} Draft */
/** @typedef {import("./lobby-draft.js").DraftSeat} DraftSeat */
/** @typedef {import("./lobby-draft.js").Handicap} Handicap */

/**
 * What the form asks of the lobby: `submit()` on sending it (the draft is stored),
 * `redrawn()` after it was drawn anew (to show the refusal again).
 * @typedef {{submit: () => void, redrawn: () => void}} CreateHooks
 */

// What a part of the form works on: the draft, the game's options and their values, the
// labels in the game's words, `save()` after a change, `redraw()` for one that reshapes the
// form (it returns the new form).
/**
 * @typedef {{draft: Draft, game: string, offered: GameOption[], handicaps: Handicap[],
 *   values: Record<string, unknown>, named: (key: string, name?: string) => string,
 *   save: () => void, redraw: () => HTMLElement}} Form
 */

/** @param {Draft} draft @param {CreateHooks} hooks @returns {HTMLElement} */
export function createPanel(draft, hooks) {
  if (!GAME_LIST.length) return h("div", { hidden: true }); // no game to set a table for
  const el = h("form", { class: "panel create", id: "create-form", dataset: { strategies: STRATEGIES.join() } });
  el.addEventListener("submit", (/** @type {SubmitEvent} */ e) => {
    e.preventDefault();
    saveDraft(draft);
    hooks.submit();
  });
  const game = draft.game;
  const { options: offered, handicaps, values } = gameOptions(draft, game);
  /** @type {Form} */
  const form = {
    draft, game, offered, handicaps, values,
    // A label in the game's words (games/<pkg>/words: "<game>.opt_<option>",
    // "<game>.handicap_<kind>"), else the shared words of every game's table options.
    named: (key, name) => t([`${game}.${key}`, key, name ?? ""].find(has) ?? `${game}.${key}`),
    save: () => saveDraft(draft),
    redraw: () => {
      saveDraft(draft);
      const fresh = createPanel(draft, hooks);
      el.replaceWith(fresh);
      hooks.redrawn();
      return fresh;
    },
  };
  const info = GAMES[draft.game];
  const { own, timings } = optionFields(form);
  el.append(
    h("h2", { text: t("new_table") }),
    gameTiles(form),
    h("h3", { text: t("seats") }),
    h("ol", { class: "seat-rows" }, draft.seats.map((seat, i) => seatRow(form, seat, i))),
    draft.seats.length < info.max ? h("button", {
      type: "button", class: "btn btn-small", text: `+ ${t("seat_n", { n: draft.seats.length + 1 })}`,
      onclick: () => { draft.seats.push(bot("normal")); form.redraw(); },
    }) : null,
    h("div", { class: "options" }, own),
    ratedSwitch(form),
    h("details", { class: "more" },
      h("summary", { text: t("more_options") }),
      h("div", { class: "options" },
        timings,
        field(t("table_title"), titleInput(form)),
        check(form, "private", t("private_table"), draft))),
    h("button", { class: "btn btn-gold btn-big", type: "submit", id: "create" }, t("create")),
    h("div", { class: "create-error", "data-from": "form", role: "alert" }));
  return el;
}

/** @param {string} label @param {HTMLElement} input */
function field(label, input) {
  return h("label", { class: "field" }, h("span", { text: label }), input);
}

// A number field for the option `key`, kept between `min` and `max`.
/** @param {Form} form @param {string} key @param {number} min @param {number} max @param {number} step */
function number(form, key, min, max, step) {
  const into = form.values;
  const input = h("input", {
    type: "number", name: key, min, max, step, value: into[key], inputmode: "numeric",
  });
  input.addEventListener("change", () => {
    into[key] = Math.max(min, Math.min(max, Math.round(+input.value || 0)));
    input.value = into[key];
    form.save();
  });
  return input;
}

// A check box for `into[key]` (an option's value, or the draft's own `private`).
/** @param {Form} form @param {string} key @param {string} label @param {Record<string, any>} [into] */
function check(form, key, label, into = form.values) {
  const input = h("input", { type: "checkbox", name: key, checked: into[key] });
  input.addEventListener("change", () => { into[key] = input.checked; form.save(); });
  return h("label", { class: "check" }, input, h("span", { text: label }));
}

// One tile per game (a radio group); choosing another keeps as many seats as it takes.
/** @param {Form} form */
function gameTiles({ draft, redraw }) {
  return h("div", { class: "game-tiles", role: "radiogroup" },
    Object.entries(GAMES).map(([tile, info]) => {
      const input = h("input", {
        type: "radio", name: "game", value: tile, checked: draft.game === tile,
      });
      input.addEventListener("change", () => {
        draft.game = tile;
        draft.seats = fitSeats(draft.seats, info.min, info.max);
        redraw();
      });
      return h("label", { class: "game-tile" }, input,
        h("span", { class: "game-tile-cards" }, info.preview.slice(0, 2).map((c) => cardEl(tile, c))),
        h("span", { class: "game-tile-text" },
          h("b", { text: info.title }),
          h("small", { text: said(tile, "blurb") })));
    }));
}

// Seat i: open or a bot (its level and strategy), its handicaps, and a way to remove it.
/** @param {Form} form @param {DraftSeat} seat @param {number} i */
function seatRow(form, seat, i) {
  const { draft } = form;
  const kind = h("select", { name: `seat-${i}-kind`, "aria-label": t("seat_n", { n: i + 1 }) },
    h("option", { value: "open", selected: seat.kind === "open" }, t("seat_open")),
    h("option", { value: "bot", selected: seat.kind === "bot" }, t("seat_bot")));
  kind.addEventListener("change", () => {
    draft.seats[i] = kind.value === "bot" ? bot("normal") : { kind: "open" };
    form.redraw();
  });
  const yours = draft.seats.findIndex((s) => s.kind === "open");
  const row = h("li", { class: "seat-row" }, h("span", { class: "seat-no", text: i + 1 }), kind,
    i === yours ? h("span", { class: "you-tag", text: t("seat_you") }) : null);
  if (seat.kind === "bot") row.append(...botChoice(form, seat, i));
  if (form.handicaps.length) row.append(handicapBoxes(form, i));
  if (draft.seats.length > GAMES[draft.game].min) {
    row.append(h("button", {
      type: "button", class: "icon-btn", "aria-label": t("a11y_remove_seat", { n: i + 1 }),
      title: t("a11y_remove_seat", { n: i + 1 }), text: "×",
      onclick: () => { draft.seats.splice(i, 1); form.redraw(); },
    }));
  }
  return row;
}

// A bot seat's level and strategy; "" is the server's default strategy (the first), and one
// it does not know is dropped.
/** @param {Form} form @param {DraftSeat & {kind: "bot"}} seat @param {number} i */
function botChoice(form, seat, i) {
  const level = h("select", { name: `seat-${i}-level`, "aria-label": t("a11y_seat_level", { n: i + 1 }) },
    LEVELS.map((l) => h("option", { value: l, selected: seat.level === l }, t(`level_${l}`))));
  level.addEventListener("change", () => { seat.level = level.value; form.save(); });
  if (STRATEGIES.length && seat.strategy && !STRATEGIES.slice(1).includes(seat.strategy)) seat.strategy = "";
  const strategy = h("select", { name: `seat-${i}-strategy`, class: "strategy",
    "aria-label": t("a11y_seat_strategy", { n: i + 1 }) },
  STRATEGIES.length ? STRATEGIES.map((name, k) => h("option", {
    value: k ? name : "", selected: (k ? name : "") === (seat.strategy ?? ""),
  }, k ? strategyName(name) : t("strategy_default", { name: strategyName(name) })))
    : h("option", { value: seat.strategy ?? "" }, seat.strategy ? strategyName(seat.strategy) : "…"));
  strategy.addEventListener("change", () => { seat.strategy = strategy.value; form.save(); });
  return [level, strategy];
}

// Seat i's handicaps: a box for each, setting its per-seat option to the handicap's value
// (or back to the option's default); a seat beyond the option's length has none.
/** @param {Form} form @param {number} i */
function handicapBoxes(form, i) {
  return h("span", { class: "handicaps" }, form.handicaps.map(({ kind, option, value }) => {
    const list = form.values[option];
    if (!Array.isArray(list) || i >= list.length) return null;
    const given = form.offered.find((o) => o.name === option)?.default;
    const usual = (Array.isArray(given) ? given[i] : undefined) ?? list[i];
    const box = h("input", { type: "checkbox", name: `seat-${i}-${kind}`, checked: list[i] === value && value !== usual });
    box.addEventListener("change", () => { list[i] = box.checked ? value : usual; form.save(); });
    return h("label", { class: "check small" }, box, h("span", { text: form.named(`handicap_${kind}`) }));
  }));
}

// Rated: only people (every seat open) and the game's usual rules; the server judges.
/** @param {Form} form */
function ratedSwitch(form) {
  const { draft } = form;
  const bots = draft.seats.some((s) => s.kind === "bot");
  const input = h("input", { type: "checkbox", name: "rated", id: "rated", checked: draft.rated, "aria-describedby": "rated-hint" });
  input.addEventListener("change", () => {
    draft.rated = input.checked;
    /** @type {HTMLElement | null} */ (form.redraw().querySelector("#rated"))?.focus();
  });
  return h("div", { class: "rated-switch" },
    h("label", { class: "check" }, input, h("span", { text: t("rated_switch") })),
    h("p", { class: "hint", id: "rated-hint" },
      t("rated_hint"), draft.rated && bots ? h("b", { class: "rated-warn", text: ` ${t("rated_bots_warn")}` }) : null));
}

/** @param {Form} form */
function titleInput(form) {
  const input = h("input", { name: "title", maxlength: "40", value: form.draft.title, placeholder: t("optional") });
  input.addEventListener("change", () => { form.draft.title = input.value; form.save(); });
  return input;
}

// The game's options (GET /api/games) that are a yes/no or a number, each labelled by its
// words; the per-seat ones are the seat rows' handicaps; a list without one (a deck) keeps
// the game's default. The table's timings (options of every game, in milliseconds) go
// under "more", with the title and privacy.
/** @param {Form} form */
function optionFields(form) {
  const editable = form.offered.filter((o) => (o.type === "bool" || o.type === "int") && form.values[o.name] != null);
  const input = (/** @type {GameOption} */ o) => o.type === "bool" ? check(form, o.name, form.named(`opt_${o.name}`, o.name))
    : field(form.named(`opt_${o.name}`, o.name), number(form, o.name, o.min ?? 0, o.max ?? 1000,
      o.name.endsWith("_ms") ? 100 : 1));
  return {
    own: editable.filter((o) => !o.name.endsWith("_ms")).map(input),
    timings: editable.filter((o) => o.name.endsWith("_ms")).map(input),
  };
}
