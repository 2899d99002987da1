"""At a server's table one's own card shows on its pile at once, marked as on its way, while the
server holds it in its decision window; the ``ack`` confirms it or takes it back (issue 27).
A pretend server answers every action after a delay, as the arbiter would."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import AsyncIterator, Callable
from typing import Any

import msgspec
import pytest
from websockets.asyncio.server import Server, ServerConnection, serve
from websockets.exceptions import ConnectionClosed

from tui.kit import shown, text, until, us_deal
from zackzack.engine.clock import VirtualClock
from zackzack.engine.table import Settings, Table
from zackzack.games import schnelllauf as sl
from zackzack.games import unter_spannung as us
from zackzack.games.base import Event, Rules
from zackzack.games.schnelllauf.board import SlBoard
from zackzack.games.unter_spannung.board import UsBoard
from zackzack.server import protocol as p
from zackzack.tui.app import PlayApp
from zackzack.tui.game_screen import GameScreen
from zackzack.tui.remote import RemoteSession

from builders import scenario

pytestmark = pytest.mark.wallclock  # a real socket on this machine, real delays

CODE = "K7M2QX"
DELAY_S = 1.0
"""How long the pretend server holds each action: the arbiter's longest wait."""


class Slow:
    """A pretend server with one playing table (seat 0 is this keyboard's, seat 1 Anna's): it
    answers each ``act`` after :data:`DELAY_S`, taking it (events, then the ``ack``) or
    refusing it as ``refuse`` says."""

    def __init__(self, rules: Rules, options: Any, deal: Any) -> None:
        self.rules = rules
        self.table = Table(rules, options, clock=VirtualClock(), seed=1,
                           settings=Settings(start_ms=0), first_round=deal)
        self.table.start()
        self.refuse: p.Ack | None = None
        """The next answer is this refusal (its ``ref`` is filled in); ``None``: take it."""
        self.acts: list[dict[str, Any]] = []
        self.server: Server | None = None
        self.url = ""

    async def start(self) -> Slow:
        self.server = await serve(self._serve, "127.0.0.1", 0)
        self.url = f"ws://127.0.0.1:{self.server.sockets[0].getsockname()[1]}/ws"
        return self

    async def stop(self) -> None:
        assert self.server is not None
        self.server.close()
        await self.server.wait_closed()

    def _state(self) -> p.TableState:
        seats = [p.SeatInfo(kind="human", name="Tui", player="p_tui", connected=True),
                 p.SeatInfo(kind="human", name="Anna", player="p_anna", connected=True)]
        info = p.TableInfo(code=CODE, game=self.rules.INFO.name, title="Anna's",
                           options={"players": 2}, seats=seats, creator="p_anna", you=0,
                           phase="playing", link=f"http://127.0.0.1/t/{CODE}", private=False,
                           watchers=0)
        return p.TableState(table=info, view=self.table.view(0), now=self.table.time_ms())

    async def _serve(self, socket: ServerConnection) -> None:
        try:
            async for data in socket:
                message = json.loads(data)
                if message["type"] == "hello":
                    await socket.send(p.encode(p.Welcome(player="p_tui", token="secret",
                                                         name=message["name"])))
                elif message["type"] in ("join", "watch"):
                    await socket.send(p.encode(self._state()))
                elif message["type"] == "act":
                    self.acts.append(message)
                    asyncio.get_running_loop().create_task(self._answer(socket, message))
        except ConnectionClosed:
            pass

    async def _answer(self, socket: ServerConnection, message: dict[str, Any]) -> None:
        await asyncio.sleep(DELAY_S)
        refusal, self.refuse = self.refuse, None
        if refusal is not None:
            await socket.send(p.encode(msgspec.structs.replace(refusal, ref=message["ref"])))
            return
        seen: list[Event] = []
        unsubscribe = self.table.subscribe(0, seen.extend)
        self.table.submit(0, self.rules.action_from_json(message["action"]))
        unsubscribe()
        await socket.send(p.encode(p.Events(events=seen, view=self.table.view(0),
                                            now=self.table.time_ms())))
        await socket.send(p.encode(p.Ack(ref=message["ref"], ok=True)))


