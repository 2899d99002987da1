"""Load on a real ``zackzack serve``: tables of two players with watchers, over websockets.

Starts the server in its own process (a fresh database), opens ``--tables`` tables of
Unter Spannung (tournament) with two players acting ``--rate`` times a second each and
``--watchers`` spectators per table, and reports the act → ack round trip at the players and
the act → event delay at the watchers. Usage:

    .venv/bin/python bench/server_load.py --tables 10 --watchers 20 --rate 4 --seconds 20
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import re
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import msgspec
import websockets

from zackzack.games import unter_spannung as us

decode = msgspec.json.decode


def encode(message: dict[str, Any]) -> str:
    """A message as a JSON text frame."""
    return msgspec.json.encode(message).decode()


@dataclass
class Totals:
    """What the clients measured (seconds)."""

    acks: list[float] = field(default_factory=list)
    refused: int = 0
    sent_at: dict[tuple[str, int, int], float] = field(default_factory=dict)
    seen: list[float] = field(default_factory=list)
    messages: int = 0


def pick(view: dict[str, Any]) -> dict[str, Any] | None:
    """A legal action: a card that fits, else a draw."""
    state = view["state"]
    allowed = us.Card.parse(state["top"]).allowed
    for card in state["hand"]:
        if us.Card.parse(card).value in allowed:
            return {"type": "play", "card": card, "seen": state["version"]}
    return {"type": "draw"} if state["draw_counts"][view["seat"]] else None


async def connect(url: str, name: str) -> Any:
    ws = await websockets.connect(url, max_size=None)
    await ws.send(encode({"type": "hello", "name": name}))
    await ws.recv()
    return ws


async def player(ws: Any, code: str, rate: float, until: float, totals: Totals) -> None:
    """Act ``rate`` times a second on the latest view; time each act until its ack."""
    view: dict[str, Any] = {}
    sent: dict[int, float] = {}
    refs = itertools.count()

    async def read() -> None:
        async for text in ws:
            message = decode(text)
            totals.messages += 1
            if "view" in message:
                view.update(message["view"])
            if message["type"] == "ack":
                totals.acks.append(time.perf_counter() - sent.pop(message["ref"]))
                totals.refused += not message["ok"]

    reader = asyncio.create_task(read())
    while time.perf_counter() < until:
        await asyncio.sleep(1 / rate)
        if view.get("phase") == "playing" and view.get("state"):
            action = pick(view)
            if action is not None:
                ref = next(refs)
                sent[ref] = time.perf_counter()
                if action["type"] == "play":  # if it is taken, it makes the next version
                    key = (code, view["round"], view["state"]["version"] + 1)
                    totals.sent_at.setdefault(key, sent[ref])
                await ws.send(encode({"type": "act", "ref": ref, "action": action}))
    reader.cancel()


async def watcher(ws: Any, code: str, totals: Totals) -> None:
    """Note when each played card reaches this spectator."""
    rounds = 1
    async for text in ws:
        message = decode(text)
        totals.messages += 1
        if message["type"] != "events":
            continue
        rounds = message["view"]["round"]
        for event in message["events"]:
            if event["type"] == "played":
                sent = totals.sent_at.get((code, rounds, event["version"]))
                if sent is not None:
                    totals.seen.append(time.perf_counter() - sent)


async def table(url: str, watchers: int, rate: float, seconds: float, totals: Totals) -> None:
    anna, ben = await connect(url, "Anna"), await connect(url, "Ben")
    await anna.send(encode({"type": "create", "game": "unter-spannung",
                            "options": {"tournament": True}}
                           | {"seats": [{"kind": "open"}, {"kind": "open"}]}))
    reply = decode(await anna.recv())
    assert reply["type"] == "table", reply
    code = reply["table"]["code"]
    await ben.send(encode({"type": "join", "code": code, "seat": None}))
    await ben.send(encode({"type": "ready", "ready": True}))
    spectators = [await connect(url, f"W{i}") for i in range(watchers)]
    for ws in spectators:
        await ws.send(encode({"type": "watch", "code": code}))
    await asyncio.sleep(0.5)
    await anna.send(encode({"type": "start"}))
    until = time.perf_counter() + 3 + seconds
    tasks = [asyncio.create_task(watcher(ws, code, totals)) for ws in spectators]
    await asyncio.gather(player(anna, code, rate, until, totals),
                         player(ben, code, rate, until, totals))
    for task in tasks:
        task.cancel()
    for ws in (anna, ben, *spectators):
        await ws.close()


def ms(values: list[float], q: float) -> str:
    if not values:
        return "n/a"
    ordered = sorted(values)
    return f"{ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000:.1f}"


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=10)
    parser.add_argument("--watchers", type=int, default=20)
    parser.add_argument("--rate", type=float, default=4.0, help="acts a second per player")
    parser.add_argument("--seconds", type=float, default=20.0)
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp())
    server = subprocess.Popen(
        [sys.executable, "-m", "zackzack.cli", "serve", "--port", "0", "--db",
         str(folder / "bench.db")], stdout=subprocess.PIPE, text=True)
    try:
        assert server.stdout is not None
        found = re.search(r"http://([\d.]+:\d+)/", server.stdout.readline())
        assert found, "the server did not start"
        url = f"ws://{found.group(1)}/ws"
        totals = Totals()
        began = time.perf_counter()
        await asyncio.gather(*(table(url, args.watchers, args.rate, args.seconds, totals)
                               for _ in range(args.tables)))
        took = time.perf_counter() - began
    finally:
        server.terminate()
        server.wait(10)
    print(f"tables={args.tables} watchers/table={args.watchers} rate/player={args.rate}/s "
          f"seconds={args.seconds}")
    print(f"acts={len(totals.acks)} ({len(totals.acks) / took:.0f}/s) refused={totals.refused} "
          f"messages_received={totals.messages} ({totals.messages / took:.0f}/s)")
    print(f"act->ack ms: p50={ms(totals.acks, 0.5)} p99={ms(totals.acks, 0.99)} "
          f"max={ms(totals.acks, 1.0)} mean={statistics.fmean(totals.acks) * 1000:.1f}")
    print(f"act->watcher event ms: p50={ms(totals.seen, 0.5)} p99={ms(totals.seen, 0.99)} "
          f"max={ms(totals.seen, 1.0)} (n={len(totals.seen)})")


if __name__ == "__main__":
    asyncio.run(main())
