"""Fair races over real sockets: near and far bots behind a delaying network, against the simulator.

A real server (uvicorn, the real app, a fresh SQLite file) runs in a child process with short
table pauses (``--start-ms``, ``--between-ms``), listening on 198.18.0.1. Each pair of players
is two websocket clients in this process whose sockets live in a network namespace behind a
``DelayNet`` (``tests/delaynet.py``): a forwarder process carries every IP packet between the
namespace and the server half a round trip later (± ``--jitter`` of that, never overtaking the
packet before, like ``zackzack.sim.network``), so the kernel's own TCP round trip
(``TCP_INFO``) on both ends is the wire's, as over a real network. The near players come from
198.18.1.1 at ``--near`` ms, the far ones from 198.18.1.2 at ``--far`` ms. Both are the real
``zackzack.bots.Bot`` (``--bot``, default ``normal``), acting through a websocket
``race.Link``; they answer the server's pings at once, so the server measures their lag and
credits it as it would a person's. Seat 0 creates an Unter Spannung table with two open seats,
seat 1 joins (as ``--rtt NEAR,FAR`` seats them in the simulator), both get ready, the match is
played to its end, and the pair starts the next table, for ``--seconds`` of wall time (tables
running at the deadline are played to their end, within ``--grace``).

**Attacks** (issue 27), applied to seat 0, the *cheater* (``--far`` then defaults to
``--near``: both at the same real round trip, the cheater against an honest player):

- ``--pong-delay MS``: answers the server's ``ping`` messages MS late (actions are not
  delayed): a lag estimate bought with nothing;
- ``--reconnect-each-action``: before each action a fresh websocket (a new TCP connection
  from the same address) says hello with the same token and joins the table again; the action
  goes on the new connection, the old one is closed (a fresh connection's lag may start from
  nothing, or from a single sample).

It prints the focus seat's share of round wins over the wire with its 95 % Wilson interval
(the far player's; with an attack, the cheater's), the simulator's figure for the same honest
setup (``zackzack.sim``, in-process after the run, ``--sim-rounds``), and whether the two
intervals overlap; cards too late per round for each seat; the round trips the server
announced in its pings and the kernel's ``tcpi_min_rtt`` / ``tcpi_rtt`` of each client's
socket; the client loop's own lateness; and the **too-late window** each seat got: the
largest press delay after the pile change that a card's ``seen`` version missed (the change's
arrival at this client to the bot's press) that the server still judged *too late*, against
the smallest such delay judged a wrong card (``does_not_fit``; the card did fit the version it
was chosen on). A credit bought by a cheater shows as a wider window (``reaction_ms`` plus the
credit, at most ``late_grace_ms``). The bots seldom press that late, so ``--probe-window S``
measures it on purpose after the pairs: for S seconds each seat's client (seat 0 with its
attack) plays tables against a bot of the server's (a slow ``beginner`` plays its own cards),
and whenever the bot's card makes one in its hand stale it presses that card anyway,
``--probe-span`` ms (uniform, default 200–1300) after the change arrived, naming the version it
fitted; it prints the largest delay judged too late and the smallest judged wrong, per seat.

    .venv/bin/python bench/wire_fairness.py --pairs 150 --seconds 240 --sim-rounds 10000
    .venv/bin/python bench/wire_fairness.py --pairs 150 --seconds 240 --sim-rounds 10000 \
        --no-compensation
    .venv/bin/python bench/wire_fairness.py --pairs 40 --seconds 120 --grace 90 \
        --sim-rounds 2000 --jobs 1 --probe-window 60     # 10 / 100 ms, and both windows
    .venv/bin/python bench/wire_fairness.py --pairs 40 --seconds 120 --grace 90 \
        --sim-rounds 0 --probe-window 60 --pong-delay 200  # cheater and honest both at 10 ms
    .venv/bin/python bench/wire_fairness.py --pairs 40 --seconds 120 --grace 90 \
        --sim-rounds 0 --probe-window 60 --reconnect-each-action
    .venv/bin/python bench/wire_fairness.py --pairs 0 --probe-window 60 --pong-delay 200 \
        --sim-rounds 0                                    # the windows alone, in 1-2 minutes
    .venv/bin/python bench/wire_fairness.py --pairs 4 --seconds 20 --sim-rounds 500  # a quick look

Needs root and ``/dev/net/tun`` (a network namespace and two TUN devices; it says so and
stops otherwise). (150 pairs give about 1 150 rounds in 6 minutes.) Every client comes from
one of a few addresses, so the server runs without its per-address limits. Each table starts
once both seats have answered a ping there (the new table's arbiter learns their lag from
that; ``--start-at-once`` skips the wait). ``--json FILE`` writes every figure. Everything
stays on this machine (198.18.0.0/15, the benchmarking range, between a namespace and the
root namespace); the run is bounded by ``--seconds`` + ``--grace`` (+ the simulation).
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import contextlib
import json
import random
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import msgspec
import websockets
from websockets.asyncio.client import ClientConnection

from zackzack.bots import Bot, parse_bot
from zackzack.engine.race import PROBE_EVERY_S, Reply
from zackzack.engine.table import Phase, RoundScored, Subscriber, TableView
from zackzack.games import errors, game
from zackzack.games.base import Action, Event, plain
from zackzack.games.registry import refusals
from zackzack.games.unter_spannung import Play, Played
from zackzack.tui.codec import decode_event, decode_view

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from delaynet import DelayNet, tcp_rtt_ms, unavailable_reason

GAME = "unter-spannung"
REFUSALS: dict[str, type[errors.IllegalAction]] = {kind.code: kind for kind in refusals()}
"""An ``ack``'s refusal code → the table's exception for it (as ``Bot`` expects)."""
SETUP_TIMEOUT_S = 30.0
"""The longest one step of making a table may take (create, join, ready, start)."""
MATCH_TIMEOUT_S = 900.0
"""The longest one match may take before the pair gives up on it."""
OLD_CONNECTION_S = 2.0
"""How long a replaced connection (``--reconnect-each-action``) stays open for its acks."""


class Network:
    """Where the clients are: the DelayNet, the server's address and port, and each role's
    client address."""

    def __init__(self, net: DelayNet, port: int, addresses: dict[str, str]) -> None:
        self.net, self.port, self.addresses = net, port, addresses

    @property
    def url(self) -> str:
        return f"ws://{self.net.server_address}:{self.port}/ws"


# A client and its Link ---------------------------------------------------------------------


class Client:
    """One player's websocket (from its address in the DelayNet): keeps the latest view,
    answers pings (``pong_delay_s`` late), hands events to its subscribers and acks to the
    actions' replies; with ``reconnect`` it opens a new connection before every action."""

    def __init__(self, name: str, network: Network, stats: Stats, pong_delay_s: float = 0.0,
                 reconnect: bool = False) -> None:
        self.name, self.network, self.stats = name, network, stats
        self.role = name.split()[0]
        self.address = network.addresses[self.role]
        self.pong_delay_s, self.reconnect = pong_delay_s, reconnect
        self.loop = asyncio.get_running_loop()
        self.rules: Any = game(GAME)
        self.ws: ClientConnection | None = None
        self.token: str | None = None
        self.outbox: asyncio.Queue[str] = asyncio.Queue()
        self.tasks: list[asyncio.Task[None]] = []
        self.view: TableView | None = None
        self.view_at = 0.0
        self.info: dict[str, Any] | None = None
        self.seat: int | None = None
        self.rtt_ms: int | None = None
        """The server's smoothed estimate of this connection's round trip (its ``ping``)."""
        self.callbacks: list[Subscriber] = []
        self.replies: dict[int, Reply] = {}
        self.ref = 0
        self.waiters: list[tuple[Callable[[dict[str, Any]], bool], asyncio.Future[Any],
                                 ClientConnection | None]] = []
        self.winners: list[int | None] = []
        """Round winners as this client saw them in ``round_scored``, in order."""
        self.closed = False
        self.versions: dict[int, tuple[float, Any]] = {}
        """This round's pile versions as they arrived here: version → (loop time, top card)."""
        self.switching = asyncio.Lock()

    async def _open(self) -> ClientConnection:
        """A new websocket from this client's address in the DelayNet."""
        network = self.network
        sock = network.net.socket(self.address, blocking=False)
        try:
            await asyncio.wait_for(
                self.loop.sock_connect(sock, (network.net.server_address, network.port)),
                SETUP_TIMEOUT_S)
        except BaseException:
            sock.close()
            raise
        return await websockets.connect(network.url, sock=sock, compression=None,
                                        ping_interval=None, open_timeout=SETUP_TIMEOUT_S,
                                        max_size=None)

    async def connect(self) -> None:
        self.ws = await self._open()
        self.tasks = [self.loop.create_task(self._read(self.ws)),
                      self.loop.create_task(self._write())]
        welcome = self.until(lambda m: m["type"] in ("welcome", "error"))
        self.send({"type": "hello", "name": self.name})
        answer = await welcome
        if answer["type"] == "error":
            raise ConnectionError(f"hello refused: {answer['code']}")
        self.token = answer["token"]

    async def switch(self) -> None:
        """``--reconnect-each-action``: a new connection, hello with the same token, join the
        table shown now; then it carries everything and the old one is closed soon after."""
        async with self.switching:
            self.tasks = [task for task in self.tasks if not task.done()]
            old, info = self.ws, self.info
            if old is None or info is None or self.closed or self.view is None \
                    or self.view.phase is not Phase.PLAYING:
                return  # between tables: a new table is being made on this connection
            ws = await self._open()
            self.tasks.append(self.loop.create_task(self._read(ws)))
            welcome = self.until(lambda m: m["type"] in ("welcome", "error"), ws=ws)
            await ws.send(msgspec.json.encode(
                {"type": "hello", "token": self.token, "name": self.name}).decode())
            if (await welcome)["type"] == "error":
                raise ConnectionError("hello with the token refused")
            code = info["code"]
            joined = self.until(lambda m: m["type"] == "table" and m["table"]["code"] == code,
                                ws=ws)
            await ws.send(msgspec.json.encode({"type": "join", "code": code}).decode())
            message = await joined
            self.ws = ws  # from here on the new connection carries everything
            self.stats.reconnects += 1
            self._receive(message, ws, replay=True)
            self.loop.call_later(OLD_CONNECTION_S,
                                 lambda: self.tasks.append(self.loop.create_task(
                                     self._close(old))))

    @staticmethod
    async def _close(ws: ClientConnection) -> None:
        with contextlib.suppress(Exception):
            await asyncio.wait_for(ws.close(), 2)

    def send(self, message: dict[str, Any]) -> None:
        """Send ``message`` now (in order with everything sent before)."""
        self.outbox.put_nowait(msgspec.json.encode(message).decode())

    def until(self, check: Callable[[dict[str, Any]], bool],
              timeout: float = SETUP_TIMEOUT_S,
              ws: ClientConnection | None = None) -> asyncio.Future[Any]:
        """The first message from now on for which ``check`` holds (register before sending);
        from connection ``ws`` (default: whichever carries everything then)."""
        future: asyncio.Future[Any] = self.loop.create_future()
        self.waiters.append((check, future, ws))
        return asyncio.ensure_future(asyncio.wait_for(future, timeout))

    async def _write(self) -> None:
        while True:
            text = await self.outbox.get()
            ws = self.ws
            if ws is None:
                continue
            try:
                await ws.send(text)
            except (websockets.ConnectionClosed, OSError):
                if ws is self.ws:
                    return

    async def _read(self, ws: ClientConnection) -> None:
        try:
            async for text in ws:
                self._receive(msgspec.json.decode(text), ws)
        except (websockets.ConnectionClosed, OSError):
            pass
        except Exception as error:  # a bug here: say so, not just "connection closed"
            self.stats.failures[f"{self.name}: {error!r}"[:120]] += 1
            raise
        finally:
            if ws is self.ws:
                self.closed = True
                for _, future, _ in self.waiters:
                    if not future.done():
                        future.set_exception(ConnectionError(f"{self.name}: connection closed"))
                self.waiters.clear()

    def _receive(self, message: dict[str, Any], ws: ClientConnection,
                 replay: bool = False) -> None:
        kind = message.get("type")
        current = ws is self.ws
        if not replay and self.waiters:
            keep = []
            for check, future, source in self.waiters:
                if future.done():
                    continue
                if (source is ws or (source is None and current)) and check(message):
                    future.set_result(message)
                else:
                    keep.append((check, future, source))
            self.waiters = keep
        if not current and kind not in ("ack", "error"):
            return  # a connection being opened or replaced: only its actions' answers count
        if kind == "ping":  # answer at once (or as late as told): how the server measures
            pong = msgspec.json.encode({"type": "pong", "n": message["n"]}).decode()
            if self.pong_delay_s > 0:
                self.loop.call_later(self.pong_delay_s, self._answer_ping, ws, pong)
            else:
                self.outbox.put_nowait(pong)
            self.rtt_ms = message.get("rtt")
            if self.rtt_ms is not None:
                self.stats.rtts[self.role].append(self.rtt_ms)
        elif kind == "table":
            self.info = message["table"]
            self.seat = self.info["you"] if self.info is not None else None
            self._take_view(message["view"])
        elif kind == "events":
            self._take_view(message["view"])
            events = [e for e in (decode_event(self.rules, data) for data in message["events"])
                      if e is not None]
            for event in events:
                if isinstance(event, RoundScored):
                    self.winners.append(event.result.winner)
            for callback in list(self.callbacks):
                callback(events)
        elif kind == "ack":
            reply = self.replies.pop(message["ref"], None)
            if reply is not None:
                reply(self._outcome(message))
        elif kind == "error":
            self.stats.errors[message.get("code", "?")] += 1
            ref = message.get("ref")
            reply = self.replies.pop(ref, None) if ref is not None else None
            if reply is not None:
                reply(errors.IllegalAction(message.get("reason", "")))

    def _answer_ping(self, ws: ClientConnection, pong: str) -> None:
        """A late pong goes on the connection that was pinged (if it is still the one)."""
        if ws is self.ws:
            self.outbox.put_nowait(pong)

    def _take_view(self, data: Any) -> None:
        if data is not None:
            self.view = decode_view(self.rules, data)
            self.view_at = self.loop.time()
            state = self.view.state
            version = getattr(state, "version", None)
            if version is not None:
                if self.versions and version < max(self.versions):
                    self.versions = {}  # a new round: versions start again
                self.versions.setdefault(version, (self.view_at, getattr(state, "top", None)))

    def press_delay(self, action: Action) -> tuple[float | None, bool]:
        """How long before now the change after the pile version ``action`` was chosen on
        arrived here, in ms (``None``: none had arrived: a race on the wire), and whether
        the card fitted that version's top (as far as this client saw it)."""
        seen = getattr(action, "seen", None)
        card = getattr(action, "card", None)
        if seen is None or card is None:
            return None, False
        later = [at for version, (at, _) in self.versions.items() if version > seen]
        top = self.versions.get(seen, (0.0, None))[1]
        fitted = top is not None and card.value in top.allowed
        if not later:
            return None, fitted
        return (self.loop.time() - min(later)) * 1000, fitted

    def _outcome(self, ack: dict[str, Any]) -> list[Event] | errors.IllegalAction:
        if ack.get("ok"):
            self.stats.accepted += 1
            return []
        code = ack.get("code") or "illegal_action"
        self.stats.refusals[code] += 1
        error = REFUSALS.get(code, errors.IllegalAction)(ack.get("reason") or "")
        if isinstance(error, errors.TooLate):
            error.winner, error.margin_ms = ack.get("winner"), ack.get("margin_ms")
        return error

    def kernel_rtt(self) -> tuple[float, float] | None:
        """The kernel's (min_rtt, srtt) of this client's socket, in ms."""
        ws = self.ws
        sock = ws.transport.get_extra_info("socket") if ws is not None else None
        return tcp_rtt_ms(sock) if sock is not None else None

    def table_now(self) -> int:
        """The table's time as this end of the wire can tell: the latest view's ``now``, plus
        the time since it arrived, plus the half round trip it took to come."""
        view = self.view
        if view is None:
            return 0
        half = (self.rtt_ms or 0) / 2
        return round(view.now + (self.loop.time() - self.view_at) * 1000 + half)

    async def close(self) -> None:
        for task in self.tasks:
            task.cancel()
        if self.ws is not None:
            await self._close(self.ws)


