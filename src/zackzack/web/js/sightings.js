// @ts-check
// When each pile version came on screen, to name the version a key press aimed at.
//
// A person who presses a key 0.2 s after the pile changed was answering the card before:
// if theirs fitted that one, they were too late, not wrong (RULES.md, the race). So a card's
// `seen` is the version of its pile that was on screen `reaction_ms` (from `welcome`) before
// the press; if the page has shown the pile for less than that this round, the first version
// it showed. One's own card on top one knows at once: that version counts as seen
// `reaction_ms` earlier. The same rule as the terminal client's `Sightings` (tui/board.py).
//
// "On screen" is the first frame that shows the version (`paint`): a view message is handled
// in a task that may end tens of milliseconds later on a busy machine, and the frame comes
// after it; noting the version when the message is processed would start the window early
// (issue 30). Another player's card flies in for 260 ms; the window counts from the fly-in's
// first frame, when the new face is on screen (docs/web.md).

const KEEP = 64; // versions per pile: far more than change within a reaction window

export class Sightings {
  // `reaction()`: the reaction time in ms now; `shown(versions)`: tells the server the page
  // shows the piles at `versions` (a `shown` message); `clock()`: performance.now() or a
  // test's clock.
  /**
   * @param {() => number} reaction
   * @param {(versions: number[]) => void} [shown]
   * @param {() => number} [clock]
   */
  constructor(reaction, shown = () => {}, clock = () => performance.now()) {
    this.reaction = reaction;
    this.tell = shown;
    this.clock = clock;
    /** @type {[number, number, boolean][][]} */
    this.shown = []; // per pile: [[version, shownAt, own], ...], oldest first
    /** @type {number | null} */
    this.round = null;
  }

  // The piles now on screen are at `versions` in `round` (a new round starts the record
  // afresh: versions start again); `own`: the piles one's own card just changed.
  // `at`: when they came on screen (default now).
  /**
   * @param {number[]} versions
   * @param {{round?: number | null, own?: Set<number>, at?: number}} [options]
   */
  note(versions, { round = null, own = new Set(), at = this.clock() } = {}) {
    const now = at;
    if (this.shown.length !== versions.length || (round !== null && round !== this.round)) {
      this.shown = versions.map(() => []);
    }
    if (round !== null) this.round = round;
    versions.forEach((version, pile) => {
      const history = this.shown[pile];
      const last = history[history.length - 1];
      if (last && version < last[0]) history.length = 0;
      if (!history.length || history[history.length - 1][0] !== version) {
        history.push([version, own.has(pile) ? now - this.reaction() : now, own.has(pile)]);
        if (history.length > KEEP) history.splice(0, history.length - KEEP);
      }
    });
  }

  // The piles are in the page at `versions` now: one's own card counts at once, every other
  // change at the first frame that shows it (the time in the frame's callback, after the task
  // that drew it). A press before that frame still aims at what was on screen.
  /** @param {number[]} versions @param {{round?: number | null, own?: Set<number>}} [options] */
  paint(versions, { round = null, own = new Set() } = {}) {
    const now = versions.map((version, pile) => (own.has(pile) ? version : this.latest(pile) ?? version));
    const fresh = round !== null && round !== this.round;
    this.note(fresh ? versions : now, { round, own });
    if (versions.every((version, pile) => now[pile] === version) && !fresh) return;
    frame(() => {
      // Meanwhile a new round, or one's own card, may have been noted: never go back.
      if (round !== null && round !== this.round) return;
      const shown = versions.map((version, pile) => Math.max(version, this.latest(pile) ?? version));
      this.note(shown, { round });
      // The server starts the reaction window from this word when the page took longer to
      // draw than the wire took (docs/fairness.md, at most 150 ms later).
      this.tell(shown);
    });
  }

  // The newest version of `pile` noted, or null.
  /** @param {number} pile @returns {number | null} */
  latest(pile) {
    const history = this.shown[pile];
    return history?.length ? history[history.length - 1][0] : null;
  }

  // How long before `at` (a press time) version `version` of `pile` came on screen, in ms;
  // null when unknown, not on screen yet, or made by one's own card.
  /** @param {number} pile @param {number} version @param {number} [at] */
  age(pile, version, at = this.clock()) {
    const entry = (this.shown[pile] ?? []).find(([v]) => v === version);
    if (!entry || entry[2]) return null;
    const age = pressTime(at, this.clock()) - entry[1];
    return age >= 0 ? age : null;
  }

  // The newest version of `pile` on screen `reaction` ms before `at` (a press time on the
  // performance.now() clock), never newer than `current`.
  /** @param {number} pile @param {number} current @param {number} [at] */
  aimed(pile, current, at = this.clock()) {
    const history = this.shown[pile] ?? [];
    const cutoff = pressTime(at, this.clock()) - this.reaction();
    let seen = null;
    for (const [version, shownAt] of history) {
      if (shownAt <= cutoff && version <= current) seen = version;
    }
    if (seen !== null) return seen;
    return history.length ? Math.min(history[0][0], current) : current;
  }
}

// `fn` in the next frame (before its paint: the page's changes so far are in that frame).
/** @param {() => void} fn */
function frame(fn) {
  if (typeof requestAnimationFrame === "function" && document.visibilityState !== "hidden") {
    requestAnimationFrame(() => fn());
  } else {
    setTimeout(fn, 0);
  }
}

// An event's timeStamp when it is a sane time on the same clock, else now.
/** @param {number} at @param {number} now */
function pressTime(at, now) {
  return Number.isFinite(at) && at <= now && at > now - 5000 ? at : now;
}
