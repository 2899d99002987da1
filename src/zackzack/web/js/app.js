// @ts-check
// The single-page app: routes (/, /t/CODE, /arenas/ID, /matches, /matches/ID), the header's
// switches (language, speech, help), toasts and the keyboard.

import { $, h, store } from "./dom.js";
import { errorText } from "./errors.js";
import { GAME_LIST, GAMES, LEARN_GAMES } from "./games.js";
import { icon } from "./icons.js";
import { lang, onLang, setLang, t, translateStatic } from "./i18n.js";
import { announce } from "./live.js";
import { headerButton, openAccount } from "./account.js";
import * as arena from "./arena.js";
import * as leaderboard from "./leaderboard.js";
import * as learn from "./learn.js";
import * as lobby from "./lobby.js";
import * as moderation from "./moderation.js";
import { rename } from "./names.js";
import { net } from "./net.js";
import * as profile from "./profile.js";
import * as replay from "./replay.js";
import * as rules from "./rules.js";
import * as sound from "./sound.js";
import { onSpeaking, setSpeaking, speaking, supported } from "./speech.js";
import * as table from "./table.js";
import * as timing from "./timing.js";

const root = $("#app");
// The page on screen; the help names the game it shows (`game`, or a table's `info.game`).
/** @type {(Page & {game?: unknown, info?: {game: string} | null}) | null} */
let page = null;
/** @type {{autostart: boolean} | null} */
let pendingCreate = null;

