"""Scripted clients over real websockets, and ``zackzack serve`` in a process of its own."""

from __future__ import annotations

import asyncio
import base64
import contextlib
import itertools
import json
import os
import re
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import uvicorn
import websockets
from websockets.asyncio.client import ClientConnection
from websockets.sync.client import ClientConnection as SyncConnection
from websockets.sync.client import connect

from server.kit import us_action
from zackzack.engine.table import Settings
from zackzack.server.app import Config, Server, create_app
from zackzack.server.limits import Limits
from zackzack.server.lobby import Timing


@contextlib.contextmanager
def serve(db: Path, *args: str) -> Iterator[tuple[str, subprocess.Popen[str]]]:
    """``zackzack serve --port 0 --db DB ARGS`` in its own process: its address and process."""
    process = subprocess.Popen(
        [sys.executable, "-m", "zackzack.cli", "serve", "--port", "0", "--db", str(db), *args],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert process.stdout is not None
        line = process.stdout.readline()
        found = re.search(r"serving on (http://[\d.]+:\d+)/", line)
        assert found, line + (process.stderr.read() if process.stderr else "")
        yield found.group(1), process
    finally:
        if process.poll() is None:
            process.terminate()
        process.wait(10)


class Scripted:
    """A player at the other end of a websocket: reads everything, acts on the latest view."""

    refs = itertools.count()

    def __init__(self, name: str, token: str | None = None, pong_delay: float = 0.0) -> None:
        self.name, self.token = name, token
        self.pong_delay = pong_delay
        """Answer the server's pings this many seconds late (a cheat: its actions on time)."""
        self._later: set[asyncio.Future[None]] = set()
        self.ws: ClientConnection | None = None
        self.seen: list[dict[str, Any]] = []
        self.view: dict[str, Any] = {}
        self.acks: dict[int, dict[str, Any]] = {}
        self.welcome: dict[str, Any] = {}
        self.changed = asyncio.Event()
        self.closed = False
        self._reader: asyncio.Task[None] | None = None

    async def connect(self, http: str, sock: socket.socket | None = None) -> dict[str, Any]:
        """Open the websocket (over ``sock``, if given) and say hello (with the token, if
        known): the welcome."""
        self.ws = await websockets.connect(http.replace("http", "ws", 1) + "/ws", max_size=None,
                                           sock=sock)
        await self.send(type="hello", token=self.token, name=self.name)
        self.welcome = json.loads(await self.ws.recv())
        self.token = self.welcome["token"]
        self._reader = asyncio.create_task(self._read())
        return self.welcome

    async def _read(self) -> None:
        assert self.ws is not None
        try:
            async for text in self.ws:
                message = json.loads(text)
                if message["type"] == "ping":  # the server measures the lag: answer at once
                    pong = json.dumps({"type": "pong", "n": message["n"]})
                    if self.pong_delay:
                        asyncio.get_running_loop().call_later(self.pong_delay, self._late, pong)
                    else:
                        await self.ws.send(pong)
                    continue
                self.seen.append(message)
                if "view" in message:
                    self.view = message["view"]
                if message["type"] == "ack":
                    self.acks[message["ref"]] = message
                self.changed.set()
        except websockets.ConnectionClosed:
            pass
        finally:
            self.closed = True
            self.changed.set()

    def _late(self, text: str) -> None:
        task = asyncio.ensure_future(self.send_text(text))
        self._later.add(task)
        task.add_done_callback(self._later.discard)

    async def send(self, **message: Any) -> None:
        """Send one message."""
        await self.send_text(json.dumps(message))

    async def send_text(self, text: str) -> None:
        """Send one frame (nothing once the connection is closed)."""
        assert self.ws is not None
        with contextlib.suppress(websockets.ConnectionClosed):
            await self.ws.send(text)

    async def wait_for(self, condition: Callable[[], Any], seconds: float = 10.0) -> Any:
        """Wait until ``condition()`` is true after some message arrived."""
        async with asyncio.timeout(seconds):
            while not (value := condition()):
                if self.closed:
                    raise ConnectionError(f"{self.name}: the connection closed")
                self.changed.clear()
                await self.changed.wait()
            return value

    def last(self, kind: str) -> dict[str, Any]:
        """The latest message of type ``kind``."""
        return next(m for m in reversed(self.seen) if m["type"] == kind)

    def event_types(self) -> list[str]:
        """Every event type received, in order."""
        return [e["type"] for m in self.seen if m["type"] == "events" for e in m["events"]]

    @property
    def accepted(self) -> int:
        """How many of this client's actions the server confirmed."""
        return sum(ack["ok"] for ack in self.acks.values())

    async def act(self, action: dict[str, Any]) -> dict[str, Any]:
        """Act and wait for the ack."""
        ref = next(self.refs)
        await self.send(type="act", ref=ref, action=action)
        ack: dict[str, Any] = await self.wait_for(lambda: self.acks.get(ref))
        return ack

    async def play(self, until: Callable[[], bool], every: float = 0.07) -> None:
        """Play Unter Spannung on the latest view until ``until()`` (or the socket closes)."""
        with contextlib.suppress(websockets.ConnectionClosed, ConnectionError):
            while not until():
                view = self.view
                if view.get("phase") == "playing" and view["state"] is not None \
                        and view["frozen_until"][view["seat"]] <= view["now"]:
                    action = us_action(view)
                    if action is not None:
                        await self.act(action)
                await asyncio.sleep(every)

    async def close(self) -> None:
        """Close the websocket."""
        if self.ws is not None:
            await self.ws.close()
        if self._reader is not None:
            await self._reader


class Live:
    """The app under uvicorn on a free loopback port, in a thread of this process."""

    def __init__(self, db: Path, limits: Limits, timing: Timing | None = None) -> None:
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            self.port = probe.getsockname()[1]
        self.app = create_app(Config(db=str(db), settings=Settings(), limits=limits,
                                     timing=timing or Timing()))
        self.server = uvicorn.Server(uvicorn.Config(
            self.app, host="127.0.0.1", port=self.port, log_level="warning",
            ws_max_size=limits.frame_bytes))
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.clients = contextlib.ExitStack()  # every websocket from connect(), closed by stop()
        self.thread.start()
        deadline = time.monotonic() + 20
        while not self.server.started:
            assert self.thread.is_alive() and time.monotonic() < deadline
            time.sleep(0.01)

    @property
    def state(self) -> Server:
        """What the server holds (its lobby, its connections)."""
        server: Server = self.app.state.server
        return server

    def connect(self, name: str | None = "Fuzz") -> SyncConnection:
        """A websocket (greeted as ``name``) whose client reads everything in a thread."""
        ws = self.clients.enter_context(connect(f"ws://127.0.0.1:{self.port}/ws", max_size=None,
                                                compression=None, close_timeout=2))
        if name is not None:
            ws.send(json.dumps({"type": "hello", "name": name}))
            assert json.loads(ws.recv(5))["type"] == "welcome"
        return ws

    def stop(self) -> None:
        """Close the websockets still open, then stop the server."""
        self.clients.close()
        self.server.should_exit = True
        self.thread.join(10)

class RawClient:
    """A websocket client on a bare socket that reads only when told to (a stuck browser)."""

    def __init__(self, port: int, receive_buffer: int = 4096) -> None:
        self.sock = socket.socket()
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, receive_buffer)
        self.sock.connect(("127.0.0.1", port))
        key = base64.b64encode(os.urandom(16)).decode()
        self.sock.sendall((f"GET /ws HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket"
                           f"\r\nConnection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
                           "Sec-WebSocket-Version: 13\r\n\r\n").encode())
        self.buffer = b""
        while b"\r\n\r\n" not in self.buffer:
            self.buffer += self.sock.recv(1)
        assert self.buffer.startswith(b"HTTP/1.1 101"), self.buffer
        self.buffer = b""

    def send(self, **message: Any) -> None:
        """Send one masked text frame."""
        data = json.dumps(message).encode()
        assert len(data) < 126
        mask = os.urandom(4)
        masked = bytes(b ^ mask[i % 4] for i, b in enumerate(data))
        self.sock.sendall(bytes([0x81, 0x80 | len(data)]) + mask + masked)

    def read(self, seconds: float) -> list[tuple[int, bytes]]:
        """Read for ``seconds`` (or until the server closes): the frames (opcode, payload)."""
        self.sock.settimeout(0.05)
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            try:
                chunk = self.sock.recv(1 << 16)
            except TimeoutError:
                continue
            except ConnectionError:
                break
            if not chunk:
                break
            self.buffer += chunk
        frames = []
        while len(self.buffer) >= 2:
            length, start = self.buffer[1] & 0x7F, 2
            if length == 126:
                length, start = int.from_bytes(self.buffer[2:4], "big"), 4
            elif length == 127:
                length, start = int.from_bytes(self.buffer[2:10], "big"), 10
            if len(self.buffer) < start + length:
                break
            frames.append((self.buffer[0] & 0x0F, self.buffer[start:start + length]))
            self.buffer = self.buffer[start + length:]
        return frames
