"""The schema's revisions: Alembic's migrations (``zackzack.store.migrations``) run when a store
is opened, after a check that the database is ours (release 0.1's had no ``alembic_version``).

Alembic is imported only when a database needs migrating: a store at :data:`HEAD_REVISION`
opens without it (a sixth of ``zackzack serve``'s start-up; ``docs/operations.md``, *Load*).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sqlalchemy import (
    Column,
    Connection,
    Engine,
    MetaData,
    PrimaryKeyConstraint,
    String,
    Table,
    create_engine,
    event,
    inspect,
)
from sqlalchemy.pool import NullPool

from zackzack.store.connecting import StoreError, sqlite_pragmas
from zackzack.store.schema import metadata

if TYPE_CHECKING:
    from alembic.config import Config

MIGRATIONS = Path(__file__).with_name("migrations")
"""The Alembic script folder (``env.py`` and ``versions``), shipped in the package."""
HEAD_REVISION = "0005"
"""The newest schema revision this version knows (the last of ``migrations/versions``; a
test holds it to Alembic's ``head_revision``)."""
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
_VERSIONS = Table("alembic_version", MetaData(), Column("version_num", String(32), nullable=False),
                  PrimaryKeyConstraint("version_num", name="alembic_version_pkc"))
"""Alembic's record of the schema revision, as Alembic makes it."""
_LOCK = 0x7A2A7A2A
"""PostgreSQL advisory lock that lets one process at a time migrate the database."""


def alembic_config(connection: Connection | None = None) -> Config:
    """An Alembic configuration of the package's migrations (no ``alembic.ini``), to run on
    ``connection`` (``alembic.command`` functions take it; ``Store`` migrates by itself)."""
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS).replace("%", "%%"))
    if connection is not None:
        config.attributes["connection"] = connection
    return config


def head_revision() -> str:
    """The newest schema revision of the migrations folder, as Alembic reads it."""
    from alembic.script import ScriptDirectory

    head = ScriptDirectory.from_config(alembic_config()).get_current_head()
    assert head is not None
    return head


def current_revision(conn: Connection, tables: Collection[str] | None = None) -> str | None:
    """The database's schema revision (``alembic_version``; ``None``: unversioned), read
    without Alembic; ``tables``: the database's tables, if they are known already."""
    if "alembic_version" not in (inspect(conn).get_table_names() if tables is None else tables):
        return None
    version = conn.exec_driver_sql("SELECT version_num FROM alembic_version").scalar()
    return None if version is None else str(version)


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
    elif revision == HEAD_REVISION:
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
    """Bring the schema to the newest revision in one transaction: a database without tables
    of ours at once (``_create``), one of release 0.1 (no ``alembic_version``) from its
    revision, stamped first, any other from its revision."""
    with engine.begin() as conn:
        if conn.dialect.name == "postgresql":
            conn.exec_driver_sql(f"SELECT pg_advisory_xact_lock({_LOCK})")
        have = _columns(conn)
        current = current_revision(conn, have)
        if current == HEAD_REVISION:
            _check_tables(have, current)
            return
        if current is None and not have.keys() & metadata.tables.keys():
            _create(conn)
            return
        from alembic import command
        from alembic.script import ScriptDirectory

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


def _create(conn: Connection) -> None:
    """A new database: the newest schema at once, stamped with its revision. What the
    migrations from nothing build (a test holds the two equal), without loading Alembic or
    running five revisions: a new server starts sooner (``docs/operations.md``, *Load*)."""
    metadata.create_all(conn)
    _VERSIONS.create(conn)
    conn.execute(_VERSIONS.insert().values(version_num=HEAD_REVISION))


def _sqlite_own_transactions(dbapi_connection: Any, record: Any) -> None:
    """The pragmas, and transactions SQLite-style (DDL inside them too), foreign keys checked
    at the end (SQLite's way of changing a table: copy, drop, rename): for migrations."""
    sqlite_pragmas(dbapi_connection, record)
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


def upgrade(url: str, connect_args: dict[str, Any]) -> None:
    """Bring the database at ``url`` to the newest revision (``_migrate``) on an engine of its
    own, closed afterwards."""
    migrating = _migration_engine(url, connect_args)
    try:
        _migrate(migrating)
    finally:
        migrating.dispose()
