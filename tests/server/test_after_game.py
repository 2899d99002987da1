"""After the game and before it: the finished match carries how each seat played; renaming."""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlalchemy import update
from starlette.testclient import TestClient

from server.kit import World, play_out, two_at_a_table
from zackzack.engine.stats import match_stats, stats_json
from zackzack.engine.table import LIVE, Settings
from zackzack.server.app import Config, create_app
from zackzack.store import Store
from zackzack.store.schema import matches


@pytest.fixture
def world(store: Store) -> World:
    """A lobby with live settings (3 s start countdown) on a virtual clock."""
    return World(store)


def test_the_finished_match_carries_the_statistics(world: World) -> None:
    anna, ben, _ = two_at_a_table(world)
    anna.send(type="start")
    assert anna.last("table")["table"]["stats"] is None
    world.wait(3.5)
    play_out(world, [anna, ben])
    for client in (anna, ben):  # the end first, then how everyone played
        kinds = [m["type"] for m in client.inbox]
        ended = next(i for i, m in enumerate(client.inbox) if m["type"] == "events"
                     and any(e["type"] == "match_ended" for e in m["events"]))
        told = len(kinds) - 1 - kinds[::-1].index("table")
        assert ended < told and client.inbox[told]["table"]["phase"] == "over"
    stats = anna.table["stats"]
    assert stats == ben.table["stats"]
    log = world.store.log(anna.table["match"])
    assert log is not None
    assert stats == stats_json(match_stats(log), [None, None])
    assert sum(seat["played"] for seat in stats) > 0
    assert all(seat["bot"] is None for seat in stats)


def test_a_bot_table_marks_the_bots_and_a_late_watcher_gets_the_statistics(world: World) -> None:
    carla = world.client("Carla")
    carla.send(type="create", game="unter-spannung",
               seats=[{"kind": "bot", "bot": "pro"}, {"kind": "bot", "bot": "beginner"}])
    carla.send(type="start")
    world.clock.run(until=3600, stop=lambda: carla.view["phase"] == "over")
    stats = carla.table["stats"]
    assert [seat["bot"] for seat in stats] == ["pro", "beginner"]
    assert all(seat["reaction_ms"] is None or seat["reaction_ms"] > 0 for seat in stats)
    dora = world.client("Dora")
    dora.send(type="watch", code=carla.table["code"])
    assert dora.table["stats"] == stats


def test_the_api_serves_the_statistics_of_a_stored_match(tmp_path: Path) -> None:
    db = tmp_path / "zz.db"
    store = Store(f"sqlite:///{db}")
    try:
        world = World(store, settings=Settings())
        anna, ben, _ = two_at_a_table(world)
        anna.send(type="start")
        play_out(world, [anna, ben])
        match_id, stats = anna.table["match"], anna.table["stats"]
    finally:
        store.close()
    with TestClient(create_app(Config(db=f"sqlite:///{db}"))) as http:
        data = http.get(f"/api/matches/{match_id}").json()
    assert data["stats"] == stats


def test_a_rename_before_the_start_reaches_the_other_player(world: World) -> None:
    anna, ben, code = two_at_a_table(world)
    replies = ben.send(type="rename", name="  Benno   B. ")
    assert replies[-1]["type"] == "table" and replies[-1]["table"]["seats"][1]["name"] == "Benno B."
    assert anna.last("table")["table"]["seats"][1]["name"] == "Benno B."
    lobby = world.client("Carla")
    lobby.send(type="lobby")
    entry = next(t for t in lobby.last("lobby")["tables"] if t["code"] == code)
    assert entry["seats"][1]["name"] == "Benno B."
    # The name is the player's: it comes back with the token.
    again = world.client(name="", token=ben.welcome["token"])
    assert again.welcome["name"] == "Benno B."


def test_a_rename_is_checked_like_a_name_at_hello(world: World) -> None:
    anna, _, _ = two_at_a_table(world)
    assert anna.error(type="rename", name="") == "bad_field"
    assert anna.error(type="rename", name="   ") == "bad_field"
    assert anna.error(type="rename", name="A\u202eB") == "bad_field"
    assert anna.error(type="rename", name="x" * 25) == "bad_field"
    assert anna.table["seats"][0]["name"] == "Anna"
    assert world.client(name=None).error(type="rename", name="Eve") == "hello_first"


def test_no_rename_at_a_table_that_has_started(world: World) -> None:
    assert world.settings is LIVE
    anna, ben, _ = two_at_a_table(world)
    anna.send(type="start")
    assert ben.error(type="rename", name="Benno") == "already_started"
    assert anna.table["seats"][1]["name"] == "Ben"


def test_a_match_that_ended_before_a_restart_has_its_statistics_after_it(store: Store) -> None:
    world = World(store, settings=Settings())
    anna, ben, code = two_at_a_table(world)
    anna.send(type="start")
    play_out(world, [anna, ben])
    stats = anna.table["stats"]
    with store.engine.begin() as conn:  # as if the crash came right after the last action
        conn.execute(update(matches).where(matches.c.id == anna.table["match"])
                     .values(status="playing", result=None, end_ms=None))
    again = World(store, settings=Settings())
    assert again.lobby.restore(again.identities.known) == [code]
    assert again.lobby.rooms[code].stats == stats
    carla = again.client("Carla")
    carla.send(type="watch", code=code)
    assert carla.table["phase"] == "over" and carla.table["stats"] == stats
