// @ts-check
// The account: a guest claims a name with a password, signs in on another device, renames,
// signs out (here or everywhere) and deletes the account. The HTTP API (docs/protocol.md)
// takes the private token as `Authorization: Bearer`; a sign-in or sign-out changes the
// token net.js keeps, and the websocket says hello again as that player.

import { $, append, h, store } from "./dom.js";
import { apiError, errorNode } from "./errors.js";
import { icon } from "./icons.js";
import { onLang, t } from "./i18n.js";
import { announce } from "./live.js";
import { net } from "./net.js";
import { profileHref } from "./rating.js";

export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 128;
const NAME_MAX = 24;

// What the account API answers (the fields the page reads).
/** @typedef {{name?: string, claimed?: boolean, token?: string}} AccountAnswer */
/** @typedef {{code: string, reason: string, retry_after?: number | null}} ApiRefusal */
// The fields of an account form, by their names.
/** @typedef {Record<string, string>} FormFields */

// A request to the account API with the token; resolves with the JSON, throws {code, reason}.
/** @param {string} path @param {{method?: string, body?: unknown}} [init] @returns {Promise<any>} */
export async function request(path, { method = "GET", body } = {}) {
  /** @type {Record<string, string>} */
  const headers = { Accept: "application/json" };
  if (net.token) headers.Authorization = `Bearer ${net.token}`;
  if (body !== undefined) headers["Content-Type"] = "application/json";
  let response;
  try {
    response = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  } catch (error) {
    throw { code: "network", reason: String(/** @type {Error} */ (error)?.message ?? error) };
  }
  if (!response.ok) {
    const retry = Number(response.headers.get("Retry-After"));
    const error = await apiError(response.clone());
    const data = await response.json().catch(() => ({}));
    error.retry_after = Number.isFinite(data.retry_after) ? data.retry_after : Number.isFinite(retry) && retry ? retry : null;
    throw error;
  }
  return response.json().catch(() => ({}));
}

// Rename a claimed player (names of claimed players are unique: the server checks).
/** @param {string} name @returns {Promise<AccountAnswer>} */
export async function renameClaimed(name) {
  const answer = await request("/api/account/rename", { method: "POST", body: { name } });
  known(answer);
  return answer;
}

// The same player, now called `name` (claimed or not): the server has told every table;
// the header and the dialog follow.
/** @param {AccountAnswer} answer */
function known(answer) {
  if (answer.name) {
    store("zz.name", answer.name);
    store("zz.named", "1");
  }
  if (typeof answer.claimed === "boolean") net.claimed = answer.claimed;
  net.emit("account", answer);
}

// Say hello again (as the same token or another one) so that the server's session, the
// header and every page know the new name and account.
/** @param {string | null} token @param {string | null} [name] */
function comeBack(token, name) {
  if (name) store("zz.named", "1");
  net.become(token, name);
}

// The header's button ------------------------------------------------------------------

export function headerButton() {
  const button = h("button", {
    class: "tool account-tool", id: "account-toggle", type: "button",
    "aria-haspopup": "dialog", "aria-keyshortcuts": "Shift+A",
    onclick: () => openAccount(),
  });
  const draw = () => {
    const name = net.name || "…";
    button.replaceChildren();
    append(button, [icon("user"), h("span", { class: "account-name", text: name }),
      net.claimed ? icon("lock") : null]);
    button.dataset.claimed = String(net.claimed);
    const label = t(net.claimed ? "account_button_claimed" : "account_button_guest", { name });
    button.setAttribute("aria-label", label);
    button.title = `${label} (⇧ A)`;
  };
  net.on("welcome", draw);
  net.on("account", draw);
  net.on("renamed", draw); // a chosen name replaces "Gast 1234" at once, not at the next welcome
  net.on("status", draw);
  onLang(draw);
  draw();
  return button;
}

// The dialog ----------------------------------------------------------------------------

/** @type {HTMLDialogElement | null} */
let dialog = null;
/** @type {string | null} */
let notice = null; // a sentence to show at the top once (after a sign-out, a claim)

