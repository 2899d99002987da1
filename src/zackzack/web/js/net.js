// @ts-check
// One websocket per tab, reconnecting by itself. Every (re)connect says hello with the
// private token from localStorage, so the server gives the player their seat back.
// In a cluster a table lives on one server: `moved` names it, and the tab goes there (its
// target) until that connection closes; then it goes home (the page's own server) again.

import { store } from "./dom.js";

const RETRY_MS = [100, 400, 1000, 2000, 4000];
const ACK_TIMEOUT_MS = 6000;
const REACTION_MS = 600;
const RETRY_WITHIN_MS = 1500; // an unanswered card pressed longer ago is not sent again
const HELLO_AGAIN_MS = 10000; // after "too many new players from this address"
const SIGNED_OUT = 4003; // the server closes a signed-out token's connections with this code
const FREE_HOPS = 2; // `moved` in a row followed at once; more (servers disagreeing) back off

// The address of the page's own server (`moved` with url null sends the tab back here).
function home() {
  return `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws`;
}

/** @param {number} step */
function backoff(step) {
  return RETRY_MS[Math.min(step, RETRY_MS.length - 1)] * (0.75 + Math.random() / 2);
}

function tabId() {
  const bytes = crypto.getRandomValues(new Uint8Array(6));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

/**
 * The answer to an action: the server's `ack` (or its `error`, as a refusal), or one the tab
 * gives itself when there is none (`disconnected`, `timeout`).
 * @typedef {Omit<Protocol.Ack, "type" | "ref"> & {type: "ack" | "error", ref?: number | null}} Answer
 */

/**
 * An action sent and not answered yet: its id, when it was pressed, who waits for the answer.
 * @typedef {{id: string, action: Record<string, unknown>, at: number,
 *   resolve: (ack: Answer) => void, timer: ReturnType<typeof setTimeout> | 0}} Waiting
 */

/** @typedef {keyof NetMessages} NetType */

export class Net {
  constructor() {
    /** @type {Map<string, Set<(msg: any) => void>>} */
    this.handlers = new Map();
    /** @type {Map<number, Waiting>} */
    this.acks = new Map(); // ref -> the action waiting for its answer
    /** @type {Map<string, Waiting>} */
    this.unanswered = new Map(); // id -> an action sent, not answered yet (kept over reconnects)
    this.tab = tabId(); // with a counter: each action's id, so a retry is applied at most once
    this.acted = 0;
    this.rejoined = false;
    this.ref = 0;
    this.tries = 0;
    this.status = "connecting";
    /** @type {WebSocket | null} */
    this.ws = null;
    /** @type {string | null} */
    this.target = null; // the server `moved` sent the tab to (null: home)
    this.hops = 0; // `moved` followed since the last table arrived
    /** @type {string | null} */
    this.player = null;
    this.claimed = false; // the player's name is claimed with a password (welcome.claimed)
    this.reactionMs = REACTION_MS; // a card's `seen`: the pile on screen this long before the press
    /** @type {number | null} */
    this.rtt = null; // the server's smoothed round trip in ms (null: not measured yet)
  }

  get token() { return store("zz.token"); }
  get name() { return store("zz.name") ?? ""; }

  start() {
    if (this.ws) return;
    let ws;
    try {
      ws = this.ws = new WebSocket(this.target ?? home());
    } catch { // a target that is no websocket address: home finds the table
      this.target = null;
      ws = this.ws = new WebSocket(home());
    }
    this.setStatus("connecting");
    const hello = () => ws.send(JSON.stringify({ type: "hello", token: this.token, name: this.name }));
    ws.onopen = () => {
      this.tries = 0;
      hello();
    };
    ws.onmessage = (e) => {
      if (this.ws !== ws) return; // left for another (`moved`, `become`): what is still coming is old
      /** @type {any} */
      let msg;
      try { msg = JSON.parse(e.data); } catch { return; }
      if (msg.type === "ping" && Number.isInteger(msg.n)) {
        // The server measures the lag: answer at once, before anything else.
        if (ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify({ type: "pong", n: msg.n }));
        if (msg.rtt != null) this.rtt = msg.rtt;
      }
      if (msg.type === "error" && this.status !== "open"
          && (msg.code === "too_many_new_players" || msg.code === "store_unavailable")) {
        // no more new players from here for now, or the server cannot reach its database:
        // say hello again in a while
        this.setStatus("refused");
        setTimeout(() => { if (this.ws === ws && ws.readyState === WebSocket.OPEN) hello(); },
          HELLO_AGAIN_MS);
      }
      if (msg.type === "welcome") {
        this.reactionMs = Number.isFinite(msg.reaction_ms) ? msg.reaction_ms : REACTION_MS;
        this.player = msg.player;
        this.claimed = Boolean(msg.claimed);
        store("zz.token", msg.token);
        if (msg.name) store("zz.name", msg.name);
        this.rejoined = false;
        this.setStatus("open");
      }
      if (msg.type === "moved") this.follow(ws, msg);
      if (msg.type === "table") this.hops = 0;
      if (msg.type === "table" && !this.rejoined) {
        this.rejoined = true; // back at the table: send again what was not answered
        this.retry();
      }
      if (msg.type === "ack" || (msg.type === "error" && msg.ref != null)) {
        const waiting = this.acks.get(msg.ref);
        if (waiting) {
          this.acks.delete(msg.ref);
          this.unanswered.delete(waiting.id);
          clearTimeout(waiting.timer);
          waiting.resolve(msg.type === "ack" ? msg : { ...msg, ok: false });
        }
      }
      this.emit(msg.type, msg);
    };
    ws.onclose = (e) => {
      if (this.ws !== ws) return;
      if (e.code === SIGNED_OUT) { // this token was signed out (everywhere) or deleted
        store("zz.token", null);
        store("zz.name", null);
        store("zz.named", null);
      }
      this.ws = null;
      this.acks.clear(); // the unanswered actions wait for the reconnect (retry)
      this.rtt = null;
      // Another server's connection closed (it died, or never answered): home finds the
      // table's new owner once the old one's lease has run out.
      this.target = null;
      this.setStatus("closed");
      setTimeout(() => this.start(), backoff(this.tries++));
    };
  }

  // `moved`: the table is served elsewhere (`url`; null: ask home again). Close this socket
  // and connect there at once; the page asks for its table again after the welcome. Only the
  // first hops in a row are at once, so two servers sending the tab to and fro cannot spin.
  /** @param {WebSocket} ws @param {Protocol.Moved} msg */
  follow(ws, msg) {
    if (this.ws !== ws) return;
    this.target = typeof msg.url === "string" && msg.url ? msg.url : null;
    this.hops += 1;
    ws.onclose = null;
    ws.close();
    this.ws = null;
    this.acks.clear(); // as on a drop: the unanswered actions are sent again at the table
    this.rtt = null;
    this.setStatus("connecting");
    if (this.hops <= FREE_HOPS) this.start();
    else setTimeout(() => this.start(), backoff(this.hops - FREE_HOPS - 1));
  }

  // Come back as another player (a sign-in: its token; a sign-out: null, a fresh guest).
  // The old connection is closed at once and a new one says hello with the new token.
  /** @param {string | null} token @param {string | null} [name] */
  become(token, name) {
    store("zz.token", token);
    store("zz.name", name || null);
    if (!token) store("zz.named", null);
    const ws = this.ws;
    this.ws = null;
    this.player = null;
    this.claimed = false;
    this.unanswered.clear();
    this.acks.clear();
    if (ws) {
      ws.onclose = null;
      ws.close();
    }
    this.start();
  }

  // Reconnect now (e.g. after the tab comes back to the foreground).
  nudge() {
    if (!this.ws) this.start();
  }

  /** @param {string} status */
  setStatus(status) {
    this.status = status;
    this.emit("status", status);
  }

  get open() {
    return this.ws?.readyState === WebSocket.OPEN && this.status === "open";
  }

  /** @param {Protocol.ClientMessage} msg */
  send(msg) {
    if (!this.open) {
      console.warn(`zackzack: not connected (${this.status}): ${msg.type} not sent`);
      return false;
    }
    /** @type {WebSocket} */ (this.ws).send(JSON.stringify(msg));
    return true;
  }

  // Send an intent; resolves with the server's ack ({ok, code, reason}). Each action has an
  // id: after a reconnect an unanswered one is sent again with it, and the server applies it
  // at most once (a retry gets the first answer).
  /** @param {Record<string, unknown>} action @returns {Promise<Answer>} */
  act(action) {
    const ref = ++this.ref;
    const id = `${this.tab}-${++this.acted}`;
    if (!this.send({ type: "act", ref, action, id })) {
      return Promise.resolve({ type: "ack", ref, ok: false, code: "disconnected", reason: "" });
    }
    return new Promise((resolve) => {
      /** @type {Waiting} */
      const waiting = { id, action, at: performance.now(), resolve, timer: 0 };
      waiting.timer = setTimeout(() => {
        for (const [r, w] of this.acks) if (w === waiting) this.acks.delete(r);
        this.unanswered.delete(id);
        resolve({ type: "ack", ref, ok: false, code: "timeout", reason: "" });
      }, ACK_TIMEOUT_MS);
      this.acks.set(ref, waiting);
      this.unanswered.set(id, waiting);
    });
  }

  // After a reconnect: send the unanswered actions again (same id), unless pressed too long
  // ago to still mean anything; those are answered "disconnected".
  retry() {
    for (const [id, waiting] of this.unanswered) {
      if (performance.now() - waiting.at > RETRY_WITHIN_MS || !this.open) {
        this.unanswered.delete(id);
        clearTimeout(waiting.timer);
        waiting.resolve({ type: "ack", ok: false, code: "disconnected", reason: "" });
        continue;
      }
      const ref = ++this.ref;
      this.acks.set(ref, waiting);
      this.send({ type: "act", ref, action: waiting.action, id });
    }
  }

  /** @template {NetType} K @param {K} type @param {(msg: NetMessages[K]) => void} fn @returns {() => boolean} */
  on(type, fn) {
    let fns = this.handlers.get(type);
    if (!fns) this.handlers.set(type, fns = new Set());
    fns.add(fn);
    return () => /** @type {Set<unknown>} */ (fns).delete(fn);
  }

  /** @template {NetType} K @param {K} type @param {NetMessages[K]} msg */
  emit(type, msg) {
    for (const fn of [...(this.handlers.get(type) ?? [])]) {
      try { fn(msg); } catch (error) { console.error(error); }
    }
  }
}

export const net = new Net();
