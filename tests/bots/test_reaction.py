"""The reaction model: right-skewed delays, and each level's measured mean in its range."""

from __future__ import annotations

import math
import random
import statistics

import pytest

from zackzack.bots import LEVELS, REACTIONS, Bot, Delay
from zackzack.bots.reaction import RANGES
from zackzack.engine.clock import VirtualClock
from zackzack.engine.table import Table
from zackzack.games import unter_spannung as us

FOUR = "3±1 8±2 4±1 6±1"  # exactly one card (3±1) fits the top 5±2
EIGHT = "3±1 8±2 4±1 6±1 9±1 10±2 1±3 2±1"
OTHER = "5±1 9±2 10±3 8±1"


def first_action_ms(level: str, hand: str, seed: int) -> int:
    """When a bot of ``level`` with ``hand`` first acts after the round starts (table ms)."""
    cards = [*hand.split(), *OTHER.split()]
    draw = ["7±1", "6±2", "2±3", "1±2"]
    deck = tuple(us.Card.parse(c) for c in [*cards, *draw, "5±2"])
    options = us.Options(players=2, deck=deck)
    deal = us.parse_deal({"hands": [hand.split(), OTHER.split()],
                          "draw_piles": [draw[:2], draw[2:]], "discard_pile": ["5±2"]}, options)
    clock = VirtualClock()
    table = Table(us, options, clock=clock, first_round=deal)
    Bot(table, 0, level, random.Random(seed))
    table.start()
    clock.run(stop=lambda: bool(table.log))
    return table.log[0].t


@pytest.mark.parametrize("level", LEVELS)
def test_measured_mean_reaction_falls_in_the_documented_range(level: str) -> None:
    times = [first_action_ms(level, FOUR, seed) / 1000 for seed in range(300)]
    low, high = RANGES[level]
    assert low <= statistics.fmean(times) <= high
    assert abs(statistics.fmean(times) - REACTIONS[level].mean(4)) < 0.08 * high
    assert statistics.fmean(times) > statistics.median(times)  # right-skewed


def test_think_time_grows_with_the_cards_to_compare() -> None:
    four = statistics.fmean(first_action_ms("normal", FOUR, seed) for seed in range(200))
    eight = statistics.fmean(first_action_ms("normal", EIGHT, seed) for seed in range(200))
    expected = REACTIONS["normal"].mean(8) - REACTIONS["normal"].mean(4)
    assert eight - four == pytest.approx(expected * 1000, rel=0.25)


def test_delay_samples_are_log_normal() -> None:
    delay = Delay(0.3, 0.4)
    rng = random.Random(5)
    samples = [delay.sample(rng) for _ in range(20_000)]
    assert statistics.median(samples) == pytest.approx(0.3, rel=0.03)
    logs = [math.log(s) for s in samples]
    assert statistics.stdev(logs) == pytest.approx(0.4, rel=0.05)
    assert statistics.fmean(samples) == pytest.approx(delay.mean, rel=0.02)
    assert delay.mean == pytest.approx(0.3 * math.exp(0.4 ** 2 / 2), rel=0.01)


@pytest.mark.parametrize("args", [(0.0, 0.3), (-1.0, 0.3), (0.3, -0.1), (0.3, 3.0)])
def test_bad_delays_are_refused(args: tuple[float, float]) -> None:
    with pytest.raises(ValueError, match="delay"):
        Delay(*args)
