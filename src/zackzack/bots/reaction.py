"""How fast a bot sees, thinks and reaches: one table of log-normal delays per skill level.

After a change it can see, a bot needs a *perception* delay to notice it, a *think* time
that grows with what there is to compute (``per_item`` seconds more for every card to
compare), and a *motor* delay to get the card onto the table; a change that arrives while
the hand is already moving does not stop it (that is how cards come "too late"). With
probability ``mistakes`` a decision is a card that does not fit, which costs the penalty.

Human reaction times are right-skewed, roughly log-normal: a :class:`Delay` is its median
and the spread σ of its logarithm. Anchors: a simple visual reaction (perception + motor)
takes about 0.25 s for a fast adult, a decision with a small computation 0.6–1.5 s.

==========  ==========  ==========  ========  ==========  ========  ==================
level       perception  think       per item  motor       mistakes  mean reaction (4)
==========  ==========  ==========  ========  ==========  ========  ==================
beginner    0.32 σ0.30  0.75 σ0.45  0.25      0.22 σ0.30  8 %       2.1 – 3.0 s
normal      0.22 σ0.25  0.40 σ0.40  0.10      0.13 σ0.25  3 %       1.0 – 1.45 s
pro         0.17 σ0.20  0.20 σ0.35  0.04      0.09 σ0.20  1 %       0.55 – 0.80 s
machine     0.02 σ0.10  0.01 σ0.10  0.002     0.01 σ0.10  0 %       0.03 – 0.07 s
==========  ==========  ==========  ========  ==========  ========  ==================

"mean reaction (4)" is the documented range of the mean time from a change to the card on
the table, for a decision over four cards (an Unter Spannung hand of four); the tests
measure it at a real table. Change a level by replacing its entry in :data:`REACTIONS`.

>>> round(REACTIONS["normal"].mean(4), 2)
1.23
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field
from statistics import NormalDist
from typing import Final

QUANTILE_BITS: Final = 10
"""A delay is drawn from 2**QUANTILE_BITS equally likely quantiles of its distribution."""
_Z = tuple(NormalDist().inv_cdf((i + 0.5) / (1 << QUANTILE_BITS))
           for i in range(1 << QUANTILE_BITS))


@dataclass(frozen=True, slots=True)
class Delay:
    """A log-normal delay in seconds: its median and the spread σ of its logarithm.

    It is sampled from 1024 equally likely quantiles: exact enough for any statistic, and
    one table lookup per draw, which keeps simulations fast.

    >>> delay = Delay(0.25, 0.3)
    >>> round(delay.mean, 3), delay.sample(random.Random(1)) > 0
    (0.261, True)
    """

    median: float
    sigma: float
    quantiles: tuple[float, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if not 0 < self.median <= 60:
            raise ValueError(f"a delay's median must be in (0, 60] s, not {self.median}")
        if not 0 <= self.sigma <= 2:
            raise ValueError(f"a delay's spread σ must be 0 to 2, not {self.sigma}")
        quantiles = tuple(self.median * math.exp(self.sigma * z) for z in _Z)
        object.__setattr__(self, "quantiles", quantiles)

    @property
    def mean(self) -> float:
        """The mean delay in seconds (of the quantiles actually drawn)."""
        return math.fsum(self.quantiles) / len(self.quantiles)

    def sample(self, rng: random.Random) -> float:
        """One delay in seconds."""
        return self.quantiles[rng.getrandbits(QUANTILE_BITS)]


@dataclass(frozen=True, slots=True)
class Reaction:
    """A skill level's reaction model: perception, think time (+ ``per_item``), motor, mistakes."""

    perception: Delay
    think: Delay
    per_item: float
    motor: Delay
    mistakes: float

    def __post_init__(self) -> None:
        if not 0 <= self.per_item <= 10:
            raise ValueError(f"per_item must be 0 to 10 s, not {self.per_item}")
        if not 0 <= self.mistakes < 1:
            raise ValueError(f"the mistake rate must be in [0, 1), not {self.mistakes}")

    def think_scale(self, items: int) -> float:
        """The factor on the think delay for ``items`` cards to compare."""
        return 1 + self.per_item * items / self.think.median

    def mean(self, items: int) -> float:
        """The mean time in seconds from a change to the action, for ``items`` cards."""
        return self.perception.mean + self.think.mean * self.think_scale(items) + self.motor.mean


REACTIONS: dict[str, Reaction] = {
    "beginner": Reaction(Delay(0.32, 0.30), Delay(0.75, 0.45), 0.25, Delay(0.22, 0.30), 0.08),
    "normal": Reaction(Delay(0.22, 0.25), Delay(0.40, 0.40), 0.10, Delay(0.13, 0.25), 0.03),
    "pro": Reaction(Delay(0.17, 0.20), Delay(0.20, 0.35), 0.04, Delay(0.09, 0.20), 0.01),
    "machine": Reaction(Delay(0.02, 0.10), Delay(0.01, 0.10), 0.002, Delay(0.01, 0.10), 0.0),
}
"""The reaction model of every level, slowest first: the one table to read and change."""

RANGES: dict[str, tuple[float, float]] = {
    "beginner": (2.1, 3.0), "normal": (1.0, 1.45), "pro": (0.55, 0.80), "machine": (0.03, 0.07),
}
"""The documented range of each level's mean reaction time over four cards, in seconds."""
