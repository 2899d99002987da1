"""One websocket: a bounded outbox, a reader with a rate limit, and a clean end.

The table and the other clients never wait for a client: messages go into an outbox bounded
in messages (``Limits.backlog``) and in bytes (``Limits.backlog_bytes``). When a client lets it
overflow, the backlog is dropped and nothing more is queued for it;
as soon as its socket takes data again it gets the whole place it shows afresh (a ``table``
or ``lobby`` message). A client that stays stuck for ``Limits.stuck_seconds`` is closed.
Before anything is written to the socket, pending storage is committed (``before_send``):
a client never hears of an action that a crash could lose. While the store cannot take it
(``before_send`` says so), the writer waits, and sends only notices meanwhile (``notice``:
texts that tell nothing the store must have first).
"""

from __future__ import annotations

import asyncio
import contextlib
import enum
import logging
import sys
from collections import deque
from collections.abc import Callable

from starlette.websockets import WebSocket, WebSocketDisconnect, WebSocketState

from zackzack.engine.clock import Clock, Timer
from zackzack.server.limits import Limits, TokenBucket
from zackzack.server.logs import event
from zackzack.server.protocol import MAX_MESSAGE_CHARS, Error, ref_of
from zackzack.server.session import Session
from zackzack.server.transport import RECEIVE_KEY, SEND_KEY

log = logging.getLogger(__name__)

TOO_SLOW = 4001
TOO_MANY = 4002
INTERNAL_ERROR = 1011
STORE_WAIT = 0.05
"""Seconds between two looks whether the store caught up, while it is behind."""
BURST = 16
"""The most queued messages written to the socket in one go (``send_texts``)."""


class Outbox:
    """A bounded queue of texts with one reader: what ``asyncio.Queue`` does here, for less
    (no task counting, no list of getters; ``docs/operations.md``, *Load*).

    >>> box = Outbox(2)
    >>> box.put_nowait("a"); box.put_nowait("b"); box.full(), box.qsize()
    (True, 2)
    >>> asyncio.run(box.get()), box.get_nowait(), box.empty()
    ('a', 'b', True)
    """

    __slots__ = ("_items", "_limit", "_waiter")

    def __init__(self, limit: int) -> None:
        self._items: deque[str] = deque()
        self._limit = limit
        self._waiter: asyncio.Future[None] | None = None

    def full(self) -> bool:
        """Whether it holds ``limit`` texts."""
        return len(self._items) >= self._limit

    def empty(self) -> bool:
        """Whether it holds nothing."""
        return not self._items

    def qsize(self) -> int:
        """How many texts it holds."""
        return len(self._items)

    def put_nowait(self, text: str) -> None:
        """Add ``text`` (``asyncio.QueueFull`` if it is full) and wake the reader."""
        if len(self._items) >= self._limit:
            raise asyncio.QueueFull
        self._items.append(text)
        waiter = self._waiter
        if waiter is not None and not waiter.done():
            waiter.set_result(None)

    def get_nowait(self) -> str:
        """The oldest text (``asyncio.QueueEmpty`` if there is none)."""
        if not self._items:
            raise asyncio.QueueEmpty
        return self._items.popleft()

    async def get(self) -> str:
        """The oldest text, once there is one."""
        while not self._items:
            self._waiter = asyncio.get_running_loop().create_future()
            try:
                await self._waiter
            finally:
                self._waiter = None
        return self._items.popleft()


class ConnectionState(enum.Enum):
    """A connection's life."""

    OPEN = "open"
    """Reading and writing."""
    BEHIND = "behind"
    """The client stopped reading: its backlog was dropped; it is resynced when it reads."""
    CLOSING = "closing"
    """The server decided to close it (stuck, too many refused messages)."""
    CLOSED = "closed"


