"""axe-core (from the npm registry, pinned in package-lock.json) run inside a Playwright page.

``audit(page, "name")`` injects ``node_modules/axe-core/axe.min.js`` once per document, lets
animations settle, runs ``axe.run()`` on the whole document and returns every violation;
``assert_accessible`` fails on a *serious* or *critical* one and names the rule ids and the
elements. The full results go to ``artifacts/a11y/NAME.json`` (for the before/after figures
in docs/web.md). A missing axe-core is a failure, never a skip: ``scripts/test.sh`` installs it.
"""

from __future__ import annotations

import contextlib
import json
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"
REPORTS = ROOT / "artifacts" / "a11y"
BLOCKING = ("serious", "critical")
SETTLED = """() => document.getAnimations().every(a =>
  a.playState !== 'running' || a.effect?.getComputedTiming().iterations === Infinity
  || (a.animationName ?? '').startsWith('call'))"""

RUN = """async () => {
  const result = await axe.run(document, { resultTypes: ['violations'] });
  return result.violations.map(v => ({
    id: v.id, impact: v.impact, help: v.help,
    nodes: v.nodes.map(n => ({ target: n.target.join(' '), summary: n.failureSummary ?? '' })),
  }));
}"""


def audit(page: Any, name: str) -> list[dict[str, Any]]:
    """Every axe violation on ``page`` as it is now (after its animations settle)."""
    if not AXE.exists():
        raise AssertionError(f"axe-core is missing ({AXE}): run `npm ci` (scripts/test.sh does)")
    if not page.evaluate("typeof window.axe === 'object'"):
        page.add_script_tag(path=str(AXE))
    with contextlib.suppress(Exception):  # a ring or a countdown may run on: check anyway
        page.wait_for_function(SETTLED, timeout=3000)
    violations: list[dict[str, Any]] = page.evaluate(RUN)
    REPORTS.mkdir(parents=True, exist_ok=True)
    (REPORTS / f"{name}.json").write_text(json.dumps(
        {"url": page.url, "lang": page.evaluate("document.documentElement.lang"),
         "violations": violations}, indent=1, ensure_ascii=False))
    return violations


def report(violations: list[dict[str, Any]]) -> str:
    """One line per violation and element: ``[serious] color-contrast: .plate-info — …``."""
    lines = []
    for v in violations:
        for node in v["nodes"][:8]:
            summary = " ".join(node["summary"].split())[:220]
            lines.append(f"[{v['impact']}] {v['id']}: {node['target']} — {summary}")
        if len(v["nodes"]) > 8:
            lines.append(f"[{v['impact']}] {v['id']}: … and {len(v['nodes']) - 8} more")
    return "\n".join(lines)


def assert_accessible(page: Any, name: str) -> list[dict[str, Any]]:
    """Fail on any serious or critical axe violation; print the lesser ones."""
    violations = audit(page, name)
    blocking = [v for v in violations if v["impact"] in BLOCKING]
    if violations:
        print(f"axe on {name} ({page.url}):\n{report(violations)}")
    assert not blocking, f"axe on {name} ({page.url}):\n{report(blocking)}"
    return violations


# Contrast, measured ------------------------------------------------------------------------
# axe leaves text over gradients, images and translucent layers "incomplete" (it cannot know
# the colour behind it), and that is most text on the felt. So it is measured from pixels:
# one screenshot as it is, one with every glyph transparent; where a line of text differs
# most from its background, the two pixels give the contrast the eye gets (opacity, masks,
# translucent colours and the felt all included).

