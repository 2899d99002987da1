"""The terminal follows ``moved`` (a cluster's table lives on one server) and goes home when
the table's server is gone: pretend servers on this machine play the cluster."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Callable, Sequence
from typing import Any

import msgspec
import pytest
from websockets.asyncio.server import Server, ServerConnection, serve
from websockets.exceptions import ConnectionClosed

from zackzack.engine.clock import VirtualClock
from zackzack.engine.table import Table
from zackzack.games import unter_spannung as us
from zackzack.games.base import Event
from zackzack.server import protocol as p
from zackzack.tui import remote
from zackzack.tui.remote import ASK_AGAIN_TIMES, FREE_HOPS, MAX_HOPS, RETRY_S, RemoteSession
from zackzack.tui.session import Lost

pytestmark = pytest.mark.wallclock  # real sockets on this machine (the pauses are recorded)

CODE = "K7M2QX"
Answer = Callable[["Fake", dict[str, Any]], p.ServerMessage | None]
"""What a pretend server says to a ``join`` or ``watch`` (``None``: nothing)."""


def table_message(code: str = CODE, you: int = 1) -> p.TableState:
    """A waiting Unter Spannung table where this keyboard has seat ``you``."""
    table = Table(us, us.parse_options({}), clock=VirtualClock(), seed=1)
    seats = [p.SeatInfo(kind="human", name="Anna", player="p_anna", connected=True),
             p.SeatInfo(kind="human", name="Tui", player="p_tui", connected=True)]
    info = p.TableInfo(code=code, game="unter-spannung", title="Unter Spannung · Anna",
                       options={"players": 2}, seats=seats, creator="p_anna", you=you,
                       phase="waiting", link=f"http://127.0.0.1/t/{code}", private=False,
                       watchers=0)
    return p.TableState(table=info, view=table.view(you), now=0)


def table(fake: Fake, message: dict[str, Any]) -> p.ServerMessage:
    return table_message(message["code"])


class Fake:
    """A pretend server of the cluster: welcomes a hello (the token it brought, or a new one)
    and answers ``join``/``watch`` with ``answer``; keeps every message, per connection."""

    def __init__(self, answer: Answer) -> None:
        self.answer = answer
        self.connections: list[list[dict[str, Any]]] = []
        self.sockets: list[ServerConnection] = []
        self.server: Server | None = None
        self.url = ""

    @property
    def asked(self) -> list[dict[str, Any]]:
        """The joins and watches, over all connections."""
        return [m for got in self.connections for m in got if m["type"] in ("join", "watch")]

    async def start(self) -> Fake:
        self.server = await serve(self._serve, "127.0.0.1", 0)
        self.url = f"ws://127.0.0.1:{self.server.sockets[0].getsockname()[1]}/ws"
        return self

    async def stop(self) -> None:
        assert self.server is not None
        self.server.close()
        await self.server.wait_closed()

    async def _serve(self, socket: ServerConnection) -> None:
        got: list[dict[str, Any]] = []
        self.connections.append(got)
        self.sockets.append(socket)
        try:
            async for text in socket:
                message = json.loads(text)
                got.append(message)
                if message["type"] == "hello":
                    token = message["token"] or "secret-tui"
                    await socket.send(p.encode(p.Welcome(player="p_tui", token=token,
                                                         name=message["name"])))
                elif message["type"] in ("join", "watch"):
                    answer = self.answer(self, message)
                    if answer is not None:
                        await socket.send(p.encode(answer))
        except ConnectionClosed:
            pass


@pytest.fixture
async def cluster() -> AsyncIterator[Callable[[Answer], Any]]:
    """Starts pretend servers (``await cluster(answer)``) and stops them afterwards."""
    started: list[Fake] = []

    async def make(answer: Answer) -> Fake:
        started.append(await Fake(answer).start())
        return started[-1]

    yield make
    for fake in started:
        await fake.stop()


@pytest.fixture
def pauses(monkeypatch: pytest.MonkeyPatch) -> list[float]:
    """The pauses the session takes between attempts, recorded instead of waited."""
    taken: list[float] = []

    async def pause(seconds: float) -> None:
        taken.append(seconds)
        await asyncio.sleep(0)

    monkeypatch.setattr(remote, "_pause", pause)
    return taken


class Heard:
    """A screen that keeps the connection's news."""

    def __init__(self) -> None:
        self.statuses: list[str] = []
        self.changes = 0

    def changed(self, events: Sequence[Event]) -> None:
        self.changes += 1

    def refused(self, seat: int, code: str, reason: str, lost: Lost | None = None) -> None: ...

    def status(self, text: str) -> None:
        self.statuses.append(text)

    def measured(self, rtt_ms: int) -> None: ...


