"""Reconnects without pausing, and deserted tables out of the lobby list (virtual clock).

The rules (docs/protocol.md, "Away, back, paused"): a person whose last connection to a
table drops still counts as there for ``Timing.reconnect_grace`` (1 s); the table pauses only
when every person holding one of its seats has been away longer than that, and only a paused
table has a resume countdown. A seat played by a stand-in never pauses the table. The lobby
lists a table only while one of its people (at a table of bots only: anybody) is there.
"""

from __future__ import annotations

import pytest

from server.kit import NO_STALLS, Client, World, two_at_a_table
from zackzack.server.lobby import Timing
from zackzack.store import Store


@pytest.fixture
def world(store: Store) -> World:
    """A lobby with live settings (3 s start countdown) on a virtual clock; the people here
    never act, and the idle rule (``test_idle.py``) stays out of the way."""
    return World(store, timing=NO_STALLS)


def kinds(client: Client, start: int = 0) -> list[str]:
    """The event types ``client`` was sent (from inbox message ``start`` on)."""
    return [e["type"] for m in client.inbox[start:] if m["type"] == "events"
            for e in m["events"]]


TOURNAMENT = {"tournament": True}
"""Four rounds with 8 s between them: no match here can be over within 27 s of its start."""


def alone_with_a_bot(world: World) -> tuple[Client, Client, str]:
    """Anna plays an Unter Spannung tournament against a bot (the match is on), Dora
    watches."""
    anna = world.client("Anna")
    anna.send(type="create", game="unter-spannung", options=TOURNAMENT,
              seats=[{"kind": "open"}, {"kind": "bot", "bot": "normal"}])
    code = anna.table["code"]
    anna.send(type="start")
    world.wait(3.2)
    assert anna.view["phase"] == "playing"
    dora = world.client("Dora")
    dora.send(type="watch", code=code)
    return anna, dora, code


def reload(world: World, client: Client, code: str, after: float) -> Client:
    """``client`` drops its connection and comes back (a new one, same token) ``after`` s later."""
    client.session.close()
    world.wait(after)
    back = world.client(client.welcome["name"], token=client.welcome["token"])
    back.send(type="watch", code=code)
    return back


def listed(world: World, watcher: Client) -> list[str]:
    """The codes in the newest lobby list ``watcher`` was sent (after the pending send)."""
    world.wait(world.timing.lobby_every)
    return [table["code"] for table in watcher.last("lobby")["tables"]]


# Away and back ---------------------------------------------------------------------------


def test_a_reload_within_the_grace_changes_nothing_for_the_others(world: World) -> None:
    anna, dora, code = alone_with_a_bot(world)
    room = world.lobby.rooms[code]
    seen, before = len(dora.inbox), room.table.time_ms()
    back = reload(world, anna, code, 0.8)
    world.wait(5)
    assert "paused" not in kinds(dora, seen) and "resuming" not in kinds(dora, seen)
    assert "resuming" not in kinds(back)
    assert room.phase.value in ("playing", "between", "over")
    assert room.table.time_ms() - before >= 5700  # table time never stood still
    assert back.table["you"] == 0 and back.view["phase"] != "paused"
    assert any(entry.seat == 1 for entry in room.table.log)  # the bot played on


def test_reloads_one_after_another_never_pause(world: World) -> None:
    anna, dora, code = alone_with_a_bot(world)
    seen = len(dora.inbox)
    for _ in range(5):
        anna = reload(world, anna, code, 0.9)
        world.wait(0.3)
    assert "paused" not in kinds(dora, seen)


def test_a_second_tab_keeps_the_person_there(world: World) -> None:
    anna, _, code = alone_with_a_bot(world)
    room = world.lobby.rooms[code]
    tab = world.client("Anna", token=anna.welcome["token"])
    tab.send(type="watch", code=code)
    anna.session.close()
    world.wait(5)
    assert room.phase.value != "paused"
    tab.session.close()
    world.wait(1.1)
    assert room.phase.value == "paused"


def test_away_longer_than_the_grace_pauses_and_back_counts_down(world: World) -> None:
    anna, dora, code = alone_with_a_bot(world)
    room = world.lobby.rooms[code]
    seen = len(dora.inbox)
    anna.session.close()
    world.wait(0.99)
    assert room.phase.value == "playing" and "paused" not in kinds(dora, seen)
    world.wait(0.02)
    assert room.phase.value == "paused" and kinds(dora, seen)[-1] == "paused"
    assert dora.table["seats"][0]["connected"] is False
    paused_at = room.table.time_ms()
    world.wait(10)
    assert room.table.time_ms() == paused_at
    back = world.client("Anna", token=anna.welcome["token"])
    back.send(type="watch", code=code)
    assert kinds(back) == ["resuming"] and back.view["phase"] == "paused"
    world.wait(3)
    assert kinds(dora, seen)[-3:] == ["paused", "resuming", "resumed"]
    assert back.view["phase"] == "playing"


def test_the_grace_is_a_server_timing(store: Store) -> None:
    world = World(store, timing=Timing(reconnect_grace=5.0))
    anna, _, code = alone_with_a_bot(world)
    room = world.lobby.rooms[code]
    anna.session.close()
    world.wait(4.9)
    assert room.phase.value != "paused"
    world.wait(0.2)
    assert room.phase.value == "paused"


