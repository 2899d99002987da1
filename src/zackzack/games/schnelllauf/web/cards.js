// @ts-check
// Schnelllauf's cards (French: "Qd", "10s"; "*" a joker) as js/cards.js draws, names and
// calls them; and whether one fits on a pile.

import { corners, face, INK } from "../../js/art.js";
import { t } from "../../js/i18n.js";

/** @type {Record<string, {glyph: string, red: boolean}>} */
const SUITS = {
  h: { glyph: "♥", red: true }, d: { glyph: "♦", red: true },
  c: { glyph: "♣", red: false }, s: { glyph: "♠", red: false },
};
const RANKS = ["*", "A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"];
const RED = "#c42a2a";

// The lobby's fan of cards shows these, between the other games' (js/lobby.js).
export const HERO = ["*", "Kh"];

/**
 * A French card: a joker (rank 0), or its rank (1…13), rank name and suit letter.
 * @typedef {{joker: true, rank: number, name?: undefined, suit?: undefined}
 *   | {joker: false, rank: number, name: string, suit: string}} FrCard
 */

/** @param {string | null | undefined} text @returns {FrCard | null} */
export function parseFr(text) {
  if (text === "*") return { joker: true, rank: 0 };
  const m = /^(A|[2-9]|10|J|Q|K)([cdhs])$/.exec(text ?? "");
  if (!m) return null;
  return { joker: false, rank: RANKS.indexOf(m[1]), name: m[1], suit: m[2] };
}

// Whether `card` may go on a pile whose top stands for `stands` (null: free): one rank up or
// down, the ace next to the king when `wrap`; a joker fits everywhere.
/**
 * @param {string | null | undefined} card @param {unknown} started
 * @param {number[] | null | undefined} stands
 */
export function slFits(card, started, stands, wrap = true) {
  const c = parseFr(card);
  if (!c || !started) return false;
  if (c.joker || stands == null) return true;
  return stands.some((s) => Math.abs(c.rank - s) === 1 || (wrap && Math.abs(c.rank - s) === 12));
}

// The value a card is called by: its rank's name, a star for a joker.
/** @param {string} text */
export function callOf(text) {
  const card = parseFr(text);
  return card?.joker ? "★" : card?.name ?? "";
}

// A card in words, for labels and the screen reader: "7 of hearts" / "Herz 7".
/** @param {string} text */
export function cardName(text) {
  const card = parseFr(text);
  if (!card) return "";
  if (card.joker) return "Joker";
  return t("board_card_fr", { rank: t(`board_rank_${card.name}`), suit: t(`board_suit_${card.suit}`) });
}

/** @param {FrCard} card */
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

// A face: its markup and its label; null for no card.
/** @param {string} text */
export function art(text) {
  const card = parseFr(text);
  if (!card) return null;
  return { markup: frSvg(card), label: card.joker ? "Joker" : `${card.name}${SUITS[card.suit].glyph}` };
}

// A chip for sentences, "Q♦" in red, filled into `span`; false for no card.
/** @param {HTMLElement} span @param {string} text */
export function chip(span, text) {
  const card = parseFr(text);
  if (!card) return false;
  if (card.joker) {
    span.classList.add("joker");
    span.textContent = "★ Joker";
  } else {
    span.textContent = `${card.name}${SUITS[card.suit].glyph}`;
    if (SUITS[card.suit].red) span.classList.add("red");
  }
  return true;
}
