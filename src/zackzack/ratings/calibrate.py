"""Bot ratings by simulation: bots play rated matches on the virtual clock, openskill rates them.

Each game has its own plan of two-seat tables, every pairing in both seat orders: every pair
of levels, and in Schnelllauf a *ladder*. There a match between two levels always goes to
the faster bot, so it says only "stronger", never "by how much"; the rungs of the ladder
measure the gap instead. A rung is a level with every delay of its reaction model slowed by
``step**k``; neighbouring rungs win about 90 % against each other, and the last rungs of a
level are as slow as the next weaker level and play it. The levels' ratings are the fit over
all these matches together. (Unter Spannung's four-player tables are left out: behind the
winner, the places hardly depend on speed; docs/analysis.md.)

The fit is the fixed point of openskill's own update (:func:`zackzack.ratings.update`, every
entrant held at σ = :data:`SIGMA_FLOOR`): the μ at which the matches, taken together, move
nobody on average. That is the maximum of the Plackett–Luce likelihood that openskill's update
climbs one match at a time, found by Newton's method, so it does not depend on the order of
the matches. A weak prior N(25, :data:`PRIOR_SIGMA`²) per entrant keeps it finite when a small
run has a level that never lost. Then every μ of a game is shifted so that ``normal`` has the
μ of a new player; σ is the standard error of μ − μ(normal), at least :data:`SIGMA_FLOOR`.

Match ``i`` of table ``t`` is seeded from (seed, t, i) alone: any number of processes gives
the same matches and the same ratings.

>>> [str(e) for e in ladder("schnelllauf", step=4.0)[:4]]
['beginner', 'normal', 'pro', 'machine']
"""

from __future__ import annotations

import itertools
import math
import random
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from typing import Any

import numpy as np

from zackzack import ratings
from zackzack.bots import LEVELS, REACTIONS, Bot, parse_bot
from zackzack.engine.clock import VirtualClock
from zackzack.engine.table import Settings, Table
from zackzack.games import GAMES, entry, game
from zackzack.ratings import Rating
from zackzack.sim import MAX_GAME_HOURS, match_seed
from zackzack.sim.stats import wilson

SIGMA_FLOOR = 1.0
"""Every entrant's σ in the fit, and the least σ an anchor gets: no anchor is certain."""
PRIOR_SIGMA = 50.0
"""The spread of the weak prior around 25 that keeps a level that never lost finite."""
LADDER_STEP = 1.08
"""Schnelllauf: how much slower each rung of the ladder is than the one before."""
CONVERGED = 1e-6
"""The fit stops when Newton's step moves no μ by more than this (far below what is shown;
the weak prior pins the common level only loosely, so rounding stirs that below ~1e-8)."""


def default_matches(game_name: str) -> int:
    """Matches per pairing of two bots (half in each seat order) when ``--matches`` is not
    given (``matches_per_table`` in ``ratings/bots.json``; the game's ``Front.calibration``).

    >>> default_matches("unter-spannung"), default_matches("schnelllauf")
    (6000, 100)
    """
    return entry(game_name).front.calibration[0]


@dataclass(frozen=True, slots=True, order=True)
class Entrant:
    """A bot in the calibration: a level, on rung ``slower`` (delays × step**slower) of its
    ladder; rung 0 is the level itself."""

    level: str
    slower: int = 0

    def __str__(self) -> str:
        return self.level if not self.slower else f"{self.level}+{self.slower}"


@dataclass(frozen=True, slots=True)
class Pairing:
    """A table of the plan: the entrant in each seat and how many matches it plays."""

    seats: tuple[Entrant, ...]
    matches: int


@dataclass(frozen=True, slots=True)
class LevelResult:
    """A level's calibrated rating and its standard error relative to ``normal``."""

    level: str
    mu: float
    error: float
    sigma: float


@dataclass(frozen=True, slots=True)
class Neighbours:
    """How often the stronger of two neighbouring levels won their direct matches."""

    weaker: str
    stronger: str
    matches: int
    wins: float
    low: float
    high: float


