"""The learned bot: its shipped weights, its play everywhere bots play, training, its view."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from typing import Any

import msgspec
import pytest

from zackzack.bots import parse_bot
from zackzack.cli import main
from zackzack.games import entry
from zackzack.games import schnelllauf as sl
from zackzack.games import unter_spannung as us
from zackzack.games.schnelllauf import features as sl_features
from zackzack.games.unter_spannung import features as us_features
from zackzack.learn import policy
from zackzack.learn.policy import Policy
from zackzack.learn.settings import Settings
from zackzack.learn.train import fitness, train
from zackzack.sim import Config, parse_options, play_match

GAMES = ("unter-spannung", "schnelllauf")
SMART = {"unter-spannung": (1.0, 0.0, -1.0, 0.0, 0.0, 3.0, 0.0, 0.0, 0.0, 0.0),
         "schnelllauf": (10.0, -100.0, 5.0, 3.0, 1.0, 2.0, 0.0, 0.0, 1.0, -1.0, 0.0, 0.0)}
"""Weights under which the features score every choice as ``smart`` does."""


@pytest.mark.parametrize("game", GAMES)
def test_shipped_weights_load_with_one_weight_per_feature(game: str) -> None:
    found = policy.read(policy.path(game), game)
    names = entry(game).part("features").NAMES
    assert found.game == game and found.features == names
    assert len(found.weights) == len(names) and any(found.weights)
    assert found.trained["command"].startswith(f"zackzack train {game} ")
    assert policy.load(game) is policy.load(game)  # read once per process


def test_weights_for_other_features_are_refused(tmp_path: Path) -> None:
    stale = tmp_path / "policy.json"
    policy.write(Policy("schnelllauf", ("play", "joker"), (1.0, -1.0)), stale)
    with pytest.raises(ValueError, match="train it again"):
        policy.read(stale, "schnelllauf")
    with pytest.raises(ValueError, match="not unter-spannung"):
        policy.read(policy.path("schnelllauf"), "unter-spannung")
    with pytest.raises(ValueError, match="3 weights for 2 features"):
        Policy("schnelllauf", ("play", "joker"), (1.0, 2.0, 3.0))


@pytest.mark.parametrize(("game", "options", "bots"), [
    ("unter-spannung", {"players": 2}, "normal:learned,normal"),
    ("unter-spannung", {"players": 4, "tournament": True},
     "pro:learned,normal,normal:random,beginner:learned"),
    ("schnelllauf", {}, "normal:learned,normal"),
    ("schnelllauf", {"one_hand_seats": [False, True]}, "normal,pro:learned"),
])
def test_learned_bots_play_whole_matches_alike_at_live_and_fast_tables(
        game: str, options: dict[str, Any], bots: str) -> None:
    specs = tuple(parse_bot(name) for name in bots.split(","))
    config = Config(game, parse_options(game, options), specs, seed=3, matches=2)
    for index in range(2):
        fast = play_match(config, index)
        assert fast == play_match(config, index, live=True)  # Bot at a table: the same match
        assert sorted(fast.places)[0] == 1 and fast.rounds
        assert all(record.actions > 0 for record in fast.rounds)


@pytest.mark.parametrize("game", GAMES)
def test_the_features_express_smart(game: str) -> None:
    """Under ``SMART``'s weights a learned bot plays every decision as ``smart`` would."""
    options = parse_options(game, {"players": 2})
    smart = Config(game, options, (parse_bot("normal"), parse_bot("normal")), seed=8,
                   matches=3)
    learned = Config(game, options, (parse_bot("normal:learned"), parse_bot("normal")),
                     seed=8, matches=3)
    with policy.trying(Policy(game, policy.features(game), SMART[game])):
        assert [play_match(learned, i) for i in range(3)] == \
            [play_match(smart, i) for i in range(3)]
    zero = Policy(game, policy.features(game), (0.0,) * len(SMART[game]))
    with policy.trying(zero):  # and other weights play differently
        assert [play_match(learned, i) for i in range(3)] != \
            [play_match(smart, i) for i in range(3)]
    assert policy.weights(game) == policy.load(game).weights  # trying ended


def test_unter_spannung_features_weigh_follow_ups_and_answers() -> None:
    view = us.View(0, us.Card(5, 2), 3, 4, (us.Card(3, 1), us.Card(7, 1), us.Card(4, 2)),
                   (3, 2), (9, 9), 0, None, False)
    fitting = [us.Card(3, 1), us.Card(7, 1)]
    rows = us_features.rows(view, fitting, us_features.counts(us.STANDARD_DECK), 73, True)
    three, seven = (dict(zip(us_features.NAMES, row, strict=True)) for row in rows)
    assert (three["follow_ups"], seven["follow_ups"]) == (1.0, 0.0)
    assert three["closing"] == 1.0  # 3±1 leaves 7±1, 4±2; the 4±2 fits and goes out
    assert three["threat"] == three["answers"] > 0  # the opponent holds two cards
    assert (three["shed"], seven["shed"]) == (0.3, 0.7)


def test_schnelllauf_features_of_the_move_and_a_joker() -> None:
    c = sl.Card.parse
    view = sl.View(0, (((c("5h"), 0), (sl.JOKER, 2), (c("8d"), 1), (None, 0), (None, 0)),
                       ((c("4h"), 2),) * 5), (30, 30), (c("6s"), c("2d")), (3, 1), (4, 0),
                   (frozenset({6}), frozenset({2})), None, False)
    fits = (frozenset({5, 7}), frozenset({1, 3}))
    five, joker, move = sl_features.rows(view, 0, [(0, c("5h"), 0), (1, sl.JOKER, 0)], fits,
                                         True, move=1)
    named = [dict(zip(sl_features.NAMES, row, strict=True)) for row in (five, joker, move)]
    assert named[0]["cover"] == 0 and named[0]["help"] == 5  # all five 4h fit on the 5h
    assert named[0]["chain"] == 1  # the joker
    assert named[1]["joker"] == 1 and named[1]["depth"] == pytest.approx(2 / 3)
    assert named[2]["move"] == 1 and named[2]["move_depth"] == pytest.approx(2 / 3)


