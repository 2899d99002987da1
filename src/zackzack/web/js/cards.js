// Card art as SVG, drawn from the card's notation: "7±2" (Unter Spannung), "Qd", "10s", "*"
// (Schnelllauf). Only parsed numbers and known symbols reach the markup, never raw text.

import { t } from "./i18n.js";

const NS = "http://www.w3.org/2000/svg";

// Each spread has its own colour AND its own shape, so nothing depends on colour alone.
export const SPREADS = {
  1: { color: "#1f6fb2", shape: "circle" },
  2: { color: "#d4660f", shape: "diamond" },
  3: { color: "#a8327e", shape: "triangle" },
};

const SUITS = {
  h: { glyph: "♥", red: true }, d: { glyph: "♦", red: true },
  c: { glyph: "♣", red: false }, s: { glyph: "♠", red: false },
};
const RANKS = ["*", "A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"];
const INK = "#2a2019";
const RED = "#c42a2a";

export function parseUs(text) {
  const m = /^(\d{1,2})±([123])$/.exec(text ?? "");
  if (!m || +m[1] < 1 || +m[1] > 10) return null;
  return { value: +m[1], spread: +m[2] };
}

export function parseFr(text) {
  if (text === "*") return { joker: true, rank: 0 };
  const m = /^(A|[2-9]|10|J|Q|K)([cdhs])$/.exec(text ?? "");
  if (!m) return null;
  return { joker: false, rank: RANKS.indexOf(m[1]), name: m[1], suit: m[2] };
}

// The value a card is called by: Unter Spannung's value, Schnelllauf's rank name.
export function callOf(game, text) {
  if (game === "unter-spannung") return parseUs(text)?.value ?? "";
  const card = parseFr(text);
  return card?.joker ? "★" : card?.name ?? "";
}

// A card in words, for labels and the screen reader: "6 ±2", "7 of hearts" / "Herz 7".
export function cardName(game, text) {
  if (game === "unter-spannung") {
    const card = parseUs(text);
    return card ? `${card.value} ±${card.spread}` : "";
  }
  const card = parseFr(text);
  if (!card) return "";
  if (card.joker) return "Joker";
  return t("board_card_fr", { rank: t(`board_rank_${card.name}`), suit: t(`board_suit_${card.suit}`) });
}

// Whether Unter Spannung's `card` may go on `top`: its value is top ± spread, wrapped into 1…10.
export function usFits(card, top) {
  const c = parseUs(card);
  const p = parseUs(top);
  if (!c || !p) return false;
  const wrap = (x) => ((x - 1 + 20) % 10) + 1;
  return c.value === wrap(p.value + p.spread) || c.value === wrap(p.value - p.spread);
}

// Whether Schnelllauf's `card` may go on a pile whose top stands for `stands` (null: free):
// one rank up or down, the ace next to the king when `wrap`; a joker fits everywhere.
export function slFits(card, started, stands, wrap = true) {
  const c = parseFr(card);
  if (!c || !started) return false;
  if (c.joker || stands == null) return true;
  return stands.some((s) => Math.abs(c.rank - s) === 1 || (wrap && Math.abs(c.rank - s) === 12));
}

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

function face(inner, frame = "#cdbd9c") {
  return `<rect x="1.5" y="1.5" width="97" height="137" rx="9" fill="url(#face-sheen)" ` +
    `stroke="${frame}" stroke-width="2"/>` + inner;
}

function corners(content) {
  return `<g>${content}</g><g transform="rotate(180 50 70)">${content}</g>`;
}

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