class WireLink:
    """A ``race.Link`` over the websocket: decoded events, the latest view of the seat,
    actions as ``act`` messages answered by their ``ack``."""

    instant = False

    def __init__(self, client: Client) -> None:
        self.client = client

    def subscribe(self, callback: Subscriber) -> Callable[[], None]:
        client = self.client
        client.callbacks = [*client.callbacks, callback]

        def unsubscribe() -> None:
            client.callbacks = [c for c in client.callbacks if c is not callback]

        return unsubscribe

    def view(self) -> Any:
        """The game's view of the seat from the latest message."""
        view = self.client.view
        return view.state if view is not None else None

    def submit(self, action: Action, reply: Reply) -> None:
        client = self.client
        if client.closed:
            reply(errors.IllegalAction("the connection is closed"))
            return
        delay, fitted = client.press_delay(action)
        stats, role = client.stats, client.role

        def answered(outcome: list[Event] | errors.IllegalAction) -> object:
            if delay is not None and isinstance(outcome, errors.TooLate):
                stats.windows[role]["too_late"].append(delay)
            elif delay is not None and fitted and isinstance(outcome, errors.DoesNotFit):
                stats.windows[role]["wrong"].append(delay)
            return reply(outcome)

        client.ref += 1
        ref = client.ref
        client.replies[ref] = answered
        stats.actions += 1
        message = {"type": "act", "ref": ref, "action": plain(action)}
        if not client.reconnect:
            client.send(message)
            return

        async def anew() -> None:
            try:
                await client.switch()
            except (TimeoutError, ConnectionError, OSError, websockets.WebSocketException) as error:
                stats.failures[f"reconnect: {type(error).__name__}: {error}"[:120]] += 1
            client.send(message)

        client.tasks.append(client.loop.create_task(anew()))


