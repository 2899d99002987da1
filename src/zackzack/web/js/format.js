// @ts-check
// Times and figures for people, in the reader's language: dates, a match's length, a wait,
// shares and decimals.

import { lang } from "./i18n.js";

// The locale of the reader's language, for dates and numbers.
export function locale() {
  return lang === "de" ? "de-DE" : "en-GB";
}

// "1:02" for 62 seconds.
/** @param {number} seconds */
export function minutes(seconds) {
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}`;
}

// A match's length, to the nearest second: "3:05".
/** @param {number | null | undefined} ms */
export function duration(ms) {
  return minutes(Math.round((ms ?? 0) / 1000));
}

// How long someone has waited, in whole seconds: "0:07".
/** @param {number} ms */
export function waited(ms) {
  return minutes(Math.max(0, Math.floor(ms / 1000)));
}

// A date: "1. Dez. 2026" / "1 Dec 2026"; "–" for none.
/** @param {number | null | undefined} ms */
export function day(ms) {
  if (!ms) return "–";
  return new Date(ms).toLocaleDateString(locale(), { dateStyle: "medium" });
}

// A match's date and time ("" when it has none).
/** @param {number | null | undefined} ms */
export function when(ms) {
  if (!ms) return "";
  return new Date(ms).toLocaleString(locale(), { dateStyle: "medium", timeStyle: "short" });
}

// A share as a whole percentage: "42 %"; "–" for none.
/** @param {number | null | undefined} x */
export function percent(x) {
  if (x == null || !Number.isFinite(x)) return "–";
  return `${Math.round(x * 100)} %`;
}

// A figure with `digits` decimals: "1,5" / "1.5"; "–" for none.
/** @param {number | null | undefined} x @param {number} [digits] */
export function decimal(x, digits = 1) {
  if (x == null || !Number.isFinite(x)) return "–";
  return x.toLocaleString(locale(), { maximumFractionDigits: digits, minimumFractionDigits: digits });
}