function frSvg(card) {
  if (card.joker) {
    const corner = `<text x="15" y="30" font-size="22" text-anchor="middle" ` +
      `fill="url(#joker-fill)">★</text>`;
    return face(corners(corner) +
      `<circle cx="50" cy="64" r="30" fill="#fdf1d6" stroke="url(#joker-fill)" stroke-width="3"/>` +
      `<path d="M50 38 L57 56 L76 57 L61 69 L66 88 L50 77 L34 88 L39 69 L24 57 L43 56 Z" ` +
      `fill="url(#joker-fill)"/>` +
      `<text x="50" y="114" class="cj" font-size="15" text-anchor="middle" fill="#6b3fa0" ` +
      `letter-spacing="2">JOKER</text>`, "#b58ad6");
  }
  const suit = SUITS[card.suit];
  const ink = suit.red ? RED : INK;
  const wide = card.name === "10";
  const corner = `<text x="15" y="31" class="cv" font-size="${wide ? 22 : 27}" ` +
    `text-anchor="middle" fill="${ink}">${card.name}</text>` +
    `<text x="15" y="53" font-size="21" text-anchor="middle" fill="${ink}">${suit.glyph}</text>`;
  const court = card.rank >= 11;
  const frame = court
    ? `<rect x="28" y="26" width="44" height="88" rx="5" fill="${suit.red ? "#fbe3df" : "#e6e4ef"}" ` +
      `stroke="${ink}" stroke-opacity=".5" stroke-width="1.5"/>`
    : "";
  return face(corners(corner) + frame +
    `<text x="50" y="${court ? 74 : 72}" class="cv" font-size="${wide ? 40 : 48}" ` +
    `text-anchor="middle" fill="${ink}">${card.name}</text>` +
    `<text x="50" y="106" font-size="34" text-anchor="middle" fill="${ink}">${suit.glyph}</text>`);
}

function backSvg() {
  return `<rect x="1.5" y="1.5" width="97" height="137" rx="9" fill="#fbf4e4" ` +
    `stroke="#cdbd9c" stroke-width="2"/>` +
    `<rect x="7" y="7" width="86" height="126" rx="6" fill="url(#back-lattice)"/>` +
    `<ellipse cx="50" cy="70" rx="22" ry="30" fill="#fbf4e4"/>` +
    `<use href="#bolt" x="38" y="52" width="24" height="36" fill="#c9302c"/>`;
}

// A face's figures are drawn, not written: each <text> goes into the card's own <defs> and is
// drawn by a <use>. So a card has no text of its own, and its words are its label alone (a
// card button's name, "6 ±2 spielen, Taste 1", need not contain "66±2" read off its corners).
let glyphId = 0;

function drawnText(markup) {
  const defs = [];
  const body = markup.replace(/<text\b([^>]*)>([^<]*)<\/text>/g, (_, attrs, text) => {
    const id = `zz-glyph-${++glyphId}`;
    defs.push(`<text id="${id}"${attrs}>${text}</text>`);
    const kind = /class="(\w+)"/.exec(attrs);
    return `<use href="#${id}" class="glyph${kind ? ` ${kind[1]}` : ""}"/>`; // styled by cards.css
  });
  return defs.length ? `<defs>${defs.join("")}</defs>${body}` : body;
}

function svg(markup, label) {
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

// A card element: <div class="card"> with its SVG; `text` null or undefined is a face-down card.
export function cardEl(game, text) {
  const el = document.createElement("div");
  el.className = "card";
  setCard(el, game, text);
  return el;
}

export function setCard(el, game, text) {
  if (el.dataset.card === (text ?? "")) return el;
  el.dataset.card = text ?? "";
  let markup = backSvg();
  let label = "";
  if (text) {
    if (game === "unter-spannung") {
      const card = parseUs(text);
      if (card) {
        markup = usSvg(card);
        label = text;
        el.dataset.spread = card.spread;
      }
    } else {
      const card = parseFr(text);
      if (card) {
        markup = frSvg(card);
        label = card.joker ? "Joker" : `${card.name}${SUITS[card.suit].glyph}`;
      }
    }
  }
  el.classList.toggle("back", !label);
  el.replaceChildren(svg(markup, label));
  return el;
}

// A small inline chip for sentences: "7±2" with its spread's marker, "Q♦" in red.
export function chip(game, text) {
  const span = document.createElement("span");
  span.className = "chip";
  if (game === "unter-spannung") {
    const card = parseUs(text);
    if (!card) return document.createTextNode(String(text));
    const { color, shape } = SPREADS[card.spread];
    const mark = svg(marker(shape, 50, 70, 40, `fill="${color}"`));
    mark.setAttribute("viewBox", "0 10 100 120");
    mark.classList.add("chip-mark");
    span.append(String(card.value), mark, `±${card.spread}`);
    span.style.setProperty("--chip", color);
    return span;
  }
  const card = parseFr(text);
  if (!card) return document.createTextNode(String(text));
  if (card.joker) {
    span.classList.add("joker");
    span.textContent = "★ Joker";
  } else {
    span.textContent = `${card.name}${SUITS[card.suit].glyph}`;
    if (SUITS[card.suit].red) span.classList.add("red");
  }
  return span;
}
