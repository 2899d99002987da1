"""The fairness tables of docs/fairness.md: equal bots, one near and one far, with and
without lag compensation, in both games; and (``--attacks``) a cheat against an honest player
as near as itself.

Each row is one ``zackzack simulate`` run (the command is printed with it); the figure is the
far player's (or the cheat's) share of round wins with its 95 % Wilson interval.

    python bench/fairness.py --rounds 20000 --jobs 2 [--json FILE]
    python bench/fairness.py --attacks --rounds 5000 --jobs 2
"""

from __future__ import annotations

import argparse
import json
import time
from typing import Any

from zackzack.bots import parse_bot
from zackzack.sim import Config, parse_options, simulate
from zackzack.sim.network import Attack
from zackzack.sim.stats import summarise

GAMES = ("unter-spannung", "schnelllauf")
LEVELS = ("normal", "pro")


ATTACKS = {"pongs +200 ms": Attack(pong_delay_ms=200),
           "a new connection per action": Attack(reconnect=True),
           "pongs +300 ms and a new connection per action": Attack(300, reconnect=True)}
"""The cheats of issue 27, each by seat 0 against an honest seat 1, both 10 ms away."""


def run(game: str, level: str, rtt: tuple[int, int], compensation: bool, rounds: int,
        jobs: int, seed: int, attack: Attack | None = None) -> dict[str, Any]:
    """One simulation; its summary with the command that reproduces it."""
    config = Config(game, parse_options(game, {"players": 2}),
                    (parse_bot(level), parse_bot(level)), seed=seed, rounds=rounds,
                    rtt=rtt, compensation=compensation,
                    attacks=() if attack is None else (attack, Attack()))
    started = time.perf_counter()
    summary = summarise(config, simulate(config, jobs))
    summary["wall_seconds"] = time.perf_counter() - started
    cheat = "" if attack is None else (
        (f" --pong-delay {attack.pong_delay_ms},0" if attack.pong_delay_ms else "")
        + (" --reconnect 0" if attack.reconnect else ""))
    summary["command"] = (f"zackzack simulate {game} --bots {level},{level} --rtt "
                          f"{rtt[0]},{rtt[1]} --rounds {rounds} --seed {seed}"
                          + ("" if compensation else " --no-compensation") + cheat)
    return summary


def attacks(args: argparse.Namespace) -> list[dict[str, Any]]:
    """The cheat's share of round wins against an honest player, both 10 ms away."""
    print("| game | bots | seat 0 cheats with | its round wins | 95 % CI | gap to 50 % |")
    print("|---|---|---|---|---|---|")
    summaries = []
    for game in GAMES:
        for name, attack in ATTACKS.items():
            summary = run(game, "normal", (10, 10), True, args.rounds, args.jobs, args.seed,
                          attack)
            summaries.append(summary)
            cheat = summary["seats"][0]
            low, high = cheat["round_win_ci95"]
            rate = cheat["round_win_rate"]
            print(f"| {game} | normal | {name} | {rate:.1%} | {low:.1%}–{high:.1%} | "
                  f"{100 * (rate - 0.5):+.1f} pp |", flush=True)
            print(f"<!-- {summary['command']}  ({summary['rounds']} rounds, "
                  f"{summary['wall_seconds']:.0f} s) -->", flush=True)
    return summaries


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=20_000)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--seed", type=int, default=9)
    parser.add_argument("--far", default="100,250", help="the far player's round trips, ms")
    parser.add_argument("--attacks", action="store_true",
                        help="the cheats' table instead (a cheat and an honest player, 10 ms)")
    parser.add_argument("--json", help="write every summary to this file")
    args = parser.parse_args()
    if args.attacks:
        summaries = attacks(args)
        if args.json:
            with open(args.json, "w", encoding="utf-8") as file:
                json.dump(summaries, file, indent=1)
        return
    print("| game | bots | RTT near / far | compensation | far player's round wins | 95 % CI |"
          " gap to 50 % |")
    print("|---|---|---|---|---|---|---|")
    summaries = []
    rtts = [(10, int(far)) for far in args.far.split(",")]
    setups = [(game, level, rtt, compensation) for rtt in rtts for game in GAMES
              for level in LEVELS for compensation in (False, True)]
    for game, level, rtt, compensation in setups:
        summary = run(game, level, rtt, compensation, args.rounds, args.jobs, args.seed)
        summaries.append(summary)
        far = summary["seats"][1]
        low, high = far["round_win_ci95"]
        rate = far["round_win_rate"]
        print(f"| {game} | {level} | {rtt[0]} / {rtt[1]} ms | "
              f"{'on' if compensation else 'off'} | {rate:.1%} | {low:.1%}–{high:.1%} | "
              f"{100 * (rate - 0.5):+.1f} pp |", flush=True)
        print(f"<!-- {summary['command']}  ({summary['rounds']} rounds, "
              f"{summary['wall_seconds']:.0f} s) -->", flush=True)
    if args.json:
        with open(args.json, "w", encoding="utf-8") as file:
            json.dump(summaries, file, indent=1)


if __name__ == "__main__":
    main()
