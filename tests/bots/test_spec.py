"""Naming bots: one string for level and strategy, clear errors for anything else."""

from __future__ import annotations

import pytest

from zackzack.bots import LEVELS, REACTIONS, STRATEGIES, BotSpec, parse_bot
from zackzack.bots.reaction import RANGES


@pytest.mark.parametrize(("text", "level", "strategy", "canonical"), [
    ("pro", "pro", "smart", "pro"),
    ("normal:random", "normal", "random", "normal:random"),
    ("  Beginner : SMART ", "beginner", "smart", "beginner"),
    ("machine:", "machine", "smart", "machine"),
])
def test_parse_bot_reads_level_and_strategy(text: str, level: str, strategy: str,
                                            canonical: str) -> None:
    spec = parse_bot(text)
    assert (spec.level, spec.strategy, str(spec)) == (level, strategy, canonical)
    assert parse_bot(str(spec)) == spec


@pytest.mark.parametrize(("text", "words"), [
    ("grandmaster", ["grandmaster", *LEVELS]),
    ("pro:cheating", ["cheating", *STRATEGIES]),
    ("", [*LEVELS, *STRATEGIES]),
    (":random", ["''", *LEVELS]),
])
def test_bad_names_list_what_is_valid(text: str, words: list[str]) -> None:
    with pytest.raises(ValueError) as error:
        parse_bot(text)
    for word in words:
        assert word in str(error.value)


def test_levels_run_from_slow_to_fast_and_every_level_has_a_model() -> None:
    assert LEVELS == ("beginner", "normal", "pro", "machine")
    assert set(REACTIONS) == set(LEVELS) == set(RANGES)
    means = [REACTIONS[level].mean(4) for level in LEVELS]
    assert means == sorted(means, reverse=True)
    mistakes = [REACTIONS[level].mistakes for level in LEVELS]
    assert mistakes == sorted(mistakes, reverse=True)


def test_spec_is_frozen_and_validated() -> None:
    spec = BotSpec("pro")
    with pytest.raises(AttributeError):
        spec.level = "normal"  # type: ignore[misc]
    with pytest.raises(ValueError, match="levels"):
        BotSpec("expert")
