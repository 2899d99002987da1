"""The transport's round trip: the kernel's, read from the server's own socket, or a trusted
proxy's header; what the server credits in a race is bounded by it (docs/fairness.md)."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import json
import socket
from collections.abc import AsyncIterator
from typing import Any

import pytest
import uvicorn
import websockets
from hypothesis import given, settings
from hypothesis import strategies as st
from uvicorn.server import ServerState
from websockets.frames import Frame, Opcode
from websockets.streams import StreamReader

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


def test_frames_are_read_here_once_handed_over_and_by_websockets_from_a_fragment_on() -> None:
    """Issue 28: with messages handed over right after the handshake and no extension, the
    protocol reads whole messages, pings and pongs itself (every size of length field, a ping
    answered, uvicorn's keepalive pong taken); a fragmented message hands reading back to
    ``websockets`` for good, and nothing is lost or reordered on the way; the close is
    ``websockets``' as before."""
    got: list[str | bytes] = []
    seen: dict[str, Any] = {}

    async def app(scope: dict[str, Any], receive: Any, send: Any) -> None:
        await receive()
        await send({"type": "websocket.accept"})
        receive_directly = scope["extensions"][RECEIVE_KEY]
        protocol = receive_directly.__self__
        ended = asyncio.Event()
        receive_directly(got.append, ended.set)
        seen["reads here"] = protocol._unread is not None
        while len(got) < 6:
            await asyncio.sleep(0.01)
        protocol.send_keepalive_ping()  # uvicorn's own, answered by the client
        while protocol.pending_ping_payload is not None:
            await asyncio.sleep(0.01)
        seen["still reads here"] = protocol._unread is not None
        scope["extensions"][SEND_KEY](["halfway", "h" * 126, "H" * 70000])
        await ended.wait()
        seen["reads here at the end"] = protocol._unread is not None

    texts = ["", "x" * 125, "ü" * 63, "y" * 126, "z" * 65535]

    async def main() -> int | None:
        async with served(app) as port, websockets.connect(
                f"ws://127.0.0.1:{port}/", compression=None, max_size=None) as ws:
            for text in texts:
                await ws.send(text)
            await ws.send(b"\x00\x01")
            await (await ws.ping(b"are you there"))  # answered by the server
            assert [await ws.recv() for _ in range(3)] == ["halfway", "h" * 126, "H" * 70000]
            await ws.send(["frag", "men", "tiert"])  # one message in three frames
            await ws.send("w" * 70000)  # (a 64-bit length, read by websockets now)
            await ws.send("danach")
            await ws.close()
            return ws.close_code

    assert asyncio.run(asyncio.wait_for(main(), 60)) == 1000
    assert got == [*texts, b"\x00\x01", "fragmentiert", "w" * 70000, "danach"]
    assert seen == {"reads here": True, "still reads here": True,
                    "reads here at the end": False}


class Pipe:
    """A transport that keeps what is written."""

    def __init__(self) -> None:
        self.written = bytearray()
        self.closed = False

    def write(self, data: bytes) -> None:
        self.written += data

    def is_closing(self) -> bool:
        return self.closed

    def close(self) -> None:
        self.closed = True

    def pause_reading(self) -> None:
        pass

    def resume_reading(self) -> None:
        pass

    def get_extra_info(self, name: str) -> Any:
        return None


HANDSHAKE = (b"GET /ws HTTP/1.1\r\nHost: localhost\r\nUpgrade: websocket\r\n"
             b"Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
             b"Sec-WebSocket-Version: 13\r\n\r\n")

MESSAGES = st.lists(st.one_of(
    st.tuples(st.just("text"), st.text(max_size=300)),
    st.tuples(st.just("text"), st.integers(65530, 65540).map(lambda n: "t" * n)),
    st.tuples(st.just("bytes"), st.binary(max_size=200)),
    st.tuples(st.just("ping"), st.binary(max_size=125)),
    st.tuples(st.just("pong"), st.binary(max_size=125)),
    st.tuples(st.just("fragments"), st.lists(st.text(max_size=50), min_size=2, max_size=3)),
), max_size=12)


def client_frames(kind: str, payload: Any) -> bytes:
    """``payload`` as a client sends it: masked frames."""
    if kind == "fragments":
        frames = [Frame(Opcode.TEXT if i == 0 else Opcode.CONT, part.encode(),
                        fin=i == len(payload) - 1) for i, part in enumerate(payload)]
    else:
        opcode = {"text": Opcode.TEXT, "bytes": Opcode.BINARY, "ping": Opcode.PING,
                  "pong": Opcode.PONG}[kind]
        frames = [Frame(opcode, payload.encode() if kind == "text" else payload)]
    return b"".join(frame.serialize(mask=True, extensions=[]) for frame in frames)


def upgraded(app: Any) -> tuple[TimedWebSocketProtocol, Pipe]:
    """The timed protocol serving ``app`` on a :class:`Pipe`, the handshake's request read
    (no deflate, no keepalive)."""
    config = uvicorn.Config(app, lifespan="off", ws=TimedWebSocketProtocol,
                            ws_per_message_deflate=False, ws_ping_interval=None)
    config.load()
    protocol = TimedWebSocketProtocol(config, ServerState(), {})
    pipe = Pipe()
    protocol.connection_made(pipe)  # type: ignore[arg-type]
    protocol.data_received(HANDSHAKE)
    return protocol, pipe


async def turns() -> None:
    """Let the event loop go round a few times (the app's task runs what it was woken for)."""
    for _ in range(3):
        await asyncio.sleep(0)


@dataclasses.dataclass
class Read:
    """What a handed-over protocol made of what it read (:func:`handed_over`)."""

    protocol: TimedWebSocketProtocol
    got: list[str | bytes]
    """What the app was handed."""
    written: bytes
    closed: bool
    gone: list[int]
    """When the app heard the client was gone: the number of messages it had by then."""


async def handed_over(chunks: list[bytes], *, close_on: str | None = None) -> Read:
    """A protocol on a :class:`Pipe` whose app took messages over right after the handshake,
    then read ``chunks`` (the app closes the websocket, code 4000, on the message
    ``close_on``)."""
    got: list[str | bytes] = []
    gone: list[int] = []
    ready, closing, finished = asyncio.Event(), asyncio.Event(), False

    async def app(scope: dict[str, Any], receive: Any, send: Any) -> None:
        await receive()
        await send({"type": "websocket.accept"})

        def received(message: str | bytes) -> None:
            got.append(message)
            if message == close_on:
                closing.set()

        scope["extensions"][RECEIVE_KEY](received, lambda: gone.append(len(got)))
        ready.set()
        await closing.wait()
        if not finished:
            await send({"type": "websocket.close", "code": 4000})

    protocol, pipe = upgraded(app)
    await asyncio.wait_for(ready.wait(), 10)
    assert protocol._unread is not None  # reads frames itself from now on
    for chunk in chunks:
        if pipe.closed:  # (as a transport reads nothing more once closed)
            break
        protocol.data_received(chunk)
        await turns()  # (the app's close, if it closes, goes out meanwhile)
    read = Read(protocol, got, bytes(pipe.written), pipe.closed, gone)
    finished = True
    closing.set()
    await asyncio.sleep(0)
    return read


def server_frames(written: bytes) -> list[Frame]:
    """The frames a server wrote after its handshake's response."""
    reader = StreamReader()
    reader.feed_data(written[written.index(b"\r\n\r\n") + 4:])
    reader.feed_eof()  # (so a parse ends, with a frame or at the end)
    frames: list[Frame] = []
    while True:
        try:
            next(Frame.parse(reader.read_exact, mask=False))
        except StopIteration as parsed:
            frames.append(parsed.value)
        except EOFError:
            return frames


@settings(max_examples=60, deadline=None)
@given(messages=MESSAGES, cuts=st.lists(st.floats(0, 1), max_size=8))
def test_whatever_the_reads_cut_frames_into_every_message_arrives_whole_and_in_order(
        messages: list[tuple[str, Any]], cuts: list[float]) -> None:
    """Issue 28: the protocol's own frame reading, against any messages cut anywhere by the
    socket's reads: each text and binary message reaches the receiver once, whole, in order;
    each ping is answered with a pong of its payload; from the first fragment on
    ``websockets`` reads, and still nothing is lost."""
    stream = b"".join(client_frames(kind, payload) for kind, payload in messages)
    bounds = sorted({int(cut * len(stream)) for cut in cuts} - {0, len(stream)})
    chunks = [stream[a:b] for a, b in zip([0, *bounds], [*bounds, len(stream)], strict=True)]
    read = asyncio.run(handed_over(chunks))
    assert read.got == [payload if kind == "bytes" else
                        "".join(payload) if kind == "fragments" else payload
                        for kind, payload in messages if kind in ("text", "bytes", "fragments")]
    assert [(frame.opcode, frame.data) for frame in server_frames(read.written)] == \
        [(Opcode.PONG, payload) for kind, payload in messages if kind == "ping"]
    assert (read.protocol._unread is not None) == all(kind != "fragments"
                                                      for kind, _ in messages)
    assert not read.gone and not read.closed


def by_hand(first: int, payload: bytes) -> bytes:
    """A frame whose first byte is ``first``, masked with zeros (the payload as it is)."""
    size = len(payload)
    length = bytes((0x80 | size,)) if size < 126 else b"\xfe" + size.to_bytes(2)
    return bytes((first,)) + length + bytes(4) + payload


@pytest.mark.parametrize(("frame", "code"), [
    pytest.param(Frame(Opcode.TEXT, b"unmasked").serialize(mask=False, extensions=[]), 1002,
                 id="unmasked"),
    pytest.param(by_hand(0x80 | 0x40 | 0x1, b"reserved bit"), 1002, id="reserved bit"),
    pytest.param(by_hand(0x80 | 0x9, bytes(126)), 1002, id="a ping of 126 bytes"),
    pytest.param(by_hand(0x80 | 0x3, b"reserved opcode"), 1002, id="reserved opcode"),
    pytest.param(by_hand(0x80 | 0x1, b"\xff\xfe"), 1007, id="not UTF-8"),
    pytest.param(by_hand(0x80 | 0x8, b"\x03\xe8"), 1000, id="the client's close"),
])
def test_a_frame_read_here_may_not_take_is_websockets_to_answer(frame: bytes, code: int) -> None:
    """Issue 28: an unmasked frame, reserved bits, a control frame over 125 bytes, a text
    that is not UTF-8, the client's close: the connection ends as uvicorn and ``websockets``
    end it (the close code), the app hears the client is gone, and what came before arrived."""
    before = client_frames("text", "vorher")
    read = asyncio.run(handed_over([before + frame[:3], frame[3:]]))
    assert read.got == ["vorher"] and read.gone == [1] and read.closed
    closes = [frame for frame in server_frames(read.written)
              if frame.opcode is Opcode.CLOSE]
    assert len(closes) == 1 and int.from_bytes(closes[0].data[:2]) == code


def test_once_the_app_closed_websockets_reads_the_rest_even_half_a_frame() -> None:
    """Issue 28: the app closes on the message "schluss"; what the client sent before it had
    the close (a text, then its answer to the close in pieces, the first with half a frame)
    is read by ``websockets``: nothing more reaches the app, the close goes out once and the
    client's answer ends the connection."""
    stream = b"".join(client_frames("text", text) for text in ("eins", "schluss"))
    late = client_frames("text", "zu spät")
    reply = Frame(Opcode.CLOSE, b"\x0f\xa0").serialize(mask=True, extensions=[])
    read = asyncio.run(handed_over([stream, late + reply[:2], reply[2:4], reply[4:]],
                                   close_on="schluss"))
    assert read.got == ["eins", "schluss"] and read.protocol._unread is None and read.closed
    closes = [frame for frame in server_frames(read.written)
              if frame.opcode is Opcode.CLOSE]
    assert [int.from_bytes(frame.data[:2]) for frame in closes] == [4000]


def test_what_came_before_the_hand_over_keeps_websockets_reading_and_is_not_kept() -> None:
    """Issue 28: a client that sends before its messages are handed over (here: pings, while
    the app has not asked) is read by ``websockets`` for good, and what it sent is not kept
    meanwhile beyond the request's bytes."""

    async def main() -> tuple[bool, bytearray | None, int]:
        handed = asyncio.Event()

        async def app(scope: dict[str, Any], receive: Any, send: Any) -> None:
            await receive()
            await send({"type": "websocket.accept"})
            await handed.wait()
            scope["extensions"][RECEIVE_KEY](lambda message: None, lambda: None)

        protocol, pipe = upgraded(app)
        await turns()
        for _ in range(100):
            protocol.data_received(client_frames("ping", b"?"))
        head = protocol._head
        handed.set()
        await turns()
        pongs = sum(frame.opcode is Opcode.PONG for frame in server_frames(bytes(pipe.written)))
        return protocol._unread is None, head, pongs

    assert asyncio.run(main()) == (True, None, 100)


def test_a_socket_without_a_round_trip_says_none() -> None:
    a, b = socket.socketpair()
    with a, b:
        assert kernel_rtt_ms(a) is None
    assert kernel_rtt_ms(None) is None
