"""Restoring after a crash, the odd cases: an end that was not stored yet, a broken log."""

from __future__ import annotations

from sqlalchemy import delete, update

from server.kit import World, play_out, two_at_a_table
from zackzack.engine.table import Settings
from zackzack.store import Status, Store
from zackzack.store.schema import actions, matches, rounds


def test_a_match_whose_end_was_not_stored_is_stored_at_the_restart(store: Store) -> None:
    world = World(store, settings=Settings())
    anna, ben, code = two_at_a_table(world, options={"tournament": True})
    anna.send(type="start")
    play_out(world, [anna, ben])
    match_id = anna.table["match"]
    result = store.match(match_id)
    assert result is not None and len(result.rounds) == 4
    with store.engine.begin() as conn:  # as if the crash came right after the last action
        conn.execute(update(matches).where(matches.c.id == match_id)
                     .values(status="playing", result=None, end_ms=None))
        conn.execute(delete(rounds).where(rounds.c.match_id == match_id, rounds.c.number >= 3))
    again = World(store, settings=Settings())
    assert again.lobby.restore(again.identities.known) == [code]
    assert again.lobby.rooms[code].phase.value == "over"
    record = store.match(match_id)
    assert record is not None and record.status is Status.OVER
    assert record.result == result.result and record.rounds == result.rounds


def test_a_broken_log_is_stored_as_abandoned_and_the_others_come_back(store: Store) -> None:
    world = World(store, settings=Settings())
    anna, _, good = two_at_a_table(world)
    anna.send(type="start")
    carla, _, _ = two_at_a_table(world)
    carla.send(type="start")
    anna.act({"type": "draw"})
    carla.act({"type": "draw"})
    world.lobby.journal.flush()
    broken = carla.table["match"]
    with store.engine.begin() as conn:
        conn.execute(update(actions).where(actions.c.match_id == broken)
                     .values(action={"type": "dance"}))
    again = World(store, settings=Settings())
    assert again.lobby.restore(again.identities.known) == [good]
    record = store.match(broken)
    assert record is not None and record.status is Status.ABANDONED
    assert again.lobby.rooms[good].phase.value == "paused"
