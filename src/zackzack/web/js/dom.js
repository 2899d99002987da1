// @ts-check
// Tiny DOM helpers. Every string becomes a text node: names never turn into HTML.

// Callers read what their tag has (an input's `value`, a dialog's `showModal`): the element
// is typed loosely (`any`) for them; its making is checked here.
/** @param {string} tag @param {Record<string, any> | null} [attrs] @param {...unknown} children @returns {any} */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs ?? {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key === "class") el.className = value;
    else if (key === "text") el.textContent = value;
    else if (key === "dataset") Object.assign(el.dataset, value);
    else if (key === "style") {
      for (const [name, v] of Object.entries(value)) el.style.setProperty(name, v);
    }
    else if (key.startsWith("on")) el.addEventListener(key.slice(2), value);
    else if (value === true) el.setAttribute(key, "");
    else el.setAttribute(key, value);
  }
  append(el, children);
  return el;
}

/** @template {Element} E @param {E} el @param {unknown[]} children @returns {E} */
export function append(el, children) {
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

/** @param {Element} el */
export function clear(el) {
  el.replaceChildren();
  return el;
}

/** @type {(selector: string, root?: ParentNode) => any} */
export const $ = (selector, root = document) => root.querySelector(selector);

// Keep the children of `box` equal to `items`, reusing elements by key, so that
// unchanged cards keep their element (and their animation state); new ones are made
// by `make(item)`, every one is refreshed by `update(el, item, index)`.
/**
 * The elements are `any` for the callers, as `h`'s are.
 * @template T
 * @param {Element} box @param {T[]} items @param {(item: T, index: number) => string} key
 * @param {(item: T, index: number) => any} make
 * @param {(el: any, item: T, index: number) => void} [update]
 * @returns {any[]}
 */
export function sync(box, items, key, make, update) {
  const old = new Map();
  for (const el of /** @type {HTMLCollectionOf<HTMLElement>} */ (box.children)) if (el.dataset.key !== undefined) old.set(el.dataset.key, el);
  const wanted = items.map((item, index) => {
    const k = key(item, index);
    let el = old.get(k);
    if (el) old.delete(k);
    else {
      el = make(item, index);
      el.dataset.key = k;
      el.classList.add("entering");
      el.addEventListener("animationend", () => el.classList.remove("entering"), { once: true });
    }
    update?.(el, item, index);
    return el;
  });
  for (const el of old.values()) el.remove();
  wanted.forEach((el, i) => {
    if (box.children[i] !== el) box.insertBefore(el, box.children[i] ?? null);
  });
  return wanted;
}

// FLIP: remember where elements are, change the DOM, then glide them from there.
/** @param {Iterable<Element>} els @returns {Map<Element, DOMRect>} */
export function positions(els) {
  return new Map([...els].map((el) => [el, el.getBoundingClientRect()]));
}

/** @param {Map<Element, DOMRect>} before @param {number} [duration] */
export function glide(before, duration = 220) {
  for (const [el, was] of before) {
    if (!el.isConnected) continue;
    const now = el.getBoundingClientRect();
    const dx = was.left - now.left;
    const dy = was.top - now.top;
    if (Math.abs(dx) < 1 && Math.abs(dy) < 1) continue;
    el.animate([{ transform: `translate(${dx}px, ${dy}px)` }, { transform: "none" }],
      { duration, easing: "cubic-bezier(.2,.8,.2,1)" });
  }
}

// Fly `el` in from the rectangle `from` (in viewport coordinates).
/** @param {Element} el @param {DOMRect | null | undefined} from @param {number} [duration] */
export function flyFrom(el, from, duration = 260) {
  if (!from || reducedMotion()) return;
  const to = el.getBoundingClientRect();
  if (!to.width) return;
  const dx = from.left + from.width / 2 - (to.left + to.width / 2);
  const dy = from.top + from.height / 2 - (to.top + to.height / 2);
  const scale = from.width / to.width || 1;
  el.animate([
    { transform: `translate(${dx}px, ${dy}px) scale(${scale}) rotate(-8deg)` },
    { transform: getComputedStyle(el).transform },
  ], { duration, easing: "cubic-bezier(.2,.9,.3,1.1)" });
}

export function reducedMotion() {
  return window.matchMedia?.("(prefers-reduced-motion: reduce)").matches ?? false;
}

// A touch-only device (no hover, a coarse pointer: a phone, a tablet): its player is told to
// tap, never to press a key (base.css hides the key marks on buttons and in hints there).
export const TOUCH_ONLY = "(hover: none) and (pointer: coarse)";
export function touchOnly() {
  return window.matchMedia?.(TOUCH_ONLY).matches ?? false;
}

/** @param {string} key @param {string | null} [value] @returns {string | null | undefined} */
export function store(key, value) {
  try {
    if (value === undefined) return localStorage.getItem(key);
    if (value === null) localStorage.removeItem(key);
    else localStorage.setItem(key, value);
  } catch { /* private mode: remember nothing */ }
  return value;
}