export function openAccount() {
  if (dialog?.open) return dialog.close();
  const box = dialog = $("#account") ?? document.body.appendChild(h("dialog", {
    class: "help account-dialog", id: "account", "aria-labelledby": "account-title",
  }));
  render();
  box.showModal();
  $("input:not([type=hidden]), button.first", box)?.focus();
}

// Drawn again when the player changes (a welcome) or the language does.
function redraw() {
  if (!dialog?.open) return;
  const had = notice;
  render();
  // The focused control is gone with the old content: the news (or the status) takes it.
  if (had || !dialog.contains(document.activeElement)) $(".account-notice, .account-status", dialog)?.focus();
}
net.on("welcome", redraw);
net.on("account", redraw);
onLang(redraw);

function render() {
  if (!dialog) return;
  const box = dialog;
  const claimed = net.claimed;
  const name = net.name;
  box.replaceChildren();
  append(box, [
    h("h2", { id: "account-title", text: t("account_title") }),
    notice ? h("p", { class: "account-notice", tabindex: "-1", text: notice }) : null,
    h("p", { class: "account-status", tabindex: "-1", dataset: { claimed: String(claimed) } },
      icon(claimed ? "lock" : "user"), " ",
      t(claimed ? "account_claimed_as" : "account_guest_as", { name })),
    claimed
      ? [h("p", {}, h("a", { href: profileHref(name, net.player), "data-link": "", id: "account-profile",
        onclick: () => box.close() }, t("account_profile"))), renameForm(name), signOutPart(), deletePart()]
      : [h("p", { class: "hint", text: t("account_guest_hint") }), claimForm(name), signInForm()],
    h("form", { method: "dialog", class: "account-close" },
      h("button", { class: "btn", id: "account-close", text: t("close") }))]);
  notice = null;
}

// A password field with a show / hide switch (aria-pressed), 8–128 characters.
/** @param {string} id @param {string} autocomplete */
function passwordField(id, autocomplete) {
  const input = h("input", {
    id, name: "password", type: "password", required: true, autocomplete,
    minlength: String(PASSWORD_MIN), maxlength: String(PASSWORD_MAX),
    "aria-describedby": `${id}-hint`,
  });
  const toggle = h("button", {
    type: "button", class: "btn btn-small password-show", "aria-pressed": "false", "aria-controls": id,
    text: t("password_show"),
    onclick: () => {
      const shown = input.type === "password";
      input.type = shown ? "text" : "password";
      toggle.setAttribute("aria-pressed", String(shown));
      input.focus();
    },
  });
  return h("div", { class: "account-field" },
    h("label", { for: id, text: t("password") }),
    h("div", { class: "password-row" }, input, toggle),
    h("small", { class: "hint", id: `${id}-hint`, text: t("password_hint", { min: PASSWORD_MIN, max: PASSWORD_MAX }) }));
}

/** @param {string} id @param {string | null} value @param {string} [autocomplete] */
function nameField(id, value, autocomplete = "username") {
  return h("div", { class: "account-field" },
    h("label", { for: id, text: t("your_name") }),
    h("input", { id, name: "name", required: true, maxlength: String(NAME_MAX), autocomplete, value: value ?? "" }));
}

// A form that posts to the API and shows the refusal beside itself (role=alert).
/**
 * @param {string} id @param {string} title @param {unknown[]} fields @param {string} submit
 * @param {(data: FormFields) => Promise<void>} send
 */
function apiForm(id, title, fields, submit, send) {
  const error = h("div", { class: "create-error account-error", role: "alert" });
  const button = h("button", { class: "btn btn-gold", type: "submit", text: submit });
  const form = h("form", { class: "account-form", id, "aria-labelledby": `${id}-title`, novalidate: true },
    h("h3", { id: `${id}-title`, text: title }), fields, button, error);
  form.addEventListener("submit", async (/** @type {SubmitEvent} */ e) => {
    e.preventDefault();
    /** @type {FormFields} */
    const data = Object.fromEntries([...new FormData(form)].map(([key, value]) => [key, String(value)]));
    const local = check(data);
    error.replaceChildren();
    if (local) {
      error.replaceChildren(h("p", { class: "error-text", dataset: { code: "local" } },
        h("span", { class: "error-sentence", text: local })));
      return;
    }
    button.disabled = true;
    try {
      await send(data);
    } catch (caught) {
      const refusal = /** @type {ApiRefusal} */ (caught);
      error.replaceChildren(errorNode(refusal));
      if (refusal?.retry_after) {
        error.append(h("p", { class: "hint", text: t("account_retry_after", { s: Math.ceil(refusal.retry_after) }) }));
      }
    } finally {
      button.disabled = false;
    }
  });
  return form;
}

