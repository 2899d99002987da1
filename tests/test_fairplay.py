"""The fair-play detector: its statistics and score on fixed synthetic series, and a small
validation on the virtual clock (``bench/fairplay.py`` runs the big one)."""

from __future__ import annotations

import math
import random

import pytest

from zackzack.games import schnelllauf as sl
from zackzack.games import unter_spannung as us
from zackzack.moderation.fairplay import (
    BOUNDS,
    FLOOR_MS,
    MIN_REACTIONS,
    THRESHOLD,
    Reaction,
    assess,
    dfa,
    reactions,
)
from zackzack.sim.scripted import Script, parse_player, play_logged, series


def human(n: int, seed: int, *, base: float = 0.45, per_card: float = 0.06,
          sigma: float = 0.3, noticing: float = 0.2, mistakes: float = 0.03) -> list[Reaction]:
    """A person's series as the human model makes it: log-normal, slower with more cards,
    slower after others' changes (noticing them), now and then a wrong card."""
    rng = random.Random(seed)
    rows = []
    for _ in range(n):
        cards = 1 + rng.randrange(6)
        own = rng.random() < 0.3
        seconds = (base + per_card * cards + (0 if own else noticing)) * rng.lognormvariate(
            0, sigma)
        rows.append(Reaction(round(seconds * 1000), cards, rng.randrange(1, 4), own,
                             wrong=rng.random() < mistakes))
    return rows


def scripted(n: int, seed: int, delay: Script) -> list[Reaction]:
    """A script's series: its delay, whatever the cards or whose the change."""
    rng = random.Random(seed)
    quantiles = delay.quantiles()
    return [Reaction(round(1000 * quantiles[rng.randrange(len(quantiles))]),
                     1 + rng.randrange(6), rng.randrange(1, 4), rng.random() < 0.3)
            for _ in range(n)]


@pytest.mark.parametrize("seed", range(20))
def test_human_model_series_are_never_flagged(seed: int) -> None:
    for n in (MIN_REACTIONS, 150, 600):
        evidence = assess(human(n, seed))
        assert not evidence.flagged, evidence
        assert evidence.score < THRESHOLD / 2


@pytest.mark.parametrize("delay", [Script("fixed", 200), Script("uniform", 150, 250),
                                   Script("gauss", 500, 100), Script("gauss", 900, 200)],
                         ids=str)
def test_scripted_series_are_flagged(delay: Script) -> None:
    for seed in range(10):
        evidence = assess(scripted(300, seed, delay))
        assert evidence.flagged, (seed, evidence)


def test_each_statistic_on_a_fixed_series() -> None:
    rows = [Reaction(100, 2, 1, False)] * 30 + [Reaction(400 + 10 * i, 1 + i % 5, 1, i % 2 == 0)
                                                for i in range(70)]
    evidence = assess(rows)
    assert evidence.n == 100
    assert evidence.floor == pytest.approx(30 / (30 + 35))  # others' changes only
    assert evidence.suspicion["floor"] == 10.0  # clipped
    assert evidence.median_ms == pytest.approx(sorted(r.ms for r in rows)[49:51][0], abs=10)
    assert evidence.p05_ms == 100
    assert evidence.flagged


@pytest.mark.parametrize("delay", [Script("gauss", 500, 100), Script("gauss", 900, 200)],
                         ids=str)
def test_gaussian_scripts_are_flagged_on_ten_single_rounds_worth(delay: Script) -> None:
    """About 200 reactions (cards and draws) is what the median Gaussian script shows in ten
    single rounds (``docs/analysis.md``); the same number from the human model stays clear."""
    for seed in range(20):
        assert assess(scripted(200, seed, delay)).flagged, seed
        assert assess(human(200, seed)).score < THRESHOLD / 2, seed


@pytest.mark.parametrize("delay", [Script("gauss", 500, 100), Script("gauss", 900, 200)],
                         ids=str)
def test_gaussian_noise_is_not_right_skewed_and_makes_no_mistakes(delay: Script) -> None:
    """The two statistics that catch the slow Gaussian script where its few reactions leave
    the slope and the noticing unsure: a person's long tail, a person's wrong cards."""
    for seed in range(10):
        script, person = assess(scripted(600, seed, delay)), assess(human(600, seed))
        assert script.skew is not None and person.skew is not None
        assert abs(script.skew) < BOUNDS["skew"].limit < person.skew
        assert script.suspicion["skew"] > 0 == person.suspicion["skew"]
        assert script.mistakes == 0 and script.suspicion["mistakes"] > 0
        assert person.mistakes is not None and person.mistakes > BOUNDS["mistakes"].limit
        assert person.suspicion["mistakes"] == 0


def test_the_skew_is_the_third_standardised_moment() -> None:
    rows = [Reaction(ms, 2, 1, False) for ms in [300] * 8 + [400, 1300]]
    evidence = assess(rows)
    values = [r.ms for r in rows]
    mean = sum(values) / len(values)
    sd = math.sqrt(sum((v - mean) ** 2 for v in values) / len(values))
    assert evidence.skew == pytest.approx(sum(((v - mean) / sd) ** 3 for v in values) / 10)
    assert assess([Reaction(200, 2, 1, False)] * 10).skew == 0.0  # no spread: no tail


