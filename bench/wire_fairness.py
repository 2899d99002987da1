"""Fair races over real sockets: near and far bots through delaying proxies, against the simulator.

A real server (uvicorn, the real app, a fresh SQLite file, loopback only) runs in a child
process with short table pauses (``--start-ms``, ``--between-ms``). Each pair of players is
two websocket clients in this process, each behind its own in-process TCP proxy that delivers
every chunk in each direction half a round trip later (± ``--jitter`` of that, never
overtaking the chunk before, like ``zackzack.sim.network``): the near player at
``--near`` ms, the far one at ``--far`` ms. Both are the real ``zackzack.bots.Bot``
(``--bot``, default ``normal``), acting through a websocket ``race.Link``; they answer the
server's pings at once, so the server measures their lag and credits it as it would a
person's. The near player creates an Unter Spannung table with two open seats (seat 0, the
far player joins seat 1, as ``--rtt NEAR,FAR`` seats them in the simulator), both get ready,
the match is played to its end, and the pair starts the next table, for ``--seconds`` of
wall time (tables running at the deadline are played to their end, within ``--grace``).

It prints the far player's share of round wins over the wire with its 95 % Wilson interval,
the simulator's figure for the same setup (``zackzack.sim``, in-process after the run, with
``--sim-rounds`` rounds), and whether the two intervals overlap; plus cards too late per
round for each seat (the most sensitive sign of who wins the close races), the round trips
the server measured, and the client loop's own lateness (if it is large the bots were slowed
by this process, not by the proxies).

    .venv/bin/python bench/wire_fairness.py --pairs 150 --seconds 240 --sim-rounds 10000
    .venv/bin/python bench/wire_fairness.py --pairs 150 --seconds 240 --sim-rounds 10000 \
        --no-compensation
    .venv/bin/python bench/wire_fairness.py --pairs 4 --seconds 20 --sim-rounds 500  # a quick look

(150 pairs give about 1 150 rounds in 6 minutes, at 15 % of a core for the server and 22 %
for the clients.) Every client comes from 127.0.0.1, so the server runs without its
per-address limits. Each table starts once both seats have answered a ping there (the new
table's arbiter learns their lag from that; ``--start-at-once`` skips the wait). ``--json
FILE`` writes every figure. Everything stays on 127.0.0.1; the run is bounded by
``--seconds`` + ``--grace`` (+ the simulation).
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
from zackzack.games import errors, game
from zackzack.games.base import Action, Event, plain
from zackzack.race import PROBE_EVERY_S, Reply
from zackzack.table import Phase, RoundScored, Subscriber, TableView
from zackzack.tui.codec import decode_event, decode_view

GAME = "unter-spannung"
REFUSALS: dict[str, type[errors.IllegalAction]] = {kind.code: kind for kind in errors.ALL}
"""An ``ack``'s refusal code → the table's exception for it (as ``Bot`` expects)."""
SETUP_TIMEOUT_S = 30.0
"""The longest one step of making a table may take (create, join, ready, start)."""
MATCH_TIMEOUT_S = 900.0
"""The longest one match may take before the pair gives up on it."""


# The delaying proxy ------------------------------------------------------------------------


class _Lane:
    """One direction of one proxied connection: every chunk ``rtt / 2`` (± jitter) later, in
    order. Each timer writes the oldest waiting chunk, so timers that fire together cannot
    reorder the stream."""

    def __init__(self, loop: asyncio.AbstractEventLoop, writer: asyncio.StreamWriter,
                 half_s: float, jitter: float, rng: random.Random) -> None:
        self.loop, self.writer, self.half, self.jitter, self.rng = loop, writer, half_s, jitter, rng
        self.waiting: collections.deque[bytes | None] = collections.deque()
        self.last = 0.0

    def carry(self, chunk: bytes | None) -> None:
        """Deliver ``chunk`` (``None``: the end of the stream) when its trip is over."""
        spread = self.jitter * (2 * self.rng.random() - 1)
        self.last = max(self.last, self.loop.time() + self.half * (1 + spread))
        self.waiting.append(chunk)
        self.loop.call_at(self.last, self._deliver)

    def _deliver(self) -> None:
        chunk = self.waiting.popleft()
        if self.writer.is_closing():
            return
        if chunk is None:
            with contextlib.suppress(OSError):
                self.writer.close()
        else:
            self.writer.write(chunk)


class DelayProxy:
    """Listens on 127.0.0.1 (a free port) and forwards every connection to ``target``, each
    direction ``rtt_ms / 2`` later."""

    def __init__(self, target: int, rtt_ms: float, jitter: float, rng: random.Random) -> None:
        self.target, self.half, self.jitter, self.rng = target, rtt_ms / 2000, jitter, rng
        self.server: asyncio.Server | None = None
        self.port = 0

    async def start(self) -> int:
        self.server = await asyncio.start_server(self._connection, "127.0.0.1", 0)
        self.port = self.server.sockets[0].getsockname()[1]
        return self.port

    async def _connection(self, reader: asyncio.StreamReader,
                          writer: asyncio.StreamWriter) -> None:
        try:
            up_reader, up_writer = await asyncio.open_connection("127.0.0.1", self.target)
        except OSError:
            writer.close()
            return
        loop = asyncio.get_running_loop()
        to_server = _Lane(loop, up_writer, self.half, self.jitter, self.rng)
        to_client = _Lane(loop, writer, self.half, self.jitter, self.rng)
        await asyncio.gather(self._pump(reader, to_server), self._pump(up_reader, to_client))

    @staticmethod
    async def _pump(reader: asyncio.StreamReader, lane: _Lane) -> None:
        with contextlib.suppress(OSError, asyncio.CancelledError):
            while chunk := await reader.read(1 << 16):
                lane.carry(chunk)
        lane.carry(None)

    async def close(self) -> None:
        if self.server is not None:
            self.server.close()
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self.server.wait_closed(), 2)


# A client and its Link ---------------------------------------------------------------------


class Client:
    """One player's websocket (through its proxy): keeps the latest view, answers pings,
    hands events to its subscribers and acks to the actions' replies."""

    def __init__(self, name: str, url: str, stats: Stats) -> None:
        self.name, self.url, self.stats = name, url, stats
        self.loop = asyncio.get_running_loop()
        self.rules: Any = game(GAME)
        self.ws: ClientConnection | None = None
        self.outbox: asyncio.Queue[str] = asyncio.Queue()
        self.tasks: list[asyncio.Task[None]] = []
        self.view: TableView | None = None
        self.view_at = 0.0
        self.info: dict[str, Any] | None = None
        self.rtt_ms: int | None = None
        """The server's smoothed estimate of this connection's round trip (its ``ping``)."""
        self.callbacks: list[Subscriber] = []
        self.replies: dict[int, Reply] = {}
        self.ref = 0
        self.waiters: list[tuple[Callable[[dict[str, Any]], bool], asyncio.Future[Any]]] = []
        self.winners: list[int | None] = []
        """Round winners as this client saw them in ``round_scored``, in order."""
        self.closed = False

    async def connect(self) -> None:
        self.ws = await websockets.connect(self.url, compression=None, ping_interval=None,
                                           open_timeout=SETUP_TIMEOUT_S, max_size=None)
        self.tasks = [self.loop.create_task(self._read()), self.loop.create_task(self._write())]
        welcome = self.until(lambda m: m["type"] in ("welcome", "error"))
        self.send({"type": "hello", "name": self.name})
        answer = await welcome
        if answer["type"] == "error":
            raise ConnectionError(f"hello refused: {answer['code']}")

    def send(self, message: dict[str, Any]) -> None:
        """Send ``message`` now (in order with everything sent before)."""
        self.outbox.put_nowait(msgspec.json.encode(message).decode())

    def until(self, check: Callable[[dict[str, Any]], bool],
              timeout: float = SETUP_TIMEOUT_S) -> asyncio.Future[Any]:
        """The first message from now on for which ``check`` holds (register before sending)."""
        future: asyncio.Future[Any] = self.loop.create_future()
        self.waiters.append((check, future))
        return asyncio.ensure_future(asyncio.wait_for(future, timeout))

    async def _write(self) -> None:
        assert self.ws is not None
        with contextlib.suppress(websockets.ConnectionClosed, OSError):
            while True:
                await self.ws.send(await self.outbox.get())

    async def _read(self) -> None:
        assert self.ws is not None
        try:
            async for text in self.ws:
                self._receive(msgspec.json.decode(text))
        except (websockets.ConnectionClosed, OSError):
            pass
        finally:
            self.closed = True
            for _, future in self.waiters:
                if not future.done():
                    future.set_exception(ConnectionError(f"{self.name}: connection closed"))
            self.waiters.clear()

    def _receive(self, message: dict[str, Any]) -> None:
        kind = message.get("type")
        if kind == "ping":  # answer at once: this is how the server measures the lag
            self.send({"type": "pong", "n": message["n"]})
            self.rtt_ms = message.get("rtt")
            if self.rtt_ms is not None:
                self.stats.rtts[self.name.split()[0]].append(self.rtt_ms)
        elif kind == "table":
            self.info = message["table"]
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
        if self.waiters:
            keep = []
            for check, future in self.waiters:
                if future.done():
                    continue
                if check(message):
                    future.set_result(message)
                else:
                    keep.append((check, future))
            self.waiters = keep

    def _take_view(self, data: Any) -> None:
        if data is not None:
            self.view = decode_view(self.rules, data)
            self.view_at = self.loop.time()

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
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self.ws.close(), 2)


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
        client.ref += 1
        client.replies[client.ref] = reply
        client.stats.actions += 1
        client.send({"type": "act", "ref": client.ref, "action": plain(action)})


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
        """The winner of every round played (seat 0 near, seat 1 far)."""
        self.too_late = [0, 0]
        self.wrong = [0, 0]
        self.matches = 0
        self.unfinished = 0
        self.failures: collections.Counter[str] = collections.Counter()
        self.errors: collections.Counter[str] = collections.Counter()
        self.refusals: collections.Counter[str] = collections.Counter()
        self.rtts: dict[str, list[int]] = collections.defaultdict(list)
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
    return code


