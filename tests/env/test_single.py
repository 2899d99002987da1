"""The Gymnasium single-agent wrapper: one seat against bots."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

from zackzack.env import single_agent_env


@pytest.mark.parametrize(("game", "opponents"), [("unter-spannung", ["normal"]),
                                                 ("unter-spannung", ["pro", "beginner"]),
                                                 ("schnelllauf", ["normal"])])
def test_gymnasium_env_checker(game: str, opponents: list[str]) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # the checker reports most missteps as warnings
        check_env(single_agent_env(game, opponents=opponents, reaction="normal"),
                  skip_render_check=True)


@pytest.mark.parametrize("game", ["unter-spannung", "schnelllauf"])
def test_a_whole_episode_against_a_bot(game: str) -> None:
    env = single_agent_env(game, opponents=["beginner"], reaction="normal")
    assert env.parallel.options.players == 2
    rng = np.random.default_rng(1)
    observation, _ = env.reset(seed=2)
    total, done = 0.0, False
    while not done:
        assert np.array_equal(env.action_masks(), observation["action_mask"])
        allowed = np.flatnonzero(observation["action_mask"])
        observation, reward, terminated, truncated, _ = env.step(rng.choice(allowed))
        total += float(reward)
        done = terminated or truncated
    assert terminated and env.parallel.table.match.results
    result = env.parallel.table.match.results[0]
    assert total == pytest.approx((result.winner == 0) - 0.01 * result.scores[0])
    with pytest.raises(RuntimeError, match="reset"):
        env.step(0)


def test_the_usual_opponents_by_default() -> None:
    env = single_agent_env("unter-spannung")
    assert env.parallel.options.players == 3  # Front.opponents: two normal bots