def test_a_flawless_record_alone_never_flags() -> None:
    """No wrong card in thousands of reactions adds to the score, never past its cap: a
    careful person may play that well, so it only ever supports other evidence."""
    careful = assess(human(20_000, 8, mistakes=0.0))
    assert careful.mistakes == 0 and not careful.flagged
    assert careful.suspicion["mistakes"] == BOUNDS["mistakes"].cap < THRESHOLD
    assert careful.score == careful.suspicion["mistakes"]  # nothing else beyond a bound
    few = assess(human(100, 8, mistakes=0.0))
    assert 0 < few.suspicion["mistakes"] < 1


def test_draws_feed_the_regression_but_not_the_floor() -> None:
    cards = human(120, 6)
    draws = [Reaction(100, r.choices, 0, False, play=False) for r in human(40, 7)]
    alone, both = assess(cards), assess(cards + draws)
    assert both.n == alone.n + 40
    assert both.floor == alone.floor and both.p05_ms == 100
    assert both.spread is not None and alone.spread is not None and both.spread > alone.spread


def test_reactions_carry_draws_answering_a_change_no_sooner_than_the_floor() -> None:
    log = play_logged("unter-spannung", us.Options(players=2), ["pro", "normal"], seed=2)
    rows = [row for seat in reactions(log) for row in seat]
    draws = [r for r in rows if not r.play]
    assert 10 < len(draws) < len(rows)
    assert all(r.ms >= FLOOR_MS for r in draws if not r.own)
    assert all(r.fitting == 0 for r in draws)  # nothing fitted: a draw
    beginners = [r for seed in range(1, 6) for seat in reactions(play_logged(
        "unter-spannung", us.Options(players=2), ["beginner", "beginner"], seed=seed))
        for r in seat]
    wrong = [r for r in beginners if r.wrong]
    assert wrong and all(r.play for r in wrong)  # a wrong card, never a draw


def test_too_few_reactions_are_never_flagged() -> None:
    few = scripted(MIN_REACTIONS - 1, 1, Script("fixed", 200))
    evidence = assess(few)
    assert evidence.score >= THRESHOLD and not evidence.flagged
    assert assess([]).n == 0 and not assess([]).flagged


def test_a_machine_below_the_floor_is_flagged_on_the_floor_alone() -> None:
    rows = [r._replace(ms=round(r.ms / 10)) for r in human(100, 3)]
    assert max(r.ms for r in rows) < 400
    evidence = assess(rows)
    assert evidence.floor is not None and evidence.floor > 0.5 and FLOOR_MS == 150
    assert evidence.suspicion["floor"] == 10.0 and evidence.flagged


def test_the_hick_slope_and_the_noticing_are_measured() -> None:
    evidence = assess(human(2000, 5, sigma=0.2))
    assert evidence.hick is not None and evidence.notice is not None
    # the model's log slope: d log(base + per_card * c) / dc, about 0.06 / 0.9
    assert 0.04 < evidence.hick < 0.1
    assert -0.4 < evidence.notice < -0.15 < BOUNDS["notice"].limit


def test_lag1_and_dfa_see_long_memory() -> None:
    rng = random.Random(4)
    noise = [rng.gauss(0, 1) for _ in range(4096)]
    alpha = dfa(noise)
    assert alpha is not None and abs(alpha - 0.5) < 0.1
    drifting = [x + 0.02 * sum(noise[max(0, i - 200):i]) for i, x in enumerate(noise)]
    slow = dfa(drifting)
    assert slow is not None and slow > 0.7
    evidence = assess([Reaction(round(600 * math.exp(0.1 * x)), 3, 1, False) for x in drifting])
    assert evidence.lag1 is not None and evidence.lag1 > 0.05
    assert evidence.dfa is not None and evidence.dfa > 0.7
    assert "dfa" not in evidence.suspicion and "lag1" not in evidence.suspicion  # not scored


def test_scripts_are_named_like_bots() -> None:
    assert str(parse_player("gauss:600:120")) == "gauss:600:120"
    with pytest.raises(ValueError, match="uniform:150-250"):
        parse_player("uniform:250-150")


@pytest.mark.parametrize(("rules", "options", "matches"), [
    (us, us.Options(players=2), 10),
    (us, us.Options(players=2, tournament=True), 8),
    (sl, sl.Options(), 3),
], ids=["unter-spannung single round", "unter-spannung", "schnelllauf"])
def test_a_small_validation_on_the_virtual_clock(rules: object, options: object,
                                                 matches: int) -> None:
    """Human levels against each other stay clear; each script is flagged within the
    series (the same seeds every run)."""
    name = "unter-spannung" if rules is us else "schnelllauf"
    for pair, seed in ((("pro", "normal:learned"), 1), (("beginner", "pro:learned"), 2)):
        for scores in series(name, options, pair, matches, seed):
            assert all(score < THRESHOLD for _, score in scores), (pair, scores)
    scripts = [("machine", 3), ("uniform:150-250", 4), ("gauss:500:100", 5)]
    if options == us.Options(players=2):  # the single round, where the slow script hides best
        scripts.append(("gauss:900:200", 6))
    for script, seed in scripts:
        scores = series(name, options, (script, "pro"), matches, seed)[0]
        n, score = scores[-1]
        assert n >= MIN_REACTIONS and score >= THRESHOLD, (script, scores)
