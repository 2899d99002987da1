"""``zackzack train GAME``: train the learned bot's weights; write them and a learning curve."""

from __future__ import annotations

import argparse
import importlib.util
import shlex
import time
from pathlib import Path
from typing import TYPE_CHECKING

from zackzack.bots import LEVELS
from zackzack.games import REGISTRY, entry
from zackzack.learn import policy as policies
from zackzack.learn.settings import Settings

if TYPE_CHECKING:  # training (numpy, the simulator) is imported when the command runs
    from zackzack.learn.train import Generation

EPILOG = """\
The cross-entropy method over the weights of the game's features: each generation's
candidates play the same --rounds rounds (half in each seat; --on env: in seat 0) against
smart bots at the same reaction --level; the best --elite give the next mean. Fitness is
the share of rounds won. Seeded: the same arguments give the same weights. Without --out,
nothing is written.
examples:
  zackzack train unter-spannung --generations 15 --seed 1 --out policy.json --plot curve.png
  zackzack train schnelllauf --generations 2 --population 4 --rounds 200 --seed 1
"""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The ``train`` command's arguments."""
    parser.epilog = EPILOG
    parser.formatter_class = argparse.RawDescriptionHelpFormatter
    defaults = Settings()
    parser.add_argument("game", choices=sorted(REGISTRY), help="which game to train for")
    parser.add_argument("--generations", type=int, default=defaults.generations,
                        help=f"generations of the search (default {defaults.generations})")
    parser.add_argument("--population", type=int, default=defaults.population,
                        help=f"candidates per generation (default {defaults.population})")
    parser.add_argument("--elite", type=int, default=defaults.elite,
                        help=f"best candidates that make the next mean (default {defaults.elite})")
    parser.add_argument("--rounds", type=int, default=defaults.rounds,
                        help=f"rounds each candidate plays (default {defaults.rounds})")
    parser.add_argument("--seed", type=int, default=defaults.seed,
                        help=f"seed of the search and the deals (default {defaults.seed})")
    parser.add_argument("--level", choices=LEVELS, default=defaults.level,
                        help="the reaction level of both bots (default normal)")
    parser.add_argument("--players", type=int, default=2,
                        help="seats at the table, the learner in the first or last (default 2)")
    parser.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                        help="a table option of the game (repeatable), e.g. max_rounds=5 "
                        "(Schnelllauf: more, shorter matches, less noise per round)")
    parser.add_argument("--start", metavar="FILE",
                        help="start from the weights in FILE (default: all zero)")
    parser.add_argument("--fix", action="append", default=[], metavar="FEATURE=WEIGHT",
                        help="hold a feature's weight fixed (repeatable), e.g. --fix shed=3 "
                        "when training never plays the tournament")
    parser.add_argument("--on", choices=("sim", "env"), default="sim",
                        help="play the rounds on the simulator's fast path (default) or "
                        "through zackzack.env (needs the extra 'env'; ten times slower)")
    parser.add_argument("--out", metavar="FILE", help="write the weights here (the game's own "
                        f"are {policies.FILE} in its folder)")
    parser.add_argument("--plot", metavar="FILE", help="draw the learning curve (.png/.svg)")
    parser.add_argument("--quiet", action="store_true", help="no line per generation")


def run(args: argparse.Namespace) -> int:
    """Train, print a line per generation, write the weights and the plot if asked."""
    from zackzack.learn.train import fitness, train
    from zackzack.sim import match_seed

    for path in (args.out, args.plot):
        if path and not Path(path).resolve().parent.is_dir():
            raise ValueError(f"cannot write {path}: no such directory")
    if args.plot and not args.plot.lower().endswith((".png", ".svg", ".pdf")):
        raise ValueError("--plot FILE must end in .png, .svg or .pdf")
    fixed: dict[str, float] = {}
    for text in args.fix:
        name, _, value = text.partition("=")
        try:
            fixed[name.strip()] = float(value)
        except ValueError:
            raise ValueError(f"--fix wants FEATURE=WEIGHT, not {text!r}") from None
    options = {"players": args.players} | entry(args.game).options_from_args(args.option)
    settings = Settings(args.generations, args.population, args.elite, args.rounds, args.seed,
                        args.level, options=options, fixed=fixed, on=args.on)
    if args.on == "env" and importlib.util.find_spec("pettingzoo") is None:
        raise ValueError("--on env needs the environment: pip install 'zackzack[env]'")
    try:
        start = policies.read(args.start, args.game) if args.start else None
    except OSError as error:
        raise ValueError(f"--start: cannot read {args.start}: {error.strerror}") from None

    def report(step: Generation) -> None:
        if not args.quiet:
            print(f"generation {step.number:3}: mean {step.mean:6.1%}  best {step.best:6.1%}  "
                  f"elite {step.elite:6.1%}  spread {step.spread:5.2f}  {step.seconds:5.1f} s",
                  flush=True)

    began, cpu = time.perf_counter(), time.process_time()
    result = train(args.game, settings, start, report)
    seconds, cpu = time.perf_counter() - began, time.process_time() - cpu
    print(f"trained in {seconds:.0f} s ({cpu:.0f} s of CPU); weights: "
          + ", ".join(f"{name} {w:g}" for name, w in zip(result.policy.features,
                                                           result.policy.weights, strict=True)))
    command = ["zackzack", "train", args.game, "--generations", str(settings.generations),
               "--population", str(settings.population), "--elite", str(settings.elite),
               "--rounds", str(settings.rounds), "--seed", str(settings.seed), "--level",
               settings.level, "--players", str(args.players), "--on", settings.on,
               *[f"--option={text}" for text in args.option],
               *[f"--fix={name}={w:g}" for name, w in fixed.items()]]
    if args.start:
        command += ["--start", args.start]
    trained = {"command": shlex.join(command), "generations": settings.generations,
        "population": settings.population, "elite": settings.elite,
        "rounds": settings.rounds, "seed": settings.seed, "level": settings.level,
        "opponent": f"{settings.level}:{settings.opponent}", "options": options,
        "on": settings.on, "fixed": fixed, "last_mean_fitness": result.curve[-1].mean,
        "cpu_seconds": round(cpu, 1)}
    policy = policies.Policy(args.game, result.policy.features, result.policy.weights, trained)
    if args.out:
        policies.write(policy, args.out)
        print(f"wrote {args.out}")
    if args.plot:
        evaluate = fitness
        if settings.on == "env":
            from zackzack.learn import env

            evaluate = env.fitness
        baseline = evaluate(args.game, policy, settings, match_seed(settings.seed, 0),
                            strategy="random")
        from zackzack.learn.plot import plot  # matplotlib only when asked for

        plot(args.game, result.curve, baseline, settings, args.plot)
        print(f"wrote {args.plot}")
    return 0