TEXT_BOXES = """() => {
  const out = [];
  // Behind a modal dialog or the table's overlay panel: not content now (dimmed on purpose).
  const modal = document.querySelector('dialog:modal');
  const covered = document.querySelector('.overlay.on');
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const el = node.parentElement;
    if (!el || !node.textContent.trim()) continue;
    // Not text to read: hidden helpers, passing notes, disabled controls (exempt), and the
    // drawings on cards (pictures, named in words by their role=img label).
    if (el.closest('script, style, noscript, title, .sr-only, .board-sr, .tag, .toast, svg,'
                   + ' :disabled, [aria-disabled="true"]')) continue;
    if (!el.checkVisibility({ checkOpacity: true, checkVisibilityCSS: true })) continue;
    if (modal && !modal.contains(el)) continue;
    if (covered && el.closest('.felt') && !el.closest('.overlay')) continue;
    const style = getComputedStyle(el);
    const size = parseFloat(style.fontSize);
    const large = size >= 24 || (size >= 18.66 && Number(style.fontWeight) >= 700);
    const range = document.createRange();
    range.selectNodeContents(node);
    for (const r of range.getClientRects()) {
      if (r.width < 3 || r.height < 6 || r.left < 0 || r.top < 0
          || r.right > innerWidth || r.bottom > innerHeight) continue;
      const path = [];
      for (let e = el; e && e !== document.body && path.length < 3; e = e.parentElement) {
        const classes = [...e.classList].slice(0, 2).map(c => '.' + c).join('');
        path.unshift(e.tagName.toLowerCase() + classes);
      }
      out.push({ text: node.textContent.trim().slice(0, 40), where: path.join(' > '),
                 large, x: r.left, y: r.top, w: r.width, h: r.height });
    }
  }
  return out;
}"""

HIDE_TEXT = """* { color: transparent !important; -webkit-text-fill-color: transparent !important;
  text-shadow: none !important; caret-color: transparent !important; }
svg text { fill: transparent !important; stroke: transparent !important; }"""


def _luminance(rgb: Any) -> Any:
    import numpy as np

    c = np.asarray(rgb, dtype=float) / 255
    c = np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)
    return c @ np.array([0.2126, 0.7152, 0.0722])


def measure_contrast(page: Any) -> list[dict[str, Any]]:
    """Every line of visible text in the viewport with its measured contrast ratio and the
    ratio it needs (4.5, or 3 for large text); ``ratio`` is None where no glyph shows."""
    import io

    import numpy as np
    from PIL import Image

    with contextlib.suppress(Exception):
        page.wait_for_function(SETTLED, timeout=3000)
    boxes = page.evaluate(TEXT_BOXES)
    shown = np.asarray(Image.open(io.BytesIO(page.screenshot(animations="disabled")))
                       .convert("RGB"), dtype=int)
    style = page.add_style_tag(content=HIDE_TEXT)
    try:
        bare = np.asarray(Image.open(io.BytesIO(page.screenshot(animations="disabled")))
                          .convert("RGB"), dtype=int)
    finally:
        style.evaluate("el => el.remove()")
    out = []
    for box in boxes:
        x0, y0 = int(box["x"]), int(box["y"])
        x1, y1 = int(box["x"] + box["w"] + 0.999), int(box["y"] + box["h"] + 0.999)
        fg, bg = shown[y0:y1, x0:x1].reshape(-1, 3), bare[y0:y1, x0:x1].reshape(-1, 3)
        diff = np.abs(fg - bg).sum(axis=1)
        ratio = None
        if diff.size and diff.max() >= 60:
            strong = diff >= 0.85 * diff.max()
            lf, lb = _luminance(fg[strong]), _luminance(bg[strong])
            ratios = (np.maximum(lf, lb) + 0.05) / (np.minimum(lf, lb) + 0.05)
            ratio = round(float(np.median(ratios)), 2)
        out.append({**box, "ratio": ratio, "needs": 3.0 if box["large"] else 4.5})
    return out


def low_contrast(page: Any, name: str) -> list[dict[str, Any]]:
    """The lines of text below their needed contrast (also saved to artifacts/a11y)."""
    measured = measure_contrast(page)
    REPORTS.mkdir(parents=True, exist_ok=True)
    (REPORTS / f"{name}.contrast.json").write_text(json.dumps(measured, indent=1,
                                                              ensure_ascii=False))
    return [m for m in measured if m["ratio"] is not None and m["ratio"] < m["needs"]]


def report_contrast(lines: list[dict[str, Any]]) -> str:
    return "\n".join(f"{m['ratio']} < {m['needs']}: {m['where']} {m['text']!r}" for m in lines)
