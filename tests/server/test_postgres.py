"""The store on PostgreSQL: a throwaway local server (``tests/pg.py``) for this module, opened
by the bare ``postgresql://user@host:port/db`` URL that docs/operations.md shows."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from pg import postgres_server
from server.kit import World, play_out, two_at_a_table
from zackzack.engine.replay import replay
from zackzack.engine.table import Settings
from zackzack.store import Status, database_url, open_store


@pytest.fixture(scope="module")
def pg_url() -> Iterator[str]:
    """A fresh PostgreSQL server: the URL of its database."""
    with postgres_server() as url:
        yield url


def test_matches_are_stored_and_restored_on_postgresql(pg_url: str) -> None:
    assert pg_url.startswith("postgresql://zackzack@127.0.0.1:")
    store = open_store(database_url(pg_url))  # as ``zackzack serve --db URL`` opens it
    try:
        assert store.engine.dialect.driver == "psycopg"  # psycopg 3, the [postgres] extra
        assert store.journal_mode() == "n/a"
        world = World(store, settings=Settings())
        anna, ben, code = two_at_a_table(world)
        anna.send(type="start")
        match_id = anna.table["match"]
        play_out(world, [anna, ben])
        record = store.match(match_id)
        assert record is not None and record.status is Status.OVER
        log = store.log(match_id)
        assert log is not None and replay(log).table.match.result == \
            world.lobby.rooms[code].table.match.result
        assert store.matches()[1] == 1

        carla, _, running = two_at_a_table(world, options={"tournament": True})
        carla.send(type="start")
        for _ in range(5):
            carla.act({"type": "draw"})
        world.lobby.journal.flush()
        playing = carla.table["match"]
        view = world.lobby.rooms[running].table.view(0)
        again = World(store, settings=Settings())  # a restart
        assert again.lobby.restore(again.identities.known) == [running]
        restored = again.lobby.rooms[running]
        assert restored.phase.value == "paused" and restored.match_id == playing
        assert restored.table.view(0).state == view.state
    finally:
        store.close()
