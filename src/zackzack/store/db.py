"""The store: players and their ratings; each match written as it happens, read back as records
and logs.

Writes come from the event loop's thread, one small committed transaction each, on one
connection (on PostgreSQL, actions on a second: one statement each, no round trips for
``BEGIN`` and ``COMMIT``); reads (the HTTP API) may come from any thread and take pooled
connections. The schema is migrated (Alembic, ``zackzack.store.migrations``) when a store is
opened.

>>> import tempfile, pathlib
>>> store = Store(database_url(str(pathlib.Path(tempfile.mkdtemp()) / "z.db")))
>>> store.journal_mode(), store.revision()
('wal', '0004')
>>> store.close()
"""

from __future__ import annotations

import enum
import functools
import importlib.util
import json
import math
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NamedTuple, ParamSpec, TypeVar

import platformdirs
from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import (
    ColumnElement,
    Connection,
    Engine,
    Select,
    Table,
    and_,
    bindparam,
    case,
    create_engine,
    delete,
    event,
    func,
    insert,
    inspect,
    or_,
    select,
    text,
    true,
    update,
)
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import make_url
from sqlalchemy.exc import DBAPIError, IntegrityError
from sqlalchemy.pool import NullPool

from zackzack.matchlog import MatchLog, log_data, parse_log
from zackzack.names import name_key
from zackzack.ratings import (
    BOARD_ACTIVE_DAYS,
    BOARD_MIN_MATCHES,
    DAY_MS,
    Pool,
    Rating,
    RatingChange,
    places,
)
from zackzack.stats import median
from zackzack.store.answering import answering, unanswered
from zackzack.store.schema import (
    actions,
    marks,
    match_players,
    matches,
    metadata,
    players,
    rating_changes,
    ratings,
    rounds,
    tokens,
)

CONNECT_TIMEOUT = 10
"""Seconds to wait for a database server (PostgreSQL) to answer before giving up."""
ANSWER_WITHIN = 2.0
"""Seconds the live server's connections wait for PostgreSQL to answer (``Store.answer_within``):
far above a healthy write (milliseconds), short enough that the event loop never stands
still for long when the database answers nothing (a write given up this way is tried again,
which is harmless: every journaled write is idempotent)."""
MIGRATIONS = Path(__file__).with_name("migrations")
"""The Alembic script folder (``env.py`` and ``versions``), shipped in the package."""
FIRST_REVISION = "0001"
"""The schema of release 0.1, whose databases have no ``alembic_version``: stamped with this."""
RELEASE_0_1 = {
    "players": ("id", "token_hash", "name", "created_at"),
    "matches": ("id", "code", "game", "title", "options", "settings", "seed", "deal", "seats",
                "private", "status", "started_at", "ended_at", "start_ms", "end_ms", "result"),
    "match_players": ("match_id", "seat", "player_id"),
    "actions": ("match_id", "n", "t", "seat", "action"),
    "rounds": ("match_id", "number", "winner", "reason", "scores", "totals", "ended_at"),
}
"""The tables and columns of release 0.1 (revision 0001): what an unversioned database has."""
RATED = Pool.RATED.value
"""The pool of rated matches (people against people): the one leaderboards show."""
RECENT = 20
"""How many recent matches a profile lists."""
HISTORY = 200
"""How many rating changes per game and pool a profile has (the newest)."""
_LOCK = 0x7A2A7A2A
"""PostgreSQL advisory lock that lets one process at a time migrate the database."""


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
    """A person: public id and name; whether the name is claimed, or the account deleted."""

    id: str
    name: str
    claimed: bool = False
    deleted: bool = False


@dataclass(frozen=True, slots=True)
class SeatRecord:
    """Who sat at a seat: a person (``player``) or a bot (``bot``, its spec); ``deleted``: a
    person who has since deleted their account (their name is then "")."""

    seat: int
    name: str
    player: str | None = None
    bot: str | None = None
    deleted: bool = False

    def to_json(self) -> dict[str, Any]:
        """The seat as JSON data (``deleted`` only when true)."""
        data: dict[str, Any] = {"seat": self.seat, "name": self.name, "player": self.player,
                                "bot": self.bot}
        if self.deleted:
            data["deleted"] = True
        return data


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
    rated: bool = False


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
    """A stored match; ``rounds`` is filled only when one match is read. ``abandoned``: the
    seats whose people had left at the end; ``stats``: each seat's statistics, if stored."""

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
    rated: bool = False
    abandoned: tuple[int, ...] = ()
    stats: list[dict[str, Any]] | None = None

    def to_json(self) -> dict[str, Any]:
        """The match summary as JSON data (docs/protocol.md)."""
        return {
            "id": self.id, "code": self.code, "game": self.game, "title": self.title,
            "options": self.options, "players": [seat.to_json() for seat in self.seats],
            "status": self.status.value, "started_at": self.started_at,
            "ended_at": self.ended_at,
            "duration_ms": None if self.end_ms is None else self.end_ms - self.start_ms,
            "result": self.result, "rated": self.rated,
        }


@dataclass(frozen=True, slots=True)
class RatingRow:
    """A player's rating in one game and pool: μ, σ, how many matches made it, the last one's
    wall time (ms)."""

    mu: float
    sigma: float
    matches: int
    last_at: int

    @property
    def rating(self) -> Rating:
        """μ and σ as a ``Rating``."""
        return Rating(self.mu, self.sigma)


@dataclass(frozen=True, slots=True)
class StoredChange:
    """A rating change with the match that made it and when (wall ms); ``seq`` is its place in
    the order changes were applied (0 for one not stored yet)."""

    match_id: str
    at: int
    change: RatingChange
    seq: int = 0


