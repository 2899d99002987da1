"""Training a learned bot: the cross-entropy method over the weight vector, by playing rounds.

Each generation draws ``population`` weight vectors from a Gaussian (independent per
weight) around the current mean, the mean itself among them, and lets each play the same
``rounds`` rounds against the opponent bot at the same reaction level, half of them in
each seat (the same deals and draws for every candidate of a generation: common random
numbers, so candidates differ by their choices, not their luck). Fitness is the share of
rounds won (a round nobody wins counts half). The ``elite`` best candidates give the next
mean and spread; a little extra spread that fades over the generations keeps the search
from settling early. The curve records the mean's fitness per generation.

Rounds are played on the simulator's fast path (``zackzack.sim``): the same table, rules,
brains and reaction model as ``zackzack.env``'s bot seats, about 1,500 rounds a second on
one core; ``on="env"`` plays them through the environment instead, about ten times slower
(the shipped weights were trained so: docs/analysis.md, *A learned bot*). Everything is
seeded: the same settings give the same weights.

>>> settings = Settings(generations=1, population=3, elite=2, rounds=4, seed=1)
>>> result = train("unter-spannung", settings)
>>> len(result.policy.weights) == len(result.policy.features), len(result.curve)
(True, 1)
>>> train("unter-spannung", settings).policy == result.policy  # seeded: the same weights
True
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import NamedTuple

import msgspec
import numpy as np

from zackzack.bots import BotSpec
from zackzack.learn import policy as policies
from zackzack.learn.policy import Policy
from zackzack.learn.settings import Settings
from zackzack.sim import Config, match_seed, parse_options, play_match


class Generation(msgspec.Struct, frozen=True):
    """One generation: the mean's fitness, the best candidate's and the elite's mean,
    the mean spread of the weights it drew from, and the seconds it took."""

    number: int
    mean: float
    best: float
    elite: float
    spread: float
    seconds: float


class Result(NamedTuple):
    """What training gave: the policy (the last mean) and the learning curve."""

    policy: Policy
    curve: tuple[Generation, ...]


def fitness(game: str, candidate: Policy, settings: Settings, seed: int,
            rounds: int | None = None, strategy: str = "learned") -> float:
    """The share of ``rounds`` (default: the settings') rounds that a bot of ``strategy``
    playing ``candidate`` wins against the opponent at the settings' level, half in each
    seat, on the deals of ``seed``; a round without a winner counts half."""
    total = settings.rounds if rounds is None else rounds
    options = parse_options(game, dict(settings.options))
    learner = BotSpec(settings.level, strategy)
    rest = (BotSpec(settings.level, settings.opponent),) * (options.players - 1)
    won = played = 0.0
    with policies.trying(candidate):
        for seat in (0, options.players - 1):
            bots = (*rest[:seat], learner, *rest[seat:])
            config = Config(game, options, bots, seed=seed, rounds=total // 2)
            count = index = 0
            while count < total // 2:
                for record in play_match(config, index).rounds:
                    won += 1.0 if record.winner == seat else 0.5 if record.winner is None else 0
                    count += 1
                index += 1
            played += count
    return won / played


def train(game: str, settings: Settings, start: Policy | None = None,
          progress: Callable[[Generation], object] | None = None) -> Result:
    """Train the weights of ``game``'s features from ``start`` (default: all zero)."""
    names = policies.features(game)
    unknown = set(settings.fixed) - set(names)
    if unknown:
        raise ValueError(f"no feature {', '.join(sorted(unknown))}; {game} has "
                         f"{', '.join(names)}")
    rng = np.random.default_rng(settings.seed)
    mean = np.zeros(len(names)) if start is None else np.array(start.weights, dtype=float)
    spread = np.full(len(names), settings.spread)
    held = np.array([name in settings.fixed for name in names])
    for i, name in enumerate(names):
        if name in settings.fixed:
            mean[i], spread[i] = settings.fixed[name], 0.0
    evaluate: Callable[[str, Policy, Settings, int], float] = fitness
    if settings.on == "env":
        from zackzack.learn import env  # needs the extra ``env``

        evaluate = env.fitness
    curve: list[Generation] = []
    for number in range(settings.generations):
        began = time.process_time()
        seed = match_seed(settings.seed, number)
        drawn = mean + spread * rng.standard_normal((settings.population, len(names)))
        drawn[0] = mean
        scores = np.array([evaluate(game, _policy(game, names, row), settings, seed)
                           for row in drawn])
        order = np.argsort(-scores, kind="stable")
        elite = drawn[order[:settings.elite]]
        fade = settings.noise * (1 - (number + 1) / settings.generations)
        spread_before = float(spread[~held].mean()) if (~held).any() else 0.0
        mean = elite.mean(axis=0)
        spread = np.sqrt(elite.var(axis=0) + fade ** 2)
        spread[held] = 0.0
        step = Generation(number + 1, float(scores[0]), float(scores[order[0]]),
                          float(scores[order[:settings.elite]].mean()), spread_before,
                          time.process_time() - began)
        curve.append(step)
        if progress is not None:
            progress(step)
    return Result(_policy(game, names, mean), tuple(curve))


def _policy(game: str, names: tuple[str, ...], weights: Sequence[float] | np.ndarray) -> Policy:
    return Policy(game, names, tuple(round(float(w), 4) + 0.0 for w in weights))

