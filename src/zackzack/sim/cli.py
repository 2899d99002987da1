"""``zackzack simulate GAME``: bots play thousands of matches; win rates, lengths, misses.

Players are numbered from 1 on the command line, in the order of ``--bots``.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from zackzack.bots import LEVELS, STRATEGIES, parse_bot
from zackzack.games import REGISTRY, entry, registered
from zackzack.games.registry import add_flags, flags

if TYPE_CHECKING:  # the simulator (process pools) and rich are imported when the command runs
    from rich.table import Table

    from zackzack.sim import Config, MatchRecord
    from zackzack.sim.network import Attack


def _epilog() -> str:
    """The help's closing text, with the registered games' flags, handicaps and names."""
    games = registered()
    short = ", ".join(["--players", *(flag.flag for flag in flags()), "--penalty-ms",
                       "--countdown-ms"])
    kinds = "; ".join(f"{g.title}'s kinds are {', '.join(g.front.handicaps)}"
                      for g in games if g.front.handicaps) or "no game has handicaps"
    first = games[0].name if games else "GAME"
    return f"""\
bots: LEVEL or LEVEL:STRATEGY, comma-separated, one per player (a single name seats it
everywhere); levels {", ".join(LEVELS)}; strategies {", ".join(STRATEGIES)}.
options: --option KEY=VALUE (repeatable) sets any table option of the game, e.g.
--option penalty_ms=500; {short} are short for some of them.
handicap: PLAYER, PLAYER:KIND or PLAYER:KIND=VALUE, kinds comma-separated, players numbered
from 1 (the same form as zackzack play); {kinds}; a bare 1 gives player 1 every kind.
examples:
  zackzack simulate {first} --bots pro,normal --matches 2000 --seed 7 --jobs 2
  zackzack simulate {first} --bots normal,normal --rounds 20000 --rtt 10,100
  zackzack simulate {first} --bots normal --rounds 20000 --seed 1 --ray auto
network: --rtt gives each player a round trip in ms (in the order of --bots); each one-way
trip takes half of it ±10 % (uniform jitter), in order. Close races are then decided by
when a card was pressed, crediting each player's measured lag up to a bound
(docs/fairness.md); --no-compensation decides them by arrival.
ray: --ray alone starts a Ray on this machine with --jobs CPUs (default: all) and stops it at
the end; --ray auto joins the cluster this machine is part of (ray start), --ray
ray://HOST:10001 one elsewhere, with the same zackzack installed on every node
(docs/analysis.md). The figures for a seed are the same as with --jobs 1.
"""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The ``simulate`` command's arguments."""
    parser.epilog = _epilog()
    parser.formatter_class = argparse.RawDescriptionHelpFormatter
    parser.add_argument("game", choices=sorted(REGISTRY), help="which game to simulate")
    parser.add_argument("--players", type=int, help="the players (default: as many as "
                        "--bots names, else the game's)")
    parser.add_argument("--bots", default="normal", help="the bots, one per player "
                        "(default: normal everywhere)")
    amount = parser.add_mutually_exclusive_group()
    amount.add_argument("--rounds", type=int, help="play matches until this many rounds "
                        "(default 1000)")
    amount.add_argument("--matches", type=int, help="play exactly this many matches")
    parser.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                        help="a table option of the game (repeatable), e.g. "
                        "penalty_ms=500")
    parser.add_argument("--handicap", action="append", default=[], metavar="SPEC",
                        help="handicap a player (repeatable), e.g. 1 (every kind)")
    add_flags(parser)
    parser.add_argument("--penalty-ms", type=int, help="the freeze for a wrong card")
    parser.add_argument("--countdown-ms", type=int, help="the countdown of automatic steps")
    parser.add_argument("--rtt", metavar="MS,MS", help="each player's network round trip in "
                        "ms, in seat order (default: no network)")
    parser.add_argument("--no-compensation", action="store_true",
                        help="with --rtt: decide close races by arrival, not lag-corrected")
    parser.add_argument("--pong-delay", metavar="MS,MS", help="with --rtt: each player "
                        "answers the server's pings this many ms late, its cards on time (a "
                        "cheat that tries to buy lag credit)")
    parser.add_argument("--reconnect", metavar="SEAT,SEAT", help="with --rtt: these seats "
                        "(from 0) open a new connection for every action (a cheat)")
    parser.add_argument("--seed", type=int, help="the same seed, the same results")
    parser.add_argument("--jobs", type=int, help="processes to use (default 1; with --ray: "
                        "every CPU of the Ray)")
    parser.add_argument("--ray", nargs="?", const="local", metavar="ADDRESS",
                        help="play the matches as Ray tasks: on a Ray started here, or on the "
                        "cluster at ADDRESS (auto, ray://HOST:10001); needs zackzack[ray]")
    parser.add_argument("--json", metavar="FILE", help="write every figure to FILE as JSON")
    parser.add_argument("--plot", metavar="FILE.png", help="draw win rates and round lengths")
    parser.add_argument("--quiet", action="store_true", help="no progress bar")


