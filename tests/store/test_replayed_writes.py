"""Every write the journal may try again is idempotent (issue 26), on SQLite and PostgreSQL: when
the answer to a COMMIT that went through is lost (the connection broke just then), the journal
stores the same write once more, and nothing is stored twice: actions and rounds already there
are skipped, a match finished already is left as it is (its ratings applied once)."""

from __future__ import annotations

from typing import Any

from sqlalchemy import func, select

from store.kit import guest
from zackzack.ratings import NEW, Pool, update
from zackzack.ratings import RatingChange as Change
from zackzack.store import ActionRow, MatchStart, RoundRecord, SeatRecord, Status, Store
from zackzack.store.schema import rating_changes

GAME = "unter-spannung"


def _row(match_id: str, n: int) -> ActionRow:
    return ActionRow(match_id, n, 10 * n, n % 2, {"type": "draw", "n": n})


def _count(store: Store, table: Any) -> int:
    with store.engine.connect() as conn:
        return int(conn.execute(select(func.count()).select_from(table)).scalar_one())


def test_writes_tried_again_after_a_lost_commit_store_nothing_twice(store: Store) -> None:
    guest(store, "p_a")
    guest(store, "p_b")
    seats = (SeatRecord(0, "A", "p_a"), SeatRecord(1, "B", "p_b"))
    store.begin_match(MatchStart("m1", "ABCDEF", GAME, "t", {"players": 2}, {}, 1, None, seats,
                                 False, 0, rated=True))
    batches: list[tuple[list[ActionRow], dict[str, int] | None]] = [
        ([_row("m1", 0)], None),  # unfenced (standalone)
        ([_row("m1", 1)], {"m1": 0}),  # fenced, one action: the fence in its INSERT
        ([_row("m1", 2), _row("m1", 3)], {"m1": 0}),  # fenced batch (PostgreSQL: one trip)
        ([_row("m1", 4), _row("m1", 5)], None)]
    for rows, fences in batches:
        store.append_actions(rows, fences)
        store.append_actions(rows, fences)  # the same write again: its commit "was lost"
    # a retry that holds more than the lost write: the new ones are stored, the old skipped
    store.append_actions([_row("m1", 5), _row("m1", 6)], {"m1": 0})
    store.append_actions([_row("m1", 6), _row("m1", 7)])
    log = store.log_json("m1", finished=False)
    assert log is not None and [a["action"]["n"] for a in log["actions"]] == list(range(8))

    first = RoundRecord(1, 0, "out", (0, 3), (0, 3))
    store.record_round("m1", first, epoch=0)
    store.record_round("m1", first, epoch=0)
    store.record_round("m1", first)
    record = store.match("m1", finished=False)
    assert record is not None and record.rounds == (first,)

    after = update([NEW, NEW], [1, 2], GAME)
    changes = [Change("p_a", GAME, Pool.RATED, 0, 1, NEW, after[0]),
               Change("p_b", GAME, Pool.RATED, 1, 2, NEW, after[1])]
    result = {"placings": [{"seat": 0, "place": 1}, {"seat": 1, "place": 2}]}
    assert store.finish_match("m1", Status.OVER, 100, result, rated=changes, at=5, epoch=0)
    assert not store.finish_match("m1", Status.OVER, 100, result, rated=changes, at=6,
                                  epoch=0)  # tried again: finished already
    assert not store.finish_match("m1", Status.ABANDONED, 100, None)  # a late close
    record = store.match("m1")
    assert record is not None and record.status is Status.OVER and record.ended_at == 5
    assert _count(store, rating_changes) == 2
    assert store.ratings_of("p_a")[GAME, "rated"].matches == 1
    assert store.ratings_of("p_b")[GAME, "rated"].matches == 1
    assert store.ratings_of("p_a")[GAME, "rated"].mu == after[0].mu
