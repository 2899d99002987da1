"""End-to-end fixtures: the real server on a free loopback port, headless Chromium via Playwright.

The server runs in a thread (uvicorn, live table settings, the real bots) with a fresh SQLite
file; the browser is Debian's chromium (Playwright cannot download its own here). Every
test saves screenshots of what it saw under ``artifacts/screenshots/``.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import uvicorn

from zackzack.server.app import Config, create_app
from zackzack.server.lobby import Timing

ROOT = Path(__file__).resolve().parents[2]
SHOTS = ROOT / "artifacts" / "screenshots"
FAILURES = ROOT / "artifacts" / "failures"
"""What each page of a failed test showed, and its console, for finding out why."""
SETTLED = """() => document.getAnimations().every(a =>
  a.playState !== 'running' || a.effect?.getComputedTiming().iterations === Infinity
  || (a.animationName ?? '').startsWith('call'))"""
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync"]


def chromium_path() -> str | None:
    """Debian's chromium (``ZACKZACK_CHROMIUM`` overrides)."""
    for candidate in (os.environ.get("ZACKZACK_CHROMIUM"), "/usr/bin/chromium",
                      shutil.which("chromium"), shutil.which("chromium-browser")):
        if candidate and Path(candidate).exists():
            return candidate
    return None


class LiveServer:
    """uvicorn serving the app in a background thread."""

    def __init__(self, db: Path, timing: Timing | None = None) -> None:
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            self.port = probe.getsockname()[1]
        # The tests drive their browsers at their own pace (axe, screenshots): the idle rule
        # (docs/rules.md, *A round always ends*) waits 2 minutes here; test_idle.py shortens it.
        self.app = create_app(Config(db=f"sqlite:///{db}",
                                     timing=timing or Timing(stall_warning=120.0)))
        config = uvicorn.Config(self.app, host="127.0.0.1",
                                port=self.port, log_level="warning", lifespan="on")
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, name="zackzack-e2e", daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> None:
        self.thread.start()
        deadline = time.monotonic() + 20
        while not self.server.started:
            if not self.thread.is_alive() or time.monotonic() > deadline:
                raise RuntimeError("the server did not start")
            time.sleep(0.02)

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(10)


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    live = LiveServer(tmp_path_factory.mktemp("e2e") / "zackzack.db")
    live.start()
    yield live
    live.stop()


@pytest.fixture()
def browser() -> Iterator[Any]:
    """Chromium for one test: Playwright's sync API runs an event loop in this thread while it
    is on, so it is stopped after every test, leaving the thread clean for the others."""
    executable = chromium_path()
    if executable is None:
        pytest.skip("chromium is not installed (scripts/test.sh installs Debian's package)")
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=executable, headless=True,
                                              args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Any:
    """Keep each phase's report on the test, so a fixture can tell that the test failed."""
    report = yield
    setattr(item, f"report_{report.when}", report)
    return report


def again_if_the_network_changed(navigate: Any) -> Any:
    """``navigate`` (a page's ``goto``, ``reload``) once more when Chromium dropped the page's
    request because an address of the machine changed (``net::ERR_NETWORK_CHANGED``:
    ``tests/delaynet.py`` adds and removes some in tests that run next to these). The page's
    own files are loaded again by the page itself (``web/index.html``)."""

    def again(*args: Any, **kwargs: Any) -> Any:
        for attempt in range(3):
            try:
                return navigate(*args, **kwargs)
            except Exception as error:
                if "ERR_NETWORK_CHANGED" not in str(error) or attempt == 2:
                    raise
                time.sleep(0.2)
        return None

    return again


@pytest.fixture()
def new_page(browser: Any, server: LiveServer, request: pytest.FixtureRequest) -> Iterator[Any]:
    """``new_page(locale=..., viewport=...)``: a fresh browser context (own localStorage)."""
    contexts: list[Any] = []

    def make(locale: str = "de-DE", width: int = 1280, height: int = 800,
             touch: bool = False) -> Any:
        context = browser.new_context(
            base_url=server.url, locale=locale, viewport={"width": width, "height": height},
            has_touch=touch, is_mobile=touch, device_scale_factor=1)
        context.set_default_timeout(10_000)
        contexts.append(context)
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.js_errors = errors
        console: list[str] = []
        page.on("console", lambda message: console.append(f"{message.type}: {message.text}"))
        page.console_lines = console
        page.goto = again_if_the_network_changed(page.goto)
        page.reload = again_if_the_network_changed(page.reload)
        return page

    yield make
    report = getattr(request.node, "report_call", None)
    if report is not None and report.failed:
        FAILURES.mkdir(parents=True, exist_ok=True)
        pages = [page for context in contexts for page in context.pages]
        for i, page in enumerate(pages):
            stem = FAILURES / f"{request.node.name}-{i}"
            with contextlib.suppress(Exception):
                page.screenshot(path=f"{stem}.png", timeout=5000)
            stem.with_suffix(".txt").write_text(
                "\n".join([page.url, *getattr(page, "console_lines", [])]), "utf-8")
    for context in contexts:
        for page in context.pages:
            assert not getattr(page, "js_errors", []), f"JavaScript errors: {page.js_errors}"
        context.close()


@pytest.fixture()
def shot() -> Any:
    """``shot(page, "name")``: save a screenshot of what the page shows now."""
    SHOTS.mkdir(parents=True, exist_ok=True)

    def take(page: Any, name: str, full_page: bool = False, settle: bool = True) -> Path:
        path = SHOTS / f"{name}.png"
        if settle:  # let panels finish rising and cards finish flying
            with contextlib.suppress(Exception):
                page.wait_for_function(SETTLED, timeout=1500)
        page.screenshot(path=str(path), full_page=full_page, animations="allow")
        return path

    return take
