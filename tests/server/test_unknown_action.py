"""An action of a type the game does not know is refused naming the game's player actions."""

from __future__ import annotations

from server.kit import World, two_at_a_table
from zackzack.engine.table import Settings
from zackzack.store import Store


def test_an_unknown_action_names_what_the_game_knows(store: Store) -> None:
    world = World(store, settings=Settings())
    anna, _, code = two_at_a_table(world)
    anna.send(type="start")
    assert world.lobby.rooms[code].phase.value == "playing"
    ack = anna.act({"type": "dance"})
    assert ack["ok"] is False and ack["code"] == "bad_action"
    assert ack["reason"] == "unknown action 'dance'; Unter Spannung knows play, draw - at `$.type`"
