"""Limits per client: floods, tables and connections per player and per address, names."""

from __future__ import annotations

from pathlib import Path

import pytest
from starlette.websockets import WebSocketDisconnect

from server.kit import World, us_action
from server.test_app import Player, client_for
from zackzack.engine.table import Settings
from zackzack.server.app import Config
from zackzack.server.identity import Identities
from zackzack.server.limits import Limits
from zackzack.store import Store


def test_a_flood_is_throttled_then_cut_off_and_the_table_goes_on(tmp_path: Path) -> None:
    config = Config(settings=Settings(), limits=Limits(rate=0.001, burst=12, refused_to_close=5))
    with client_for(tmp_path, config) as client, client.websocket_connect("/ws") as ws_a, \
            client.websocket_connect("/ws") as ws_b:
        anna, ben = Player(ws_a, "Anna"), Player(ws_b, "Ben")
        anna.send(type="create", game="unter-spannung", seats=[{"kind": "open"}] * 2)
        code = anna.sync()[-1]["table"]["code"]
        ben.send(type="join", code=code, seat=None)
        ben.send(type="ready", ready=True)
        anna.send(type="start")
        anna.sync()
        ben.sync()
        for ref in range(30):  # Ben floods: 8 tokens left, then refusals, then the end
            ben.send(type="act", ref=ref, action={"type": "draw"})
        replies = []
        with pytest.raises(WebSocketDisconnect) as closed:
            while True:
                replies.append(ws_b.receive_json())
        assert closed.value.code == 4002
        assert [m.get("code") for m in replies if m["type"] == "error"] == ["rate_limited"] * 4
        anna.sync()
        assert anna.last("table")["table"]["seats"][1]["connected"] is False
        action = us_action(anna.view) or {"type": "draw"}
        anna.send(type="act", ref=99, action=action)  # the table goes on without him
        anna.sync()
        assert anna.last("ack") == {"type": "ack", "ref": 99, "ok": True}
        assert anna.view["phase"] == "playing"


def test_connections_per_address_are_limited(tmp_path: Path) -> None:
    config = Config(limits=Limits(connections_per_ip=2))
    with client_for(tmp_path, config) as client, client.websocket_connect("/ws") as one, \
            client.websocket_connect("/ws") as two:
        with pytest.raises(WebSocketDisconnect) as refused, client.websocket_connect("/ws"):
            pass
        assert refused.value.code == 1008
        assert Player(one, "Anna").welcome["type"] == Player(two, "Ben").welcome["type"]
        assert client.get("/healthz").json()["connections"] == 2
    with client_for(tmp_path, config) as client, client.websocket_connect("/ws") as again:
        assert Player(again, "Anna").welcome["type"] == "welcome"  # the count went down


def test_connections_per_player_are_limited(store: Store) -> None:
    world = World(store)
    world.identities = Identities(store, connections_per_player=2)
    anna = world.client("Anna")
    token = anna.welcome["token"]
    world.client("Anna", token=token)
    third = world.client(name=None)
    assert third.error(type="hello", token=token, name="Anna") == "too_many_connections"
    assert third.error(type="lobby") == "hello_first"  # refused: not greeted
    anna.session.close()  # one tab closed: now there is room
    assert third.send(type="hello", token=token, name="Anna")[-1]["player"] == anna.player


def test_unfinished_tables_per_player_are_limited(store: Store) -> None:
    world = World(store, settings=Settings())
    anna = world.client("Anna")
    for _ in range(4):
        anna.send(type="create", game="schnelllauf")
    assert anna.error(type="create", game="schnelllauf") == "too_many_tables"
    assert len(world.lobby.rooms) == 4
    other = world.client("Ben")  # others are not affected
    other.send(type="create", game="schnelllauf")
    assert len(world.lobby.rooms) == 5


def test_names_without_control_format_or_piled_marks(store: Store) -> None:
    world = World(store)
    nameless = world.client(name=None)
    for bad in ("a\u202eb", "zero\u200bwidth", "Z\u0300\u0301\u0302", "soft\u00adhyphen", "x" * 25):
        assert nameless.error(type="hello", name=bad) == "bad_field", bad
    for good in ("Zoë", "<img src=x>", "Ана", "李雷", "Z\u0300\u0301"):
        assert world.client(good).welcome["name"] == good

