"""One websocket: a bounded outbox, a reader with a rate limit, and a clean end.

The table and the other clients never wait for a client: messages go into a bounded outbox,
and a client that lets it fill up is closed (it comes back and gets the whole table again).
"""

from __future__ import annotations

import asyncio
import contextlib
import enum
import logging
from collections.abc import Callable

from starlette.websockets import WebSocket, WebSocketDisconnect, WebSocketState

from zackzack.server.limits import Limits, TokenBucket
from zackzack.server.protocol import MAX_MESSAGE_CHARS, Error, ref_of
from zackzack.server.session import Session

log = logging.getLogger(__name__)

TOO_SLOW = 4001
TOO_MANY = 4002


class ConnectionState(enum.Enum):
    """A connection's life."""

    OPEN = "open"
    """Reading and writing."""
    CLOSING = "closing"
    """The server decided to close it (too slow, too many refused messages)."""
    CLOSED = "closed"


class Connection:
    """Moves text between one websocket and its session."""

    def __init__(self, websocket: WebSocket, make_session: Callable[[Connection], Session],
                 limits: Limits, time: Callable[[], float]) -> None:
        self.websocket = websocket
        self.limits = limits
        self.state = ConnectionState.OPEN
        self.close_code = 1000
        self.outbox: asyncio.Queue[str] = asyncio.Queue(limits.backlog)
        self.bucket = TokenBucket(limits.rate, limits.burst, time)
        self.refused = 0
        self.session = make_session(self)
        self._writer: asyncio.Task[None] | None = None

    def send(self, text: str) -> None:
        """Queue ``text`` for the client; a full outbox closes the connection (too slow)."""
        if self.state is not ConnectionState.OPEN:
            return
        try:
            self.outbox.put_nowait(text)
        except asyncio.QueueFull:
            self.close(TOO_SLOW)

    def close(self, code: int) -> None:
        """Close soon with ``code``; nothing more is sent or read."""
        if self.state is ConnectionState.OPEN:
            self.state = ConnectionState.CLOSING
            self.close_code = code
            if self._writer is not None:
                self._writer.cancel()

    async def serve(self) -> None:
        """Accept the websocket and run it until either side ends it."""
        await self.websocket.accept()
        self._writer = asyncio.create_task(self._write())
        reader = asyncio.create_task(self._read())
        try:
            done, _ = await asyncio.wait({reader, self._writer},
                                         return_when=asyncio.FIRST_COMPLETED)
            for task in done:
                if not task.cancelled() and task.exception() is not None:
                    log.error("connection failed", exc_info=task.exception())
        finally:
            for task in (reader, self._writer):
                task.cancel()
            self.session.close()
            self.state = ConnectionState.CLOSED
            if self.websocket.client_state is WebSocketState.CONNECTED \
                    and self.websocket.application_state is WebSocketState.CONNECTED:
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(self.websocket.close(self.close_code), 2.0)

    async def _read(self) -> None:
        while self.state is ConnectionState.OPEN:
            message = await self.websocket.receive()
            if message["type"] == "websocket.disconnect":
                return
            text: str | bytes | None = message.get("text")
            if text is None:
                text = message.get("bytes") or b""
            if not self.bucket.take():
                self.refused += 1
                if self.refused >= self.limits.refused_to_close:
                    self.close(TOO_MANY)
                    return
                ref = ref_of(text) if isinstance(text, str) and len(text) <= MAX_MESSAGE_CHARS \
                    else None
                self.session.reply(Error(code="rate_limited", reason="too many messages; "
                                         "this one was dropped", ref=ref))
                continue
            self.refused = 0
            self.session.receive(text)
            await asyncio.sleep(0)  # let the writers run between two messages of a burst

    async def _write(self) -> None:
        try:
            while True:
                text = await self.outbox.get()
                await self.websocket.send_text(text)
        except (OSError, RuntimeError, WebSocketDisconnect):  # the client went away mid-send
            return
