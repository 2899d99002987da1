"""The cluster under test: ``zackzack serve`` processes sharing a Redis and a PostgreSQL, and
players whose client follows ``moved`` as the browser does (docs/protocol.md).

Everything waits asynchronously (the players' sockets keep being read meanwhile) and every
wait has a deadline several times what it takes on a busy machine.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import signal
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import websockets

from pg import _free_port
from redis_server import Redis
from server.kit import us_action
from server.wire import Scripted
from zackzack.engine.matchlog import MatchLog, parse_log
from zackzack.engine.replay import replay

LEASE = 2.0
"""``--lease`` of every node (seconds): short, so that fail-overs happen within a test."""
STARTUP = 60.0
"""Seconds a node may take to say "serving on" (imports and migrations on a busy machine)."""


class Node:
    """One ``zackzack serve`` process of the cluster; its JSON log lines go to a file."""

    def __init__(self, name: str, folder: Path) -> None:
        self.name, self.folder = name, folder
        self.port = 0
        self.process: subprocess.Popen[bytes] | None = None
        self.stderr = folder / f"{name}.stderr"
        self.stdout = folder / f"{name}.stdout"

    @property
    def url(self) -> str:
        """Its address (also its ``--public-url``)."""
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws(self) -> str:
        """Its websocket's address, as ``moved`` names it."""
        return f"ws://127.0.0.1:{self.port}/ws"

    async def start(self, redis: Redis, db: str, *extra: str) -> None:
        """Start the process and wait until it serves (on a free port: tried again if taken)."""
        for attempt in range(3):
            self.port = _free_port()
            with self.stdout.open("wb") as out, self.stderr.open("wb") as err:
                self.process = subprocess.Popen(
                    [sys.executable, "-m", "zackzack.cli", "serve", "--port", str(self.port),
                     "--public-url", self.url, "--redis", redis.url, "--db", db,
                     "--lease", str(LEASE), *extra], stdout=out, stderr=err)
            deadline = time.monotonic() + STARTUP
            while "serving on" not in self.stdout.read_text(errors="replace"):
                if self.process.poll() is not None or time.monotonic() > deadline:
                    break
                await asyncio.sleep(0.05)
            else:
                return
            self.kill()
            failed = self.stderr.read_text(errors="replace")
            assert attempt < 2 and "cannot listen" in failed, f"node {self.name}: {failed}"

    def events(self, name: str | None = None, **fields: Any) -> list[dict[str, Any]]:
        """The node's logged events so far (those called ``name`` with these ``fields``)."""
        found = []
        for line in self.stderr.read_text(errors="replace").splitlines():
            if not line.startswith("{"):
                continue
            logged = json.loads(line)
            if (name is None or logged.get("event") == name) \
                    and all(logged.get(k) == v for k, v in fields.items()):
                found.append(logged)
        return found

    async def event(self, name: str, seconds: float, **fields: Any) -> dict[str, Any]:
        """Wait for the first event ``name`` with these ``fields``."""
        return await first_event([self], name, seconds, **fields)

    def kill(self) -> None:
        """``kill -9``."""
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGCONT)  # a stopped process dies only when it runs
            self.process.kill()
        if self.process is not None:
            self.process.wait(10)

    def pause(self) -> None:
        """SIGSTOP: the process stands still, its sockets stay open."""
        assert self.process is not None
        self.process.send_signal(signal.SIGSTOP)

    def resume(self) -> None:
        """SIGCONT."""
        assert self.process is not None
        self.process.send_signal(signal.SIGCONT)

    def stop(self) -> None:
        """Stop it the usual way (SIGTERM), or kill it if it does not stop."""
        if self.process is None or self.process.poll() is not None:
            return
        self.process.send_signal(signal.SIGCONT)
        self.process.terminate()
        try:
            self.process.wait(15)
        except subprocess.TimeoutExpired:
            self.kill()

    async def get(self, path: str) -> httpx.Response:
        """``GET path`` from this node."""
        async with httpx.AsyncClient(base_url=self.url, timeout=10) as http:
            return await http.get(path)

    def tail(self, lines: int = 40) -> str:
        """The last lines of its standard error, for a failure's report."""
        text = self.stderr.read_text(errors="replace") if self.stderr.exists() else ""
        return "\n".join(text.splitlines()[-lines:])


async def first_event(nodes: list[Node], name: str, seconds: float,
                      **fields: Any) -> dict[str, Any]:
    """Wait for the first event ``name`` with these ``fields`` on any of ``nodes``; it has
    ``"node"`` set to the name of the node that logged it."""
    deadline = time.monotonic() + seconds
    while True:
        for node in nodes:
            found = node.events(name, **fields)
            if found:
                return {**found[0], "node": node.name}
        assert time.monotonic() < deadline, \
            f"no {name} {fields} in {seconds} s:\n" + "\n".join(n.tail(15) for n in nodes)
        await asyncio.sleep(0.05)


