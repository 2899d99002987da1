// @ts-check
// German and English, from the one catalogue the server keeps; the German calls
// ("Nichts geht mehr!", "los!") stay German in English too, as at a real table.

import { store } from "./dom.js";

// The catalogue (zackzack/words: words/*.json and each game's games/<game>/words/*.json),
// as the server writes it into the page (webpage.py; the same as /words.json):
// {de: {events, web}, en: {events, web}}. The event sentences are the ones describe.py says,
// here under "ev_" + their key. Read at once: the first page waits for no request.
const TEXT = flatten(pageJson("zz-words") ?? {});

// The JSON block `id` of the page (<script type="application/json">); null if none or broken.
/** @param {string} id @returns {any} */
export function pageJson(id) {
  try {
    return JSON.parse(document.getElementById(id)?.textContent ?? "null");
  } catch {
    return null;
  }
}

/**
 * @param {Record<string, {events?: Record<string, string>, web?: Record<string, string>}>} words
 * @returns {Record<string, Record<string, string>>}
 */
function flatten(words) {
  /** @type {Record<string, Record<string, string>>} */
  const out = { de: {}, en: {} };
  for (const [lang, { events = {}, web = {} }] of Object.entries(words)) {
    const said = Object.entries(events).map(([key, text]) => [`ev_${key}`, text]);
    out[lang] = { ...web, ...Object.fromEntries(said) };
  }
  return out;
}

export const LANGS = ["de", "en"];
/** @type {Set<(lang: string) => void>} */
const listeners = new Set();

function initialLang() {
  const saved = store("zz.lang");
  if (saved && LANGS.includes(saved)) return saved;
  const browser = (navigator.languages?.[0] ?? navigator.language ?? "en").slice(0, 2);
  return browser === "de" ? "de" : "en";
}

export let lang = initialLang();

/** @param {string} next */
export function setLang(next) {
  if (!LANGS.includes(next) || next === lang) return;
  lang = next;
  store("zz.lang", next);
  document.documentElement.lang = next;
  for (const fn of listeners) fn(next);
}

/** @param {(lang: string) => void} fn */
export function onLang(fn) {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

/** @param {string} key */
export function has(key) {
  return key in TEXT[lang] || key in TEXT.en;
}

// The sentence `key` with its {fields} filled in, as a string.
/** @param {string} key @param {Record<string, unknown>} [fields] @returns {string} */
export function t(key, fields = {}) {
  const template = TEXT[lang][key] ?? TEXT.en[key] ?? key;
  return template.replace(/\{(\w+)\}/g, (_, /** @type {string} */ name) => String(fields[name] ?? ""));
}

// `key` for a count: `key_1` where there is one (1 Karte, 2 Karten). The count is `{n}`;
// `fields` fill the sentence's other fields. Every count shown with a noun goes through here.
/** @param {string} key @param {number} n @param {Record<string, unknown>} [fields] */
export function count(key, n, fields = {}) {
  return t(n === 1 && has(`${key}_1`) ? `${key}_1` : key, { ...fields, n });
}

// The sentence as a list of parts: strings and nodes (for card chips). Names stay text.
/**
 * @param {string} key @param {Record<string, unknown>} [fields]
 * @returns {(string | Node)[]}
 */
export function parts(key, fields = {}) {
  const template = TEXT[lang][key] ?? TEXT.en[key] ?? key;
  /** @type {(string | Node)[]} */
  const out = [];
  let last = 0;
  for (const m of template.matchAll(/\{(\w+)\}/g)) {
    out.push(template.slice(last, m.index));
    const value = fields[m[1]];
    out.push(...(Array.isArray(value) ? value : [value instanceof Node ? value : String(value ?? "")]));
    last = m.index + m[0].length;
  }
  out.push(template.slice(last));
  return out.filter((p) => p !== "");
}

// Seconds for people: 1.5, 8.
/** @param {number} ms */
export function seconds(ms) {
  return String(Math.max(0, Math.round(ms / 100) / 10));
}

// Fill every element with data-i18n="key" (static chrome in index.html).
export function translateStatic(root = document) {
  for (const el of root.querySelectorAll("[data-i18n]")) {
    if (el instanceof HTMLElement) el.textContent = t(el.dataset.i18n ?? "");
  }
}
