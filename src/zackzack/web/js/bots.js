// @ts-check
// Bots and seats as people read them: the levels and strategies the server seats (from its
// welcome, so a new strategy needs no change here), a bot's name in the reader's language, a
// stored match's seat by name.

import { has, t } from "./i18n.js";
import { net } from "./net.js";

// The bots the server seats (welcome.bots): levels weakest first, strategies default first.
/** @type {string[]} */
export const LEVELS = ["beginner", "normal", "pro", "machine"];
/** @type {string[]} */
export const STRATEGIES = [];
net.on("welcome", (msg) => {
  if (Array.isArray(msg.bots?.levels) && msg.bots.levels.length) LEVELS.splice(0, LEVELS.length, ...msg.bots.levels);
  if (Array.isArray(msg.bots?.strategies)) STRATEGIES.splice(0, STRATEGIES.length, ...msg.bots.strategies);
});

/** @param {string} name */
export function strategyName(name) {
  return has(`strategy_${name}`) ? t(`strategy_${name}`) : name;
}

// A bot's name in the reader's language: "Bot 2 · Profi" (the seat number tells bots apart).
/** @param {string | null | undefined} spec @param {number | null} [seat] */
export function botLabel(spec, seat = null) {
  const [level, strategy] = String(spec ?? "").split(":");
  const name = seat === null ? "Bot" : `Bot ${seat + 1}`;
  if (level === "tutor") return t("learn_tutor"); // a tutorial's opponent (js/learn.js)
  if (!LEVELS.includes(level)) return `${name} · ${spec}`;
  return `${name} · ${t(`level_${level}`)}${strategy ? ` · ${strategyName(strategy)}` : ""}`;
}

// A seat of a stored match (GET /api/matches): a bot by its level, a deleted player neutrally.
/** @typedef {{seat: number, name?: string | null, bot?: string | null, deleted?: boolean}} MatchSeat */

/** @param {MatchSeat} player */
export function playerName(player) {
  if (player.bot) return botLabel(player.bot, player.seat);
  if (player.deleted) return t("deleted_player");
  return player.name || t("seat", { n: player.seat + 1 });
}
