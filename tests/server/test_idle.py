"""A round always ends (docs/rules.md, *Eine Runde endet immer*; docs/protocol.md, *A round
always ends*): when a running round stands still for ``Timing.stall_warning`` seconds while
it waits on a present person who could act, their seat shows ``stand_in_at`` (the warning,
with its countdown), and ``Timing.stall_stand_in`` seconds later a stand-in plays it until
any action of theirs takes it back. In a rated match they then rank as having abandoned.

The deals are rigged before the start (the first deal is stored with the match, so its log
still replays): Anna can do nothing at first, Ben could.
"""

from __future__ import annotations

import asyncio
import random
from pathlib import Path
from typing import Any

import pytest

from server.kit import Client, World, run_async, two_at_a_table
from server.wire import Live, Scripted
from zackzack.engine.table import Phase, Settings
from zackzack.games import schnelllauf as sl
from zackzack.games import unter_spannung as us
from zackzack.games.base import plain
from zackzack.ratings import places
from zackzack.server.limits import Limits
from zackzack.server.lobby import Timing
from zackzack.server.room import Room
from zackzack.server.standins import STALL_STAND_IN, STALL_WARNING
from zackzack.store import Store

QUICK = Settings()
"""No start countdown: the round is on at the start."""


def rig(world: World, code: str, state: Any) -> Room:
    """Deal ``state`` as the first round of the (not yet started) table ``code``."""
    room = world.lobby.rooms[code]
    table = room.table
    table.match = room.rules.new_match(table.options, random.Random(table.seed), state)
    table.first_deal = room.rules.deal_to_json(state)
    return room


def anna_stuck_us(options: us.Options) -> us.State:
    """An Unter Spannung deal where Anna (seat 0) has no draw pile and no fitting card."""
    for seed in range(1000):
        state = us.deal(options, random.Random(seed))
        state.draw_piles[1] += state.draw_piles[0]
        state.draw_piles[0] = []
        if not us.legal_actions(state, 0):
            return us.parse_deal(us.deal_to_json(state), options)
    raise AssertionError("no such deal")


def anna_stuck_sl(options: sl.Options) -> sl.State:
    """A Schnelllauf deal where Anna (seat 0) can neither play nor move, and Ben can."""
    for seed in range(1000):
        state = sl.deal(options, random.Random(seed))
        if not sl.legal_actions(state, 0) and sl.legal_actions(state, 1):
            return state
    raise AssertionError("no such deal")


def act_if_able(client: Client, room: Room, seat: int) -> bool:
    """``client`` (in ``seat``) does the first thing it may; whether there was one."""
    table = room.table
    if table.phase is not Phase.PLAYING or table.frozen_until[seat] > table.time_ms():
        return False
    legal = room.rules.legal_actions(table.match.round, seat)
    if not legal:
        return False
    client.act(plain(legal[0]))
    return True


def stand_in_at(client: Client, seat: int) -> int | None:
    found: int | None = client.table["seats"][seat]["stand_in_at"]
    return found