async def until(condition: Callable[[], bool], timeout: float = 10) -> None:
    """Let the loop run until ``condition()`` holds; fail after ``timeout`` seconds."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not condition():
        assert loop.time() < deadline, "timed out"
        await asyncio.sleep(0.01)


def moved_to(target: Fake | None) -> Answer:
    """Always ``moved`` to ``target`` (``None``: ask home again)."""
    return lambda fake, message: p.Moved(code=message["code"],
                                         url=target.url if target else None)


async def test_a_join_answered_moved_is_asked_again_at_the_named_server_as_the_same_player(
        cluster: Callable[[Answer], Any], pauses: list[float]) -> None:
    owner = await cluster(table)
    home = await cluster(moved_to(owner))
    tui = RemoteSession(home.url, CODE, "Tui", "en", token="secret-tui")
    await tui.open()
    assert tui.url == owner.url and tui.home == home.url
    assert tui.mine == (1,) and tui.view(1) is not None
    assert home.asked == owner.asked == [{"type": "join", "code": CODE, "seat": None}]
    assert owner.connections[0][0] == {"type": "hello", "token": "secret-tui", "name": "Tui"}
    assert pauses == []  # the first hop is at once
    await tui.close()


async def test_a_new_player_brings_the_token_home_gave_it_to_the_tables_server(
        cluster: Callable[[Answer], Any]) -> None:
    owner = await cluster(table)
    home = await cluster(moved_to(owner))
    tui = RemoteSession(home.url, CODE, "Tui", "en")
    await tui.open()
    assert owner.connections[0][0]["token"] == tui.token == "secret-tui"
    await tui.close()


async def test_a_table_its_server_lost_is_asked_for_at_home_again_at_once(
        cluster: Callable[[Answer], Any], pauses: list[float]) -> None:
    owner = await cluster(table)
    taken_over = False  # after the loss home answers with the table itself

    def home_answer(fake: Fake, message: dict[str, Any]) -> p.ServerMessage:
        return table(fake, message) if taken_over else p.Moved(code=CODE, url=owner.url)

    home = await cluster(home_answer)
    tui = RemoteSession(home.url, CODE, "Tui", "en")
    await tui.open()
    heard = Heard()
    tui.start(heard)
    taken_over = True
    await owner.sockets[0].send(p.encode(p.Moved(code=CODE, url=None)))
    await until(lambda: len(home.asked) == 2 and tui.url == home.url and heard.statuses[-1] == "")
    assert home.asked[1] == {"type": "join", "code": CODE, "seat": None}
    assert len(owner.connections) == 1  # not asked again there
    assert pauses == []
    await tui.close()


async def test_a_moved_for_another_table_is_not_followed(
        cluster: Callable[[Answer], Any]) -> None:
    home = await cluster(table)
    other = await cluster(table)
    tui = RemoteSession(home.url, CODE, "Tui", "en")
    await tui.open()
    heard = Heard()
    tui.start(heard)
    await home.sockets[0].send(p.encode(p.Moved(code="ABCDEF", url=other.url)))
    await home.sockets[0].send(p.encode(table_message()))  # arrives after it: still here
    await until(lambda: heard.changes == 1)
    assert tui.url == home.url and other.connections == []
    await tui.close()


async def test_a_dead_tables_server_sends_the_keyboard_home_which_finds_the_new_owner(
        cluster: Callable[[Answer], Any], pauses: list[float]) -> None:
    dead = await cluster(table)
    await dead.stop()  # its port refuses connections now
    asked_home = 0

    def home_answer(fake: Fake, message: dict[str, Any]) -> p.ServerMessage:
        nonlocal asked_home
        asked_home += 1  # the lease runs out after the first ask: home claims the table
        return p.Moved(code=CODE, url=dead.url) if asked_home == 1 else table(fake, message)

    home = await cluster(home_answer)
    tui = RemoteSession(home.url, CODE, "Tui", "en")
    await tui.open()
    assert tui.url == home.url and tui.mine == (1,)
    assert [m["type"] for m in home.asked] == ["join", "join"]
    assert pauses == [RETRY_S[0]]  # the usual pause before going home again
    await tui.close()


async def test_when_the_tables_server_drops_the_connection_the_keyboard_goes_home(
        cluster: Callable[[Answer], Any], pauses: list[float]) -> None:
    owner = await cluster(table)
    home = await cluster(moved_to(owner))
    tui = RemoteSession(home.url, CODE, "Tui", "en")
    await tui.open()
    tui.start(Heard())
    replacement = await cluster(table)
    home.answer = moved_to(replacement)  # once the owner is gone, the table is taken over
    await owner.stop()  # it dies: home is asked, which sends the keyboard where the table is
    await until(lambda: tui.url == replacement.url and len(replacement.asked) == 1)
    assert len(home.asked) == 2 and len(owner.connections) == 1
    assert pauses == [RETRY_S[0]]  # a drop waits the usual pause; the hop after it none
    await tui.close()


async def test_servers_sending_the_keyboard_to_and_fro_back_off_and_then_give_up(
        cluster: Callable[[Answer], Any], pauses: list[float]) -> None:
    one = await cluster(table)
    two = await cluster(moved_to(one))
    one.answer = moved_to(two)
    tui = RemoteSession(one.url, CODE, "Tui", "en")
    with pytest.raises(ValueError, match=f"moved from server to server {MAX_HOPS} times"):
        await tui.open()
    assert len(one.asked) + len(two.asked) == MAX_HOPS + 1
    # never faster than the reconnecting pauses: at once twice, then the pauses growing
    assert pauses == [RETRY_S[min(i, len(RETRY_S) - 1)] for i in range(MAX_HOPS - FREE_HOPS)]
    assert tui.url == tui.home  # a later try starts at home


async def test_a_table_between_servers_is_asked_for_again_after_a_pause(
        cluster: Callable[[Answer], Any], pauses: list[float]) -> None:
    refusals = [p.Error(code="table_moving", reason="its server is gone; try again"),
                p.Error(code="cluster_unavailable", reason="try again")]

    def home_answer(fake: Fake, message: dict[str, Any]) -> p.ServerMessage:
        return refusals.pop(0) if refusals else table(fake, message)

    home = await cluster(home_answer)
    tui = RemoteSession(home.url, CODE, "Tui", "en")
    await tui.open()
    assert tui.mine == (1,) and len(home.asked) == 3
    assert pauses == list(RETRY_S[:2])


async def test_a_table_that_stays_between_servers_is_one_line_in_the_end(
        cluster: Callable[[Answer], Any], pauses: list[float]) -> None:
    home = await cluster(lambda fake, message: p.Error(code="table_moving", reason="gone"))
    tui = RemoteSession(home.url, CODE, "Tui", "en")
    with pytest.raises(ValueError, match=f"table {CODE} at http://127.0.0.1:.*: gone "
                                         r"\(table_moving\)"):
        await tui.open()
    assert len(home.asked) == ASK_AGAIN_TIMES + 1 and len(pauses) == ASK_AGAIN_TIMES


def test_the_moved_message_decodes_as_the_terminal_reads_it() -> None:
    decoded = RemoteSession._decode(b'{"type": "moved", "code": "K7M2QX", "url": null}')
    assert decoded == p.Moved(code=CODE, url=None)
    assert msgspec.json.decode(p.encode(p.Moved(code=CODE, url="ws://h:1/ws"))) == {
        "type": "moved", "code": CODE, "url": "ws://h:1/ws"}
