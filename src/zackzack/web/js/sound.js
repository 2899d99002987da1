// @ts-check
// Sounds made in the browser (Web Audio, nothing to download) and vibration on phones.
// Each sound differs from the others by rhythm and length, not by pitch alone: one's own
// card is a full "thock", another's a short tick, a wrong card two hard buzzes, a card too
// late one long falling glide, a countdown a blip, "los!" a long high note, a round won
// three rising notes, a round lost two slow falling ones. The volume and the mute switch
// are remembered (zz.volume, zz.mute); the AudioContext starts on the first key or tap,
// as browsers allow.

import { h, store } from "./dom.js";
import { onLang, t } from "./i18n.js";

/** @type {Record<string, number[]>} */
const VIBRATE = { wrong: [70, 50, 70], late: [160] };
const NOTE = "M9 18V5l11-2v13 M9 18a3 3 0 1 1-3-3 3 3 0 0 1 3 3z M20 16a3 3 0 1 1-3-3 3 3 0 0 1 3 3z";
const SLASH = "M3 3l18 18";

/** @type {AudioContext | null} */
let ctx = null;
/** @type {GainNode | null} */
let master = null;
let volume = clamp(Number(store("zz.volume") ?? 70));
let muted = store("zz.mute") === "on";
/** @type {Set<() => void>} */
const listeners = new Set();

// For the curious and the tests: what was played (audible: not muted) and buzzed.
/** @type {{sounds: string[], buzzes: string[]}} */
export const heard = { sounds: [], buzzes: [] };

/** @param {number} n */
function clamp(n) {
  return Number.isFinite(n) ? Math.max(0, Math.min(100, Math.round(n))) : 70;
}

export function level() {
  return volume;
}

export function isMuted() {
  return muted;
}

/** @param {number} value */
export function setVolume(value) {
  volume = clamp(value);
  store("zz.volume", String(volume));
  if (volume > 0 && muted) { // turning the volume up means: I want to hear it
    muted = false;
    store("zz.mute", "off");
  }
  changed();
}

/** @param {unknown} value */
export function setMuted(value) {
  muted = Boolean(value);
  store("zz.mute", muted ? "on" : "off");
  changed();
}