class Connection:
    """Moves text between one websocket and its session."""

    def __init__(self, websocket: WebSocket, make_session: Callable[[Connection], Session],
                 limits: Limits, clock: Clock,
                 before_send: Callable[[], object] = lambda: None, peer: str = "") -> None:
        """``before_send`` commits what is pending; it returns something true while it could
        not (the store is behind): then nothing is sent but notices until it can."""
        self.websocket = websocket
        self.limits = limits
        self.clock = clock
        self.before_send = before_send
        self.peer = peer
        self.state = ConnectionState.OPEN
        self.close_code = 1000
        self.close_reason = ""
        self.outbox = Outbox(limits.backlog)
        self.queued = 0
        """Bytes the texts in the outbox take (``sys.getsizeof``); at most
        ``limits.backlog_bytes``."""
        self.most_queued = 0
        """The most bytes the outbox ever held (for tests and the curious)."""
        self.bucket = TokenBucket(limits.rate, limits.burst, clock.time)
        self.refused = 0
        self.dropped = 0
        self.generation = 0
        """How many times the outbox was replaced (``restart``)."""
        self.session = make_session(self)
        self.session.address = peer.rpartition(":")[0] if ":" in peer else peer
        self._writer: asyncio.Task[None] | None = None
        self._client_gone = False
        self._stuck: Timer | None = None
        self.notices: list[str] = []
        """Texts to send ahead of everything queued (``notice``)."""
        extensions = getattr(websocket, "scope", {}).get("extensions") or {}
        self._send_texts: Callable[[list[str]], bool] | None = extensions.get(SEND_KEY)
        """Writes several texts with one system call, where the server offers it
        (``transport.TimedWebSocketProtocol``)."""
        self._receive_directly: Callable[[Callable[[str | bytes], None], Callable[[], None]],
                                         None] | None = extensions.get(RECEIVE_KEY)
        """Hands each message over as it is read, and the disconnect, where the server offers
        it: then the connection has no reader task."""

    def send(self, text: str) -> None:
        """Queue ``text`` for the client; an outbox that would hold more than ``backlog``
        messages or ``backlog_bytes`` bytes drops the backlog instead (resync later)."""
        if self.state is not ConnectionState.OPEN:
            return
        size = sys.getsizeof(text)
        if self.outbox.full() or self.queued + size > self.limits.backlog_bytes:
            self._fall_behind()
            return
        self.outbox.put_nowait(text)
        self.queued += size
        self.most_queued = max(self.most_queued, self.queued)

    def notice(self, text: str) -> None:
        """Send ``text`` ahead of everything queued, even while the store is behind: only for
        what tells nothing the store must have first (``protocol.Notice``, the lag probes);
        at most ``backlog`` of them wait (the oldest go first)."""
        if self.state is not ConnectionState.OPEN:
            return
        if len(self.notices) >= self.limits.backlog:  # a client that does not read
            del self.notices[0]
        self.notices.append(text)
        with contextlib.suppress(asyncio.QueueFull):
            self.outbox.put_nowait("")  # wakes a writer that waits for the queue

    async def _send_notices(self) -> None:
        if self.notices:
            texts, self.notices = self.notices, []
            await self._deliver(texts)

    async def _deliver(self, texts: list[str], generation: int | None = None) -> None:
        """Write ``texts`` to the socket, in order: in one go where the server can; one by
        one otherwise, stopping if the outbox is replaced meanwhile (``generation``)."""
        if self._send_texts is not None and self._send_texts(texts):
            return
        for text in texts:
            if generation is not None and generation != self.generation:
                return
            await self.websocket.send_text(text)

    def restart(self, text: str) -> None:
        """Send ``text`` instead of everything not yet sent (nor the message being sent now,
        if it has not reached the socket)."""
        if self.state not in (ConnectionState.OPEN, ConnectionState.BEHIND):
            return
        while not self.outbox.empty():
            self.outbox.get_nowait()
        self.generation += 1
        self.outbox.put_nowait(text)
        self.queued = sys.getsizeof(text)

    def _fall_behind(self) -> None:
        self.dropped += self.outbox.qsize() + 1
        while not self.outbox.empty():
            self.outbox.get_nowait()
        self.queued = 0
        self.outbox.put_nowait("")  # wakes a writer that waits for the queue: resync now
        self.state = ConnectionState.BEHIND
        deadline = self.clock.time() + self.limits.stuck_seconds
        self._stuck = self.clock.call_at(deadline, lambda: self.close(TOO_SLOW))
        event("client_behind", peer=self.peer, dropped=self.dropped)

    def close(self, code: int, reason: str = "") -> None:
        """Close soon with ``code`` (and ``reason``); nothing more is sent or read."""
        if self.state in (ConnectionState.OPEN, ConnectionState.BEHIND):
            if code == TOO_SLOW:
                event("client_closed", peer=self.peer, reason="stuck", code=code)
            self.state = ConnectionState.CLOSING
            self.close_code, self.close_reason = code, reason
            if self._writer is not None:
                self._writer.cancel()

    async def serve(self) -> None:
        """Accept the websocket and run it until either side ends it."""
        await self.websocket.accept()
        self._writer = asyncio.create_task(self._write())
        tasks = {self._writer}
        try:
            if self._receive_directly is not None:  # the writer's end is the connection's
                self._receive_directly(self._received_directly, self._gone)
            else:
                tasks.add(asyncio.create_task(self._read()))
            if self.state not in (ConnectionState.OPEN, ConnectionState.BEHIND):
                self._writer.cancel()  # closed before it had a writer to stop
            done, _ = await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
            for task in done:
                if not task.cancelled() and task.exception() is not None:
                    log.error("connection failed", exc_info=task.exception())
        finally:
            for task in tasks:
                task.cancel()
            if self._stuck is not None:
                self._stuck.cancel()
            self.session.close()
            self.state = ConnectionState.CLOSED
            if not self._client_gone \
                    and self.websocket.client_state is WebSocketState.CONNECTED \
                    and self.websocket.application_state is WebSocketState.CONNECTED:
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(
                        self.websocket.close(self.close_code, self.close_reason), 2.0)

    def _gone(self) -> None:
        """The client went, or the connection closed (messages handed over as read): the
        writer stops, and ``serve`` with it."""
        self._client_gone = True
        if self._writer is not None:
            self._writer.cancel()

    async def _read(self) -> None:
        """Read until the client goes, where the server cannot hand messages over as they are
        read (``RECEIVE_KEY``)."""
        while self.state in (ConnectionState.OPEN, ConnectionState.BEHIND):
            message = await self.websocket.receive()
            if message["type"] == "websocket.disconnect":
                return
            text: str | bytes | None = message.get("text")
            if text is None:
                text = message.get("bytes") or b""
            self._received(text)
            await asyncio.sleep(0)  # let the writers run between two messages of a burst

    def _received_directly(self, text: str | bytes) -> None:
        """``_received``, called within the socket's read: a failure ends this connection
        (as a failed reader task does), not the read of the others."""
        try:
            self._received(text)
        except Exception:
            log.error("connection failed", exc_info=True)
            self.close(INTERNAL_ERROR)

    def _received(self, text: str | bytes) -> None:
        """One message from the client: to the session, within the rate limit."""
        if self.state not in (ConnectionState.OPEN, ConnectionState.BEHIND):
            return  # closed meanwhile
        if not self.bucket.take():
            self.refused += 1
            if self.refused == 1:
                event("client_throttled", peer=self.peer)
            if self.refused >= self.limits.refused_to_close:
                event("client_closed", peer=self.peer, reason="flood", code=TOO_MANY)
                self.close(TOO_MANY)
                return
            ref = ref_of(text) if isinstance(text, str) and len(text) <= MAX_MESSAGE_CHARS \
                else None
            self.session.reply(Error(code="rate_limited", reason="too many messages; "
                                     "this one was dropped", ref=ref))
            return
        self.refused = 0
        self.session.receive(text)

    async def _write(self) -> None:
        try:
            while True:
                await self._send_notices()
                if self.state is ConnectionState.BEHIND and self.outbox.empty():
                    self._catch_up()
                    text = self.session.snapshot()
                    if text is None:
                        continue
                else:
                    text = await self.outbox.get()
                    if not text:
                        continue
                    self.queued -= sys.getsizeof(text)
                texts = [text]  # and what else is queued, all of it before the commit below
                while len(texts) < BURST and not self.outbox.empty():
                    text = self.outbox.get_nowait()
                    if text:
                        self.queued -= sys.getsizeof(text)
                        texts.append(text)
                generation = self.generation
                while self.before_send():  # the store is behind: nothing may leave but notices
                    await self._send_notices()
                    await asyncio.sleep(STORE_WAIT)
                await self._send_notices()  # "the store is back" before what waited for it
                if generation != self.generation:  # replaced while it waited (``restart``)
                    continue
                await self._deliver(texts, generation)
        except (OSError, RuntimeError, WebSocketDisconnect):  # the client went away mid-send
            return

    def _catch_up(self) -> None:
        """The socket took data again: queue normally from now on (the snapshot comes first)."""
        self.state = ConnectionState.OPEN
        if self._stuck is not None:
            self._stuck.cancel()
            self._stuck = None
        event("client_resynced", peer=self.peer, dropped=self.dropped)
