// @ts-check
// Events as sentences, with cards as little chips: the catalogue's "events" templates, the
// very ones zackzack/describe.py fills (here under "ev_" + key), chosen the same way.
// `who(seat)` names a seat; the reader's own seat gets the key's "_you" form where it has one.

import { chip } from "./cards.js";
import { has, parts, seconds } from "./i18n.js";

const ANNOUNCED = ["rotate", "end_round", "flip", "reshuffle"];
const MINUS_POINTS = ["went_out", "nichts_geht_mehr"];

// `penaltyMs`: the table's freeze for a wrong card; a `penalised` line says it as the rules
// do ("1 s"), not what was left of it when the event came ("0.9 s").
export function describe(event, { game, who, me = null, now = 0, penaltyMs = null }) {
  const card = (text) => chip(game, text);
  const you = (seat) => seat === me && me !== null;
  const say = (key, seat, fields = {}) => {
    const own = you(seat) && has(`ev_${key}_you`);
    return parts(own ? `ev_${key}_you` : `ev_${key}`, seat === undefined ? fields : { who: who(seat), ...fields });
  };
  const revealing = (line, seat, revealed) =>
    revealed ? [...line, ...say("turns_up", seat, { card: card(revealed) })] : line;
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
  switch (event.type) {
    case "played":
      if (event.pile !== undefined && event.pile !== null) {
        const line = say("played_on", event.seat, { card: card(event.card), pile: event.pile + 1 });
        return revealing(line, event.seat, event.revealed);
      }
      return say("played", event.seat, { card: card(event.card), value: String(event.card).split("±")[0] });
    case "moved":
      return revealing(say("moved", event.seat, { card: card(event.card), target: event.target + 1 }),
        event.seat, event.revealed);
    case "drew":
      return event.card
        ? say("drew_own", event.seat, { card: card(event.card), left: event.left })
        : say("drew", event.seat, { left: event.left });
    case "went_out": return say("went_out", event.seat);
    case "rotated": return say("rotated", undefined, { card: card(event.card) });
    case "flipped": {
      const shown = event.cards.filter(Boolean).map(card);
      const list = shown.flatMap((c, i) => (i ? [", ", c] : [c]));
      return say("flipped", undefined, { cards: list.length ? list : ["–"] });
    }
    case "announced": {
      const key = ANNOUNCED.includes(event.step) ? `ann_${event.step}` : "ann_other";
      return say(key, undefined, { s: seconds(event.due - now), step: event.step });
    }
    case "penalised":
      return say("penalised", event.seat, { s: seconds(penaltyMs ?? event.until - now) });
    case "resuming": return say("resuming", undefined, { s: seconds(event.in_ms) });
    case "round_started": return say("round_started", undefined, { n: event.number });
    case "round_scored": return roundLine(event.result, say, who);
    case "next_round": return say("next_round", undefined, { n: event.number, s: seconds(event.at - now) });
    case "match_ended": {
      const list = event.result.placings.map((p) => `${p.place}. ${who(p.seat)} (${p.score})`);
      return say("match_ended", undefined, { placings: list.join(", ") });
    }
    case "reshuffled": case "cancelled": case "starting": case "paused": case "resumed":
      return say(event.type, undefined);
    default: return [];
  }
}

function roundLine(result, say, who) {
  const n = result.number;
  const line = result.winner === null
    ? say("round_drawn", undefined, { n })
    : say("round_won", result.winner, { n });
  const scores = result.scores.map((score, seat) => `${who(seat)} ${score}`).join(", ");
  const key = MINUS_POINTS.includes(result.reason) ? "scores_us" : "scores_sl";
  return [...line, ...say(key, undefined, { scores })];
}
