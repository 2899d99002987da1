"""Slow HTTP requests are closed after ``request_seconds``; one address holds at most
``http_connections_per_ip`` plain HTTP connections (``zackzack serve`` in a process of its
own, raw sockets on loopback). Bounds are generous: the machine may be busy."""

from __future__ import annotations

import contextlib
import signal
import socket
import time
from pathlib import Path

from server.test_origins import handshake
from server.wire import serve


def closed_after(sock: socket.socket, seconds: float) -> float:
    """Read until the server closes ``sock`` (or ``seconds`` pass): how long that took."""
    start = time.monotonic()
    sock.settimeout(seconds)
    try:
        while sock.recv(4096):
            pass
    except TimeoutError:
        return float("inf")
    except ConnectionError:
        pass
    return time.monotonic() - start


def get(port: int, path: str = "/healthz") -> bytes:
    """One whole request on a fresh connection: the answer's head."""
    with socket.create_connection(("127.0.0.1", port), timeout=30) as sock:
        sock.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"
                     .encode())
        answer = b""
        while chunk := sock.recv(4096):
            answer += chunk
    return answer.split(b"\r\n\r\n")[0]


def test_a_slow_request_is_closed_after_the_timeout(tmp_path: Path) -> None:
    with serve(tmp_path / "z.db", "--limit", "request_seconds=1") as (url, process):
        port = int(url.rsplit(":", 1)[1])
        slow = [socket.create_connection(("127.0.0.1", port), timeout=30) for _ in range(4)]
        slow[0].sendall(b"GET /healthz HTT")  # half a request line
        slow[1].sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")  # no end
        slow[2].sendall(b"POST /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                        b"Content-Length: 1000\r\n\r\nonly a little")  # a short body
        # slow[3] says nothing at all
        started = time.monotonic()
        for sock in slow:
            took = closed_after(sock, 30)
            assert took < 30  # closed by the server (generous: the machine may be busy)
            sock.close()
        assert time.monotonic() - started >= 0.9  # not before its time
        assert get(port).startswith(b"HTTP/1.1 200")  # whole requests are served as before
        status, ws = handshake(port)  # and a websocket is not cut off by the deadline
        assert status == 101
        time.sleep(1.5)
        ws.settimeout(0.2)
        with contextlib.suppress(TimeoutError):  # nothing to read is fine; a close is b""
            assert ws.recv(1) != b""
        ws.close()
        process.send_signal(signal.SIGTERM)
        process.wait(60)
        assert process.returncode == 0


def test_one_address_holds_a_bounded_number_of_http_connections(tmp_path: Path) -> None:
    with serve(tmp_path / "z.db", "--limit", "http_connections_per_ip=3",
               "--limit", "request_seconds=120") as (url, process):
        port = int(url.rsplit(":", 1)[1])
        websockets = [handshake(port)[1] for _ in range(3)]  # websockets are not counted
        idle = [socket.create_connection(("127.0.0.1", port), timeout=30) for _ in range(3)]
        time.sleep(0.2)
        with socket.create_connection(("127.0.0.1", port), timeout=30) as extra:
            answer = extra.recv(4096)
            assert answer.startswith(b"HTTP/1.1 503")
            assert b"too many connections from your address" in answer
            assert closed_after(extra, 30) < 30
        idle.pop().close()
        deadline = time.monotonic() + 30
        while True:  # the server notices the closed one soon
            head = get(port)
            if head.startswith(b"HTTP/1.1 200") or time.monotonic() > deadline:
                break
            time.sleep(0.1)
        assert head.startswith(b"HTTP/1.1 200")
        for sock in idle + websockets:
            sock.close()
        process.send_signal(signal.SIGTERM)
        process.wait(60)
        assert process.returncode == 0
        assert process.stderr is not None
        refused = [line for line in process.stderr.read().splitlines()
                   if "too_many_http_connections" in line]
        assert len(refused) == 1  # logged once, however many are refused
