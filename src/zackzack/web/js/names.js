// @ts-check
// Names: asking someone who came by a link what to call them, and renaming (in the waiting
// room, in the lobby). A name the player chose is remembered (zz.name, and zz.named that
// they were asked); the server's "Gast 1234" is no chosen name.

import { h, store } from "./dom.js";
import { t } from "./i18n.js";
import { net } from "./net.js";

const MAX = 24;
const GUEST = /^Gast \d{4}$/;

// Whether to ask for a name: none chosen, and never asked before.
export function needsName() {
  const name = store("zz.name") ?? "";
  return !store("zz.named") && (!name.trim() || GUEST.test(name));
}

// Call the player `name` from now on: the server tells every waiting table where they sit.
// A connection that is not open says it in its next hello.
/** @param {unknown} name */
export function rename(name) {
  const clean = String(name).split(/\s+/).filter(Boolean).join(" ").slice(0, MAX);
  if (!clean) return false;
  store("zz.name", clean);
  store("zz.named", "1");
  net.emit("renamed", { name: clean }); // the header shows the new name at once (issue 30)
  // Between a hello and its welcome nothing can be sent: say it as soon as the welcome is in
  // (before a `create` waiting for the same welcome, which is registered after this).
  if (!net.send({ type: "rename", name: clean })) {
    const off = net.on("welcome", () => { off(); net.send({ type: "rename", name: store("zz.name") ?? clean }); });
  }
  return true;
}

/** @type {Promise<string | null> | null} */
let open = null;

// Ask for a name in a small dialog; resolves with the new name, or null (kept as it is).
/** @param {{title?: string, current?: string}} [options] @returns {Promise<string | null>} */
export function askName({ title = t("name_ask_title"), current = "" } = {}) {
  if (open) return open;
  const input = h("input", {
    id: "name-ask", class: "name-input", name: "name", maxlength: String(MAX), required: true,
    autocomplete: "nickname", placeholder: t("name_placeholder"),
    value: GUEST.test(current) ? "" : current,
  });
  const guest = store("zz.name") ?? "";
  const form = h("form", { method: "dialog", class: "name-form" },
    h("h2", { id: "name-ask-title", text: title }),
    h("label", { class: "name-field", for: "name-ask" }, h("span", { text: t("your_name") })),
    input,
    h("p", { class: "hint", text: t("name_hint") }),
    h("div", { class: "wait-actions" },
      h("button", { class: "btn btn-gold", type: "submit", id: "name-ok", value: "ok", text: t("name_ok") }),
      h("button", {
        class: "btn", type: "submit", id: "name-skip", value: "skip", formnovalidate: true,
        text: GUEST.test(guest) && !current ? t("name_skip_as", { name: guest }) : t("name_cancel"),
      })));
  const dialog = h("dialog", { class: "name-dialog", "aria-labelledby": "name-ask-title" }, form);
  document.body.append(dialog);
  open = new Promise((resolve) => {
    dialog.addEventListener("close", () => {
      const chosen = dialog.returnValue === "ok" && rename(input.value) ? store("zz.name") ?? null : null;
      if (!chosen && !current) store("zz.named", "1"); // asked once: a link never asks again
      dialog.remove();
      open = null;
      resolve(chosen);
    }, { once: true });
  });
  dialog.showModal();
  input.focus();
  return open;
}
