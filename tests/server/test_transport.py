"""The transport's round trip: the kernel's, read from the server's own socket, or a trusted
proxy's header; what the server credits in a race is bounded by it (docs/fairness.md)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import socket
from collections.abc import AsyncIterator
from typing import Any

import pytest
import uvicorn
import websockets

from zackzack.server.guard import trusted
from zackzack.server.transport import (
    RECEIVE_KEY,
    SEND_KEY,
    TRANSPORT_KEY,
    TimedWebSocketProtocol,
    kernel_rtt_ms,
    round_trip,
)


class FakeTransport:
    def __init__(self, peer: str) -> None:
        self.peer = peer

    def get_extra_info(self, name: str) -> Any:
        return {"peername": (self.peer, 40000), "socket": None}[name]


def scope(peer: str, *headers: tuple[bytes, bytes]) -> dict[str, Any]:
    return {"extensions": {TRANSPORT_KEY: FakeTransport(peer)}, "headers": list(headers)}


@contextlib.asynccontextmanager
async def served(app: Any) -> AsyncIterator[int]:
    """uvicorn with the timed protocol serving ``app`` on loopback: its port."""
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    server = uvicorn.Server(uvicorn.Config(app, lifespan="off", log_level="warning",
                                           ws=TimedWebSocketProtocol))
    serving = asyncio.create_task(server.serve(sockets=[sock]))
    try:
        for _ in range(1000):
            if server.started:
                break
            await asyncio.sleep(0.01)
        yield sock.getsockname()[1]
    finally:
        server.should_exit = True
        await serving


def test_a_trusted_proxy_s_round_trip_is_believed_and_nobody_else_s() -> None:
    proxies = trusted("10.0.0.0/8")
    told = (b"x-tcp-rtt", b"84000")
    assert round_trip(scope("10.1.2.3", told), proxies)() == 84.0
    assert round_trip(scope("10.1.2.3"), proxies)() is None  # a proxy that tells nothing
    assert round_trip(scope("192.0.2.7", told), proxies)() is None  # the client's own word
    assert round_trip({"extensions": {}, "headers": [told]}, proxies)() is None


def test_the_kernel_s_round_trip_of_a_real_websocket_reaches_the_app() -> None:
    """uvicorn with the timed protocol shows the app its transport; the figure read from it
    is the kernel's (loopback: well under a millisecond, and never the client's say)."""
    seen: list[float | None] = []

    async def app(scope: dict[str, Any], receive: Any, send: Any) -> None:
        assert scope["type"] == "websocket"
        await receive()
        await send({"type": "websocket.accept"})
        seen.append(round_trip(scope, trusted())())
        await send({"type": "websocket.send", "text": json.dumps(seen[-1])})
        await receive()

    async def main() -> None:
        async with served(app) as port, websockets.connect(f"ws://127.0.0.1:{port}/") as ws:
            assert json.loads(await ws.recv()) == seen[0]

    asyncio.run(main())
    assert seen and seen[0] is not None and 0 < seen[0] < 50


class CountedWrites:
    """A transport that counts its writes (and otherwise is the one it wraps)."""

    def __init__(self, transport: Any) -> None:
        self.transport, self.writes = transport, 0

    def write(self, data: bytes) -> None:
        self.writes += 1
        self.transport.write(data)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.transport, name)


def test_a_burst_of_messages_leaves_in_one_write_and_not_after_the_close() -> None:
    """Issue 28: queued messages go out as frames of one write (one system call); once the
    app has closed the websocket the fast path declines and uvicorn's own send decides."""
    answers: list[Any] = []

    async def app(scope: dict[str, Any], receive: Any, send: Any) -> None:
        await receive()
        await send({"type": "websocket.accept"})
        send_texts = scope["extensions"][SEND_KEY]
        counted = send_texts.__self__.transport = CountedWrites(send_texts.__self__.transport)
        answers.append(send_texts(["one", "two", "three"]))
        answers.append(counted.writes)
        await send({"type": "websocket.close", "code": 1000})
        answers.append(send_texts(["four"]))
        await receive()

    async def main() -> list[str]:
        got: list[str] = []
        async with served(app) as port, websockets.connect(f"ws://127.0.0.1:{port}/") as ws:
            with contextlib.suppress(websockets.ConnectionClosed):
                while True:
                    got.append(str(await ws.recv()))
        return got

    assert asyncio.run(main()) == ["one", "two", "three"]
    assert answers == [True, 1, False]


def test_messages_are_handed_over_as_they_are_read_and_not_queued() -> None:
    """Issue 28: once the app asks, each message goes to its receiver within the read (no
    receive queue, no task, no pause of the socket per message), what came before at once and
    in order, and the disconnect to its own callback; a text that is not UTF-8 ends the
    connection as uvicorn does."""
    got: list[str | bytes] = []
    gone: list[int] = []
    paused: list[bool] = []

    async def app(scope: dict[str, Any], receive: Any, send: Any) -> None:
        await receive()
        await send({"type": "websocket.accept"})
        receive_directly = scope["extensions"][RECEIVE_KEY]
        protocol = receive_directly.__self__
        while protocol.queue.empty():  # the client's first message, before the hand-over
            await asyncio.sleep(0.01)
        ended = asyncio.Event()

        def went() -> None:
            gone.append(len(got))
            ended.set()

        receive_directly(got.append, went)
        assert got == ["früh"] and protocol.queue.empty() and not protocol.read_paused
        await send({"type": "websocket.send", "text": "ready"})
        await ended.wait()
        paused.append(protocol.read_paused)
        with pytest.raises(RuntimeError):  # nothing is left to receive
            await receive()

    async def main() -> int | None:
        async with served(app) as port, websockets.connect(f"ws://127.0.0.1:{port}/") as ws:
            await ws.send("früh")
            assert await ws.recv() == "ready"
            for message in ("eins", b"zwei", "drei"):
                await ws.send(message)
            ws.protocol.send_frame(  # a text frame that is not UTF-8
                websockets.frames.Frame(websockets.frames.Opcode.TEXT, b"\xff"))
            ws.send_data()
            with contextlib.suppress(websockets.ConnectionClosed):
                await ws.recv()
            return ws.close_code

    assert asyncio.run(main()) == 1007
    assert got == ["früh", "eins", b"zwei", "drei"]
    assert gone[0] == 4 and paused == [False]


def test_a_socket_without_a_round_trip_says_none() -> None:
    a, b = socket.socketpair()
    with a, b:
        assert kernel_rtt_ms(a) is None
    assert kernel_rtt_ms(None) is None
