// @ts-check
// Schnelllauf's own events as sentences, asked first by js/describe.js (as describe.py asks the
// folder's describe.py): `say(key, seat, fields)` fills the catalogue's sentence, `card` makes
// a chip. Null: not one of this game's events.

/** The words of a round's scores: the cards each holds. */
export const SCORES = "scores_sl";

/**
 * @param {any} event
 * @param {{say: (key: string, seat?: number, fields?: Record<string, unknown>) => (string | Node)[],
 *   card: (text: string) => Node}} tools
 * @returns {(string | Node)[] | null}
 */
export function describe(event, { say, card }) {
  /** @param {(string | Node)[]} line */
  const revealing = (line) =>
    event.revealed ? [...line, ...say("turns_up", event.seat, { card: card(event.revealed) })] : line;
  switch (event.type) {
    case "played":
      return revealing(say("played_on", event.seat, { card: card(event.card), pile: event.pile + 1 }));
    case "moved":
      return revealing(say("moved", event.seat, { card: card(event.card), target: event.target + 1 }));
    case "flipped": {
      /** @type {(string | Node)[]} */
      const shown = event.cards.filter(Boolean).map(card);
      const list = shown.flatMap((c, i) => (i ? [", ", c] : [c]));
      return say("flipped", undefined, { cards: list.length ? list : ["–"] });
    }
    case "reshuffled": return say("reshuffled", undefined);
    default: return null;
  }
}