class RemoteTable:
    """What ``Bot`` reads of its table, as one client's end of the wire sees it."""

    def __init__(self, client: Client, options: Any) -> None:
        self.client = client
        self.rules = client.rules
        self.options = options
        self.players: int = options.players
        self.clock = client.loop
        self.match = None

    @property
    def phase(self) -> Phase:
        view = self.client.view
        return view.phase if view is not None else Phase.WAITING

    @property
    def now(self) -> int:
        return self.client.table_now()

    @property
    def frozen_until(self) -> tuple[int, ...]:
        view = self.client.view
        return view.frozen_until if view is not None else (0,) * self.players

    @property
    def last_action(self) -> tuple[int, ...]:
        """Unknown over the wire; only a one-hand seat reads it (not in Unter Spannung)."""
        return (self.now,) * self.players


# The run ---------------------------------------------------------------------------------


class Stats:
    """What the pairs measured."""

    def __init__(self) -> None:
        self.rounds: list[int | None] = []
        """The winner of every round played (seat 0 near or the cheater, seat 1 far or the
        honest player)."""
        self.too_late = [0, 0]
        self.wrong = [0, 0]
        self.matches = 0
        self.unfinished = 0
        self.failures: collections.Counter[str] = collections.Counter()
        self.errors: collections.Counter[str] = collections.Counter()
        self.refusals: collections.Counter[str] = collections.Counter()
        self.rtts: dict[str, list[int]] = collections.defaultdict(list)
        """Per role: the round trips the server announced in its pings."""
        self.kernel: dict[str, list[tuple[float, float]]] = collections.defaultdict(list)
        """Per role: the kernel's (min_rtt, srtt) of the client's socket after each match."""
        self.windows: dict[str, dict[str, list[float]]] = collections.defaultdict(
            lambda: {"too_late": [], "wrong": []})
        """Per role: press delays (ms after the change the card's version missed arrived)
        of cards judged too late, and of cards judged wrong that fitted their version."""
        self.reconnects = 0
        self.probes: dict[str, list[tuple[float, str]]] = collections.defaultdict(list)
        """Per role: (press delay in ms, the server's answer) of each window probe."""
        self.probes_dropped = 0
        self.lag: list[float] = []
        self.actions = 0
        self.accepted = 0
        self.cpu_seconds = 0.0


