// What both games' boards share: player plates, stacks of face-down cards, little effects.

import { cardEl } from "./cards.js";
import { h, reducedMotion } from "./dom.js";
import { icon } from "./icons.js";
import { seconds, t } from "./i18n.js";

// A player's plate: avatar, name (always as text), connection, frozen timer, and `info`.
export function plate(seat) {
  return h("div", { class: "plate", dataset: { seat } },
    h("span", { class: "avatar", "aria-hidden": "true" }),
    h("span", { class: "plate-text" },
      h("span", { class: "plate-name" }),
      h("span", { class: "plate-info" }),
      h("span", { class: "plate-lag", hidden: true })),
    h("span", { class: "plate-frozen", "aria-hidden": "true" }, icon("snow"), h("span", { class: "plate-frozen-s" })));
}

export function updatePlate(el, seat, ctx) {
  const info = ctx.seatInfo(seat);
  const name = ctx.name(seat);
  el.querySelector(".plate-name").textContent = name;
  const avatar = el.querySelector(".avatar");
  const letter = info?.kind === "bot" ? "bot" : (name.trim()[0] ?? "?").toUpperCase();
  if (avatar.dataset.letter !== letter) {
    avatar.dataset.letter = letter;
    avatar.replaceChildren(letter === "bot" ? icon("bot") : letter);
  }
  el.classList.toggle("me", seat === ctx.me());
  el.classList.toggle("away", info?.kind === "human" && !info.connected);
  el.classList.toggle("bot", info?.kind === "bot");
  // Another person's slow connection, in words (their cards may come later than they play).
  const slow = info?.lag === "slow" && seat !== ctx.me();
  el.classList.toggle("slow", slow);
  const lag = el.querySelector(".plate-lag");
  if (lag) {
    lag.hidden = !slow;
    lag.textContent = slow ? `◔ ${t("lag_mark_slow")}` : "";
  }
  el.style.setProperty("--seat", `var(--seat-${seat % 6})`);
}

// Show how long `seat` is still frozen on its plate (called by the ticker).
export function tickPlate(el, seat, ctx) {
  const left = ctx.frozenLeft(seat);
  el.classList.toggle("frozen", left > 0);
  el.querySelector(".plate-frozen-s").textContent = left > 0 ? seconds(left) : "";
}

// A stack of `n` face-down cards drawn as a few offset layers, with its count.
export function stack(game, label) {
  return h("div", { class: "stack", "aria-label": label },
    h("div", { class: "stack-cards" }, cardEl(game, null)),
    h("span", { class: "stack-count" }));
}

export function updateStack(el, n) {
  el.style.setProperty("--depth", Math.min(n, 6));
  el.classList.toggle("empty", n === 0);
  el.querySelector(".stack-count").textContent = n;
}

// The frozen overlay over one's own cards: a ring that runs down, and the seconds.
export function freezeOverlay() {
  return h("div", { class: "freeze", "aria-live": "polite" },
    h("div", { class: "freeze-ring" }, h("span", { class: "freeze-s" })),
    h("span", { class: "freeze-label", text: t("frozen") }));
}

export function tickFreeze(el, left, total) {
  const on = left > 0;
  el.classList.toggle("on", on);
  if (!on) return;
  el.querySelector(".freeze-s").textContent = seconds(left);
  el.querySelector(".freeze-ring").style.setProperty("--p", Math.max(0, Math.min(1, left / (total || 1))));
}

// A short word that pops up over `el` and fades ("Zu spät!"), with an optional second line.
export function tag(el, text, kind = "", detail = "") {
  const rect = el.getBoundingClientRect();
  const note = h("div", { class: `tag ${kind}${detail ? " long" : ""}`, "aria-hidden": "true" },
    h("span", { class: "tag-text", text }),
    detail ? h("small", { class: "tag-detail", text: detail }) : null);
  note.style.left = `${rect.left + rect.width / 2}px`;
  note.style.top = `${rect.top}px`;
  document.body.append(note);
  setTimeout(() => note.remove(), detail ? 2400 : 1300);
}

// The card goes back where it came from, with a little bounce.
export function slideBack(el) {
  el.classList.remove("sent");
  if (reducedMotion()) return;
  el.animate([
    { transform: "translateY(-38%) scale(1.04)" },
    { transform: "translateY(6%)" },
    { transform: "none" },
  ], { duration: 380, easing: "cubic-bezier(.3,1.4,.5,1)" });
}

export function shake(el) {
  if (reducedMotion() || !el) return;
  el.animate([
    { transform: "translateX(0)" }, { transform: "translateX(-9px)" }, { transform: "translateX(8px)" },
    { transform: "translateX(-5px)" }, { transform: "translateX(0)" },
  ], { duration: 320 });
}

export function flip(el) {
  if (reducedMotion() || !el) return;
  el.animate([{ transform: "rotateY(90deg)" }, { transform: "none" }],
    { duration: 260, easing: "ease-out" });
}

export function bump(el) {
  if (reducedMotion() || !el) return;
  el.animate([{ transform: "scale(1)" }, { transform: "scale(1.12)" }, { transform: "scale(1)" }],
    { duration: 260 });
}
