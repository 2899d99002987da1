// One websocket per tab, reconnecting by itself. Every (re)connect says hello with the
// private token from localStorage, so the server gives the player their seat back.

import { store } from "./dom.js";

const RETRY_MS = [100, 400, 1000, 2000, 4000];
const ACK_TIMEOUT_MS = 6000;
const REACTION_MS = 600;

export class Net {
  constructor() {
    this.handlers = new Map();
    this.acks = new Map();
    this.ref = 0;
    this.tries = 0;
    this.status = "connecting";
    this.ws = null;
    this.player = null;
    this.reactionMs = REACTION_MS; // a card's `seen`: the pile on screen this long before the press
    this.rtt = null; // the server's smoothed round trip in ms (null: not measured yet)
  }

  get token() { return store("zz.token"); }
  get name() { return store("zz.name") ?? ""; }

  start() {
    if (this.ws) return;
    const url = `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws`;
    const ws = this.ws = new WebSocket(url);
    this.setStatus("connecting");
    ws.onopen = () => {
      this.tries = 0;
      ws.send(JSON.stringify({ type: "hello", token: this.token, name: this.name }));
    };
    ws.onmessage = (e) => {
      let msg;
      try { msg = JSON.parse(e.data); } catch { return; }
      if (msg.type === "ping" && Number.isInteger(msg.n)) {
        // The server measures the lag: answer at once, before anything else.
        if (ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify({ type: "pong", n: msg.n }));
        if (msg.rtt != null) this.rtt = msg.rtt;
      }
      if (msg.type === "welcome") {
        this.reactionMs = Number.isFinite(msg.reaction_ms) ? msg.reaction_ms : REACTION_MS;
        this.player = msg.player;
        store("zz.token", msg.token);
        if (msg.name) store("zz.name", msg.name);
        this.setStatus("open");
      }
      if (msg.type === "ack" || (msg.type === "error" && msg.ref != null)) {
        const waiting = this.acks.get(msg.ref);
        if (waiting) {
          this.acks.delete(msg.ref);
          clearTimeout(waiting.timer);
          waiting.resolve(msg.type === "ack" ? msg : { ...msg, ok: false });
        }
      }
      this.emit(msg.type, msg);
    };
    ws.onclose = () => {
      if (this.ws !== ws) return;
      this.ws = null;
      for (const [ref, waiting] of this.acks) {
        clearTimeout(waiting.timer);
        waiting.resolve({ type: "ack", ref, ok: false, code: "disconnected", reason: "" });
      }
      this.acks.clear();
      this.rtt = null;
      this.setStatus("closed");
      const delay = RETRY_MS[Math.min(this.tries++, RETRY_MS.length - 1)];
      setTimeout(() => this.start(), delay * (0.75 + Math.random() / 2));
    };
  }

  // Reconnect now (e.g. after the tab comes back to the foreground).
  nudge() {
    if (!this.ws) this.start();
  }

  setStatus(status) {
    this.status = status;
    this.emit("status", status);
  }

  get open() {
    return this.ws?.readyState === WebSocket.OPEN && this.status === "open";
  }

  send(msg) {
    if (!this.open) return false;
    this.ws.send(JSON.stringify(msg));
    return true;
  }

  // Send an intent; resolves with the server's ack ({ok, code, reason}).
  act(action) {
    const ref = ++this.ref;
    if (!this.send({ type: "act", ref, action })) {
      return Promise.resolve({ type: "ack", ref, ok: false, code: "disconnected", reason: "" });
    }
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.acks.delete(ref);
        resolve({ type: "ack", ref, ok: false, code: "timeout", reason: "" });
      }, ACK_TIMEOUT_MS);
      this.acks.set(ref, { resolve, timer });
    });
  }

  on(type, fn) {
    if (!this.handlers.has(type)) this.handlers.set(type, new Set());
    this.handlers.get(type).add(fn);
    return () => this.handlers.get(type).delete(fn);
  }

  emit(type, msg) {
    for (const fn of [...(this.handlers.get(type) ?? [])]) {
      try { fn(msg); } catch (error) { console.error(error); }
    }
  }
}

export const net = new Net();
