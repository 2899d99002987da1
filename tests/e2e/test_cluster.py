"""The browser in a cluster (issue 13): two ``zackzack serve --redis`` processes A and B share a
Redis and a PostgreSQL; the tab opened at A sits down at a table of B (the shared lobby lists it,
``moved`` takes the tab there), plays a card, and when B is killed it comes home to A, which has
taken the table over, and shows the same match with its seat and its hand again.

The nodes and a protocol-level player (tests/cluster/harness.py) live on an asyncio loop in a
thread of their own: Playwright's sync API holds this one.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import threading
import time
from collections.abc import Callable, Coroutine, Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest

from cluster.conftest import cluster, pg_server, redis  # noqa: F401 (their fixtures, reused)
from cluster.harness import LEASE, Cluster, Node, Roamer, create
from e2e.kit import phase, us_fits, us_state, wait_for_js, wait_until

pytestmark = [pytest.mark.e2e, pytest.mark.cluster, pytest.mark.wallclock]

BACK = LEASE + 10
"""Seconds from B's ``kill -9`` until the tab shows the table again from A, at most (the lease
runs out, A claims the table when the tab asks, the tab's reconnects back off up to ~5 s)."""


class Loop:
    """An asyncio loop running in a thread: ``run`` a coroutine on it from this thread."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, name="cluster-loop",
                                       daemon=True)
        self.thread.start()

    def run(self, work: Coroutine[Any, Any, Any], seconds: float = 120) -> Any:
        """Run ``work`` on the loop and wait (``seconds`` at most) for its result."""
        return asyncio.run_coroutine_threadsafe(work, self.loop).result(seconds)

    def close(self) -> None:
        """Cancel what still runs, stop the loop and its thread."""
        async def cancel_all() -> None:
            tasks = [t for t in asyncio.all_tasks() if t is not asyncio.current_task()]
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)

        self.run(cancel_all(), 30)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(10)
        self.loop.close()


@dataclass
class Home:
    """What the e2e fixtures need of a server (``new_page`` opens pages at its ``url``)."""

    url: str


@dataclass
class Frames:
    """Every websocket message the page received, with the address of the socket it came on."""

    got: list[tuple[str, dict[str, Any]]] = field(default_factory=list)

    def listen(self, page: Any) -> None:
        """Record the messages of every websocket ``page`` opens from now on."""
        def opened(ws: Any) -> None:
            ws.on("framereceived", lambda payload: self.got.append((ws.url, json.loads(payload))))

        page.on("websocket", opened)

    def view(self, url: str) -> dict[str, Any]:
        """The latest view that came from websocket ``url`` (``{}``: none yet)."""
        return next((m["view"] for at, m in reversed(self.got) if at == url and "view" in m), {})

    def tables(self, url: str, code: str) -> list[dict[str, Any]]:
        """The ``table`` infos of table ``code`` that came from websocket ``url``."""
        return [m["table"] for at, m in self.got
                if at == url and m["type"] == "table" and m["table"]["code"] == code]


@pytest.fixture
def loop() -> Iterator[Loop]:
    running = Loop()
    yield running
    running.close()


@pytest.fixture
def nodes(cluster: Cluster, loop: Loop) -> list[Node]:  # noqa: F811 (the fixture imported)
    """A and B, started."""
    started: list[Node] = loop.run(cluster.start("A", "B"))
    return started


@pytest.fixture
def server(nodes: list[Node]) -> Home:
    """The page's own server is A (instead of the e2e tests' single in-thread server)."""
    return Home(nodes[0].url)


def until(page: Any, condition: Callable[[], Any], seconds: float) -> Any:
    """Wait until ``condition()`` holds, letting the page run (and Playwright hand over what
    it heard) meanwhile; fail after ``seconds``."""
    deadline = time.monotonic() + seconds
    while not (value := condition()):
        assert time.monotonic() < deadline, f"still not true after {seconds} s: {condition}"
        page.wait_for_timeout(50)
    return value


def health(node: Node, loop: Loop) -> dict[str, Any]:
    """``GET /healthz`` of ``node``."""
    answer = loop.run(node.get("/healthz"), 30)
    assert answer.status_code == 200, answer.text
    found: dict[str, Any] = answer.json()
    return found


def hand(page: Any) -> list[str]:
    """The cards of the page's hand, sorted."""
    state = us_state(page)
    return sorted(c["card"] for c in state["hand"]) if state else []


def seen(view: dict[str, Any], top: str | None = None) -> dict[str, Any] | None:
    """The top card and my sorted hand in a view (``None``: no state, or not ``top`` on top)."""
    state = view.get("state")
    if not state or (top is not None and state["top"] != top):
        return None
    return {"top": state["top"], "hand": sorted(state["hand"])}


