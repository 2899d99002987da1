"""Training through the environment: a learned bot plays seat 0 of ``zackzack.env``'s
Gymnasium wrapper against bots, its actions delayed by the level's reaction model.

This is the slower, general path (``zackzack train GAME --on env``; needs the extra
``env``): each tick the agent sees its observation and mask; when the mask offers more than
waiting, the ``learned`` brain chooses from the seat's view, the very view the encoding
encoded (``rules.view`` of the round for seat 0: the seat's own cards and counts of the
others), and the choice goes back as its action index.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import numpy.typing as npt

from zackzack.bots.bot import brain_class
from zackzack.games.base import Action
from zackzack.learn import policy as policies
from zackzack.learn.policy import Policy
from zackzack.learn.settings import Settings


def index(codec: Any, view: Any, mask: npt.NDArray[np.int8], action: Action | None) -> int:
    """The index of ``action`` among the allowed ones of ``mask`` (0: wait, if none is it)."""
    if action is None:
        return 0
    for found in np.flatnonzero(mask[1:]) + 1:
        if codec.action(view, int(found)) == action:
            return int(found)
    return 0


def fitness(game: str, candidate: Policy, settings: Settings, seed: int,
            rounds: int | None = None, strategy: str = "learned") -> float:
    """The share of rounds (default: the settings') that a bot of ``strategy`` playing
    ``candidate`` in seat 0 of the environment wins against the settings' opponents, all
    at the settings' reaction level; a round without a winner counts half."""
    from zackzack.env import single_agent_env  # the optional extra, only on this path

    total = settings.rounds if rounds is None else rounds
    players = int(settings.options.get("players", 2))
    opponents = [f"{settings.level}:{settings.opponent}"] * (players - 1)
    options = {key: value for key, value in settings.options.items() if key != "players"}
    env = single_agent_env(game, opponents=opponents, players=players, options=options,
                           reaction=settings.level, episode="round")
    parallel = env.parallel
    won = 0.0
    with policies.trying(candidate):
        brain = brain_class(game)(parallel.options, 0, strategy, random.Random(seed))
        for episode in range(total):
            observation, _ = env.reset(seed=seed * 1_000_003 + episode)
            done = False
            while not done:
                mask = observation["action_mask"]
                choice = 0
                if mask[1:].any():
                    table = parallel.table
                    view = table.rules.view(table.match.round, 0)
                    busy = parallel.in_flight(parallel.possible_agents[0])
                    choice = index(parallel.codec, view, mask, brain.choose(view, busy))
                observation, _, terminated, truncated, _ = env.step(choice)
                done = terminated or truncated
            results = parallel.table.match.results
            if results:
                winner = results[-1].winner
                won += 1.0 if winner == 0 else 0.5 if winner is None else 0.0
            else:  # truncated: nobody won in time
                won += 0.5
    env.close()
    return won / total
