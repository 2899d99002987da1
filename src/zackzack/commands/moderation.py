"""``zackzack moderation``: operators, the review queue and acts on players, from a shell.

Whoever runs the server acts here as ``cli:USER`` (their login name) in the audit log;
every act but ``flags``, ``scan`` and ``log`` needs ``--reason``. ``zackzack.moderation``
does the work.
"""

from __future__ import annotations

import argparse
import getpass
import json
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # the store (SQLAlchemy) is imported when a subcommand runs, not for --help
    from zackzack.store import Store

EPILOG = """\
examples:
  zackzack moderation grant Anna --reason "runs the server with me" --db zackzack.db
  zackzack moderation scan --db zackzack.db
  zackzack moderation flags --db zackzack.db
  zackzack moderation mark Bot3000 --reason "scripted timing: score 21 over 250 reactions"
  zackzack moderation mark Bot3000 --remove-results --reason "scripted" --db zackzack.db
  zackzack moderation rename Rude --to Player42 --reason "offensive name"
  zackzack moderation log --db zackzack.db
"""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The ``moderation`` command's subcommands and their arguments."""
    parser.epilog = EPILOG
    parser.formatter_class = argparse.RawDescriptionHelpFormatter
    sub = parser.add_subparsers(dest="action", metavar="ACTION", required=True)

    def command(name: str, about: str, *, player: bool = True, reason: bool = True
                ) -> argparse.ArgumentParser:
        found = sub.add_parser(name, help=about, description=about)
        if player:
            found.add_argument("player", metavar="NAME", help="a claimed name or a player id")
        if reason:
            found.add_argument("--reason", required=True, help="why (kept in the audit log)")
        found.add_argument("--db", metavar="PATH_OR_URL", help="the database, as for "
                           "zackzack serve (default: the data directory's zackzack.db)")
        found.add_argument("--json", action="store_true", help="print JSON")
        return found

    grant = command("grant", "make a player an operator")
    grant.add_argument("--role", default="operator", help="the role (default operator)")
    command("revoke", "take a player's role away")
    scan = command("scan", "run the fair-play detector over the stored rated matches; "
                   "flagged players join the review queue", player=False, reason=False)
    scan.add_argument("--game", action="append", help="only this game (repeatable)")
    flags = command("flags", "the review queue: flags with their evidence", player=False,
                    reason=False)
    flags.add_argument("--all", action="store_true", help="cleared flags too")
    clear = command("clear", "clear a player's open flags of a game (reviewed, nothing to do)")
    clear.add_argument("--game", required=True)
    mark = command("mark", "mark a player: off the leaderboards, barred from rated play")
    mark.add_argument("--remove-results", action="store_true",
                      help="also rebuild every rating without the matches they took part "
                      "in (every participant's changes from those are dropped; unmarking "
                      "does not bring them back; stop the server first, as for ratings "
                      "rebuild)")
    command("unmark", "lift a player's mark")
    rename = command("rename", "give a player another name")
    rename.add_argument("--to", required=True, metavar="NAME", help="the new name")
    command("close", "close a player's account")
    log = command("log", "the audit log, newest first", player=False, reason=False)
    log.add_argument("--player", metavar="NAME", help="one player's only")
    log.add_argument("--limit", type=int, default=50)


def run(args: argparse.Namespace) -> int:
    """Run the subcommand; bad arguments are a ``ValueError`` (exit 2)."""
    from zackzack import moderation
    from zackzack.store import database_url, open_store

    store: Store = open_store(database_url(args.db))
    actor = f"cli:{getpass.getuser()}"
    try:
        found: Any
        removed: list[str] | None = None
        if args.action == "scan":
            found = moderation.scan(store, games=args.game)
            text = [f"{f['player']} {f['game']} score {f['score']:.1f}" for f in found] or [
                "nobody flagged"]
        elif args.action == "flags":
            found = moderation.queue(store, cleared=args.all)
            text = [_flag_line(flag) for flag in found] or ["the queue is empty"]
        elif args.action == "log":
            who = None if args.player is None else moderation.find(store, args.player)
            found = moderation.audit_log(store, who, args.limit)
            text = [f"#{e['seq']} {e['at']} {e['actor']} {e['act']} {e['player'] or '-'}: "
                    f"{e['reason']}" for e in found] or ["nothing yet"]
        else:
            player = moderation.find(store, args.player)
            if args.action == "grant":
                moderation.grant(store, player, args.role, actor=actor, reason=args.reason)
            elif args.action == "revoke":
                moderation.revoke(store, player, actor=actor, reason=args.reason)
            elif args.action == "clear":
                moderation.clear(store, player, args.game, args.reason, actor=actor)
            elif args.action == "mark":
                removed = moderation.mark(store, player, args.reason, actor=actor,
                                          remove_results=args.remove_results)
            elif args.action == "unmark":
                moderation.unmark(store, player, args.reason, actor=actor)
            elif args.action == "rename":
                moderation.rename(store, player, args.to, args.reason, actor=actor)
            else:
                moderation.close(store, player, args.reason, actor=actor)
            found = {"done": args.action, "player": player}
            text = [f"{args.action}: {player}"]
            if args.action == "mark" and removed is not None:
                found["removed_matches"] = removed
                text.append(f"ratings rebuilt without their {len(removed)} rated matches")
    finally:
        store.close()
    print(json.dumps(found, indent=1) if args.json else "\n".join(text))
    return 0


def _flag_line(flag: dict[str, Any]) -> str:
    """One flag of the queue as a line for people."""
    evidence = flag["evidence"]
    if flag["source"] == "timing":
        why = (f"median {evidence.get('median_ms')} ms, {evidence.get('n')} reactions, "
               f"suspicion {evidence.get('suspicion')}")
    else:
        why = f"reports {evidence.get('reports')}"
    mark = f" [marked: {flag['marked']}]" if flag["marked"] else ""
    return (f"{flag['name'] or flag['player']} ({flag['player']}) {flag['game']} "
            f"{flag['source']} score {flag['score']}{mark}: {why}")
