"""Fencing: once another process took a match over, the old owner's writes change nothing."""

from __future__ import annotations

import asyncio
import random

import pytest

from server.kit import World, run_async, two_at_a_table
from server.test_connection import FakeSocket, until
from zackzack.bots import Bot
from zackzack.engine.clock import VirtualClock
from zackzack.engine.table import Phase, Settings, Table
from zackzack.games import unter_spannung as us
from zackzack.games.errors import IllegalAction
from zackzack.server.botmaker import Bots
from zackzack.server.connection import Connection
from zackzack.server.identity import Identities
from zackzack.server.limits import Limits
from zackzack.server.lobby import Lobby
from zackzack.server.session import Session
from zackzack.store import ActionRow, Fenced, MatchStart, RoundRecord, Status, Store


def _begin(store: Store, match_id: str, code: str) -> None:
    store.begin_match(MatchStart(id=match_id, code=code, game="unter-spannung", title="t",
                                 options={}, settings={}, seed=1, deal=None, seats=(),
                                 private=False, start_ms=0))


def test_a_takeover_raises_the_epoch_and_the_old_epoch_writes_nothing(store: Store) -> None:
    _begin(store, "old", "K7M2QX")
    _begin(store, "other", "PRIVATECODE12")  # a private table's code fits (12 letters)
    store.append_actions([ActionRow("old", 0, 10, 0, {"type": "draw"})], {"old": 0})
    assert store.playing() == {"K7M2QX": "old", "PRIVATECODE12": "other"}
    assert store.take_match("old") == 1
    with pytest.raises(Fenced) as lost:  # one stale match spoils the whole batch
        store.append_actions([ActionRow("other", 0, 5, 0, {"type": "draw"}),
                              ActionRow("old", 1, 20, 1, {"type": "draw"})],
                             {"old": 0, "other": 0})
    assert lost.value.match_ids == {"old"}
    with pytest.raises(Fenced):  # a batch of one: the fence is in its INSERT
        store.append_actions([ActionRow("old", 1, 20, 1, {"type": "draw"})], {"old": 0})
    assert store.action_count("old") == 1 and store.action_count("other") == 0
    with pytest.raises(Fenced):
        store.record_round("old", RoundRecord(1, 0, "out", (0, 3), (0, 3)), epoch=0)
    with pytest.raises(Fenced):
        store.finish_match("old", Status.ABANDONED, 30, None, epoch=0)
    store.append_actions([ActionRow("old", 1, 20, 1, {"type": "draw"})], {"old": 1})
    store.record_round("old", RoundRecord(1, 0, "out", (0, 3), (0, 3)), epoch=1)
    record = store.match("old", finished=False)
    assert record is not None and record.status is Status.PLAYING and len(record.rounds) == 1
    assert store.take_match("old") == 2
    store.finish_match("old", Status.ABANDONED, 30, None, epoch=2)
    assert store.take_match("old") is None  # finished: nothing to take over
    assert store.playing() == {"PRIVATECODE12": "other"}


def test_a_room_whose_match_was_taken_over_drops_out_and_sends_its_people_on(
        store: Store) -> None:
    world = World(store, settings=Settings())
    world.lobby.journal.fencing = True  # as in a cluster
    anna, ben, code = two_at_a_table(world)
    anna.send(type="start")
    world.wait(5)
    anna.act({"type": "draw"})
    world.lobby.journal.flush()
    match_id = anna.table["match"]
    stored = store.action_count(match_id)
    assert stored >= 1

    assert store.take_match(match_id) == 1  # another process took it over
    replies = ben.send(type="act", ref=1, action={"type": "draw"})
    world.lobby.journal.flush()
    assert store.action_count(match_id) == stored  # the stale action was not stored
    assert code not in world.lobby.rooms
    for client in (anna, ben):
        assert client.last("moved") == {"type": "moved", "code": code, "url": None}
    assert replies[-1]["type"] == "ack"  # in the kit: at once (a connection: never, below)

    heir = World(store, settings=Settings())  # the new owner restores it from the journal
    heir.lobby.journal.fencing = True
    assert heir.lobby.take_over(code, match_id)
    assert heir.lobby.rooms[code].entries == stored
    assert heir.lobby.journal.epoch(match_id) == 2


def test_a_connection_never_sends_what_a_fenced_write_could_not_store(store: Store) -> None:
    run_async(fenced_over_a_connection(store))


async def fenced_over_a_connection(store: Store) -> None:
    """The events and the ack of an action whose match was taken over meanwhile are never
    written to the socket: the client hears ``moved`` instead."""
    loop = asyncio.get_running_loop()
    lobby = Lobby(clock=loop, store=store, bots=Bots(), settings=Settings())
    lobby.journal.fencing = True
    identities = Identities(store)
    socket = FakeSocket()
    connection = Connection(
        socket,  # type: ignore[arg-type]
        lambda c: Session(lobby, identities, "http://test", c.send, c.restart), Limits(), loop,
        before_send=lobby.journal.flush)
    task = asyncio.create_task(connection.serve())
    socket.feed(type="hello", name="Anna")
    socket.feed(type="create", game="unter-spannung",
                seats=[{"kind": "open"}, {"kind": "bot", "bot": "beginner"}])
    await until(lambda: bool(socket.of("table")))
    code = socket.of("table")[0]["table"]["code"]
    socket.feed(type="start")
    await until(lambda: lobby.rooms[code].phase.value == "playing", 10)
    room = lobby.rooms[code]
    socket.feed(type="act", ref=1, action={"type": "draw"})
    await until(lambda: bool(socket.of("ack")))
    assert room.match_id is not None
    stored = store.action_count(room.match_id)

    assert store.take_match(room.match_id) == 1
    heard = len(socket.sent)
    socket.feed(type="act", ref=2, action={"type": "draw"})
    await until(lambda: bool(socket.of("moved")))
    assert [m["type"] for m in socket.sent[heard:]] == ["moved"]
    assert store.action_count(room.match_id) == stored and code not in lobby.rooms
    socket.incoming.put_nowait({"type": "websocket.disconnect", "code": 1000})
    await asyncio.wait_for(task, 5)


def test_a_table_halted_while_it_scores_a_round_stays_still() -> None:
    """A fenced round result releases the room from inside the table's own call: the table
    must not go on to the next round by itself (nothing of it would be stored)."""
    table = Table(us, us.Options(players=2, tournament=True), clock=VirtualClock(), seed=3,
                  settings=Settings(between_rounds_ms=8000))
    bots = [Bot(table, seat, name, random.Random(seat))
            for seat, name in enumerate(["pro", "beginner"])]
    halted: list[bool] = []

    def on_result(_table: Table, _result: object, _final: object) -> None:
        if not halted:  # as Room.release does
            halted.append(True)
            for bot in bots:
                bot.stop()
            table.halt()
            table.clock.call_at(table.clock.time(), table.halt)

    table.on_result = on_result
    table.start()
    assert isinstance(table.clock, VirtualClock)
    table.clock.run(stop=lambda: bool(halted))
    table.clock.run(until=table.clock.time() + 60)
    assert table.phase is Phase.PAUSED and table.match.number == 1
    with pytest.raises(IllegalAction):
        table.submit(0, us.Draw())
