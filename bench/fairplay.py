"""The fair-play detector's validation on the virtual clock: who it flags, in a table.

The project's own players are the labelled set. Human-modelled bots (``beginner``,
``normal``, ``pro`` and their ``:learned`` strategies) play rated series against each other
(both seats count, each a player); scripted players (``machine``; the best card after a
fixed 200 ms, a uniform 150–250 ms or a human median plus Gaussian noise:
``zackzack.sim.scripted``) play series against the human levels. After every match the
detector (``zackzack.moderation.fairplay``) reads each player's stored logs so far, as the server
would; a player counts as flagged if any of its first ``--matches`` matches ends with its
score at the threshold or above (and enough reactions: cards, draws and moves).

    .venv/bin/python bench/fairplay.py --players 1000 --scripts 40 --matches 10 --jobs 2

prints the table of ``docs/analysis.md`` (*Fair play*); ``--json FILE`` keeps the numbers.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections import defaultdict
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from zackzack.moderation.fairplay import MIN_REACTIONS, THRESHOLD
from zackzack.sim import parse_options
from zackzack.sim.scripted import series

HUMANS = ("beginner", "normal", "pro", "beginner:learned", "normal:learned", "pro:learned")
SCRIPTS = ("machine", "fixed:200", "uniform:150-250", "gauss:500:100", "gauss:900:200")
GAMES: dict[str, tuple[str, dict[str, Any]]] = {
    "unter-spannung": ("unter-spannung", {"players": 2}),
    "unter-spannung tournament": ("unter-spannung", {"players": 2, "tournament": True}),
    "schnelllauf": ("schnelllauf", {"players": 2}),
}

Job = tuple[str, tuple[str, str], tuple[bool, bool], int, int]


def run(job: Job) -> list[tuple[str, str, list[tuple[int, float]]]]:
    """One series; (game, label, scores by match) for each labelled seat."""
    name, players, labelled, matches, seed = job
    game, options = GAMES[name]
    seats = series(game, parse_options(game, options), players, matches, seed)
    return [(name, label, scores)
            for label, keep, scores in zip(players, labelled, seats, strict=True) if keep]


def jobs(games: list[str], humans: int, scripts: int, matches: int, seed: int) -> list[Job]:
    """The series to play: ``humans`` human players (two per series) and ``scripts`` players
    of each script per game."""
    found: list[Job] = []
    for g, name in enumerate(games):
        for i in range((humans + 1) // 2):
            pair = (HUMANS[i % len(HUMANS)], HUMANS[(i // len(HUMANS) + i + 1) % len(HUMANS)])
            found.append((name, pair, (True, True), matches, seed + 1_000_000 * g + i))
        for s, script in enumerate(SCRIPTS):
            for i in range(scripts):
                found.append((name, (script, HUMANS[i % len(HUMANS)]), (True, False), matches,
                              seed + 1_000_000 * g + 10_000 * (s + 1) + i))
    return found


def flagged_at(scores: list[tuple[int, float]], threshold: float) -> int | None:
    """The match (from 1) after which the player is first flagged, if any."""
    for index, (n, score) in enumerate(scores):
        if n >= MIN_REACTIONS and score >= threshold:
            return index + 1
    return None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=1000,
                        help="human-modelled players per game (default 1000)")
    parser.add_argument("--scripts", type=int, default=60,
                        help="players of each script per game (default 60)")
    parser.add_argument("--matches", type=int, default=10, help="rated matches per player")
    parser.add_argument("--games", default=",".join(GAMES), help="comma-separated")
    parser.add_argument("--seed", type=int, default=33)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--threshold", type=float, default=THRESHOLD)
    parser.add_argument("--json", metavar="FILE")
    args = parser.parse_args(argv)
    games = [name.strip() for name in args.games.split(",") if name.strip()]
    todo = jobs(games, args.players, args.scripts, args.matches, args.seed)
    started = time.perf_counter()
    results: list[tuple[str, str, list[tuple[int, float]]]] = []
    if args.jobs == 1:
        for job in todo:
            results.extend(run(job))
    else:
        with ProcessPoolExecutor(args.jobs) as pool:
            for found in pool.map(run, todo, chunksize=4):
                results.extend(found)
    groups: dict[tuple[str, str], list[list[tuple[int, float]]]] = defaultdict(list)
    for name, label, scores in results:
        groups[(name, label)].append(scores)
    rows = []
    print("| game | player | players | matches | reactions (median) | flagged | share | "
          "flagged by match (median) | highest score |")
    print("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    for (name, label), players in groups.items():
        at = [flagged_at(scores, args.threshold) for scores in players]
        hits = [a for a in at if a is not None]
        reactions = statistics.median(scores[-1][0] for scores in players)
        top = max(score for scores in players for n, score in scores if n >= MIN_REACTIONS)
        row = {"game": name, "player": label, "players": len(players),
               "matches": sum(len(s) for s in players), "reactions": reactions,
               "flagged": len(hits), "share": len(hits) / len(players),
               "by_match": statistics.median(hits) if hits else None, "highest": top}
        rows.append(row)
        by = "–" if row["by_match"] is None else f"{row['by_match']:g}"
        print(f"| {name} | `{label}` | {len(players)} | {row['matches']} | {reactions:g} | "
              f"{len(hits)} | {row['share']:.0%} | {by} | {top:.1f} |")
    print(f"\nthreshold {args.threshold:g}, at least {MIN_REACTIONS} reactions; "
          f"{time.perf_counter() - started:.0f} s", file=sys.stderr)
    if args.json:
        with open(args.json, "w") as file:
            json.dump({"threshold": args.threshold, "rows": rows}, file, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
