"""``zackzack play --join LINK``: the terminal at a real server's table, with a bot and a host."""

from __future__ import annotations

import asyncio
import contextlib
import json
import socket
from collections.abc import AsyncIterator, Sequence
from pathlib import Path
from typing import Any

import pytest
import uvicorn
from websockets.asyncio.client import ClientConnection, connect

from tui.kit import play_out, screenshot, shown, until, us_keys
from zackzack.games.base import Action, Event
from zackzack.server.app import Config, create_app
from zackzack.table import Phase, Settings
from zackzack.tui.app import PlayApp
from zackzack.tui.game_screen import GameScreen
from zackzack.tui.remote import RemoteSession, parse_link
from zackzack.tui.session import Listener
from zackzack.tui.us_board import UsBoard


@pytest.fixture
async def server(tmp_path: Path) -> AsyncIterator[str]:
    """A real server on a free port of this machine; its base URL."""
    settings = Settings(start_ms=300, between_rounds_ms=1000)
    app = create_app(Config(db=str(tmp_path / "zackzack.db"), settings=settings))
    sock = socket.create_server(("127.0.0.1", 0))
    running = uvicorn.Server(uvicorn.Config(app, log_level="warning"))
    task = asyncio.create_task(running.serve(sockets=[sock]))
    while not running.started:
        await asyncio.sleep(0.01)
    yield f"http://127.0.0.1:{sock.getsockname()[1]}"
    running.should_exit = True
    await task


class Host:
    """The browser that made the table: it reads everything and says what it is told to."""

    def __init__(self, socket: ClientConnection) -> None:
        self.socket = socket
        self.inbox: list[dict[str, Any]] = []
        self.reader = asyncio.create_task(self._read())

    async def _read(self) -> None:
        with contextlib.suppress(Exception):
            async for text in self.socket:
                self.inbox.append(json.loads(text))

    async def send(self, **message: Any) -> None:
        await self.socket.send(json.dumps(message))

    def last(self, kind: str) -> dict[str, Any] | None:
        return next((m for m in reversed(self.inbox) if m["type"] == kind), None)


class Recorded(RemoteSession):
    """A remote session that keeps the refusals it passes on."""

    refusals: list[str]
    acts = 0

    def act(self, seat: int, action: Action) -> None:
        self.acts += 1
        super().act(seat, action)

    def start(self, listener: Listener) -> None:
        self.refusals = []
        outer = self

        class Spy:
            def changed(self, events: Sequence[Event]) -> None:
                listener.changed(events)

            def refused(self, seat: int, code: str, reason: str) -> None:
                outer.refusals.append(code)
                listener.refused(seat, code, reason)

            def status(self, text: str) -> None:
                listener.status(text)

        super().start(Spy())


async def test_the_terminal_joins_a_server_table_plays_reconnects_and_finishes(
        server: str) -> None:
    async with connect(server.replace("http", "ws") + "/ws") as browser:
        host = Host(browser)
        await host.send(type="hello", token=None, name="Host")
        await host.send(type="create", game="unter-spannung",
                        options={"countdown_ms": 300, "penalty_ms": 300},
                        seats=[{"kind": "open"}, {"kind": "bot", "bot": "machine"}])
        await until_true(lambda: host.last("table") is not None)
        link = host.last("table")["table"]["link"]  # type: ignore[index]
        code = host.last("table")["table"]["code"]  # type: ignore[index]
        await host.send(type="leave")  # the host gives the seat up and watches
        await host.send(type="watch", code=code)
        await until_true(lambda: host.last("table")["table"]["you"] is None)  # type: ignore[index]
        url, code = parse_link(link)
        made: list[Recorded] = []

        def session() -> Recorded:
            made.append(Recorded(url, code, "Tui", "en"))
            return made[-1]

        app = PlayApp("en", session, again=False)
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: isinstance(app.screen, GameScreen))
            tui = made[0]
            assert tui.mine == (0,) and [s.kind for s in tui.seats] == ["human", "bot"]
            await until(pilot, lambda: "Tui" in shown(app, "#panel"))
            panel = shown(app, "#panel")
            assert "Bot" in panel and "Enter: I am ready" in panel
            screenshot(app, "join_waiting")
            await pilot.press("enter")
            await until(pilot, lambda: tui.seats[0].ready)
            await host.send(type="start")
            await until(pilot, lambda: _phase(tui) is Phase.PLAYING)
            board = app.screen.query_one(UsBoard)
            assert board.display
            screenshot(app, "join_playing")
            assert tui._socket is not None
            await tui._socket.close()  # the connection drops mid-game
            await until(pilot, lambda: "reconnecting" in shown(app, "#head"))
            await until(pilot, lambda: "reconnecting" not in shown(app, "#head"))
            assert tui.mine == (0,)  # the same seat, back at the same table
            # the only person was away: the table paused, and now it resumes
            await until(pilot, lambda: "goes on in" in shown(app, "#banner"))
            screenshot(app, "join_resuming")
            await until(pilot, lambda: _phase(tui) is Phase.PLAYING)
            await play_out(pilot, lambda: tui.view(0), us_keys)
            assert _phase(tui) is Phase.OVER
            assert set(tui.refusals) <= {"too_late"}
            await pilot.pause(0.1)
            assert "Match over" in shown(app, "#panel") and "Enter" not in shown(app, "#panel")
            screenshot(app, "join_results")
            # the browser saw every action of the terminal that the table took
            seen = [e for m in host.inbox if m["type"] == "events" for e in m["events"]
                    if e["type"] in ("played", "drew") and e["seat"] == 0]
            assert tui.acts >= 1 and len(seen) == tui.acts - len(tui.refusals)
        host.reader.cancel()


def _phase(session: RemoteSession) -> Phase | None:
    view = session.view(None)
    return view.phase if view is not None else None


async def until_true(condition: Any, timeout: float = 10) -> None:
    """Wait without an app."""
    for _ in range(int(timeout / 0.01)):
        if condition():
            return
        await asyncio.sleep(0.01)
    raise AssertionError("timed out")


async def test_joining_a_table_that_does_not_exist_is_a_clear_error(server: str) -> None:
    url, _ = parse_link(server + "/t/ZZZZZZ")
    app = PlayApp("en", lambda: RemoteSession(url, "ZZZZZZ", "Tui", "en"), again=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: not app.is_running)
    assert app.return_code == 2
