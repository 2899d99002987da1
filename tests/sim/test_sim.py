"""The simulator: deterministic for a seed whatever the number of processes; sound figures."""

from __future__ import annotations

import math
from dataclasses import replace

import pytest

from zackzack.bots import parse_bot
from zackzack.games import game
from zackzack.sim import Config, chunk_size, match_seed, play_match, simulate
from zackzack.sim.stats import quantiles, summarise, wilson


def config(name: str, data: dict[str, object], bots: str, **amount: int) -> Config:
    options = game(name).parse_options(data)
    return Config(name, options, tuple(parse_bot(b) for b in bots.split(",")), seed=7, **amount)


US = config("unter-spannung", {"players": 3}, "pro,normal,beginner:random", rounds=450)
SL = config("schnelllauf", {"pile_size": [4, 3]}, "pro,normal", matches=12)
NET = replace(config("schnelllauf", {"one_hand_seats": [False, True]}, "normal,normal",
                     matches=6),
              rtt=(30, 180))


@pytest.mark.parametrize("cfg", [US, SL, NET], ids=["unter-spannung", "schnelllauf", "network"])
def test_results_are_identical_for_one_and_two_jobs(cfg: Config) -> None:
    one = simulate(cfg, jobs=1)
    assert simulate(cfg, jobs=2) == one
    assert summarise(cfg, one) == summarise(cfg, simulate(cfg, jobs=2))


def test_a_match_replays_alone_and_seeds_differ() -> None:
    records = simulate(US)
    assert play_match(US, 123) == records[123]
    assert len({match_seed(7, i) for i in range(1000)}) == 1000
    other = Config(US.game, US.options, US.bots, seed=8, rounds=450)
    assert simulate(other) != records


def test_rounds_stop_at_the_match_that_reaches_them() -> None:
    tournament = config("unter-spannung", {"players": 2, "tournament": True}, "pro,normal",
                        rounds=10)
    records = simulate(tournament, jobs=2)
    assert [len(r.rounds) for r in records] == [4, 4, 4]
    assert len(simulate(SL)) == 12
    assert chunk_size(US) == 200 and chunk_size(tournament) == 50


def test_the_summary_adds_up() -> None:
    records = simulate(US)
    summary = summarise(US, records)
    assert summary["rounds"] == summary["matches"] == 450
    seats = summary["seats"]
    assert sum(s["round_wins"] for s in seats) + round(summary["no_winner_rate"] * 450) == 450
    assert math.fsum(s["match_win_rate"] for s in seats) == pytest.approx(
        1 - summary["no_winner_rate"])
    for seat in seats:
        low, high = seat["round_win_ci95"]
        assert low <= seat["round_win_rate"] <= high
    assert seats[0]["round_win_rate"] > seats[1]["round_win_rate"] > seats[2]["round_win_rate"]
    lengths = summary["round_seconds"]
    assert lengths["min"] <= lengths["p10"] <= lengths["median"] <= lengths["p90"] <= lengths["max"]
    assert summary["round_actions"]["min"] >= 2  # a round needs at least plays to go out


def test_schnelllauf_summary_counts_rounds_per_match_and_stalemates() -> None:
    summary = summarise(SL, simulate(SL))
    assert summary["rounds_per_match"]["mean"] > 1
    assert summary["steps_per_round"] > 0
    held = sum(s["final_score_mean"] for s in summary["seats"])
    assert held == pytest.approx(2 * 55)  # every card ends with one of the two players
    assert sum(s["match_wins"] for s in summary["seats"]) == 12


def test_statistics_helpers() -> None:
    assert wilson(0, 0) == (0.0, 1.0)
    low, high = wilson(500, 1000)
    assert low == pytest.approx(0.469, abs=1e-3) and high == pytest.approx(0.531, abs=1e-3)
    assert quantiles([]) == {}
    figures = quantiles([4, 1, 3, 2])
    assert (figures["min"], figures["median"], figures["max"], figures["mean"]) == (1, 2.5, 4, 2.5)


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"matches": 0}, "must be 1"),
    ({"matches": 3, "rounds": 3}, "not both"),
    ({}, "matches or rounds"),
])
def test_bad_configs_are_refused(kwargs: dict[str, int], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        Config(US.game, US.options, US.bots, **kwargs)
    with pytest.raises(ValueError, match="one bot per player"):
        Config(US.game, US.options, US.bots[:2], matches=1)
    with pytest.raises(ValueError, match="jobs"):
        simulate(SL, jobs=0)


def test_a_simulated_match_over_a_network_replays_on_a_table_alone() -> None:
    """The network decides only when and in which order actions reach the table: the
    table's own log replays to the same result without it."""
    import random

    from zackzack.bots import Bot
    from zackzack.engine.clock import VirtualClock
    from zackzack.engine.replay import replay, table_log
    from zackzack.engine.table import Settings, Table
    from zackzack.sim import network

    rules = game("unter-spannung")
    clock = VirtualClock()
    table = Table(rules, rules.parse_options({"players": 3}), clock=clock, seed=4,
                  settings=Settings())
    links = network.Network(table, (10, 120, 250), random.Random(1)).links
    for seat in range(3):
        Bot(table, seat, "pro", random.Random(seat), links[seat])
    table.start()
    clock.run(until=3600)
    assert table.match.result is not None
    again = replay(table_log(table)).table
    assert again.match.result == table.match.result and again.log == table.log
