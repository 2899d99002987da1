"""Idempotent actions: the same ``id`` from the same player is applied at most once."""

from __future__ import annotations

from typing import Any

from server.kit import Client, World
from zackzack.games import schnelllauf as sl
from zackzack.store import Store


def act(client: Client, ref: int, action: dict[str, Any], act_id: str) -> dict[str, Any]:
    """The ack of one ``act`` with an id."""
    acks = [m for m in client.send(type="act", ref=ref, action=action, id=act_id)
            if m["type"] == "ack"]
    assert len(acks) == 1 and acks[0]["ref"] == ref
    return acks[0]


def started(store: Store, game: str) -> tuple[World, Client, Client]:
    world = World(store)
    anna, ben = world.client("Anna"), world.client("Ben")
    anna.send(type="create", game=game, seats=[{"kind": "open"}, {"kind": "open"}])
    ben.send(type="join", code=anna.table["code"], seat=None)
    ben.send(type="ready", ready=True)
    anna.send(type="start")
    world.wait(3.5)
    return world, anna, ben


def test_a_draw_sent_twice_draws_once(store: Store) -> None:
    _, anna, _ = started(store, "unter-spannung")
    before = anna.view["state"]["draw_counts"][0]
    first = act(anna, 1, {"type": "draw"}, "tab1:7")
    again = act(anna, 2, {"type": "draw"}, "tab1:7")  # a double click
    assert first["ok"] and again == {**first, "ref": 2}
    assert anna.view["state"]["draw_counts"][0] == before - 1
    assert act(anna, 3, {"type": "draw"}, "tab1:8")["ok"]  # a new id is a new action
    assert anna.view["state"]["draw_counts"][0] == before - 2


def test_a_retry_after_a_reconnect_gets_the_first_answer(store: Store) -> None:
    world, anna, _ = started(store, "unter-spannung")
    before = anna.view["state"]["draw_counts"][0]
    first = act(anna, 1, {"type": "draw"}, "x-1")
    code = anna.table["code"]
    anna.session.close()  # the connection drops; the player comes back with the token
    back = world.client("Anna", token=anna.welcome["token"])
    back.send(type="join", code=code)
    assert act(back, 1, {"type": "draw"}, "x-1") == first
    assert back.view["state"]["draw_counts"][0] == before - 1


def test_a_refused_action_sent_again_gets_the_same_refusal(store: Store) -> None:
    _, anna, _ = started(store, "unter-spannung")
    action = {"type": "play", "card": "1±1", "seen": 0}
    first = act(anna, 1, action, "p")
    assert act(anna, 2, action, "p") == {**first, "ref": 2}


def test_another_player_may_use_the_same_id(store: Store) -> None:
    _, anna, ben = started(store, "unter-spannung")
    assert act(anna, 1, {"type": "draw"}, "same")["ok"]
    assert act(ben, 1, {"type": "draw"}, "same")["ok"]


def test_a_schnelllauf_card_sent_twice_is_played_once(store: Store) -> None:
    world, anna, ben = started(store, "schnelllauf")
    for _ in range(50):  # a stalemate flip may be needed before a card fits
        for client in (anna, ben):
            state = client.view["state"]
            me = client.view["seat"]
            stands = [None if s is None else frozenset(s) for s in state["stands"]]
            fitting = [(place[0], p) for place in state["layouts"][me] if place
                       for p in (0, 1)
                       if state["pile_counts"][p] and sl.fits(sl.Card.parse(place[0]), stands[p])]
            if fitting:
                card, pile = fitting[0]
                action = {"type": "play", "card": card, "pile": pile,
                          "seen": state["versions"][pile]}
                ack = act(client, 1, action, "once")
                assert ack["ok"], ack
                after = client.view["state"]
                assert act(client, 2, action, "once") == {**ack, "ref": 2}
                assert client.view["state"] == after
                return
        world.wait(2.0)
    raise AssertionError("no card could be played")


def test_ids_are_checked(store: Store) -> None:
    _, anna, _ = started(store, "unter-spannung")
    for bad in ("", "x" * 41, "with space", 7):
        assert anna.error(type="act", ref=1, action={"type": "draw"}, id=bad) == "bad_field"


def test_without_an_id_a_resent_action_is_a_new_one(store: Store) -> None:
    _, anna, _ = started(store, "unter-spannung")
    before = anna.view["state"]["draw_counts"][0]
    anna.act({"type": "draw"})
    anna.act({"type": "draw"})
    assert anna.view["state"]["draw_counts"][0] == before - 2