@dataclass(frozen=True, slots=True)
class RatedMatch:
    """A finished match that changed ratings, with its changes in the order they were made."""

    id: str
    game: str
    rated: bool
    status: Status
    seats: tuple[SeatRecord, ...]
    result: dict[str, Any] | None
    abandoned: tuple[int, ...]
    ended_at: int | None
    changes: tuple[StoredChange, ...]


@dataclass(frozen=True, slots=True)
class BoardRow:
    """One line of a leaderboard."""

    rank: int
    player_id: str
    name: str
    mu: float
    sigma: float
    matches: int
    last_at: int


@dataclass(frozen=True, slots=True)
class HistoryPoint:
    """A rating after one match: change ``seq``, wall time, match (``None``: a private
    table's, whose id is its secret), μ and σ."""

    seq: int
    at: int
    match_id: str | None
    mu: float
    sigma: float


@dataclass(frozen=True, slots=True)
class GameStats:
    """A player's finished matches of one game: how many, won (place 1), and totals over the
    ``counted`` ones whose statistics are stored (cards, wrong, late, rounds, table time in
    ms), with the median of their median reactions."""

    matches: int = 0
    wins: int = 0
    counted: int = 0
    played: int = 0
    wrong: int = 0
    late: int = 0
    rounds: int = 0
    played_ms: int = 0
    reaction_ms: int | None = None


@dataclass(frozen=True, slots=True)
class RecentMatch:
    """One of a player's recent public matches: the match, their seat and place."""

    match: MatchRecord
    seat: int
    place: int | None


@dataclass(frozen=True, slots=True)
class Profile:
    """Everything a player's page shows: ratings and their history per (game, pool), recent
    matches and statistics per game."""

    player: PlayerRecord
    created_at: int
    claimed_at: int | None
    ratings: dict[tuple[str, str], RatingRow] = field(default_factory=dict)
    history: dict[tuple[str, str], tuple[HistoryPoint, ...]] = field(default_factory=dict)
    recent: tuple[RecentMatch, ...] = ()
    stats: dict[str, GameStats] = field(default_factory=dict)


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


BOARD_TOTAL_FRESH_MS = 10_000
"""How long a leaderboard's count of players is used before it is counted again."""


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


class NameTaken(StoreError):
    """Another claimed player has a name with the same key."""


class Fenced(StoreError):
    """Another process took these matches over (``Store.take_match``): this one must not write
    them any more."""

    def __init__(self, match_ids: Iterable[str]) -> None:
        self.match_ids = frozenset(match_ids)
        super().__init__("taken over by another process: " + ", ".join(sorted(self.match_ids)))


def alembic_config(connection: Connection | None = None) -> Config:
    """An Alembic configuration of the package's migrations (no ``alembic.ini``), to run on
    ``connection`` (``alembic.command`` functions take it; ``Store`` migrates by itself)."""
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS).replace("%", "%%"))
    if connection is not None:
        config.attributes["connection"] = connection
    return config


def head_revision() -> str:
    """The newest schema revision this version knows."""
    head = ScriptDirectory.from_config(alembic_config()).get_current_head()
    assert head is not None
    return head


def _columns(conn: Connection) -> dict[str, set[str]]:
    """The columns of every table of the database."""
    found = inspect(conn)
    return {table: {column["name"] for column in found.get_columns(table)}
            for table in found.get_table_names()}


def _check_tables(have: Mapping[str, set[str]], revision: str | None) -> None:
    """Raise ``StoreError`` unless the tables of ours in the database have the columns their
    ``revision`` needs (release 0.1's if unversioned): before anything is changed in it."""
    if revision is None:
        need: dict[str, Sequence[str]] = dict(RELEASE_0_1)
        for table in metadata.tables:
            if table in have and table not in need:
                raise StoreError(f"is not a zackzack database: it has a table {table} but no "
                                 "alembic_version")
    elif revision == FIRST_REVISION:
        need = dict(RELEASE_0_1)
    elif revision == head_revision():
        need = {table.name: [column.name for column in table.columns]
                for table in metadata.sorted_tables}
    else:  # between the two: what both have
        need = {table: [c for c in columns if c in metadata.tables[table].c]
                for table, columns in RELEASE_0_1.items()}
    for table, columns in need.items():
        if table not in have:
            continue
        missing = [column for column in columns if column not in have[table]]
        if missing:
            raise StoreError(f"is not a zackzack database: its table {table} has no "
                             f"column {', '.join(missing)}")
    if revision is None and any(table in have for table in need):
        lacking = ", ".join(table for table in need if table not in have)
        if lacking:
            raise StoreError(f"is not a zackzack database: it has no table {lacking}")


def _migrate(engine: Engine) -> None:
    """Bring the schema to the newest revision in one transaction: an empty database from
    nothing, one of release 0.1 (no ``alembic_version``) from its revision, stamped first."""
    with engine.begin() as conn:
        if conn.dialect.name == "postgresql":
            conn.exec_driver_sql(f"SELECT pg_advisory_xact_lock({_LOCK})")
        have = _columns(conn)
        current = MigrationContext.configure(conn).get_current_revision()
        head = head_revision()
        if current == head:
            _check_tables(have, current)
            return
        if current is not None:
            try:
                ScriptDirectory.from_config(alembic_config()).get_revision(current)
            except Exception:
                raise StoreError(f"has schema revision {current}, which this version of "
                                 "zackzack does not know (a newer one made it)") from None
        _check_tables(have, current)
        config = alembic_config(conn)
        if current is None and any(table in have for table in RELEASE_0_1):
            command.stamp(config, FIRST_REVISION)
        command.upgrade(config, "head")
        if conn.dialect.name == "sqlite":
            broken = conn.exec_driver_sql("PRAGMA foreign_key_check").first()
            if broken is not None:
                raise StoreError(f"cannot be upgraded: its table {broken[0]} refers to rows "
                                 f"of {broken[2]} that are not there")


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    for pragma in ("journal_mode=WAL", "synchronous=NORMAL", "foreign_keys=ON",
                   "busy_timeout=5000", "wal_autocheckpoint=0"):
        cursor.execute(f"PRAGMA {pragma}")
    cursor.close()


