"""``zackzack ratings``: calibrate the bots' ratings by simulation; rebuild stored ratings.

``calibrate`` lets bots of every level play rated matches on the virtual clock and fits their
ratings (``zackzack.ratings.calibrate``); ``--write`` puts them into the package's
``ratings/bots.json``. ``rebuild`` replays every stored rating change in the order it was
first applied, with the function the live server uses, and replaces the stored ratings.
"""

from __future__ import annotations

import argparse
import json
import shlex
import sys
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any

from zackzack.games import GAMES, entry, game

if TYPE_CHECKING:  # calibration (numpy), ratings (openskill), the store (SQLAlchemy) and rich
    # are imported when a subcommand runs, not for --help
    from rich.console import Group

    from zackzack.ratings import Pool, Rating, RatingChange
    from zackzack.ratings.calibrate import GameCalibration
    from zackzack.store import RatedMatch, RatingRow, Store, StoredChange

EPILOG = """\
examples:
  zackzack ratings calibrate --seed 1 --jobs 2 --write
  zackzack ratings calibrate schnelllauf --matches 40 --seed 7
  zackzack ratings rebuild --db zackzack.db --check
"""
CHECK_TOLERANCE = 1e-6
"""``rebuild --check`` reports a μ or σ that differs by more than this. The live server reads
its clock for σ's growth with inactivity a moment before the store stamps the match, which
moves σ by far less (rebuilt from the stamp); anything more is a real difference."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The ``ratings`` command's subcommands and their arguments."""
    parser.epilog = EPILOG
    parser.formatter_class = argparse.RawDescriptionHelpFormatter
    sub = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    cal = sub.add_parser("calibrate", help="bots play rated matches; fit each level's rating",
                         description="Bots of every level play rated matches against each "
                         "other on the virtual clock; openskill's model gives each level a "
                         "rating, shifted so that normal has a new player's rating.")
    cal.add_argument("games", nargs="*", metavar="GAME",
                     help=f"games to calibrate (default: all; {', '.join(sorted(GAMES))})")
    cal.add_argument("--matches", type=int, help="matches per pairing of two bots, half in "
                     "each seat order (default: " + ", ".join(  # calibrate.default_matches
                         f"{g} {entry(g).front.calibration[0]}" for g in GAMES) + ")")
    cal.add_argument("--seed", type=int, default=1, help="the same seed, the same ratings "
                     "(default 1)")
    cal.add_argument("--jobs", type=int, default=1, help="processes to use (default 1)")
    cal.add_argument("--write", action="store_true",
                     help="write the ratings into the package's ratings/bots.json")
    cal.add_argument("--json", metavar="FILE", help="also write the result to FILE")
    cal.add_argument("--quiet", action="store_true", help="no progress bar")
    reb = sub.add_parser("rebuild", help="recompute every stored rating from the stored matches",
                         description="Replay every stored rating change in the order it was "
                         "first applied and replace the stored ratings and changes.")
    reb.add_argument("--db", metavar="PATH_OR_URL", help="the database, as for zackzack serve "
                     "(default: the data directory's zackzack.db)")
    reb.add_argument("--check", action="store_true",
                     help="only compare: print differences, exit 1 if there are any")


def run(args: argparse.Namespace) -> int:
    """Run the subcommand; bad arguments are a ``ValueError`` (exit 2)."""
    if args.action == "calibrate":
        return run_calibrate(args)
    return run_rebuild(args)


# Calibration -----------------------------------------------------------------------------


def bots_file() -> Path:
    """The package's ``ratings/bots.json``, where ``--write`` puts the anchors."""
    return Path(str(resources.files("zackzack").joinpath("ratings/bots.json")))


def command_line(games: Sequence[str], matches: int | None, seed: int) -> str:
    """The command that reproduces a calibration (``--jobs`` does not change it)."""
    parts = ["zackzack", "ratings", "calibrate", *games]
    if matches is not None:
        parts += ["--matches", str(matches)]
    return shlex.join([*parts, "--seed", str(seed)])


def run_calibrate(args: argparse.Namespace) -> int:
    """Calibrate, print a table per game, and write the anchors if asked."""
    from rich.console import Console

    from zackzack.ratings import calibrate

    games = list(dict.fromkeys(args.games)) or sorted(GAMES)
    for name in games:
        if name not in GAMES:
            raise ValueError(f"there is no game {name!r}; games: {', '.join(sorted(GAMES))}")
    if args.json and not Path(args.json).resolve().parent.is_dir():
        raise ValueError(f"cannot write {args.json}: no such directory")
    console = Console(highlight=False)
    if not console.is_terminal:
        console.width = 110
    results = []
    for name in games:
        started = time.perf_counter()
        result = _calibrate_with_progress(name, args.matches, args.seed, args.jobs, args.quiet)
        console.print(render(result, time.perf_counter() - started, args.jobs))
        results.append(result)
    command = command_line(args.games, args.matches, args.seed)
    try:
        if args.write:
            path = bots_file()
            previous = json.loads(path.read_text(encoding="utf-8")) if path.exists() else None
            _write(path, calibrate.to_json(results, command, previous))
            console.print(f"wrote {path}")
        if args.json:
            _write(Path(args.json), calibrate.to_json(results, command))
    except OSError as error:
        raise ValueError(f"cannot write {error.filename}: {error.strerror}") from None
    return 0


