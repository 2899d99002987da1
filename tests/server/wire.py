"""Scripted clients over real websockets, and ``zackzack serve`` in a process of its own."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import re
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import websockets
from websockets.asyncio.client import ClientConnection

from server.kit import us_action


@contextlib.contextmanager
def serve(db: Path, *args: str) -> Iterator[tuple[str, subprocess.Popen[str]]]:
    """``zackzack serve --port 0 --db DB ARGS`` in its own process: its address and process."""
    process = subprocess.Popen(
        [sys.executable, "-m", "zackzack.cli", "serve", "--port", "0", "--db", str(db), *args],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert process.stdout is not None
        line = process.stdout.readline()
        found = re.search(r"serving on (http://127\.0\.0\.1:\d+)/", line)
        assert found, line + (process.stderr.read() if process.stderr else "")
        yield found.group(1), process
    finally:
        if process.poll() is None:
            process.terminate()
        process.wait(10)


class Scripted:
    """A player at the other end of a websocket: reads everything, acts on the latest view."""

    refs = itertools.count()

    def __init__(self, name: str, token: str | None = None) -> None:
        self.name, self.token = name, token
        self.ws: ClientConnection | None = None
        self.seen: list[dict[str, Any]] = []
        self.view: dict[str, Any] = {}
        self.acks: dict[int, dict[str, Any]] = {}
        self.welcome: dict[str, Any] = {}
        self.changed = asyncio.Event()
        self.closed = False
        self._reader: asyncio.Task[None] | None = None

    async def connect(self, http: str) -> dict[str, Any]:
        """Open the websocket and say hello (with the token, if known): the welcome."""
        self.ws = await websockets.connect(http.replace("http", "ws", 1) + "/ws", max_size=None)
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

    async def send(self, **message: Any) -> None:
        """Send one message."""
        assert self.ws is not None
        await self.ws.send(json.dumps(message))

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
