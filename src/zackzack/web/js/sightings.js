// When each pile version came on screen, to name the version a key press aimed at.
//
// A person who presses a key 0.2 s after the pile changed was answering the card before:
// if theirs fitted that one, they were too late, not wrong (RULES.md, the race). So a card's
// `seen` is the version of its pile that was on screen `reaction_ms` (from `welcome`) before
// the press; if the page has shown the pile for less than that this round, the first version
// it showed. One's own card on top one knows at once: that version counts as seen
// `reaction_ms` earlier. The same rule as the terminal client's `Sightings` (tui/board.py).

const KEEP = 64; // versions per pile: far more than change within a reaction window

export class Sightings {
  // `reaction()`: the reaction time in ms now; `clock()`: performance.now() or a test's clock.
  constructor(reaction, clock = () => performance.now()) {
    this.reaction = reaction;
    this.clock = clock;
    this.shown = []; // per pile: [[version, shownAt], ...], oldest first
    this.round = null;
  }

  // The piles now on screen are at `versions` in `round` (a new round starts the record
  // afresh: versions start again); `own`: the piles one's own card just changed.
  note(versions, { round = null, own = new Set() } = {}) {
    const now = this.clock();
    if (this.shown.length !== versions.length || (round !== null && round !== this.round)) {
      this.shown = versions.map(() => []);
    }
    if (round !== null) this.round = round;
    versions.forEach((version, pile) => {
      const history = this.shown[pile];
      const last = history[history.length - 1];
      if (last && version < last[0]) history.length = 0;
      if (!history.length || history[history.length - 1][0] !== version) {
        history.push([version, own.has(pile) ? now - this.reaction() : now]);
        if (history.length > KEEP) history.splice(0, history.length - KEEP);
      }
    });
  }

  // The newest version of `pile` on screen `reaction` ms before `at` (a press time on the
  // performance.now() clock), never newer than `current`.
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

// An event's timeStamp when it is a sane time on the same clock, else now.
function pressTime(at, now) {
  return Number.isFinite(at) && at <= now && at > now - 5000 ? at : now;
}
