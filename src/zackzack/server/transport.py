"""What the transport knows of a connection's round trip: the kernel's, or a trusted proxy's.

The lag a race credits must not be the client's word. Protocol pings are answered by the
client, which can answer them as late as it likes; the kernel's own measure of a TCP
connection (``TCP_INFO``: the time from a segment sent to its acknowledgement) is taken
below the client's code, so a client can only stretch it by delaying everything it sends,
its cards too. ``docs/fairness.md`` (*Measuring lag*) has the exploit analysis.

Behind a reverse proxy the kernel only knows the hop to the proxy; a proxy named by
``--forwarded-allow-ips`` may pass the client's round trip on in :data:`RTT_HEADER` (nginx:
``proxy_set_header X-TCP-RTT $tcpinfo_rtt;``, microseconds).

uvicorn does not hand the ASGI app its socket, so :class:`TimedWebSocketProtocol` (uvicorn's
own websocket protocol) puts the transport into the scope's extensions, and with it a way to
write several text frames in one go (:data:`SEND_KEY`) and one to be handed each message as
it is read (:data:`RECEIVE_KEY`; ``docs/operations.md``, *Load*). Once messages are handed
over, the usual frames (whole messages, pings, pongs) are read and written here without
``websockets``' per-frame objects; anything else goes to ``websockets`` for the rest of the
connection.
"""

from __future__ import annotations

import socket
import struct
from collections.abc import Callable, Container, Mapping
from typing import Any

from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.frames import Frame, Opcode
from websockets.protocol import State

try:
    from websockets.speedups import apply_mask
except ImportError:  # (websockets built without its C extension, as it falls back itself)
    from websockets.utils import apply_mask

RTT_HEADER = "x-tcp-rtt"
"""The header in which a trusted proxy passes on the client's round trip, in µs."""
TRANSPORT_KEY = "zackzack.transport"
"""Where :class:`TimedWebSocketProtocol` puts the transport in the scope's extensions."""
SEND_KEY = "zackzack.send_texts"
"""Where it puts :meth:`TimedWebSocketProtocol.send_texts`."""
RECEIVE_KEY = "zackzack.receive_directly"
"""Where it puts :meth:`TimedWebSocketProtocol.receive_directly`."""
_RTT, _MIN_RTT = 68, 148
"""Offsets in ``struct tcp_info`` (linux/tcp.h) of ``tcpi_rtt`` and ``tcpi_min_rtt`` (µs)."""


def kernel_rtt_ms(sock: Any) -> float | None:
    """The kernel's round trip of TCP socket ``sock`` in ms: its windowed minimum (the wire's
    own lag, without delayed acknowledgements), else its smoothed figure; ``None`` where the
    kernel does not say (not Linux, not TCP, closed).

    >>> a, b = socket.socketpair()
    >>> kernel_rtt_ms(a) is None  # a Unix socket has no round trip
    True
    >>> a.close(); b.close()
    """
    if sock is None or not hasattr(socket, "TCP_INFO"):
        return None
    try:
        info = sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_INFO, 232)
    except OSError:
        return None
    if len(info) >= _MIN_RTT + 4:
        (minimum,) = struct.unpack_from("I", info, _MIN_RTT)
        if minimum and minimum != 0xFFFFFFFF:
            return float(minimum) / 1000
    if len(info) >= _RTT + 4:
        (smoothed,) = struct.unpack_from("I", info, _RTT)
        return float(smoothed) / 1000 if smoothed else None
    return None


def proxied_rtt_ms(value: str | None) -> float | None:
    """A trusted proxy's :data:`RTT_HEADER` in ms (``None``: missing or not a whole number
    of µs under a minute).

    >>> proxied_rtt_ms("42318"), proxied_rtt_ms("x"), proxied_rtt_ms(None)
    (42.318, None, None)
    """
    if value is None or not value.strip().isdigit():
        return None
    micros = int(value.strip())
    return micros / 1000 if micros < 60_000_000 else None


