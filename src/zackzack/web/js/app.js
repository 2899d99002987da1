// The single-page app: routes (/, /t/CODE, /matches, /matches/ID), the header's
// switches (language, speech, help), toasts and the keyboard.

import { $, h, store } from "./dom.js";
import { icon } from "./icons.js";
import { lang, onLang, setLang, t, translateStatic } from "./i18n.js";
import * as lobby from "./lobby.js";
import { net } from "./net.js";
import * as replay from "./replay.js";
import { onSpeaking, setSpeaking, speaking, supported } from "./speech.js";
import * as table from "./table.js";

const root = $("#app");
let page = null;
let pendingCreate = null;

const app = {
  myTables: [],

  go(path, params = {}) {
    history.pushState({}, "", path);
    route(params);
  },

  // Change the address without a new page (the table moved: a rematch, a created table).
  replace(path) {
    history.replaceState({}, "", path);
  },

  rename(name) {
    // The server learns a new name on the next hello: reconnect to say it now.
    net.ws?.close();
    store("zz.name", name);
  },

  createTable(message, { autostart }) {
    if (!store("zz.name")) {
      const input = $("#name");
      if (input?.value.trim()) this.rename(input.value.trim());
    }
    pendingCreate = { autostart };
    if (!net.send(message)) {
      const off = net.on("welcome", () => { off(); net.send(message); });
    }
  },

  // A table message arrived: a table we created shows its page; quick games start at once.
  onTable(tablePage) {
    if (pendingCreate?.autostart && tablePage.info.phase === "waiting"
        && tablePage.info.creator === net.player
        && tablePage.info.seats.every((s) => s.kind !== "open")) {
      net.send({ type: "start" });
    }
    pendingCreate = null;
  },

  toast(text) {
    const el = h("div", { class: "toast", role: "status", text });
    $("#toasts").append(el);
    setTimeout(() => el.classList.add("out"), 2600);
    setTimeout(() => el.remove(), 3000);
  },
};

function route(params = {}) {
  page?.unmount();
  page = null;
  const path = location.pathname;
  let m;
  document.body.dataset.page = "lobby";
  if ((m = /^\/t\/([A-Za-z0-9]+)\/?$/.exec(path))) {
    document.body.dataset.page = "table";
    page = table.mount(root, app, { code: m[1], ...params });
  } else if ((m = /^\/matches\/([\w-]+)\/?$/.exec(path))) {
    document.body.dataset.page = "match";
    page = replay.mountMatch(root, app, { id: m[1] });
  } else if (/^\/matches\/?$/.test(path)) {
    document.body.dataset.page = "matches";
    page = replay.mountList(root, app);
  } else {
    document.title = "zackzack";
    page = lobby.mount(root, app);
  }
  for (const a of document.querySelectorAll(".bar-nav a")) {
    a.classList.toggle("active", a.getAttribute("href") === (path.startsWith("/matches") ? "/matches" : "/"));
  }
  window.scrollTo(0, 0);
}

// A created table comes back as a `table` message: show its page.
net.on("table", (msg) => {
  if (document.body.dataset.page !== "table") {
    history.pushState({}, "", `/t/${msg.table.code}`);
    route();
    net.emit("table", msg); // the new page missed this one
  }
});
net.on("welcome", (msg) => { app.myTables = msg.tables ?? []; });
net.on("status", (status) => {
  const el = $("#conn");
  el.dataset.state = status;
  el.textContent = t(`conn_${status}`);
});

// Header switches -------------------------------------------------------------------------

function renderChrome() {
  translateStatic();
  document.documentElement.lang = lang;
  const langButton = $("#lang-toggle");
  const other = lang === "de" ? "en" : "de";
  langButton.textContent = other.toUpperCase();
  langButton.lang = other;
  langButton.title = other === "en" ? "English" : "Deutsch";
  langButton.setAttribute("aria-label", langButton.title);
  const speech = $("#speech-toggle");
  speech.hidden = !supported;
  speech.replaceChildren(icon(speaking() ? "speaker" : "mute"));
  speech.title = speaking() ? t("speech_on") : t("speech_off");
  speech.setAttribute("aria-pressed", String(speaking()));
  $("#help-toggle").title = t("help");
  $("#conn").textContent = t(`conn_${net.status}`);
}

$("#lang-toggle").addEventListener("click", () => setLang(lang === "de" ? "en" : "de"));
$("#speech-toggle").addEventListener("click", () => setSpeaking(!speaking()));
$("#help-toggle").addEventListener("click", () => toggleHelp());
onLang(renderChrome);
onSpeaking(renderChrome);

function toggleHelp() {
  const dialog = $("#help");
  if (dialog.open) return dialog.close();
  const rows = [
    ...(page?.helpKeys?.() ?? []),
    ["?", t("keys_help")],
    ["Esc", t("keys_escape")],
  ];
  $("#help-body").replaceChildren(
    h("h2", { text: t("keys_title") }),
    h("dl", { class: "keys" }, rows.map(([keys, what]) => [
      h("dt", {}, keys.split(/\s{3}/).map((k) => h("kbd", { text: k }))),
      h("dd", { text: what }),
    ])),
    h("p", { class: "hint", text: t("help_mouse") }));
  dialog.showModal();
}

// Links inside the app navigate without reloading.
document.addEventListener("click", (e) => {
  const a = e.target.closest("a[data-link]");
  if (!a || e.ctrlKey || e.metaKey || e.shiftKey || e.button) return;
  e.preventDefault();
  if (a.getAttribute("href") !== location.pathname) app.go(a.getAttribute("href"));
});
window.addEventListener("popstate", () => route());

document.addEventListener("keydown", (e) => {
  if (e.ctrlKey || e.metaKey || e.altKey) return;
  if (e.target.closest?.("input, select, textarea")) return;
  // A focused button or link does its own thing on Enter and Space (never twice).
  if ((e.key === "Enter" || e.key === " ") && e.target.closest?.("button, a, summary")) return;
  if ($("#help").open) return;
  if (e.key === "?") {
    e.preventDefault();
    toggleHelp();
    return;
  }
  if (page?.key?.(e)) e.preventDefault();
});

// Come back fast when the tab returns or the network does.
document.addEventListener("visibilitychange", () => { if (!document.hidden) net.nudge(); });
window.addEventListener("online", () => net.nudge());

renderChrome();
net.start();
route();
window.zackzack = { app, net }; // for the end-to-end tests and the curious