def test_unter_spannung_warns_then_plays_for_the_idle_person_until_they_act(
        store: Store) -> None:
    world = World(store, settings=QUICK)
    anna, ben, code = two_at_a_table(world)
    room = rig(world, code, anna_stuck_us(world.lobby.rooms[code].table.options))
    anna.send(type="start")
    assert ben.view["phase"] == "playing"
    world.wait(STALL_WARNING - 0.5)  # a person may think: nothing yet
    assert stand_in_at(ben, 1) is None and ben.table["seats"][1]["bot"] is None
    world.wait(0.5)
    warned = ben.last("table")
    due = warned["table"]["seats"][1]["stand_in_at"]
    assert due == warned["now"] + STALL_STAND_IN * 1000  # the countdown, in table time
    assert stand_in_at(anna, 1) == due  # everyone sees it
    assert stand_in_at(ben, 0) is None  # Anna can do nothing: the table does not wait on her
    world.wait(STALL_STAND_IN - 0.5)
    assert ben.table["seats"][1]["bot"] is None
    world.wait(0.5)
    seat = ben.table["seats"][1]
    assert (seat["bot"], seat["connected"], seat["stand_in_at"]) == ("normal", True, None)
    left = room.table.match.round.draw_piles[1][:]
    world.wait(3)
    assert room.table.match.round.draw_piles[1] != left  # the stand-in plays
    assert room.table.phase is Phase.PLAYING
    # Any action of Ben's takes the seat back (even one the table refuses).
    anna.send(type="watch", code=code)  # a viewer coming or going leaves the stand-in alone
    assert ben.table["seats"][1]["bot"] == "normal"
    ben.act({"type": "play", "card": "1±1", "seen": 0})
    assert ben.table["seats"][1]["bot"] is None
    before = len(room.table.log)
    world.wait(1)
    assert all(entry.seat != 1 for entry in room.table.log[before:])  # nobody plays for him
    # The next warning comes the whole time after he took the seat back (the table stood
    # still since the stand-in's last action, a little before).
    world.wait(STALL_WARNING - 1.5)
    assert stand_in_at(ben, 1) is None
    world.wait(1)
    assert stand_in_at(ben, 1) is not None and room.table.phase is Phase.PLAYING


def test_schnelllauf_warns_then_plays_for_the_idle_person(store: Store) -> None:
    world = World(store, settings=QUICK)
    anna, ben = world.client("Anna"), world.client("Ben")
    anna.send(type="create", game="schnelllauf", seats=[{"kind": "open"}, {"kind": "open"}])
    code = anna.table["code"]
    ben.send(type="join", code=code, seat=None)
    ben.send(type="ready", ready=True)
    room = rig(world, code, anna_stuck_sl(world.lobby.rooms[code].table.options))
    anna.send(type="start")
    world.wait(STALL_WARNING - 0.5)
    assert stand_in_at(ben, 1) is None
    world.wait(0.5)
    assert stand_in_at(ben, 1) is not None and stand_in_at(anna, 0) is None
    world.wait(STALL_STAND_IN)
    assert ben.table["seats"][1]["bot"] == "normal"
    versions = room.rules.versions(room.table.match.round)
    world.wait(3)
    assert room.rules.versions(room.table.match.round) != versions  # the stand-in plays
    ben.act({"type": "move", "source": 0, "target": 0})  # refused, yet it is Ben's
    assert ben.table["seats"][1]["bot"] is None


def test_a_warned_person_who_acts_in_time_keeps_their_seat(store: Store) -> None:
    world = World(store, settings=QUICK)
    anna, ben, code = two_at_a_table(world)
    rig(world, code, anna_stuck_us(world.lobby.rooms[code].table.options))
    anna.send(type="start")
    world.wait(STALL_WARNING + STALL_STAND_IN - 1)
    assert stand_in_at(ben, 1) is not None
    assert ben.act({"type": "draw"})["ok"]
    assert stand_in_at(ben, 1) is None  # the table moved: the warning is over
    world.wait(2)
    assert ben.table["seats"][1]["bot"] is None


def test_a_tutorial_never_gets_a_stand_in(store: Store) -> None:
    world = World(store, settings=QUICK)
    anna = world.client("Anna")
    anna.send(type="create", game="unter-spannung", tutorial=True)
    world.wait(STALL_WARNING + STALL_STAND_IN + 5)
    assert all(seat["stand_in_at"] is None for seat in anna.table["seats"])
    assert anna.table["seats"][0]["bot"] is None


