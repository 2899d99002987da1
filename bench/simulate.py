"""How fast the simulator is against the lean yardsticks, in one process on one core.

Both run the same configuration: Unter Spannung with 4 players and the standard deck,
Schnelllauf without jokers. The yardsticks (``../shared/yardsticks/`` beside the repository,
or ``--yardsticks DIR``) play trivial bots with no events, no views and no table; zackzack
plays its default bots (strategy and reaction model) through the real table with the full
rules: penalties, countdowns, views, events. Each side runs ``--repeat`` times, alternating,
and the best rate counts. Run: ``.venv/bin/python bench/simulate.py``.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import random
import sys
import time
from pathlib import Path
from types import ModuleType

from zackzack.bots import parse_bot
from zackzack.games import game
from zackzack.sim import Config, simulate

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_YARDSTICKS = ROOT.parent / "shared" / "yardsticks"
GAMES = {
    "unter-spannung": ("unter_spannung_ref.py", {"players": 4}, "4 players, standard deck"),
    "schnelllauf": ("schnelllauf_ref.py", {"jokers": 0}, "no jokers"),
}
DEFAULT_BOT = "normal"


def load(path: Path) -> ModuleType:
    """Import the yardstick in the file at ``path``."""
    spec = importlib.util.spec_from_file_location(path.stem, path)
    if spec is None or spec.loader is None:
        raise SystemExit(f"bench: cannot load {path}")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def yardstick_rate(module: ModuleType, name: str, rounds: int) -> float:
    """Rounds per second of the yardstick's own loop (its ``main`` without printing)."""
    rng = random.Random(1)
    started = time.perf_counter()
    if name == "unter-spannung":
        for _ in range(rounds):
            module.play_round(4, rng)
    else:
        for _ in range(rounds):
            module.play_round(rng)
    return rounds / (time.perf_counter() - started)


def zackzack_rate(name: str, rounds: int, seed: int) -> float:
    """Rounds per second of ``zackzack simulate`` on one core with the default bots."""
    options = game(name).parse_options(GAMES[name][1])
    bots = (parse_bot(DEFAULT_BOT),) * options.players
    config = Config(name, options, bots, seed=seed, rounds=rounds)
    started = time.perf_counter()
    records = simulate(config, jobs=1)
    elapsed = time.perf_counter() - started
    return sum(len(record.rounds) for record in records) / elapsed


def main() -> int:
    """Run the benchmark and print both rates and their ratio for each game."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=list(GAMES), action="append",
                        help="only this game (repeatable; default both)")
    parser.add_argument("--rounds", type=int, default=3000, help="rounds per run (3000)")
    parser.add_argument("--repeat", type=int, default=3, help="runs per side (3); best counts")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--yardsticks", type=Path, default=DEFAULT_YARDSTICKS, metavar="DIR",
                        help=f"where the yardsticks are (default {DEFAULT_YARDSTICKS})")
    args = parser.parse_args()
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
    print(f"python {sys.version.split()[0]}, one core, bots {DEFAULT_BOT} at every seat, "
          f"{args.rounds} rounds per run, best of {args.repeat}")
    for name in args.game or GAMES:
        filename, _, what = GAMES[name]
        path = args.yardsticks / filename
        if not path.is_file():
            print(f"bench: the yardstick {path} is missing; pass --yardsticks DIR",
                  file=sys.stderr)
            return 2
        module = load(path)
        yard = ours = 0.0
        for _ in range(args.repeat):
            yard = max(yard, yardstick_rate(module, name, args.rounds))
            ours = max(ours, zackzack_rate(name, args.rounds, args.seed))
        print(f"{name} ({what}): yardstick {yard:,.0f} rounds/s, zackzack {ours:,.0f} "
              f"rounds/s, ratio {ours / yard:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