@dataclass(frozen=True, slots=True)
class GameCalibration:
    """One game's result: the levels, the neighbours' win rates and what was played."""

    game: str
    levels: tuple[LevelResult, ...]
    neighbours: tuple[Neighbours, ...]
    matches: int
    per_table: int
    tables: int
    entrants: int
    step: float | None
    seed: int


def ladder(game_name: str, step: float = LADDER_STEP) -> list[Entrant]:
    """Every entrant of ``game_name``'s plan: the levels first, then the rungs (Schnelllauf)."""
    entrants = [Entrant(level) for level in LEVELS]
    if entry(game_name).front.ladder:
        for weaker, stronger in itertools.pairwise(LEVELS):
            entrants += [Entrant(stronger, k) for k in range(1, rungs(weaker, stronger, step) + 1)]
    return entrants


def rungs(weaker: str, stronger: str, step: float) -> int:
    """How many rungs take ``stronger`` a little past ``weaker``'s speed."""
    ratio = REACTIONS[weaker].mean(4) / REACTIONS[stronger].mean(4)
    return max(1, math.ceil(math.log(ratio) / math.log(step)) + 1)


def plan(game_name: str, matches: int, step: float = LADDER_STEP) -> list[Pairing]:
    """The tables to play: every pair of levels and (Schnelllauf) every step of the ladder,
    ``matches`` each, half in each seat order."""
    if game_name not in GAMES:
        raise ValueError(f"there is no game {game_name!r}")
    half = max(1, matches // 2)
    tables = [Pairing((Entrant(a), Entrant(b)), half)
              for a, b in itertools.permutations(LEVELS, 2)]
    if entry(game_name).front.ladder:
        pairs: list[tuple[Entrant, Entrant]] = []
        for weaker, stronger in itertools.pairwise(LEVELS):
            top = rungs(weaker, stronger, step)
            pairs += [(Entrant(stronger, k), Entrant(stronger, k + 1)) for k in range(top)]
            pairs += [(Entrant(stronger, k), Entrant(weaker)) for k in (top - 1, top)]
            if weaker != LEVELS[0]:
                pairs.append((Entrant(stronger, top), Entrant(weaker, 1)))
        tables += [Pairing(seats, half) for a, b in pairs for seats in ((a, b), (b, a))]
    return tables


def play(game_name: str, seats: Sequence[Entrant], seed: int, step: float) -> tuple[int, ...]:
    """Each seat's place in one match of ``seats`` seeded ``seed`` (the simulator's table,
    standard options, compensation on, no network)."""
    rules = game(game_name)
    options = rules.parse_options({"players": len(seats)})
    clock = VirtualClock()
    table = Table(rules, options, clock=clock, seed=seed, settings=Settings())
    rng = random.Random(seed ^ 0x5EED)
    for seat, entrant in enumerate(seats):
        bot = Bot(table, seat, parse_bot(entrant.level), rng)
        if entrant.slower:
            _slow_down(bot, step ** entrant.slower)
    table.start()
    clock.run(until=MAX_GAME_HOURS * 3600.0)
    result = table.match.result
    if result is None:
        raise RuntimeError(f"a calibration match of {', '.join(map(str, seats))} seeded "
                           f"{seed} did not end")
    return tuple(result.place_of(seat) for seat in range(len(seats)))


def _slow_down(bot: Bot, factor: float) -> None:
    """Scale every delay of ``bot`` by ``factor`` (its mistakes and choices stay)."""
    bot._perception = tuple(q * factor for q in bot._perception)
    bot._think = tuple(q * factor for q in bot._think)
    bot._motor = tuple(q * factor for q in bot._motor)


Work = tuple[str, int, int, Pairing, int, int, float]


def _chunk(work: Work) -> list[tuple[int, ...]]:
    game_name, seed, number, pairing, start, count, step = work
    table_seed = match_seed(seed, number)
    return [play(game_name, pairing.seats, match_seed(table_seed, i), step)
            for i in range(start, start + count)]


def play_plan(game_name: str, tables: Sequence[Pairing], seed: int, jobs: int = 1,
              step: float = LADDER_STEP,
              progress: Callable[[int], object] | None = None) -> list[list[tuple[int, ...]]]:
    """Every table's placings, match by match, in order; the same for any ``jobs``."""
    if not 1 <= jobs <= 256:
        raise ValueError(f"--jobs must be 1 to 256, not {jobs}")
    size = entry(game_name).front.calibration[1]
    work: list[Work] = [(game_name, seed, number, pairing, start,
                         min(size, pairing.matches - start), step)
                        for number, pairing in enumerate(tables)
                        for start in range(0, pairing.matches, size)]
    results: list[list[tuple[int, ...]]] = [[] for _ in tables]
    if jobs == 1:
        chunks: Iterable[list[tuple[int, ...]]] = map(_chunk, work)
        for piece, placings in zip(work, chunks, strict=True):
            results[piece[2]] += placings
            if progress is not None:
                progress(len(placings))
        return results
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        for piece, placings in zip(work, pool.map(_chunk, work), strict=True):
            results[piece[2]] += placings
            if progress is not None:
                progress(len(placings))
    return results


Outcomes = dict[tuple[tuple[Entrant, ...], tuple[int, ...]], int]


def outcomes(tables: Sequence[Pairing], placings: Sequence[Sequence[tuple[int, ...]]]) -> Outcomes:
    """How often each table ended with each placing."""
    counted: Counter[tuple[tuple[Entrant, ...], tuple[int, ...]]] = Counter()
    for pairing, played in zip(tables, placings, strict=True):
        for placed in played:
            counted[pairing.seats, placed] += 1
    return dict(sorted(counted.items()))


def floor(game_name: str) -> float:
    """The σ every entrant is held at in the fit, and the least σ of an anchor: at most
    the game's β (its ``Front.beta``), so that the anchors' own σ does not blur a game
    that luck hardly decides."""
    return min(SIGMA_FLOOR, ratings.model(game_name).beta)


def fit(found: Outcomes, game_name: str
        ) -> tuple[list[Entrant], np.ndarray[Any, Any], np.ndarray[Any, Any]]:
    """The entrants, their μ where openskill's updates over ``found`` balance (the MAP of
    its Plackett–Luce model for ``game_name``, every σ at :func:`floor`), and the
    covariance of the μ."""
    entrants = sorted({e for seats, _ in found for e in seats})
    index = {e: i for i, e in enumerate(entrants)}
    rows = [([index[e] for e in seats], placed, count) for (seats, placed), count in found.items()]
    held = floor(game_name)
    variance = held ** 2 + ratings.model(game_name).tau ** 2  # openskill adds τ² first

    def gradient(mu: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
        grad = -(mu - ratings.MU) / PRIOR_SIGMA ** 2
        for seats, placed, count in rows:
            after = ratings.update([Rating(float(mu[i]), held) for i in seats], placed,
                                   game_name)
            for i, rating in zip(seats, after, strict=True):
                grad[i] += count * (rating.mu - mu[i]) / variance
        return grad

    def hessian(mu: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
        h = 1e-4
        columns = []
        for j in range(len(mu)):
            bump = np.zeros(len(mu))
            bump[j] = h
            columns.append((gradient(mu + bump) - gradient(mu - bump)) / (2 * h))
        matrix: np.ndarray[Any, Any] = np.array(columns).T
        symmetric: np.ndarray[Any, Any] = (matrix + matrix.T) / 2
        return symmetric

    mu = np.full(len(entrants), ratings.MU)
    for _ in range(100):
        step = np.linalg.solve(hessian(mu), gradient(mu))
        largest = float(np.max(np.abs(step)))
        if largest > 20:  # far from the top: do not jump past it
            step *= 20 / largest
        mu = mu - step
        if largest < CONVERGED:
            break
    else:
        raise RuntimeError("the calibration fit did not converge")
    return entrants, mu, np.linalg.inv(-hessian(mu))


def neighbours(tables: Sequence[Pairing],
               placings: Sequence[Sequence[tuple[int, ...]]]) -> list[Neighbours]:
    """The direct two-seat matches between neighbouring levels: the stronger one's wins
    (a tie counts half) with a 95 % Wilson interval."""
    found = []
    for weaker, stronger in itertools.pairwise(LEVELS):
        pair = {Entrant(weaker), Entrant(stronger)}
        wins, matches = 0.0, 0
        for pairing, played in zip(tables, placings, strict=True):
            if len(pairing.seats) != 2 or set(pairing.seats) != pair:
                continue
            seat = pairing.seats.index(Entrant(stronger))
            for placed in played:
                matches += 1
                mine, theirs = placed[seat], placed[1 - seat]
                wins += 1.0 if mine < theirs else 0.5 if mine == theirs else 0.0
        low, high = wilson(wins, matches)
        found.append(Neighbours(weaker, stronger, matches, wins, low, high))
    return found


def calibrate(game_name: str, matches: int | None = None, seed: int = 0, jobs: int = 1,
              step: float = LADDER_STEP,
              progress: Callable[[int], object] | None = None) -> GameCalibration:
    """Calibrate every bot level of ``game_name`` (``matches`` per table)."""
    if game_name not in GAMES:
        raise ValueError(f"there is no game {game_name!r}; games: {', '.join(sorted(GAMES))}")
    per_table = default_matches(game_name) if matches is None else matches
    if not 2 <= per_table <= 10_000_000:
        raise ValueError(f"--matches must be 2 to 10000000, not {per_table}")
    if step <= 1:
        raise ValueError("the ladder's step must be above 1")
    tables = plan(game_name, per_table, step)
    placings = play_plan(game_name, tables, seed, jobs, step, progress)
    entrants, mu, covariance = fit(outcomes(tables, placings), game_name)
    base = entrants.index(Entrant("normal"))
    levels = []
    for level in LEVELS:
        i = entrants.index(Entrant(level))
        spread = covariance[i, i] + covariance[base, base] - 2 * covariance[i, base]
        error = math.sqrt(max(0.0, float(spread)))
        levels.append(LevelResult(level, float(mu[i] - mu[base]) + ratings.MU, error,
                                  max(floor(game_name), error)))
    return GameCalibration(game_name, tuple(levels), tuple(neighbours(tables, placings)),
                           sum(p.matches for p in tables), per_table, len(tables),
                           len(entrants), step if entry(game_name).front.ladder else None, seed)


def to_json(results: Sequence[GameCalibration], command: str,
            previous: dict[str, Any] | None = None) -> dict[str, Any]:
    """The content of ``ratings/bots.json``: these games' anchors, the others' kept."""
    data: dict[str, Any] = {"command": "", "games": {}, "calibration": {}}
    if previous:
        data["games"].update(previous.get("games", {}))
        data["calibration"].update(previous.get("calibration", {}))
    for result in results:
        data["games"][result.game] = {
            level.level: {"mu": round(level.mu, 4), "sigma": round(level.sigma, 4)}
            for level in result.levels}
        data["calibration"][result.game] = {
            "command": command, "seed": result.seed, "matches": result.matches,
            "matches_per_table": result.per_table, "tables": result.tables,
            "entrants": result.entrants, "ladder_step": result.step,
            "error_vs_normal": {level.level: round(level.error, 4) for level in result.levels},
            "neighbours": [{"weaker": n.weaker, "stronger": n.stronger, "matches": n.matches,
                            "stronger_wins": n.wins} for n in result.neighbours]}
    data["games"] = dict(sorted(data["games"].items()))
    data["calibration"] = dict(sorted(data["calibration"].items()))
    data["command"] = " ; ".join(dict.fromkeys(c["command"]
                                               for c in data["calibration"].values()))
    return data
