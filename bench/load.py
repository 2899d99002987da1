"""Load on a real ``zackzack serve``: N websocket clients at tables of four, at human speed.

The server runs in its own process (uvicorn, a fresh SQLite file, loopback only) pinned to
CPU 0; the clients run in a second process pinned to CPU 1 — one asyncio loop, the
``websockets`` client, msgspec decoding only the fields a player needs. Clients sit down in
tables of four (Unter Spannung, tournament) and each acts about every ``--every`` seconds on
its latest view, as a person would. The load ramps up step by step; for each step it prints
the act → ack round trip at the actor and the act → update delay at every other seat
(p50/p99/max), errors and lost messages, the server's CPU, its CPU per action, its read and
write system calls per action, how long it waited for a CPU (others' load), its event loop's
lag p99.9 and max (sampled inside the server: ``server/looplag.py``), its resident memory per
connection, and how late the load generator's own loop ran (its saturation). It stops by
itself: every step is bounded, and so is the whole run (``--deadline``). ``--deflate``: the
clients offer permessage-deflate, as browsers do.

``--db postgres`` serves from a throwaway PostgreSQL instead (tests/pg.py, pinned to the
server's CPU). ``--processes N`` (N >= 2) measures the cluster layer's cost: a throwaway Redis
(tests/redis_server.py) and N ``zackzack serve --redis`` processes sharing one PostgreSQL,
all of them on the server's CPU. Each table is created on the process it is numbered for;
at every other table the three others first connect to another process, are sent ``moved``
and follow it as the browser does (connect to its url, hello with the same token, join
again): the moves and the time they took are counted. Each step then also shows every
process's CPU, the CPU time of everything on the server's core per action, how much of that
core the virtual machine's host took for others (stolen), how often the server processes
gave up the CPU per action (to wait or preempted), and the load average. The tests folder
is put on ``sys.path`` (as bench/ratings.py does) to start those servers with the tests' own
helpers.

    .venv/bin/python bench/load.py --steps 250,500,1000,2000 --seconds 20
    .venv/bin/python bench/load.py --steps 1000,2000,3000,4000 --seconds 15 [--deflate]
    .venv/bin/python bench/load.py --db postgres --steps 250,500,1000,1500,2000
    .venv/bin/python bench/load.py --processes 2 --steps 250,500,1000,1500,2000
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import functools
import gc
import itertools
import json
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import msgspec
import websockets

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

TICK = os.sysconf("SC_CLK_TCK")
PAGE = os.sysconf("SC_PAGE_SIZE")


# What a client reads: only what a player needs --------------------------------------------


class Event(msgspec.Struct):
    """An event: its type and whose it is."""

    type: str
    seat: int | None = None


class State(msgspec.Struct):
    """The part of an Unter Spannung view a player decides on."""

    top: str
    version: int
    hand: list[str]
    draw_counts: list[int]


class View(msgspec.Struct):
    """The part of a table view a player needs."""

    phase: str
    seat: int | None
    now: int
    frozen_until: list[int]
    state: State | None = None


class Info(msgspec.Struct):
    """The table part of a ``table`` message."""

    code: str


class Message(msgspec.Struct):
    """Any server message, reduced to what the load generator looks at."""

    type: str
    ref: int | None = None
    n: int | None = None
    ok: bool | None = None
    code: str | None = None
    token: str | None = None
    url: str | None = None
    events: list[Event] = []
    view: View | None = None
    table: Info | None = None


decode = msgspec.json.Decoder(Message).decode


def encode(message: dict[str, Any]) -> str:
    """A message as the text of a text frame."""
    return msgspec.json.encode(message).decode()


@functools.cache
def allowed(top: str) -> frozenset[int]:
    """The values that fit on ``top`` ("7±2": 5 and 9, wrapped into 1…10)."""
    value, _, spread = top.partition("±")
    v, s = int(value), int(spread)
    return frozenset(((v + s - 1) % 10 + 1, (v - s - 1) % 10 + 1))


def choose(view: View) -> str | None:
    """A legal action for the latest view: a card that fits, else a draw, else nothing."""
    state = view.state
    if state is None or view.phase != "playing" or view.seat is None:
        return None
    if view.frozen_until[view.seat] > view.now:
        return None
    fits = allowed(state.top)
    for card in state.hand:
        if int(card.partition("±")[0]) in fits:
            return f'{{"type":"play","card":"{card}","seen":{state.version}}}'
    return '{"type":"draw"}' if state.draw_counts[view.seat] else None


# The load generator ---------------------------------------------------------------------


@dataclass
class Tally:
    """What the clients measured during one step (times from ``time.perf_counter``)."""

    acks: list[float] = field(default_factory=list)
    updates: list[float] = field(default_factory=list)
    sent: int = 0
    refused: int = 0
    errors: int = 0
    closed: int = 0
    received: int = 0
    lag: list[float] = field(default_factory=list)
    # (table, seat) -> send times of that seat's accepted actions, in order
    accepted: dict[tuple[int, int], list[float]] = field(
        default_factory=lambda: defaultdict(list))
    # (table, seat) -> for each other seat, arrival times of that seat's action events
    arrived: dict[tuple[int, int], dict[int, list[float]]] = field(
        default_factory=lambda: defaultdict(lambda: defaultdict(list)))
    open_acts: int = 0
    moves_late: int = 0
    """``moved`` while playing (a table lost its process): none in a healthy cluster."""


class Player:
    """One connection: reads every message, acts on the latest view at a human pace; told
    ``moved``, it follows to the table's process as the browser does."""

    def __init__(self, gen: Generator, table: int, rng: random.Random, home: str) -> None:
        self.gen, self.table, self.rng, self.home = gen, table, rng, home
        self.ws: Any = None
        self.token: str | None = None
        self.view: View | None = None
        self.code = ""
        self.seat = -1
        self.sent: dict[int, float] = {}
        self.ref = 0
        self.joined = asyncio.Event()
        self.refused: str | None = None
        """The code of the last ``error`` while sitting down (``cluster_unavailable``)."""
        self.place = ""
        """The last ``join``: sent again after a move."""
        self.moved_at = 0.0
        """When the last ``moved`` came (0: no move under way)."""
        self.target: str | None = None
        """The url of the last ``moved`` (``None``: home)."""

    async def connect(self, url: str) -> None:
        self.ws = await websockets.connect(url, max_size=None, open_timeout=120,
                                           compression="deflate" if self.gen.deflate else None,
                                           ping_interval=None)
        await self.ws.send(encode({"type": "hello", "name": "Load", "token": self.token}))
        self.token = decode(await self.ws.recv()).token

    async def read(self) -> None:
        while await self.listen():
            old, self.view = self.ws, None
            asyncio.create_task(old.close())  # noqa: RUF006 - the browser does not wait either
            try:
                await self.connect(self.target or self.home)
            except (OSError, websockets.WebSocketException):  # as the browser: ask home again
                await self.connect(self.home)
            if self.place:
                await self.ws.send(self.place)
        self.gen.tally.closed += 1

    async def listen(self) -> bool:
        """Read this connection until it closes (``False``) or says ``moved`` (``True``: the
        url to follow is in ``target``)."""
        try:
            async for text in self.ws:
                now = time.perf_counter()
                tally = self.gen.tally
                tally.received += 1
                message = decode(text)
                kind = message.type
                if kind == "ping":  # the server measures the lag: answer at once, as browsers do
                    await self.ws.send(f'{{"type":"pong","n":{message.n}}}')
                    continue
                if kind == "moved":
                    self.moved_at = now
                    self.target = message.url
                    return True
                if message.view is not None:
                    self.view = message.view
                    if message.view.seat is not None:
                        self.seat = message.view.seat
                if kind == "events":
                    for event in message.events:
                        if event.type in ("played", "drew") and event.seat is not None \
                                and event.seat != self.seat:
                            tally.arrived[(self.table, event.seat)][self.seat].append(now)
                elif kind == "ack":
                    sent = self.sent.pop(message.ref or 0, None)
                    if sent is not None:
                        tally.acks.append(now - sent)
                        if message.ok:
                            tally.accepted[(self.table, self.seat)].append(sent)
                        else:
                            tally.refused += 1
                elif kind == "table":
                    if message.table is not None:
                        self.code = message.table.code
                    if self.moved_at:
                        self.gen.moves.append(now - self.moved_at)
                        if self.joined.is_set():  # it was playing there
                            tally.moves_late += 1
                        self.moved_at = 0.0
                    self.joined.set()
                elif kind == "error":
                    tally.errors += 1
                    self.refused = message.code
                    self.joined.set()
        except websockets.ConnectionClosed:
            pass
        return False

    async def act(self, every: float, stop: float) -> None:
        while time.perf_counter() < stop:
            await asyncio.sleep(self.rng.uniform(0.5 * every, 1.5 * every))
            if self.view is None or self.sent:
                continue
            action = choose(self.view)
            if action is None:
                continue
            self.ref += 1
            self.sent[self.ref] = time.perf_counter()
            self.gen.tally.sent += 1
            await self.ws.send(f'{{"type":"act","ref":{self.ref},"action":{action}}}')