class Unfinished(Exception):
    """A match did not end in time (its rounds are not counted)."""


def _match_ended(message: dict[str, Any]) -> bool:
    return message["type"] == "events" and any(
        event.get("type") == "match_ended" for event in message["events"])


async def play_table(near: Client, far: Client, old: str, args: argparse.Namespace,
                     stats: Stats, rng: random.Random, timeout: float) -> str:
    """One match at a new table: the near player makes it (seat 0), the far one joins (seat 1),
    both ready, bots on, start, until ``match_ended``. Returns the table's code."""
    for client in (near, far):  # a new connection still being opened carries the new table
        async with client.switching:
            pass
    created = near.until(lambda m: m["type"] == "table" and m["table"]["you"] == 0
                         and m["table"]["code"] != old)
    near.send({"type": "create", "game": GAME, "options": {"tournament": args.tournament},
               "seats": [{"kind": "open"}, {"kind": "open"}],
               "compensation": not args.no_compensation, "private": True})
    code: str = (await created)["table"]["code"]
    joined = far.until(lambda m: m["type"] == "table" and m["table"]["code"] == code
                       and m["table"]["you"] == 1)
    ready = near.until(lambda m: m["type"] == "table" and m["table"]["code"] == code
                       and m["table"]["seats"][1]["ready"])
    far.send({"type": "join", "code": code})
    await joined
    far.send({"type": "ready", "ready": True})
    await ready
    if not args.start_at_once:
        # The new table's arbiter learns a seat's lag from the seat's next ping answer (up to
        # PROBE_EVERY_S after the join), not from what the connection measured before: start
        # once both have answered one here, as the live start countdown (3 s) makes sure of.
        await asyncio.gather(*(client.until(lambda m: m["type"] == "ping",
                                            timeout=2 * PROBE_EVERY_S + 5)
                               for client in (near, far)))
    assert near.info is not None
    options = near.rules.parse_options(near.info["options"])
    spec = parse_bot(args.bot)
    bots = [Bot(RemoteTable(client, options), seat, spec,  # type: ignore[arg-type]
                random.Random(rng.random()), WireLink(client))
            for seat, client in enumerate((near, far))]
    before, far_before = len(near.winners), len(far.winners)
    ended = [client.until(_match_ended, timeout=timeout) for client in (near, far)]
    near.send({"type": "start"})
    try:
        await asyncio.gather(*ended)
    except TimeoutError:
        stats.unfinished += 1
        raise Unfinished from None
    finally:
        for bot in bots:
            bot.stop()
    stats.matches += 1
    stats.rounds.extend(near.winners[before:])
    if near.winners[before:] != far.winners[far_before:]:
        stats.failures["the two seats were told different round winners"] += 1
    for seat, bot in enumerate(bots):
        stats.too_late[seat] += bot.too_late
        stats.wrong[seat] += bot.wrong_cards
    for client in (near, far):
        figures = client.kernel_rtt()
        if figures is not None:
            stats.kernel[client.role].append(figures)
    return code


def roles(args: argparse.Namespace) -> tuple[str, str]:
    """The names of seat 0 and seat 1: near and far, or the cheater and the honest player."""
    return ("cheater", "honest") if attacked(args) else ("near", "far")


def attacked(args: argparse.Namespace) -> bool:
    return bool(args.pong_delay or args.reconnect_each_action)


async def play_pair(number: int, network: Network, args: argparse.Namespace, stats: Stats,
                    deadline: float, hard_stop: float) -> None:
    """Seat 0 and seat 1 (near and far, or the cheater and the honest player): table after
    table until the deadline."""
    rng = random.Random(args.seed * 1_000_003 + number)
    clients: list[Client] = []
    loop = asyncio.get_running_loop()
    try:
        for seat, role in enumerate(roles(args)):
            cheat = seat == 0 and attacked(args)
            client = Client(f"{role} {number}", network, stats,
                            pong_delay_s=args.pong_delay / 1000 if cheat else 0.0,
                            reconnect=cheat and args.reconnect_each_action)
            clients.append(client)
            await client.connect()
        code = ""
        while loop.time() < deadline:
            timeout = max(1.0, min(MATCH_TIMEOUT_S, hard_stop - loop.time()))
            code = await play_table(clients[0], clients[1], code, args, stats, rng, timeout)
    except Unfinished:
        pass
    except (TimeoutError, ConnectionError, OSError, websockets.WebSocketException) as error:
        stats.failures[f"{type(error).__name__}: {error}"[:120]] += 1
    finally:
        for client in clients:
            await client.close()