@pytest.fixture
async def slow() -> AsyncIterator[Callable[..., Any]]:
    """Starts a pretend server (``await slow(rules, options, deal)``), stops it afterwards."""
    started: list[Slow] = []

    async def make(rules: Rules, options: Any, deal: Any) -> Slow:
        started.append(await Slow(rules, options, deal).start())
        return started[-1]

    yield make
    for server in started:
        await server.stop()


class Timed(RemoteSession):
    """A remote session that notes when each ack came."""

    acked: list[float]

    def _receive(self, message: p.ServerMessage | None) -> None:
        if isinstance(message, p.Ack):
            self.acked.append(time.perf_counter())
        super()._receive(message)


def timed(url: str) -> Timed:
    session = Timed(url, CODE, "Tui", "en")
    session.acked = []
    return session


def watch_drawing(board: Any) -> list[tuple[float, str]]:
    """Each time ``board`` is drawn from now on: when, and what it showed."""
    drawn: list[tuple[float, str]] = []
    render = board.render

    def noted() -> Any:
        shown = render()
        drawn.append((time.perf_counter(), text(shown)))
        return shown

    board.render = noted
    return drawn


def first(drawn: list[tuple[float, str]], mark: str) -> float | None:
    """When the board was first drawn showing ``mark``."""
    return next((at for at, shown in drawn if mark in shown), None)


def drawing(drawn: list[tuple[float, str]], mark: str) -> str:
    """The first drawing of the board that showed ``mark`` (what the player saw then, even
    if the answer has come meanwhile on a busy machine)."""
    return next(shown for _, shown in drawn if mark in shown)


async def test_unter_spannung_shows_the_own_card_at_once_then_the_ack_confirms_or_takes_it_back(
        slow: Callable[..., Any]) -> None:
    options = us.Options(players=2)
    deal = us_deal(["4±1 5±2 9±3", "2±1 3±3"], ["7±1 8±2", "10±1 1±2"], "6±2")
    server = await slow(us, options, deal)
    session = timed(server.url)
    app = PlayApp("en", lambda: session, again=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, GameScreen))
        board = app.screen.query_one(UsBoard)
        await until(pilot, lambda: "hand (3)" in text(board.render()))
        drawn = watch_drawing(board)
        # 4±1 fits the 6±2: on the pile at once, marked, out of the hand, before any answer
        keyed = time.perf_counter()
        await pilot.press(board.key_of(us.Card(4, 1)))
        await until(pilot, lambda: first(drawn, "4 …") is not None)
        shown_at = first(drawn, "4 …")
        assert shown_at is not None
        screen = drawing(drawn, "4 …")
        assert "on its way…" in screen and "hand (2)" in screen
        if not session.acked:  # the answer is still on its way
            assert board.key_of(us.Card(4, 1)) == ""  # its key plays nothing meanwhile
            assert session.pending(0) == (us.Play(us.Card(4, 1), seen=0),)
        assert len(server.acts) == 1
        # the ack (after the events): the table's own top, no mark, no flicker back
        await until(pilot, lambda: len(session.acked) == 1)
        await pilot.pause(0.05)
        screen = text(board.render())
        assert "…" not in screen and "hand (2)" in screen and session.pending(0) == ()
        view = session.view(0)
        assert view is not None and view.shown.top == us.Card(4, 1)
        # no flicker: from the press on, every drawing has the card out of the hand
        assert all("hand (2)" in shown for at, shown in drawn if at > shown_at)
        confirmed = (shown_at - keyed, session.acked[0] - keyed)
        # 5±2 fits the 4±1; the server says Anna was 40 ms faster: back in the hand
        server.refuse = p.Ack(ref=0, ok=False, code="too_late", reason="Anna's first",
                              winner=1, margin_ms=40)
        drawn.clear()
        keyed = time.perf_counter()
        await pilot.press(board.key_of(us.Card(5, 2)))
        await until(pilot, lambda: first(drawn, "5 …") is not None)
        refused_shown = first(drawn, "5 …")
        assert refused_shown is not None
        assert "hand (1)" in drawing(drawn, "5 …")
        await until(pilot, lambda: len(session.acked) == 2)
        await pilot.pause(0.05)
        screen = text(board.render())
        assert "…" not in screen and "hand (2)" in screen and board.key_of(us.Card(5, 2))
        assert "Too late – Anna was 40 ms faster" in shown(app, "#feedback")
        refused = (refused_shown - keyed, session.acked[1] - keyed)
    for name, (card, ack) in (("taken", confirmed), ("refused", refused)):
        print(f"unter-spannung {name}: press → own card shown {card * 1000:.1f} ms, "
              f"press → ack {ack * 1000:.1f} ms")
        assert card < ack and ack >= DELAY_S  # shown before the answer came


