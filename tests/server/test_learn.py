"""Tutorial tables: made by ``create`` with ``tutorial: true``, scripted, private, unstored."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from server.kit import Client, World
from zackzack.server.app import Config, create_app
from zackzack.store import Store


@pytest.fixture
def world(store: Store) -> World:
    """A lobby with live settings (3 s start countdown) on a virtual clock."""
    return World(store)


def tutorial(world: World, game: str, name: str = "Lena") -> Client:
    """``name`` opens ``game``'s tutorial; returns once round 1 is on."""
    learner = world.client(name)
    learner.send(type="create", game=game, tutorial=True)
    assert learner.view["phase"] == "starting"
    world.wait(3.5)
    assert learner.view["phase"] == "playing"
    return learner


def play(learner: Client, card: str, pile: int | None = None) -> dict[str, Any]:
    state = learner.view["state"]
    action: dict[str, Any] = {"type": "play", "card": card}
    if pile is None:
        action["seen"] = state["version"]
    else:
        action.update(pile=pile, seen=state["versions"][pile])
    return learner.act(action)


def events(learner: Client) -> list[str]:
    return [e["type"] for m in learner.inbox if m["type"] == "events" for e in m["events"]]


def test_the_unter_spannung_tutorial_runs_its_script_against_a_tutor_who_never_plays(
        world: World, store: Store) -> None:
    watcher = world.client("Wim")
    watcher.send(type="lobby")
    lena = tutorial(world, "unter-spannung")
    table = lena.table
    assert table["private"] and len(table["code"]) == 12 and table["you"] == 0
    assert [s["kind"] for s in table["seats"]] == ["human", "bot"]
    assert table["seats"][1]["bot"] == "tutor"
    state = lena.view["state"]
    assert state["top"] == "9±3" and state["hand"] == ["6±3", "4±2", "7±1", "8±1"]

    assert play(lena, "6±3")["ok"]  # 9 ± 3: 12 → 2, and 6
    wrong = play(lena, "4±2")  # 6 ± 3 wants 9 or 3
    assert wrong["code"] == "does_not_fit" and "penalised" in events(lena)
    world.wait(1.1)
    assert lena.act({"type": "draw"})["ok"]
    assert lena.view["state"]["hand"][-1] == "3±2"
    assert play(lena, "3±2")["ok"]
    assert lena.view["countdown"]["step"] == "rotate"  # Nichts geht mehr: nobody has 5 or 1
    world.wait(4.5)
    assert lena.view["state"]["top"] == "5±3"
    assert play(lena, "8±1")["ok"]
    assert play(lena, "7±1")["ok"]  # one card left: laid face down, the round is won
    view = lena.view
    assert view["phase"] == "over" and view["results"][0]["winner"] == 0
    assert view["results"][0]["scores"] == [0, 28]  # the tutor's 4 + 10 + 10 + 4

    # Never in the lobby list, never stored, no rematch, never offered as "your tables".
    assert all(m["tables"] == [] for m in watcher.inbox if m["type"] == "lobby")
    assert lena.table["match"] is None and store.playing() == {}
    assert store.matches(limit=10) == ([], 0)
    assert lena.error(type="rematch") == "no_rematch"
    assert world.client("Lena", token=lena.welcome["token"]).welcome["tables"] == []


def test_the_schnelllauf_tutorial_moves_jokers_flips_and_ends_the_match(world: World) -> None:
    lena = tutorial(world, "schnelllauf")
    state = lena.view["state"]
    assert state["tops"] == ["6s", "4s"]
    assert [place[0] for place in state["layouts"][0]] == ["7h", "8d", "10c", "10d", "Ah"]

    assert play(lena, "7h", 0)["ok"]
    assert play(lena, "Ah", 1)["code"] == "does_not_fit"
    world.wait(1.1)
    assert play(lena, "8d", 0)["ok"]
    assert lena.act({"type": "move", "source": 2, "target": 1})["ok"]
    assert lena.view["state"]["layouts"][0][2] == ["*", 0]
    assert play(lena, "*", 1)["ok"]  # on a 4 the joker is a 3 or a 5
    assert lena.view["state"]["stands"][1] == [3, 5]
    assert play(lena, "2c", 1)["ok"]
    assert play(lena, "Ah", 1)["ok"]
    assert lena.view["countdown"]["step"] == "flip"  # nobody can play or move
    world.wait(4.5)
    assert lena.view["state"]["tops"] == ["Jh", "9h"]
    assert play(lena, "10c", 0)["ok"]
    assert play(lena, "10d", 1)["ok"]
    view = lena.view
    assert view["phase"] == "over" and view["result"]["placings"][0]["seat"] == 0


def test_one_tutorial_at_a_time_and_none_counts_as_a_table(world: World) -> None:
    lena = world.client("Lena")
    codes = []
    for _ in range(6):  # more than Limits.tables_per_player
        lena.send(type="create", game="schnelllauf", tutorial=True)
        codes.append(lena.table["code"])
    live = [code for code in codes if code in world.lobby.rooms]
    assert live == codes[-1:]
    assert lena.error(type="create", game="dance", tutorial=True) == "no_such_game"


def test_the_rules_and_tutorial_pages_are_the_web_client(tmp_path: Path) -> None:
    with TestClient(create_app(Config(db=str(tmp_path / "z.db")))) as client:
        for game in ("unter-spannung", "schnelllauf"):
            for page in ("rules", "learn"):
                response = client.get(f"/{page}/{game}")
                assert response.status_code == 200, page
                assert "js/app.js" in response.text
                assert "css/learn.css" in response.text
        assert client.get("/static/js/rules.js").status_code == 200
        assert client.get("/static/css/learn.css").status_code == 200
