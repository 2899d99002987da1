"""The store: write a match as it happens, read finished matches back as records and logs.

Writes come from the event loop's thread, one small committed transaction each, on one
connection; reads (the HTTP API) may come from any thread and take pooled connections.

>>> import tempfile, pathlib
>>> store = Store(database_url(str(pathlib.Path(tempfile.mkdtemp()) / "z.db")))
>>> store.journal_mode()
'wal'
>>> store.close()
"""

from __future__ import annotations

import enum
import importlib.util
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NamedTuple

import platformdirs
from sqlalchemy import (
    ColumnElement,
    Connection,
    Engine,
    create_engine,
    event,
    func,
    insert,
    inspect,
    select,
    update,
)
from sqlalchemy.engine import make_url

from zackzack.matchlog import FORMAT, VERSION, MatchLog, parse_log
from zackzack.store.schema import actions, match_players, matches, metadata, players, rounds

CONNECT_TIMEOUT = 10
"""Seconds to wait for a database server (PostgreSQL) to answer before giving up."""


class ActionRow(NamedTuple):
    """One stored action: number ``n`` of match ``match_id``, at table time ``t``."""

    match_id: str
    n: int
    t: int
    seat: int
    action: dict[str, Any]


class Status(enum.Enum):
    """Where a stored match is in its life."""

    PLAYING = "playing"
    """Started, not finished: its log grows with every action."""
    OVER = "over"
    """The match ended with a result."""
    ABANDONED = "abandoned"
    """Everybody left the running table; the log stops where they left."""


FINISHED = (Status.OVER.value, Status.ABANDONED.value)


@dataclass(frozen=True, slots=True)
class PlayerRecord:
    """A person: public id and name."""

    id: str
    name: str


@dataclass(frozen=True, slots=True)
class SeatRecord:
    """Who sat at a seat: a person (``player``) or a bot (``bot``, its spec)."""

    seat: int
    name: str
    player: str | None = None
    bot: str | None = None

    def to_json(self) -> dict[str, Any]:
        """The seat as JSON data."""
        return {"seat": self.seat, "name": self.name, "player": self.player, "bot": self.bot}


@dataclass(frozen=True, slots=True)
class MatchStart:
    """What the store needs at the start signal to replay the match later."""

    id: str
    code: str
    game: str
    title: str
    options: dict[str, Any]
    settings: dict[str, Any]
    seed: int
    deal: dict[str, Any] | None
    seats: tuple[SeatRecord, ...]
    private: bool
    start_ms: int


@dataclass(frozen=True, slots=True)
class RoundRecord:
    """One finished round: winner (``None``: nobody), reason, scores and running totals."""

    number: int
    winner: int | None
    reason: str
    scores: tuple[int, ...]
    totals: tuple[int, ...]

    def to_json(self) -> dict[str, Any]:
        """The round as JSON data."""
        return {"number": self.number, "winner": self.winner, "reason": self.reason,
                "scores": list(self.scores), "totals": list(self.totals)}


@dataclass(frozen=True, slots=True)
class MatchRecord:
    """A stored match; ``rounds`` is filled only when one match is read."""

    id: str
    code: str
    game: str
    title: str
    options: dict[str, Any]
    seats: tuple[SeatRecord, ...]
    private: bool
    status: Status
    started_at: int
    ended_at: int | None
    start_ms: int
    end_ms: int | None
    result: dict[str, Any] | None
    rounds: tuple[RoundRecord, ...] = ()

    def to_json(self) -> dict[str, Any]:
        """The match summary as JSON data (docs/protocol.md)."""
        return {
            "id": self.id, "code": self.code, "game": self.game, "title": self.title,
            "options": self.options, "players": [seat.to_json() for seat in self.seats],
            "status": self.status.value, "started_at": self.started_at,
            "ended_at": self.ended_at,
            "duration_ms": None if self.end_ms is None else self.end_ms - self.start_ms,
            "result": self.result,
        }


def default_database() -> Path:
    """The SQLite file used when no database is named: ``zackzack.db`` in the data directory."""
    return Path(platformdirs.user_data_dir("zackzack")) / "zackzack.db"


