"""Abuse over real sockets: a real ``zackzack serve`` child process on loopback, its default
limits, and three floods (issue 32), each bounded in time.

- **Replay flood**: 32 concurrent ``GET /api/matches/{id}/replay`` over a few finished
  tournaments (stored beforehand, on the virtual clock, into the server's SQLite file) while a
  live client seated at a running table sends ``ping`` every 20 ms: the server's resident
  memory (before, peak, after) and the client's ping round trip (p50/p99/max) before and
  during the flood.
- **Claim flood**: guests on many loopback addresses (127.0.1.N: Linux answers the whole
  127/8; 10 guests each) all claim names at once, again every 0.1 s, while the owner of a
  claimed name signs in again and again from the device that claimed it (its ``zz_device``
  cookie), and a second sign-in of the owner comes from a new device on a new address:
  their latencies (p50/p99/max, and without the flood), and how the flood was answered.
- **Idle sockets**: websockets (20 per loopback address, under the per-address caps)
  that never say ``hello``: how many the server closed within its deadline
  (``Limits.hello_seconds``, 10 s), how long that took, and its open file descriptors before,
  at the peak and after.

    .venv/bin/python bench/abuse.py [--idle 600] [--claimers 48] [--seconds 8]

It prints one table; ``docs/operations.md`` (*Abuse figures*) has a run.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import websockets

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

PAGE = os.sysconf("SC_PAGE_SIZE")
DEADLINE = 240.0
"""The whole run never takes longer than this (seconds)."""


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
    return port


def rss(pid: int) -> int:
    """Resident bytes of process ``pid``."""
    with open(f"/proc/{pid}/statm") as statm:
        return int(statm.read().split()[1]) * PAGE


def fds(pid: int) -> int:
    """Open file descriptors of process ``pid``."""
    return len(os.listdir(f"/proc/{pid}/fd"))


def quantiles(values: list[float]) -> tuple[float, float, float]:
    """p50, p99 and the maximum of ``values`` (milliseconds; zeros when empty)."""
    if not values:
        return 0.0, 0.0, 0.0
    ordered = sorted(values)
    p99 = ordered[min(len(ordered) - 1, round(0.99 * (len(ordered) - 1)))]
    return statistics.median(ordered), p99, ordered[-1]


def prepare(db: Path, matches: int) -> list[str]:
    """Store ``matches`` finished four-player tournaments (a person and three bots) in ``db``:
    their ids."""
    from server.kit import World, play_out
    from zackzack.engine.table import Settings
    from zackzack.store import Store

    store = Store(f"sqlite:///{db}")
    world = World(store, settings=Settings())
    ids = []
    for n in range(matches):
        client = world.client(f"Replay {n}")
        client.send(type="create", game="unter-spannung", options={"tournament": True},
                    seats=[{"kind": "open"}] + [{"kind": "bot", "bot": "normal"}] * 3)
        client.send(type="start")
        play_out(world, [client], limit=100_000)
        ids.append(client.table["match"])
        client.send(type="leave")
    world.lobby.journal.flush()
    store.close()
    return ids


@contextlib.contextmanager
def served(folder: Path, db: Path) -> Iterator[tuple[subprocess.Popen[str], str]]:
    """``zackzack serve`` on a free loopback port with its default limits: the process and its
    http address."""
    port = free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "zackzack.cli", "serve", "--port", str(port), "--db", str(db)],
        stdout=subprocess.PIPE, stderr=open(folder / "serve.log", "w"),  # noqa: SIM115
        text=True)
    try:
        assert server.stdout is not None
        server.stdout.readline()
        url = f"http://127.0.0.1:{port}"
        for _ in range(100):
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(f"{url}/healthz", timeout=1).status_code == 200:
                    break
            time.sleep(0.1)
        yield server, url
    finally:
        server.terminate()
        try:
            server.wait(10)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()


async def hello(url: str, name: str, local: str = "127.0.0.1",
                token: str | None = None) -> tuple[Any, dict[str, Any]]:
    """A websocket from ``local`` that said hello as ``name``: it and the welcome."""
    ws = await websockets.connect(url.replace("http", "ws", 1) + "/ws",
                                  local_addr=(local, 0), max_size=2**24)
    await ws.send(json.dumps({"type": "hello", "token": token, "name": name}))
    while True:
        message = json.loads(await ws.recv())
        if message["type"] == "welcome":
            return ws, message


# The replay flood --------------------------------------------------------------------------


class Pinger:
    """A live client seated at a running table (against bots), pinging every 20 ms."""

    def __init__(self) -> None:
        self.rtts: list[float] = []
        self.sent: dict[float, float] = {}
        self.recording = False

    async def run(self, url: str, stop: asyncio.Event) -> None:
        ws, _ = await hello(url, "Live Player")
        await ws.send(json.dumps({"type": "create", "game": "unter-spannung",
                                  "seats": [{"kind": "open"}, {"kind": "bot", "bot": "beginner"}]}))
        await ws.send(json.dumps({"type": "start"}))

        async def read() -> None:
            async for text in ws:
                message = json.loads(text)
                if message["type"] == "pong" and message.get("t") in self.sent:
                    began = self.sent.pop(message["t"])
                    if self.recording:
                        self.rtts.append((time.perf_counter() - began) * 1000)
                elif message["type"] == "ping":  # the server's lag probe: answered at once
                    await ws.send(json.dumps({"type": "pong", "n": message["n"]}))

        reader = asyncio.create_task(read())
        n = 0.0
        while not stop.is_set():
            n += 1
            self.sent[n] = time.perf_counter()
            await ws.send(json.dumps({"type": "ping", "t": n}))
            await asyncio.sleep(0.02)
        reader.cancel()
        await ws.close()


async def replay_flood(url: str, pid: int, ids: list[str], requests: int) -> dict[str, Any]:
    pinger, stop = Pinger(), asyncio.Event()
    live = asyncio.create_task(pinger.run(url, stop))
    await asyncio.sleep(1.0)
    pinger.recording = True
    await asyncio.sleep(2.0)  # the round trip without the flood
    quiet = list(pinger.rtts)
    pinger.rtts.clear()
    before = peak = rss(pid)
    statuses: Counter[int] = Counter()
    sizes: set[int] = set()

    async def sample() -> None:
        nonlocal peak
        while True:
            peak = max(peak, rss(pid))
            await asyncio.sleep(0.02)

    sampler = asyncio.create_task(sample())
    began = time.perf_counter()
    async with httpx.AsyncClient(timeout=60, limits=httpx.Limits(max_connections=requests)) \
            as http:
        async def one(match_id: str) -> None:
            answer = await http.get(f"{url}/api/matches/{match_id}/replay")
            statuses[answer.status_code] += 1
            if answer.status_code == 200:
                sizes.add(len(answer.content))

        await asyncio.gather(*(one(ids[i % len(ids)]) for i in range(requests)))
    took = time.perf_counter() - began
    await asyncio.sleep(0.5)
    sampler.cancel()
    during = list(pinger.rtts)
    stop.set()
    await live
    return {"requests": requests, "matches": len(ids), "statuses": dict(statuses),
            "replay_kib": round(max(sizes, default=0) / 1024), "seconds": round(took, 2),
            "rss_before_mib": before / 2**20, "rss_peak_mib": peak / 2**20,
            "rss_after_mib": rss(pid) / 2**20,
            "ping_quiet": quantiles(quiet), "ping_flood": quantiles(during)}


# The claim flood --------------------------------------------------------------------------


async def claim_flood(url: str, claimers: int, per_address: int,
                      seconds: float) -> dict[str, Any]:
    owner_ws, owner = await hello(url, "Owner Legit", "127.0.0.2")
    device = httpx.AsyncHTTPTransport(local_address="127.0.0.2")
    async with httpx.AsyncClient(base_url=url, transport=device, timeout=60) as home:
        claimed = await home.post("/api/account/claim",
                                  json={"name": "Owner Legit", "password": "owner-password"},
                                  headers={"Authorization": f"Bearer {owner['token']}"})
        assert claimed.status_code == 200, claimed.text
        await owner_ws.close()
        tokens: list[list[str]] = []
        for n in range(claimers):  # each address makes its guests (before the flood)
            made = []
            for i in range(per_address):
                ws, welcome = await hello(url, f"Flood {n} {i}", f"127.0.1.{n + 1}")
                await ws.close()
                made.append(welcome["token"])
            tokens.append(made)
        answers: Counter[str] = Counter()
        quiet: list[float] = []
        for _ in range(5):  # the owner's sign-in without a flood
            began = time.perf_counter()
            answer = await home.post("/api/account/sign-in", json={
                "name": "Owner Legit", "password": "owner-password"})
            assert answer.status_code == 200, answer.text
            quiet.append((time.perf_counter() - began) * 1000)
        stop = time.perf_counter() + seconds

        async def flood(n: int, tokens: list[str]) -> None:
            """One address: all its guests claim at once, again and again (every 0.1 s)
            until they have their names or the flood is over."""
            transport = httpx.AsyncHTTPTransport(local_address=f"127.0.1.{n + 1}")
            async with httpx.AsyncClient(base_url=url, transport=transport, timeout=60,
                                         limits=httpx.Limits(max_connections=64)) as http:
                async def claim(i: int, token: str) -> bool:
                    try:
                        answer = await http.post(
                            "/api/account/claim", json={"name": f"Flood {n} {i}",
                                                        "password": "flood-password"},
                            headers={"Authorization": f"Bearer {token}"})
                    except httpx.HTTPError:
                        answers["closed"] += 1  # the server closed the connection
                        return True
                    answers[str(answer.status_code)] += 1
                    return answer.status_code != 200

                pending = dict(enumerate(tokens))
                while pending and time.perf_counter() < stop:
                    left = await asyncio.gather(*(claim(i, t) for i, t in pending.items()))
                    pending = {i: t for (i, t), keep in zip(pending.items(), left, strict=True)
                               if keep}
                    await asyncio.sleep(0.1)

        async def sign_ins(client: httpx.AsyncClient, found: list[float],
                           codes: Counter[int]) -> None:
            await asyncio.sleep(0.5)  # the flood is under way
            while time.perf_counter() < stop:
                began = time.perf_counter()
                answer = await client.post("/api/account/sign-in", json={
                    "name": "Owner Legit", "password": "owner-password"})
                found.append((time.perf_counter() - began) * 1000)
                codes[answer.status_code] += 1
                await asyncio.sleep(0.5)

        known: list[float] = []
        known_codes: Counter[int] = Counter()
        new: list[float] = []
        new_codes: Counter[int] = Counter()
        elsewhere = httpx.AsyncHTTPTransport(local_address="127.0.2.1")
        async with httpx.AsyncClient(base_url=url, transport=elsewhere, timeout=60) as away:
            await asyncio.gather(*(flood(n, made) for n, made in enumerate(tokens)),
                                 sign_ins(home, known, known_codes), sign_ins(away, new, new_codes))
    return {"claimers": claimers, "per_address": per_address, "seconds": seconds,
            "claims": dict(answers),
            "quiet": quantiles(quiet),
            "known": quantiles(known), "known_codes": dict(known_codes),
            "new": quantiles(new), "new_codes": dict(new_codes)}


# Idle sockets -----------------------------------------------------------------------------


async def idle_sockets(url: str, pid: int, count: int) -> dict[str, Any]:
    """``count`` websockets, 20 per loopback address (under ``http_connections_per_ip``
    while they upgrade), that never say hello."""
    before = fds(pid)
    closed: list[float] = []
    codes: Counter[int | None] = Counter()
    refused = 0

    async def one(i: int) -> None:
        nonlocal refused
        local = f"127.0.{3 + i // 5000}.{i // 20 % 250 + 1}"
        try:
            ws = await websockets.connect(url.replace("http", "ws", 1) + "/ws",
                                          local_addr=(local, 0), open_timeout=20)
        except (OSError, websockets.InvalidStatus, TimeoutError):
            refused += 1
            return
        since = time.perf_counter()  # its own deadline runs from its upgrade
        with contextlib.suppress(websockets.ConnectionClosed):
            await asyncio.wait_for(ws.recv(), 30)
        closed.append(time.perf_counter() - since)
        codes[ws.close_code] += 1

    tasks = [asyncio.create_task(one(i)) for i in range(count)]
    await asyncio.sleep(3.0)
    peak = fds(pid)
    await asyncio.gather(*tasks)
    await asyncio.sleep(0.5)
    return {"sockets": count, "refused": refused, "closed": len(closed),
            "codes": {str(k): v for k, v in codes.items()},
            "closed_within_11s": sum(t <= 11.0 for t in closed),
            "median_closed_s": statistics.median(closed) if closed else 0.0,
            "last_closed_s": max(closed, default=0.0),
            "fds_before": before, "fds_peak": peak, "fds_after": fds(pid)}


# The run ----------------------------------------------------------------------------------


def fmt(q: tuple[float, float, float]) -> str:
    return f"{q[0]:.1f} / {q[1]:.1f} / {q[2]:.1f}"


def report(replay: dict[str, Any], claims: dict[str, Any], idle: dict[str, Any]) -> str:
    rows = [
        ("replay flood", f"{replay['requests']} concurrent requests over {replay['matches']} "
         f"tournaments ({replay['replay_kib']} KiB each), answers {replay['statuses']}, "
         f"{replay['seconds']} s"),
        ("", f"RSS {replay['rss_before_mib']:.1f} MiB before, peak "
         f"{replay['rss_peak_mib']:.1f} (+{replay['rss_peak_mib'] - replay['rss_before_mib']:.1f}),"
         f" after {replay['rss_after_mib']:.1f}"),
        ("", f"live ping p50 / p99 / max ms: quiet {fmt(replay['ping_quiet'])}, "
         f"flood {fmt(replay['ping_flood'])}"),
        ("claim flood", f"{claims['claimers']} addresses × {claims['per_address']} guests "
         f"claiming at once, again every 0.1 s for {claims['seconds']} s: answers "
         f"{claims['claims']}"),
        ("", f"owner's sign-in without the flood, p50 / p99 / max ms: {fmt(claims['quiet'])}"),
        ("", f"owner's sign-in, known device, p50 / p99 / max ms: {fmt(claims['known'])} "
         f"{claims['known_codes']}"),
        ("", f"owner's sign-in, new device and address: {fmt(claims['new'])} "
         f"{claims['new_codes']}"),
        ("idle sockets", f"{idle['sockets']} never say hello ({idle['refused']} refused): "
         f"{idle['closed_within_11s']} closed within 11 s of their upgrade (codes "
         f"{idle['codes']}), median {idle['median_closed_s']:.1f} s, the last after "
         f"{idle['last_closed_s']:.1f} s"),
        ("", f"server file descriptors: {idle['fds_before']} before, {idle['fds_peak']} at "
         f"the peak, {idle['fds_after']} after"),
    ]
    rows.append(("machine", f"{os.cpu_count()} cores, load average "
                 f"{' '.join(f'{x:.1f}' for x in os.getloadavg())} at the end"))
    width = max(len(name) for name, _ in rows)
    return "\n".join(f"{name:<{width}}  {text}" for name, text in rows)


async def measure(args: argparse.Namespace, url: str, pid: int,
                  ids: list[str]) -> tuple[dict[str, Any], ...]:
    replay = await replay_flood(url, pid, ids, args.requests)
    claims = await claim_flood(url, args.claimers, args.per_address, args.seconds)
    idle = await idle_sockets(url, pid, args.idle)
    return replay, claims, idle


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--requests", type=int, default=32, help="concurrent replay requests")
    parser.add_argument("--matches", type=int, default=4, help="tournaments to replay")
    parser.add_argument("--claimers", type=int, default=48, help="guests flooding claims")
    parser.add_argument("--per-address", type=int, default=10, help="guests per address")
    parser.add_argument("--seconds", type=float, default=8.0, help="length of the claim flood")
    parser.add_argument("--idle", type=int, default=600, help="sockets that never say hello")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON too")
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="zackzack-abuse-"))
    db = folder / "abuse.db"
    ids = prepare(db, args.matches)
    with served(folder, db) as (server, url):
        replay, claims, idle = asyncio.run(asyncio.wait_for(
            measure(args, url, server.pid, ids), DEADLINE))
    print(report(replay, claims, idle))
    if args.json:
        print(json.dumps({"replay": replay, "claims": claims, "idle": idle}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