def _sqlite_own_transactions(dbapi_connection: Any, record: Any) -> None:
    """The pragmas, and transactions SQLite-style (DDL inside them too), foreign keys checked
    at the end (SQLite's way of changing a table: copy, drop, rename): for migrations."""
    _sqlite_pragmas(dbapi_connection, record)
    dbapi_connection.execute("PRAGMA foreign_keys=OFF")
    dbapi_connection.isolation_level = None


def _begin_immediate(conn: Connection) -> None:
    conn.exec_driver_sql("BEGIN IMMEDIATE")


def _migration_engine(url: str, connect_args: dict[str, Any]) -> Engine:
    """An engine of its own for migrating: on SQLite its transactions hold DDL too (the
    driver's own would commit before each ``CREATE``/``ALTER``) and take the write lock first."""
    engine = create_engine(url, connect_args=connect_args, poolclass=NullPool)
    if engine.dialect.name == "sqlite":
        event.listen(engine, "connect", _sqlite_own_transactions)
        event.listen(engine, "begin", _begin_immediate)
    return engine


def _listed_and_deleted(conn: Connection, player_ids: set[str] | None
                        ) -> tuple[set[str], set[str]]:
    """Which of these players (``None``: all of them, no list of ids too long for one
    statement) a leaderboard may list (claimed, not deleted), and which deleted their account
    (they get no rating)."""
    query = (select(players.c.id, players.c.name_key, players.c.deleted_at,
                    marks.c.player_id.label("marked"))
             .outerjoin(marks, marks.c.player_id == players.c.id))
    if player_ids is not None:
        query = query.where(players.c.id.in_(sorted(player_ids)))
    found = conn.execute(query).all() if player_ids != set() else []
    return ({row.id for row in found if row.name_key is not None and row.deleted_at is None
             and row.marked is None},  # a marked player is never listed (moderation)
            {row.id for row in found if row.deleted_at is not None})


def _name_clash(error: IntegrityError) -> bool:
    """Whether the write broke the uniqueness of claimed names."""
    return "name_key" in str(error.orig)


_FINISH = update(matches).where(
    matches.c.id == bindparam("m"), matches.c.status == Status.PLAYING.value).values(
    status=bindparam("status"), ended_at=bindparam("ended_at"), end_ms=bindparam("end_ms"),
    result=bindparam("result", type_=matches.c.result.type),
    stats=bindparam("stats", type_=matches.c.stats.type),
    abandoned=bindparam("abandoned", type_=matches.c.abandoned.type))
"""A playing match finished: a match finished already is left as it is (``finish_match``
applies its ratings once, also when it is tried again after a lost commit)."""
_EPOCHS = select(matches.c.id, matches.c.epoch).where(
    matches.c.id.in_(bindparam("ids", expanding=True))).with_for_update(read=True)


def _once(table: Table, dialect: str) -> Any:
    """An insert into ``table`` that skips a row whose key is there already: a write that is
    tried again after a commit whose answer was lost stores nothing twice (``_idempotent``)."""
    if dialect == "sqlite":
        return sqlite.insert(table).on_conflict_do_nothing()
    if dialect == "postgresql":
        return postgresql.insert(table).on_conflict_do_nothing()
    return insert(table)


def _fenced_action(dialect: str) -> Any:
    return _once(actions, dialect).from_select(
        ["match_id", "n", "t", "seat", "action"],
        select(*(bindparam(f"{name}_", type_=actions.c[name].type)
                 for name in ("match_id", "n", "t", "seat", "action")))
        .where(select(matches.c.id).where(matches.c.id == bindparam("match_id_"),
                                          matches.c.epoch == bindparam("epoch_"))
               .with_for_update(read=True).exists())).execution_options(preserve_rowcount=True)


_FENCED_ACTION = {dialect: _fenced_action(dialect) for dialect in ("sqlite", "postgresql")}
"""One action, stored only if its match still has the writer's epoch (locked against a
takeover to the commit): the fence and the write in one statement (``rowcount`` 0: fenced)."""
_ONE_TRIP = text("""
WITH held AS (
    SELECT matches.id FROM matches
    JOIN unnest(CAST(:fenced AS varchar[]), CAST(:epochs AS bigint[])) AS f(id, epoch)
        ON matches.id = f.id AND matches.epoch = f.epoch
    FOR SHARE OF matches)
INSERT INTO actions (match_id, n, t, seat, action)
SELECT r.match_id, r.n, r.t, r.seat, CAST(r.action AS json)
FROM unnest(CAST(:match_ids AS varchar[]), CAST(:ns AS integer[]), CAST(:ts AS bigint[]),
            CAST(:seats AS integer[]), CAST(:actions AS text[]))
    AS r(match_id, n, t, seat, action)
WHERE (SELECT count(*) FROM held) = :held
ON CONFLICT (match_id, n) DO NOTHING
""").execution_options(preserve_rowcount=True)
"""PostgreSQL: a batch of actions in one statement, committed on its own (no ``BEGIN`` and
``COMMIT`` round trips), all of it only if every fenced match still has the writer's epoch
(locked against a takeover to the commit)."""
_SEATS = select(matches.c.seats).where(matches.c.id == bindparam("m"))
_STAT_KEYS = ("played", "wrong", "late", "reaction_ms")
_SEAT_STATS = update(match_players).where(
    match_players.c.match_id == bindparam("m"), match_players.c.seat == bindparam("s")).values(
    place=bindparam("place"), rounds=bindparam("rounds"),
    **{key: bindparam(key) for key in _STAT_KEYS})