async def play_pair(number: int, server_port: int, args: argparse.Namespace, stats: Stats,
                    deadline: float, hard_stop: float) -> None:
    """One near and one far player: table after table until the deadline."""
    rng = random.Random(args.seed * 1_000_003 + number)
    proxies = [DelayProxy(server_port, rtt, args.jitter, random.Random(rng.random()))
               for rtt in (args.near, args.far)]
    clients: list[Client] = []
    loop = asyncio.get_running_loop()
    try:
        for proxy, role in zip(proxies, ("near", "far"), strict=True):
            port = await proxy.start()
            client = Client(f"{role} {number}", f"ws://127.0.0.1:{port}/ws", stats)
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
        for proxy in proxies:
            await proxy.close()


async def ticker(stats: Stats, stop: float) -> None:
    """How late this loop wakes up (if this is large, the bots were slowed by the load here
    and not only by the proxies); a line of progress every 30 s."""
    loop = asyncio.get_running_loop()
    started = told = loop.time()
    while loop.time() < stop:
        before = loop.time()
        await asyncio.sleep(0.05)
        stats.lag.append((loop.time() - before - 0.05) * 1000)
        if loop.time() - told >= 30:
            told = loop.time()
            far = sum(1 for winner in stats.rounds if winner == 1)
            print(f"  {told - started:4.0f} s: {stats.matches} matches, {len(stats.rounds)} "
                  f"rounds, far player won {far}", flush=True)


