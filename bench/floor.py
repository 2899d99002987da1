"""The floor under issue 28's target: what one action's websocket frames cost, and nothing else.

``zackzack serve`` spends its CPU on the game (the arbiter, the table, views, the journal)
and on the websocket stack under it (uvicorn, ``websockets``, the event loop, the kernel's
loopback). This bench measures the second part alone, for several stacks, with the traffic
of bench/load.py: clients in groups of four, each sending a 60-byte text every 0.5–1.5 s;
for each text the server writes the sender a 35-byte ``ack`` and all four members a
770-byte text (the sizes of an ``ack`` and an ``events`` message in bench/actions.py's run).
No JSON, no game, no journal, no pings: the real server, which does all this and more,
costs at least as much per action on the same stack, so this CPU per action is the floor a
target on that stack must stand on.

The server runs in a process of its own pinned to CPU 0; the clients (the ``websockets``
client, as bench/load.py) run in this process, pinned to CPU 1. Each step adds clients up
to its count, lets them settle, then measures ``--seconds``: the server's CPU per action
(user and kernel time apart), its write system calls per action (``write``, ``writev``:
picows sends with ``send``, which ``/proc`` does not count), and the delay from a text
sent to each member's copy arriving (p50/p99/max), with how late the clients' own loop ran.

Stacks (``--stacks``):

- ``starlette``: a Starlette ``WebSocketRoute`` under uvicorn (its ``websockets-sansio``
  protocol, uvloop), ``receive_text`` and ``send_text`` per message — the framework's way;
- ``zackzack``: the same uvicorn with ``zackzack serve``'s own protocol
  (``server/transport.py``): messages handed over within the socket's read, the sender's two
  texts written with one system call — the stack the game server runs on;
- ``picows``: picows (Cython framing on uvloop, its own server; ``pip install picows``),
  one ``send`` per message;
- ``raw``: a websocket written out here on an asyncio ``Protocol`` (the handshake, unmasking
  with ``websockets``' C speedup, frames packed by ``transport.text_frame``) on uvloop: what
  Python can do with no library between it and the socket.

    .venv/bin/python bench/floor.py --steps 1000,2000,4000 --seconds 15
    .venv/bin/python bench/floor.py --stacks zackzack,picows --steps 4000
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import contextlib
import hashlib
import json
import os
import random
import statistics
import struct
import subprocess
import sys
import time
from collections import defaultdict
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs

from load import cpu_seconds, pinned, rss_bytes, syscalls
from zackzack.server.transport import text_frame

ACK = '{"type":"ack","ref":1234,"ok":true}'
"""What the sender gets first (35 bytes, as an ``ack``)."""
EVENTS_BYTES = 770
"""What every member gets: the sender's text padded to the size of an ``events`` message."""
TEXT_BYTES = 60
"""What a client sends (an ``act`` is about this long)."""
STACKS = ("starlette", "zackzack", "picows", "raw")
TICK = os.sysconf("SC_CLK_TCK")


def padded(text: str) -> str:
    """The text every member of the sender's group gets."""
    return text + "x" * (EVENTS_BYTES - len(text))


# The servers (each in its own process: ``floor.py --serve STACK``) ------------------------


def group_of(query: str | bytes) -> str:
    """The group named in a websocket's query string (``?g=…``)."""
    text = query.decode() if isinstance(query, bytes) else query
    return parse_qs(text.lstrip("?")).get("g", [""])[0]


def serve_starlette(port: int) -> None:
    import uvicorn
    from starlette.applications import Starlette
    from starlette.routing import WebSocketRoute
    from starlette.websockets import WebSocket, WebSocketDisconnect

    groups: dict[str, list[WebSocket]] = defaultdict(list)

    async def endpoint(websocket: WebSocket) -> None:
        await websocket.accept()
        group = groups[group_of(websocket.url.query)]
        group.append(websocket)
        try:
            while True:
                text = await websocket.receive_text()
                await websocket.send_text(ACK)
                events = padded(text)
                for member in list(group):
                    with contextlib.suppress(Exception):
                        await member.send_text(events)
        except WebSocketDisconnect:
            pass
        finally:
            group.remove(websocket)

    app = Starlette(routes=[WebSocketRoute("/ws", endpoint)])
    _uvicorn(uvicorn, app, port, "websockets-sansio")


