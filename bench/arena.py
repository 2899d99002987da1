"""Arenas of 1,000 simulated players for 10 minutes of game time (issue 34): the pairing
latency and how long players wait between games.

Each setup is one arena on the virtual clock (``zackzack.sim.arena``): every table the arena
forms is a real match of the game's bots, played by the simulator's fast path, whose length
in game time says when the table finishes and whose places the arena scores. Figures are in
seconds of game time, but for the pairing's own cost (milliseconds of this process's CPU
time per pairing of the whole arena, which a busy machine disturbs less than wall time). A
tenth of the players join late, one in twenty pauses once, one in fifty withdraws; the
per-player figures are of the others.

    .venv/bin/python bench/arena.py [--players 1000] [--minutes 10] [--seed 1]
        [--setups unter-spannung:2,unter-spannung:4,schnelllauf:2] [--json FILE]
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Sequence
from typing import Any

from rich.console import Console
from rich.table import Table

from zackzack.arena import PAIR_EVERY, PATIENCE
from zackzack.games import entry
from zackzack.sim.arena import Crowd, Report, run
from zackzack.sim.stats import quantiles

ROWS = (
    ("waits", "finished → seated, s", "s"),
    ("first_waits", "joined → first table, s", "s"),
    ("player_waits", "a player's wait per game, s", "s"),
    ("waiting_share", "a player's time waiting", "%"),
    ("games", "games per player", ""),
    ("match_seconds", "match length, s", "s"),
    ("rating_gaps", "rating spread at a table", ""),
    ("score_gaps", "score spread at a table", ""),
    ("pair_ms", "CPU per pairing, ms", "ms"),
)
COLUMNS = ("mean", "median", "p90", "p99", "max")


def summary(report: Report) -> dict[str, Any]:
    """Every figure of ``report`` as plain JSON data."""
    crowd = report.crowd
    return {
        "game": crowd.game, "seats": crowd.seats, "players": crowd.players,
        "minutes": crowd.minutes, "seed": crowd.seed, "matches": report.matches,
        "repeats": report.repeats, "left_waiting": report.left_waiting,
        "running_at_end": report.running_at_end, "wall_seconds": report.wall_seconds,
        **{key: quantiles(getattr(report, key)) for key, _, _ in ROWS},
        "podium": [{"name": s.name, "level": report.levels[s.name], "score": s.score,
                    "performance": s.performance, "games": len(s.results)}
                   for s in report.podium],
    }


def render(report: Report) -> Table:
    """A rich table of ``report``'s figures with a caption of counts and the podium."""
    crowd = report.crowd
    title = (f"Arena · {entry(crowd.game).title} · {crowd.seats} a table · "
             f"{crowd.players:,} players · {crowd.minutes:g} min · seed {crowd.seed}")
    table = Table(title=title, title_justify="left", caption_justify="left")
    table.add_column("")
    for column in COLUMNS:
        table.add_column(column, justify="right")
    for key, label, unit in ROWS:
        values = quantiles(getattr(report, key))
        table.add_row(label, *[_cell(values.get(column), unit) for column in COLUMNS])
    podium = ", ".join(f"{s.rank}. {s.name} ({report.levels[s.name]}) {s.score} points in "
                       f"{len(s.results)} games" for s in report.podium)
    table.caption = "\n".join([
        f"{report.matches:,} matches; {report.running_at_end} still running at the end "
        f"(counted); {report.left_waiting} players waiting at the end",
        f"tables seating two who sat at the last table of either: {report.repeats}",
        f"pairing every {PAIR_EVERY:g} s; a player waiting {PATIENCE:g} s is seated first",
        f"podium: {podium}",
        f"simulated in {report.wall_seconds:.1f} s",
    ])
    return table


def _cell(value: float | None, unit: str) -> str:
    if value is None:
        return "–"
    if unit == "%":
        return f"{value:.1%}"
    return f"{value:.2f}" if unit in ("s", "ms") else f"{value:.1f}"


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--minutes", type=float, default=10.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--setups", default="unter-spannung:2,unter-spannung:4,schnelllauf:2",
                        help="GAME:SEATS, comma-separated")
    parser.add_argument("--json", help="write every summary to this file")
    args = parser.parse_args(argv)
    console = Console(highlight=False)
    summaries = []
    for setup in args.setups.split(","):
        game, seats = setup.split(":")
        report = run(Crowd(game, int(seats), players=args.players, minutes=args.minutes,
                           seed=args.seed))
        console.print(render(report))
        console.print()
        summaries.append(summary(report))
    if args.json:
        with open(args.json, "w", encoding="utf-8") as file:
            json.dump(summaries, file, indent=1)


if __name__ == "__main__":
    main()