/** @param {() => void} fn */
export function onSound(fn) {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

function changed() {
  if (master) master.gain.value = gain();
  for (const fn of listeners) fn();
}

function gain() {
  return muted ? 0 : (volume / 100) ** 2 * 0.9;
}

// Browsers start audio only after a gesture: the first key or tap makes the context.
function unlock() {
  const Context = window.AudioContext ?? window.webkitAudioContext;
  if (!Context) return;
  try {
    ctx ??= new Context();
    if (!master) {
      master = ctx.createGain();
      master.gain.value = gain();
      master.connect(ctx.destination);
    }
    if (ctx.state === "suspended") ctx.resume().catch(() => {});
  } catch { ctx = null; }
}
for (const type of ["pointerdown", "keydown", "touchend"]) {
  window.addEventListener(type, unlock, { capture: true, passive: true });
}

// The context and its master gain, once unlocked: the sounds below are made only then.
function audio() {
  return { ctx: /** @type {AudioContext} */ (ctx), master: /** @type {GainNode} */ (master) };
}

// One tone: `type` wave from `f0` (gliding to `f1`), `at` seconds from now, `len` long.
/** @param {{type?: OscillatorType, f0: number, f1?: number, at?: number, len: number, peak?: number}} spec */
function tone({ type = "sine", f0, f1 = f0, at = 0, len, peak = 0.5 }) {
  const { ctx, master } = audio();
  const start = ctx.currentTime + at;
  const osc = ctx.createOscillator();
  const env = ctx.createGain();
  osc.type = type;
  osc.frequency.setValueAtTime(f0, start);
  if (f1 !== f0) osc.frequency.exponentialRampToValueAtTime(f1, start + len);
  env.gain.setValueAtTime(0.0001, start);
  env.gain.exponentialRampToValueAtTime(peak, start + Math.min(0.008, len / 4));
  env.gain.exponentialRampToValueAtTime(0.0001, start + len);
  osc.connect(env).connect(master);
  osc.start(start);
  osc.stop(start + len + 0.02);
}

// A burst of filtered noise: the paper of a card on the pile.
/** @param {{at?: number, len: number, freq: number, peak?: number}} spec */
function noise({ at = 0, len, freq, peak = 0.4 }) {
  const { ctx, master } = audio();
  const start = ctx.currentTime + at;
  const frames = Math.max(1, Math.floor(ctx.sampleRate * len));
  const buffer = ctx.createBuffer(1, frames, ctx.sampleRate);
  const data = buffer.getChannelData(0);
  for (let i = 0; i < frames; i++) data[i] = (Math.random() * 2 - 1) * (1 - i / frames) ** 2;
  const source = ctx.createBufferSource();
  const filter = ctx.createBiquadFilter();
  const env = ctx.createGain();
  source.buffer = buffer;
  filter.type = "bandpass";
  filter.frequency.value = freq;
  env.gain.value = peak;
  source.connect(filter).connect(env).connect(master);
  source.start(start);
}

/** @type {Record<string, () => void>} */
const SOUNDS = {
  own: () => { // full and low: my card is down
    noise({ len: 0.09, freq: 1800, peak: 0.55 });
    tone({ type: "triangle", f0: 220, f1: 140, len: 0.13, peak: 0.5 });
  },
  other: () => { // short and light: someone else's card
    noise({ len: 0.035, freq: 3200, peak: 0.3 });
  },
  wrong: () => { // two hard buzzes
    tone({ type: "sawtooth", f0: 120, len: 0.1, peak: 0.32 });
    tone({ type: "sawtooth", f0: 120, at: 0.15, len: 0.1, peak: 0.32 });
  },
  late: () => { // one long falling glide
    tone({ type: "triangle", f0: 660, f1: 260, len: 0.32, peak: 0.35 });
  },
  tick: () => tone({ f0: 880, len: 0.05, peak: 0.3 }),
  go: () => tone({ type: "square", f0: 1320, len: 0.28, peak: 0.18 }),
  won: () => [523, 659, 784].forEach((f, i) =>
    tone({ type: "triangle", f0: f, at: i * 0.09, len: i === 2 ? 0.35 : 0.1, peak: 0.35 })),
  lost: () => [392, 294].forEach((f, i) =>
    tone({ type: "sine", f0: f, f1: f * 0.94, at: i * 0.22, len: 0.24, peak: 0.35 })),
};

export const NAMES = Object.keys(SOUNDS);

// Play the sound `name` (own, other, wrong, late, tick, go, won, lost) unless muted.
/** @param {string} name */
export function play(name) {
  if (!SOUNDS[name] || muted || volume === 0) return;
  heard.sounds.push(name);
  if (heard.sounds.length > 200) heard.sounds.shift();
  if (!ctx || ctx.state !== "running" || !master) return;
  try { SOUNDS[name](); } catch { /* a browser without some node: stay silent */ }
}

// Vibrate for a wrong card or a lost race, where the device can.
/** @param {string} name */
export function buzz(name) {
  const pattern = VIBRATE[name];
  if (!pattern || typeof navigator.vibrate !== "function") return;
  heard.buzzes.push(name);
  try { navigator.vibrate(pattern); } catch { /* not allowed here */ }
}

// The header's controls: a mute switch (Shift+M) and the volume.
export function controls() {
  const button = h("button", { class: "tool sound-toggle", id: "sound-toggle", type: "button" });
  const slider = h("input", {
    class: "sound-volume", id: "sound-volume", type: "range", min: "0", max: "100", step: "5",
  });
  button.addEventListener("click", () => setMuted(!muted));
  slider.addEventListener("input", () => setVolume(+slider.value));
  const render = () => {
    const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
    svg.setAttribute("viewBox", "0 0 24 24");
    svg.setAttribute("class", "icon icon-note");
    svg.setAttribute("aria-hidden", "true");
    for (const d of muted ? [NOTE, SLASH] : [NOTE]) {
      const path = document.createElementNS("http://www.w3.org/2000/svg", "path");
      path.setAttribute("d", d);
      svg.append(path);
    }
    button.replaceChildren(svg);
    button.dataset.muted = String(muted);
    button.setAttribute("aria-pressed", String(muted));
    button.setAttribute("aria-label", t("feel_mute"));
    // The tooltip says the button's name, as its accessible name does ("Ton aus", a toggle:
    // aria-pressed and the slashed note say whether it is on); before, "Töne an" (issue 30).
    button.title = `${t("feel_mute")} (Shift+M)`;
    slider.value = String(volume);
    slider.setAttribute("aria-label", t("feel_volume"));
    slider.setAttribute("aria-valuetext", muted ? t("feel_sound_off") : `${volume} %`);
    slider.title = `${t("feel_volume")}: ${volume} %`;
  };
  onSound(render);
  onLang(render);
  render();
  return h("span", { class: "sound-tools" }, button, slider);
}

// Shift+M: sound on / off (M alone plays a card or moves one).
/** @param {KeyboardEvent} e */
export function key(e) {
  if (e.key !== "M" || !e.shiftKey) return false;
  setMuted(!muted);
  return true;
}