/** @type {App} */
const app = {
  myTables: [],
  arenaTables: {},

  go(path, params = {}) {
    history.pushState({}, "", path);
    route(params, true);
  },

  // Change the address without a new page (the table moved: a rematch, a created table).
  replace(path) {
    history.replaceState({}, "", path);
  },

  rename(name) {
    rename(name); // said at once (a `rename` message), or in the next hello
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

  // A short note. The same text while it still shows is one note with a count ("×3") that
  // stays a little longer, not a stack: keys racing the round's end would pile them up.
  // `detail` (the server's English reason) is a tooltip, never part of the sentence.
  toast(text, detail = "") {
    const box = $("#toasts");
    /** @type {any} */
    let el = [...box.children].find((e) => e.dataset.text === text && !e.classList.contains("out"));
    if (el) {
      const n = Number(el.dataset.count) + 1;
      el.dataset.count = n;
      el.querySelector(".toast-count").textContent = `×${n}`;
      el.classList.remove("again");
      void el.offsetWidth; // restart the little bump
      el.classList.add("again");
      clearTimeout(el.fade);
      clearTimeout(el.gone);
    } else {
      // Not a live region of its own: the words go to the one polite region (js/live.js).
      el = h("div", { class: "toast", dataset: { text, count: 1 } },
        h("span", { class: "toast-text", text }), " ", h("b", { class: "toast-count" }));
      box.append(el);
    }
    if (detail) el.title = detail;
    announce(text);
    el.fade = setTimeout(() => el.classList.add("out"), 2600);
    el.gone = setTimeout(() => el.remove(), 3000);
  },
};

// `moved`: a navigation inside the app (a link, back and forward, a created table), after
// which the focus goes to the new page (`focusPage`); the first page keeps the browser's own.
/** @param {Record<string, unknown>} [params] */
function route(params = {}, moved = false) {
  const focused = document.activeElement;
  page?.unmount();
  page = null;
  const path = location.pathname;
  let m;
  document.body.dataset.page = "lobby";
  if ((m = /^\/t\/([A-Za-z0-9]+)\/?$/.exec(path))) {
    document.body.dataset.page = "table";
    page = table.mount(root, app, { code: m[1], ...params });
  } else if ((m = /^\/arenas\/([A-Za-z0-9]+)\/?$/.exec(path))) {
    document.body.dataset.page = "arena";
    page = arena.mount(root, app, { id: m[1] });
  } else if ((m = /^\/matches\/([\w-]+)\/?$/.exec(path))) {
    document.body.dataset.page = "match";
    page = replay.mountMatch(root, app, { id: m[1] });
  } else if (/^\/matches\/?$/.test(path)) {
    document.body.dataset.page = "matches";
    page = replay.mountList(root);
  } else if ((m = /^\/leaderboard(?:\/([\w-]+))?\/?$/.exec(path))) {
    document.body.dataset.page = "leaderboard";
    page = leaderboard.mount(root, app, { game: m[1] ?? GAME_LIST[0]?.name });
  } else if ((m = /^\/players\/([^/]+)\/?$/.exec(path))) {
    document.body.dataset.page = "profile";
    let name = m[1];
    try { name = decodeURIComponent(name); } catch { /* keep it as it came */ }
    page = profile.mount(root, app, { name });
  } else if (/^\/moderation\/?$/.test(path)) {
    document.body.dataset.page = "moderation"; // the operators' page (js/moderation.js)
    page = moderation.mount(root, app);
  } else if ((m = /^\/(rules|learn)\/([\w-]+)\/?$/.exec(path)) && LEARN_GAMES.includes(m[2])) {
    document.body.dataset.page = m[1]; // the rules of a game, or its tutorial (js/learn.js)
    page = (m[1] === "rules" ? rules : learn).mount(root, app, { game: m[2] });
  } else {
    document.title = "zackzack";
    page = lobby.mount(root, app);
  }
  const section = path.startsWith("/players/") ? null
    : ["/matches", "/leaderboard"].find((p) => path.startsWith(p)) ?? "/";
  for (const a of document.querySelectorAll(".bar-nav a")) {
    const here = a.getAttribute("href") === section;
    a.classList.toggle("active", here);
    if (here) a.setAttribute("aria-current", "page");
    else a.removeAttribute("aria-current");
  }
  window.scrollTo(0, 0);
  if (moved) focusPage(focused);
}

// After a navigation the focus starts at the top of the new page, as after a page load, so a
// keyboard or screen-reader user does not begin on the body (or on the old page's link): on
// the page's main heading, or on `main` while the page has none yet. A page that put the
// focus somewhere itself (a dead link's way back, a form field) keeps it. Pages draw their
// heading late or again (a table page when the table arrives, a list when its data does):
// for a little while, until the player presses or taps something, a focus we placed follows
// the heading, and one lost with a redrawn heading comes back.
/** @type {(() => void) | null} */
let settling = null;
/** @param {Element | null} before */
function focusPage(before) {
  settling?.();
  const now = document.activeElement;
  if (now && now !== document.body && now !== before && now.isConnected) return;
  const place = () => {
    const heading = /** @type {HTMLElement | null} */ (root.querySelector("h1"));
    const target = heading && heading.getClientRects().length ? heading : root;
    if (document.activeElement === target) return;
    if (target !== root) target.tabIndex = -1;
    target.focus({ preventScroll: true });
  };
  place();
  const observer = new MutationObserver(() => {
    const at = document.activeElement;
    if (!at || at === document.body || at === root || (at.tagName === "H1" && root.contains(at))) place();
    else stop();
  });
  observer.observe(root, { childList: true, subtree: true });
  const timer = setTimeout(() => stop(), 3000);
  const stop = () => {
    observer.disconnect();
    clearTimeout(timer);
    removeEventListener("keydown", stop, true);
    removeEventListener("pointerdown", stop, true);
    settling = null;
  };
  addEventListener("keydown", stop, true);
  addEventListener("pointerdown", stop, true);
  settling = stop;
}

// The server cannot store the game right now, or can again (docs/protocol.md, `notice`).
net.on("notice", (msg) => app.toast(errorText(msg)));

// A created table comes back as a `table` message: show its page.
net.on("table", (msg) => {
  if (document.body.dataset.page !== "table" && document.body.dataset.page !== "learn") {
    history.pushState({}, "", `/t/${msg.table.code}`);
    route({}, true);
    net.emit("table", msg); // the new page missed this one
  }
});
net.on("welcome", (msg) => { app.myTables = msg.tables ?? []; });
// Matched at a table on another server of the cluster: a `moved` follows instead of the
// table, and nothing on the lobby page asks for it there; once connected, open its page (it
// joins the table; docs/protocol.md, matchmaking).
/** @type {string | null} */
let matchedAt = null;
net.on("unqueued", (msg) => { matchedAt = msg.reason === "matched" ? msg.code ?? null : null; });
net.on("table", () => { matchedAt = null; });
net.on("welcome", () => {
  if (matchedAt === null || document.body.dataset.page === "table") return;
  const code = matchedAt;
  matchedAt = null;
  app.go(`/t/${code}`);
});
// An arena seats the player at a new table: its `table` message follows and opens it (or, in
// a cluster, a `moved` to its server, as after a match); the table remembers its arena for
// the way back.
net.on("arena_paired", (msg) => {
  app.arenaTables[msg.code] = msg.arena;
  matchedAt = msg.code;
  announce(t("arena_paired"));
});
/** @type {string | null} */
let said = null; // the state last said aloud: none before the first connection
net.on("status", (status) => {
  const el = $("#conn");
  // Said once when it changes after the first connection (offline, online again); a hop to
  // the table's server (`moved`: connecting, then open again) changes nothing to say.
  if (status !== "connecting" && (said !== null || status === "open")) {
    if (said !== null && said !== status) announce(t(`conn_${status}`));
    said = status;
  }
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
  // Named in the language it switches to, and the name starts with what it shows ("EN").
  langButton.title = t("a11y_lang_switch");
  langButton.setAttribute("aria-label", langButton.title);
  const speech = $("#speech-toggle");
  speech.hidden = !supported;
  // Like the sound switch: the name says what it does ("Ansagen vorlesen"), the tooltip says
  // the same, aria-pressed and the icon (a bubble with words, or slashed and dashed) whether
  // it is on; before, a muted speaker and "Ansagen stumm" looked like the sound's (issue 30).
  speech.replaceChildren(icon(speaking() ? "talk" : "talk_off"));
  speech.dataset.on = String(speaking());
  speech.title = t("a11y_speech");
  speech.setAttribute("aria-pressed", String(speaking()));
  speech.setAttribute("aria-label", t("a11y_speech"));
  $("#help-toggle").title = t("help");
  $("#help-toggle").setAttribute("aria-label", t("a11y_help_button", { help: t("help") }));
  $("#conn").textContent = t(`conn_${net.status}`);
}

$("#lang-toggle").addEventListener("click", () => setLang(lang === "de" ? "en" : "de"));
$("#speech-toggle").addEventListener("click", () => setSpeaking(!speaking()));
$("#help-toggle").addEventListener("click", () => toggleHelp());
onLang(renderChrome);
onSpeaking(renderChrome);
$("#speech-toggle").before(sound.controls()); // sound on / off and its volume (js/sound.js)
$("#help-toggle").after(headerButton()); // the account: name, claimed or guest (js/account.js)

function toggleHelp() {
  const dialog = $("#help");
  if (dialog.open) return dialog.close();
  /** @type {[string, string][]} */
  const rows = [
    ...(page?.helpKeys?.() ?? []),
    ["?", t("keys_help")],
    ["⇧ M", t("feel_keys_sound")],
    ["⇧ L", t("keys_lang")],
    ["⇧ A", t("keys_account")],
    ["Esc", t("keys_escape")],
  ];
  $("#help-body").replaceChildren(
    h("h2", { id: "help-title", text: t("keys_title") }),
    h("dl", { class: "keys" }, rows.map(([keys, what]) => [
      h("dt", {}, keys.split(/\s{3}/).map((k) => h("kbd", { text: k }))),
      h("dd", { text: what }),
    ])),
    h("p", { class: "hint", text: t("help_mouse") }),
    learnLinks(page?.info?.game ?? (typeof page?.game === "string" ? page.game : undefined)));
  dialog.showModal();
}

// The help's way to the rules and the tutorial: of the game on screen, else of both.
/** @param {string | undefined} game */
function learnLinks(game) {
  const close = () => $("#help").close();
  return h("div", { class: "help-learn" }, (game ? [game] : LEARN_GAMES).map((g) =>
    h("p", {},
      h("a", { href: `/rules/${g}`, "data-link": "", onclick: close },
        t("learn_help_rules", { game: GAMES[g].title })), " · ",
      h("a", { href: `/learn/${g}`, "data-link": "", onclick: close },
        t("learn_help_tutorial", { game: GAMES[g].title })))));
}

// Links inside the app navigate without reloading.
document.addEventListener("click", (e) => {
  const a = /** @type {Element} */ (e.target).closest("a[data-link]");
  if (!a || e.ctrlKey || e.metaKey || e.shiftKey || e.button) return;
  e.preventDefault();
  const href = a.getAttribute("href") ?? "/";
  if (href !== location.pathname + location.search) app.go(href);
});
window.addEventListener("popstate", () => route({}, true));
// The skip link focuses the page's content (a "#app" in the address would route again).
$("#skip").addEventListener("click", (/** @type {MouseEvent} */ e) => {
  e.preventDefault();
  root.focus();
});

document.addEventListener("keydown", (e) => {
  if (e.ctrlKey || e.metaKey || e.altKey) return;
  const target = /** @type {Element} */ (e.target);
  if (target.closest?.("input, select, textarea")) return;
  // A focused button or link does its own thing on Enter and Space (never twice).
  if ((e.key === "Enter" || e.key === " ") && target.closest?.("button, a, summary")) return;
  if ($("#help").open || document.querySelector("dialog[open]")) return;
  if (e.key === "?") {
    e.preventDefault();
    toggleHelp();
    return;
  }
  if (sound.key(e)) { // Shift+M: sound on / off
    e.preventDefault();
    return;
  }
  // Shift+L: every letter may be a card key at the table, so the language takes Shift.
  if (e.shiftKey && e.key.toLowerCase() === "l") {
    e.preventDefault();
    setLang(lang === "de" ? "en" : "de");
    return;
  }
  // Shift+A: the account (claim the name, sign in, sign out).
  if (e.shiftKey && e.key.toLowerCase() === "a") {
    e.preventDefault();
    openAccount();
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
window.zackzack.sound = sound; // js/sound.js: its `heard` lists the sounds played, the buzzes
window.zackzack.timing = timing; // js/timing.js: press → own card shown, press → answer