def _write(path: Path, data: dict[str, Any]) -> None:
    path.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


def _calibrate_with_progress(name: str, matches: int | None, seed: int, jobs: int,
                             quiet: bool) -> GameCalibration:
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
    )

    from zackzack.ratings import calibrate

    console = Console(stderr=True)
    if quiet or not console.is_terminal:
        return calibrate.calibrate(name, matches, seed, jobs)
    per_table = matches if matches is not None else calibrate.default_matches(name)
    total = sum(p.matches for p in calibrate.plan(name, per_table))
    progress = Progress(TextColumn("[bold]{task.description}"), BarColumn(),
                        MofNCompleteColumn(), TimeElapsedColumn(), console=console,
                        transient=True)
    task = progress.add_task(f"{name}: matches", total=total)

    def advance(count: int) -> None:
        if not progress.live.is_started:
            progress.start()  # after the worker processes exist: never fork a live thread
        progress.update(task, advance=count)

    try:
        return calibrate.calibrate(name, matches, seed, jobs, progress=advance)
    finally:
        progress.stop()


def render(result: GameCalibration, seconds: float | None = None,
           jobs: int = 1) -> Group:
    """One game's calibration as a rich table of each level's rating, then the neighbours'
    direct win rates."""
    from rich.console import Group
    from rich.table import Table
    from rich.text import Text

    from zackzack import ratings
    from zackzack.ratings import Rating

    title = (f"{game(result.game).INFO.title} · {result.matches:,} matches at "
             f"{result.tables} tables · seed {result.seed}")
    table = Table()
    for column in ("Level", "μ", "± vs normal", "σ", "Rating"):
        table.add_column(column, justify="left" if column == "Level" else "right")
    for level in result.levels:
        rating = Rating(level.mu, level.sigma)
        table.add_row(level.level, f"{level.mu:.2f}", f"{level.error:.2f}",
                      f"{level.sigma:.2f}", str(ratings.shown(rating)))
    lines = [f"{n.stronger} beats {n.weaker} in {n.wins / n.matches:.1%} of {n.matches:,} "
             f"matches (95 % {100 * n.low:.1f}–{100 * n.high:.1f})"
             for n in result.neighbours if n.matches]
    if result.step is not None:
        lines.append(f"ladder: {result.entrants - 4} rungs, each {result.step:g}× slower than "
                     "the one before")
    if seconds is not None:
        lines.append(f"calibrated in {seconds:.1f} s with {jobs} job(s)")
    return Group(Text(title, style="bold"), table, Text("\n".join(lines)))


# Rebuild ---------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Rebuilt:
    """Every rating change replayed, the ratings they lead to, and what differs from the
    store (one line each)."""

    changes: list[StoredChange]
    ratings: dict[tuple[str, str, str], RatingRow]
    differences: list[str]
    matches: int
    skipped: tuple[str, ...] = ()
    """The matches left out (``skip``), by id: none of their changes was replayed."""


def replay(matches: Iterable[RatedMatch], stored: Store | None = None, *,
           skip: Callable[[RatedMatch], bool] | None = None) -> Rebuilt:
    """Recompute every change of ``matches`` (in their order) with
    :func:`zackzack.ratings.match_changes`; each one starts from the rating the replay has
    reached, its σ grown with the time since that player's last match, as the live server
    does. ``stored``: also compare the stored ratings with the result (a deleted player has
    none: the store keeps their changes, not their ratings). ``skip``: the matches to leave
    out, with every participant's changes (a marked player's results removed, see
    ``zackzack.moderation.mark``)."""
    from zackzack import ratings
    from zackzack.ratings import NEW
    from zackzack.store import RatingRow, StoredChange

    state: dict[tuple[str, str, str], RatingRow] = {}
    changes: list[StoredChange] = []
    differences: list[str] = []
    deleted: set[str] = set()
    skipped: list[str] = []
    count = 0
    for match in matches:
        if skip is not None and skip(match):
            skipped.append(match.id)
            continue
        count += 1
        deleted.update(seat.player for seat in match.seats if seat.deleted and seat.player)
        at = match.changes[0].at if match.changes else (match.ended_at or 0)
        placed = ratings.places(match.result, len(match.seats), match.abandoned)

        def current(player: str, pool: Pool, game_name: str = match.game,
                    now: int = at) -> Rating:
            found = state.get((player, game_name, pool.value))
            if found is None:
                return NEW
            return ratings.drifted(found.rating, found.last_at, now)

        # The match counted when it was played (its options were checked then): replay it
        # under the standard options, which every rateable table shares but for the seats.
        made = [] if placed is None else ratings.match_changes(
            match.game, [(seat.player, seat.bot) for seat in match.seats], placed,
            rated=match.rated, options={}, current=current)
        differences += _compare(match, made)
        for change in made:
            key = (change.player_id, change.game, change.pool.value)
            old = state.get(key)
            state[key] = RatingRow(change.after.mu, change.after.sigma,
                                   (old.matches if old else 0) + 1, at)
            changes.append(StoredChange(match.id, at, change))
    if stored is not None:
        for (player, game_name, pool), row in sorted(state.items()):
            if player in deleted:  # their changes stay, their ratings went with the account
                continue
            have = stored.ratings_of(player).get((game_name, pool))
            if have is None:
                differences.append(f"{player} {game_name} {pool}: no stored rating")
            elif _differs(have.mu, row.mu) or _differs(have.sigma, row.sigma) \
                    or have.matches != row.matches or have.last_at != row.last_at:
                differences.append(
                    f"{player} {game_name} {pool}: stored μ {have.mu:.6f} σ {have.sigma:.6f} "
                    f"({have.matches} matches), rebuilt μ {row.mu:.6f} σ {row.sigma:.6f} "
                    f"({row.matches} matches)")
    return Rebuilt(changes, state, differences, count, tuple(skipped))


