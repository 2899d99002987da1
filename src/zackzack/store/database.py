"""What every part of the store shares: the engine, its migration at opening, the writer's
connection (one small committed transaction per write), and the database's upkeep.

Writes come from the event loop's thread on one connection; reads (the HTTP API) may come from
any thread and take pooled connections. ``Store`` (``zackzack.store.db``) is this with every
part (players, ratings, matches, profiles) on top.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from typing import Any

from sqlalchemy import Connection, Engine, create_engine, event, select, update
from sqlalchemy.engine import make_url
from sqlalchemy.pool import NullPool

from zackzack.store.answering import answering
from zackzack.store.connecting import CONNECT_TIMEOUT, reconnecting, sqlite_pragmas
from zackzack.store.migrate import current_revision, upgrade
from zackzack.store.schema import players


class Database:
    """A SQL database (SQLite in WAL mode unless the URL says otherwise), migrated when opened."""

    def __init__(self, url: str, *, wall: Callable[[], float] = time.time) -> None:
        self.url = url
        self.wall = wall
        self.answer_within: float | None = None
        """PostgreSQL: seconds a connection waits for the server to answer (a statement, a
        COMMIT, a ping) before it gives up and is dropped (``None``: for ever). The server sets
        it (``ANSWER_WITHIN``): a database that answers nothing must not hold its event loop
        (``store/answering.py``); connecting then gives up after as long (at least 2 s)."""
        self._prober: Engine | None = None
        found = make_url(url)
        connect_args: dict[str, Any] = {}
        if found.get_backend_name() == "postgresql" and "connect_timeout" not in found.query:
            connect_args["connect_timeout"] = CONNECT_TIMEOUT  # an unreachable host: not minutes
        upgrade(url, connect_args)
        self.engine: Engine = create_engine(url, connect_args=connect_args, pool_pre_ping=True)
        """Pooled connections are pinged when taken: one that a database restart closed is
        replaced, not handed to a read (``docs/operations.md``, *Outages*)."""
        if found.get_backend_name() == "sqlite":
            event.listen(self.engine, "connect", sqlite_pragmas)
        elif self.engine.dialect.driver == "psycopg":
            event.listen(self.engine, "do_connect", self._connect)
        try:
            self._writer: Connection = self.engine.connect()
        except BaseException:
            self.engine.dispose()
            raise

    def _connect(self, _dialect: Any, _record: Any, cargs: Any, cparams: dict[str, Any]
                 ) -> Any:
        """A psycopg connection bounded by ``answer_within`` (``store/answering.py``)."""
        bound = self.answer_within
        if "connect_timeout" not in make_url(self.url).query:
            cparams = {**cparams, "connect_timeout": CONNECT_TIMEOUT if bound is None
                       else max(2, math.ceil(bound))}
        connection = answering().connect(*cargs, **cparams)
        connection.bound = lambda: self.answer_within
        return connection

    def probe(self) -> bool:
        """Whether the database answers (a new connection and a ``SELECT 1``, each bounded by
        ``answer_within``); blocking: the journal runs it in a worker thread while it is
        behind. SQLite: always."""
        if self.engine.dialect.name == "sqlite":
            return True
        if self._prober is None:
            self._prober = create_engine(self.url, poolclass=NullPool)
            event.listen(self._prober, "do_connect", self._connect)
        try:
            with self._prober.connect() as conn:
                conn.execute(select(1))
        except Exception:
            return False
        return True

    def close(self) -> None:
        """Close every connection (after a last checkpoint)."""
        self.checkpoint()
        self.dispose()

    def dispose(self) -> None:
        """Close every connection without a checkpoint (a store that failed its check)."""
        self._writer.close()
        self.engine.dispose()
        if self._prober is not None:
            self._prober.dispose()

    def check(self) -> None:
        """Raise unless the database takes writes (not a read-only file or role, not held
        locked by another program); nothing is changed."""
        with self.engine.connect() as conn, conn.begin() as transaction:
            # A write that changes nothing still takes the write lock (SQLite) or needs the
            # right to write (PostgreSQL); rolled back.
            conn.execute(update(players).where(players.c.id == "").values(name=players.c.name))
            transaction.rollback()

    def revision(self) -> str | None:
        """The database's schema revision (Alembic's)."""
        with self.engine.connect() as conn:
            return current_revision(conn)

    def journal_mode(self) -> str:
        """SQLite's journal mode (``wal``); other databases say ``n/a``."""
        if self.engine.dialect.name != "sqlite":
            return "n/a"
        with self.engine.connect() as conn:
            return str(conn.exec_driver_sql("PRAGMA journal_mode").scalar())

    def checkpoint(self) -> None:
        """Copy SQLite's write-ahead log into the database file (its fsync is slow: the server
        runs this in a worker thread now and then, never on the event loop's writes)."""
        if self.engine.dialect.name == "sqlite":
            with self.engine.connect() as conn:
                conn.exec_driver_sql("PRAGMA wal_checkpoint(PASSIVE)")

    def _ms(self) -> int:
        return int(self.wall() * 1000)

    @reconnecting
    def _write(self, *statements: Any) -> None:
        with self._writer.begin():
            for statement in statements:
                self._writer.execute(statement)
