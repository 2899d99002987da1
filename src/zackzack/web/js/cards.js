// @ts-check
// Card art as SVG, drawn from the card's notation by its game's own web/cards.js (found
// through /api/games: js/games.js), on what js/art.js shares: the face, the back, the element.
// A game's own modules import js/art.js and their ./cards.js instead of this module (this one
// imports js/games.js, whose top-level await imports them: tests/server/test_webpage.py).

import * as art from "./art.js";
import { part } from "./games.js";

/** @param {string} game */
const arts = (game) => part(game, "cards");

// The value a card is called by ("7" for 7±2, "Q" for Qh, "★" for a joker).
/** @param {string} game @param {string} text @returns {string | number} */
export function callOf(game, text) {
  return arts(game)?.callOf(text) ?? "";
}

// A card in words, for labels and the screen reader: "6 ±2", "7 of hearts" / "Herz 7".
/** @param {string} game @param {string} text @returns {string} */
export function cardName(game, text) {
  return arts(game)?.cardName(text) ?? "";
}

// A card element: <div class="card"> with its SVG; `text` null or undefined is a face-down card.
/** @param {string} game @param {string | null | undefined} text */
export function cardEl(game, text) {
  return art.cardEl(arts(game), text);
}

/** @param {HTMLElement} el @param {string} game @param {string | null | undefined} text */
export function setCard(el, game, text) {
  return art.setCard(el, arts(game), text);
}

// A small inline chip for sentences: "7±2" with its spread's marker, "Q♦" in red.
/** @param {string} game @param {string} text */
export function chip(game, text) {
  return art.chip(arts(game), text);
}
