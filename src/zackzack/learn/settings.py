"""How to train the learned bot (:class:`Settings`): light, for ``zackzack train --help``'s
defaults without the training's imports (numpy, the simulator)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True, slots=True)
class Settings:
    """How to train: generations, candidates per generation, how many of them make the
    elite, rounds each candidate plays, the seed, the level both bots react at, the
    opponent's strategy, the table options, the spread of the first generation, the extra
    spread (faded to nothing by the last generation), weights held fixed by name, and where
    the rounds are played: ``"sim"`` (the simulator's fast path) or ``"env"``
    (``zackzack.env``'s single-agent wrapper, the learner in seat 0: :mod:`zackzack.learn.env`)."""

    generations: int = 15
    population: int = 16
    elite: int = 4
    rounds: int = 2000
    seed: int = 1
    level: str = "normal"
    opponent: str = "smart"
    options: Mapping[str, Any] = field(default_factory=lambda: {"players": 2})
    spread: float = 2.0
    noise: float = 0.5
    fixed: Mapping[str, float] = field(default_factory=dict)
    on: str = "sim"

    def __post_init__(self) -> None:
        if not 1 <= self.generations <= 10_000:
            raise ValueError(f"--generations must be 1 to 10000, not {self.generations}")
        if not 2 <= self.population <= 10_000:
            raise ValueError(f"--population must be 2 to 10000, not {self.population}")
        if not 1 <= self.elite < self.population:
            raise ValueError(f"--elite must be 1 to {self.population - 1}, not {self.elite}")
        if not 2 <= self.rounds <= 10_000_000:
            raise ValueError(f"--rounds must be 2 to 10000000, not {self.rounds}")
        if self.on not in ("sim", "env"):
            raise ValueError(f"train on 'sim' or 'env', not {self.on!r}")
