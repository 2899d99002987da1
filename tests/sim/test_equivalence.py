"""The fast path plays as the live table does: its logs replay to the same events and results,
and ``Bot``s at a live table play the very same matches."""

from __future__ import annotations

from typing import Any

import pytest

from zackzack.bots import parse_bot
from zackzack.engine.replay import replay, table_log
from zackzack.games import game
from zackzack.games.base import Event
from zackzack.sim import Config, fast, match_seed, play_fast, play_live


def config(name: str, data: dict[str, object], bots: str, seed: int) -> Config:
    options = game(name).parse_options(data)
    return Config(name, options, tuple(parse_bot(b) for b in bots.split(",")), seed=seed,
                  matches=1)


CASES = [  # (config, matches): thousands of seeds in all, every level, strategy and handicap
    (config("unter-spannung", {"players": 2}, "pro,beginner:random", 1), 1200),
    (config("unter-spannung", {"players": 2}, "machine,normal", 2), 500),
    (config("unter-spannung", {"players": 4}, "normal,normal,normal,normal", 3), 800),
    (config("unter-spannung", {"players": 4}, "beginner,pro:random,machine,normal", 4), 400),
    (config("unter-spannung", {"players": 3, "tournament": True},
            "pro,normal,beginner:random", 5), 60),
    (config("schnelllauf", {"jokers": 0, "max_rounds": 2}, "normal,normal", 6), 400),
    (config("schnelllauf", {"max_rounds": 2, "one_hand_seats": [False, True]},
            "beginner,pro:random", 7), 300),
    (config("schnelllauf", {"max_rounds": 3, "pile_size": [4, 3]}, "machine,beginner", 8), 150),
]
IDS = [f"{c.game}-{c.options.players}p-{','.join(map(str, c.bots))}" for c, _ in CASES]


def heard(match: fast.Match) -> list[Event]:
    """Every event of ``match``'s table, unredacted, in order (it must not have started)."""
    events: list[Event] = []
    match.table.subscribe_all(events.extend)
    return events


@pytest.mark.parametrize(("cfg", "matches"), CASES, ids=IDS)
def test_a_simulated_log_replays_through_the_live_table_to_the_same_events(
        cfg: Config, matches: int) -> None:
    rules = game(cfg.game)
    for index in range(matches):
        match = fast.Match(rules, cfg.options, cfg.bots, match_seed(cfg.seed, index), log=True)
        events = heard(match)
        assert not match.play(until=24 * 3600.0)
        table = match.table
        assert table.match.result is not None
        replayed = replay(table_log(table, end_ms=table.now))
        again = replayed.table
        assert [event for step in replayed.steps for event in step.events] == events, index
        assert again.match.results == table.match.results
        assert again.match.result == table.match.result
        assert again.log == table.log


@pytest.mark.parametrize(("cfg", "matches"), CASES, ids=IDS)
def test_bots_at_a_live_table_play_the_same_matches(cfg: Config, matches: int) -> None:
    for index in range(0, matches, 4):
        record, match = play_fast(cfg, index, log=True)
        live: Any
        live_record, live = play_live(cfg, index)
        assert record == live_record, index
        assert match.table.log == live.log, index


def test_a_simulation_that_keeps_no_log_plays_the_same() -> None:
    cfg, _ = CASES[3]
    for index in range(20):
        record, match = play_fast(cfg, index)
        assert record == play_fast(cfg, index, log=True)[0] and match.table.log == [], index


def test_a_match_cut_short_says_that_something_was_still_due() -> None:
    cfg = config("unter-spannung", {"players": 2}, "normal,normal", 1)
    match = fast.Match(game(cfg.game), cfg.options, cfg.bots, match_seed(1, 0))
    assert match.play(until=1.0)  # cut short: something was still due
    assert match.table.match.result is None
