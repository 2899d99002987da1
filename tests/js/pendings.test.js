// @ts-check
// One's own pending actions (js/board.js Pendings), which both boards keep: shown at once,
// confirmed by the table's event or settled by its answer, and the labels redrawn each time.
import "./page.js";
import { test } from "node:test";
import assert from "node:assert/strict";

const { Pendings } = await import("../../src/zackzack/web/js/board.js");

/** A stand-in element: its classes, what was put in it, and whether it left the page. */
const element = () => {
  const classes = new Set();
  return /** @type {any} */ ({
    classes,
    removed: false,
    appended: [],
    classList: {
      add: (/** @type {string[]} */ ...names) => names.forEach((n) => classes.add(n)),
      remove: (/** @type {string[]} */ ...names) => names.forEach((n) => classes.delete(n)),
    },
    remove() { this.removed = true; },
    append(/** @type {any} */ child) { this.appended.push(child); },
  });
};

const setUp = () => {
  let relabelled = 0;
  /** @type {import("../../src/zackzack/web/js/board.js").Pendings<{card: string, el: any, shown: any}>} */
  const pendings = new Pendings(() => { relabelled += 1; });
  return { pendings, relabelled: () => relabelled };
};

test("a pending card shows where it goes and its own card is marked sent", () => {
  const { pendings } = setUp();
  const pile = element();
  const pending = { card: "7±2", el: element(), shown: element() };
  pendings.show(pending, pile);
  assert.deepEqual(pendings.all, [pending]);
  assert.deepEqual(pile.appended, [pending.shown]);
  assert.deepEqual([...pending.el.classes], ["sent", "pending"]);
});

test("the table's event confirms the first that matches; its picture goes, the labels follow", () => {
  const { pendings, relabelled } = setUp();
  const pile = element();
  const first = { card: "7±2", el: element(), shown: element() };
  const second = { card: "7±2", el: element(), shown: element() };
  pendings.show(first, pile);
  pendings.show(second, pile);
  assert.equal(pendings.confirm((p) => p.card === "3±1"), false);
  assert.equal(relabelled(), 0);
  assert.equal(pendings.confirm((p) => p.card === "7±2"), true);
  assert.deepEqual(pendings.all, [second]);
  assert.ok(first.shown.removed && !second.shown.removed);
  assert.deepEqual([...first.el.classes], []);
  assert.equal(relabelled(), 1);
});

test("settling one already confirmed changes nothing", () => {
  const { pendings, relabelled } = setUp();
  const pending = { card: "Qh", el: element(), shown: element() };
  pendings.show(pending, element());
  pendings.settle(pending);
  pendings.settle(pending);
  assert.deepEqual(pendings.all, []);
  assert.equal(relabelled(), 1);
});
