"""A throwaway local PostgreSQL server (Debian's ``postgresql``) for tests and benches.

The server runs as the ``postgres`` user (PostgreSQL refuses root) on a Unix socket only.
"""

from __future__ import annotations

import contextlib
import glob
import itertools
import os
import pwd
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

from sqlalchemy import create_engine, text

_names = itertools.count(1)


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
    as_user: list[str] = []
    if os.geteuid() == 0:
        user = pwd.getpwnam("postgres")
        os.chown(folder, user.pw_uid, user.pw_gid)
        as_user = ["runuser", "-u", "postgres", "--"]
    data = folder / "data"
    subprocess.run([*as_user, postgres_bin("initdb"), "-D", str(data), "-A", "trust",
                    "-U", "zackzack", "--no-sync"], check=True, capture_output=True)
    settings = " ".join(f"-c {option}" for option in options)
    subprocess.run([*as_user, postgres_bin("pg_ctl"), "-D", str(data), "-w", "-l",
                    str(folder / "log"), "-o", f"-k {folder} -c listen_addresses='' "
                    f"-c fsync=off {settings}", "start"], check=True, capture_output=True)
    try:
        yield f"postgresql+psycopg2://zackzack@/postgres?host={folder}"
    finally:
        subprocess.run([*as_user, postgres_bin("pg_ctl"), "-D", str(data), "-m", "immediate",
                        "stop"], capture_output=True)
        shutil.rmtree(folder, ignore_errors=True)


def fresh_database(server_url: str) -> str:
    """A new empty database on the server of ``server_url``: its URL."""
    name = f"test_{os.getpid()}_{next(_names)}"
    engine = create_engine(server_url, isolation_level="AUTOCOMMIT")
    try:
        with engine.connect() as conn:
            conn.execute(text(f'CREATE DATABASE "{name}"'))
    finally:
        engine.dispose()
    return server_url.replace("@/postgres?", f"@/{name}?")