class TimedWebSocketProtocol(WebSocketsSansIOProtocol):
    """uvicorn's websocket protocol that shows the app its transport (for ``TCP_INFO``),
    writes a burst with one system call, and hands messages over as they are read."""

    receiver: Callable[[str | bytes], None] | None = None
    """Called with each message as it is read, once the app asked for it."""
    _head: bytearray | None = None
    """What was read before messages were handed over, as long as it is no more than the
    handshake's request (``None`` once it is more, and once handed over)."""
    _unread: bytearray | None = None
    """The start of a frame still arriving, while frames are read here (else ``None``)."""

    def connection_made(self, transport: Any) -> None:
        super().connection_made(transport)
        self._head = bytearray()

    def handle_connect(self, event: Any) -> None:
        """Build the scope as uvicorn does, with the transport in its extensions."""
        super().handle_connect(event)
        scope: Any = getattr(self, "scope", None)
        if scope is not None:
            scope["extensions"][TRANSPORT_KEY] = self.transport
            scope["extensions"][SEND_KEY] = self.send_texts
            scope["extensions"][RECEIVE_KEY] = self.receive_directly

    def receive_directly(self, receiver: Callable[[str | bytes], None],
                         gone: Callable[[], None]) -> None:
        """From now on call ``receiver`` with each message as it is read, within the read,
        and ``gone`` once the client went or the connection closed: no receive queue, no
        task woken, no pausing and resuming of the socket per message (two system calls
        each), and nothing for the app to await but its own writes. What came before is
        handed over at once, in order. The handshake is over: its request and response
        (their headers) are let go, and the receive queue with them. If nothing but the
        request was read so far, ``websockets``' parser is between frames: from now on
        frames are read here (:meth:`_read_frames`)."""
        self.receiver = receiver
        del self.request, self.response
        head, self._head = self._head, None
        if head is not None and len(head) == head.find(b"\r\n\r\n") + 4 \
                and not self.conn.extensions and self.conn.state is State.OPEN:
            self._unread = bytearray()
        queued, self.queue = self.queue, _Gone(gone)  # type: ignore[assignment]
        while not queued.empty():
            message = queued.get_nowait()
            if message["type"] == "websocket.receive":
                text = message.get("text")
                receiver(text if text is not None else message.get("bytes") or b"")
            elif message["type"] == "websocket.disconnect":
                gone()
        if self.read_paused:
            self.read_paused = False
            self.transport.resume_reading()

    def data_received(self, data: bytes) -> None:
        """What the client sent: read here once messages are handed over, else by
        ``websockets`` (the handshake's bytes noted on the way)."""
        unread = self._unread
        if unread is not None:
            if unread:  # (a frame arriving in many reads is gathered in place)
                unread += data
                self._read_frames(unread)
            else:
                self._read_frames(data)
            return
        head = self._head
        if head is not None:
            head += data
            end = head.find(b"\r\n\r\n")
            if end >= 0 and len(head) > end + 4:  # more than the request: websockets reads
                self._head = None
        super().data_received(data)

    def _read_frames(self, data: bytes | bytearray) -> None:
        """Read the whole frames in ``data`` and keep the rest for the next read: a whole
        text or binary message, a ping (answered), a pong (uvicorn's keepalive). From any
        other frame on — fragments, a close, a frame too big, unmasked or with reserved bits,
        or anything once the connection is closing — ``websockets`` reads, for the rest of
        the connection: its parser is between frames, as it was when it last read."""
        size, start = len(data), 0
        while size - start >= 2:
            first, second = data[start], data[start + 1]
            length, at = second & 0x7F, start + 2
            if length >= 126:
                wide = 2 if length == 126 else 8
                if size - at < wide:
                    break
                length, at = int.from_bytes(data[at:at + wide]), at + wide
            opcode = first & 0x0F
            if first & 0xF0 != 0x80 or not second & 0x80 or opcode not in _READ_HERE \
                    or (opcode >= 8 and length > 125) or self.close_sent \
                    or self.conn.state is not State.OPEN \
                    or (self.conn.max_message_size is not None
                        and length > self.conn.max_message_size):
                self._unread = None
                super().data_received(bytes(data[start:]))
                return
            end = at + 4 + length
            if end > size:
                break
            payload = apply_mask(data[at + 4:end], data[at:at + 4])
            start = end
            if opcode == Opcode.TEXT.value:
                self.curr_msg_data_type, self.frames = "text", [payload]
                self.send_receive_event_to_app()
            elif opcode == Opcode.BINARY.value:
                self.curr_msg_data_type, self.frames = "bytes", [payload]
                self.send_receive_event_to_app()
            elif opcode == Opcode.PING.value:
                self.transport.write(bytes((0x8A, len(payload))) + payload)
            else:
                self.handle_pong(Frame(Opcode.PONG, payload))
            if self._unread is None:  # (closed meanwhile: websockets reads the rest)
                return
        if data is self._unread:
            del data[:start]
        elif start < size:
            self._unread = bytearray(data[start:])

    def send_receive_event_to_app(self) -> None:
        """A whole message was read: to the ``receiver`` if there is one, else queued."""
        receiver = self.receiver
        if receiver is None or self.close_sent:
            super().send_receive_event_to_app()
            return
        data = self.frames[0] if len(self.frames) == 1 else b"".join(self.frames)
        self.frames = []
        if self.curr_msg_data_type != "text":
            receiver(data)
            return
        try:
            text = data.decode()
        except UnicodeDecodeError:  # as uvicorn answers and logs it (logs.ClientFrameErrors)
            self.logger.exception("Invalid UTF-8 sequence received from client.")
            if self.conn.close_sent is None:  # (unless the parser failed the connection)
                self.conn.send_close(1007)
            self._unread = None
            self.handle_parser_exception()
            return
        receiver(text)

    def send_texts(self, texts: list[str]) -> bool:
        """Write ``texts`` as text frames with one write (one system call for a burst), as
        uvicorn's ``send`` writes one; ``False`` (nothing written) where that ``send`` must
        do it: not open (yet, or any more) or the transport asks to wait (flow control)."""
        if not self.handshake_complete or self.close_sent or self.disconnected \
                or self.conn.state is not State.OPEN or not self.writable.is_set() \
                or self.transport.is_closing():
            return False
        if self.conn.extensions:  # (permessage-deflate: websockets compresses)
            for text in texts:
                self.conn.send_text(text.encode())
            self.transport.write(b"".join(self.conn.data_to_send()))
        else:
            self.transport.write(b"".join([text_frame(text.encode()) for text in texts]))
        return True


