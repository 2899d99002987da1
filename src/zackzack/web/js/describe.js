// Events as sentences (mirrors zackzack/describe.py), with cards as little chips.
// `who(seat)` names a seat; the reader's own seat gets the "you" form of the sentence.

import { chip } from "./cards.js";
import { parts, seconds } from "./i18n.js";

export function describe(event, { game, who, me = null, now = 0 }) {
  const card = (text) => chip(game, text);
  const you = (seat) => seat === me && me !== null;
  const say = (key, seat, fields) => parts(you(seat) ? `${key}_you` : key, { who: who(seat), ...fields });
  switch (event.type) {
    case "played": {
      if (event.pile !== undefined) {
        const line = say("ev_played_on", event.seat, { card: card(event.card), pile: event.pile + 1 });
        return event.revealed ? [...line, ...parts("ev_turns_up", { card: card(event.revealed) })] : line;
      }
      return say("ev_played", event.seat, { card: card(event.card), value: String(event.card).split("±")[0] });
    }
    case "moved": {
      const line = say("ev_moved", event.seat, { card: card(event.card), target: event.target + 1 });
      return event.revealed ? [...line, ...parts("ev_turns_up", { card: card(event.revealed) })] : line;
    }
    case "drew":
      if (!event.card) return parts("ev_drew", { who: who(event.seat), left: event.left });
      return you(event.seat)
        ? parts("ev_drew_own", { card: card(event.card), left: event.left })
        : parts("ev_drew_seen", { who: who(event.seat), card: card(event.card), left: event.left });
    case "went_out": return say("ev_went_out", event.seat, {});
    case "rotated": return parts("ev_rotated", { card: card(event.card) });
    case "flipped": {
      const shown = event.cards.filter(Boolean).map(card);
      const list = shown.flatMap((c, i) => (i ? [", ", c] : [c]));
      return parts("ev_flipped", { cards: list.length ? list : ["–"] });
    }
    case "reshuffled": return parts("ev_reshuffled");
    case "announced": {
      const key = ["rotate", "end_round", "flip", "reshuffle"].includes(event.step)
        ? `ev_ann_${event.step}` : "ev_ann_other";
      return parts(key, { s: seconds(event.due - now), step: event.step });
    }
    case "cancelled": return parts("ev_cancelled");
    case "penalised": return say("ev_penalised", event.seat, { s: seconds(event.until - now) });
    case "starting": return parts("ev_starting");
    case "paused": return parts("ev_paused");
    case "resuming": return parts("ev_resuming", { s: seconds(event.in_ms) });
    case "resumed": return parts("ev_resumed");
    case "round_started": return parts("ev_round_started", { n: event.number });
    case "round_scored": return roundLine(event.result, who, you);
    case "next_round": return parts("ev_next_round", { n: event.number, s: seconds(event.at - now) });
    case "match_ended": {
      const list = event.result.placings.map((p) => `${p.place}. ${who(p.seat)} (${p.score})`);
      return parts("ev_match_ended", { placings: list.join(", ") });
    }
    default: return [];
  }
}

function roundLine(result, who, you) {
  const n = result.number;
  const line = result.winner === null
    ? parts("ev_round_drawn", { n })
    : parts(you(result.winner) ? "ev_round_won_you" : "ev_round_won", { n, who: who(result.winner) });
  const scores = result.scores.map((score, seat) => `${who(seat)} ${score}`).join(", ");
  const key = ["went_out", "nichts_geht_mehr"].includes(result.reason) ? "ev_scores_us" : "ev_scores_sl";
  return [...line, ...parts(key, { scores })];
}
