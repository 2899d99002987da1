"""A third game touches its folder and one registry line: Höher (``tests/third_game``),
registered through the public call, is played at the table, by the simulator's bots and
over the server's protocol, and listed by ``GET /api/games``; and no game's rules import
anything of the front ends."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from starlette.testclient import TestClient

import third_game
from server.kit import World
from zackzack.bots import parse_bot
from zackzack.engine.clock import VirtualClock
from zackzack.engine.table import Phase, Table
from zackzack.games import GAMES, Game, entry, register, registered, unregister
from zackzack.games.errors import DoesNotFit
from zackzack.server.app import Config as ServerConfig
from zackzack.server.app import create_app
from zackzack.sim import Config, simulate
from zackzack.store import Store, database_url
from zackzack.words import catalogue, folders
from zackzack.words.describe import describe, game_of

TESTS = Path(__file__).resolve().parent.parent


@pytest.fixture
def hoeher() -> Iterator[Game]:
    """Höher, registered for the test (one line, as in ``games/__init__.py``)."""
    found = register(third_game)
    yield found
    unregister(found.name)


def test_registering_is_one_line_and_brings_the_folder(hoeher: Game) -> None:
    assert entry("hoeher") is hoeher and GAMES["hoeher"] is third_game
    assert [g.name for g in registered()] == ["unter-spannung", "schnelllauf", "hoeher"]
    assert hoeher.part("bot").Brain.HANDS == 1
    assert hoeher.front.opponents == ("normal",)  # no front.py: the defaults
    assert hoeher.options_from_args(["cards=3", "players=3"]) == {"cards": 3, "players": 3}
    with pytest.raises(ValueError, match="Höher has no handicaps"):
        hoeher.handicap(["1"])
    with pytest.raises(ValueError, match="registered already"):
        register(_twin())  # type: ignore[arg-type]


def _twin() -> object:
    """Another module that calls itself Höher."""
    import types

    twin = types.ModuleType("twin")
    twin.INFO = third_game.INFO  # type: ignore[attr-defined]
    return twin


def test_hoeher_brings_its_words_under_its_own_name(hoeher: Game) -> None:
    """Its words folder comes with the registry line; its event keys are ``hoeher.<kind>``
    (Unter Spannung has a ``played`` too), and describe says them in both languages."""
    assert hoeher.folder / "words" in folders()
    assert game_of(third_game.Played(0, 3, 1)) == "hoeher"
    names = ("Anna", "Ben")
    played = third_game.Played(1, 3, 2)
    ended = third_game.RoundEnded(0, third_game.EndReason.STUCK, (0, 2))
    assert describe(played, names) == "Ben plays 3, higher than before"
    assert describe(played, names, lang="de") == "Ben legt 3, höher als zuvor"
    assert describe(played, names, lang="de", seat=1) == "Du legst 3, höher als zuvor"
    assert describe(ended, names) == "The round of Höher is over."
    assert describe(ended, names, lang="de") == "Die Runde Höher ist aus."
    for lang in ("de", "en"):
        assert catalogue(lang)["terminal"]["g_hoeher"] == "Höher"
        assert not [key for key in catalogue(lang)["events"]
                    if key.startswith("hoeher") and not key.startswith("hoeher.")]


def test_hoeher_at_the_table(hoeher: Game) -> None:
    rules = hoeher.rules
    options = rules.parse_options({"players": 2, "cards": 3})
    clock = VirtualClock()
    table = Table(rules, options, clock=clock)
    table.start()
    clock.run(until=5.0)
    assert table.phase is Phase.PLAYING
    now = table.time_ms()
    assert table.submit(0, third_game.Play(1, 0), at=now) == [third_game.Played(0, 1, 1)]
    with pytest.raises(DoesNotFit):
        table.submit(1, third_game.Play(1, 1), at=now)
    table.submit(0, third_game.Play(2, 1), at=now)
    table.submit(0, third_game.Play(3, 2), at=now)
    clock.run(until=10.0)
    assert table.match.result is not None and table.match.result.place_of(0) == 1


def test_hoeher_in_the_simulator(hoeher: Game) -> None:
    options = hoeher.rules.parse_options({"players": 3})
    config = Config("hoeher", options, tuple(parse_bot(b) for b in ("pro", "normal", "beginner")),
                    seed=3, matches=20)
    records = simulate(config)
    assert len(records) == 20
    assert all(sorted(r.places)[0] == 1 for r in records)
    assert sum(r.places[0] == 1 for r in records) >= 10  # the pro mostly wins


def test_hoeher_over_the_protocol(hoeher: Game, tmp_path: Path) -> None:
    store = Store(database_url(str(tmp_path / "z.db")))
    try:
        world = World(store)
        anna = world.client("Anna")
        anna.send(type="create", game="hoeher", options={"cards": 3},
                  seats=[{"kind": "open"}, {"kind": "bot", "bot": "beginner"}])
        assert anna.table["game"] == "hoeher"
        anna.send(type="start")
        world.wait(3.5)
        view = anna.view
        assert view["phase"] == "playing" and view["state"]["hand"] == [1, 2, 3]
        assert anna.act({"type": "play", "card": 5, "seen": 0})["code"] == "not_your_card"
        for _ in range(200):
            if anna.view["phase"] == "over":
                break
            state = anna.view["state"]
            higher = [c for c in state["hand"] if c > state["top"]]
            if higher and anna.view["frozen_until"][0] <= anna.view["now"]:
                anna.act({"type": "play", "card": min(higher), "seen": state["version"]})
            world.wait(0.5)
        assert anna.view["phase"] == "over"
    finally:
        store.close()


def test_hoeher_is_listed_by_the_server(hoeher: Game, tmp_path: Path) -> None:
    with TestClient(create_app(ServerConfig(db=str(tmp_path / "z.db")))) as client:
        games = {g["name"]: g for g in client.get("/api/games").json()["games"]}
    listed = games["hoeher"]
    assert (listed["title"], listed["min_players"], listed["max_players"]) == ("Höher", 2, 4)
    cards = next(o for o in listed["options"] if o["name"] == "cards")
    assert cards == {"name": "cards", "type": "int", "min": 2, "max": 9, "default": 5,
                     "required": False}
    assert listed["board"] == "/static/games/hoeher/board.js"
    assert listed["rules"] == "/rules/hoeher"


@pytest.mark.parametrize("package", ["zackzack.games.unter_spannung",
                                     "zackzack.games.schnelllauf", "third_game"])
def test_a_games_rules_import_none_of_its_front_ends(package: str) -> None:
    """The rules package imports neither its siblings (bot, board, front, describe; its data,
    the Structs a compiled build leaves plain, and its errors, its refusals, it may) nor the
    table, server, terminal or bots, nor their libraries."""
    code = f"""
