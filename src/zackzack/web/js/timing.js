// @ts-check
// How long one's own card takes: from the press to the card shown on the pile (pending, the
// boards show it at once) and from the press to the table's answer (the `ack`, which the
// server may hold for the farthest seat's lag credit, docs/fairness.md). Kept for the tests
// and the curious: `window.zackzack.timing` (js/app.js), `summary()` gives the medians.

const KEEP = 200;

/**
 * @typedef {{game: string, action: string | object, at: number, shown_ms: number | null,
 *   decided_ms: number | null, ok: boolean | null, code: string | null}} Play
 */

/** @type {Play[]} */
export const plays = []; // {game, action, shown_ms, decided_ms, ok, code}, oldest first

// A press at `at` (an event's timeStamp, performance.now() time; else now) of `action`.
/** @param {string} game @param {string | object} action @param {number | undefined} at @returns {Play} */
export function pressed(game, action, at) {
  const now = performance.now();
  const record = {
    game, action, at: at !== undefined && Number.isFinite(at) && at <= now && at > now - 5000 ? at : now,
    shown_ms: null, decided_ms: null, ok: null, code: null,
  };
  plays.push(record);
  if (plays.length > KEEP) plays.splice(0, plays.length - KEEP);
  return record;
}

// The pending card is in the page: it is on screen with the next frame.
/** @param {Play} record */
export function shown(record) {
  requestAnimationFrame(() => { record.shown_ms = performance.now() - record.at; });
}

/** @param {Play} record @param {{ok: boolean, code?: string | null}} ack */
export function decided(record, ack) {
  record.decided_ms = performance.now() - record.at;
  record.ok = Boolean(ack.ok);
  record.code = ack.ok ? null : ack.code ?? null;
}

/** @param {(number | null)[]} values */
function median(values) {
  const sorted = /** @type {number[]} */ (values.filter(Number.isFinite)).sort((a, b) => a - b);
  if (!sorted.length) return null;
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

// The medians in ms of press → shown and press → decided, over the plays so far.
export function summary() {
  return {
    n: plays.length,
    shown_p50: median(plays.map((p) => p.shown_ms)),
    decided_p50: median(plays.map((p) => p.decided_ms)),
  };
}

export function reset() {
  plays.length = 0;
}
