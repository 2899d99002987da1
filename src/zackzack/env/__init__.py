"""Reinforcement learning on the games: a PettingZoo Parallel environment and a Gymnasium
single-agent wrapper, both on the real table (``docs/env.md``).

Needs the optional extra ``env`` (``pip install 'zackzack[env]'``: pettingzoo, gymnasium).
The games' encodings (``games/<pkg>/encoding.py``) need numpy only.
"""

from __future__ import annotations

from zackzack.env.codec import Codec, codec
from zackzack.env.parallel import MAX_TICKS, POINTS_SCALE, TICK_MS, ZackzackEnv, parallel_env
from zackzack.env.single import SingleAgentEnv, single_agent_env

__all__ = ["MAX_TICKS", "POINTS_SCALE", "TICK_MS", "Codec", "SingleAgentEnv", "ZackzackEnv",
           "codec", "parallel_env", "single_agent_env"]
