"""``zackzack arena``: an operator schedules arenas (once or recurring) and lists them.

An arena made here is stored; every running server looks for new ones every few seconds
(``server/arenas.py``, ``LOAD_EVERY``) and hosts it: the lobby lists it with a countdown.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import time
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the store (SQLAlchemy) is imported when a subcommand runs, not for --help
    from zackzack.store.arenas import ArenaRecord

EPILOG = """\
examples:
  zackzack arena create --game schnelllauf --minutes 30 --in 10 --title "Feierabend"
  zackzack arena create --game unter-spannung --seats 4 --minutes 45 \\
      --start 2026-12-24T19:00 --every 1440 --rated
  zackzack arena list --db zackzack.db
"""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The ``arena`` command's subcommands and their arguments."""
    parser.epilog = EPILOG
    parser.formatter_class = argparse.RawDescriptionHelpFormatter
    sub = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    create = sub.add_parser("create", help="schedule an arena (once, or every so often)",
                            description="schedule an arena (once, or every so often)")
    create.add_argument("--game", required=True, help="unter-spannung or schnelllauf")
    create.add_argument("--seats", type=int, default=2,
                        help="players at each table (Unter Spannung 2-4; default 2)")
    create.add_argument("--minutes", type=int, required=True, help="how long it runs")
    when = create.add_mutually_exclusive_group()
    when.add_argument("--start", metavar="ISO", help="when it starts, local time unless the "
                      "time says its zone (e.g. 2026-12-24T19:00 or ...T19:00+01:00)")
    when.add_argument("--in", dest="in_minutes", type=float, metavar="MINUTES", default=0.0,
                      help="starts this many minutes from now (default: now)")
    create.add_argument("--every", type=int, metavar="MINUTES", default=0,
                        help="the next one starts this many minutes after each start "
                             "(default: once)")
    create.add_argument("--rated", action="store_true", help="its tables are rated")
    create.add_argument("--private", action="store_true",
                        help="not listed in the lobby: only its link lets anyone in")
    create.add_argument("--title", default=None, help="its name in the lobby")
    listing = sub.add_parser("list", help="the arenas to come, running and just over",
                             description="the arenas to come, running and just over")
    for found in (create, listing):
        found.add_argument("--db", metavar="PATH_OR_URL", help="the database, as for "
                           "zackzack serve (default: the data directory's zackzack.db)")
        found.add_argument("--json", action="store_true", help="print JSON")


def start_of(text: str | None, in_minutes: float, now: float) -> float:
    """The wall time (s) an arena starts: ``text`` (ISO 8601) or ``in_minutes`` from ``now``.

    >>> start_of(None, 10, 1000.0)
    1600.0
    >>> start_of("2026-12-24T19:00+00:00", 0, 0.0)
    1798138800.0
    >>> start_of("Heiligabend", 0, 0.0)
    Traceback (most recent call last):
    ...
    ValueError: --start 'Heiligabend' is not a date and time such as 2026-12-24T19:00
    """
    if text is None:
        if not 0 <= in_minutes <= 7 * 24 * 60:
            raise ValueError(f"--in must be 0 to {7 * 24 * 60} minutes, not {in_minutes}")
        return now + in_minutes * 60.0
    try:
        found = dt.datetime.fromisoformat(text)
    except ValueError:
        raise ValueError(f"--start {text!r} is not a date and time such as "
                         "2026-12-24T19:00") from None
    return found.timestamp()


def run(args: argparse.Namespace) -> int:
    """Run the subcommand; bad arguments are a ``ValueError`` (exit 2)."""
    from zackzack.store import database_url, open_store

    store = open_store(database_url(args.db))
    try:
        if args.action == "create":
            shown = [_create(store, args)]
        else:
            shown = store.arenas(over_since=time.time() - 3600.0)
    finally:
        store.close()
    if args.json:
        print(json.dumps([_json(record) for record in shown], indent=2))
    else:
        _print(shown)
    return 0


def _create(store: object, args: argparse.Namespace) -> ArenaRecord:
    from zackzack.arena import ArenaError
    from zackzack.games import GAMES
    from zackzack.server.arenas import new_arena
    from zackzack.server.lobby import PRIVATE_CODE_LENGTH, Timing, new_code
    from zackzack.store import Store

    assert isinstance(store, Store)
    if args.game not in GAMES:
        raise ValueError(f"--game must be one of {', '.join(GAMES)}, not {args.game!r}")
    if not 1 <= args.minutes <= 720:
        raise ValueError(f"--minutes must be 1 to 720, not {args.minutes}")
    if not 0 <= args.every <= 7 * 24 * 60 or 0 < args.every * 60 < args.minutes * 60:
        raise ValueError("--every must be at least as long as --minutes (or 0: once), at "
                         "most a week")
    start = start_of(args.start, args.in_minutes, store.wall())
    if start < store.wall() - 60.0:
        raise ValueError("--start is in the past")
    title = (args.title or f"{GAMES[args.game].INFO.title} · Arena").strip()[:40]
    if not title:
        raise ValueError("--title is empty")
    try:
        hosted = new_arena(new_code(PRIVATE_CODE_LENGTH if args.private else 8), args.game,
                           args.seats, start=start, minutes=args.minutes, rated=args.rated,
                           private=args.private, title=title, rest=Timing().arena_rest,
                           every=args.every * 60)
    except ArenaError as error:
        raise ValueError(str(error)) from None
    record = hosted.stored(store.wall())
    if not store.add_arena(record):
        raise ValueError(f"an arena {record.id} exists already: try again")
    return record


def _json(record: ArenaRecord) -> dict[str, object]:
    return {"id": record.id, "game": record.game, "title": record.title,
            "seats": record.seats, "rated": record.rated, "private": record.private,
            "status": record.status.value, "players": record.players,
            "start": _iso(record.start_at), "end": _iso(record.end_at),
            "every_minutes": record.every // 60, "link": f"/arenas/{record.id}"}


def _iso(seconds: float) -> str:
    return dt.datetime.fromtimestamp(seconds).astimezone().isoformat(timespec="minutes")


def _print(records: list[ArenaRecord]) -> None:
    from rich.console import Console
    from rich.table import Table

    table = Table("id", "game", "title", "status", "start", "end", "players", "every",
                  title="Arenas")
    for record in records:
        table.add_row(record.id, f"{record.game} ({record.seats})", record.title,
                      record.status.value + (" · rated" if record.rated else ""),
                      _iso(record.start_at), _iso(record.end_at), str(record.players),
                      f"{record.every // 60} min" if record.every else "once")
    Console().print(table)