def play_a_card(page: Any, seconds: float = 60) -> str:
    """Play a fitting card by its key (draw with D until one fits): the card, once it is the
    pile's top and out of the hand."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        state = us_state(page)
        if not state or state["phase"] != "playing" or state["frozen"] or not state["top"]:
            page.wait_for_timeout(50)
            continue
        fitting = [c for c in state["hand"] if not c["sent"] and us_fits(c["card"], state["top"])]
        if fitting:
            card = fitting[0]["card"]
            page.keyboard.press(fitting[0]["key"])
            try:
                wait_until(lambda card=card: (us_state(page) or {}).get("top") == card,
                           timeout=5)
            except AssertionError:
                continue  # too late (the top changed meanwhile): look again
            return str(card)
        if state["draw"] > 0:
            page.keyboard.press("d")
            with contextlib.suppress(AssertionError):  # unanswered: look again
                wait_until(lambda before=state: us_state(page) != before, timeout=5)
        else:
            page.wait_for_timeout(100)  # nothing fits, nothing to draw: a new top comes
    raise AssertionError(f"no card played by keyboard in {seconds} s")


def test_the_tab_follows_its_table_to_b_and_comes_home_to_a_when_b_dies(
        nodes: list[Node], loop: Loop, new_page: Any, shot: Any) -> None:
    a, b = nodes
    bea = Roamer("Bea", home=a.url)  # at B as if a link had brought her there
    loop.run(bea.start(at=b.url))
    code = loop.run(create(bea, [{"kind": "open"}, {"kind": "open"}], countdown_ms=300))

    # A's lobby lists B's table; Wanda joins it by keyboard and is sent to B.
    page = new_page()
    frames = Frames()
    frames.listen(page)
    page.add_init_script("localStorage.setItem('zz.name', 'Wanda')")
    page.goto("/")
    wait_for_js(page, "window.zackzack?.net.open === true")
    listed = page.locator(f".table-item[data-code='{code}']")
    listed.wait_for(timeout=20_000)
    assert "Bea" in listed.inner_text()
    shot(page, "cluster_lobby_at_a", full_page=True)
    listed.locator("button").focus()
    page.keyboard.press("Enter")
    page.wait_for_url(f"**/t/{code}")
    page.locator("#ready").wait_for(timeout=20_000)
    # (what the socket heard may reach this process a little after what the page did)
    until(page, lambda: {"type": "moved", "code": code, "url": b.ws}
          in [m for at, m in frames.got if at == a.ws], 10)
    until(page, lambda: [t["you"] for t in frames.tables(b.ws, code)][-1:] == [1], 10)
    assert page.evaluate("zackzack.net.ws.url") == b.ws
    page.keyboard.press("Enter")  # ready
    page.wait_for_selector(".wait-seat.ready:has(#rename)")
    wait_until(lambda: health(b, loop)["connections"] == 2, timeout=20)  # Bea and Wanda
    assert health(b, loop)["tables"] == 1
    wait_until(lambda: health(a, loop)["connections"] == 0, timeout=20)

    # Bea starts; Wanda sees her hand and plays a card by keyboard.
    loop.run(bea.wait_for(lambda: bea.last("table")["table"]["seats"][1]["ready"], 20))
    loop.run(bea.send(type="start"))
    wait_for_js(page, "document.querySelector('.table-page')?.dataset.phase === 'playing'",
                timeout=20)
    page.wait_for_selector(".board.us .hand .card")
    played = play_a_card(page)
    before = until(page, lambda: seen(frames.view(b.ws), played), 10)  # B has it
    until(page, lambda: hand(page) == before["hand"], 10)
    shot(page, "cluster_playing_at_b")
    match = frames.tables(b.ws, code)[-1]["match"]
    assert match and match == bea.last("table")["table"]["match"]

    # B dies: the tab goes home to A, which takes the table over from the journal.
    killed = time.monotonic()
    b.kill()
    until(page, lambda: any(t["match"] == match and t["you"] == 1
                            for t in frames.tables(a.ws, code))
          and page.evaluate("zackzack.net.ws?.url") == a.ws
          and phase(page) == "playing" and hand(page), BACK)
    back = time.monotonic() - killed
    print(f"the tab showed the table from A {back:.1f} s after B's kill -9 (lease {LEASE} s)")
    taken = a.events("table_taken_over", code=code)
    assert taken and taken[0]["match"] == match and taken[0]["epoch"] >= 1
    assert seen(frames.view(a.ws)) == before  # the played card stayed played
    until(page, lambda: {"top": (us_state(page) or {}).get("top"), "hand": hand(page)}
          == before, 10)
    assert page.url.endswith(f"/t/{code}")
    shot(page, "cluster_back_at_a")
    assert health(a, loop)["tables"] == 1
    loop.run(bea.close())
