// @ts-check
// A stand-in for the page the client's modules read when they are imported: the words and
// games blocks (the catalogue from src/zackzack/words and each game's words, merged as
// zackzack.words does), localStorage, navigator, and a DOM just big enough for text and
// chips. Import this module first, then the client's modules (with `await import`).

import { readFileSync, readdirSync, existsSync } from "node:fs";
import { join } from "node:path";

export const SRC = new URL("../../src/zackzack/", import.meta.url).pathname;

/** The catalogue as the page carries it: {de: {events, web}, en: {events, web}}. */
export function catalogue() {
  const folders = [join(SRC, "words"), ...readdirSync(join(SRC, "games"))
    .map((game) => join(SRC, "games", game, "words")).filter((folder) => existsSync(folder))];
  /** @type {Record<string, {events: Record<string, string>, web: Record<string, string>}>} */
  const out = {};
  for (const lang of ["de", "en"]) {
    out[lang] = { events: {}, web: {} };
    for (const folder of folders) {
      const path = join(folder, `${lang}.json`);
      if (!existsSync(path)) continue;
      const sections = JSON.parse(readFileSync(path, "utf-8"));
      Object.assign(out[lang].events, sections.events ?? {});
      Object.assign(out[lang].web, sections.web ?? {});
    }
  }
  return out;
}

class FakeNode {
  constructor() {
    /** @type {FakeNode[]} */
    this.children = [];
    this.text = "";
  }

  /** @returns {string} */
  get textContent() {
    return this.text + this.children.map((child) => child.textContent).join("");
  }

  set textContent(text) {
    this.text = text;
    this.children = [];
  }

  /** @param {...(FakeNode | string)} items */
  append(...items) {
    for (const item of items) this.children.push(typeof item === "string" ? text(item) : item);
  }
}

/** @param {string} value */
function text(value) {
  const node = new FakeNode();
  node.text = value;
  return node;
}

class FakeElement extends FakeNode {
  /** @param {string} tag */
  constructor(tag) {
    super();
    this.tag = tag;
    this.className = "";
    /** @type {Record<string, string>} */
    this.dataset = {};
    /** @type {Record<string, string>} */
    this.attributes = {};
    const classes = new Set();
    this.classList = {
      /** @param {string} name */
      add: (name) => classes.add(name),
      /** @param {string} name */
      contains: (name) => classes.has(name),
    };
    this.style = { setProperty() {} };
  }

  /** @param {string} name @param {string} value */
  setAttribute(name, value) {
    this.attributes[name] = value;
  }
}

// What the lobby reads of each game: its players, options and handicaps.
/** @type {Record<string, object>} */
const GAMES = {
  "unter-spannung": {
    min_players: 2, max_players: 6, preview: ["7±2", "5±1", "9±3"], handicaps: {},
    options: [
      { name: "players", type: "int", min: 2, max: 6, default: 4 },
      { name: "tournament", type: "bool", default: false },
      { name: "deck", type: "list", item: "other" },
      { name: "penalty_ms", type: "int", min: 0, max: 10000, default: 1000 },
      { name: "countdown_ms", type: "int", min: 0, max: 10000, default: 1500 },
    ],
  },
  schnelllauf: {
    min_players: 2, max_players: 2, preview: ["Qh", "*", "Ks"],
    handicaps: { pile: { option: "pile_size", value: 4 }, "one-hand": { option: "one_hand_seats", value: true } },
    options: [
      { name: "players", type: "int", min: 2, max: 2, default: 2 },
      { name: "jokers", type: "int", min: 0, max: 3, default: 3 },
      { name: "wrap", type: "bool", default: true },
      { name: "pile_size", type: "list", length: 2, item: "int", default: [3, 3] },
      { name: "one_hand_seats", type: "list", length: 2, item: "bool", default: [false, false] },
      { name: "penalty_ms", type: "int", min: 0, max: 10000, default: 1000 },
    ],
  },
};

const storage = new Map();
const blocks = {
  "zz-words": JSON.stringify(catalogue()),
  // The built-in games as GET /api/games lists them (abridged), with their card modules
  // (js/games.js loads them through served.js).
  "zz-games": JSON.stringify({
    games: ["unter-spannung", "schnelllauf"].map((name) =>
      ({ name, title: name, ...GAMES[name], web: { cards: `/static/games/${name}/cards.js`, describe: `/static/games/${name}/describe.js` } })),
  }),
};

Object.assign(globalThis, {
  Node: FakeNode,
  document: {
    documentElement: { lang: "en" },
    visibilityState: "visible",
    /** @param {string} id */
    getElementById: (id) => (id in blocks ? { textContent: blocks[/** @type {keyof blocks} */ (id)] } : null),
    /** @param {string} tag */
    createElement: (tag) => new FakeElement(tag),
    /** @param {string} _ns @param {string} tag */
    createElementNS: (_ns, tag) => new FakeElement(tag),
    createTextNode: text,
  },
  localStorage: {
    /** @param {string} key */
    getItem: (key) => storage.get(key) ?? null,
    /** @param {string} key @param {string} value */
    setItem: (key, value) => storage.set(key, String(value)),
    /** @param {string} key */
    removeItem: (key) => storage.delete(key),
  },
});
Object.defineProperty(globalThis, "navigator", {
  value: { language: "en", languages: ["en"] }, configurable: true, writable: true,
});

/** The text of what `describe` or `parts` returns (strings and nodes). @param {unknown[]} parts */
export function said(parts) {
  return parts.map((part) => (part instanceof FakeNode ? part.textContent : String(part))).join("");
}