def database_url(where: str | None) -> str:
    """A SQLAlchemy URL: given as one, a file path for SQLite, or the default file. Nothing is
    created here (``open_store`` checks the folder). A ``postgresql://`` URL without a driver
    gets the installed one (SQLAlchemy 2.1 would insist on psycopg 3; ``[postgres]`` installs
    psycopg2).

    >>> database_url("/tmp/z.db")
    'sqlite:////tmp/z.db'
    >>> database_url("postgresql+psycopg2://db/zackzack")
    'postgresql+psycopg2://db/zackzack'
    """
    if where and "://" in where:
        return _with_driver(where)
    path = Path(where).expanduser() if where else default_database()
    return f"sqlite:///{path.resolve()}"


def _with_driver(url: str) -> str:
    """``postgresql://…`` as ``postgresql+DRIVER://…`` with a PostgreSQL driver that is there."""
    scheme, sep, rest = url.partition("://")
    if scheme not in ("postgresql", "postgres"):
        return url
    for module, driver in (("psycopg", "psycopg"), ("psycopg2", "psycopg2")):
        if importlib.util.find_spec(module) is not None:
            return f"postgresql+{driver}{sep}{rest}"
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


class StoreError(Exception):
    """The database cannot be used; the message is one line that says why."""


def shown(url: str) -> str:
    """The URL as it may be shown: no password, and an SQLite file as its plain path."""
    found = make_url(url)
    if found.get_backend_name() == "sqlite" and found.database not in (None, "", ":memory:"):
        return str(found.database)
    return found.render_as_string(hide_password=True)


def open_store(url: str) -> Store:
    """Open the database and check it before anything is served: its folder exists (nothing
    is created but the file itself), it is a database, it is reachable, its tables have the
    columns this version needs, and it takes writes. Any failure is a ``StoreError`` of one
    line.

    >>> open_store("sqlite:////nonexistent/folder/z.db")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    zackzack.store.db.StoreError: ... the folder /nonexistent/folder does not exist ...
    """
    try:
        found = make_url(url)
    except Exception as error:  # sqlalchemy's ArgumentError, or a port that is no number
        raise StoreError(f"the database URL is malformed: {_reason(error)}") from None
    where = shown(url)
    if found.get_backend_name() == "sqlite" and found.database not in (None, "", ":memory:") \
            and not str(found.database).startswith("file:"):
        path = Path(str(found.database))
        if path.is_dir():
            raise StoreError(f"cannot open the database {where}: it is a folder")
        if not path.parent.is_dir():
            raise StoreError(f"cannot open the database {where}: the folder {path.parent} "
                             "does not exist (create it first)")
    try:
        store = Store(url)
    except StoreError as error:
        raise StoreError(f"the database {where} {error}") from None
    except Exception as error:
        raise StoreError(f"cannot open the database {where}: {_reason(error)}") from None
    try:
        store.check()
    except Exception as error:
        store.dispose()
        raise StoreError(f"cannot use the database {where}: {_reason(error)}") from None
    return store


def _reason(error: BaseException) -> str:
    """What went wrong, in one line: the driver's own words if there are any."""
    if isinstance(error, ImportError):
        return f"its driver is not installed ({error.name or error}): pip install it"
    cause = getattr(error, "orig", None) or error
    text = " ".join(str(cause).split()) or type(cause).__name__
    return text[:300]


def _check_tables(engine: Engine) -> None:
    """Raise ``StoreError`` if a table of ours exists without the columns this version uses
    (another program's database): before anything is created in it."""
    tables = inspect(engine)
    existing = set(tables.get_table_names())
    for table in metadata.sorted_tables:
        if table.name not in existing:
            continue
        have = {column["name"] for column in tables.get_columns(table.name)}
        missing = [column.name for column in table.columns if column.name not in have]
        if missing:
            raise StoreError(f"is not a zackzack database: its table {table.name} has no "
                             f"column {', '.join(missing)}")


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    for pragma in ("journal_mode=WAL", "synchronous=NORMAL", "foreign_keys=ON",
                   "busy_timeout=5000", "wal_autocheckpoint=0"):
        cursor.execute(f"PRAGMA {pragma}")
    cursor.close()


