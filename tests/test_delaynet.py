"""DelayNet delays packets, not chunks: the kernel's own round trip (``TCP_INFO``) of a
server-side socket shows a client's real RTT, and a client that only answers late does not
move it (``tests/delaynet.py``, issue 27)."""

from __future__ import annotations

import collections
import contextlib
import socket
import threading
import time
from collections.abc import Iterator

import pytest

from delaynet import DelayNet, tcp_rtt_ms, unavailable_reason

pytestmark = [pytest.mark.wallclock, pytest.mark.delaynet,  # real sockets, a forwarder process
              pytest.mark.skipif(unavailable_reason() is not None,
                                 reason=unavailable_reason() or "")]

EXCHANGES = 6
"""Request/response exchanges on each connection before the kernel's figures are read."""
LATE_S = 0.2
"""How late the lying proxy hands the client's replies on."""


@pytest.fixture
def net() -> Iterator[DelayNet]:
    with DelayNet([100, 10, 10], jitter=0.05) as made:
        yield made


@pytest.fixture
def server(net: DelayNet) -> Iterator[socket.socket]:
    sock = socket.create_server((net.server_address, 0))
    sock.settimeout(10)
    with sock:
        yield sock


def exchange(server_side: socket.socket, client_side: socket.socket | None) -> float:
    """The server sends a request, the client (or whoever answers) replies: the seconds it
    took, as the server's application sees them."""
    started = time.monotonic()
    server_side.sendall(b"request\n")
    if client_side is not None:
        assert client_side.recv(64) == b"request\n"
        client_side.sendall(b"reply\n")
    assert server_side.recv(64) == b"reply\n"
    return time.monotonic() - started


def test_the_kernel_sees_each_clients_round_trip(net: DelayNet,
                                                 server: socket.socket) -> None:
    port = server.getsockname()[1]
    for address, rtt in ((net.clients[0], 100), (net.clients[1], 10)):
        client = net.connect(address, (net.server_address, port))
        accepted, peer = server.accept()
        with client, accepted:
            assert peer[0] == address  # the server sees the client's own address
            client.settimeout(10)
            accepted.settimeout(10)
            seen = [exchange(accepted, client) for _ in range(EXCHANGES)]
            figures = tcp_rtt_ms(accepted)
            assert figures is not None
            min_rtt, srtt = figures
            # the forwarder never delivers early (less than 5 % jitter below), and even a busy
            # machine leaves some exchange close to the wire's time: the minimum is the wire
            assert 0.9 * rtt <= min_rtt <= 1.6 * rtt + 50, (rtt, figures)
            assert 0.9 * rtt <= srtt, (rtt, figures)
            assert min(seen) * 1000 >= 0.9 * rtt, seen  # the application sees it too
            client_figures = tcp_rtt_ms(client)
            assert client_figures is not None and client_figures[0] >= 0.9 * rtt


class LyingProxy:
    """A user-space proxy in the namespace that hands the client's bytes to the server
    ``late_s`` late and the server's to the client at once: a client that answers late."""

    def __init__(self, net: DelayNet, address: str, target: tuple[str, int],
                 late_s: float) -> None:
        self.net, self.address, self.target, self.late_s = net, address, target, late_s
        self.listener = net.listener("127.0.0.1")
        self.port: int = self.listener.getsockname()[1]
        self.threads: list[threading.Thread] = []
        self.socks: list[socket.socket] = []
        self.waiting: collections.deque[tuple[float, bytes] | None] = collections.deque()
        self.ready = threading.Condition()
        self.start(self._accept)

    def start(self, work: object) -> None:
        thread = threading.Thread(target=work, daemon=True)  # type: ignore[arg-type]
        thread.start()
        self.threads.append(thread)

    def _accept(self) -> None:
        with contextlib.suppress(OSError):
            downstream, _ = self.listener.accept()
            upstream = self.net.connect(self.address, self.target)
            self.socks += [downstream, upstream]
            waiting, ready = self.waiting, self.ready

            def up_in() -> None:
                with contextlib.suppress(OSError):
                    while chunk := downstream.recv(65536):
                        with ready:
                            waiting.append((time.monotonic() + self.late_s, chunk))
                            ready.notify()

            def up_out() -> None:
                with contextlib.suppress(OSError):
                    while True:
                        with ready:
                            while not waiting:
                                ready.wait()
                            item = waiting.popleft()
                        if item is None:
                            return
                        due, chunk = item
                        time.sleep(max(0.0, due - time.monotonic()))
                        upstream.sendall(chunk)

            def down() -> None:
                with contextlib.suppress(OSError):
                    while chunk := upstream.recv(65536):
                        downstream.sendall(chunk)

            for work in (up_in, up_out, down):
                self.start(work)

    def close(self) -> None:
        with self.ready:
            self.waiting.append(None)
            self.ready.notify()
        for sock in [self.listener, *self.socks]:
            with contextlib.suppress(OSError):
                sock.shutdown(socket.SHUT_RDWR)
            sock.close()
        for thread in self.threads:
            thread.join(5)


def test_answering_late_does_not_move_the_kernels_round_trip(net: DelayNet,
                                                             server: socket.socket) -> None:
    port = server.getsockname()[1]
    # an honest 10 ms client and one behind a proxy (at the same 10 ms) that replies late
    honest = net.connect(net.clients[1], (net.server_address, port))
    honest_side, _ = server.accept()
    proxy = LyingProxy(net, net.clients[2], (net.server_address, port), LATE_S)
    liar = net.connect(net.clients[2], ("127.0.0.1", proxy.port))  # inside the namespace
    liar_side, peer = server.accept()
    try:
        assert peer[0] == net.clients[2]
        for sock in (honest, honest_side, liar, liar_side):
            sock.settimeout(10)
        honest_seen = [exchange(honest_side, honest) for _ in range(EXCHANGES)]
        liar_seen = [exchange(liar_side, liar) for _ in range(EXCHANGES)]
        # what an application-level ping measures: the lie works there ...
        assert min(liar_seen) >= LATE_S, liar_seen
        assert min(honest_seen) < LATE_S / 2, honest_seen
        # ... but the kernel's round trip of the same server-side socket stays the wire's
        for side in (honest_side, liar_side):
            figures = tcp_rtt_ms(side)
            assert figures is not None
            assert 9 <= figures[0] <= 60, figures
    finally:
        proxy.close()
        for sock in (honest, honest_side, liar, liar_side):
            sock.close()


def test_the_delay_can_change_and_the_net_goes_away(net: DelayNet,
                                                    server: socket.socket) -> None:
    port = server.getsockname()[1]
    net.set_rtt(net.clients[1], 60)
    client = net.connect(net.clients[1], (net.server_address, port))
    accepted, _ = server.accept()
    with client, accepted:
        client.settimeout(10)
        accepted.settimeout(10)
        assert min(exchange(accepted, client) for _ in range(3)) >= 0.054
    namespace = net.namespace
    net.close()
    from delaynet import NETNS_DIR

    assert not (NETNS_DIR / namespace).exists()
    net.close()  # twice is harmless
