"""Actions in the store, on SQLite and PostgreSQL alike: a batch is stored whole or not at all,
and fenced by its matches' epochs (on PostgreSQL in one statement, committed on its own)."""

from __future__ import annotations

import random
import threading
import time

import pytest
from sqlalchemy import create_engine, text, update
from sqlalchemy.exc import DBAPIError, IntegrityError

from pg import fresh_database
from zackzack.store import ActionRow, Fenced, MatchStart, RoundRecord, Store
from zackzack.store.schema import matches


def _begin(store: Store, match_id: str) -> None:
    store.begin_match(MatchStart(id=match_id, code=match_id.upper()[:6], game="unter-spannung",
                                 title="t", options={}, settings={}, seed=1, deal=None,
                                 seats=(), private=False, start_ms=0))


def _row(match_id: str, n: int) -> ActionRow:
    return ActionRow(match_id, n, 10 * n, n % 4, {"type": "play", "card": f"{n % 10}r",
                                                     "note": "ä \"q\""})


def test_batches_are_stored_whole_with_their_actions_as_they_were(store: Store) -> None:
    for match_id in ("a", "b"):
        _begin(store, match_id)
    store.append_actions([_row("a", 0)])
    store.append_actions([_row("a", 1), _row("b", 0), _row("a", 2)], {"b": 0})
    store.append_actions([])
    log = store.log_json("a", finished=False)
    assert log is not None
    assert [(a["t"], a["seat"], a["action"]) for a in log["actions"]] == [
        (row.t, row.seat, row.action) for row in map(_row, "aaa", range(3))]
    assert store.action_count("b") == 1
    with pytest.raises(IntegrityError):  # an action of a match that is not there
        store.append_actions([_row("b", 1), _row("nowhere", 0)])
    assert store.action_count("b") == 1, "a failed batch stores nothing"


def test_any_stale_fence_keeps_the_whole_batch_out_and_names_its_matches(store: Store) -> None:
    rng = random.Random(7)
    matches = ["m0", "m1", "m2"]
    for match_id in matches:
        _begin(store, match_id)
    epochs = dict.fromkeys(matches, 0)
    next_n = dict.fromkeys(matches, 0)
    for _ in range(40):
        if rng.random() < 0.2:
            taken = rng.choice(matches)
            assert store.take_match(taken) == epochs[taken] + 1
            epochs[taken] += 1
        believed = {m: epochs[m] - (rng.random() < 0.25) for m in matches}
        batch = [rng.choice(matches) for _ in range(rng.randint(1, 5))]
        rows: list[ActionRow] = []
        for match_id in batch:
            earlier = [row for row in rows if row.match_id == match_id]
            rows.append(_row(match_id, next_n[match_id] + len(earlier)))
        fences = {m: believed[m] for m in set(batch) if rng.random() < 0.8}
        stale = {m for m, epoch in fences.items() if epoch != epochs[m]}
        before = {m: store.action_count(m) for m in matches}
        if stale:
            with pytest.raises(Fenced) as lost:
                store.append_actions(rows, fences)
            assert lost.value.match_ids == stale
            assert {m: store.action_count(m) for m in matches} == before
        else:
            store.append_actions(rows, fences)
            for match_id in batch:
                next_n[match_id] += 1
            assert {m: store.action_count(m) for m in matches} == next_n


def test_a_connection_postgresql_dropped_is_renewed_in_autocommit(
        pg_server: str) -> None:
    url = fresh_database(pg_server)
    store = Store(url)
    try:
        _begin(store, "a")
        store.append_actions([_row("a", 0)])
        store.record_round("a", RoundRecord(1, 0, "out", (0, 1), (0, 1)))
        killer = create_engine(url, isolation_level="AUTOCOMMIT")
        with killer.connect() as conn:  # as a restart or a fail-over of the server would
            dropped = conn.execute(text(
                "SELECT count(*) FILTER (WHERE pg_terminate_backend(pid)) FROM pg_stat_activity "
                "WHERE datname = current_database() AND pid <> pg_backend_pid()")).scalar()
        killer.dispose()
        assert dropped and dropped >= 2
        failures = 0
        for attempt in ([_row("a", 1)], [_row("a", 2), _row("a", 3)]):
            while True:  # the journal's way: a failed batch is kept and tried again
                try:
                    store.append_actions(attempt, {"a": 0})
                    break
                except DBAPIError:
                    failures += 1
                    assert failures <= 2, "the broken connection was not renewed"
        assert store.action_count("a") == 4
        for _ in range(2):  # the other writing connection was dropped too: renewed as well
            try:
                store.record_round("a", RoundRecord(2, 1, "out", (1, 0), (1, 1)))
                break
            except DBAPIError:
                pass
        record = store.match("a", finished=False)
        assert record is not None and [r.number for r in record.rounds] == [1, 2]
        renewed = store._actions_connection().connection.driver_connection
        assert renewed is not None and renewed.autocommit, "one round trip, also after a drop"
    finally:
        store.close()


def test_a_write_that_waits_for_a_takeover_finds_the_match_taken(pg_server: str) -> None:
    url = fresh_database(pg_server)
    store = Store(url)
    other = create_engine(url)
    try:
        _begin(store, "a")
        outcome: list[BaseException | None] = []

        def write() -> None:
            try:
                store.append_actions([_row("a", 0), _row("a", 1)], {"a": 0})
                outcome.append(None)
            except BaseException as error:
                outcome.append(error)

        with other.connect() as conn, conn.begin():  # a takeover, not yet committed
            conn.execute(update(matches).where(matches.c.id == "a")
                         .values(epoch=matches.c.epoch + 1))
            writer = threading.Thread(target=write)
            writer.start()
            with other.connect() as watch:  # the write waits for the takeover's lock
                for _ in range(1000):
                    waiting = watch.execute(text(
                        "SELECT count(*) FROM pg_stat_activity WHERE datname = "
                        "current_database() AND wait_event_type = 'Lock'")).scalar()
                    watch.rollback()  # the activity is a snapshot per transaction
                    if waiting:
                        break
                    time.sleep(0.01)
                else:
                    pytest.fail("the write never waited for the takeover")
        writer.join(10)
        assert len(outcome) == 1 and isinstance(outcome[0], Fenced)
        assert outcome[0].match_ids == {"a"} and store.action_count("a") == 0
    finally:
        other.dispose()
        store.close()
