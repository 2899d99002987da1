// @ts-check
// Unter Spannung's cards ("7±2": a value 1…10 and a spread 1…3) as js/cards.js draws, names
// and calls them; and whether one fits on another.

import { corners, face, INK, marker, svg } from "../../js/art.js";

// Each spread has its own colour AND its own shape, so nothing depends on colour alone.
/** @type {Record<number, {color: string, shape: string}>} */
export const SPREADS = {
  1: { color: "#1f6fb2", shape: "circle" },
  2: { color: "#d4660f", shape: "diamond" },
  3: { color: "#a8327e", shape: "triangle" },
};

// The lobby's fan of cards shows these, between the other games' (js/lobby.js).
export const HERO = ["7±2", "4±3"];

/** @typedef {{value: number, spread: number}} UsCard */

/** @param {string | null | undefined} text @returns {UsCard | null} */
export function parseUs(text) {
  const m = /^(\d{1,2})±([123])$/.exec(text ?? "");
  if (!m || +m[1] < 1 || +m[1] > 10) return null;
  return { value: +m[1], spread: +m[2] };
}

// Whether `card` may go on `top`: its value is top ± spread, wrapped into 1…10.
/** @param {string | null | undefined} card @param {string | null | undefined} top */
export function usFits(card, top) {
  const c = parseUs(card);
  const p = parseUs(top);
  if (!c || !p) return false;
  const wrap = (/** @type {number} */ x) => ((x - 1 + 20) % 10) + 1;
  return c.value === wrap(p.value + p.spread) || c.value === wrap(p.value - p.spread);
}

// The value a card is called by.
/** @param {string} text */
export function callOf(text) {
  return parseUs(text)?.value ?? "";
}

// A card in words, for labels and the screen reader: "6 ±2".
/** @param {string} text */
export function cardName(text) {
  const card = parseUs(text);
  return card ? `${card.value} ±${card.spread}` : "";
}

/** @param {UsCard} card */
function usSvg({ value, spread }) {
  const { color, shape } = SPREADS[spread];
  const size = value === 10 ? 27 : 33;
  const corner = `<text x="16" y="34" class="cv" font-size="${size}" text-anchor="middle" ` +
    `fill="${INK}">${value}</text>` + marker(shape, 16, 47, 5.5, `fill="${color}"`);
  const dy = shape === "triangle" ? 9 : 7.5;
  return face(
    `<rect x="7" y="7" width="86" height="126" rx="6" fill="none" stroke="${color}" ` +
    `stroke-opacity=".35" stroke-width="2"/>` + corners(corner) +
    marker(shape, 50, 70, 25, `fill="${color}" stroke="#fff" stroke-width="2.5"`) +
    `<text x="50" y="${70 + dy}" class="cs" font-size="21" text-anchor="middle" ` +
    `fill="#fff">±${spread}</text>`);
}

// A face: its markup, its label and the data the card element carries; null for no card.
/** @param {string} text */
export function art(text) {
  const card = parseUs(text);
  return card ? { markup: usSvg(card), label: text, data: { spread: card.spread } } : null;
}

// A chip for sentences, "7±2" with its spread's marker, filled into `span`; false for no card.
/** @param {HTMLElement} span @param {string} text */
export function chip(span, text) {
  const card = parseUs(text);
  if (!card) return false;
  const { color, shape } = SPREADS[card.spread];
  const mark = svg(marker(shape, 50, 70, 40, `fill="${color}"`));
  mark.setAttribute("viewBox", "0 10 100 120");
  mark.classList.add("chip-mark");
  span.append(String(card.value), mark, `±${card.spread}`);
  span.style.setProperty("--chip", color);
  return true;
}