import sys
import {package}
bad = sorted(m for m in sys.modules
             if m.split(".")[0] in ("textual", "starlette", "rich", "websockets", "sqlalchemy",
                                    "uvicorn", "matplotlib")
             or m.startswith(("zackzack.bots", "zackzack.tui", "zackzack.server", "zackzack.sim",
                              "zackzack.engine.table", "zackzack.store"))
             or (m.startswith("{package}.") and m not in ("{package}.data", "{package}.errors"))
             or m.endswith((".bot", ".board", ".front")))
print(bad)
"""
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True, cwd=TESTS, env={"PYTHONPATH": str(TESTS)})
    assert done.stdout.strip() == "[]", done.stdout


def test_its_web_folder_publishes_its_board_rules_page_and_tutorial(hoeher: Game) -> None:
    listed = hoeher.describe()
    assert listed["rules"] == "/rules/hoeher" and listed["learn"] == "/learn/hoeher"
    assert sorted(listed["web"]) == ["board", "learn", "rules"]
    assert _players(listed) == (2, 4)
    assert listed["tournament"] is None and listed["noisy"] == [] and listed["low_wins"]


def _players(listed: dict[str, object]) -> tuple[object, object]:
    options = listed["options"]
    assert isinstance(options, list)
    found = next(o for o in options if o["name"] == "players")
    return found["min"], found["max"]


def test_unregistering_forgets_the_words_folder_too() -> None:
    found = register(third_game)
    words = found.folder / "words"
    assert words in folders() and "g_hoeher" in catalogue("en")["terminal"]
    unregister(found.name)
    assert words not in folders() and "g_hoeher" not in catalogue("en")["terminal"]


def test_the_brain_is_typed_and_checked(hoeher: Game) -> None:
    brain = hoeher.brain()
    assert brain.HANDS == 1 and set(brain.OWN) <= set(third_game.EVENTS)
    assert hoeher.actions() == tuple(kind.__struct_config__.tag for kind in third_game.ACTIONS)


def test_the_codec_keeps_its_types_by_the_rules_not_the_name(hoeher: Game) -> None:
    import types

    from zackzack.tui.codec import decode_event

    assert decode_event(third_game, {"type": "played", "seat": 0, "card": 3, "version": 1}) \
        == third_game.Played(0, 3, 1)
    unregister(hoeher.name)
    other = types.ModuleType("other_hoeher")  # the same name, other events
    other.INFO = third_game.INFO  # type: ignore[attr-defined]
    other.EVENTS = ()  # type: ignore[attr-defined]
    register(other)
    try:
        assert decode_event(other, {"type": "played", "seat": 0}) is None
    finally:
        unregister(hoeher.name)
        register(third_game)
