// @ts-check
// Events as sentences, with cards as little chips: the catalogue's "events" templates, the
// very ones zackzack/words/describe.py fills (here under "ev_" + key), chosen the same way.
// `who(seat)` names a seat; the reader's own seat gets the key's "_you" form where it has one.
// A game says its own events in its folder's web/describe.js (`describe`, and `SCORES`, the
// key of a round's scores), asked first, as describe.py asks the folder's describe.py.

import { chip } from "./cards.js";
import { part } from "./games.js";
import { has, parts, seconds } from "./i18n.js";

const ANNOUNCED = ["rotate", "end_round", "flip", "reshuffle"];

/** @typedef {(string | Node)[]} Line */
/** @typedef {(key: string, seat?: number, fields?: Record<string, unknown>) => Line} Say */

/**
 * `penaltyMs`: the table's freeze for a wrong card; a `penalised` line says it as the rules
 * do ("1 s"), not what was left of it when the event came ("0.9 s").
 * @param {any} event
 * @param {{game: string, who: (seat: number) => string, me?: number | null, now?: number,
 *   penaltyMs?: number | null}} context
 * @returns {Line}
 */
export function describe(event, { game, who, me = null, now = 0, penaltyMs = null }) {
  /** @param {string} text */
  const card = (text) => chip(game, text);
  /** @param {number | undefined} seat */
  const you = (seat) => seat === me && me !== null;
  /** @type {Say} */
  const say = (key, seat, fields = {}) => {
    const own = you(seat) && has(`ev_${key}_you`);
    return parts(own ? `ev_${key}_you` : `ev_${key}`, seat === undefined ? fields : { who: who(seat), ...fields });
  };
  // A game's own events are said by its own keys, "<game>.<kind>" (and "_you"), with the
  // event's fields and `who` for its seat, as describe.py does: a new game brings sentences and
  // no code here (zackzack/words). Its cards (the field `card`) show as chips.
  const own = `${game}.${event.type}`;
  if (has(`ev_${own}`)) {
    const fields = Object.fromEntries(Object.entries(event).map(([name, value]) =>
      [name, name === "card" && value != null ? card(value)
        : Array.isArray(value) ? value.join(", ") : value]));
    return say(own, event.seat ?? undefined, fields);
  }
  const said = part(game, "describe")?.describe?.(event, { say, card });
  if (said) return said;
  switch (event.type) {
    case "announced": {
      const key = ANNOUNCED.includes(event.step) ? `ann_${event.step}` : "ann_other";
      return say(key, undefined, { s: seconds(event.due - now), step: event.step });
    }
    case "penalised":
      return say("penalised", event.seat, { s: seconds(penaltyMs ?? event.until - now) });
    case "resuming": return say("resuming", undefined, { s: seconds(event.in_ms) });
    case "round_started": return say("round_started", undefined, { n: event.number });
    case "round_scored": return roundLine(event.result, say, who, part(game, "describe")?.SCORES ?? "scores");
    case "next_round": return say("next_round", undefined, { n: event.number, s: seconds(event.at - now) });
    case "match_ended": {
      /** @type {string[]} */
      const list = event.result.placings.map((/** @type {{place: number, seat: number, score: number}} */ p) =>
        `${p.place}. ${who(p.seat)} (${p.score})`);
      return say("match_ended", undefined, { placings: list.join(", ") });
    }
    case "cancelled": case "starting": case "paused": case "resumed":
      return say(event.type, undefined);
    default: return [];
  }
}

/**
 * @param {{number: number, winner: number | null, scores: number[]}} result
 * @param {Say} say @param {(seat: number) => string} who @param {string} key
 * @returns {Line}
 */
function roundLine(result, say, who, key) {
  const n = result.number;
  const line = result.winner === null
    ? say("round_drawn", undefined, { n })
    : say("round_won", result.winner, { n });
  const scores = result.scores.map((score, seat) => `${who(seat)} ${score}`).join(", ");
  return [...line, ...say(key, undefined, { scores })];
}