def config_from_args(args: argparse.Namespace) -> Config:
    """The simulation that the arguments ask for; anything wrong raises ``ValueError``."""
    from zackzack.sim import Config

    names = [name for name in args.bots.split(",")]
    bots = [parse_bot(name) for name in names]
    found = entry(args.game)
    players = args.players
    if players is None and len(bots) > 1:
        players = len(bots)
    given = {"players": players, "penalty_ms": args.penalty_ms,
             "countdown_ms": args.countdown_ms}
    data: dict[str, Any] = {}
    for key, value in given.items():
        if value is not None:
            if key not in found.fields():
                raise ValueError(f"--{key.replace('_', '-')}: {found.title} has no option {key}")
            data[key] = value
    data |= found.options_from_flags(args)
    data |= found.options_from_args(args.option)
    if args.handicap:
        data |= found.handicap(args.handicap, data)
    options = found.rules.parse_options(data)
    if len(bots) == 1:
        bots *= options.players
    if len(bots) != options.players:
        raise ValueError(f"--bots names {len(bots)} bots for {options.players} players")
    if args.rounds is not None and args.rounds < 1:
        raise ValueError("--rounds must be at least 1")
    if args.matches is not None and args.matches < 1:
        raise ValueError("--matches must be at least 1")
    if args.jobs is not None and not 1 <= args.jobs <= 256:
        raise ValueError(f"--jobs must be 1 to 256, not {args.jobs}")
    rounds = args.rounds if args.matches is None and args.rounds is not None else None
    if args.matches is None and rounds is None:
        rounds = 1000
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(1 << 31)
    rtt = None
    if args.rtt is not None:
        try:
            rtt = tuple(int(part) for part in args.rtt.split(","))
        except ValueError:
            raise ValueError(f"--rtt {args.rtt!r}: give whole milliseconds, one per player, "
                             "as in 10,100") from None
        if len(rtt) == 1:
            rtt *= options.players
    elif args.no_compensation:
        raise ValueError("--no-compensation needs --rtt: without a network there is no lag")
    return Config(args.game, options, tuple(bots), seed=seed, matches=args.matches,
                  rounds=rounds, rtt=rtt, compensation=not args.no_compensation,
                  attacks=_attacks(args, options.players))