_READ_HERE = frozenset(op.value for op in (Opcode.TEXT, Opcode.BINARY, Opcode.PING, Opcode.PONG))
"""The frames :meth:`TimedWebSocketProtocol._read_frames` reads itself (when whole)."""


def text_frame(payload: bytes) -> bytes:
    """A whole text message in one frame, as a server sends it (unmasked).

    >>> text_frame(b"hi"), text_frame(bytes(300))[:4]
    (b'\\x81\\x02hi', b'\\x81~\\x01,')
    """
    size = len(payload)
    if size < 126:
        return bytes((0x81, size)) + payload
    if size < 65536:
        return struct.pack("!BBH", 0x81, 126, size) + payload
    return struct.pack("!BBQ", 0x81, 127, size) + payload


class _Gone:
    """Where uvicorn queues what the app receives, once messages are handed over: only the
    disconnect is left to tell, and it is told at once."""

    __slots__ = ("gone",)

    def __init__(self, gone: Callable[[], None]) -> None:
        self.gone = gone

    def put_nowait(self, message: Mapping[str, Any]) -> None:
        if message["type"] == "websocket.disconnect":
            self.gone()

    def empty(self) -> bool:
        return True

    async def get(self) -> Mapping[str, Any]:
        raise RuntimeError("messages are handed over as they are read (receive_directly)")


def round_trip(scope: Mapping[str, Any], proxies: Container[str]) -> Callable[[], float | None]:
    """How to read the round trip of the connection of websocket ``scope`` now: a trusted
    proxy's word (``proxies``: ``--forwarded-allow-ips``) if the socket's peer is one, else
    the kernel's; always ``None`` where the server does not show the app its transport."""
    transport = scope.get("extensions", {}).get(TRANSPORT_KEY)
    if transport is None:
        return lambda: None
    peer = transport.get_extra_info("peername")
    if peer and str(peer[0]) in proxies:
        raw = next((value for name, value in scope.get("headers", ())
                    if name.lower() == RTT_HEADER.encode()), None)
        told = proxied_rtt_ms(raw.decode("latin-1") if raw is not None else None)
        return lambda: told
    sock = transport.get_extra_info("socket")
    return lambda: kernel_rtt_ms(sock)
