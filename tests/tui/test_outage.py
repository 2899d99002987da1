"""A cluster whose Redis is down cannot open tables (``cluster_unavailable``): the terminal says
so and asks again by itself, and never ends the program for it (issue 26). A pretend server
refuses as a cluster in an outage does, until told otherwise."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator

import pytest
from websockets.asyncio.server import Server, ServerConnection, serve
from websockets.exceptions import ConnectionClosed

from tui.kit import Still, shown, until
from zackzack.engine.clock import VirtualClock
from zackzack.engine.table import Phase, Table, TableView
from zackzack.games import unter_spannung as us
from zackzack.games.base import MatchResult, Placing, RoundResult
from zackzack.server import protocol as p
from zackzack.tui import remote
from zackzack.tui.app import PlayApp
from zackzack.tui.game_screen import GameScreen
from zackzack.tui.remote import RemoteSession
from zackzack.tui.session import Seat
from zackzack.tui.waiting import WaitScreen

pytestmark = pytest.mark.wallclock  # a real socket on this machine

OLD, NEW = "K7M2QX", "GHJKMN"
DOWN = p.Error(code="cluster_unavailable",
               reason="the server cannot open tables now (its cluster store is unreachable); "
                      "try again soon")


def table_message(code: str) -> p.TableState:
    """A waiting Unter Spannung table made by this keyboard (seat 0)."""
    table = Table(us, us.parse_options({}), clock=VirtualClock(), seed=1)
    seats = [p.SeatInfo(kind="human", name="Tui", player="p_tui", connected=True),
             p.SeatInfo(kind="bot", name="normal", bot="normal", connected=True)]
    info = p.TableInfo(code=code, game="unter-spannung", title="Unter Spannung · Tui",
                       options={"players": 2}, seats=seats, creator="p_tui", you=0,
                       phase="waiting", link=f"http://127.0.0.1/t/{code}", private=False,
                       watchers=0)
    return p.TableState(table=info, view=table.view(0), now=0)


class Outage:
    """A server of a cluster whose store is down while ``down``: ``create`` and ``rematch``
    are refused with ``cluster_unavailable``; afterwards they make table :data:`NEW`."""

    def __init__(self) -> None:
        self.down = True
        self.asked: list[str] = []
        self.server: Server | None = None
        self.url = ""

    async def start(self) -> Outage:
        self.server = await serve(self._serve, "127.0.0.1", 0)
        self.url = f"ws://127.0.0.1:{self.server.sockets[0].getsockname()[1]}/ws"
        return self

    async def stop(self) -> None:
        assert self.server is not None
        self.server.close()
        await self.server.wait_closed()

    async def _serve(self, socket: ServerConnection) -> None:
        try:
            async for data in socket:
                kind = json.loads(data)["type"]
                if kind == "hello":
                    await socket.send(p.encode(p.Welcome(player="p_tui", token="secret",
                                                         name="Tui")))
                elif kind in ("watch", "join"):
                    await socket.send(p.encode(table_message(OLD)))
                elif kind in ("create", "rematch"):
                    self.asked.append(kind)
                    await socket.send(p.encode(DOWN if self.down else table_message(NEW)))
        except ConnectionClosed:
            pass


@pytest.fixture
async def outage(monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[Outage]:
    """A server in an outage; the session's pauses between asks made short."""
    monkeypatch.setattr(remote, "RETRY_S", (0.05, 0.1, 0.2))
    server = await Outage().start()
    yield server
    await server.stop()


async def test_creating_a_table_in_an_outage_waits_says_why_and_asks_again_by_itself(
        outage: Outage) -> None:
    create = p.Create(game="unter-spannung", seats=[p.SeatSpec(kind="open"),
                                                    p.SeatSpec(kind="bot", bot="normal")])
    app = PlayApp("de", lambda: RemoteSession(outage.url, "", "Tui", "de", create=create))
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, WaitScreen))
        await until(pilot, lambda: len(outage.asked) > remote.ASK_AGAIN_TIMES + 1)
        said = shown(app, "#wait")
        assert "Warte auf den Server" in said
        assert "Der Server kann gerade keine neuen Tische eröffnen: er erreicht seinen " \
               "Cluster-Speicher nicht." in " ".join(said.split())
        assert "cluster_unavailable" in said  # the server's own words, as a detail
        assert "Enter: jetzt fragen · Esc: zurück" in said
        assert app.is_running and app.return_code is None  # far past the old five asks
        outage.down = False  # Redis is back: the next ask makes the table
        await until(pilot, lambda: isinstance(app.screen, GameScreen))
        assert app.screen.session.code == NEW  # type: ignore[attr-defined]
        await until(pilot, lambda: "Warten" in shown(app, "#panel"))
        assert app.is_running
        assert set(outage.asked) == {"create"}


async def test_a_rematch_in_an_outage_waits_enter_asks_now_esc_goes_back_to_the_results(
        outage: Outage) -> None:
    view = TableView(game="unter-spannung", phase=Phase.OVER, now=9_000, seat=0, players=2,
                     round=1, state=None, frozen_until=(0, 0), countdown=None,
                     next_round_at=None, starts_at=None,
                     results=(RoundResult(1, 0, "went_out", (0, 5)),), totals=(0, 5),
                     result=MatchResult((Placing(0, 1, 0, "won"), Placing(1, 2, 5, "")), 0, ""))
    over = Still(us, view, [Seat("Tui"), Seat("Anna")])
    over.share = f"http://127.0.0.1/t/{OLD}"

    def rematch() -> RemoteSession:
        return RemoteSession(outage.url, OLD, "Tui", "en", token="secret", rematch=True)

    app = PlayApp("en", rematch, first=over)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: "Enter: rematch" in shown(app, "#results"))
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.screen, WaitScreen)
                    and "cannot open the rematch right now" in shown(app, "#wait"))
        asked = len(outage.asked)
        await pilot.press("enter")  # ask now
        await until(pilot, lambda: len(outage.asked) > asked)
        assert isinstance(app.screen, WaitScreen)
        await pilot.press("escape")  # stop waiting: back to the results, still running
        await until(pilot, lambda: isinstance(app.screen, GameScreen))
        assert app.screen.session is over and app.is_running  # type: ignore[attr-defined]
        asked = len(outage.asked)
        await pilot.pause(0.5)
        assert len(outage.asked) == asked  # nothing is asked any more
        outage.down = False
        await pilot.press("enter")  # the rematch again: now it opens
        await until(pilot, lambda: isinstance(app.screen, GameScreen)
                    and app.screen.session is not over)  # type: ignore[attr-defined]
        assert app.screen.session.code == NEW  # type: ignore[attr-defined]
        assert app.is_running and app.return_code is None
