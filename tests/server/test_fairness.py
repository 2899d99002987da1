"""The server's side of fair races: it measures each connection's lag, credits it within a
bound, shows the quality to the table, and tells the loser of a race who won."""

from __future__ import annotations

from server.kit import World, two_at_a_table
from zackzack.race import PROBE_EVERY_S, SLOW_RTT_MS
from zackzack.store import Store
from zackzack.table import Settings


def test_the_server_pings_a_seated_client_and_shows_its_lag(store: Store) -> None:
    world = World(store)
    anna, ben, _ = two_at_a_table(world)
    assert anna.pings and anna.pings[0]["rtt"] is None  # the first ping comes at once
    ben.hold_pings = True
    ben.pings.clear()
    for _ in range(8):  # Ben answers 300 ms late: a slow connection
        world.wait(PROBE_EVERY_S)
        world.wait(0.3)
        ben.send(type="pong", n=ben.pings[-1]["n"])
    seat = anna.table["seats"][ben.table["you"]]
    assert seat["lag"] == "slow" and SLOW_RTT_MS <= 300
    assert anna.table["seats"][anna.table["you"]]["lag"] == "good"
    world.wait(PROBE_EVERY_S)
    assert ben.pings[-1]["rtt"] > SLOW_RTT_MS  # the smoothed figure the client shows


def test_a_client_that_delays_its_pongs_gains_at_most_the_bound(store: Store) -> None:
    world = World(store)
    _, ben, code = two_at_a_table(world)
    ben.hold_pings = True
    for _ in range(20):  # Ben answers every ping 2 s late
        world.wait(2.0)
        for ping in ben.pings[:-1]:
            ben.send(type="pong", n=ping["n"])
        del ben.pings[:-1]
    room = world.lobby.rooms[code]
    seat = ben.table["you"]
    assert ben.session.wire.stats.mean > 1500
    cap = Settings().compensation_ms
    assert room.arbiter.reach == cap  # Anna's cards wait for his at most the cap
    assert ben.session.wire.stats.floor > 1500
    credits = [ben.session.wire.credit.take(ben.session.wire.stats.floor, cap)
               for _ in range(20)]
    assert max(credits) == cap and sum(credits) <= 600 + 20 * 150
    assert room.arbiter._reach[seat] == cap


def test_an_unknown_or_repeated_pong_changes_nothing(store: Store) -> None:
    world = World(store)
    anna, _, _ = two_at_a_table(world)
    before = anna.session.wire.stats.samples
    assert anna.send(type="pong", n=12345) == []
    assert anna.send(type="pong", n=anna.pings[0]["n"]) == []  # answered already
    assert anna.session.wire.stats.samples == before
    assert anna.error(type="pong", n=-1) == "bad_field"
    assert anna.error(type="pong") == "bad_field"


def test_a_table_without_compensation_decides_by_arrival(store: Store) -> None:
    world = World(store)
    _, _, code = two_at_a_table(world, compensation=False)
    room = world.lobby.rooms[code]
    assert room.table.settings.compensation_ms == 0
    room.arbiter.set_reach(1, 200)
    assert room.arbiter.reach == 0


def test_a_new_table_knows_a_measured_connection_at_once(store: Store) -> None:
    world = World(store)
    anna, ben, code = two_at_a_table(world)
    ben.hold_pings = True
    for _ in range(6):  # Ben answers 200 ms late: measured before the next table
        world.wait(PROBE_EVERY_S)
        world.wait(0.2)
        ben.send(type="pong", n=ben.pings[-1]["n"])
    assert world.lobby.rooms[code].arbiter.reach >= 150
    anna.send(type="create", game="unter-spannung", seats=[{"kind": "open"}, {"kind": "open"}])
    other = world.lobby.rooms[anna.table["code"]]
    assert other.arbiter.reach == 0  # Ben is not there yet
    ben.send(type="join", code=other.code, seat=None)
    assert other.arbiter.reach >= 150  # known from his connection, before his next ping
    ben.send(type="leave")
    assert other.arbiter.reach == 0