async def test_schnelllauf_shows_the_own_card_on_its_pile_and_a_wrong_card_goes_back(
        slow: Callable[..., Any]) -> None:
    options = sl.Options(max_rounds=1, penalty_ms=5000)
    deal = scenario(("2c 9h | 5d | | | ", "Kc | Kd | | | "), ("10s", "Qs"), ("REST", "REST"),
                    options=options)
    server = await slow(sl, options, deal)
    session = timed(server.url)
    app = PlayApp("de", lambda: session, again=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, GameScreen))
        board = app.screen.query_one(SlBoard)
        await until(pilot, lambda: "9♥" in text(board.render()))
        drawn = watch_drawing(board)
        keyed = time.perf_counter()
        await pilot.press("1")  # place 1's 9h onto pile 1 (10s)
        await until(pilot, lambda: first(drawn, "9♥ …") is not None)
        shown_at = first(drawn, "9♥ …")
        assert shown_at is not None
        assert "unterwegs…" in drawing(drawn, "9♥ …")
        assert board.on_way(session.view(0), 0) == {0: sl.Play(sl.Card.parse("9h"), 0, seen=0)}  # type: ignore[arg-type]
        await pilot.press("1")  # the same place again: it is on its way, nothing is sent
        await pilot.pause(0.05)
        assert len(server.acts) == 1 and board.moving == {}
        await until(pilot, lambda: len(session.acked) == 1)
        await pilot.pause(0.05)
        screen = text(board.render())
        assert "…" not in screen and "9♥" in screen and "2♣" in screen  # taken, 2c turned up
        taken = (shown_at - keyed, session.acked[0] - keyed)
        # 5d onto pile 2 (Qs): the server calls it a wrong card; back in the layout
        server.refuse = p.Ack(ref=0, ok=False, code="does_not_fit", reason="5d on Qs")
        drawn.clear()
        keyed = time.perf_counter()
        await pilot.press("s")  # place 2 onto pile 2 (the home row: Q never plays)
        await until(pilot, lambda: first(drawn, "5♦ …") is not None)
        refused_shown = first(drawn, "5♦ …")
        assert refused_shown is not None
        await until(pilot, lambda: len(session.acked) == 2)
        await pilot.pause(0.05)
        screen = text(board.render())
        assert "…" not in screen and "5♦" in screen
        assert "Passt nicht" in shown(app, "#feedback")
        refused = (refused_shown - keyed, session.acked[1] - keyed)
    for name, (card, ack) in (("taken", taken), ("refused", refused)):
        print(f"schnelllauf {name}: press → own card shown {card * 1000:.1f} ms, "
              f"press → ack {ack * 1000:.1f} ms")
        assert card < ack and ack >= DELAY_S  # shown before the answer came
