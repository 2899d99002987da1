"""Schema migrations: a database of release 0.1 upgrades in place, the migrated schema is the
one the queries use (SQLite and PostgreSQL), and foreign or newer databases are refused."""

from __future__ import annotations

import json
import shutil
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy import create_engine, inspect

from pg import fresh_database
from zackzack.store import Status, Store, StoreError, alembic_config, database_url, head_revision
from zackzack.store.migrate import HEAD_REVISION, _migration_engine
from zackzack.store.schema import metadata

RELEASE = Path(__file__).with_name("data") / "release-0.1.db"


def release_copy(tmp_path: Path) -> Path:
    """A copy of the release 0.1 database to upgrade."""
    copy = tmp_path / "release.db"
    shutil.copyfile(RELEASE, copy)
    return copy


def raw(path: Path) -> dict[str, Any]:
    """What the file holds, read with plain sqlite3: players, and each match's log as
    ``Store.log_json`` of release 0.1 made it, its seats, status and result."""
    with sqlite3.connect(path) as conn:
        conn.row_factory = sqlite3.Row
        found = {"players": sorted(tuple(row) for row in conn.execute(
            "SELECT id, name, token_hash, created_at FROM players")), "matches": {}}
        for row in conn.execute("SELECT * FROM matches"):
            seats = json.loads(row["seats"])
            log: dict[str, Any] = {
                "format": "zackzack-log", "version": 1, "game": row["game"],
                "options": json.loads(row["options"]), "table": json.loads(row["settings"]),
                "seed": row["seed"], "players": [seat["name"] for seat in seats]}
            if row["deal"] is not None and json.loads(row["deal"]) is not None:
                log["deal"] = json.loads(row["deal"])
            log["start_ms"] = row["start_ms"]
            log["actions"] = [{"t": t, "seat": seat, "action": json.loads(action)}
                              for t, seat, action in conn.execute(
                                  "SELECT t, seat, action FROM actions WHERE match_id = ? "
                                  "ORDER BY n", (row["id"],))]
            if row["end_ms"] is not None:
                log["end_ms"] = row["end_ms"]
            result = None if row["result"] is None else json.loads(row["result"])
            if result is not None:
                log["result"] = result
            found["matches"][row["id"]] = {
                "log": log, "seats": seats, "status": row["status"], "result": result,
                "rounds": conn.execute("SELECT count(*) FROM rounds WHERE match_id = ?",
                                       (row["id"],)).fetchone()[0]}
    return found


def schema_differences(url: str) -> list[Any]:
    """How the database's schema differs from ``schema.metadata`` (types and defaults too)."""
    engine = create_engine(url)
    try:
        with engine.connect() as conn:
            context = MigrationContext.configure(conn, opts={"compare_type": True})
            return list(compare_metadata(context, metadata))
    finally:
        engine.dispose()


