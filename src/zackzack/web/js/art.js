// @ts-check
// What every game's card art shares (js/cards.js draws a card by its game's web/cards.js): the
// face and its corners, the spreads' markers, the back, and the SVG element a face becomes.
// Only parsed numbers and known symbols reach the markup, never raw text.

const NS = "http://www.w3.org/2000/svg";
export const INK = "#2a2019";

/** @param {string} shape @param {number} cx @param {number} cy @param {number} r @param {string} attrs */
export function marker(shape, cx, cy, r, attrs) {
  if (shape === "circle") return `<circle cx="${cx}" cy="${cy}" r="${r}" ${attrs}/>`;
  if (shape === "diamond") {
    const d = r * 1.18;
    return `<polygon points="${cx},${cy - d} ${cx + d * 0.82},${cy} ${cx},${cy + d} ` +
      `${cx - d * 0.82},${cy}" ${attrs}/>`;
  }
  const t = r * 1.3;
  return `<polygon points="${cx},${cy - t} ${cx + t * 0.95},${cy + t * 0.68} ` +
    `${cx - t * 0.95},${cy + t * 0.68}" stroke-linejoin="round" ${attrs}/>`;
}

/** @param {string} inner @param {string} [frame] */
export function face(inner, frame = "#cdbd9c") {
  return `<rect x="1.5" y="1.5" width="97" height="137" rx="9" fill="url(#face-sheen)" ` +
    `stroke="${frame}" stroke-width="2"/>` + inner;
}

/** @param {string} content */
export function corners(content) {
  return `<g>${content}</g><g transform="rotate(180 50 70)">${content}</g>`;
}

export function backSvg() {
  return `<rect x="1.5" y="1.5" width="97" height="137" rx="9" fill="#fbf4e4" ` +
    `stroke="#cdbd9c" stroke-width="2"/>` +
    `<rect x="7" y="7" width="86" height="126" rx="6" fill="url(#back-lattice)"/>` +
    `<ellipse cx="50" cy="70" rx="22" ry="30" fill="#fbf4e4"/>` +
    `<use href="#bolt" x="38" y="52" width="24" height="36" fill="#c9302c"/>`;
}

// A card element: <div class="card"> with its SVG, drawn by `arts` (a game's web/cards.js
// module: its `art`); `text` null or undefined is a face-down card. js/cards.js finds `arts` by
// the game's name; a game's own modules pass their ./cards.js (they never import js/cards.js).
/**
 * A game's web/cards.js module, as far as the shared art reads it.
 * @typedef {{art(text: string): {markup: string, label: string, data?: Record<string, unknown>} | null,
 *   chip(span: HTMLElement, text: string): boolean}} Arts
 */

/** @param {Arts | null | undefined} arts @param {string | null | undefined} text */
export function cardEl(arts, text) {
  const el = document.createElement("div");
  el.className = "card";
  setCard(el, arts, text);
  return el;
}

/** @param {HTMLElement} el @param {Arts | null | undefined} arts @param {string | null | undefined} text */
export function setCard(el, arts, text) {
  if (el.dataset.card === (text ?? "")) return el;
  el.dataset.card = text ?? "";
  const found = text ? arts?.art(text) : null;
  if (found) Object.assign(el.dataset, found.data ?? {});
  el.classList.toggle("back", !found?.label);
  el.replaceChildren(svg(found?.markup ?? backSvg(), found?.label ?? ""));
  return el;
}

// A small inline chip for sentences: "7±2" with its spread's marker, "Q♦" in red.
/** @param {Arts | null | undefined} arts @param {string} text @returns {Node} */
export function chip(arts, text) {
  const span = document.createElement("span");
  span.className = "chip";
  return arts?.chip(span, text) ? span : document.createTextNode(String(text));
}

// A face's figures are drawn, not written: each <text> goes into the card's own <defs> and is
// drawn by a <use>. So a card has no text of its own, and its words are its label alone (a
// card button's name, "6 ±2 spielen, Taste 1", need not contain "66±2" read off its corners).
let glyphId = 0;

/** @param {string} markup */
function drawnText(markup) {
  /** @type {string[]} */
  const defs = [];
  const body = markup.replace(/<text\b([^>]*)>([^<]*)<\/text>/g, (_, /** @type {string} */ attrs, /** @type {string} */ text) => {
    const id = `zz-glyph-${++glyphId}`;
    defs.push(`<text id="${id}"${attrs}>${text}</text>`);
    const kind = /class="(\w+)"/.exec(attrs);
    return `<use href="#${id}" class="glyph${kind ? ` ${kind[1]}` : ""}"/>`; // styled by cards.css
  });
  return defs.length ? `<defs>${defs.join("")}</defs>${body}` : body;
}

/** @param {string} markup @param {string} [label] */
export function svg(markup, label) {
  const el = document.createElementNS(NS, "svg");
  el.setAttribute("viewBox", "0 0 100 140");
  // A face has a name; a back (and a chip's mark beside its words) is only a picture.
  if (label) {
    el.setAttribute("role", "img");
    el.setAttribute("aria-label", label);
  } else {
    el.setAttribute("aria-hidden", "true");
  }
  el.innerHTML = drawnText(markup);
  return el;
}
