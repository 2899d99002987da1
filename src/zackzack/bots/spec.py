"""Naming a bot: its skill level and strategy in one string, ``pro`` or ``normal:random``.

>>> parse_bot("pro"), str(parse_bot("normal:random")), str(parse_bot(" Pro:Smart "))
(BotSpec(level='pro', strategy='smart'), 'normal:random', 'pro')
>>> str(parse_bot("normal:learned"))
'normal:learned'
>>> parse_bot("grandmaster")
Traceback (most recent call last):
...
ValueError: unknown bot level 'grandmaster'; levels: beginner, normal, pro, machine (slowest first)
"""

from __future__ import annotations

from dataclasses import dataclass

LEVELS: tuple[str, ...] = ("beginner", "normal", "pro", "machine")
"""The skill levels, weakest first: from a child learning to add to faster than any person."""
STRATEGIES: tuple[str, ...] = ("smart", "random", "learned")
"""The strategies: ``smart`` (the default) plays well, ``random`` is the baseline, ``learned``
weighs its choices with a trained linear policy (``zackzack.learn``)."""
DEFAULT_STRATEGY = STRATEGIES[0]


@dataclass(frozen=True, slots=True)
class BotSpec:
    """A bot's skill level and strategy; ``str()`` is its canonical name."""

    level: str
    strategy: str = DEFAULT_STRATEGY

    def __post_init__(self) -> None:
        if self.level not in LEVELS:
            raise ValueError(f"unknown bot level {self.level!r}; levels: "
                             f"{', '.join(LEVELS)} (slowest first)")
        if self.strategy not in STRATEGIES:
            raise ValueError(f"unknown bot strategy {self.strategy!r}; strategies: "
                             f"{', '.join(STRATEGIES)} (a bot is named like 'pro' or "
                             f"'normal:random')")

    def __str__(self) -> str:
        if self.strategy == DEFAULT_STRATEGY:
            return self.level
        return f"{self.level}:{self.strategy}"


def parse_bot(spec: str) -> BotSpec:
    """The bot named ``spec``: ``LEVEL`` or ``LEVEL:STRATEGY``, any case."""
    if not isinstance(spec, str) or not spec.strip():
        raise ValueError(f"a bot is named like 'pro' or 'normal:random', got {spec!r}; "
                         f"levels: {', '.join(LEVELS)}; strategies: {', '.join(STRATEGIES)}")
    level, _, strategy = spec.strip().lower().partition(":")
    return BotSpec(level.strip(), strategy.strip() or DEFAULT_STRATEGY)