def _fence(conn: Connection, fences: Mapping[str, int]) -> None:
    """Raise ``Fenced`` unless every match of ``fences`` still has the writer's epoch; the
    rows stay locked against a takeover (``FOR SHARE``; SQLite has one writer at a time
    anyway) to the end of the transaction, so a takeover waits for this write."""
    if not fences:
        return
    found = dict(conn.execute(_EPOCHS, {"ids": list(fences)}).all())
    lost = [match_id for match_id, epoch in fences.items() if found.get(match_id) != epoch]
    if lost:
        raise Fenced(lost)


def _upsert(insert_of: Any) -> Any:
    """Insert a rating, or move the one there: the new μ and σ, one match more, last now."""
    statement = insert_of(ratings)
    return statement.on_conflict_do_update(
        index_elements=[ratings.c.player_id, ratings.c.game, ratings.c.pool],
        set_={"mu": statement.excluded.mu, "sigma": statement.excluded.sigma,
              "matches": ratings.c.matches + 1, "last_at": statement.excluded.last_at,
              "listed": statement.excluded.listed})


_UPSERTS = {"sqlite": _upsert(sqlite.insert), "postgresql": _upsert(postgresql.insert)}


_T = TypeVar("_T")
_P = ParamSpec("_P")


def _reconnecting(write: Callable[_P, _T]) -> Callable[_P, _T]:
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


