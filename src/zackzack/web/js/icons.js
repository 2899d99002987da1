// @ts-check
// Small line icons as inline SVG (no emoji: not every system has an emoji font).

const PATHS = {
  speaker: "M4 9h4l5-4v14l-5-4H4z M16 9a4 4 0 0 1 0 6 M18.5 6.5a7.5 7.5 0 0 1 0 11",
  mute: "M4 9h4l5-4v14l-5-4H4z M16 9l5 6 M21 9l-5 6",
  // The speech switch: a speech bubble with lines of words; off, the bubble is empty and
  // slashed (a muted speaker would say "sound off", which is the sound switch's).
  talk: "M4 5h16v11h-9l-5 4v-4H4z M8 9h8 M8 12h5",
  talk_off: "M4 5h16v11h-9l-5 4v-4H4z M3 3l18 18",
  bot: "M6 9h12v10H6z M12 5v4 M9 13h.01 M15 13h.01 M9.5 16.5h5 M3 13v3 M21 13v3 M12 3.5h.01",
  trophy: "M7 4h10v4a5 5 0 0 1-10 0z M7 6H4a3 3 0 0 0 3 4 M17 6h3a3 3 0 0 1-3 4 M12 13v4 M8 20h8 M9 17h6v3H9z",
  eye: "M2 12s4-7 10-7 10 7 10 7-4 7-10 7S2 12 2 12z M12 9a3 3 0 1 0 0 6 3 3 0 0 0 0-6",
  snow: "M12 2v20 M3.3 7l17.4 10 M3.3 17l17.4-10 M9 4l3 2 3-2 M9 20l3-2 3 2",
  download: "M12 3v12 M7 10l5 5 5-5 M4 19h16",
  play: "M7 4l13 8-13 8z",
  pause: "M7 4h3v16H7z M14 4h3v16h-3z",
  step: "M5 4l10 8-10 8z M18 4v16",
  restart: "M19 4v16L9 12z M6 4v16",
  hand: "M5 8h9v12H5z M9 4h9v12",
  pile: "M6 6h11v14H6z M8 3h11v14 M3 9v12h11",
  pause_s: "M8 5v14 M16 5v14",
  user: "M12 12a4 4 0 1 0 0-8 4 4 0 0 0 0 8z M4 21a8 8 0 0 1 16 0",
  lock: "M6 11h12v10H6z M8 11V7a4 4 0 0 1 8 0v4",
  search: "M10.5 17a6.5 6.5 0 1 0 0-13 6.5 6.5 0 0 0 0 13z M15.5 15.5L21 21",
};

/** @param {string} name @param {string} [label] */
export function icon(name, label = "") {
  const el = document.createElementNS("http://www.w3.org/2000/svg", "svg");
  el.setAttribute("viewBox", "0 0 24 24");
  el.setAttribute("class", `icon icon-${name}`);
  if (label) {
    el.setAttribute("role", "img");
    el.setAttribute("aria-label", label);
  } else {
    el.setAttribute("aria-hidden", "true");
  }
  const path = document.createElementNS("http://www.w3.org/2000/svg", "path");
  path.setAttribute("d", PATHS[/** @type {keyof PATHS} */ (name)]);
  el.append(path);
  return el;
}
