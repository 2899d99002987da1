// @ts-check
// The matchmaking queue as the tab sees it (js/queue.js): what a seek sends, how the
// server's `queue` and `unqueued` messages change the state, and what each change is called.
import "./page.js";
import { test } from "node:test";
import assert from "node:assert/strict";

const { onQueue, queue, seek, unseek } = await import("../../src/zackzack/web/js/queue.js");
const { net } = await import("../../src/zackzack/web/js/net.js");

/** @type {Protocol.ClientMessage[]} */
const sent = [];
let connected = true;
net.send = (/** @type {Protocol.ClientMessage} */ msg) => {
  if (connected) sent.push(msg);
  return connected;
};
/** @type {string[]} */
const changes = [];
onQueue((why) => changes.push(why));

/** @param {Partial<Protocol.Queue>} fields @returns {Protocol.Queue} */
const state = (fields = {}) => ({ type: "queue", game: "schnelllauf", players: 2, waiting: 1, since: 0, window: 100, bot: null, ...fields });

function reset() {
  net.emit("welcome", /** @type {Protocol.Welcome} */ (/** @type {unknown} */ ({ type: "welcome" })));
  sent.length = 0;
  changes.length = 0;
  connected = true;
}

test("a seek sends what is wanted and starts the clock; unseek only while seeking", () => {
  reset();
  assert.equal(unseek(), false, "not seeking: nothing to leave");
  assert.ok(seek("schnelllauf", 2));
  assert.deepEqual(sent, [{ type: "seek", game: "schnelllauf", players: 2 }]);
  assert.deepEqual(queue.wanted, { game: "schnelllauf", players: 2 });
  assert.ok(queue.startedAt > 0);
  assert.ok(unseek());
  assert.deepEqual(sent[1], { type: "unseek" });
});

test("a seek that cannot be sent says so and keeps no clock", () => {
  reset();
  connected = false;
  assert.equal(seek("unter-spannung", 3), false);
  assert.equal(queue.startedAt, 0);
});

test("the server's queue messages: the start, each tick, the bot offer once", () => {
  reset();
  net.emit("queue", state());
  net.emit("queue", state({ waiting: 2, window: 150 }));
  net.emit("queue", state({ bot: "pro" }));
  net.emit("queue", state({ bot: "pro", window: 200 }));
  assert.deepEqual(changes, ["start", "tick", "offer", "tick"]);
  assert.equal(queue.state?.window, 200);
  assert.ok(queue.startedAt > 0, "counted from the first message when the seek did not start it");
});

test("leaving the queue, matched or not, forgets it; so does a new connection", () => {
  reset();
  net.emit("queue", state());
  net.emit("unqueued", { type: "unqueued", reason: "matched", code: "ABCD" });
  assert.equal(queue.state, null);
  assert.equal(queue.startedAt, 0);
  net.emit("queue", state());
  net.emit("unqueued", { type: "unqueued", reason: "left", code: null });
  seek("schnelllauf", 2);
  net.emit("welcome", /** @type {Protocol.Welcome} */ (/** @type {unknown} */ ({ type: "welcome" })));
  assert.equal(queue.wanted, null);
  assert.deepEqual(changes, ["start", "matched", "start", "left", "left"]);
  net.emit("welcome", /** @type {Protocol.Welcome} */ (/** @type {unknown} */ ({ type: "welcome" })));
  assert.equal(changes.length, 5, "not seeking: a welcome changes nothing");
});

test("a queue message without a game is not one to show", () => {
  reset();
  net.emit("queue", /** @type {Protocol.Queue} */ (/** @type {unknown} */ ({ type: "queue", game: null })));
  assert.equal(queue.state, null);
  assert.deepEqual(changes, []);
});