class Store:
    """Players and matches in a SQL database (SQLite in WAL mode unless the URL says otherwise)."""

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
        migrating = _migration_engine(url, connect_args)
        try:
            _migrate(migrating)
        finally:
            migrating.dispose()
        self.engine: Engine = create_engine(url, connect_args=connect_args, pool_pre_ping=True)
        """Pooled connections are pinged when taken: one that a database restart closed is
        replaced, not handed to a read (``docs/operations.md``, *Outages*)."""
        if found.get_backend_name() == "sqlite":
            event.listen(self.engine, "connect", _sqlite_pragmas)
        elif self.engine.dialect.driver == "psycopg":
            event.listen(self.engine, "do_connect", self._connect)
        try:
            self._writer: Connection = self.engine.connect()
            self._by_statement = found.get_backend_name() == "postgresql"
            """PostgreSQL: actions go on a connection of their own that commits each statement
            by itself (``_ONE_TRIP``)."""
            self._one_trip: Connection | None = None
            self._board_totals: dict[str, tuple[int, int]] = {}
            """Each leaderboard's number of players, with the wall time it was counted."""
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
        if self._one_trip is not None:
            self._one_trip.close()
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
            return MigrationContext.configure(conn).get_current_revision()

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

    @_reconnecting
    def _write(self, *statements: Any) -> None:
        with self._writer.begin():
            for statement in statements:
                self._writer.execute(statement)

    # Players -----------------------------------------------------------------------------

    def find_player(self, player_id: str) -> PlayerRecord | None:
        """The player with this public id, if any (deleted ones too, nameless)."""
        with self.engine.connect() as conn:
            row = conn.execute(select(players).where(players.c.id == player_id)).first()
        return None if row is None else _player(row)

    def find_token(self, token_hash: str) -> PlayerRecord | None:
        """The (not deleted) player known by the token with this hash, if any."""
        with self.engine.connect() as conn:
            row = conn.execute(select(players).join(tokens, tokens.c.player_id == players.c.id)
                               .where(tokens.c.token_hash == token_hash,
                                      players.c.deleted_at.is_(None))).first()
        return None if row is None else _player(row)

    def add_player(self, player: PlayerRecord, token_hash: str) -> None:
        """Remember a new player (a guest) by the hash of their token."""
        now = self._ms()
        self._write(insert(players).values(id=player.id, name=player.name, created_at=now),
                    insert(tokens).values(token_hash=token_hash, player_id=player.id,
                                          created_at=now))

    def add_token(self, player_id: str, token_hash: str) -> None:
        """The player is known by one more token (a sign-in)."""
        self._write(insert(tokens).values(token_hash=token_hash, player_id=player_id,
                                          created_at=self._ms()))

    @_reconnecting
    def drop_tokens(self, player_id: str, *, keep: str | None = None) -> list[str]:
        """Forget every token of the player but ``keep`` (a hash); the hashes forgotten."""
        where = [tokens.c.player_id == player_id]
        if keep is not None:
            where.append(tokens.c.token_hash != keep)
        with self._writer.begin():
            gone = list(self._writer.execute(select(tokens.c.token_hash).where(*where)
                                             .order_by(tokens.c.token_hash)).scalars())
            self._writer.execute(delete(tokens).where(*where))
        return gone

    def drop_token(self, token_hash: str) -> None:
        """Forget one token (a sign-out)."""
        self._write(delete(tokens).where(tokens.c.token_hash == token_hash))

    def claim(self, player_id: str, name: str, name_key: str, password_hash: str) -> None:
        """The player claims ``name`` (key ``name_key``) with a password (its hash); raises
        ``NameTaken`` if another player's claimed name has that key."""
        self._claiming(update(players).where(players.c.id == player_id).values(
            name=name, name_key=name_key, password_hash=password_hash,
            claimed_at=self._ms()),
            update(ratings).where(ratings.c.player_id == player_id,
                                  ~select(marks.c.player_id).where(
                                      marks.c.player_id == player_id).exists())
            .values(listed=True))

    def _claiming(self, *statements: Any) -> None:
        try:
            self._write(*statements)
        except IntegrityError as error:
            if _name_clash(error):
                raise NameTaken("the name is taken") from None
            raise

    def account(self, name_key: str) -> tuple[PlayerRecord, str] | None:
        """The claimed (not deleted) player whose name has this key, and their password hash."""
        with self.engine.connect() as conn:
            row = conn.execute(select(players).where(players.c.name_key == name_key,
                                                     players.c.deleted_at.is_(None))).first()
        if row is None or row.password_hash is None:
            return None
        return _player(row), row.password_hash

    def set_password_hash(self, player_id: str, password_hash: str) -> None:
        """Store a new hash of the player's password (a rehash, or a new password)."""
        self._write(update(players).where(players.c.id == player_id)
                    .values(password_hash=password_hash))

    def rename_player(self, player_id: str, name: str, name_key: str | None = None) -> None:
        """Change a player's name (a claimed player's with its new key: ``NameTaken`` if
        another claimed name has it). Past matches keep the old name."""
        values: dict[str, Any] = {"name": name}
        if name_key is not None:
            values["name_key"] = name_key
        self._claiming(update(players).where(players.c.id == player_id).values(**values))

    @_reconnecting
    def delete_player(self, player_id: str) -> None:
        """Delete the account: nameless, no claim, no tokens, no ratings; in the seats of their
        past matches the name becomes "" and the seat says ``"deleted": true``."""
        with self._writer.begin():
            conn = self._writer
            conn.execute(update(players).where(players.c.id == player_id).values(
                name="", name_key=None, password_hash=None, deleted_at=self._ms()))
            conn.execute(delete(tokens).where(tokens.c.player_id == player_id))
            conn.execute(delete(ratings).where(ratings.c.player_id == player_id))
            played = conn.execute(
                select(matches.c.id, matches.c.seats)
                .where(matches.c.id.in_(select(match_players.c.match_id)
                                        .where(match_players.c.player_id == player_id)))).all()
            changed = [{"m": match_id, "seats": [
                {**seat, "name": "", "deleted": True} if seat.get("player") == player_id
                else seat for seat in seats]} for match_id, seats in played]
            if changed:
                conn.execute(update(matches).where(matches.c.id == bindparam("m"))
                             .values(seats=bindparam("seats")), changed)

    # Ratings -------------------------------------------------------------------------------

    def ratings_of(self, player_id: str) -> dict[tuple[str, str], RatingRow]:
        """The player's ratings by (game, pool)."""
        with self.engine.connect() as conn:
            rows = conn.execute(select(ratings).where(ratings.c.player_id == player_id)).all()
        return {(row.game, row.pool): _rating_row(row) for row in rows}

    @staticmethod
    def _eligible(game: str, now_ms: int) -> list[ColumnElement[bool]]:
        """Which ratings a leaderboard of ``game`` lists at ``now_ms`` (all from the columns
        of ``ratings_board``): claimed players, enough rated matches, the last one recent."""
        return [ratings.c.game == game, ratings.c.pool == RATED, ratings.c.listed == true(),
                ratings.c.matches >= BOARD_MIN_MATCHES,
                ratings.c.last_at >= now_ms - BOARD_ACTIVE_DAYS * DAY_MS]

    def leaderboard_queries(self, game: str, *, now_ms: int, limit: int = 50,
                            offset: int = 0) -> tuple[Select[Any], Select[Any]]:
        """The statements behind ``leaderboard``: its page of rows (the names joined to the
        page alone) and its total."""
        page = (select(ratings.c.player_id, ratings.c.mu, ratings.c.sigma, ratings.c.matches,
                       ratings.c.last_at)
                .where(*self._eligible(game, now_ms))
                .order_by(ratings.c.mu.desc(), ratings.c.player_id.desc())
                .limit(limit).offset(offset).subquery("page"))
        named = (select(page, players.c.name)
                 .join(players, players.c.id == page.c.player_id)
                 .order_by(page.c.mu.desc(), page.c.player_id.desc()))
        total = select(func.count()).select_from(ratings).where(*self._eligible(game, now_ms))
        return named, total

    def leaderboard(self, game: str, *, now_ms: int, limit: int = 50,
                    offset: int = 0) -> tuple[list[BoardRow], int]:
        """The eligible players of ``game`` by rated μ, best first (ties: the later id first),
        from ``offset``; and how many are eligible in all (counted at most every
        ``BOARD_TOTAL_FRESH_MS``: counting 100,000 players costs PostgreSQL tens of ms, the
        page itself less than one). Reads an index, never matches."""
        page, total = self.leaderboard_queries(game, now_ms=now_ms, limit=limit, offset=offset)
        counted = self._board_totals.get(game)
        with self.engine.connect() as conn:
            rows = conn.execute(page).all()
            if counted is None or not 0 <= now_ms - counted[0] < BOARD_TOTAL_FRESH_MS:
                counted = self._board_totals[game] = (now_ms, int(
                    conn.execute(total).scalar_one()))
        count = counted[1]
        return [BoardRow(offset + n + 1, row.player_id, row.name, row.mu, row.sigma,
                         row.matches, row.last_at) for n, row in enumerate(rows)], count

    def rank_of(self, player_id: str, game: str, now_ms: int) -> int | None:
        """The player's place on the leaderboard of ``game`` (``None``: not on it)."""
        eligible = self._eligible(game, now_ms)
        with self.engine.connect() as conn:
            mine = conn.execute(select(ratings.c.mu)
                                .where(ratings.c.player_id == player_id, *eligible)).first()
            if mine is None:
                return None
            ahead = conn.execute(
                select(func.count()).select_from(ratings)
                .where(*eligible, or_(ratings.c.mu > mine.mu,
                                      and_(ratings.c.mu == mine.mu,
                                           ratings.c.player_id > player_id))))
            return int(ahead.scalar_one()) + 1

    def rated_matches_in_order(self) -> Iterator[RatedMatch]:
        """Every match that changed ratings, with its changes, in the order they were made
        (``zackzack ratings rebuild`` replays them)."""
        query = (select(rating_changes, matches.c.game.label("match_game"), matches.c.rated,
                        matches.c.status, matches.c.seats, matches.c.result,
                        matches.c.abandoned, matches.c.ended_at)
                 .join(matches, matches.c.id == rating_changes.c.match_id)
                 .order_by(rating_changes.c.seq))
        with self.engine.connect() as conn:
            current: Any = None
            changes: list[StoredChange] = []
            for row in conn.execution_options(stream_results=True, yield_per=2000) \
                    .execute(query):
                if current is not None and row.match_id != current.match_id:
                    yield _rated_match(current, changes)
                    changes = []
                current = row
                changes.append(_stored_change(row))
            if current is not None:
                yield _rated_match(current, changes)

    def last_rating_change(self) -> int:
        """The ``seq`` of the newest stored rating change (0: none yet)."""
        with self.engine.connect() as conn:
            return int(conn.execute(select(func.max(rating_changes.c.seq))).scalar() or 0)

    @_reconnecting
    def replace_ratings(self, changes: Sequence[StoredChange],
                        rated: Mapping[tuple[str, str, str], RatingRow], *,
                        last: int | None = None) -> None:
        """Replace every rating change (stored in the order given, ``seq`` anew) and every
        rating (by player, game and pool; deleted players get none) in one transaction.
        ``last``: the :meth:`last_rating_change` the replacement was worked out from; a
        ``StoreError`` and nothing written if a match has changed ratings since."""
        with self._writer.begin():
            conn = self._writer
            if last is not None and int(conn.execute(
                    select(func.max(rating_changes.c.seq))).scalar() or 0) != last:
                raise StoreError("a match changed ratings while they were rebuilt")
            conn.execute(delete(ratings))
            conn.execute(delete(rating_changes))
            if changes:
                conn.execute(insert(rating_changes), [_change_row(c) for c in changes])
            listed, deleted = _listed_and_deleted(conn, None)
            rows = [{"player_id": player, "game": game, "pool": Pool(pool).value, "mu": row.mu,
                     "sigma": row.sigma, "matches": row.matches, "last_at": row.last_at,
                     "listed": player in listed}
                    for (player, game, pool), row in rated.items() if player not in deleted]
            if rows:
                conn.execute(insert(ratings), rows)

    # Profiles ------------------------------------------------------------------------------

    def profile(self, key: str, *, key_of: Callable[[str], str] | None = None) -> Profile | None:
        """A (not deleted) player's profile, by public id or by claimed name (its key,
        ``key_of(key)``: by default ``zackzack.names.name_key``)."""
        with self.engine.connect() as conn:
            row = conn.execute(select(players).where(players.c.id == key)).first()
            if row is None:
                lookup = key_of or name_key
                row = conn.execute(select(players)
                                   .where(players.c.name_key == lookup(key))).first()
            if row is None or row.deleted_at is not None:
                return None
            player_id = row.id
            rated = {(r.game, r.pool): _rating_row(r) for r in conn.execute(
                select(ratings).where(ratings.c.player_id == player_id))}
            history: dict[tuple[str, str], tuple[HistoryPoint, ...]] = {}
            for game, pool in sorted(rated):
                shared = case((matches.c.private.is_(False), rating_changes.c.match_id),
                              else_=None)
                points = conn.execute(
                    select(rating_changes.c.seq, rating_changes.c.at, shared,
                           rating_changes.c.mu_after, rating_changes.c.sigma_after)
                    .join(matches, matches.c.id == rating_changes.c.match_id)
                    .where(rating_changes.c.player_id == player_id,
                           rating_changes.c.game == game, rating_changes.c.pool == pool)
                    .order_by(rating_changes.c.seq.desc()).limit(HISTORY)).all()
                history[game, pool] = tuple(HistoryPoint(*point) for point in reversed(points))
            recent = conn.execute(
                select(matches, match_players.c.seat.label("my_seat"),
                       match_players.c.place.label("my_place"))
                .join(match_players, match_players.c.match_id == matches.c.id)
                .where(match_players.c.player_id == player_id,
                       matches.c.status.in_(FINISHED), matches.c.private.is_(False))
                .order_by(matches.c.ended_at.desc(), matches.c.id).limit(RECENT)).all()
            stats = self._stats(conn, player_id)
        return Profile(player=_player(row), created_at=row.created_at, claimed_at=row.claimed_at,
                       ratings=rated, history=history,
                       recent=tuple(RecentMatch(_record(r), r.my_seat, r.my_place)
                                    for r in recent),
                       stats=stats)

    @staticmethod
    def _stats(conn: Connection, player_id: str) -> dict[str, GameStats]:
        """The player's statistics per game over their finished (``OVER``) matches."""
        with_stats = match_players.c.played.is_not(None)
        over = and_(match_players.c.player_id == player_id,
                    matches.c.status == Status.OVER.value)
        joined = match_players.join(matches, matches.c.id == match_players.c.match_id)

        def counted(column: Any) -> Any:
            return func.coalesce(func.sum(column).filter(with_stats), 0)

        totals = conn.execute(
            select(matches.c.game, func.count(), func.count().filter(match_players.c.place == 1),
                   func.count().filter(with_stats), counted(match_players.c.played),
                   counted(match_players.c.wrong), counted(match_players.c.late),
                   counted(match_players.c.rounds), counted(matches.c.end_ms - matches.c.start_ms))
            .select_from(joined).where(over).group_by(matches.c.game)).all()
        reactions: dict[str, list[int]] = {}
        for game, reaction in conn.execute(
                select(matches.c.game, match_players.c.reaction_ms).select_from(joined)
                .where(over, match_players.c.reaction_ms.is_not(None))):
            reactions.setdefault(game, []).append(reaction)
        return {game: GameStats(int(n), int(wins), int(counted_), int(played), int(wrong),
                                int(late), int(rounds_), int(ms), median(reactions.get(game, ())))
                for game, n, wins, counted_, played, wrong, late, rounds_, ms in totals}

    # Writing a match as it happens ---------------------------------------------------------

    def begin_match(self, start: MatchStart) -> None:
        """The match has started: store everything but its actions."""
        row = insert(matches).values(
            id=start.id, code=start.code, game=start.game, title=start.title,
            options=start.options, settings=start.settings, seed=start.seed, deal=start.deal,
            seats=[seat.to_json() for seat in start.seats], private=start.private,
            status=Status.PLAYING.value, started_at=self._ms(), start_ms=start.start_ms,
            rated=start.rated)
        people = [{"match_id": start.id, "seat": s.seat, "player_id": s.player}
                  for s in start.seats if s.player is not None]
        self._write(row, *([insert(match_players).values(people)] if people else []))

    @_reconnecting
    def append_actions(self, rows: Sequence[ActionRow],
                       fences: Mapping[str, int] | None = None) -> None:
        """Store actions (``match_id``, ``n``, ``t``, ``seat``, ``action``) in one transaction;
        with ``fences`` (match id: epoch), only while those matches have those epochs
        (``Fenced`` otherwise, and nothing is stored)."""
        if not rows:
            return
        held = {row.match_id: fences[row.match_id] for row in rows
                if fences and row.match_id in fences}
        conn = self._actions_connection()
        with conn.begin():  # on PostgreSQL no BEGIN is sent (autocommit): one round trip
            if len(rows) == 1 and held:  # the usual batch: the fence and the write in one
                row = rows[0]
                stored = conn.execute(_FENCED_ACTION[conn.dialect.name], {
                    "match_id_": row.match_id, "n_": row.n, "t_": row.t, "seat_": row.seat,
                    "action_": row.action, "epoch_": held[row.match_id]})
            elif len(rows) > 1 and self._by_statement:
                stored = conn.execute(_ONE_TRIP, {
                    "fenced": list(held), "epochs": list(held.values()), "held": len(held),
                    "match_ids": [row.match_id for row in rows], "ns": [row.n for row in rows],
                    "ts": [row.t for row in rows], "seats": [row.seat for row in rows],
                    "actions": [json.dumps(row.action) for row in rows]})
            else:
                _fence(conn, held)
                conn.execute(_once(actions, conn.dialect.name),
                             [row._asdict() for row in rows] if len(rows) > 1
                             else rows[0]._asdict())
                return
            if stored.rowcount != len(rows):  # fenced, or some were stored already (a replay)
                _fence(conn, held)  # raises, naming the matches taken over

    def _actions_connection(self) -> Connection:
        """Where actions are written: on PostgreSQL a connection in autocommit, opened anew
        once it broke (SQLAlchemy would reconnect it without its autocommit)."""
        if not self._by_statement:
            return self._writer
        if self._one_trip is None or self._one_trip.invalidated or self._one_trip.closed:
            if self._one_trip is not None:
                self._one_trip.close()
            self._one_trip = self.engine.connect().execution_options(
                isolation_level="AUTOCOMMIT")
        return self._one_trip

    def append_action(self, match_id: str, n: int, t: int, seat: int,
                      action: dict[str, Any]) -> None:
        """Action number ``n`` reached the table at table time ``t`` (committed at once)."""
        self.append_actions([ActionRow(match_id, n, t, seat, action)])

    @_reconnecting
    def record_round(self, match_id: str, record: RoundRecord, *,
                     epoch: int | None = None) -> None:
        """A round ended (committed before anyone is told; with ``epoch``: fenced as in
        ``append_actions``)."""
        with self._writer.begin():
            if epoch is not None:
                _fence(self._writer, {match_id: epoch})
            self._writer.execute(_once(rounds, self._writer.dialect.name).values(
                match_id=match_id, number=record.number, winner=record.winner,
                reason=record.reason, scores=list(record.scores), totals=list(record.totals),
                ended_at=self._ms()))

    @_reconnecting
    def take_match(self, match_id: str) -> int | None:
        """Take a playing match over: its epoch one higher (every write of the process that
        had it fails from now on); the new epoch, or ``None`` if it is not playing."""
        with self._writer.begin():
            found = self._writer.execute(
                update(matches).where(matches.c.id == match_id,
                                      matches.c.status == Status.PLAYING.value)
                .values(epoch=matches.c.epoch + 1).returning(matches.c.epoch)).first()
        return None if found is None else int(found[0])

    def playing(self, code: str | None = None) -> dict[str, str]:
        """The matches being played (or left playing by a crash), or the one of table
        ``code``: match id by table code."""
        query = select(matches.c.code, matches.c.id).where(
            matches.c.status == Status.PLAYING.value)
        if code is not None:
            query = query.where(matches.c.code == code)
        with self.engine.connect() as conn:
            found = conn.execute(query).all()
        return {code: match_id for code, match_id in found}

    @_reconnecting
    def finish_match(self, match_id: str, status: Status, end_ms: int,
                     result: dict[str, Any] | None, *,
                     stats: Sequence[Mapping[str, Any]] | None = None,
                     abandoned: Sequence[int] = (),
                     rated: Sequence[RatingChange] | None = None,
                     at: int | None = None, epoch: int | None = None) -> bool:
        """The match ended (``OVER``, with its result) or was abandoned, in one transaction:
        the match, each person's place (abandoned seats last) and statistics (``stats``: per
        seat ``{seat, played, wrong, late, reaction_ms}``), and the rating changes it made
        (``rated``) with the ratings they lead to. ``at``: the wall time (ms) to record, if
        the caller read it already (the ratings drifted to it); ``epoch``: fenced as in
        ``append_actions``. Only a playing match is finished (whether this call did): tried
        again after a commit whose answer was lost, nothing is applied twice."""
        now = self._ms() if at is None else at
        left = sorted(set(abandoned))
        with self._writer.begin():
            conn = self._writer
            if epoch is not None:
                _fence(conn, {match_id: epoch})
            finished = conn.execute(_FINISH, {
                "m": match_id, "status": status.value, "ended_at": now, "end_ms": end_ms,
                "result": result, "abandoned": left or None,
                "stats": None if stats is None else [dict(seat) for seat in stats]})
            if not finished.rowcount:  # finished already (tried again after a lost commit)
                return False
            everyone = conn.execute(_SEATS, {"m": match_id}).scalar_one_or_none() or []
            people = [int(seat["seat"]) for seat in everyone if seat.get("player")]
            if people:
                placed = places(result, len(everyone), left) or []
                by_seat = {int(s["seat"]): s for s in stats or ()}
                rounds_ = (result or {}).get("rounds")
                conn.execute(_SEAT_STATS, [
                    {"m": match_id, "s": seat,
                     "place": placed[seat] if seat < len(placed) else None,
                     **{key: by_seat.get(seat, {}).get(key) for key in _STAT_KEYS},
                     "rounds": rounds_ if isinstance(rounds_, int) else None}
                    for seat in people])
            if rated:
                conn.execute(insert(rating_changes),
                             [_change_row(StoredChange(match_id, now, c)) for c in rated])
                self._upsert_ratings(conn, rated, now)
        return True

    def _upsert_ratings(self, conn: Connection, changes: Sequence[RatingChange],
                        now: int) -> None:
        """The ratings after ``changes``: one match more each, the last one ``now``. A player
        who deleted their account while the match ran gets none (as in ``replace_ratings``)."""
        listed, gone = _listed_and_deleted(conn, {c.player_id for c in changes})
        rows = [{"player_id": c.player_id, "game": c.game, "pool": c.pool.value,
                 "mu": c.after.mu, "sigma": c.after.sigma, "matches": 1, "last_at": now,
                 "listed": c.player_id in listed} for c in changes if c.player_id not in gone]
        if not rows:
            return
        upsert = _UPSERTS.get(conn.dialect.name)
        if upsert is not None:
            conn.execute(upsert, rows)
            return
        for row in rows:  # another database: no portable upsert
            key = and_(ratings.c.player_id == row["player_id"], ratings.c.game == row["game"],
                       ratings.c.pool == row["pool"])
            done = conn.execute(update(ratings).where(key).values(
                mu=row["mu"], sigma=row["sigma"], matches=ratings.c.matches + 1,
                last_at=now, listed=row["listed"]))
            if not done.rowcount:
                conn.execute(insert(ratings).values(row))

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
        return log_data(row.game, row.options, row.settings, row.seed,
                        [{"t": t, "seat": seat, "action": action} for t, seat, action in found],
                        players=[seat["name"] for seat in row.seats], deal=row.deal,
                        start_ms=row.start_ms, end_ms=row.end_ms, result=row.result)

    def log(self, match_id: str, *, finished: bool = True) -> MatchLog | None:
        """The parsed match log, or ``None`` as for ``match``."""
        data = self.log_json(match_id, finished=finished)
        return None if data is None else parse_log(data)

    def action_count(self, match_id: str) -> int:
        """How many actions of the match are stored."""
        with self.engine.connect() as conn:
            found = conn.execute(select(func.count()).select_from(actions)
                                 .where(actions.c.match_id == match_id))
            return int(found.scalar_one())