async def run_pairs(server_port: int, args: argparse.Namespace) -> Stats:
    stats = Stats()
    cpu = time.process_time()
    loop = asyncio.get_running_loop()
    deadline = loop.time() + args.seconds
    hard_stop = deadline + args.grace
    tick = loop.create_task(ticker(stats, hard_stop))
    pairs = []
    for number in range(args.pairs):
        pairs.append(loop.create_task(play_pair(number, server_port, args, stats, deadline,
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


# The server -------------------------------------------------------------------------------


def serve(args: argparse.Namespace) -> None:
    """The child process: the real app on a free loopback port (printed on stdout)."""
    import uvicorn

    from zackzack.server.app import Config, create_app
    from zackzack.server.limits import Limits
    from zackzack.table import Settings

    settings = Settings(start_ms=args.start_ms, between_rounds_ms=args.between_ms)
    # every client comes from 127.0.0.1: no limit on connections or new players per address
    unlimited = {name: 0 for name in ("connections_per_ip", "new_players_burst")
                 if name in Limits.__dataclass_fields__}
    config = Config(db=f"sqlite:///{args.db}", settings=settings, limits=Limits(**unlimited))
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    print(f"port {sock.getsockname()[1]}", flush=True)
    server = uvicorn.Server(uvicorn.Config(create_app(config), log_level="warning",
                                           lifespan="on", ws_max_size=65_536))
    server.run(sockets=[sock])


def start_server(args: argparse.Namespace, folder: Path) -> tuple[subprocess.Popen[str], int]:
    command = [sys.executable, __file__, "--serve", "--db", str(folder / "wire.db"),
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
        with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), 1):
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


def report(args: argparse.Namespace, stats: Stats, wall: float, server_cpu: float,
           sim: dict[str, Any] | None) -> dict[str, Any]:
    from zackzack.sim.stats import wilson

    rounds = len(stats.rounds)
    far_wins = sum(1 for winner in stats.rounds if winner == 1)
    near_wins = sum(1 for winner in stats.rounds if winner == 0)
    low, high = wilson(far_wins, rounds)
    rate = far_wins / rounds if rounds else 0.0
    setup = (f"{args.bot} vs {args.bot}, RTT {args.near} / {args.far} ms, compensation "
             f"{'off' if args.no_compensation else 'on'}"
             + (", tournament" if args.tournament else ""))
    result: dict[str, Any] = {
        "setup": setup, "pairs": args.pairs, "seconds": args.seconds, "wall_seconds": wall,
        "matches": stats.matches, "rounds": rounds, "near_wins": near_wins,
        "far_wins": far_wins, "far_round_win_rate": rate, "far_round_win_ci95": (low, high),
        "too_late_per_round": [n / rounds if rounds else 0.0 for n in stats.too_late],
        "wrong_cards_per_round": [n / rounds if rounds else 0.0 for n in stats.wrong],
        "actions": stats.actions, "accepted_per_round": stats.accepted / rounds if rounds else 0.0,
        "refusals": dict(stats.refusals),
        "errors": dict(stats.errors), "failures": dict(stats.failures),
        "unfinished_matches": stats.unfinished,
        "server_rtt_ms": {role: {"mean": sum(v) / len(v), "p90": quantile(v, 0.9)}
                          for role, v in stats.rtts.items() if v},
        "client_loop_late_ms": {"p50": quantile(stats.lag, 0.5),
                                "p99": quantile(stats.lag, 0.99),
                                "max": max(stats.lag, default=0.0)},
        "server_cpu": server_cpu,
        "client_cpu": stats.cpu_seconds / wall if wall else 0.0,
    }
    print(f"\n{setup}: {args.pairs} pairs, {wall:.0f} s")
    print(f"over the wire: {rounds} rounds in {stats.matches} matches; far player won "
          f"{far_wins} ({rate:.1%}, 95 % CI {low:.1%}–{high:.1%}), near {near_wins}")
    print(f"  too late per round near / far: {result['too_late_per_round'][0]:.2f} / "
          f"{result['too_late_per_round'][1]:.2f}; wrong cards per round "
          f"{result['wrong_cards_per_round'][0]:.2f} / {result['wrong_cards_per_round'][1]:.2f};"
          f" accepted actions per round {result['accepted_per_round']:.1f}")
    lost = sum(stats.too_late)
    lost_low, lost_high = wilson(stats.too_late[1], lost)
    result["far_share_of_lost_races"] = stats.too_late[1] / lost if lost else 0.0
    result["far_share_of_lost_races_ci95"] = (lost_low, lost_high)
    print(f"  far player's share of the races lost (too late): "
          f"{result['far_share_of_lost_races']:.1%} (95 % CI {lost_low:.1%}–{lost_high:.1%}, "
          "counting the races as independent)")
    rtts = result["server_rtt_ms"]
    print("  round trips the server measured: " + ", ".join(
        f"{role} {v['mean']:.0f} ms (p90 {v['p90']:.0f})" for role, v in rtts.items()))
    lag = result["client_loop_late_ms"]
    print(f"  client loop late p50 / p99 / max: {lag['p50']:.1f} / {lag['p99']:.1f} / "
          f"{lag['max']:.0f} ms; CPU server {server_cpu:.0%}, clients "
          f"{result['client_cpu']:.0%}; {stats.actions} actions, "
          f"refusals {dict(stats.refusals)}")
    if stats.errors or stats.failures or stats.unfinished:
        print(f"  errors {dict(stats.errors)}, failures {dict(stats.failures)}, "
              f"unfinished matches {stats.unfinished}")
    if sim is not None:
        seat = sim["seats"][1]
        s_low, s_high = seat["round_win_ci95"]
        overlap = low <= s_high and s_low <= high
        result["simulator"] = {
            "rounds": sim["rounds"], "far_round_win_rate": seat["round_win_rate"],
            "far_round_win_ci95": (s_low, s_high),
            "too_late_per_round": [s["too_late_per_round"] for s in sim["seats"]],
            "wrong_cards_per_round": [s["wrong_cards_per_round"] for s in sim["seats"]],
            "accepted_per_round": sim["round_actions"]["mean"],
            "seed": args.seed}
        result["intervals_overlap"] = overlap
        print(f"simulator: {sim['rounds']} rounds; far player won {seat['round_win_rate']:.1%} "
              f"(95 % CI {s_low:.1%}–{s_high:.1%})")
        print(f"  too late per round near / far: {sim['seats'][0]['too_late_per_round']:.2f} / "
              f"{seat['too_late_per_round']:.2f}; wrong cards per round "
              f"{sim['seats'][0]['wrong_cards_per_round']:.2f} / "
              f"{seat['wrong_cards_per_round']:.2f}; accepted actions per round "
              f"{sim['round_actions']['mean']:.1f}")
        sim_lost = [round(s["too_late_per_round"] * sim["rounds"]) for s in sim["seats"]]
        sim_low, sim_high = wilson(sim_lost[1], sum(sim_lost))
        sim_share = sim_lost[1] / sum(sim_lost) if sum(sim_lost) else 0.0
        result["simulator"]["far_share_of_lost_races"] = sim_share
        result["simulator"]["far_share_of_lost_races_ci95"] = (sim_low, sim_high)
        print(f"  far player's share of the races lost (too late): {sim_share:.1%} "
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
    parser.add_argument("--near", type=int, default=10, help="the near player's RTT in ms")
    parser.add_argument("--far", type=int, default=100, help="the far player's RTT in ms")
    parser.add_argument("--jitter", type=float, default=0.1,
                        help="each one-way trip varies by this fraction (the simulator's 0.1)")
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
    args = parser.parse_args()
    if args.serve:
        serve(args)
        return 0
    if not 1 <= args.pairs <= 250:
        parser.error("--pairs must be 1 to 250")
    folder = Path(tempfile.mkdtemp(prefix="zackzack-wire-"))
    server, port = start_server(args, folder)
    print(f"server pid {server.pid} on 127.0.0.1:{port}; "
          f"{args.pairs} pairs at RTT {args.near} / {args.far} ms for {args.seconds:.0f} s",
          flush=True)
    try:
        cpu0, started = cpu_seconds(server.pid), time.monotonic()
        stats = asyncio.run(run_pairs(port, args))
        wall = time.monotonic() - started
        server_cpu = (cpu_seconds(server.pid) - cpu0) / wall if wall else 0.0
    finally:
        server.terminate()
        try:
            server.wait(15)
        except subprocess.TimeoutExpired:
            server.kill()
    sim = None
    if args.sim_rounds > 0:
        print(f"simulating {args.sim_rounds} rounds of the same setup ...", flush=True)
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