def serve_zackzack(port: int) -> None:
    import uvicorn

    from zackzack.server.transport import RECEIVE_KEY, SEND_KEY, TimedWebSocketProtocol

    groups: dict[str, list[Any]] = defaultdict(list)
    waiting: set[asyncio.Future[None]] = set()

    async def app(scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "websocket":
            return
        await receive()  # the connect
        await send({"type": "websocket.accept"})
        group = groups[group_of(scope["query_string"])]
        gone = asyncio.get_running_loop().create_future()
        send_texts = scope["extensions"][SEND_KEY]

        async def later(texts: list[str]) -> None:  # as the game server's writer falls back
            for text in texts:
                await send({"type": "websocket.send", "text": text})

        def deliver(texts: list[str]) -> None:
            if not send_texts(texts):  # (the transport asks to wait: uvicorn's send waits)
                task = asyncio.ensure_future(later(texts))
                waiting.add(task)
                task.add_done_callback(waiting.discard)

        def received(text: str | bytes) -> None:
            events = padded(text if isinstance(text, str) else text.decode())
            for member in group:
                member([ACK, events] if member is deliver else [events])

        group.append(deliver)
        scope["extensions"][RECEIVE_KEY](received, lambda: gone.done() or gone.set_result(None))
        try:
            await gone
        finally:
            group.remove(deliver)

    _uvicorn(uvicorn, app, port, TimedWebSocketProtocol)


def _uvicorn(uvicorn: Any, app: Any, port: int, ws: Any) -> None:
    import uvloop

    config = uvicorn.Config(app, host="127.0.0.1", port=port, lifespan="off", loop="none",
                            ws=ws, ws_per_message_deflate=False, log_level="warning",
                            ws_ping_interval=None)
    uvloop.run(uvicorn.Server(config).serve())


def serve_picows(port: int) -> None:
    import uvloop
    from picows import WSListener, WSMsgType, ws_create_server

    groups: dict[str, list[Any]] = defaultdict(list)
    ack = ACK.encode()
    pad = b"x" * (EVENTS_BYTES - TEXT_BYTES)

    class Member(WSListener):  # type: ignore[misc]
        def __init__(self, group: list[Any]) -> None:
            self.group = group

        def on_ws_connected(self, transport: Any) -> None:
            self.transport = transport
            self.group.append(transport)

        def on_ws_frame(self, transport: Any, frame: Any) -> None:
            kind = frame.msg_type
            if kind == WSMsgType.TEXT:
                events = frame.get_payload_as_bytes() + pad
                transport.send(WSMsgType.TEXT, ack)
                for member in self.group:
                    member.send(WSMsgType.TEXT, events)
            elif kind == WSMsgType.CLOSE:
                transport.send_close(frame.get_close_code())
                transport.disconnect()

        def on_ws_disconnected(self, transport: Any) -> None:
            self.group.remove(transport)

    async def main() -> None:
        server = await ws_create_server(
            lambda request: Member(groups[group_of(request.path.partition(b"?")[2])]),
            "127.0.0.1", port)
        print(f"listening on {port}", flush=True)
        await server.serve_forever()

    uvloop.run(main())


_GUID = b"258EAFA5-E914-47DA-95CA-C5AB0DC85B11"


class RawWebSocket(asyncio.Protocol):
    """A server websocket with nothing but the handshake, whole unfragmented frames in, and
    unmasked text frames out; a close is answered and ends the connection."""

    def __init__(self, groups: dict[str, list[RawWebSocket]]) -> None:
        self.groups = groups
        self.buffer = b""
        self.group: list[RawWebSocket] | None = None
        from websockets.speedups import apply_mask  # type: ignore[attr-defined]
        self.unmask = apply_mask

    def connection_made(self, transport: Any) -> None:
        self.transport = transport

    def data_received(self, data: bytes) -> None:
        self.buffer += data
        if self.group is None:
            head, found, rest = self.buffer.partition(b"\r\n\r\n")
            if not found:
                return
            self.buffer = rest
            self._upgrade(head)
        self._frames()

    def _upgrade(self, head: bytes) -> None:
        lines = head.split(b"\r\n")
        path = lines[0].split(b" ")[1]
        headers = dict(line.split(b":", 1) for line in lines[1:] if b":" in line)
        key = next(v.strip() for k, v in headers.items() if k.lower() == b"sec-websocket-key")
        accept = base64.b64encode(hashlib.sha1(key + _GUID).digest())
        self.transport.write(b"HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\n"
                             b"Connection: Upgrade\r\nSec-WebSocket-Accept: " + accept +
                             b"\r\n\r\n")
        self.group = self.groups[group_of(path.partition(b"?")[2])]
        self.group.append(self)

    def _frames(self) -> None:
        buffer = self.buffer
        while len(buffer) >= 2:
            opcode, length = buffer[0] & 0x0F, buffer[1] & 0x7F
            start = 2
            if length >= 126:
                start = 4 if length == 126 else 10
                if len(buffer) < start:
                    break
                (length,) = struct.unpack_from("!H" if start == 4 else "!Q", buffer, 2)
            end = start + 4 + length
            if len(buffer) < end:
                break
            payload = self.unmask(buffer[start + 4:end], buffer[start:start + 4])
            buffer = buffer[end:]
            if opcode == 1:
                self._text(payload)
            elif opcode == 8:
                self.transport.write(b"\x88\x02" + payload[:2])
                self.transport.close()
                break
        self.buffer = buffer

    def _text(self, payload: bytes) -> None:
        events = text_frame(payload + b"x" * (EVENTS_BYTES - len(payload)))
        assert self.group is not None
        for member in self.group:
            member.transport.write(_ACK_FRAME + events if member is self else events)

    def connection_lost(self, exc: Exception | None) -> None:
        if self.group is not None:
            self.group.remove(self)


_ACK_FRAME = text_frame(ACK.encode())


def serve_raw(port: int) -> None:
    import uvloop

    groups: dict[str, list[RawWebSocket]] = defaultdict(list)

    async def main() -> None:
        loop = asyncio.get_running_loop()
        server = await loop.create_server(lambda: RawWebSocket(groups), "127.0.0.1", port,
                                          backlog=4096)
        print(f"listening on {port}", flush=True)
        await server.serve_forever()

    uvloop.run(main())


# The clients (this process, on CPU 1) ------------------------------------------------------


class Clients:
    """The load: clients in groups of four, each sending a text every 0.5–1.5 s."""

    def __init__(self, url: str, every: float) -> None:
        self.url, self.every = url, every
        self.rng = random.Random(1)
        self.tasks: list[asyncio.Task[None]] = []
        self.sent = 0
        self.delays: list[float] = []
        self.lag: list[float] = []
        self.errors = 0

    async def grow(self, count: int) -> None:
        """Connect clients until there are ``count``, a hundred at a time."""
        from websockets.asyncio.client import connect

        while len(self.tasks) < count:
            batch = []
            for _ in range(min(100, count - len(self.tasks) - len(batch))):
                group = (len(self.tasks) + len(batch)) // 4
                batch.append(connect(f"{self.url}?g={group}", compression=None,
                                     ping_interval=None, max_queue=None,
                                     open_timeout=60))
            for websocket in await asyncio.gather(*batch):
                self.tasks.append(asyncio.create_task(self._play(websocket)))

    async def _play(self, websocket: Any) -> None:
        async def read() -> None:
            async for text in websocket:
                if len(text) == EVENTS_BYTES:
                    self.delays.append(time.perf_counter() - float(text[:20]))

        reader = asyncio.create_task(read())
        try:
            while True:
                await asyncio.sleep(self.every * self.rng.uniform(0.5, 1.5))
                text = f"{time.perf_counter():20.6f}"
                await websocket.send(text + " " * (TEXT_BYTES - len(text)))
                self.sent += 1
        except Exception:
            self.errors += 1
        finally:
            reader.cancel()

    async def sample_lag(self) -> None:
        """How late this loop wakes up (every 10 ms): the clients' own saturation."""
        while True:
            before = time.perf_counter()
            await asyncio.sleep(0.01)
            self.lag.append(time.perf_counter() - before - 0.01)

    async def close(self) -> None:
        for task in self.tasks:
            task.cancel()
        await asyncio.gather(*self.tasks, return_exceptions=True)


def user_system(pid: int) -> tuple[float, float]:
    """User and system CPU seconds of process ``pid``."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return int(fields[11]) / TICK, int(fields[12]) / TICK


def quantile(values: list[float], q: float) -> float:
    return statistics.quantiles(values, n=1000)[int(q * 1000) - 1] if len(values) > 1 else \
        (values[0] if values else float("nan"))


async def measure(stack: str, pid: int, port: int, steps: list[int], seconds: float,
                  every: float) -> list[dict[str, Any]]:
    clients = Clients(f"ws://127.0.0.1:{port}/ws", every)
    sampler = asyncio.create_task(clients.sample_lag())
    rows = []
    idle = rss_bytes(pid)
    try:
        for count in steps:
            await clients.grow(count)
            await asyncio.sleep(3)  # the connections settle into their rhythm
            clients.sent, clients.delays, clients.lag = 0, [], []
            cpu, (user, system), (_, writes) = cpu_seconds(pid), user_system(pid), syscalls(pid)
            began = time.perf_counter()
            await asyncio.sleep(seconds)
            wall = time.perf_counter() - began
            acts = clients.sent
            used_user, used_system = (b - a for a, b in zip((user, system), user_system(pid),
                                                            strict=True))
            delays = [d * 1000 for d in clients.delays]
            rows.append({
                "stack": stack, "clients": count, "acts/s": acts / wall,
                "cpu %": 100 * (cpu_seconds(pid) - cpu) / wall,
                "ms/act": 1000 * (cpu_seconds(pid) - cpu) / max(acts, 1),
                "user ms/act": 1000 * used_user / max(acts, 1),
                "system ms/act": 1000 * used_system / max(acts, 1),
                "writes/act": (syscalls(pid)[1] - writes) / max(acts, 1),
                "p50": quantile(delays, 0.5), "p99": quantile(delays, 0.99),
                "max": max(delays, default=float("nan")),
                "errors": clients.errors,
                "KiB/conn": (rss_bytes(pid) - idle) / 1024 / count,
                "lag p99": 1000 * quantile(clients.lag, 0.99)})
            print(json.dumps(rows[-1]), file=sys.stderr, flush=True)
    finally:
        sampler.cancel()
        await clients.close()
    return rows


def start(stack: str) -> tuple[subprocess.Popen[str], int]:
    """Start the ``stack``'s server pinned to CPU 0; it and its port."""
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = subprocess.Popen([sys.executable, __file__, "--serve", stack, "--port", str(port)],
                              text=True, preexec_fn=pinned(0))
    for _ in range(300):
        with socket.socket() as probe:
            if probe.connect_ex(("127.0.0.1", port)) == 0:
                return server, port
        time.sleep(0.05)
    server.kill()
    raise SystemExit(f"the {stack} server did not listen on {port}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--steps", default="1000,2000,4000",
                        help="client counts, comma separated (each a multiple of 4)")
    parser.add_argument("--seconds", type=float, default=15, help="measured per step")
    parser.add_argument("--every", type=float, default=1.0,
                        help="seconds between a client's texts, on average")
    parser.add_argument("--stacks", default=",".join(STACKS),
                        help=f"which of {', '.join(STACKS)}, comma separated")
    parser.add_argument("--serve", choices=STACKS, help=argparse.SUPPRESS)
    parser.add_argument("--port", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        {"starlette": serve_starlette, "zackzack": serve_zackzack, "picows": serve_picows,
         "raw": serve_raw}[args.serve](args.port)
        return
    try:
        steps = [int(step) for step in args.steps.split(",")]
        stacks = args.stacks.split(",")
    except ValueError:
        parser.error("--steps: whole numbers, comma separated")
    if unknown := set(stacks) - set(STACKS):
        parser.error(f"unknown stack {', '.join(sorted(unknown))}: one of {', '.join(STACKS)}")
    if any(step <= 0 or step % 4 for step in steps) or steps != sorted(steps):
        parser.error("--steps: growing multiples of 4")
    pinned(1)()
    rows = []
    for stack in stacks:
        if stack == "picows":
            try:
                import picows  # noqa: F401
            except ImportError:
                print("picows is not installed (pip install picows): left out", file=sys.stderr)
                continue
        server, port = start(stack)
        try:
            rows += asyncio.run(measure(stack, server.pid, port, steps, args.seconds,
                                        args.every))
        finally:
            server.terminate()
            server.wait()
    print("| stack | clients | acts/s | server CPU | ms CPU / act | user / kernel ms | "
          "writes / act | delay p50 / p99 / max ms | errors | KiB/conn | clients' lag p99 ms |")
    print("|---|---:|---:|---:|---:|---|---:|---|---:|---:|---:|")
    for row in rows:
        writes = "(send)" if row["stack"] == "picows" else f"{row['writes/act']:.1f}"
        print(f"| {row['stack']} | {row['clients']} | {row['acts/s']:.0f} | {row['cpu %']:.0f}% "
              f"| {row['ms/act']:.3f} | {row['user ms/act']:.3f} / {row['system ms/act']:.3f} "
              f"| {writes} | {row['p50']:.1f} / {row['p99']:.1f} / {row['max']:.0f} "
              f"| {row['errors']} | {row['KiB/conn']:.1f} | {row['lag p99']:.1f} |")


if __name__ == "__main__":
    main()
