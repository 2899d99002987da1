// @ts-check
// The players' call, spoken: "sieben!" when a 7 is played (Web Speech API, opt-in).

import { store } from "./dom.js";
import { lang } from "./i18n.js";

const synth = window.speechSynthesis;
export const supported = Boolean(synth && window.SpeechSynthesisUtterance);
let on = supported && store("zz.speech") === "on";
/** @type {Set<(on: boolean) => void>} */
const listeners = new Set();

export function speaking() {
  return on;
}

/** @param {unknown} value */
export function setSpeaking(value) {
  on = supported && Boolean(value);
  store("zz.speech", on ? "on" : "off");
  if (!on) synth?.cancel();
  for (const fn of listeners) fn(on);
}

/** @param {(on: boolean) => void} fn */
export function onSpeaking(fn) {
  listeners.add(fn);
}

// Say `words` now; a newer call cuts an older one off (the race does not wait).
/** @param {unknown} words */
export function say(words) {
  if (!on) return;
  synth.cancel();
  const utterance = new SpeechSynthesisUtterance(String(words));
  utterance.lang = lang === "de" ? "de-DE" : "en-GB";
  utterance.rate = 1.4;
  synth.speak(utterance);
}
