// Tiny DOM helpers. Every string becomes a text node: names never turn into HTML.

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

export function append(el, children) {
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

export function clear(el) {
  el.replaceChildren();
  return el;
}

export const $ = (selector, root = document) => root.querySelector(selector);

// Keep the children of `box` equal to `items`, reusing elements by key, so that
// unchanged cards keep their element (and their animation state); new ones are made
// by `make(item)`, every one is refreshed by `update(el, item, index)`.
export function sync(box, items, key, make, update) {
  const old = new Map();
  for (const el of box.children) if (el.dataset.key !== undefined) old.set(el.dataset.key, el);
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
export function positions(els) {
  return new Map([...els].map((el) => [el, el.getBoundingClientRect()]));
}

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

export function store(key, value) {
  try {
    if (value === undefined) return localStorage.getItem(key);
    if (value === null) localStorage.removeItem(key);
    else localStorage.setItem(key, value);
  } catch { /* private mode: remember nothing */ }
  return value;
}