def _differs(a: float, b: float) -> bool:
    return abs(a - b) > CHECK_TOLERANCE


def _compare(match: RatedMatch, made: Sequence[RatingChange]) -> list[str]:
    """What the replayed changes of ``match`` do differently from the stored ones."""
    old = {(c.change.player_id, c.change.pool): c.change for c in match.changes}
    new = {(c.player_id, c.pool): c for c in made}
    found = []
    for key in sorted(old.keys() | new.keys(), key=lambda k: (k[0], k[1].value)):
        was, now = old.get(key), new.get(key)
        where = f"match {match.id} {key[0]} {key[1].value}"
        if was is None:
            found.append(f"{where}: a change that was not stored")
        elif now is None:
            found.append(f"{where}: a stored change the replay does not make")
        elif was.place != now.place or was.seat != now.seat:
            found.append(f"{where}: seat {was.seat} place {was.place} stored, "
                         f"seat {now.seat} place {now.place} replayed")
        elif any(_differs(x, y) for x, y in (
                (was.before.mu, now.before.mu), (was.before.sigma, now.before.sigma),
                (was.after.mu, now.after.mu), (was.after.sigma, now.after.sigma))):
            found.append(f"{where}: stored μ {was.before.mu:.6f}→{was.after.mu:.6f} "
                         f"σ {was.before.sigma:.6f}→{was.after.sigma:.6f}, replayed μ "
                         f"{now.before.mu:.6f}→{now.after.mu:.6f} σ {now.before.sigma:.6f}"
                         f"→{now.after.sigma:.6f}")
    return found


REBUILD_TRIES = 3
"""A rebuild worked out while a live server finished a rated match is worked out again, at
most this many times in all."""


def rebuild(store: Store, *, check: bool = False,
            skip: Callable[[RatedMatch], bool] | None = None) -> Rebuilt:
    """Replay the store's rated matches (but those ``skip`` leaves out, whose changes are
    dropped); unless ``check``, replace its ratings with the result."""
    from zackzack.store import StoreError

    for tries in range(1, REBUILD_TRIES + 1):
        last = store.last_rating_change()
        rebuilt = replay(store.rated_matches_in_order(), store, skip=skip)
        if check:
            break
        try:
            store.replace_ratings(rebuilt.changes, rebuilt.ratings, last=last)
        except StoreError:
            if tries == REBUILD_TRIES:
                raise
            continue
        break
    return rebuilt


def run_rebuild(args: argparse.Namespace) -> int:
    """Rebuild (or check) the ratings of the database ``--db``."""
    from zackzack.store import StoreError, database_url, open_store

    try:
        store = open_store(database_url(args.db))
    except StoreError as error:
        raise ValueError(str(error)) from None
    try:
        rebuilt = rebuild(store, check=args.check)
    except StoreError as error:
        raise ValueError(f"{error}: run it again (or stop the server first)") from None
    finally:
        store.close()
    for line in rebuilt.differences:
        print(line)
    people = len({player for player, _, _ in rebuilt.ratings})
    summary = (f"{rebuilt.matches} matches, {len(rebuilt.changes)} rating changes, "
               f"{len(rebuilt.ratings)} ratings of {people} players")
    if args.check:
        print(f"{summary}: {len(rebuilt.differences)} differences", file=sys.stderr)
        return 1 if rebuilt.differences else 0
    print(f"rebuilt {summary} ({len(rebuilt.differences)} differed)", file=sys.stderr)
    return 0
