// @ts-check
// What a screen reader is told without being asked: the page's two live regions (index.html)
// and the only two ways to write to them. The policy (docs/web.md, "Accessibility"):
//
// - `announce(text)`: the one polite region, #live. Game news a player needs and cannot
//   see: the new top card, the start, a freeze, the end of a round, a countdown that began,
//   a toast's note. Sentences that come within a moment are said together; in a rush only
//   the newest few are kept (stale news of a fast game is worth nothing).
// - `interrupt(text)`: the one assertive region, #alert, for what must cut in now: the
//   start countdown ("3", "2", "1", "los!") and one's own freeze after a wrong card.
//
// Nothing else on a page is live: the feed is a list to read, the countdown bar and the
// frozen ring are pictures of what these two say once.

const GATHER_MS = 200;
const KEEP = 3;

/** @type {string[]} */
let queue = [];
/** @type {ReturnType<typeof setTimeout> | 0} */
let timer = 0;

/** @param {unknown} text */
export function announce(text) {
  const sentence = String(text ?? "").trim();
  if (!sentence) return;
  if (queue[queue.length - 1] !== sentence) queue.push(sentence);
  if (!timer) timer = setTimeout(flush, GATHER_MS);
}

/** @param {unknown} text */
export function interrupt(text) {
  const sentence = String(text ?? "").trim();
  if (sentence) write("alert", sentence);
}

function flush() {
  timer = 0;
  const lines = queue.slice(-KEEP);
  queue = [];
  write("live", lines.join(" "));
}

// The same words twice in a row are a change too (a second freeze, a second "1 card"):
// a no-break space at the end makes the text differ, so it is said again.
/** @param {string} id @param {string} text */
function write(id, text) {
  const region = document.getElementById(id);
  if (!region) return;
  region.textContent = region.textContent === text ? `${text}\u00a0` : text;
}
