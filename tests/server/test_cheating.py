"""The cheating catalogue: every trick a client could try is refused and changes nothing.

Each test seats Anna and Ben at a running table (sessions on a virtual clock, a real store),
tries one trick through the protocol and checks the answer and that no seat's view moved.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from server.kit import Client, World, play_out, two_at_a_table, us_action
from zackzack.engine.table import Settings
from zackzack.games import schnelllauf as sl
from zackzack.games import unter_spannung as us
from zackzack.games.base import plain
from zackzack.server.room import Room
from zackzack.store import Store


@pytest.fixture
def world(store: Store) -> World:
    """A lobby whose tables start at once, on a virtual clock."""
    return World(store, settings=Settings())


def playing(world: World, **create: Any) -> tuple[Client, Client, Room]:
    """Anna and Ben at a running Unter Spannung table."""
    anna, ben, code = two_at_a_table(world, **create)
    anna.send(type="start")
    room = world.lobby.rooms[code]
    assert room.phase.value == "playing"
    return anna, ben, room


def snapshot(room: Room) -> str:
    """Every seat's view of the table (and a spectator's), as canonical JSON (clock aside)."""
    views = [plain(room.table.view(seat)) for seat in (*range(room.table.players), None)]
    for view in views:
        view.pop("now")
    return json.dumps(views, sort_keys=True)


def refused(client: Client, room: Room, action: dict[str, Any], code: str) -> None:
    """``action`` is refused with ``code`` and no view of the table changes."""
    before = snapshot(room)
    ack = client.act(action)
    assert ack["ok"] is False and ack["code"] == code, ack
    assert snapshot(room) == before


def test_acting_for_another_seat(world: World) -> None:
    anna, _, room = playing(world)
    before = snapshot(room)
    assert anna.error(type="act", ref=1, seat=1, action={"type": "draw"}) == "bad_field"
    refused(anna, room, {"type": "draw", "seat": 1}, "bad_action")
    carla = world.client("Carla")  # a watcher has no seat to act from
    carla.send(type="watch", code=room.code)
    refused(carla, room, {"type": "draw"}, "not_seated")
    assert snapshot(room) == before


def test_playing_a_card_you_do_not_hold(world: World) -> None:
    anna, _, room = playing(world)
    state = room.table.state
    theirs = next(c for c in state.hands[1] if c not in state.hands[0])
    refused(anna, room, {"type": "play", "card": str(theirs), "seen": state.version},
            "not_your_card")
    refused(anna, room, {"type": "play", "card": "11±2", "seen": state.version}, "bad_action")


def test_playing_a_face_down_card(world: World) -> None:
    anna, _, room = playing(world)
    state = room.table.state
    hidden = next(c for c in state.draw_piles[0] if c not in state.hands[0])
    refused(anna, room, {"type": "play", "card": str(hidden), "seen": state.version},
            "not_your_card")
    # Schnelllauf: the cards under a layout's top lie face down.
    dora, emil = world.client("Dora"), world.client("Emil")
    dora.send(type="create", game="schnelllauf")
    emil.send(type="join", code=dora.table["code"], seat=None)
    emil.send(type="ready", ready=True)
    dora.send(type="start")
    world.wait(5)
    table = world.lobby.rooms[dora.table["code"]]
    layout = table.table.state.layouts[0]
    tops = {place[-1] for place in layout if place}
    under = next(c for place in layout for c in place[:-1] if c not in tops)
    assert isinstance(under, sl.Card)
    refused(dora, table, {"type": "play", "card": str(under), "pile": 0, "seen": 0},
            "not_your_card")


def test_playing_a_card_already_played_and_replaying_an_old_action(world: World) -> None:
    anna, ben, room = playing(world)
    for _ in range(20):
        action = us_action(anna.view)
        if action is not None and action["type"] == "play":
            break
        anna.act({"type": "draw"})
    assert action is not None and action["type"] == "play"
    ref = 4242
    replies = anna.send(type="act", ref=ref, action=action)
    assert replies[-1] == {"type": "ack", "ref": ref, "ok": True}
    if us.Card.parse(action["card"]) not in room.table.state.hands[0]:
        before = snapshot(room)
        again = anna.send(type="act", ref=ref, action=action)  # the very same message again
        assert again[-1]["ok"] is False and again[-1]["code"] == "not_your_card"
        assert snapshot(room) == before
    played = room.table.state.discard_pile[-1]
    ben_card = {"type": "play", "card": str(played), "seen": room.table.state.version}
    if played not in room.table.state.hands[1]:
        refused(ben, room, ben_card, "not_your_card")
    else:  # Ben holds an equal card of his own: playing it is a wrong card, and freezes him
        ack = ben.act(ben_card)
        assert ack["ok"] is False and ack["code"] == "does_not_fit"
        assert room.table.frozen_until[1] > 0 and played in room.table.state.hands[1]


def test_acting_during_a_freeze(world: World) -> None:
    anna, _, room = playing(world)
    state = room.table.state
    for _ in range(20):
        wrong = next((c for c in state.hands[0] if c.value not in state.tops[-1].allowed), None)
        if wrong is not None:
            break
        anna.act({"type": "draw"})
    assert wrong is not None
    ack = anna.act({"type": "play", "card": str(wrong), "seen": state.version})
    assert ack["code"] == "does_not_fit"  # and Anna is frozen for penalty_ms
    assert room.table.frozen_until[0] > room.table.time_ms()
    fitting = next((c for c in state.hands[0] if c.value in state.tops[-1].allowed), None)
    refused(anna, room, {"type": "draw"}, "frozen")
    if fitting is not None:
        refused(anna, room, {"type": "play", "card": str(fitting), "seen": state.version},
                "frozen")
    world.wait(1.1)
    assert anna.act({"type": "draw"})["ok"] or state.over


def test_acting_after_the_round_ended_or_while_paused(world: World) -> None:
    anna, ben, room = playing(world)
    play_out(world, [anna, ben])
    assert room.phase.value == "over"
    refused(anna, room, {"type": "draw"}, "round_over")
    refused(ben, room, {"type": "play", "card": "5±2", "seen": 0}, "round_over")
    dora = world.client("Dora")
    dora.send(type="create", game="unter-spannung",
              seats=[{"kind": "open"}, {"kind": "bot", "bot": "beginner"}])
    dora.send(type="start")
    paused = world.lobby.rooms[dora.table["code"]]
    back = world.client("Dora", token=dora.welcome["token"])
    dora.session.close()  # everyone away (longer than the grace): paused
    world.wait(1.1)
    assert paused.phase.value == "paused"
    back.send(type="watch", code=paused.code)  # back: 3-2-1, and until then nothing goes
    refused(back, paused, {"type": "draw"}, "not_playing")


def test_guessing_another_players_token(world: World) -> None:
    anna, _, room = playing(world)
    player, _, secret = anna.welcome["token"].partition(".")
    for guess in (player, f"{player}.", f"{player}.{secret[:-1]}x", f"{player}.{secret}x",
                  f"{player}.{'A' * len(secret)}", f"{player}.{secret.upper()}"):
        if guess == anna.welcome["token"]:
            continue
        mallory = world.client("Mallory", token=guess)
        assert mallory.player != anna.player and mallory.welcome["tables"] == []
        before = snapshot(room)
        mallory.send(type="watch", code=room.code)
        assert mallory.table["you"] is None  # a spectator, not Anna
        assert mallory.act({"type": "draw"})["code"] == "not_seated"
        assert snapshot(room) == before
        assert secret not in "".join(mallory.texts)
    assert world.client("Mallory", token="x" * 64).player != anna.player
    assert world.client(name=None).error(type="hello", token="x" * 65) == "bad_field"


def test_guessing_a_private_tables_code(world: World) -> None:
    dora = world.client("Dora")
    dora.send(type="create", game="unter-spannung", private=True)
    code = dora.table["code"]
    assert len(code) == 12 and dora.table["link"].endswith(f"/t/{code}")
    carla = world.client("Carla")
    assert carla.send(type="lobby")[-1]["tables"] == []  # not listed
    for guess in (code[:6], code[:-1], code + "A", code[1:] + code[0]):
        assert carla.error(type="join", code=guess, seat=None) == "no_such_table"
        assert carla.error(type="watch", code=guess) == "no_such_table"
    assert room_viewers(world, code) == 1
    carla.send(type="join", code=code.lower(), seat=None)  # the link itself works
    assert carla.table["code"] == code and carla.table["you"] == 1


def room_viewers(world: World, code: str) -> int:
    return len(world.lobby.rooms[code].viewers)