def _seats(data: Sequence[Mapping[str, Any]]) -> tuple[SeatRecord, ...]:
    return tuple(SeatRecord(s["seat"], s["name"], s.get("player"), s.get("bot"),
                            bool(s.get("deleted", False))) for s in data)


def _record(row: Any, played: Sequence[RoundRecord] = ()) -> MatchRecord:
    return MatchRecord(
        id=row.id, code=row.code, game=row.game, title=row.title, options=row.options,
        seats=_seats(row.seats), private=row.private, status=Status(row.status),
        started_at=row.started_at, ended_at=row.ended_at, start_ms=row.start_ms,
        end_ms=row.end_ms, result=row.result, rounds=tuple(played), rated=bool(row.rated),
        abandoned=tuple(row.abandoned or ()), stats=row.stats)


def _player(row: Any) -> PlayerRecord:
    return PlayerRecord(row.id, row.name, claimed=row.name_key is not None,
                        deleted=row.deleted_at is not None)


def _rating_row(row: Any) -> RatingRow:
    return RatingRow(row.mu, row.sigma, row.matches, row.last_at)


def _stored_change(row: Any) -> StoredChange:
    return StoredChange(row.match_id, row.at, RatingChange(
        row.player_id, row.game, Pool(row.pool), row.seat, row.place,
        Rating(row.mu_before, row.sigma_before), Rating(row.mu_after, row.sigma_after)),
        row.seq)


def _change_row(stored: StoredChange) -> dict[str, Any]:
    change = stored.change
    return {"match_id": stored.match_id, "player_id": change.player_id, "game": change.game,
            "pool": change.pool.value, "seat": change.seat, "place": change.place,
            "mu_before": change.before.mu, "sigma_before": change.before.sigma,
            "mu_after": change.after.mu, "sigma_after": change.after.sigma, "at": stored.at}


def _rated_match(row: Any, changes: Sequence[StoredChange]) -> RatedMatch:
    return RatedMatch(row.match_id, row.match_game, bool(row.rated), Status(row.status),
                      _seats(row.seats), row.result, tuple(row.abandoned or ()), row.ended_at,
                      tuple(changes))


