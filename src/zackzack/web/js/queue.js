// @ts-check
// Matchmaking: "Find an opponent" puts the player in the server's queue for a game and a
// number of players (`seek`); the server pairs people of close rating, widening the window
// while they wait, and shows them the new rated table (a `table` message: the app goes
// there). After a minute alone the server offers a bot of the player's level (`queue.bot`),
// which is an ordinary unrated table against bots. Esc or the button leaves (`unseek`).

import { h } from "./dom.js";
import { waited } from "./format.js";
import { GAMES } from "./games.js";
import { t } from "./i18n.js";
import { announce } from "./live.js";
import { net } from "./net.js";

// What the queue looks like to this tab: null (not seeking) or the latest `queue` message
// with the local time the seek began (the server's `since` is its own clock).
/** @type {{state: Protocol.Queue | null, startedAt: number, wanted: {game: string, players: number} | null}} */
export const queue = { state: null, startedAt: 0, wanted: null };
/** @typedef {"start" | "offer" | "tick" | "matched" | "left"} QueueChange */
/** @type {Set<(why: QueueChange) => void>} */
const listeners = new Set();

/** @param {(why: QueueChange) => void} fn */
export function onQueue(fn) {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

/** @param {QueueChange} why */
function changed(why) {
  for (const fn of [...listeners]) {
    try { fn(why); } catch (error) { console.error(error); }
  }
}

/** @param {string} game @param {number} players */
export function seek(game, players) {
  queue.wanted = { game, players };
  if (!net.send({ type: "seek", game, players })) return false;
  queue.startedAt = Date.now();
  return true;
}

export function unseek() {
  if (!queue.state && !queue.wanted) return false;
  net.send({ type: "unseek" });
  return true;
}

net.on("queue", (msg) => {
  if (msg.game == null) return;
  const fresh = !queue.state;
  const offered = !queue.state?.bot && msg.bot;
  if (fresh && !queue.startedAt) queue.startedAt = Date.now();
  queue.state = msg;
  if (fresh) announce(t("queue_started", { game: GAMES[msg.game]?.title ?? msg.game, n: msg.players }));
  if (offered) announce(t("queue_offer_said", { level: t(`level_${msg.bot}`) }));
  changed(fresh ? "start" : offered ? "offer" : "tick");
});

net.on("unqueued", (msg) => {
  const was = queue.state;
  queue.state = null;
  queue.wanted = null;
  queue.startedAt = 0;
  if (was) announce(t(msg.reason === "matched" ? "queue_matched" : "queue_left"));
  changed(msg.reason === "matched" ? "matched" : "left");
});

// A new connection starts outside every queue (the server forgets a seek with its session).
net.on("welcome", () => {
  if (!queue.state && !queue.wanted) return;
  queue.state = null;
  queue.wanted = null;
  queue.startedAt = 0;
  changed("left");
});

// The create message for the queue's offer: the player and bots of `level`, unrated.
/** @param {string} game @param {number} players @param {string} level @returns {Protocol.Create} */
export function botOffer(game, players, level) {
  /** @type {Protocol.SeatSpec[]} */
  const seats = [{ kind: "open" }, ...Array.from({ length: Math.max(1, players - 1) }, () => /** @type {Protocol.SeatSpec} */ ({ kind: "bot", bot: level }))];
  return { type: "create", game, options: {}, seats, private: false };
}

// The waiting part of the lobby's panel: the state in words and figures, leave, the offer.
/**
 * @param {{title: (game: string) => string,
 *   onOffer: (game: string, players: number, level: string) => void}} how
 * @returns {HTMLElement & {tick: () => void}}
 */
export function queueBox({ title, onOffer }) {
  const s = queue.state;
  const wanted = /** @type {{game: string, players: number}} */ (s ?? queue.wanted); // shown while seeking
  const time = h("dd", { class: "queue-time", text: waited(Date.now() - queue.startedAt) });
  const box = h("div", { class: "queue-state", id: "queue-state", dataset: { state: s?.bot ? "offer" : "seeking" } },
    h("p", { class: "queue-what" },
      h("span", { class: "spinner", "aria-hidden": "true" }),
      t("queue_seeking", { game: title(wanted.game), n: wanted.players })),
    h("dl", { class: "queue-figures" },
      h("div", {}, h("dt", { text: t("queue_waited") }), time),
      h("div", {}, h("dt", { text: t("queue_window") }),
        h("dd", { class: "queue-window", text: s ? `± ${s.window}` : "…" })),
      h("div", {}, h("dt", { text: t("queue_waiting") }),
        h("dd", { class: "queue-count", text: s ? String(s.waiting) : "…" }))),
    h("div", { class: "wait-actions" },
      h("button", {
        class: "btn", type: "button", id: "unseek", "aria-keyshortcuts": "Escape",
        onclick: () => unseek(),
      }, t("queue_leave"), " ", h("kbd", { text: "Esc" }))),
    s?.bot ? h("div", { class: "queue-offer" },
      h("p", { text: t("queue_offer", { level: t(`level_${s.bot}`) }) }),
      h("button", {
        class: "btn btn-gold", type: "button", id: "bot-offer",
        onclick: () => onOffer(wanted.game, wanted.players, /** @type {string} */ (s.bot)),
      }, t("queue_offer_button", { level: t(`level_${s.bot}`) }))) : null);
  box.tick = () => { time.textContent = waited(Date.now() - queue.startedAt); };
  return box;
}
