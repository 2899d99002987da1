"""How a database is named and reached: its URL, how long to wait for it, SQLite's pragmas,
and the one retry of a write whose connection turned out dead."""

from __future__ import annotations

import functools
import importlib.util
from collections.abc import Callable
from pathlib import Path
from typing import Any, ParamSpec, TypeVar

import platformdirs
from sqlalchemy.engine import make_url
from sqlalchemy.exc import DBAPIError

from zackzack.store.answering import unanswered

CONNECT_TIMEOUT = 10
"""Seconds to wait for a database server (PostgreSQL) to answer before giving up."""
ANSWER_WITHIN = 2.0
"""Seconds the live server's connections wait for PostgreSQL to answer (``Store.answer_within``):
far above a healthy write (milliseconds), short enough that the event loop never stands
still for long when the database answers nothing (a write given up this way is tried again,
which is harmless: every journaled write is idempotent)."""


def conflict_insert(dialect: str) -> Callable[[Any], Any] | None:
    """The ``insert`` of ``dialect`` that knows ``ON CONFLICT`` (SQLite's, PostgreSQL's;
    ``None`` for another database), imported when first asked for: a server on SQLite never
    loads PostgreSQL's dialect (``docs/operations.md``, *Load*: start-up)."""
    if dialect not in ("sqlite", "postgresql"):
        return None
    insert: Callable[[Any], Any] = importlib.import_module(f"sqlalchemy.dialects.{dialect}").insert
    return insert


class StoreError(Exception):
    """The database cannot be used; the message is one line that says why."""


def default_database() -> Path:
    """The SQLite file used when no database is named: ``zackzack.db`` in the data directory."""
    return Path(platformdirs.user_data_dir("zackzack")) / "zackzack.db"


def database_url(where: str | None) -> str:
    """A SQLAlchemy URL: given as one, a file path for SQLite, or the default file. Nothing is
    created here (``open_store`` checks the folder). A ``postgresql://`` URL without a driver
    gets psycopg 3 (what SQLAlchemy 2.1 picks, and what ``[postgres]`` installs), or says how
    to install it.

    >>> database_url("/tmp/z.db")
    'sqlite:////tmp/z.db'
    >>> database_url("postgresql+psycopg://db/zackzack")
    'postgresql+psycopg://db/zackzack'
    """
    if where and "://" in where:
        return _with_driver(where)
    path = Path(where).expanduser() if where else default_database()
    return f"sqlite:///{path.resolve()}"


def _with_driver(url: str) -> str:
    """``postgresql://…`` as ``postgresql+psycopg://…``, if psycopg 3 is installed."""
    scheme, sep, rest = url.partition("://")
    if scheme not in ("postgresql", "postgres"):
        return url
    if importlib.util.find_spec("psycopg") is not None:
        return f"postgresql+psycopg{sep}{rest}"
    raise StoreError("no PostgreSQL driver is installed: pip install 'zackzack[postgres]'")


def create_default_folder() -> Path | None:
    """Create the folder of the default database if it is missing: that folder, else ``None``."""
    folder = default_database().parent
    if folder.is_dir():
        return None
    try:
        folder.mkdir(parents=True)
    except OSError as error:
        raise StoreError(f"cannot create the folder {folder} for the database: "
                         f"{error.strerror or error}") from None
    return folder


def shown(url: str) -> str:
    """The URL as it may be shown: no password, and an SQLite file as its plain path."""
    found = make_url(url)
    if found.get_backend_name() == "sqlite" and found.database not in (None, "", ":memory:"):
        return str(found.database)
    return found.render_as_string(hide_password=True)


def sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    """Set up a new SQLite connection: WAL, foreign keys, a wait for the write lock, and no
    checkpoint inside a commit (``Store.checkpoint`` does them)."""
    cursor = dbapi_connection.cursor()
    for pragma in ("journal_mode=WAL", "synchronous=NORMAL", "foreign_keys=ON",
                   "busy_timeout=5000", "wal_autocheckpoint=0"):
        cursor.execute(f"PRAGMA {pragma}")
    cursor.close()


_T = TypeVar("_T")
_P = ParamSpec("_P")


def reconnecting(write: Callable[_P, _T]) -> Callable[_P, _T]:
    """A write that is tried once more when its connection turned out dead (the database
    restarted since its last use: the writer's connection is long-lived and not pinged);
    the second try reconnects. Any other failure is the caller's (the journal retries)."""

    @functools.wraps(write)
    def again(*args: _P.args, **kwargs: _P.kwargs) -> _T:
        try:
            return write(*args, **kwargs)
        except DBAPIError as error:
            if not error.connection_invalidated or unanswered(error):  # (no answer: not twice)
                raise
        return write(*args, **kwargs)

    return again