def test_a_reload_at_a_table_with_others_never_pauses_it(world: World) -> None:
    anna, ben, code = two_at_a_table(world, options=TOURNAMENT)
    room = world.lobby.rooms[code]
    anna.send(type="start")
    world.wait(3.2)
    seen, before = len(anna.inbox), room.table.time_ms()
    ben = reload(world, ben, code, 3.0)  # even a slow one: Anna is there
    assert "paused" not in kinds(anna, seen) and "resuming" not in kinds(anna, seen)
    assert room.table.time_ms() - before >= 3000
    assert ben.table["you"] == 1 and ben.view["phase"] == "playing"


def test_a_seat_with_a_stand_in_never_pauses_the_table(world: World) -> None:
    anna, ben, code = two_at_a_table(world, options=TOURNAMENT)
    room = world.lobby.rooms[code]
    anna.send(type="start")
    world.wait(3.2)
    seen = len(anna.inbox)
    ben.session.close()
    world.wait(25)
    assert anna.table["seats"][1]["bot"] == "normal"  # Ben's stand-in plays
    back = world.client("Ben", token=ben.welcome["token"])
    back.send(type="watch", code=code)  # Ben takes over from the stand-in: no countdown
    assert back.table["seats"][1]["bot"] is None
    assert "resuming" not in kinds(back)
    world.wait(2)
    assert "paused" not in kinds(anna, seen) and "resuming" not in kinds(anna, seen)
    assert room.phase.value != "paused"


def test_the_stand_in_comes_20_s_after_the_drop_and_not_after_a_reload(world: World) -> None:
    anna, ben, code = two_at_a_table(world, options=TOURNAMENT)
    anna.send(type="start")
    world.wait(3.2)
    ben = reload(world, ben, code, 0.5)
    world.wait(30)
    assert anna.table["seats"][1]["bot"] is None  # back in time: no stand-in later either
    ben.session.close()
    world.wait(19.9)
    assert anna.table["seats"][1]["bot"] is None
    world.wait(0.2)
    assert anna.table["seats"][1]["bot"] == "normal"


def test_the_last_person_away_pauses_even_beside_a_stand_in(world: World) -> None:
    anna, ben, code = two_at_a_table(world, options=TOURNAMENT)
    room = world.lobby.rooms[code]
    anna.send(type="start")
    world.wait(3.2)
    ben.session.close()
    world.wait(25)  # Ben's seat has its stand-in
    anna.session.close()
    world.wait(1.1)  # nobody of the table's people is there: it halts, stand-in and all
    assert room.phase.value == "paused"


# The lobby list ----------------------------------------------------------------------------


def test_a_table_whose_person_is_gone_leaves_the_list(world: World) -> None:
    anna, _, code = alone_with_a_bot(world)
    reader = world.client("Erik")
    reader.send(type="lobby")
    assert listed(world, reader) == [code]
    anna.session.close()
    world.wait(0.5)
    assert listed(world, reader) == [code]  # within the grace: still there
    world.wait(0.6)
    assert listed(world, reader) == []  # paused, only the bot and a watcher left
    assert code in world.lobby.rooms  # kept for Anna's return until Timing.idle
    back = world.client("Anna", token=anna.welcome["token"])
    assert [t["code"] for t in back.welcome["tables"]] == [code]
    back.send(type="watch", code=code)
    assert listed(world, reader) == [code]


def test_a_bot_table_nobody_watches_leaves_the_list(world: World) -> None:
    carla = world.client("Carla")
    carla.send(type="create", game="schnelllauf",
               seats=[{"kind": "bot", "bot": "normal"}, {"kind": "bot", "bot": "pro"}])
    code = carla.table["code"]
    carla.send(type="start")
    reader = world.client("Erik")
    reader.send(type="lobby")
    assert listed(world, reader) == [code]
    carla.session.close()
    world.wait(1.1)
    assert listed(world, reader) == []
    watcher = world.client("Dora")
    watcher.send(type="watch", code=code)  # anyone looking lists a table of bots again
    assert listed(world, reader) == [code]


def test_a_table_stays_listed_while_one_of_its_people_is_there(world: World) -> None:
    anna, ben, code = two_at_a_table(world, options=TOURNAMENT)
    anna.send(type="start")
    reader = world.client("Erik")
    reader.send(type="lobby")
    ben.session.close()
    world.wait(30)
    assert listed(world, reader) == [code]
    watcher = world.client("Dora")
    watcher.send(type="watch", code=code)
    anna.session.close()
    world.wait(1.1)
    assert listed(world, reader) == []  # a watcher alone does not keep it listed


def test_a_waiting_table_its_creator_left_leaves_the_list(world: World) -> None:
    anna = world.client("Anna")
    anna.send(type="create", game="unter-spannung")
    code = anna.table["code"]
    reader = world.client("Erik")
    reader.send(type="lobby")
    assert listed(world, reader) == [code]
    anna.session.close()
    world.wait(1.1)
    assert listed(world, reader) == []
    world.wait(60)
    assert world.lobby.sweep() == [code]

