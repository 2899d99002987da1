"""A Gymnasium single-agent wrapper: one seat against zackzack bots, on the parallel env.

>>> env = single_agent_env("schnelllauf", opponents=["normal"], reaction="normal")
>>> observation, info = env.reset(seed=3)
>>> observation["observation"].shape, int(observation["action_mask"][0])
((226,), 1)
>>> observation, reward, terminated, truncated, info = env.step(0)
>>> reward, terminated, truncated, info["tick"]
(0.0, False, False, 1)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, SupportsFloat

import gymnasium
import numpy as np
import numpy.typing as npt

from zackzack.bots import BotSpec
from zackzack.env.parallel import Observation, ZackzackEnv
from zackzack.games import entry


class SingleAgentEnv(gymnasium.Env[dict[str, Any], np.int64]):
    """Seat 0 of ``game`` as a Gymnasium ``Env``; ``opponents`` (default: the game's usual
    ones, ``Front.opponents``) are bots at the other seats; keywords as
    :class:`~zackzack.env.ZackzackEnv` (``tick_ms``, ``reaction``, ``episode``, …)."""

    metadata: dict[str, Any] = {"render_modes": []}  # noqa: RUF012 (gymnasium's own field)

    def __init__(self, game: str, *, opponents: Sequence[str | BotSpec] | None = None,
                 **kwargs: Any) -> None:
        named = entry(game).front.opponents if opponents is None else tuple(opponents)
        if not named:
            raise ValueError("name at least one opponent: the other seats are bots")
        kwargs.setdefault("players", len(named) + 1)
        self.parallel = ZackzackEnv(game, opponents=named, **kwargs)
        if len(self.parallel.possible_agents) != 1:
            raise ValueError(f"{len(named)} opponents at a table of "
                             f"{self.parallel.options.players}: one seat must be left, not "
                             f"{len(self.parallel.possible_agents)}")
        self.agent = self.parallel.possible_agents[0]
        self.observation_space = self.parallel.observation_space(self.agent)
        self.action_space = self.parallel.action_space(self.agent)

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None
              ) -> tuple[Observation, dict[str, Any]]:
        """A new match (from ``seed``, else the generator goes on): the first observation."""
        super().reset(seed=seed)
        observations, infos = self.parallel.reset(seed=seed, options=options)
        return observations[self.agent], infos[self.agent]

    def step(self, action: np.int64 | int) -> tuple[Observation, SupportsFloat, bool, bool,
                                                    dict[str, Any]]:
        """One tick with the agent's action index (0 waits)."""
        agent = self.agent
        observations, rewards, terminations, truncations, infos = self.parallel.step(
            {agent: action})
        if not observations:
            raise RuntimeError("the episode is over: reset the environment")
        return (observations[agent], rewards[agent], terminations[agent], truncations[agent],
                infos[agent])

    def action_masks(self) -> npt.NDArray[np.int8]:
        """The current action mask (for maskable learners such as sb3-contrib's)."""
        found: npt.NDArray[np.int8] = self.parallel._observe(0)["action_mask"]
        return found

    def close(self) -> None:
        """Stop the bots."""
        self.parallel.close()


def single_agent_env(game: str, **kwargs: Any) -> SingleAgentEnv:
    """A Gymnasium environment of one seat of ``game`` against bots; see :class:`SingleAgentEnv`."""
    return SingleAgentEnv(game, **kwargs)