class Store:
    """Players and matches in a SQL database (SQLite in WAL mode unless the URL says otherwise)."""

    def __init__(self, url: str, *, wall: Callable[[], float] = time.time) -> None:
        self.url = url
        self.wall = wall
        found = make_url(url)
        connect_args: dict[str, Any] = {}
        if found.get_backend_name() == "postgresql" and "connect_timeout" not in found.query:
            connect_args["connect_timeout"] = CONNECT_TIMEOUT  # an unreachable host: not minutes
        self.engine: Engine = create_engine(url, connect_args=connect_args)
        if found.get_backend_name() == "sqlite":
            event.listen(self.engine, "connect", _sqlite_pragmas)
        try:
            _check_tables(self.engine)
            metadata.create_all(self.engine)
            self._writer: Connection = self.engine.connect()
        except BaseException:
            self.engine.dispose()
            raise

    def close(self) -> None:
        """Close every connection (after a last checkpoint)."""
        self.checkpoint()
        self.dispose()

    def dispose(self) -> None:
        """Close every connection without a checkpoint (a store that failed its check)."""
        self._writer.close()
        self.engine.dispose()

    def check(self) -> None:
        """Raise unless the database takes writes (not a read-only file or role, not held
        locked by another program); nothing is changed."""
        with self.engine.connect() as conn, conn.begin() as transaction:
            # A write that changes nothing still takes the write lock (SQLite) or needs the
            # right to write (PostgreSQL); rolled back.
            conn.execute(update(players).where(players.c.id == "").values(name=players.c.name))
            transaction.rollback()

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

    def _write(self, *statements: Any) -> None:
        with self._writer.begin():
            for statement in statements:
                self._writer.execute(statement)

    # Players -----------------------------------------------------------------------------

    def find_player(self, player_id: str) -> tuple[PlayerRecord, str] | None:
        """The player with this public id and the hash of their token, if any."""
        with self.engine.connect() as conn:
            row = conn.execute(select(players.c.id, players.c.name, players.c.token_hash)
                               .where(players.c.id == player_id)).first()
        return None if row is None else (PlayerRecord(row.id, row.name), row.token_hash)

    def add_player(self, player: PlayerRecord, token_hash: str) -> None:
        """Remember a new player by the hash of their token."""
        self._write(insert(players).values(id=player.id, token_hash=token_hash,
                                           name=player.name, created_at=self._ms()))

    def rename_player(self, player_id: str, name: str) -> None:
        """Change a player's name."""
        self._write(update(players).where(players.c.id == player_id).values(name=name))

    # Writing a match as it happens ---------------------------------------------------------

    def begin_match(self, start: MatchStart) -> None:
        """The match has started: store everything but its actions."""
        row = insert(matches).values(
            id=start.id, code=start.code, game=start.game, title=start.title,
            options=start.options, settings=start.settings, seed=start.seed, deal=start.deal,
            seats=[seat.to_json() for seat in start.seats], private=start.private,
            status=Status.PLAYING.value, started_at=self._ms(), start_ms=start.start_ms)
        people = [{"match_id": start.id, "seat": s.seat, "player_id": s.player}
                  for s in start.seats if s.player is not None]
        self._write(row, *([insert(match_players).values(people)] if people else []))

    def append_actions(self, rows: Sequence[ActionRow]) -> None:
        """Store actions (``match_id``, ``n``, ``t``, ``seat``, ``action``) in one transaction."""
        if rows:
            with self._writer.begin():
                self._writer.execute(insert(actions), [row._asdict() for row in rows])

    def append_action(self, match_id: str, n: int, t: int, seat: int,
                      action: dict[str, Any]) -> None:
        """Action number ``n`` reached the table at table time ``t`` (committed at once)."""
        self.append_actions([ActionRow(match_id, n, t, seat, action)])

    def record_round(self, match_id: str, record: RoundRecord) -> None:
        """A round ended (committed before anyone is told)."""
        self._write(insert(rounds).values(
            match_id=match_id, number=record.number, winner=record.winner,
            reason=record.reason, scores=list(record.scores), totals=list(record.totals),
            ended_at=self._ms()))

    def finish_match(self, match_id: str, status: Status, end_ms: int,
                     result: dict[str, Any] | None) -> None:
        """The match ended (``OVER``, with its result) or was abandoned."""
        self._write(update(matches).where(matches.c.id == match_id).values(
            status=status.value, ended_at=self._ms(), end_ms=end_ms, result=result))

    # Reading -------------------------------------------------------------------------------

    def matches(self, *, limit: int = 50, offset: int = 0, game: str | None = None,
                player: str | None = None) -> tuple[list[MatchRecord], int]:
        """Finished public matches, newest first, and how many there are in all."""
        where: list[ColumnElement[bool]] = [matches.c.status.in_(FINISHED),
                                            matches.c.private.is_(False)]
        if game is not None:
            where.append(matches.c.game == game)
        if player is not None:
            where.append(matches.c.id.in_(select(match_players.c.match_id)
                                          .where(match_players.c.player_id == player)))
        with self.engine.connect() as conn:
            total = conn.execute(select(func.count()).select_from(matches).where(*where))
            count = int(total.scalar_one())
            rows = conn.execute(select(matches).where(*where)
                                .order_by(matches.c.ended_at.desc(), matches.c.id)
                                .limit(limit).offset(offset)).all()
        return [_record(row) for row in rows], count

    def match(self, match_id: str, *, finished: bool = True) -> MatchRecord | None:
        """One match with its rounds (``None`` if unknown, or unfinished when ``finished``)."""
        with self.engine.connect() as conn:
            row = conn.execute(select(matches).where(matches.c.id == match_id)).first()
            if row is None or (finished and row.status not in FINISHED):
                return None
            found = conn.execute(select(rounds).where(rounds.c.match_id == match_id)
                                 .order_by(rounds.c.number)).all()
        played = tuple(RoundRecord(r.number, r.winner, r.reason, tuple(r.scores),
                                   tuple(r.totals)) for r in found)
        return _record(row, played)

    def log_json(self, match_id: str, *, finished: bool = True) -> dict[str, Any] | None:
        """The match log as JSON data (docs/formats.md), or ``None`` as for ``match``."""
        with self.engine.connect() as conn:
            row = conn.execute(select(matches).where(matches.c.id == match_id)).first()
            if row is None or (finished and row.status not in FINISHED):
                return None
            found = conn.execute(select(actions.c.t, actions.c.seat, actions.c.action)
                                 .where(actions.c.match_id == match_id)
                                 .order_by(actions.c.n)).all()
        data: dict[str, Any] = {
            "format": FORMAT, "version": VERSION, "game": row.game, "options": row.options,
            "table": row.settings, "seed": row.seed,
            "players": [seat["name"] for seat in row.seats],
        }
        if row.deal is not None:
            data["deal"] = row.deal
        data["start_ms"] = row.start_ms
        data["actions"] = [{"t": t, "seat": seat, "action": action} for t, seat, action in found]
        if row.end_ms is not None:
            data["end_ms"] = row.end_ms
        if row.result is not None:
            data["result"] = row.result
        return data

    def log(self, match_id: str, *, finished: bool = True) -> MatchLog | None:
        """The parsed match log, or ``None`` as for ``match``."""
        data = self.log_json(match_id, finished=finished)
        return None if data is None else parse_log(data)

    def unfinished(self) -> list[str]:
        """The ids of matches that were playing when the server last stopped (or now)."""
        with self.engine.connect() as conn:
            found = conn.execute(select(matches.c.id)
                                 .where(matches.c.status == Status.PLAYING.value)).scalars()
            return list(found)

    def action_count(self, match_id: str) -> int:
        """How many actions of the match are stored."""
        with self.engine.connect() as conn:
            found = conn.execute(select(func.count()).select_from(actions)
                                 .where(actions.c.match_id == match_id))
            return int(found.scalar_one())


def _record(row: Any, played: Sequence[RoundRecord] = ()) -> MatchRecord:
    seats = tuple(SeatRecord(s["seat"], s["name"], s.get("player"), s.get("bot"))
                  for s in row.seats)
    return MatchRecord(
        id=row.id, code=row.code, game=row.game, title=row.title, options=row.options,
        seats=seats, private=row.private, status=Status(row.status),
        started_at=row.started_at, ended_at=row.ended_at, start_ms=row.start_ms,
        end_ms=row.end_ms, result=row.result, rounds=tuple(played))
