"""A store that cannot take writes never breaks a table (issue 26): SQLite with a full disk,
injected at the store's seam (every write of the database connection fails as SQLite says
"database or disk is full"), on the virtual clock. The table pauses while its writes wait,
goes on by itself within a second or so of the store's return (plus its 3-2-1), and the
match is stored once with every action."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import event, func, select

from server.kit import World, play_out
from zackzack.engine.replay import replay
from zackzack.engine.table import Phase
from zackzack.server.room import RESUME_MS
from zackzack.store import Status, Store
from zackzack.store.schema import rating_changes


class DiskFull:
    """Every write statement fails while ``full`` (reads go on, as on a full disk)."""

    def __init__(self, store: Store) -> None:
        self.full = False
        self.refused = 0
        event.listen(store.engine, "before_cursor_execute", self._check)

    def _check(self, _conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        if self.full and statement.lstrip().split(None, 1)[0].upper() in (
                "INSERT", "UPDATE", "DELETE", "WITH"):
            self.refused += 1
            raise sqlite3.OperationalError("database or disk is full")


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    found = Store(f"sqlite:///{tmp_path / 'zz.db'}")
    yield found
    found.close()


def test_a_full_disk_pauses_the_table_which_goes_on_by_itself(store: Store) -> None:
    disk = DiskFull(store)
    world = World(store)
    told: list[bool] = []
    world.lobby.on_store = told.append
    carla = world.client("Carla")
    carla.send(type="create", game="unter-spannung", options={"tournament": True},
               seats=[{"kind": "bot", "bot": "pro"}, {"kind": "bot", "bot": "normal"}])
    carla.send(type="start")
    code, match_id = carla.table["code"], carla.table["match"]
    room = world.lobby.rooms[code]
    journal = world.lobby.journal
    world.clock.run(until=world.clock.time() + 30,
                    stop=lambda: len(room.table.log) > 10)
    assert room.phase is Phase.PLAYING

    disk.full = True  # from now on nothing can be stored
    world.clock.run(until=world.clock.time() + 20, stop=lambda: room.phase is Phase.PAUSED)
    assert room.phase is Phase.PAUSED and room.store_waiting and journal.behind
    assert told == [True]
    entries = len(room.table.log)
    world.wait(15)  # the outage: the table stands still, the journal keeps trying
    assert room.phase is Phase.PAUSED and len(room.table.log) == entries
    assert journal.tries > 5 and journal.queue and disk.refused >= journal.tries

    disk.full = False
    back = world.clock.time()
    world.clock.run(until=back + 5, stop=lambda: told[-1] is False)
    assert not journal.behind and world.clock.time() - back <= 1.0  # the backoff's last step
    assert told == [True, False]
    world.clock.run(until=back + 10, stop=lambda: room.phase is not Phase.PAUSED)
    assert room.phase is not Phase.PAUSED
    assert world.clock.time() - back <= 1.0 + RESUME_MS / 1000 + 0.1  # the fault + 5 s
    assert store.action_count(match_id) == entries  # every action that reached the table

    world.clock.run(until=world.clock.time() + 3600, stop=lambda: room.phase is Phase.OVER)
    assert room.phase is Phase.OVER and not journal.queue
    record = store.match(match_id)
    assert record is not None and record.status is Status.OVER
    assert len(record.rounds) == len(room.table.match.results)  # each round stored once
    log = store.log(match_id)
    assert log is not None and len(log.actions) == len(room.table.log)
    assert replay(log).table.match.result == room.table.match.result
    assert store.matches()[1] == 1


def test_a_round_that_ends_while_the_disk_is_full_is_stored_once_it_has_room(
        store: Store) -> None:
    disk = DiskFull(store)
    world = World(store)
    carla = world.client("Carla")
    carla.send(type="create", game="unter-spannung",
               seats=[{"kind": "bot", "bot": "pro"}, {"kind": "bot", "bot": "pro"}])
    carla.send(type="start")
    code, match_id = carla.table["code"], carla.table["match"]
    room = world.lobby.rooms[code]
    journal = world.lobby.journal
    ended: list[Any] = []
    stored_at_end: list[int] = []

    def on_result(*args: Any) -> None:  # the round is over in memory: now the disk fills
        disk.full = True
        ended.append(args)
        original(*args)
        stored_at_end.append(len(store.match(match_id, finished=False).rounds))  # type: ignore[union-attr]

    original, room.table.on_result = room.table.on_result, on_result
    world.clock.run(until=world.clock.time() + 3600, stop=lambda: bool(ended))
    assert ended and stored_at_end == [0] and journal.behind  # not stored, kept
    world.wait(10)
    assert store.match(match_id, finished=False).rounds == ()  # type: ignore[union-attr]
    assert room.table.match.result is not None or room.phase is Phase.PAUSED
    disk.full = False
    world.clock.run(until=world.clock.time() + 5, stop=lambda: not journal.behind)
    assert not journal.behind
    record = store.match(match_id, finished=False)
    assert record is not None and len(record.rounds) == 1
    world.clock.run(until=world.clock.time() + 3600, stop=lambda: room.phase is Phase.OVER)
    record = store.match(match_id)
    assert record is not None and record.status is Status.OVER
    assert len(record.rounds) == len(room.table.match.results)


def test_writes_whose_commit_answer_is_lost_are_stored_once(
        store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every round's result, the match's end (with its ratings) and every other batch of
    actions commit, and then the answer is lost (the connection breaks just after the COMMIT
    went through): the journal tries them again, and nothing is stored twice."""
    world = World(store)
    anna, ben = world.member("Anna"), world.member("Ben")
    anna.send(type="create", game="unter-spannung", rated=True,
              seats=[{"kind": "open"}, {"kind": "open"}])
    code = anna.table["code"]
    ben.send(type="join", code=code, seat=None)
    ben.send(type="ready", ready=True)
    anna.send(type="start")
    match_id = anna.table["match"]
    room = world.lobby.rooms[code]
    statements: list[str] = []
    lost: list[str] = []
    event.listen(store.engine, "before_cursor_execute",
                 lambda _c, _cur, statement, *_a: statements.append(statement))
    real = store.engine.dialect.do_commit

    commits = {"actions": 0}

    def lose_the_answer(dbapi_connection: Any) -> None:
        real(dbapi_connection)
        kinds = " ".join(statements)
        statements.clear()
        kind = ("round" if "INSERT INTO rounds" in kinds else
                "end" if "UPDATE matches" in kinds else
                "actions" if "INSERT INTO actions" in kinds else None)
        if kind == "actions":
            commits["actions"] += 1
        if kind is None or (kind == "actions" and not commits["actions"] % 2) \
                or lost[-1:] == [kind]:
            lost.append("")  # (a write's retry: its answer arrives)
            return
        lost.append(kind)
        raise sqlite3.OperationalError("disk I/O error")

    monkeypatch.setattr(store.engine.dialect, "do_commit", lose_the_answer)
    play_out(world, [anna, ben])
    world.clock.run(until=world.clock.time() + 60, stop=lambda: not world.lobby.journal.queue)
    assert room.phase is Phase.OVER and not world.lobby.journal.queue
    assert "round" in lost and "end" in lost and "actions" in lost
    record = store.match(match_id)
    assert record is not None and record.status is Status.OVER
    assert len(record.rounds) == len(room.table.match.results)
    assert store.action_count(match_id) == len(room.table.log)
    with store.engine.connect() as conn:
        changes = conn.execute(select(func.count()).select_from(rating_changes)).scalar_one()
    assert changes == 2  # the ratings applied once
    for player in (anna.player, ben.player):
        assert store.ratings_of(player)["unter-spannung", "rated"].matches == 1