class Cluster:
    """A Redis, a database and the nodes started so far (closed by ``close``)."""

    def __init__(self, folder: Path, redis: Redis, db: str) -> None:
        self.folder, self.redis, self.db = folder, redis, db
        self.nodes: list[Node] = []

    async def start(self, *names: str) -> list[Node]:
        """Start a node for each name: the first alone (it migrates the new database), the
        others then at once."""
        nodes = [Node(name, self.folder) for name in names]
        self.nodes += nodes
        await nodes[0].start(self.redis, self.db)
        await asyncio.gather(*(node.start(self.redis, self.db) for node in nodes[1:]))
        return nodes

    def close(self) -> None:
        """Stop every node."""
        for node in self.nodes:
            node.stop()


class Roamer(Scripted):
    """A player whose client does what the browser does (docs/protocol.md, ``moved``): told
    ``moved``, it connects to the url (or to its home server if the url is null or does not
    answer), says hello with the same token and asks for the same table again; a dropped
    connection, or an action unanswered for ``patience`` seconds (its server stands still),
    sends it home to ask again."""

    def __init__(self, name: str, home: str, token: str | None = None,
                 patience: float = 5.0) -> None:
        super().__init__(name, token)
        self.home, self.patience = home, patience
        self.at = ""
        """The server it is connected to now."""
        self.place: dict[str, Any] | None = None
        """Its last ``join``/``watch``: asked again after every hop."""
        self.hops: list[str] = []
        """The servers it connected to after the first one, in order."""
        self.moves: list[dict[str, Any]] = []
        """The ``moved`` messages it was sent."""
        self.drops = 0
        self.refused: list[dict[str, Any]] = []
        """The answers to its hellos that were not a welcome (an error)."""
        self.stale = False
        self._keeper: asyncio.Task[None] | None = None

    async def start(self, at: str | None = None) -> dict[str, Any]:
        """Connect to ``at`` (default: home) and keep connected from now on: the welcome."""
        welcome = await self.connect(at or self.home)
        self._keeper = asyncio.create_task(self._keep())
        return welcome

    async def connect(self, http: str) -> dict[str, Any]:
        """Open the websocket and say hello with the token (5 s at most): the welcome."""
        self.closed = False
        async with asyncio.timeout(5):
            try:
                welcome = await super().connect(http)
            except KeyError:  # an error, not a welcome (the store is away): try again soon
                self.refused.append(self.welcome)
                raise ConnectionRefusedError(f"hello refused: {self.welcome}") from None
        self.at = http
        return welcome

    async def go(self, kind: str, code: str, **fields: Any) -> dict[str, Any]:
        """``join``/``watch`` table ``code`` (following ``moved``): its ``table`` message."""
        self.place = {"type": kind, "code": code, **fields}
        start = len(self.seen)
        await self.send(**self.place)
        table: dict[str, Any] = await self.wait_for(lambda: next(
            (m for m in self.seen[start:] if m["type"] == "table"
             and m["table"]["code"] == code), None), 30)
        return table

    async def _keep(self) -> None:
        checked = 0
        while True:
            await asyncio.sleep(0.02)
            news, checked = self.seen[checked:], len(self.seen)
            moved = next((m for m in news if m["type"] == "moved"), None)
            if moved is not None:
                self.moves.append(moved)
            if moved is not None or self.closed or self.stale:
                await self._hop(moved["url"] if moved is not None else None)
                checked = len(self.seen)

    async def _hop(self, url: str | None) -> None:
        self.drops += 1
        self.stale = False
        self.view = {}  # until the table is shown again
        self.changed.set()
        await self._drop()
        target = url.removesuffix("/ws").replace("ws", "http", 1) if url else self.home
        deadline = time.monotonic() + 90
        while True:
            try:
                await self.connect(target)
            except (OSError, TimeoutError, websockets.WebSocketException):
                await self._drop()
                assert time.monotonic() < deadline, f"{self.name} found no server"
                target = self.home
                await asyncio.sleep(0.2)  # the browser waits a little before it tries again
                continue
            self.hops.append(target)
            if self.place is not None:
                await self.send(**self.place)
            return

    async def _drop(self) -> None:
        """Close the websocket now (no closing handshake with a server that stands still)."""
        if self.ws is not None:
            self.ws.transport.abort()
        reader = self._reader
        if reader is not None:
            # ``asyncio.wait``: a close that cancels a hop in this very wait leaves the reader
            # cancelled, and a later close must not take that for its own cancellation
            await asyncio.wait({reader})
            if not reader.cancelled():
                reader.exception()  # (whatever it ended with is read: never logged)
        self.ws, self._reader = None, None

    async def wait_for(self, condition: Callable[[], Any], seconds: float = 10.0) -> Any:
        """Wait until ``condition()`` is true after some message arrived (through hops)."""
        async with asyncio.timeout(seconds):
            while not (value := condition()):
                self.changed.clear()
                await self.changed.wait()
            return value

    async def send(self, **message: Any) -> None:
        """Send one message (lost if the connection is down: the hop asks again)."""
        if self.ws is not None:
            with contextlib.suppress(websockets.ConnectionClosed):
                await super().send(**message)

    async def act(self, action: dict[str, Any]) -> dict[str, Any]:
        """Act and wait for the ack (``{}`` if the connection dropped or nobody answered)."""
        ref, drops = next(self.refs), self.drops
        await self.send(type="act", ref=ref, action=action)
        try:
            ack: dict[str, Any] = await self.wait_for(
                lambda: self.acks.get(ref) or (self.drops != drops and {"lost": True}),
                self.patience)
        except TimeoutError:
            self.stale = self.drops == drops
            return {}
        return ack

    async def play(self, until: Callable[[], bool], every: float = 0.07,
                   hold: Callable[[], bool] = lambda: False) -> None:
        """Play Unter Spannung on the latest view until ``until()``, through every hop; while
        ``hold()``, only draw (so this player cannot end the round)."""
        while not until():
            view = self.view
            if view.get("phase") == "playing" and view["state"] is not None \
                    and view["frozen_until"][view["seat"]] <= view["now"]:
                action = draw(view) if hold() else us_action(view)
                if action is not None:
                    await self.act(action)
            await asyncio.sleep(every)

    async def close(self) -> None:
        """Stop following and close the websocket."""
        if self._keeper is not None:
            self._keeper.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._keeper
        await self._drop()