def _attacks(args: argparse.Namespace, players: int) -> tuple[Attack, ...]:
    from zackzack.sim.network import Attack

    """Each seat's cheat on its wire, from ``--pong-delay`` and ``--reconnect`` (none: ())."""
    if args.pong_delay is None and args.reconnect is None:
        return ()
    if args.rtt is None:
        raise ValueError("--pong-delay and --reconnect need --rtt: they cheat on a network")
    delays = [0] * players
    if args.pong_delay is not None:
        try:
            delays = [int(part) for part in args.pong_delay.split(",")]
        except ValueError:
            raise ValueError(f"--pong-delay {args.pong_delay!r}: give whole milliseconds, "
                             "one per player, as in 200,0") from None
        if len(delays) == 1:
            delays *= players
        if len(delays) != players:
            raise ValueError(f"--pong-delay names {len(delays)} delays for {players} players")
    again: set[int] = set()
    if args.reconnect is not None:
        try:
            again = {int(part) for part in args.reconnect.split(",")}
        except ValueError:
            raise ValueError(f"--reconnect {args.reconnect!r}: give seat numbers from 0, as "
                             "in 0 or 0,1") from None
        if not again <= set(range(players)):
            raise ValueError(f"--reconnect {args.reconnect!r}: seats are 0 to {players - 1}")
    return tuple(Attack(delay, seat in again) for seat, delay in enumerate(delays))


def run(args: argparse.Namespace) -> int:
    """Run the simulation and print its table; bad arguments are a ``ValueError`` (exit 2)."""
    from rich.console import Console

    from zackzack.sim import import_ray
    from zackzack.sim.stats import summarise

    config = config_from_args(args)
    for path in (args.json, args.plot):
        if path and not Path(path).resolve().parent.is_dir():
            raise ValueError(f"cannot write {path}: no such directory")
        if path and Path(path).is_dir():
            raise ValueError(f"cannot write {path}: it is a directory")
    if args.plot and not args.plot.lower().endswith((".png", ".svg", ".pdf")):
        raise ValueError("--plot FILE must end in .png, .svg or .pdf")
    jobs = args.jobs if args.jobs is not None or args.ray else 1
    if args.ray is not None:
        try:
            import_ray()
        except ImportError as error:
            raise ValueError(f"--ray: {error}") from None
        if args.ray == "local" and jobs is None:
            jobs = os.cpu_count()
    started = time.perf_counter()
    try:
        records = _run_with_progress(config, jobs, args.ray, quiet=args.quiet)
    except ConnectionError as error:  # ray.init found no cluster at the address
        raise ValueError(f"--ray {args.ray}: {error}") from None
    elapsed = time.perf_counter() - started
    summary = summarise(config, records)
    summary["jobs"] = jobs
    summary["ray"] = args.ray
    summary["wall_seconds"] = elapsed
    summary["rounds_per_second"] = summary["rounds"] / elapsed if elapsed > 0 else 0.0
    console = Console(highlight=False)
    if not console.is_terminal:
        console.width = 110  # a file or pipe: room for the whole table
    console.print(render(summary))
    try:
        if args.json:
            Path(args.json).write_text(json.dumps(summary, indent=2, ensure_ascii=False) + "\n",
                                       encoding="utf-8")
        if args.plot:
            from zackzack.sim.plot import plot  # matplotlib only when asked for

            plot(summary, records, args.plot)
    except OSError as error:
        raise ValueError(f"cannot write {error.filename}: {error.strerror}") from None
    return 0


def _run_with_progress(config: Config, jobs: int | None, ray: str | None,
                       quiet: bool) -> list[MatchRecord]:
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeRemainingColumn,
    )

    from zackzack.sim import simulate

    by_matches = config.matches is not None
    total = config.matches if by_matches else config.rounds
    console = Console(stderr=True)
    if quiet or not console.is_terminal:
        return simulate(config, jobs, ray=ray)
    progress = Progress(
        TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
        TextColumn("{task.fields[rounds]} rounds · {task.fields[rate]} rounds/s"),
        TimeRemainingColumn(), console=console, transient=True)
    unit = "matches" if by_matches else "rounds"
    task = progress.add_task(f"simulating {unit}", total=total, rounds=0, rate="–")
    started = time.perf_counter()
    state = {"rounds": 0}

    def advance(records: list[MatchRecord]) -> None:
        if not progress.live.is_started:
            progress.start()  # after the worker processes exist: never fork a live thread
        rounds = sum(len(record.rounds) for record in records)
        state["rounds"] += rounds
        rate = state["rounds"] / max(time.perf_counter() - started, 1e-9)
        progress.update(task, advance=len(records) if by_matches else rounds,
                        rounds=state["rounds"], rate=f"{rate:,.0f}")

    try:
        return simulate(config, jobs, progress=advance, ray=ray)
    finally:
        progress.stop()


