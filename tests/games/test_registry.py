"""What the registry publishes and checks: ``/api/games`` data, typed parts, refusals."""

from __future__ import annotations

import json

import pytest

from zackzack.games import entry, schnelllauf, unter_spannung
from zackzack.games.errors import BadAction, OptionsError
from zackzack.games.registry import old_handicap


def _option(game: str, name: str) -> dict[str, object]:
    return next(o for o in entry(game).describe()["options"] if o["name"] == name)


def test_the_players_bounds_come_from_the_games_info() -> None:
    assert _option("schnelllauf", "players") == {
        "name": "players", "type": "int", "min": 2, "max": 2, "default": 2, "required": False}
    assert (_option("unter-spannung", "players")["min"],
            _option("unter-spannung", "players")["max"]) == (2, 6)


def test_a_default_json_cannot_carry_is_left_out_with_a_note() -> None:
    deck = _option("unter-spannung", "deck")
    assert "default" not in deck and "standard value" in str(deck["note"])
    assert _option("schnelllauf", "pile_size")["default"] == [3, 3]
    json.dumps(entry("unter-spannung").describe())  # all of it JSON


def test_rules_and_learn_addresses_only_for_the_pages_a_game_has() -> None:
    listed = entry("unter-spannung").describe()
    assert (listed["rules"], listed["learn"]) == ("/rules/unter-spannung",
                                                  "/learn/unter-spannung")


def test_options_built_in_python_are_bounded_item_by_item() -> None:
    with pytest.raises(OptionsError, match=r"pile_size\[0\] must be between 3 and 4, got 9"):
        schnelllauf.Options(pile_size=(9, 9))
    with pytest.raises(OptionsError, match=r"pile_size\[1\] must be between 3 and 4, got 2"):
        schnelllauf.Options(pile_size=(3, 2))
    assert schnelllauf.Options(pile_size=(4, 3)).pile_size == (4, 3)
    with pytest.raises(OptionsError, match="players must be between 2 and 6"):
        unter_spannung.Options(players=7)


def test_an_unknown_action_names_the_players_actions_and_the_field() -> None:
    with pytest.raises(BadAction) as refused:
        entry("unter-spannung").action_from_json({"type": "dance"})
    assert str(refused.value) == ("unknown action 'dance'; Unter Spannung knows play, draw"
                                  " - at `$.type`")
    assert refused.value.code == "bad_action"
    with pytest.raises(BadAction, match="Schnelllauf knows play, move"):
        entry("schnelllauf").action_from_json({"type": "rotate"})
    # the table's own steps still decode (the table refuses them from a player)
    assert type(entry("unter-spannung").action_from_json({"type": "rotate"})).__name__ \
        == "Rotate"
    with pytest.raises(BadAction, match="missing required field `type`"):
        entry("unter-spannung").action_from_json({})


def test_a_bad_handicap_value_is_refused_naming_the_handicap() -> None:
    with pytest.raises(ValueError, match=r"^--handicap 1:pile=x: .*pile_size\[0\]"):
        entry("schnelllauf").handicap(["1:pile=x"])
    assert old_handicap("me:piles") == "1:pile=4" and old_handicap("bot") == "2"
    assert old_handicap("1:pile=4") is None


def test_the_front_is_read_once_and_the_parts_are_typed() -> None:
    game = entry("schnelllauf")
    assert game.front is game.front
    brain = game.brain()
    assert brain.HANDS == 2 and brain is game.part("bot").Brain
    assert entry("unter-spannung").actions() == ("play", "draw")


def test_the_no_such_game_text_is_not_fixed_at_import() -> None:
    from zackzack.server.protocol import ERRORS

    assert "unter-spannung" not in ERRORS["no_such_game"]
