// @ts-check
// What the pages about one game (its rules, its tutorial) share: the app and the game, a new
// render at every language switch, and the listeners they drop when the route moves on.

import { onLang } from "./i18n.js";

/** @implements {Page} */
export class GamePage {
  /** @param {App} app @param {string} game */
  constructor(app, game) {
    this.app = app;
    this.game = game;
    /** @type {(() => void)[]} what to call at `unmount` (listeners to drop) */
    this.offs = [onLang(() => this.render())];
  }

  unmount() {
    this.offs.forEach((off) => off());
  }

  // Draw the page anew (each page its own).
  render() {}
}
