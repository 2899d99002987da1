"""How fast the lobby page loads: requests, bytes, DOMContentLoaded, load, lobby shown.

Each source tree given (``LABEL=SRC_DIR``, default this checkout's ``src``) is served by its
own ``uvicorn`` process on a loopback port with a fresh SQLite file; headless Chromium
(Debian's, through Playwright) loads ``/`` in a fresh context with the cache disabled, the
trees taking turns run after run so a busy machine weighs on each alike. Per tree it prints
the median of the runs: requests, bytes transferred (headers and bodies as sent, compressed),
when the browser asked for its last module (ms after the page itself arrived: how long the
import waterfall took to be discovered), ``DOMContentLoaded`` and ``load`` (ms since
navigation start; module scripts run before ``DOMContentLoaded``), and when the lobby's form
was on screen. A second load in the same
context with the cache on shows what a returning visitor fetches again. ``--latency MS``
adds Chromium's emulated round-trip time to every request (loopback has none, which hides
a waterfall's cost).

    .venv/bin/python bench/page_load.py --runs 10 before=/tmp/before/src after=src
"""

from __future__ import annotations

import argparse
import os
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, sync_playwright

ROOT = Path(__file__).resolve().parents[1]
SERVE = """
import sys, uvicorn
from zackzack.server.app import Config, create_app
uvicorn.run(create_app(Config(db=sys.argv[1])), host="127.0.0.1", port=int(sys.argv[2]),
            log_level="warning")
"""
SHOWN = """
window.__shown = null;
new MutationObserver((_, observer) => {
  if (document.querySelector(".lobby-grid")) {
    window.__shown = performance.now();
    observer.disconnect();
  }
}).observe(document, {childList: true, subtree: true});
"""
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync"]


@dataclass
class Figures:
    """One tree's measurements, run by run."""

    requests: list[int] = field(default_factory=list)
    transferred: list[int] = field(default_factory=list)
    dcl: list[float] = field(default_factory=list)
    load: list[float] = field(default_factory=list)
    shown: list[float] = field(default_factory=list)
    found: list[float] = field(default_factory=list)
    again_requests: list[int] = field(default_factory=list)
    again_transferred: list[int] = field(default_factory=list)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@contextmanager
def serving(src: Path, folder: Path) -> Iterator[str]:
    """A server of the tree under ``src``; its URL."""
    port = free_port()
    env = {**os.environ, "PYTHONPATH": str(src)}
    process = subprocess.Popen([sys.executable, "-c", SERVE, f"sqlite:///{folder}/z.db",
                                str(port)], env=env)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                with urllib.request.urlopen(url + "/", timeout=1) as response:
                    if response.status == 200:
                        break
            except OSError:
                if time.monotonic() > deadline or process.poll() is not None:
                    raise RuntimeError(f"the server of {src} did not start") from None
                time.sleep(0.1)
        yield url
    finally:
        process.terminate()
        process.wait(10)


class Counter:
    """Requests that went to the server, and bytes, of one page (Chromium's own events)."""

    def __init__(self, cdp: Any) -> None:
        self.requests = 0
        self.bytes = 0
        cdp.on("Network.requestWillBeSent", self._sent)
        cdp.on("Network.requestServedFromCache", self._cached)
        cdp.on("Network.loadingFinished", self._finished)

    def _sent(self, params: dict[str, Any]) -> None:
        if params["request"]["url"].startswith("http"):
            self.requests += 1

    def _cached(self, params: dict[str, Any]) -> None:
        self.requests -= 1  # announced, but never sent: the cache had it

    def _finished(self, params: dict[str, Any]) -> None:
        self.bytes += int(params["encodedDataLength"])

    def reset(self) -> None:
        self.requests = self.bytes = 0