async def ticker(stats: Stats, stop: float) -> None:
    """How late this loop wakes up (if this is large, the bots were slowed by the load here
    and not only by the network); a line of progress every 30 s."""
    loop = asyncio.get_running_loop()
    started = told = loop.time()
    while loop.time() < stop:
        before = loop.time()
        await asyncio.sleep(0.05)
        stats.lag.append((loop.time() - before - 0.05) * 1000)
        if loop.time() - told >= 30:
            told = loop.time()
            won = [sum(1 for winner in stats.rounds if winner == seat) for seat in (0, 1)]
            print(f"  {told - started:4.0f} s: {stats.matches} matches, {len(stats.rounds)} "
                  f"rounds, won {won[0]} / {won[1]}", flush=True)


async def run_pairs(network: Network, args: argparse.Namespace) -> Stats:
    stats = Stats()
    cpu = time.process_time()
    loop = asyncio.get_running_loop()
    deadline = loop.time() + args.seconds
    hard_stop = deadline + args.grace
    tick = loop.create_task(ticker(stats, hard_stop))
    pairs = []
    for number in range(args.pairs):
        pairs.append(loop.create_task(play_pair(number, network, args, stats, deadline,
                                                hard_stop)))
        await asyncio.sleep(0.05)  # no stampede of handshakes
    done, pending = await asyncio.wait(pairs, timeout=max(1.0, hard_stop - loop.time() + 10))
    for task in pending:
        task.cancel()
        stats.unfinished += 1
    for task in done:
        if task.exception() is not None:
            stats.failures[repr(task.exception())[:120]] += 1
    tick.cancel()
    stats.cpu_seconds = time.process_time() - cpu
    return stats


# The too-late window, probed -----------------------------------------------------------------


class WindowProbe:
    """Presses, on purpose, a card that fitted the pile just before the other seat changed it,
    ``delay`` ms after that change arrived here (uniform in ``span``), naming the version it
    fitted as ``seen``; notes how the server judged it. The largest delay judged *too late*
    (not a wrong card) is the seat's too-late window: ``reaction_ms`` plus its lag credit,
    at most ``late_grace_ms``. A probe is dropped if the pile changes again before it."""

    def __init__(self, client: Client, seat: int, rng: random.Random,
                 span: tuple[float, float], stats: Stats) -> None:
        self.client, self.seat, self.rng, self.span, self.stats = client, seat, rng, span, stats
        self.last: tuple[int, Any] | None = None
        """The pile's version and top card before the newest change."""
        self.busy = False
        self.frozen_until = 0.0

    def __call__(self, events: list[Event]) -> None:
        view = self.client.view
        if view is None:
            return
        state: Any = view.state
        if state is None:
            self.last = None
            return
        last, self.last = self.last, (state.version, state.top)
        other = [e for e in events if isinstance(e, Played) and e.seat != self.seat]
        if (last is None or self.busy or not other or state.version != last[0] + 1
                or self.client.loop.time() < self.frozen_until):
            return
        stale = [card for card in state.hand
                 if card.value in last[1].allowed and card.value not in state.top.allowed]
        if not stale:
            return
        self.busy = True
        delay = self.rng.uniform(*self.span) / 1000
        arrived = self.client.view_at
        self.client.loop.call_later(delay, self._press, stale[0], last[0], arrived)

    def _press(self, card: Any, seen: int, arrived: float) -> None:
        client = self.client
        state: Any = client.view.state if client.view is not None else None
        if client.closed or state is None or state.version != seen + 1 or \
                card not in state.hand:
            self.busy = False
            self.stats.probes_dropped += 1
            return
        client.tasks.append(client.loop.create_task(self._send(card, seen, arrived)))

    async def _send(self, card: Any, seen: int, arrived: float) -> None:
        client = self.client
        try:
            if client.reconnect:
                await client.switch()
        except (TimeoutError, ConnectionError, OSError, websockets.WebSocketException):
            self.busy = False
            return
        delay = (client.loop.time() - arrived) * 1000
        role = client.role

        def answered(outcome: list[Event] | errors.IllegalAction) -> None:
            self.busy = False
            code = outcome.code if isinstance(outcome, errors.IllegalAction) else "ok"
            if isinstance(outcome, errors.DoesNotFit):
                self.frozen_until = client.loop.time() + 1.1
            self.stats.probes[role].append((delay, code))

        client.ref += 1
        client.replies[client.ref] = answered
        client.send({"type": "act", "ref": client.ref,
                     "action": plain(Play(card=card, seen=seen))})


async def probe_table(client: Client, args: argparse.Namespace, stats: Stats,
                      rng: random.Random, old: str) -> str:
    """One match of ``client`` (a slow bot plus a :class:`WindowProbe`) against a bot of the
    server's at seat 1; the table's code."""
    created = client.until(lambda m: m["type"] == "table" and m["table"]["you"] == 0
                           and m["table"]["code"] != old)
    client.send({"type": "create", "game": GAME, "options": {"tournament": False},
                 "seats": [{"kind": "open"}, {"kind": "bot", "bot": args.bot}],
                 "compensation": not args.no_compensation, "private": True})
    code: str = (await created)["table"]["code"]
    await client.until(lambda m: m["type"] == "ping", timeout=2 * PROBE_EVERY_S + 5)
    assert client.info is not None
    options = client.rules.parse_options(client.info["options"])
    bot = Bot(RemoteTable(client, options), 0, parse_bot("beginner"),  # type: ignore[arg-type]
              random.Random(rng.random()), WireLink(client))
    probe = WindowProbe(client, 0, random.Random(rng.random()), args.probe_span, stats)
    unsubscribe = WireLink(client).subscribe(probe)
    ended = client.until(_match_ended, timeout=MATCH_TIMEOUT_S)
    client.send({"type": "start"})
    try:
        await ended
    finally:
        bot.stop()
        unsubscribe()
    return code


