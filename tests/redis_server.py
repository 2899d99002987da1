"""A throwaway local Redis (Debian's ``redis-server``) for the cluster tests: killable, and
restartable on the same port (empty again: it saves nothing), as tests/pg.py is for PostgreSQL."""

from __future__ import annotations

import contextlib
import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

from pg import _free_port


class Redis:
    """One ``redis-server`` on a loopback port, saving nothing; ``kill``, then ``start`` again."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.port = 0
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        """Its URL, as ``zackzack serve --redis`` takes it."""
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        """Start it (again on the same port; on a free one the first time) and wait for PONG."""
        assert self.process is None or self.process.poll() is not None, "already running"
        found = shutil.which("redis-server")
        assert found, "redis-server is missing: scripts/test.sh installs Debian's redis-server"
        for attempt in range(3):  # a free port may be taken before the server binds it
            port = self.port or _free_port()
            self.process = subprocess.Popen(
                [found, "--port", str(port), "--bind", "127.0.0.1", "--save", "",
                 "--appendonly", "no", "--dir", str(self.folder), "--logfile",
                 str(self.folder / "log")], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            if _answers(port, self.process):
                self.port = port
                return
            self.kill()
            assert attempt < 2 and not self.port, (self.folder / "log").read_text(errors="replace")

    def get(self, key: str) -> str | None:
        """The string value of ``key`` (``None``: no such key), asked over a plain socket.

        >>> with redis_server() as server:
        ...     server.get("nothing")
        """
        data = key.encode()
        with socket.create_connection(("127.0.0.1", self.port), timeout=5) as conn, \
                conn.makefile("rb") as reply:
            conn.sendall(b"*2\r\n$3\r\nGET\r\n$%d\r\n%s\r\n" % (len(data), data))
            header = reply.readline()
            assert header.startswith(b"$"), header
            size = int(header[1:])
            return None if size < 0 else reply.read(size + 2)[:size].decode()

    def kill(self) -> None:
        """``kill -9`` it (nothing is saved)."""
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
        if self.process is not None:
            self.process.wait(10)


def _answers(port: int, process: subprocess.Popen[bytes], seconds: float = 20.0) -> bool:
    """Whether the server on ``port`` answers PING before it exits or ``seconds`` pass."""
    deadline = time.monotonic() + seconds
    while process.poll() is None and time.monotonic() < deadline:
        with contextlib.suppress(OSError), \
                socket.create_connection(("127.0.0.1", port), timeout=1) as conn:
            conn.sendall(b"PING\r\n")
            if conn.recv(64).startswith(b"+PONG"):
                return True
        time.sleep(0.02)
    return False


@contextlib.contextmanager
def redis_server() -> Iterator[Redis]:
    """A fresh Redis, running; killed and its folder removed at the end."""
    folder = Path(tempfile.mkdtemp(prefix="zackzack-redis-"))
    server = Redis(folder)
    try:
        server.start()
        yield server
    finally:
        server.kill()
        shutil.rmtree(folder, ignore_errors=True)