def measure(browser: Browser, url: str, latency: float, into: Figures) -> None:
    """One cold load of ``url`` (and one warm one after it) in a fresh context."""
    context = browser.new_context(locale="de-DE", viewport={"width": 1280, "height": 800})
    try:
        context.add_init_script(SHOWN)
        page = context.new_page()
        cdp = context.new_cdp_session(page)
        cdp.send("Network.enable")
        cdp.send("Network.setCacheDisabled", {"cacheDisabled": True})
        if latency:
            cdp.send("Network.emulateNetworkConditions", {
                "offline": False, "latency": latency, "downloadThroughput": -1,
                "uploadThroughput": -1})
        counter = Counter(cdp)
        page.goto(url + "/", wait_until="load")
        page.wait_for_function("window.__shown !== null")
        timing = page.evaluate("""() => {
            const nav = performance.getEntriesByType("navigation")[0];
            const js = performance.getEntriesByType("resource")
              .filter((r) => r.name.endsWith(".js"));
            const found = Math.max(...js.map((r) => r.startTime)) - nav.responseEnd;
            return [nav.domContentLoadedEventEnd, nav.loadEventEnd, window.__shown, found];
        }""")
        page.wait_for_timeout(200)  # late requests (the favicon) count too
        into.requests.append(counter.requests)
        into.transferred.append(counter.bytes)
        into.dcl.append(timing[0])
        into.load.append(timing[1])
        into.shown.append(timing[2])
        into.found.append(timing[3])
        cdp.send("Network.setCacheDisabled", {"cacheDisabled": False})
        counter.reset()
        page.goto(url + "/", wait_until="load")  # a returning visitor
        page.wait_for_function("window.__shown !== null")
        page.wait_for_timeout(200)
        into.again_requests.append(counter.requests)
        into.again_transferred.append(counter.bytes)
    finally:
        context.close()


def chromium() -> str:
    for candidate in (os.environ.get("ZACKZACK_CHROMIUM"), "/usr/bin/chromium",
                      shutil.which("chromium")):
        if candidate and Path(candidate).exists():
            return candidate
    raise SystemExit("chromium is not installed")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("trees", nargs="*", default=[f"now={ROOT / 'src'}"],
                        help="LABEL=SRC_DIR (the directory holding the zackzack package)")
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--latency", type=float, default=0.0,
                        help="emulated round-trip time per request, ms (0: loopback as is)")
    args = parser.parse_args()
    trees = [(label, Path(src).resolve()) for label, _, src in
             (tree.partition("=") for tree in args.trees)]
    figures = {label: Figures() for label, _ in trees}
    with tempfile.TemporaryDirectory() as folder, sync_playwright() as playwright:
        urls = {}
        stack = []
        for label, src in trees:
            (Path(folder) / label).mkdir()
            stack.append(serving(src, Path(folder) / label))
            urls[label] = stack[-1].__enter__()
        try:
            browser = playwright.chromium.launch(executable_path=chromium(), headless=True,
                                                 args=ARGS)
            for label in urls:  # one load each to warm the servers up, not counted
                measure(browser, urls[label], args.latency, Figures())
            for _ in range(args.runs):
                for label, url in urls.items():
                    measure(browser, url, args.latency, figures[label])
            browser.close()
        finally:
            for context in reversed(stack):
                context.__exit__(None, None, None)
    print(f"median of {args.runs} cold loads (cache disabled) of / on loopback"
          + (f", {args.latency:g} ms emulated round trip" if args.latency else ""))
    print("| tree | requests | transferred | last module asked for | DOMContentLoaded | load "
          "| lobby shown | repeat visit: requests, transferred |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    for label, found in figures.items():
        med = statistics.median
        print(f"| {label} | {med(found.requests):.0f} | {med(found.transferred) / 1024:.1f} KiB"
              f" | {med(found.found):.0f} ms | {med(found.dcl):.0f} ms | {med(found.load):.0f} ms"
              f" | {med(found.shown):.0f} ms | {med(found.again_requests):.0f},"
              f" {med(found.again_transferred) / 1024:.1f} KiB |")


if __name__ == "__main__":
    main()
