// @ts-check
// Unter Spannung's own events as sentences, asked first by js/describe.js (as describe.py asks
// the folder's describe.py): `say(key, seat, fields)` fills the catalogue's sentence, `card`
// makes a chip. Null: not one of this game's events.

/** The words of a round's scores: minus points. */
export const SCORES = "scores_us";

/**
 * @param {any} event
 * @param {{say: (key: string, seat?: number, fields?: Record<string, unknown>) => (string | Node)[],
 *   card: (text: string) => Node}} tools
 * @returns {(string | Node)[] | null}
 */
export function describe(event, { say, card }) {
  switch (event.type) {
    case "played":
      return say("played", event.seat, { card: card(event.card), value: String(event.card).split("±")[0] });
    case "drew":
      return event.card
        ? say("drew_own", event.seat, { card: card(event.card), left: event.left })
        : say("drew", event.seat, { left: event.left });
    case "went_out": return say("went_out", event.seat);
    case "rotated": return say("rotated", undefined, { card: card(event.card) });
    default: return null;
  }
}
