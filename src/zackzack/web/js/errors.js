// @ts-check
// A refusal from the server in the reader's language. Every code the server can send has an
// `err_CODE` sentence (tests/server/test_error_codes.py checks); the server's own `reason` is
// English, so it is only ever a detail beside the sentence, never part of it.

import { h } from "./dom.js";
import { has, t } from "./i18n.js";

// A refusal as the server says it: an `error`, a refused `ack`, an API error ({code, reason}).
/** @typedef {{code?: string | null, reason?: string | null}} Refusal */

// The sentence for an `error`, a refused `ack` or an API error ({code, reason}).
/** @param {Refusal | null | undefined} msg */
export function errorText(msg) {
  const key = `err_${msg?.code}`;
  return has(key) ? t(key) : t("err_generic");
}

// The English detail: the server's reason, or at least the code of an unknown refusal.
/** @param {Refusal | null | undefined} msg */
export function errorDetail(msg) {
  const reason = String(msg?.reason ?? "").trim();
  if (reason) return reason;
  return has(`err_${msg?.code}`) ? "" : String(msg?.code ?? "");
}

// The sentence with the detail folded away under it (lang="en": it is English).
/** @param {Refusal | null | undefined} msg @param {{tag?: string, cls?: string}} [options] @returns {HTMLElement} */
export function errorNode(msg, { tag = "p", cls = "error-text" } = {}) {
  const detail = errorDetail(msg);
  return h(tag, { class: cls, dataset: { code: msg?.code ?? "" } },
    h("span", { class: "error-sentence", text: errorText(msg) }),
    detail ? h("details", { class: "error-detail" },
      h("summary", { text: t("err_detail") }),
      h("code", { lang: "en", text: detail })) : null);
}

// An API answer that is not OK, as {code, reason}: the JSON body's `error`, or the HTTP status.
/** @param {Response} response @returns {Promise<{code: string, reason: string, retry_after?: number | null}>} */
export async function apiError(response) {
  const data = await response.json().catch(() => ({}));
  return { code: typeof data.error === "string" ? data.error : "http",
    reason: data.reason ?? `${response.status} ${response.statusText}`.trim() };
}

// GET `url` as JSON; a failure throws {code, reason} (code "network": no answer at all, after
// asking twice more: a request the network dropped, as Chromium does with every request under
// way when an address of the machine changes, is only asked again).
/** @param {string} url @returns {Promise<any>} */
export async function getJson(url) {
  /** @type {Response | undefined} */
  let response;
  for (let tries = 1; !response; tries++) {
    try {
      response = await fetch(url, { headers: { Accept: "application/json" } });
    } catch (error) {
      if (tries >= 3) throw { code: "network", reason: String(/** @type {Error} */ (error)?.message ?? error) };
      await new Promise((resolve) => setTimeout(resolve, 300 * tries));
    }
  }
  if (!response.ok) throw await apiError(response);
  return response.json().catch((error) => { throw { code: "http", reason: String(error?.message) }; });
}