async def until(condition: Callable[[], bool], seconds: float) -> None:
    """Wait until ``condition()`` holds (looked at every 20 ms)."""
    async with asyncio.timeout(seconds):
        while not condition():
            await asyncio.sleep(0.02)


def draw(view: dict[str, Any]) -> dict[str, Any] | None:
    """A draw, if the seat of ``view`` has cards left to draw."""
    return {"type": "draw"} if view["state"]["draw_counts"][view["seat"]] else None


def lobby(watcher: Roamer) -> dict[str, dict[str, Any]]:
    """The tables of the latest ``lobby`` the watcher was sent, by code."""
    found = next((m for m in reversed(watcher.seen) if m["type"] == "lobby"), None)
    return {t["code"]: t for t in found["tables"]} if found else {}


def over(*players: Roamer) -> Callable[[], bool]:
    """Whether every one of ``players`` sees the match over."""
    return lambda: all(p.view.get("phase") == "over" for p in players)


def ended(player: Roamer) -> dict[str, Any]:
    """The last view of a match over that ``player`` was sent. Not ``player.view``: a process
    that stalls past its lease after the end (a slow commit on a busy machine) loses the
    table, and the hop that follows blanks the view until the table is shown again."""
    view: dict[str, Any] | None = next((m["view"] for m in reversed(player.seen)
                                        if "view" in m and m["view"].get("phase") == "over"),
                                       None)
    assert view is not None, f"{player.name} was never shown the match over"
    return view


async def create(host: Roamer, seats: list[dict[str, Any]], **options: Any) -> str:
    """``host`` creates an Unter Spannung table (and sits at the first open seat): its code."""
    start = len(host.seen)
    await host.send(type="create", game="unter-spannung", seats=seats, options=options)
    shown = await host.wait_for(lambda: next(
        (m for m in host.seen[start:] if m["type"] in ("table", "error")), None))
    assert shown["type"] == "table", shown
    code: str = shown["table"]["code"]
    host.place = {"type": "watch", "code": code}
    return code


async def stored_log(node: Node, match: str) -> MatchLog:
    """The finished match's log, as ``GET /api/matches/{id}/log`` of ``node`` serves it."""
    answer = await node.get(f"/api/matches/{match}/log")
    assert answer.status_code == 200, answer.text
    return parse_log(answer.json())


def conserved(log: MatchLog) -> bool:
    """Whether the log replays with every card of the deck still there."""
    table = replay(log).table
    return table.rules.cards(table.state) == Counter(table.options.deck)


def accepted(log: MatchLog, seat: int) -> int:
    """How many of ``seat``'s actions the table accepted."""
    return sum(step.seat == seat and step.outcome == "accepted" for step in replay(log).steps)


async def stored_once(node: Node, code: str, match: str) -> dict[str, Any]:
    """Wait until ``GET /api/matches`` on ``node`` lists ``match``; it must be the only match
    of table ``code``: its summary."""
    async with asyncio.timeout(20):  # stored before anyone is told, but the lists may lag
        while True:
            answer = await node.get("/api/matches?limit=100")
            assert answer.status_code == 200, answer.text
            found = [m for m in answer.json()["matches"] if m["code"] == code]
            if found:
                assert [m["id"] for m in found] == [match]
                return found[0]
            await asyncio.sleep(0.1)