class Generator:
    """All clients of the run, in one asyncio loop."""

    def __init__(self, urls: list[str], every: float, seed: int,
                 compensation: bool = True, deflate: bool = False) -> None:
        self.urls, self.every, self.compensation = urls, every, compensation
        self.deflate = deflate
        """Offer permessage-deflate, as browsers do (the server's ``--ws-deflate``)."""
        self.rng = random.Random(seed)
        self.players: list[Player] = []
        self.tally = Tally()
        self.tasks: list[asyncio.Task[None]] = []
        self.moves: list[float] = []
        """``moved`` → ``table`` at the owner (reconnect, hello, join), per move."""
        self.joins: dict[bool, list[float]] = {False: [], True: []}
        """``join`` → ``table``, of joiners sent straight to the owner and of moved ones."""

    async def table(self, number: int) -> list[Player]:
        """Four players at a new table: one creates it, three join, all ready, it starts.

        With several processes, table ``number`` is created on process ``number % N``;
        at every other table the three others first ask the next process (and are moved)."""
        count = len(self.urls)
        owner = self.urls[number % count]
        away = count > 1 and (number // count) % 2 == 1
        asked = self.urls[(number + 1) % count] if away else owner
        players = [Player(self, number, random.Random(self.rng.random()), owner if i == 0
                          else asked) for i in range(4)]
        for player in players:
            await player.connect(player.home)
            self.tasks.append(asyncio.create_task(player.read()))
        host = players[0]
        create: dict[str, Any] = {"type": "create", "game": "unter-spannung",
                                  "options": {"tournament": True},
                                  "seats": [{"kind": "open"}] * 4}
        if not self.compensation:
            create["compensation"] = False
        for _ in range(100):
            host.joined.clear()
            host.refused = None
            await host.ws.send(encode(create))
            await asyncio.wait_for(host.joined.wait(), 30)
            if host.refused != "cluster_unavailable":  # its pool of codes ran dry: again
                break
            await asyncio.sleep(0.2)
        assert host.code, f"table {number} was not created: {host.refused}"
        for player in players[1:]:
            player.place = encode({"type": "join", "code": host.code})
            sent = time.perf_counter()
            await player.ws.send(player.place)
            await asyncio.wait_for(player.joined.wait(), 30)
            self.joins[away].append(time.perf_counter() - sent)
            await player.ws.send('{"type":"ready"}')
        await asyncio.sleep(0.2)
        await host.ws.send('{"type":"start"}')
        return players

    async def grow(self, connections: int) -> None:
        """Open tables until there are ``connections`` clients (a few tables at a time)."""
        while len(self.players) < connections:
            batch = min(10, -(-(connections - len(self.players)) // 4))
            tables = await asyncio.gather(*(self.table(len(self.players) // 4 + i)
                                            for i in range(batch)))
            self.players.extend(p for table in tables for p in table)

    async def ticker(self, stop: float) -> None:
        """How late the loop wakes up: the generator's own saturation."""
        while time.perf_counter() < stop:
            before = time.perf_counter()
            await asyncio.sleep(0.05)
            self.tally.lag.append(time.perf_counter() - before - 0.05)

    async def step(self, connections: int, seconds: float) -> dict[str, Any]:
        self.moves, self.joins = [], {False: [], True: []}
        await self.grow(connections)
        await asyncio.sleep(3.5)  # the newest tables' start countdown
        gc.collect()
        gc.freeze()
        gc.disable()  # the generator's own collector must not halt the clocks it reads
        self.tally = Tally()
        print(json.dumps({"measure": "start"}), flush=True)
        stop = time.perf_counter() + seconds
        await asyncio.gather(self.ticker(stop), *(p.act(self.every, stop) for p in self.players))
        await asyncio.sleep(1.0)  # the last answers
        gc.enable()
        print(json.dumps({"measure": "end"}), flush=True)
        tally = self.tally
        for player in self.players:
            tally.open_acts += len(player.sent)
            player.sent.clear()
        lost = 0
        for key, sends in tally.accepted.items():
            seen = tally.arrived.get(key, {})
            others = [seat for seat in range(4) if seat != key[1]]
            for seat in others:
                times = seen.get(seat, [])
                lost += max(0, len(sends) - len(times))
                tally.updates.extend(t - s for s, t in zip(sends, times, strict=False))
        return {"connections": len(self.players), "acts": tally.sent,
                "acks": summary(tally.acks), "updates": summary(tally.updates),
                "refused": tally.refused, "errors": tally.errors, "closed": tally.closed,
                "lost": lost + tally.open_acts, "received": tally.received,
                "lag": summary(tally.lag), "seconds": seconds, "moves": summary(self.moves),
                "moves_late": tally.moves_late, "joins": summary(self.joins[False]),
                "joins_moved": summary(self.joins[True])}


def summary(values: list[float]) -> dict[str, float]:
    """p50, p99 and max in milliseconds."""
    if not values:
        return {"n": 0, "p50": 0.0, "p99": 0.0, "max": 0.0}
    ordered = sorted(values)

    def at(q: float) -> float:
        return ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000

    return {"n": len(ordered), "p50": at(0.5), "p99": at(0.99), "max": ordered[-1] * 1000}


async def generate(urls: list[str], steps: list[int], seconds: float, every: float,
                   compensation: bool = True, deflate: bool = False) -> None:
    generator = Generator(urls, every, seed=1, compensation=compensation, deflate=deflate)
    for connections in steps:
        result = await generator.step(connections, seconds)
        print(json.dumps({"result": result}), flush=True)
    for player in generator.players:
        with contextlib.suppress(Exception):
            await player.ws.close()


# The runner -----------------------------------------------------------------------------


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of process ``pid``."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICK


def waited_seconds(pid: int) -> float:
    """How long process ``pid``'s threads were ready to run but waited for a CPU (others ran)."""
    total = 0
    for task in Path(f"/proc/{pid}/task").iterdir():
        with contextlib.suppress(OSError, IndexError, ValueError):
            total += int((task / "schedstat").read_text().split()[1])
    return total / 1e9


def syscalls(pid: int) -> tuple[int, int]:
    """How many read and write system calls process ``pid`` made (socket sends and receives
    among them): a count the machine's other load does not change."""
    fields = dict(line.split(": ") for line in Path(f"/proc/{pid}/io").read_text().splitlines())
    return int(fields["syscr"]), int(fields["syscw"])


def stolen_seconds(cpu: int) -> float:
    """How long the virtual machine's host ran something else while CPU ``cpu`` had work."""
    for line in Path("/proc/stat").read_text().splitlines():
        if line.startswith(f"cpu{cpu} "):
            return int(line.split()[8]) / TICK
    return 0.0


def switches(pid: int) -> int:
    """How often process ``pid`` gave up its CPU: to wait (voluntary) or preempted."""
    status = Path(f"/proc/{pid}/status").read_text()
    return sum(int(n) for n in re.findall(r"^(?:non)?voluntary_ctxt_switches:\s+(\d+)$", status,
                                            re.MULTILINE))


def rss_bytes(pid: int) -> int:
    """Resident memory of process ``pid``."""
    return int(Path(f"/proc/{pid}/statm").read_text().split()[1]) * PAGE


def pinned(cpu: int) -> Any:
    """A ``preexec_fn`` that pins the child to one CPU (if the machine has it)."""
    cpus = os.sched_getaffinity(0)

    def pin() -> None:
        os.sched_setaffinity(0, {cpu} if cpu in cpus else cpus)

    return pin


@contextlib.contextmanager
def on_cpu(cpu: int) -> Iterator[None]:
    """Children started meanwhile (PostgreSQL, Redis) inherit CPU ``cpu``, as ``pinned``."""
    cpus = os.sched_getaffinity(0)
    os.sched_setaffinity(0, {cpu} if cpu in cpus else cpus)
    try:
        yield
    finally:
        os.sched_setaffinity(0, cpus)


def postmaster(port: int) -> int:
    """The pid of the PostgreSQL server listening on ``port`` (started by tests/pg.py)."""
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(OSError):
                argv = (entry / "cmdline").read_bytes().decode(errors="replace").split("\0")
                if Path(argv[0]).name == "postgres" and any(
                        a == "-p" and b == str(port) for a, b in itertools.pairwise(argv)):
                    return int(entry.name)
    raise LookupError(f"no PostgreSQL on port {port}")


def tree_cpu_seconds(pid: int) -> float:
    """CPU time of process ``pid``, its children alive and those it has reaped."""
    total = 0.0
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(OSError, IndexError):
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
                if int(entry.name) == pid:
                    total += sum(int(f) for f in fields[11:15]) / TICK
                elif int(fields[1]) == pid:
                    total += (int(fields[11]) + int(fields[12])) / TICK
    return total


def serve(name: str, folder: Path, arguments: list[str]) -> tuple[subprocess.Popen[str], str]:
    """Start ``zackzack serve`` pinned to CPU 0: the process and its stdout's first line.
    Every server process stays in this session: with the kernel's ``autogroup`` they share
    one scheduling group, so PostgreSQL's backends (each in a session of its own) get the same
    share of the core against one process or several (``docs/operations.md``)."""
    server = subprocess.Popen(
        [sys.executable, "-m", "zackzack.cli", "serve", *arguments,
         "--limit", "connections_per_ip=0",
         "--limit", "new_players_burst=0",  # thousands of new players from one address
         "--limit", "rate=1000", "--limit", "burst=1000"],
        stdout=subprocess.PIPE, stderr=open(folder / f"{name}.log", "w"),  # noqa: SIM115
        text=True, preexec_fn=pinned(0),
        env={**os.environ, "ZACKZACK_LOOP_LAG": str(folder / f"{name}.lag")})
    assert server.stdout is not None
    return server, server.stdout.readline()


def run(args: argparse.Namespace) -> int:
    folder = Path(tempfile.mkdtemp(prefix="zackzack-load-"))
    cluster = args.processes > 1 or args.cluster
    extended = cluster or args.db == "postgres"
    keep = False  # the folder stays only to show why a server did not start
    with contextlib.ExitStack() as stack:
        stack.callback(lambda: keep or shutil.rmtree(folder, ignore_errors=True))
        db = str(folder / "load.db")
        others: dict[str, Any] = {}  # what else runs on CPU 0: name -> its CPU seconds
        if extended:
            from pg import fresh_database, postgres_server
            with on_cpu(0):
                db = fresh_database(stack.enter_context(postgres_server()))
            pm = postmaster(int(re.findall(r":(\d+)/", db)[0]))
            others["pg"] = functools.partial(tree_cpu_seconds, pm)
        servers: list[subprocess.Popen[str]] = []
        urls: list[str] = []
        lags: list[Path] = []  # where each server reports its loop's lag (server/looplag.py)
        if cluster:
            from pg import _free_port
            from redis_server import redis_server
            with on_cpu(0):
                redis = stack.enter_context(redis_server())
            assert redis.process is not None
            others["redis"] = functools.partial(cpu_seconds, redis.process.pid)
            ports = [_free_port() for _ in range(args.processes)]
            for i, port in enumerate(ports):  # the first alone: it migrates the database
                server, line = serve(
                    chr(65 + i), folder, ["--port", str(port), "--db", db, "--redis",
                                          redis.url, "--public-url", f"http://127.0.0.1:{port}",
                                          *args.server_arg])
                servers.append(server)
                urls.append(line)
                lags.append(folder / f"{chr(65 + i)}.lag")
        else:
            server, line = serve("server", folder, ["--port", "0", "--db", db,
                                                    *args.server_arg])
            servers.append(server)
            urls.append(line)
            lags.append(folder / "server.lag")
        stack.callback(stop, servers)
        found = [re.search(r"http://([\d.]+:\d+)/", line) for line in urls]
        if not all(found):
            print("the server did not start; see", folder)
            keep = True
            return 1
        url = ",".join(f"ws://{f.group(1)}/ws" for f in found if f)
        time.sleep(0.5)
        return measure(args, servers, others, url, extended, lags)
    return 1


def stop(processes: list[subprocess.Popen[str]]) -> None:
    """Terminate ``processes`` (kill those that do not stop in 15 s)."""
    for process in processes:
        if process.poll() is None:
            process.terminate()
    for process in processes:
        try:
            process.wait(15)
        except subprocess.TimeoutExpired:
            process.kill()


def loop_lag(servers: list[subprocess.Popen[str]], files: list[Path],
             reports: int) -> dict[str, float]:
    """Ask every server for its loop's lag since the last ask (``SIGUSR1``), wait for the
    ``reports``-th report of each: the worst p99.9 and max (ms), and the sums of the
    servers' running totals (the journal's actions and commits)."""
    for server in servers:
        server.send_signal(signal.SIGUSR1)
    worst = {"p999": 0.0, "max": 0.0, "journaled": 0.0, "commits": 0.0}
    for file in files:
        deadline = time.monotonic() + 10
        while True:
            with contextlib.suppress(OSError, ValueError):
                data = json.loads(file.read_text())
                if data["report"] >= reports:
                    break
            if time.monotonic() > deadline:
                return {key: float("nan") for key in worst}
            time.sleep(0.01)
        worst = {"p999": max(worst["p999"], data["p999"]), "max": max(worst["max"], data["max"]),
                 "journaled": worst["journaled"] + data.get("journaled", float("nan")),
                 "commits": worst["commits"] + data.get("commits", float("nan"))}
    return worst


def measure(args: argparse.Namespace, servers: list[subprocess.Popen[str]],
            others: dict[str, Any], url: str, extended: bool, lags: list[Path]) -> int:
    """Run the load generator against ``url`` and print a table row per step."""
    cluster = len(servers) > 1
    names = [chr(65 + i) for i in range(len(servers))] if cluster else ["server"]
    base_rss = sum(rss_bytes(server.pid) for server in servers)
    deadline = time.monotonic() + args.deadline
    generator = subprocess.Popen(
        [sys.executable, __file__, "--generate", url, "--steps", args.steps,
         "--seconds", str(args.seconds), "--every", str(args.every),
         *(["--no-compensation"] if args.no_compensation else []),
         *(["--deflate"] if args.deflate else [])],
        stdout=subprocess.PIPE, text=True, preexec_fn=pinned(1))
    assert generator.stdout is not None
    pids = ", ".join(str(server.pid) for server in servers)
    print(f"server pid {pids} on CPU 0, load generator pid {generator.pid} on CPU 1; "
          f"each client acts every {args.every} s on average; {args.seconds} s per step; "
          f"server idle RSS {base_rss / 2**20:.1f} MiB")
    if extended:
        print(f"on CPU 0 too: {', '.join(others)}; {url}; load average "
              f"{Path('/proc/loadavg').read_text().strip()}")
    more = more_rule = ""
    if extended:
        more = (f" CPU {' / '.join([*names, *others])} % | CPU-0 ms/act | CPU-0 stolen % |"
                " server switches/act | load 1 m |")
        more_rule = "---|---:|---:|---:|---:|"
    if cluster:
        more += " moves | moved→table p50 / p99 ms | join→table direct / moved p50 ms |"
        more_rule += "---:|---|---|"
    print("| clients | tables | acts/s | act→ack p50 / p99 / max ms | act→others p50 / p99 / "
          "max ms | errors | lost | server CPU | server ms CPU/act | "
          "server reads / writes per act | actions per commit | server waited for CPU | "
          "loop lag p99.9 / max ms | "
          "server RSS | KiB/conn | gen lag p99 / max ms |" + more)
    print("|---:|---:|---:|---|---|---:|---:|---:|---:|---|---:|---:|---|---:|---:|---:|"
          + more_rule)
    watched = {**{name: functools.partial(cpu_seconds, server.pid)
                  for name, server in zip(names, servers, strict=True)}, **others}
    stolen0 = stolen = 0.0
    switched0 = switched = 0
    cpu0: dict[str, float] = {}
    cpu: dict[str, float] = {}
    wall0 = wall = 0.0
    held = 0  # the most clients whose p99 act → others stayed under the limit
    reports = 0  # loop lag reports asked of each server so far
    waited0 = waited = 0.0
    calls0 = calls = [0, 0]
    loop = loop0 = {"p999": 0.0, "max": 0.0, "journaled": 0.0, "commits": 0.0}
    try:
        for line in generator.stdout:
            if time.monotonic() > deadline:
                print("deadline reached: stopping")
                break
            data = json.loads(line)
            if data.get("measure") == "start":
                cpu0, wall0 = {name: seconds() for name, seconds in watched.items()}, \
                    time.monotonic()
                stolen0 = stolen_seconds(0)
                switched0 = sum(switches(server.pid) for server in servers)
                waited0 = sum(waited_seconds(server.pid) for server in servers)
                calls0 = [sum(c) for c in zip(*(syscalls(s.pid) for s in servers), strict=True)]
                loop0 = loop_lag(servers, lags, reports)  # starts the step's sampling afresh
                reports += 1
            elif data.get("measure") == "end":
                wall = time.monotonic() - wall0
                cpu = {name: (seconds() - cpu0[name]) / wall for name, seconds in watched.items()}
                stolen = (stolen_seconds(0) - stolen0) / wall
                switched = sum(switches(server.pid) for server in servers) - switched0
                rss = sum(rss_bytes(server.pid) for server in servers)
                load = Path("/proc/loadavg").read_text().split()[0]
                loop = loop_lag(servers, lags, reports)
                waited = (sum(waited_seconds(server.pid) for server in servers) - waited0) / wall
                calls = [sum(c) - c0 for c, c0 in zip(
                    zip(*(syscalls(s.pid) for s in servers), strict=True), calls0, strict=True)]
                reports += 1
            elif "result" in data:
                r = data["result"]
                a, u, lag = r["acks"], r["updates"], r["lag"]
                per = (rss - base_rss) / r["connections"] / 1024
                served = sum(cpu[name] for name in names)
                acts = max(1, r["acts"])
                batch = (loop["journaled"] - loop0["journaled"]) / max(
                    1, loop["commits"] - loop0["commits"])
                per_act = served * wall * 1000 / acts
                row = (f"| {r['connections']} | {r['connections'] // 4} | "
                       f"{r['acts'] / r['seconds']:.0f} | "
                       f"{a['p50']:.1f} / {a['p99']:.1f} / {a['max']:.0f} | "
                       f"{u['p50']:.1f} / {u['p99']:.1f} / {u['max']:.0f} | "
                       f"{r['errors'] + r['closed']} | {r['lost']} | {served * 100:.0f}% | "
                       f"{per_act:.3f} | {calls[0] / acts:.1f} / {calls[1] / acts:.1f} | "
                       f"{batch:.1f} | "
                       f"{waited * 100:.0f}% | "
                       f"{loop['p999']:.1f} / {loop['max']:.0f} | "
                       f"{rss / 2**20:.0f} MiB | {per:.1f} | "
                       f"{lag['p99']:.1f} / {lag['max']:.0f} |")
                if extended:
                    shares = " / ".join(f"{cpu[name] * 100:.0f}" for name in watched)
                    total = sum(cpu.values())
                    cost = total * wall * 1000 / max(1, r["acts"])
                    row += (f" {shares} (Σ {total * 100:.0f}) | {cost:.2f} | {stolen * 100:.1f} |"
                            f" {switched / max(1, r['acts']):.2f} | {load} |")
                if cluster:
                    m, late = r["moves"], r["moves_late"]
                    row += (f" {m['n']}{f' (+{late} late)' if late else ''}"
                            f" | {m['p50']:.1f} / {m['p99']:.1f} | "
                            f"{r['joins']['p50']:.1f} / {r['joins_moved']['p50']:.1f} |")
                print(row, flush=True)
                if u["p99"] < args.limit_ms and r["errors"] + r["closed"] + r["lost"] == 0:
                    held = max(held, r["connections"])
    finally:
        stop([generator])
    if extended:
        print(f"most clients with p99 act→others < {args.limit_ms:g} ms and nothing lost: "
              f"{held}; load average {Path('/proc/loadavg').read_text().strip()}")
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", default="250,500,1000,2000",
                        help="client counts to ramp through (rounded up to tables of 4)")
    parser.add_argument("--seconds", type=float, default=20.0, help="measured seconds per step")
    parser.add_argument("--every", type=float, default=1.0,
                        help="mean seconds between one client's actions (0.5–1.5× jitter)")
    parser.add_argument("--deadline", type=float, default=900.0,
                        help="stop the whole run after this many seconds")
    parser.add_argument("--server-arg", action="append", default=[],
                        help="one more argument for zackzack serve")
    parser.add_argument("--db", choices=("sqlite", "postgres"), default="sqlite",
                        help="the server's store: a fresh SQLite file, or a throwaway "
                        "PostgreSQL on the server's CPU (always so with --processes)")
    parser.add_argument("--processes", type=int, default=1,
                        help="N >= 2: a cluster of N processes and a Redis on the server's CPU")
    parser.add_argument("--cluster", action="store_true",
                        help="clustered (Redis, fencing) even with one process: the cluster "
                        "layer's cost without a second process on the core")
    parser.add_argument("--limit-ms", type=float, default=25.0,
                        help="the p99 act → others that a step must hold to count as served")
    parser.add_argument("--deflate", action="store_true",
                        help="clients offer permessage-deflate, as browsers do")
    parser.add_argument("--no-compensation", action="store_true",
                        help="tables decide races by arrival (no lag credit, no waiting)")
    parser.add_argument("--generate", metavar="URL", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.generate:
        steps = [int(n) for n in args.steps.split(",")]
        asyncio.run(generate(args.generate.split(","), steps, args.seconds, args.every,
                             not args.no_compensation, args.deflate))
        return 0
    return run(args)


if __name__ == "__main__":
    sys.exit(main())
