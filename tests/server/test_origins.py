"""Who may open the websocket, and whose forwarded headers count (``zackzack serve`` in a
process of its own, raw handshakes on loopback).

Allowed origins come from the configuration (``--public-url``, ``--allow-origin``), loopback,
and the server's own address; never from the ``Host`` header, which a DNS rebinding page
sets to its own name. ``X-Forwarded-For`` counts only from ``--forwarded-allow-ips``.
"""

from __future__ import annotations

import base64
import contextlib
import json
import os
import signal
import socket
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from server.wire import serve


def handshake(port: int, host: str | None = None, **headers: str) -> tuple[int, socket.socket]:
    """Ask for a websocket on ``/ws`` with these headers (``x_forwarded_for=`` is
    ``X-Forwarded-For:``): the HTTP status of the answer, and the socket (left open)."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=30)
    key = base64.b64encode(os.urandom(16)).decode()
    lines = ["GET /ws HTTP/1.1", f"Host: {host or f'127.0.0.1:{port}'}", "Upgrade: websocket",
             "Connection: Upgrade", f"Sec-WebSocket-Key: {key}", "Sec-WebSocket-Version: 13",
             *(f"{name.replace('_', '-')}: {value}" for name, value in headers.items())]
    sock.sendall(("\r\n".join(lines) + "\r\n\r\n").encode())
    answer = b""
    while b"\r\n\r\n" not in answer:
        chunk = sock.recv(4096)
        if not chunk:
            break
        answer += chunk
    return int(answer.split(b" ", 2)[1]), sock


@contextlib.contextmanager
def server(tmp_path: Path, *args: str) -> Iterator[tuple[int, list[dict[str, Any]]]]:
    """A server with ``args``: its port, and (once the block is over) its log lines."""
    logged: list[dict[str, Any]] = []
    with serve(tmp_path / "z.db", *args) as (url, process):
        yield int(url.rsplit(":", 1)[1]), logged
        process.send_signal(signal.SIGTERM)
        process.wait(60)
        assert process.returncode == 0
        assert process.stderr is not None
        logged.extend(json.loads(line) for line in process.stderr.read().splitlines()
                      if line.startswith("{"))


def test_a_foreign_origin_with_a_matching_host_is_refused(tmp_path: Path) -> None:
    with server(tmp_path, "--public-url", "https://cards.example.org") as (port, logged):
        evil = "evil.example:18931"
        assert handshake(port, host=evil, origin=f"http://{evil}")[0] == 403  # DNS rebinding
        assert handshake(port, origin="null")[0] == 403
        assert handshake(port, origin="https://cards.example.org.evil.example")[0] == 403
        opened = [handshake(port, host="cards.example.org", origin="https://cards.example.org"),
                  handshake(port, origin="https://CARDS.example.org:443"),
                  handshake(port, origin=f"http://127.0.0.1:{port}"),  # the server's own page
                  handshake(port, origin="http://localhost:5173"),  # a page on this computer
                  handshake(port, origin="http://[::1]:8080"),
                  handshake(port)]  # no browser: no Origin
        assert [status for status, _ in opened] == [101] * 6
        for _, sock in opened:
            sock.close()
    refused = [e for e in logged if e.get("event") == "connection_refused"]
    assert [e["reason"] for e in refused] == ["origin"] * 3
    assert refused[0]["origin"] == "http://evil.example:18931"


def test_without_a_public_url_a_named_origin_is_refused_with_a_hint(tmp_path: Path) -> None:
    with server(tmp_path) as (port, logged):
        assert handshake(port, host=f"mybox.local:{port}",
                         origin=f"http://mybox.local:{port}")[0] == 403
        status, sock = handshake(port, origin=f"http://127.0.0.1:{port}")
        assert status == 101
        sock.close()
    refused = next(e for e in logged if e.get("event") == "connection_refused")
    assert "--public-url" in refused["hint"]


def test_forwarded_addresses_are_ignored_by_default(tmp_path: Path) -> None:
    with server(tmp_path, "--limit", "connections_per_ip=2") as (port, logged):
        answers = [handshake(port, x_forwarded_for=f"203.0.113.{n}") for n in range(3)]
        assert [status for status, _ in answers] == [101, 101, 403]  # all one address: ours
        for _, sock in answers:
            sock.close()
    refused = next(e for e in logged if e.get("event") == "connection_refused")
    assert refused["reason"] == "too_many_connections"
    assert refused["peer"].startswith("127.0.0.1:")


def test_forwarded_addresses_count_from_an_allowed_proxy(tmp_path: Path) -> None:
    with server(tmp_path, "--limit", "connections_per_ip=2",
                "--forwarded-allow-ips", "127.0.0.1") as (port, logged):
        answers = [handshake(port, x_forwarded_for=f"203.0.113.{n}") for n in range(3)]
        answers += [handshake(port, x_forwarded_for="203.0.113.0") for _ in range(2)]
        assert [status for status, _ in answers] == [101, 101, 101, 101, 403]
        for _, sock in answers:
            sock.close()
    refused = next(e for e in logged if e.get("event") == "connection_refused")
    assert refused["reason"] == "too_many_connections"
    assert refused["peer"].startswith("203.0.113.0:")
