"""Scripted players for the fair-play validation: the best card after a scripted delay.

A script is what a cheat writes in an afternoon against the open protocol: it sees every
change at once, picks the card the ``machine`` bot would (the smart strategy) and sends it
after a delay of its own, with no perception, no think time growing with the cards to
compare, no motor delay and no mistakes. Three kinds, named in one string:

* ``fixed:200`` — always 200 ms;
* ``uniform:150-250`` — uniformly random between 150 and 250 ms;
* ``gauss:600:120`` — a human median (600 ms) plus Gaussian noise (σ 120 ms).

The bot levels (``pro``, ``normal:learned``, ``machine``) play beside them as ever. A match
is played on the simulator's fast path (``zackzack.sim.fast``) and kept as its match log,
the very thing the server stores, for ``zackzack.moderation.fairplay`` to read.

>>> from zackzack.games import unter_spannung as us
>>> log = play_logged("unter-spannung", us.Options(players=2), ["fixed:200", "pro"], seed=1)
>>> from zackzack.moderation.fairplay import reactions
>>> sorted({r.ms for r in reactions(log)[0]})
[200]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from statistics import NormalDist
from typing import Any

from zackzack.bots import BotSpec, parse_bot
from zackzack.bots.reaction import QUANTILE_BITS
from zackzack.engine.matchlog import MatchLog
from zackzack.engine.replay import table_log
from zackzack.engine.table import Settings
from zackzack.games import game
from zackzack.sim import MAX_GAME_HOURS, fast

_COUNT = 1 << QUANTILE_BITS
_ZEROS = (0.0,) * _COUNT


@dataclass(frozen=True, slots=True)
class Script:
    """A scripted delay: ``kind`` (fixed, uniform or gauss) and its numbers in ms."""

    kind: str
    a: float
    b: float = 0.0

    def __str__(self) -> str:
        if self.kind == "fixed":
            return f"fixed:{self.a:g}"
        if self.kind == "uniform":
            return f"uniform:{self.a:g}-{self.b:g}"
        return f"gauss:{self.a:g}:{self.b:g}"

    def quantiles(self) -> tuple[float, ...]:
        """The delay's equally likely quantiles in seconds (a bot's timing table).

        >>> q = Script("uniform", 150, 250).quantiles()
        >>> round(min(q), 3), round(max(q), 3), len(q)
        (0.15, 0.25, 1024)
        """
        levels = [(i + 0.5) / _COUNT for i in range(_COUNT)]
        if self.kind == "fixed":
            values = [self.a] * _COUNT
        elif self.kind == "uniform":
            values = [self.a + (self.b - self.a) * p for p in levels]
        else:
            normal = NormalDist(self.a, self.b)
            values = [max(10.0, normal.inv_cdf(p)) for p in levels]
        return tuple(value / 1000 for value in values)


def parse_player(name: str) -> BotSpec | Script:
    """A bot (``pro``, ``normal:learned``) or a script (``fixed:200``, ``uniform:150-250``,
    ``gauss:600:120``).

    >>> parse_player("uniform:150-250"), parse_player("normal:learned")
    (Script(kind='uniform', a=150.0, b=250.0), BotSpec(level='normal', strategy='learned'))
    """
    kind, _, rest = name.strip().lower().partition(":")
    try:
        if kind == "fixed":
            return Script("fixed", float(rest))
        if kind == "uniform":
            low, _, high = rest.partition("-")
            if not 0 < float(low) <= float(high):
                raise ValueError(name)
            return Script("uniform", float(low), float(high))
        if kind == "gauss":
            median, _, sd = rest.partition(":")
            return Script("gauss", float(median), float(sd))
    except ValueError:
        raise ValueError(f"a script is named like fixed:200, uniform:150-250 or "
                         f"gauss:600:120, not {name!r}") from None
    return parse_bot(name)


def play_logged(game_name: str, options: Any, players: Sequence[str], seed: int,
                settings: Settings = Settings()) -> MatchLog:
    """One match of ``players`` (bots or scripts, one per seat) to its end; its log."""
    parsed = [parse_player(name) for name in players]
    machine = parse_bot("machine")
    specs = [spec if isinstance(spec, BotSpec) else machine for spec in parsed]
    match = fast.Match(game(game_name), options, specs, seed, settings, log=True)
    for seat, script in zip(match.seats, parsed, strict=True):
        if isinstance(script, Script):
            seat.perception = seat.motor = _ZEROS
            seat.think = script.quantiles()
            seat.per_item = seat.mistakes = 0.0
            seat.scale = 1.0
    running = match.play(until=MAX_GAME_HOURS * 3600.0)
    table = match.table
    if running or table.match.result is None:
        raise RuntimeError(f"a match of {', '.join(players)} (seed {seed}) did not end")
    return table_log(table, tuple(players), end_ms=table.now)


def series(game_name: str, options: Any, players: Sequence[str], matches: int,
           seed: int) -> list[list[tuple[int, float]]]:
    """``matches`` matches of ``players`` (bots or scripts, one per seat) as a rated series:
    per seat, after each match, how many reactions the detector has seen of it in
    all its matches so far and their score (``bench/fairplay.py``).

    >>> from zackzack.games import unter_spannung as us
    >>> seats = series("unter-spannung", us.Options(players=2), ["fixed:200", "pro"], 4, 1)
    >>> [score >= 8 for _, score in seats[0]][-1], [score >= 8 for _, score in seats[1]][-1]
    (True, False)
    """
    from zackzack.moderation.fairplay import assess, reactions
    from zackzack.sim import match_seed

    seen: list[list[Any]] = [[] for _ in players]
    found: list[list[tuple[int, float]]] = [[] for _ in players]
    for index in range(matches):
        log = play_logged(game_name, options, players, match_seed(seed, index))
        for seat, rows in enumerate(reactions(log)):
            seen[seat].extend(rows)
            evidence = assess(seen[seat])
            found[seat].append((evidence.n, evidence.score))
    return found