// What the browser can say before asking the server: an empty name, a password too short.
/** @param {FormFields} data */
function check(data) {
  if ("name" in data && !String(data.name).trim()) return t("account_name_missing");
  if ("password" in data) {
    const n = [...String(data.password)].length;
    if (n < PASSWORD_MIN || n > PASSWORD_MAX) return t("password_length", { min: PASSWORD_MIN, max: PASSWORD_MAX });
  }
  return null;
}

/** @param {string} name */
function claimForm(name) {
  return apiForm("claim", t("account_claim"), [
    nameField("claim-name", /^Gast \d{4}$/.test(name) ? "" : name),
    passwordField("claim-password", "new-password"),
  ], t("account_claim_button"), async ({ name: wanted, password }) => {
    const answer = await request("/api/account/claim", { method: "POST", body: { name: wanted.trim(), password } });
    notice = t("account_claimed_done", { name: answer.name });
    announce(notice);
    known({ claimed: true, ...answer });
  });
}

function signInForm() {
  return apiForm("sign-in", t("account_sign_in"), [
    h("p", { class: "hint", text: t("account_sign_in_hint") }),
    nameField("sign-in-name", ""),
    passwordField("sign-in-password", "current-password"),
  ], t("account_sign_in_button"), async ({ name, password }) => {
    const answer = await request("/api/account/sign-in", { method: "POST", body: { name: name.trim(), password } });
    notice = t("account_signed_in", { name: answer.name });
    announce(notice);
    comeBack(answer.token, answer.name);
  });
}

/** @param {string} name */
function renameForm(name) {
  return apiForm("account-rename", t("name_change"), [
    nameField("rename-name", name, "nickname"),
    h("p", { class: "hint", text: t("account_rename_hint") }),
  ], t("account_rename_button"), async ({ name: wanted }) => {
    const answer = await renameClaimed(wanted.trim());
    notice = t("account_renamed", { name: answer.name ?? wanted.trim() });
    announce(notice);
  });
}

function signOutPart() {
  const error = h("div", { class: "create-error account-error", role: "alert" });
  const out = (/** @type {boolean} */ everywhere) => async () => {
    try {
      await request("/api/account/sign-out", { method: "POST", body: { everywhere } });
    } catch (refusal) {
      error.replaceChildren(errorNode(/** @type {ApiRefusal} */ (refusal)));
      return;
    }
    notice = t(everywhere ? "account_signed_out_everywhere" : "account_signed_out");
    announce(notice);
    comeBack(null, null); // a fresh guest from now on
  };
  return h("section", { class: "account-form", "aria-labelledby": "sign-out-title" },
    h("h3", { id: "sign-out-title", text: t("account_sign_out") }),
    h("p", { class: "hint", text: t("account_sign_out_hint") }),
    h("div", { class: "account-buttons" },
      h("button", { class: "btn", type: "button", id: "sign-out", text: t("account_sign_out"), onclick: out(false) }),
      h("button", { class: "btn", type: "button", id: "sign-out-everywhere", text: t("account_sign_out_everywhere"), onclick: out(true) })),
    error);
}

function deletePart() {
  const form = apiForm("account-delete", t("account_delete"), [
    h("p", { class: "account-warning", text: t("account_delete_what") }),
    passwordField("delete-password", "current-password"),
  ], t("account_delete_button"), async ({ password }) => {
    await request("/api/account/delete", { method: "POST", body: { password } });
    notice = t("account_deleted");
    announce(notice);
    comeBack(null, null);
  });
  return h("details", { class: "account-delete" }, h("summary", { text: t("account_delete") }), form);
}