def test_the_idle_person_of_a_rated_match_ranks_as_having_abandoned(store: Store) -> None:
    world = World(store, settings=QUICK)
    anna, ben = world.member("Anna"), world.member("Ben")
    anna.send(type="create", game="unter-spannung", rated=True, seats=[{"kind": "open"}] * 2)
    code = anna.table["code"]
    ben.send(type="join", code=code, seat=None)
    ben.send(type="ready", ready=True)
    room = rig(world, code, anna_stuck_us(world.lobby.rooms[code].table.options))
    anna.send(type="start")
    for _ in range(5000):  # Anna plays whenever she can; Ben never does
        if room.phase is Phase.OVER:
            break
        if not act_if_able(anna, room, 0):
            world.wait(0.25)
    else:
        raise AssertionError("the match did not end")
    record = store.match(anna.table["match"])
    assert record is not None and record.abandoned == (1,)
    assert places(record.result, 2, record.abandoned) == [1, 2]
    assert store.ratings_of(anna.player)[("unter-spannung", "rated")].mu \
        > store.ratings_of(ben.player)[("unter-spannung", "rated")].mu


@pytest.mark.wallclock  # real sockets: the times are 1 s, every wait allows 10 or more
def test_over_a_socket_the_warning_and_the_stand_in_come_and_the_seat_comes_back(
        tmp_path: Path) -> None:
    timing = Timing(lobby_every=0.005, stall_warning=1.0, stall_stand_in=1.0)
    live = Live(tmp_path / "z.db", Limits(), timing)
    patience = 10 * (timing.stall_warning + timing.stall_stand_in)
    """How long each step may take on a loaded machine (the bots think about a second)."""

    async def scene() -> None:
        anna, ben = Scripted("Anna"), Scripted("Ben")
        await anna.connect(f"http://127.0.0.1:{live.port}")
        await ben.connect(f"http://127.0.0.1:{live.port}")
        await anna.send(type="create", game="unter-spannung",
                        seats=[{"kind": "open"}, {"kind": "open"}])
        table = await anna.wait_for(lambda: next(
            (m for m in anna.seen if m["type"] == "table"), None), patience)
        await ben.send(type="join", code=table["table"]["code"], seat=None)
        await ben.send(type="ready", ready=True)
        await anna.wait_for(lambda: anna.last("table")["table"]["seats"][1]["ready"], patience)
        await anna.send(type="start")

        def seat(client: Scripted, index: int) -> dict[str, Any]:
            found: dict[str, Any] = client.last("table")["table"]["seats"][index]
            return found

        # Nobody acts: both could draw, so both are warned, with a countdown of 1 s...
        warning = await ben.wait_for(lambda: next(
            (m for m in ben.seen if m["type"] == "table"
             and m["table"]["seats"][1]["stand_in_at"] is not None), None), patience)
        # (a message built late, when the countdown has run out, shows 0)
        assert 0 <= warning["table"]["seats"][1]["stand_in_at"] - warning["now"] <= 1000
        # ... and then stand-ins play for both (until Anna acts, nobody takes a seat back),
        await anna.wait_for(lambda: seat(anna, 0)["bot"] and seat(anna, 1)["bot"], patience)
        # and the round goes on.
        # (a card or a draw: the stand-ins' first move, whichever it is; waiting for a draw
        # once saw them play the whole round out with cards alone)
        await anna.wait_for(lambda: {"played", "drew"} & set(anna.event_types()), patience)
        # Anna is back: her seat is hers again. Judged by every message since her action,
        # not the latest: she stands still after it, so 2 s later (if Ben's stand-in is slow
        # to move the table) she is warned and stood in again, perhaps before the test looks.
        since = len(anna.seen)
        ack = await anna.act({"type": "draw"})
        assert ack["ref"] is not None
        back = await anna.wait_for(lambda: next(
            (m for m in anna.seen[since:] if m["type"] == "table"
             and m["table"]["seats"][0]["bot"] is None), None), patience)
        assert back["table"]["seats"][1]["bot"] == "normal"
        await anna.close()
        await ben.close()

    try:
        run_async(asyncio.wait_for(scene(), 4 * patience))
    finally:
        live.stop()