def test_training_is_seeded_and_writes_a_valid_policy(tmp_path: Path,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    first, second = tmp_path / "a.json", tmp_path / "b.json"
    arguments = ["train", "schnelllauf", "--generations", "2", "--population", "3",
                 "--elite", "1", "--rounds", "20", "--seed", "5", "--fix", "joker=-50"]
    assert main([*arguments, "--out", str(first), "--plot", str(tmp_path / "c.png")]) == 0
    assert main([*arguments, "--out", str(second), "--quiet"]) == 0
    out = capsys.readouterr().out
    assert out.count("generation ") == 2 and "wrote" in out
    a, b = policy.read(first, "schnelllauf"), policy.read(second, "schnelllauf")
    assert a.weights == b.weights and a.weights[a.features.index("joker")] == -50
    assert a.trained["command"].startswith("zackzack train schnelllauf --generations 2")
    assert (tmp_path / "c.png").stat().st_size > 1000
    other = train("schnelllauf", Settings(generations=2, population=3, elite=1, rounds=20,
                                          seed=6))
    assert other.policy.weights != a.weights


def test_training_refuses_a_missing_start_file_and_an_env_without_the_extra(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "policy.json"
    missing = ["train", "unter-spannung", "--start", str(tmp_path / "nope.json"), "--out",
               str(out)]
    assert main(missing) == 2
    assert "--start: cannot read" in capsys.readouterr().err and not out.exists()
    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec",
                        lambda name, *a: None if name == "pettingzoo" else real(name, *a))
    assert main(["train", "unter-spannung", "--on", "env", "--out", str(out)]) == 2
    assert "zackzack[env]" in capsys.readouterr().err and not out.exists()


def test_the_environment_path_plays_the_table_options() -> None:
    import zackzack.env as environment
    from zackzack.learn import env

    seen: list[Any] = []
    original = environment.single_agent_env

    def spy(*args: Any, **kwargs: Any) -> Any:
        made = original(*args, **kwargs)
        seen.append(made.parallel.options)
        return made

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(environment, "single_agent_env", spy)
        env.fitness("schnelllauf", policy.load("schnelllauf"),
                    Settings(rounds=2, on="env", options={"players": 2, "wrap": False}), 1)
    assert seen and seen[0].wrap is False  # the option reached the environment's table


def test_training_improves_on_a_poor_start() -> None:
    """From weights that throw jokers first, the elite of one generation does better."""
    game = "schnelllauf"
    start = Policy(game, policy.features(game), (0.0, 50.0, 0.0, *(0.0,) * 9))
    settings = Settings(generations=1, population=6, elite=2, rounds=60, seed=2, spread=30.0)
    result = train(game, settings, start)
    assert result.curve[0].elite > result.curve[0].mean
    assert result.policy.weights != start.weights


def test_bad_training_settings_are_refused() -> None:
    with pytest.raises(ValueError, match="--elite"):
        Settings(population=4, elite=4)
    with pytest.raises(ValueError, match="no feature"):
        train("unter-spannung", Settings(generations=1, population=2, elite=1, rounds=2,
                                         fixed={"jokers": 1.0}))
    assert main(["train", "schnelllauf", "--fix", "joker"]) == 2


def test_fitness_counts_rounds_in_both_seats() -> None:
    game = "unter-spannung"
    settings = Settings(rounds=40)
    smart = Policy(game, policy.features(game), SMART[game])
    assert fitness(game, smart, settings, 4) == 0.5  # the same bot in both seats: a tie
    assert 0 <= fitness(game, smart, settings, 4, strategy="random") <= 1


def test_the_policy_file_is_small_json() -> None:
    for game in GAMES:
        data = policy.path(game).read_bytes()
        assert len(data) < 4096
        assert msgspec.json.decode(data)["game"] == game


@pytest.mark.parametrize("game", GAMES)
def test_the_path_through_the_environment_plays_rounds_seeded(game: str) -> None:
    from zackzack.learn import env

    settings = Settings(rounds=3, on="env")
    shipped = policy.load(game)
    first = env.fitness(game, shipped, settings, 4)
    assert 0 <= first <= 1 and first == env.fitness(game, shipped, settings, 4)
    result = train(game, Settings(generations=1, population=2, elite=1, rounds=2, on="env"))
    assert len(result.curve) == 1


def test_a_choice_goes_to_the_environment_as_its_index() -> None:
    from zackzack.games.unter_spannung import encoding
    from zackzack.learn.env import index

    view = us.View(0, us.Card(5, 2), 3, 4, (us.Card(3, 1), us.Card(7, 1), us.Card(4, 2)),
                   (3, 5), (9, 9), 0, None, False)

    class Codec:
        action = staticmethod(encoding.action)

    mask = encoding.mask(view)
    play = us.Play(us.Card(7, 1), 3)
    assert encoding.action(view, index(Codec, view, mask, play)) == play
    assert index(Codec, view, mask, us.Draw()) == 1 and index(Codec, view, mask, None) == 0
    assert index(Codec, view, mask, us.Play(us.Card(4, 2), 3)) == 0  # not allowed: wait