def render(summary: dict[str, Any]) -> Table:
    """The summary as a rich table with a caption of round lengths and automatic steps."""
    from rich.table import Table

    found = entry(summary["game"])
    several = summary["rounds_per_match"].get("max", 1) > 1
    players = len(summary["seats"])
    title = (f"{found.title} · {players} players · {summary['matches']:,} matches · "
             f"{summary['rounds']:,} rounds · seed {summary['seed']}")
    table = Table(title=title, title_justify="left", caption_justify="left")
    table.add_column("#", justify="right")
    table.add_column("Bot")
    network = summary["seats"] and summary["seats"][0].get("rtt_ms") is not None
    if network:
        table.add_column("RTT", justify="right")
    if several:
        table.add_column("Match wins", justify="right")
        table.add_column("95% CI", justify="right")
    table.add_column("Round wins", justify="right")
    table.add_column("95% CI", justify="right")
    table.add_column(found.front.score, justify="right")
    table.add_column("Wrong/rd", justify="right")
    table.add_column("Late/rd", justify="right")
    for seat in summary["seats"]:
        row = [str(seat["player"]), seat["bot"]]
        if network:
            cheats = [f"pongs +{seat['pong_delay_ms']} ms"] if seat.get("pong_delay_ms") else []
            cheats += ["reconnects"] if seat.get("reconnect") else []
            row.append(" ".join([f"{seat['rtt_ms']} ms", *(f"({c})" for c in cheats)]))
        if several:
            row += _rate(seat["match_win_rate"], seat["match_win_ci95"])
        row += _rate(seat["round_win_rate"], seat["round_win_ci95"])
        row += [f"{seat['final_score_mean']:.1f}", f"{seat['wrong_cards_per_round']:.3f}",
                f"{seat['too_late_per_round']:.3f}"]
        table.add_row(*row)
    seconds, actions = summary["round_seconds"], summary["round_actions"]
    step = found.front.steps
    lines = [
        f"round length: mean {seconds['mean']:.1f} s, median {seconds['median']:.1f} s, "
        f"p10–p90 {seconds['p10']:.1f}–{seconds['p90']:.1f} s (game time)",
        f"actions per round: mean {actions['mean']:.1f}, median {actions['median']:.0f}, "
        f"p10–p90 {actions['p10']:.0f}–{actions['p90']:.0f}",
        f"{step} per round: {summary['steps_per_round']:.3f} "
        f"(in {summary['rounds_with_steps']:.1%} of rounds)",
        f"rounds without a winner: {summary['no_winner_rate']:.2%}",
    ]
    if network:
        lines.append("close races: " + ("by press time, lag credited (compensation on)"
                                        if summary["compensation"] else "by arrival "
                                        "(compensation off)"))
    per = summary["rounds_per_match"]
    if per.get("min", 1) < per.get("max", 1):
        lines.append(f"rounds per match: mean {per['mean']:.1f}, median {per['median']:.0f}, "
                     f"p10–p90 {per['p10']:.0f}–{per['p90']:.0f}")
    if "rounds_per_second" in summary:
        workers = "a worker per CPU" if summary["jobs"] is None else \
            f"{summary['jobs']} worker(s)"
        where = f"{summary['jobs']} job(s)" if summary.get("ray") is None else \
            f"Ray ({summary['ray']}, {workers})"
        lines.append(f"simulated in {summary['wall_seconds']:.1f} s with {where}: "
                     f"{summary['rounds_per_second']:,.0f} rounds/s")
    table.caption = "\n".join(lines)
    return table


def _rate(rate: float, ci: tuple[float, float] | list[float]) -> list[str]:
    return [f"{rate:.1%}", f"{100 * ci[0]:.1f}–{100 * ci[1]:.1f}"]
