"""A throwaway local PostgreSQL server (Debian's ``postgresql``) for tests and benches.

The server runs as the ``postgres`` user (PostgreSQL refuses root) on a free loopback port
(its Unix socket stays in its own folder). Its URLs are the bare
``postgresql://user@host:port/db`` that docs/operations.md shows: SQLAlchemy 2.1 reads them as
psycopg 3, the ``[postgres]`` extra.
"""

from __future__ import annotations

import contextlib
import glob
import itertools
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

from sqlalchemy import create_engine, make_url, text

_names = itertools.count(1)
_controls: dict[str, tuple[list[str], Path, Path, str]] = {}
"""Each running server's way to ``pg_ctl`` it: by its URL (``restart_postgres``)."""


def postgres_bin(name: str) -> str:
    """A PostgreSQL server program (Debian keeps them out of ``PATH``)."""
    found = shutil.which(name) or next(iter(sorted(
        glob.glob(f"/usr/lib/postgresql/*/bin/{name}"), reverse=True)), None)
    assert found, f"{name} is missing: scripts/test.sh installs Debian's postgresql"
    return found


@contextlib.contextmanager
def postgres_server(*options: str) -> Iterator[str]:
    """A fresh PostgreSQL server (``options``: more ``-c name=value``): its database's URL."""
    folder = Path(tempfile.mkdtemp(prefix="zackzack-pg-"))
    try:
        with _running(folder, options) as url:
            yield url
    finally:
        shutil.rmtree(folder, ignore_errors=True)


@contextlib.contextmanager
def _running(folder: Path, options: tuple[str, ...]) -> Iterator[str]:
    """A server with its data in ``folder``, on a free loopback port (trust: tests only)."""
    as_user: list[str] = []
    if os.geteuid() == 0:
        user = pwd.getpwnam("postgres")
        os.chown(folder, user.pw_uid, user.pw_gid)
        as_user = ["runuser", "-u", "postgres", "--"]
    data = folder / "data"
    subprocess.run([*as_user, postgres_bin("initdb"), "-D", str(data), "-A", "trust",
                    "-U", "zackzack", "--no-sync"], check=True, capture_output=True)
    settings = " ".join(f"-c {option}" for option in options)
    for attempt in range(3):  # a free port may be taken before the server binds it
        port = _free_port()
        started = subprocess.run(
            [*as_user, postgres_bin("pg_ctl"), "-D", str(data), "-w", "-l", str(folder / "log"),
             "-o", f"-k {folder} -c listen_addresses=127.0.0.1 -p {port} -c fsync=off "
             f"{settings}", "start"], capture_output=True)
        if started.returncode == 0:
            break
        assert attempt < 2, (folder / "log").read_text(errors="replace")
    url = f"postgresql://zackzack@127.0.0.1:{port}/postgres"
    _controls[url] = (as_user, data, folder, f"-k {folder} -c listen_addresses=127.0.0.1 "
                      f"-p {port} -c fsync=off {settings}")
    try:
        yield url
    finally:
        _controls.pop(url, None)
        subprocess.run([*as_user, postgres_bin("pg_ctl"), "-D", str(data), "-m", "immediate",
                        "stop"], capture_output=True)


def pg_ctl(url: str, action: str) -> None:
    """``stop`` (``-m fast``: as an operator restarts it; every connection is closed) or
    ``start`` again the server of ``url`` (a database's URL on it works too)."""
    server = make_url(url).set(database="postgres").render_as_string(hide_password=False)
    as_user, data, folder, options = _controls[server]
    command = [*as_user, postgres_bin("pg_ctl"), "-D", str(data), "-w", "-l",
               str(folder / "log")]
    if action == "stop":
        command += ["-m", "fast", "stop"]
    else:
        command += ["-o", options, "start"]
    subprocess.run(command, check=True, capture_output=True)


def fresh_database(server_url: str) -> str:
    """A new empty database on the server of ``server_url``: its URL."""
    name = f"test_{os.getpid()}_{next(_names)}"
    engine = create_engine(server_url, isolation_level="AUTOCOMMIT")
    try:
        with engine.connect() as conn:
            conn.execute(text(f'CREATE DATABASE "{name}"'))
    finally:
        engine.dispose()
    return make_url(server_url).set(database=name).render_as_string(hide_password=False)


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])
