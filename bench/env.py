"""How fast the environment steps, beside the simulator, in one process on one core.

Agent-steps per second: every live agent picks a random action among those its mask allows
(the no-op included) each tick, at a table of agents only (no bots), episodes of one round
played back to back; the random choice is timed too (``--no-policy`` leaves it out by
always waiting, which only shows the cost of a step with nothing to do). Beside it, the
simulator's actions per second (``zackzack.sim.simulate``, ``normal`` bots at every seat,
the same table size): cards played and drawn or moved per second of computing. Run:
``.venv/bin/python bench/env.py``.

Rates are per second of this process's CPU time (``time.process_time``), so that a machine
busy with other work does not deflate them; the process is pinned to one core.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time

import numpy as np

from zackzack.bots import parse_bot
from zackzack.env import parallel_env
from zackzack.games import game
from zackzack.sim import Config, simulate

TABLES = {
    "unter-spannung": ({"players": 2}, "2 players"),
    "schnelllauf": ({}, "2 players, 3 jokers"),
}
TARGET = 20_000
"""Agent-steps per second wanted for Unter Spannung with 2 players (issue 16)."""


def env_rate(name: str, steps: int, seed: int, keep_log: bool, policy: bool = True) -> float:
    """Agent-steps per second of ``steps`` agent-steps with random masked actions."""
    options = dict(TABLES[name][0])
    env = parallel_env(name, options=options, keep_log=keep_log)
    rng = random.Random(seed)
    choice = rng.choice
    flat = np.flatnonzero
    observations, _ = env.reset(seed=seed)
    done = 0
    started = time.process_time()
    while done < steps:
        if not env.agents:
            observations, _ = env.reset()
        if policy:
            actions = {agent: int(choice(flat(obs["action_mask"])))
                       for agent, obs in observations.items()}
        else:
            actions = dict.fromkeys(observations, 0)
        done += len(actions)
        observations, *_ = env.step(actions)
    return done / (time.process_time() - started)


def sim_rate(name: str, rounds: int, seed: int) -> float:
    """Actions per second of ``zackzack simulate`` on one core, ``normal`` bots at every seat."""
    options = game(name).parse_options(TABLES[name][0])
    config = Config(name, options, (parse_bot("normal"),) * options.players, seed=seed,
                    rounds=rounds)
    started = time.process_time()
    records = simulate(config, jobs=1)
    elapsed = time.process_time() - started
    return sum(r.actions for record in records for r in record.rounds) / elapsed


def main() -> int:
    """Print the environment's and the simulator's rates for each game."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=list(TABLES), action="append",
                        help="only this game (repeatable; default both)")
    parser.add_argument("--steps", type=int, default=100_000, help="agent-steps per run")
    parser.add_argument("--rounds", type=int, default=1000, help="simulated rounds per run")
    parser.add_argument("--repeat", type=int, default=3, help="runs per side (3); best counts")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
    print(f"python {sys.version.split()[0]}, one core, {args.steps} agent-steps and "
          f"{args.rounds} simulated rounds per run, best of {args.repeat}; "
          f"load average {os.getloadavg()[0]:.1f}")
    for name in args.game or TABLES:
        logged = bare = idle = sim = 0.0
        for _ in range(args.repeat):
            logged = max(logged, env_rate(name, args.steps, args.seed, keep_log=True))
            bare = max(bare, env_rate(name, args.steps, args.seed, keep_log=False))
            idle = max(idle, env_rate(name, args.steps, args.seed, True, policy=False))
            sim = max(sim, sim_rate(name, args.rounds, args.seed))
        print(f"{name} ({TABLES[name][1]}): env {logged:,.0f} agent-steps/s "
              f"({bare:,.0f} without a log; {idle:,.0f} when every agent waits), "
              f"simulator {sim:,.0f} actions/s")
        if name == "unter-spannung":
            print(f"  target {TARGET:,} agent-steps/s: {'met' if logged >= TARGET else 'NOT met'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
