// @ts-check
// A rating as people read it: the shown number, with "?" while it is provisional (few rated
// matches, or a long pause). The "?" is a mark for the eye; a screen reader hears the word.

import { h } from "./dom.js";
import { t } from "./i18n.js";

// "1040" or "1040?" (for tooltips and plain text).
/** @param {number | null | undefined} rating @param {boolean | null | undefined} provisional */
export function ratingText(rating, provisional) {
  if (rating === null || rating === undefined) return "–";
  return `${rating}${provisional ? "?" : ""}`;
}

// The number, the "?" hidden from the tree and said as "(provisional)" instead.
/** @param {number | null | undefined} rating @param {boolean | null | undefined} provisional @param {{cls?: string}} [options] @returns {HTMLElement} */
export function ratingNode(rating, provisional, { cls = "rating" } = {}) {
  if (rating === null || rating === undefined) return h("span", { class: `${cls} none`, text: "–" });
  return h("span", { class: `${cls}${provisional ? " provisional" : ""}`, title: provisional ? t("rating_provisional") : null },
    h("span", { class: "rating-n", text: rating }),
    provisional ? h("span", { class: "rating-q", "aria-hidden": "true", text: "?" }) : null,
    provisional ? h("span", { class: "sr-only", text: ` (${t("rating_provisional")})` }) : null);
}

// A player's page: by name (a claimed name) or by public id.
/** @param {string | null | undefined} name @param {string | null} [player] */
export function profileHref(name, player) {
  return `/players/${encodeURIComponent(name || player || "")}`;
}