def test_the_fixture_is_release_0_1() -> None:
    with sqlite3.connect(RELEASE) as conn:
        tables = {name for (name,) in conn.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table'")}
    assert tables == {"players", "matches", "match_players", "actions", "rounds"}


def test_a_release_database_upgrades_in_place_and_reads_back_unchanged(
        tmp_path: Path) -> None:
    path = release_copy(tmp_path)
    before = raw(path)
    assert len(before["matches"]) == 4 and len(before["players"]) == 7
    store = Store(database_url(str(path)))
    try:
        assert store.revision() == head_revision()
        for player_id, name, token_hash, _ in before["players"]:
            found = store.find_token(token_hash)
            assert found is not None and (found.id, found.name) == (player_id, name)
            assert not found.claimed and not found.deleted
            assert store.find_player(player_id) == found
        for match_id, old in before["matches"].items():
            assert store.log_json(match_id) == old["log"]
            record = store.match(match_id)
            assert record is not None
            assert [seat.to_json() for seat in record.seats] == old["seats"]
            assert (record.status.value, record.result) == (old["status"], old["result"])
            assert len(record.rounds) == old["rounds"]
            assert not record.rated and record.abandoned == () and record.stats is None
            assert store.log(match_id) is not None
        listed, total = store.matches()
        assert total == 4 and {m.id for m in listed} == set(before["matches"])
    finally:
        store.close()
    assert schema_differences(database_url(str(path))) == []
    with sqlite3.connect(path) as conn:
        places = conn.execute("SELECT m.result, p.seat, p.place, p.rounds FROM match_players p "
                              "JOIN matches m ON m.id = p.match_id").fetchall()
    for result, seat, place, rounds in places:  # filled in from the stored results
        if result is None or json.loads(result) is None:
            assert place is None and rounds is None
        else:
            data = json.loads(result)
            assert place == next(p["place"] for p in data["placings"] if p["seat"] == seat)
            assert rounds == data["rounds"]


def test_an_upgraded_release_database_takes_new_players_and_opens_again(
        tmp_path: Path) -> None:
    path = release_copy(tmp_path)
    before = raw(path)
    Store(database_url(str(path))).close()
    store = Store(database_url(str(path)))  # already at the head: nothing to do
    try:
        assert store.revision() == head_revision()
        player_id, _, token_hash, _ = before["players"][0]
        store.add_token(player_id, "another")
        assert store.drop_tokens(player_id, keep="another") == [token_hash]
        assert store.find_token(token_hash) is None
        store.claim(player_id, "Anna", "anna", "$argon2$…")
        assert store.account("anna") is not None
    finally:
        store.close()


def test_an_empty_database_is_migrated_from_nothing_to_the_schema_of_the_queries(
        tmp_path: Path) -> None:
    url = database_url(str(tmp_path / "new.db"))
    Store(url).close()
    assert schema_differences(url) == []


def structure(url: str) -> dict[str, Any]:
    """Every table of the database: its columns, keys, indexes and Alembic's revision."""
    engine = create_engine(url)
    try:
        with engine.connect() as conn:
            found = inspect(conn)
            tables = {table: {
                "columns": sorted((c["name"], str(c["type"]), c["nullable"], c.get("default"))
                                  for c in found.get_columns(table)),
                "primary": found.get_pk_constraint(table)["constrained_columns"],
                "foreign": sorted((tuple(f["constrained_columns"]), f["referred_table"],
                                   tuple(f["referred_columns"]))
                                  for f in found.get_foreign_keys(table)),
                "indexes": sorted((i["name"], tuple(i["column_names"]), i["unique"])
                                  for i in found.get_indexes(table)),
                "unique": sorted(tuple(u["column_names"])
                                 for u in found.get_unique_constraints(table)),
            } for table in found.get_table_names()}
            revision = conn.exec_driver_sql("SELECT version_num FROM alembic_version").scalar()
            return {"tables": tables, "revision": revision}
    finally:
        engine.dispose()


def migrated_from_nothing(url: str) -> None:
    """Run every migration on the empty database at ``url``, as an upgrade does."""
    engine = _migration_engine(url, {})
    try:
        with engine.begin() as conn:
            command.upgrade(alembic_config(conn), "head")
    finally:
        engine.dispose()


def test_the_newest_revision_known_without_alembic_is_the_last_migration() -> None:
    assert head_revision() == HEAD_REVISION


def test_a_new_database_gets_what_the_migrations_from_nothing_build(tmp_path: Path) -> None:
    new, migrated = (database_url(str(tmp_path / name)) for name in ("new.db", "migrated.db"))
    Store(new).close()
    migrated_from_nothing(migrated)
    assert structure(new) == structure(migrated)
    assert structure(new)["revision"] == HEAD_REVISION
    Store(migrated).close()  # and each opens as a database at the newest revision
    Store(new).close()


def test_migrations_go_down_to_release_0_1_and_up_again(tmp_path: Path) -> None:
    path = release_copy(tmp_path)
    before = raw(path)
    url = database_url(str(path))
    Store(url).close()
    engine = create_engine(url)
    try:
        with engine.begin() as conn:
            command.downgrade(alembic_config(conn), "0001")
    finally:
        engine.dispose()
    after = raw(path)
    assert after == before  # every player had one token: all of it comes back
    Store(url).close()
    assert schema_differences(url) == []


def test_another_programs_database_is_refused_untouched(tmp_path: Path) -> None:
    other = tmp_path / "other.db"
    with sqlite3.connect(other) as conn:
        conn.execute("CREATE TABLE players (id TEXT, email TEXT)")
    with pytest.raises(StoreError, match="not a zackzack database: its table players has no "
                                         "column token_hash, name, created_at"):
        Store(database_url(str(other)))
    with sqlite3.connect(other) as conn:
        tables = conn.execute("SELECT name FROM sqlite_master").fetchall()
    assert tables == [("players",)]


@pytest.mark.parametrize("table", ["ratings", "tokens"])
def test_a_table_of_ours_without_alembic_version_is_refused(tmp_path: Path, table: str) -> None:
    other = tmp_path / "other.db"
    with sqlite3.connect(other) as conn:
        conn.execute(f"CREATE TABLE {table} (id TEXT)")
    with pytest.raises(StoreError, match=f"it has a table {table} but no alembic_version"):
        Store(database_url(str(other)))


def test_a_database_of_a_newer_version_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "newer.db"
    Store(database_url(str(path))).close()
    with sqlite3.connect(path) as conn:
        conn.execute("UPDATE alembic_version SET version_num = '0099'")
    with pytest.raises(StoreError, match="schema revision 0099, which this version"):
        Store(database_url(str(path)))


def test_a_failed_upgrade_changes_nothing(tmp_path: Path) -> None:
    path = release_copy(tmp_path)
    with sqlite3.connect(path) as conn:  # a seat of a match that is not there
        conn.execute("INSERT INTO match_players VALUES ('m_gone', 0, 'p_nobody')")
    before = raw(path)
    with pytest.raises(StoreError, match="its table match_players refers to rows of matches"):
        Store(database_url(str(path)))
    with sqlite3.connect(path) as conn:
        tables = {name for (name,) in conn.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table'")}
    assert tables == {"players", "matches", "match_players", "actions", "rounds"}
    assert raw(path) == before


def test_on_postgresql_release_0_1_upgrades_to_the_schema_of_the_queries(
        pg_server: str) -> None:
    url = fresh_database(pg_server)
    engine = create_engine(url)
    try:
        with engine.begin() as conn:  # a database as release 0.1 left it
            command.upgrade(alembic_config(conn), "0001")
            conn.exec_driver_sql("DROP TABLE alembic_version")
            conn.exec_driver_sql("INSERT INTO players VALUES ('p_a', 'hash-a', 'Anna', 1)")
            conn.exec_driver_sql(
                "INSERT INTO matches VALUES ('m1', 'ABCDEF', 'schnelllauf', 't', '{}', '{}', 1, "
                "NULL, '[{\"seat\": 0, \"name\": \"Anna\", \"player\": \"p_a\", \"bot\": null}]',"
                " false, 'over', 1, 2, 0, 10, '{\"placings\": [{\"seat\": 0, \"place\": 1}], "
                "\"rounds\": 3}')")
            conn.exec_driver_sql("INSERT INTO match_players VALUES ('m1', 0, 'p_a')")
    finally:
        engine.dispose()
    store = Store(url)
    try:
        found = store.find_token("hash-a")
        assert found is not None and found.name == "Anna"
        record = store.match("m1")
        assert record is not None and record.status is Status.OVER and not record.rated
        profile = store.profile("p_a")
        assert profile is not None and profile.recent[0].place == 1
    finally:
        store.close()
    assert schema_differences(url) == []


def test_on_postgresql_an_empty_database_gets_the_schema_of_the_queries(pg_server: str) -> None:
    url = fresh_database(pg_server)
    Store(url).close()
    Store(url).close()
    assert schema_differences(url) == []
    migrated = fresh_database(pg_server)
    migrated_from_nothing(migrated)
    assert structure(url) == structure(migrated)