async def probe_windows(network: Network, args: argparse.Namespace, stats: Stats) -> None:
    """Each role's too-late window, probed at tables of its own for ``--probe-window`` s."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + args.probe_window

    async def prober(seat: int, role: str) -> None:
        cheat = seat == 0 and attacked(args)
        client = Client(f"{role} probe", network, stats,
                        pong_delay_s=args.pong_delay / 1000 if cheat else 0.0,
                        reconnect=cheat and args.reconnect_each_action)
        rng = random.Random(args.seed + 77 * seat)
        code = ""
        try:
            await client.connect()
            while loop.time() < deadline:
                code = await asyncio.wait_for(
                    probe_table(client, args, stats, rng, code),
                    max(1.0, deadline - loop.time() + args.grace))
        except TimeoutError:
            if loop.time() < deadline + args.grace - 1:
                stats.failures["probe: a setup step timed out"] += 1
            # else: the last match, cut at the end of the grace (its probes count)
        except (ConnectionError, OSError, websockets.WebSocketException) as error:
            stats.failures[f"probe: {type(error).__name__}: {error}"[:120]] += 1
        finally:
            await client.close()

    await asyncio.gather(*(prober(seat, role) for seat, role in enumerate(roles(args))))


# The server -------------------------------------------------------------------------------


def serve(args: argparse.Namespace) -> None:
    """The child process: the real app on a free port of ``--host`` (printed on stdout)."""
    import uvicorn

    from zackzack.engine.table import Settings
    from zackzack.server.app import Config, create_app
    from zackzack.server.limits import Limits

    settings = Settings(start_ms=args.start_ms, between_rounds_ms=args.between_ms)
    # every client comes from one of two addresses: no limit on connections or new players
    unlimited = {name: 0 for name in ("connections_per_ip", "new_players_burst")
                 if name in Limits.__dataclass_fields__}
    config = Config(db=f"sqlite:///{args.db}", settings=settings, limits=Limits(**unlimited))
    sock = socket.socket()
    sock.bind((args.host, 0))
    print(f"port {sock.getsockname()[1]}", flush=True)
    protocol: dict[str, Any] = {}
    try:  # the websocket protocol that hands the app its socket's kernel round trip
        from zackzack.server.transport import (  # type: ignore[import-not-found,unused-ignore]
            TimedWebSocketProtocol,
        )
    except ImportError:  # a server from before issue 27: it credits the pongs alone
        print("no zackzack.server.transport: the server credits the pongs' round trips",
              file=sys.stderr)
    else:
        protocol["ws"] = TimedWebSocketProtocol
    server = uvicorn.Server(uvicorn.Config(create_app(config), log_level="warning",
                                           lifespan="on", ws_max_size=65_536, **protocol))
    server.run(sockets=[sock])


def start_server(args: argparse.Namespace, folder: Path,
                 host: str) -> tuple[subprocess.Popen[str], int]:
    command = [sys.executable, __file__, "--serve", "--db", str(folder / "wire.db"),
               "--host", host,
               "--start-ms", str(args.start_ms), "--between-ms", str(args.between_ms)]
    log = open(folder / "server.log", "w")  # noqa: SIM115 (the child keeps it)
    server = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=log, text=True)
    assert server.stdout is not None
    found = re.fullmatch(r"port (\d+)\s*", server.stdout.readline())
    if not found:
        server.kill()
        raise SystemExit(f"the server did not start; see {folder / 'server.log'}")
    port = int(found.group(1))
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:  # wait until it accepts connections
        with contextlib.suppress(OSError), socket.create_connection((host, port), 1):
            break
        time.sleep(0.05)
    return server, port


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of process ``pid`` (Linux)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / 100


# The simulator's figure and the report ---------------------------------------------------


def simulated(args: argparse.Namespace) -> dict[str, Any]:
    from zackzack.sim import Config, parse_options, simulate
    from zackzack.sim.stats import summarise

    spec = parse_bot(args.bot)
    config = Config(GAME, parse_options(GAME, {"players": 2, "tournament": args.tournament}),
                    (spec, spec), seed=args.seed, rounds=args.sim_rounds,
                    rtt=(args.near, args.far), compensation=not args.no_compensation)
    summary: dict[str, Any] = summarise(config, simulate(config, args.jobs))
    return summary


def quantile(values: Sequence[float], q: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def window(probes: Sequence[tuple[float, str]]) -> dict[str, Any]:
    """What probes of one seat say of its too-late window (delays in ms)."""
    late = [delay for delay, code in probes if code == "too_late"]
    wrong = [delay for delay, code in probes if code == "does_not_fit"]
    return {"probes": len(probes), "too_late": len(late), "wrong": len(wrong),
            "too_late_max": max(late, default=0.0), "wrong_min": min(wrong, default=None),
            "wrong_below_too_late_max": sum(1 for d in wrong if d < max(late, default=0.0)),
            "other": dict(collections.Counter(code for _, code in probes
                                              if code not in ("too_late", "does_not_fit")))}


def report(args: argparse.Namespace, stats: Stats, wall: float, server_cpu: float,
           sim: dict[str, Any] | None) -> dict[str, Any]:
    from zackzack.sim.stats import wilson

    names = roles(args)
    focus = 0 if attacked(args) else 1
    """The seat whose share of round wins is the figure: the cheater, or the far player."""
    who = f"the {names[focus]} player" if focus else "the cheater (seat 0)"
    rounds = len(stats.rounds)
    wins = [sum(1 for winner in stats.rounds if winner == seat) for seat in (0, 1)]
    low, high = wilson(wins[focus], rounds)
    rate = wins[focus] / rounds if rounds else 0.0
    attack = ", ".join(part for part in (
        f"pong delay {args.pong_delay} ms" if args.pong_delay else "",
        "a new connection before each action" if args.reconnect_each_action else "") if part)
    setup = (f"{args.bot} vs {args.bot}, RTT {args.near} / {args.far} ms, compensation "
             f"{'off' if args.no_compensation else 'on'}"
             + (", tournament" if args.tournament else "")
             + (f"; seat 0 cheats: {attack}" if attack else ""))
    result: dict[str, Any] = {
        "setup": setup, "roles": names, "focus_seat": focus, "pairs": args.pairs,
        "seconds": args.seconds, "wall_seconds": wall, "matches": stats.matches,
        "rounds": rounds, "wins": wins, "round_win_rate": rate, "round_win_ci95": (low, high),
        "too_late_per_round": [n / rounds if rounds else 0.0 for n in stats.too_late],
        "wrong_cards_per_round": [n / rounds if rounds else 0.0 for n in stats.wrong],
        "actions": stats.actions, "accepted_per_round": stats.accepted / rounds if rounds else 0.0,
        "refusals": dict(stats.refusals), "reconnects": stats.reconnects,
        "errors": dict(stats.errors), "failures": dict(stats.failures),
        "unfinished_matches": stats.unfinished,
        "server_rtt_ms": {role: {"mean": sum(v) / len(v), "p10": quantile(v, 0.1),
                                 "p90": quantile(v, 0.9)}
                          for role, v in stats.rtts.items() if v},
        "kernel_rtt_ms": {role: {"min_rtt_p50": quantile([f[0] for f in v], 0.5),
                                 "min_rtt_max": max(f[0] for f in v),
                                 "srtt_p50": quantile([f[1] for f in v], 0.5)}
                          for role, v in stats.kernel.items() if v},
        "too_late_window_ms": {
            role: {"too_late": len(w["too_late"]), "too_late_max": max(w["too_late"], default=0),
                   "too_late_p95": quantile(w["too_late"], 0.95), "wrong": len(w["wrong"]),
                   "wrong_min": min(w["wrong"], default=None)}
            for role, w in stats.windows.items()},
        "client_loop_late_ms": {"p50": quantile(stats.lag, 0.5),
                                "p99": quantile(stats.lag, 0.99),
                                "max": max(stats.lag, default=0.0)},
        "server_cpu": server_cpu,
        "client_cpu": stats.cpu_seconds / wall if wall else 0.0,
    }
    print(f"\n{setup}: {args.pairs} pairs, {wall:.0f} s")
    print(f"over the wire: {rounds} rounds in {stats.matches} matches; {who} won "
          f"{wins[focus]} ({rate:.1%}, 95 % CI {low:.1%}–{high:.1%}), "
          f"the {names[1 - focus]} player {wins[1 - focus]}")
    pair = f"{names[0]} / {names[1]}"
    print(f"  too late per round {pair}: {result['too_late_per_round'][0]:.2f} / "
          f"{result['too_late_per_round'][1]:.2f}; wrong cards per round "
          f"{result['wrong_cards_per_round'][0]:.2f} / {result['wrong_cards_per_round'][1]:.2f};"
          f" accepted actions per round {result['accepted_per_round']:.1f}")
    lost = sum(stats.too_late)
    lost_low, lost_high = wilson(stats.too_late[focus], lost)
    result["focus_share_of_lost_races"] = stats.too_late[focus] / lost if lost else 0.0
    result["focus_share_of_lost_races_ci95"] = (lost_low, lost_high)
    print(f"  {who}'s share of the races lost (too late): "
          f"{result['focus_share_of_lost_races']:.1%} (95 % CI {lost_low:.1%}–{lost_high:.1%}, "
          "counting the races as independent)")
    rtts = result["server_rtt_ms"]
    print("  round trips the server announced: " + ", ".join(
        f"{role} {v['mean']:.0f} ms (p10 {v['p10']:.0f}, p90 {v['p90']:.0f})"
        for role, v in rtts.items()))
    print("  the kernel's round trip of the clients' sockets (min_rtt / srtt, median): "
          + ", ".join(f"{role} {v['min_rtt_p50']:.1f} / {v['srtt_p50']:.1f} ms"
                      for role, v in result["kernel_rtt_ms"].items()))
    print("  too-late window (press delay after the missed change, ms): " + "; ".join(
        f"{role}: too late {v['too_late']}× up to {v['too_late_max']:.0f} "
        f"(p95 {v['too_late_p95']:.0f}), wrong {v['wrong']}×"
        + (f" from {v['wrong_min']:.0f}" if v["wrong_min"] is not None else "")
        for role, v in result["too_late_window_ms"].items()))
    if stats.probes:
        result["window_probes"] = probed = {
            role: window(v) for role, v in stats.probes.items()}
        print(f"  too-late window, probed ({stats.probes_dropped} probes dropped: the pile "
              "changed again): " + "; ".join(
                  f"{role}: {v['probes']} probes, too late up to {v['too_late_max']:.0f} ms, "
                  f"wrong from {v['wrong_min']:.0f} ms" if v["wrong_min"] is not None else
                  f"{role}: {v['probes']} probes, too late up to {v['too_late_max']:.0f} ms, "
                  "never wrong" for role, v in probed.items()))
    lag = result["client_loop_late_ms"]
    print(f"  client loop late p50 / p99 / max: {lag['p50']:.1f} / {lag['p99']:.1f} / "
          f"{lag['max']:.0f} ms; CPU server {server_cpu:.0%}, clients "
          f"{result['client_cpu']:.0%}; {stats.actions} actions, "
          f"refusals {dict(stats.refusals)}"
          + (f", {stats.reconnects} reconnections" if stats.reconnects else ""))
    if stats.errors or stats.failures or stats.unfinished:
        print(f"  errors {dict(stats.errors)}, failures {dict(stats.failures)}, "
              f"unfinished matches {stats.unfinished}")
    if sim is not None:
        seat = sim["seats"][focus]
        s_low, s_high = seat["round_win_ci95"]
        overlap = low <= s_high and s_low <= high
        result["simulator"] = {
            "rounds": sim["rounds"], "round_win_rate": seat["round_win_rate"],
            "round_win_ci95": (s_low, s_high),
            "too_late_per_round": [s["too_late_per_round"] for s in sim["seats"]],
            "wrong_cards_per_round": [s["wrong_cards_per_round"] for s in sim["seats"]],
            "accepted_per_round": sim["round_actions"]["mean"],
            "seed": args.seed}
        result["intervals_overlap"] = overlap
        honest = " (every seat honest)" if attacked(args) else ""
        print(f"simulator{honest}: {sim['rounds']} rounds; seat {focus} won "
              f"{seat['round_win_rate']:.1%} (95 % CI {s_low:.1%}–{s_high:.1%})")
        print(f"  too late per round {pair}: {sim['seats'][0]['too_late_per_round']:.2f} / "
              f"{sim['seats'][1]['too_late_per_round']:.2f}; wrong cards per round "
              f"{sim['seats'][0]['wrong_cards_per_round']:.2f} / "
              f"{sim['seats'][1]['wrong_cards_per_round']:.2f}; accepted actions per round "
              f"{sim['round_actions']['mean']:.1f}")
        sim_lost = [round(s["too_late_per_round"] * sim["rounds"]) for s in sim["seats"]]
        sim_low, sim_high = wilson(sim_lost[focus], sum(sim_lost))
        sim_share = sim_lost[focus] / sum(sim_lost) if sum(sim_lost) else 0.0
        result["simulator"]["focus_share_of_lost_races"] = sim_share
        result["simulator"]["focus_share_of_lost_races_ci95"] = (sim_low, sim_high)
        print(f"  seat {focus}'s share of the races lost (too late): {sim_share:.1%} "
              f"(95 % CI {sim_low:.1%}–{sim_high:.1%})")
        print(f"the intervals {'overlap' if overlap else 'do NOT overlap'} "
              f"(wire − simulator: {100 * (rate - seat['round_win_rate']):+.1f} pp)")
    return result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=100, help="tables played at once")
    parser.add_argument("--seconds", type=float, default=240.0,
                        help="wall time in which new tables are started")
    parser.add_argument("--grace", type=float, default=180.0,
                        help="at most this long after --seconds for the last matches to end")
    parser.add_argument("--near", type=int, default=10,
                        help="seat 0's RTT in ms (the near player, or the cheater)")
    parser.add_argument("--far", type=int, default=None,
                        help="seat 1's RTT in ms (the far player, default 100; with an attack "
                        "the honest player, default --near)")
    parser.add_argument("--jitter", type=float, default=0.1,
                        help="each one-way trip varies by this fraction (the simulator's 0.1)")
    parser.add_argument("--pong-delay", type=int, default=0, metavar="MS",
                        help="attack: seat 0 answers the server's pings MS late")
    parser.add_argument("--reconnect-each-action", action="store_true",
                        help="attack: seat 0 opens a new websocket (same token, joining the "
                        "table again) before each action")
    parser.add_argument("--probe-window", type=float, default=0.0, metavar="SECONDS",
                        help="after the pairs, probe each seat's too-late window (seat 0 with "
                        "its attack) this long at tables against a server bot")
    parser.add_argument("--probe-span", type=float, nargs=2, default=(200.0, 1300.0),
                        metavar=("MIN_MS", "MAX_MS"),
                        help="the probes' press delays after a change (uniform)")
    parser.add_argument("--bot", default="normal", help="the bot spec of both players")
    parser.add_argument("--tournament", action="store_true", help="play tournaments")
    parser.add_argument("--no-compensation", action="store_true",
                        help="create the tables with lag compensation off")
    parser.add_argument("--start-ms", type=int, default=500, help="the server's start countdown")
    parser.add_argument("--between-ms", type=int, default=500,
                        help="the server's pause between a tournament's rounds")
    parser.add_argument("--start-at-once", action="store_true",
                        help="start each table at once, not after both seats answered a ping "
                        "there (the table then may not know their lag in the first races)")
    parser.add_argument("--sim-rounds", type=int, default=4000,
                        help="rounds for the simulator's figure (0: skip it)")
    parser.add_argument("--jobs", type=int, default=2, help="processes for the simulator")
    parser.add_argument("--seed", type=int, default=9)
    parser.add_argument("--json", help="write every figure to this file")
    parser.add_argument("--serve", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--db", help=argparse.SUPPRESS)
    parser.add_argument("--host", default="127.0.0.1", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        serve(args)
        return 0
    if args.far is None:
        args.far = args.near if attacked(args) else 100
    if not 0 <= args.pairs <= 250:
        parser.error("--pairs must be 0 to 250")
    if args.pong_delay < 0:
        parser.error("--pong-delay must be 0 or more")
    reason = unavailable_reason()
    if reason is not None:
        raise SystemExit(f"wire_fairness: {reason}")
    folder = Path(tempfile.mkdtemp(prefix="zackzack-wire-"))
    with DelayNet([args.near, args.far], jitter=args.jitter, seed=args.seed) as net:
        network = Network(net, 0, dict(zip(roles(args), net.clients, strict=True)))
        server, network.port = start_server(args, folder, net.server_address)
        print(f"server pid {server.pid} on {net.server_address}:{network.port}; "
              f"{args.pairs} pairs: {' / '.join(roles(args))} from "
              f"{' / '.join(net.clients)} at RTT {args.near} / {args.far} ms for "
              f"{args.seconds:.0f} s (namespace {net.namespace})", flush=True)
        try:
            cpu0, started = cpu_seconds(server.pid), time.monotonic()
            stats = asyncio.run(run_pairs(network, args)) if args.pairs else Stats()
            wall = time.monotonic() - started
            server_cpu = (cpu_seconds(server.pid) - cpu0) / wall if wall else 0.0
            if args.probe_window > 0:
                print(f"probing the too-late window for {args.probe_window:.0f} s ...",
                      flush=True)
                asyncio.run(probe_windows(network, args, stats))
        finally:
            server.terminate()
            try:
                server.wait(15)
            except subprocess.TimeoutExpired:
                server.kill()
    sim = None
    if args.sim_rounds > 0:
        print(f"simulating {args.sim_rounds} rounds of the same setup "
              f"(RTT {args.near} / {args.far} ms, no cheat) ...", flush=True)
        sim = simulated(args)
    result = report(args, stats, wall, server_cpu, sim)
    if args.json:
        Path(args.json).write_text(json.dumps(result, indent=1), encoding="utf-8")
    if stats.failures or stats.unfinished or (folder / "server.log").stat().st_size:
        print(f"the server's log and database are kept in {folder}")
    else:
        shutil.rmtree(folder, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
