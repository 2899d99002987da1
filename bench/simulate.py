"""How fast the simulator is against the lean yardsticks, in one process on one core.

Both run the same configuration: Unter Spannung with 4 players and the standard deck,
Schnelllauf without jokers. The yardsticks (``../shared/yardsticks/`` beside the repository,
or ``--yardsticks DIR``) play trivial bots with no events, no views and no table; zackzack
plays its default bots (strategy and reaction model) through the real table with the full
rules: penalties, countdowns, views, events, on the simulator's fast path (``sim.fast``);
``--live`` also times the same matches with a ``Bot`` per seat at a live table, as before the
fast path. Each side runs ``--repeat`` times, alternating, and the best rate counts; rates
are per second of this process's CPU time (the machine's other work does not count). Run:
``.venv/bin/python bench/simulate.py``.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import random
import sys
import time
from contextlib import suppress
from pathlib import Path
from types import ModuleType

from zackzack.bots import Bot, parse_bot
from zackzack.engine.clock import VirtualClock
from zackzack.engine.table import Phase, Table
from zackzack.games import game
from zackzack.games.base import Event
from zackzack.games.errors import IllegalAction
from zackzack.sim import Config, match_seed, play_match, simulate

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
    started = time.process_time()
    if name == "unter-spannung":
        for _ in range(rounds):
            module.play_round(4, rng)
    else:
        for _ in range(rounds):
            module.play_round(rng)
    return rounds / (time.process_time() - started)


def zackzack_rate(name: str, rounds: int, seed: int) -> float:
    """Rounds per second of ``zackzack simulate`` on one core with the default bots."""
    options = game(name).parse_options(GAMES[name][1])
    bots = (parse_bot(DEFAULT_BOT),) * options.players
    config = Config(name, options, bots, seed=seed, rounds=rounds)
    started = time.process_time()
    records = simulate(config, jobs=1)
    elapsed = time.process_time() - started
    return sum(len(record.rounds) for record in records) / elapsed


def live_rate(name: str, rounds: int, seed: int) -> float:
    """Rounds per second of the same matches with a ``Bot`` per seat at a live table."""
    options = game(name).parse_options(GAMES[name][1])
    config = Config(name, options, (parse_bot(DEFAULT_BOT),) * options.players, seed=seed,
                    rounds=rounds)
    started = time.process_time()
    played = index = 0
    while played < rounds:
        played += len(play_match(config, index, live=True).rounds)
        index += 1
    return played / (time.process_time() - started)


def table_rate(name: str, rounds: int, seed: int) -> float:
    """Rounds per second of the bare table replaying the very actions the bots sent.

    No bots, no decisions, no reaction timers: subscribers that do nothing, one per seat.
    This is the ceiling for any bot on this table, however lean.
    """
    rules = game(name)
    options = rules.parse_options(GAMES[name][1])
    played = []
    total = 0
    index = 0
    while total < rounds:
        seed_i = match_seed(seed, index)
        clock = VirtualClock()
        table = Table(rules, options, clock=clock, seed=seed_i)
        rng = random.Random(seed_i)
        for seat in range(options.players):
            Bot(table, seat, DEFAULT_BOT, rng)
        table.start()
        while table.phase is not Phase.OVER and clock.step():
            pass
        played.append((seed_i, table.log))
        total += table.match.number
        index += 1
    started = time.process_time()
    for seed_i, log in played:
        clock = VirtualClock()
        table = Table(rules, options, clock=clock, seed=seed_i)
        for seat in range(options.players):
            table.subscribe(seat, _ignore)
        table.start()
        for entry in log:
            clock.run(until=entry.t / 1000)
            with suppress(IllegalAction):
                table.submit(entry.seat, entry.action, at=entry.t)
        clock.run()
    return total / (time.process_time() - started)


def _ignore(events: list[Event]) -> None:
    """A subscriber that does nothing."""


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
    parser.add_argument("--live", action="store_true",
                        help="also time Bots at a live table (the path before sim.fast)")
    parser.add_argument("--table", action="store_true",
                        help="also time the bare table replaying the bots' actions")
    args = parser.parse_args()
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
    print(f"python {sys.version.split()[0]}, one core, bots {DEFAULT_BOT} at every seat, "
          f"{args.rounds} rounds per run, best of {args.repeat}, per CPU second")
    for name in args.game or GAMES:
        filename, _, what = GAMES[name]
        path = args.yardsticks / filename
        if not path.is_file():
            print(f"bench: the yardstick {path} is missing; pass --yardsticks DIR",
                  file=sys.stderr)
            return 2
        module = load(path)
        yard = ours = live = bare = 0.0
        for _ in range(args.repeat):
            yard = max(yard, yardstick_rate(module, name, args.rounds))
            ours = max(ours, zackzack_rate(name, args.rounds, args.seed))
            if args.live:
                live = max(live, live_rate(name, args.rounds, args.seed))
            if args.table:
                bare = max(bare, table_rate(name, args.rounds, args.seed))
        print(f"{name} ({what}): yardstick {yard:,.0f} rounds/s, zackzack {ours:,.0f} "
              f"rounds/s, ratio {ours / yard:.2f}")
        if args.live:
            print(f"  Bots at a live table (no fast path): {live:,.0f} rounds/s, "
                  f"ratio {live / yard:.2f}")
        if args.table:
            print(f"  the bare table replaying the same actions (no bots): {bare:,.0f} rounds/s, "
                  f"ratio {bare / yard:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
