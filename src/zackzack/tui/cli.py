"""``zackzack play``: play in the terminal, offline against bots, two at one keyboard, or at a
server's table (``--join LINK``); without arguments a start screen asks."""

from __future__ import annotations

import argparse

from zackzack.describe import LANGS
from zackzack.tui.app import PlayApp, SessionMaker
from zackzack.tui.remote import RemoteSession, parse_link
from zackzack.tui.setup import GAMES, Setup, session
from zackzack.tui.texts import system_lang

HELP = "play in the terminal: against bots, two at one keyboard, or at a server's table"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The ``play`` command's arguments."""
    parser.add_argument("game", nargs="?", choices=GAMES,
                        help="the game; without it (and without --join) a start screen asks")
    parser.add_argument("--bots", "--bot", dest="bots", default=None, metavar="LIST",
                        help="the opponents, comma-separated bot names such as "
                             "normal,pro,beginner (default: normal,normal; Schnelllauf: normal)")
    parser.add_argument("--tournament", action="store_true",
                        help="Unter Spannung: the tournament, 2 × players rounds")
    parser.add_argument("--handicap", action="append", default=[], metavar="WHO[:KIND]",
                        help="Schnelllauf: me, bot, left or right; KIND piles (4 cards a pile) "
                             "or one-hand; both without KIND; repeat or comma-separate")
    parser.add_argument("--local-two", action="store_true",
                        help="Schnelllauf: two people at one keyboard, left and right half")
    parser.add_argument("--join", metavar="LINK",
                        help="play at a server's table: the link the lobby shares, "
                             "http://HOST:PORT/t/CODE")
    parser.add_argument("--name", default="", help="your name at the table")
    parser.add_argument("--seed", type=int, default=None, help="the same seed, the same deal")
    parser.add_argument("--lang", choices=LANGS, default=None,
                        help="de or en (default: the system locale)")


def sessions(args: argparse.Namespace, lang: str) -> SessionMaker | None:
    """What each match is played with, from the arguments (``None``: ask on the start screen)."""
    if args.join:
        if args.game or args.bots or args.local_two or args.handicap or args.tournament:
            raise ValueError("--join takes the game and its options from the server's table")
        url, code = parse_link(args.join)
        return lambda: RemoteSession(url, code, args.name, lang)
    if args.game is None:
        if args.bots or args.local_two or args.handicap or args.tournament:
            raise ValueError("name the game first: zackzack play unter-spannung|schnelllauf …")
        return None
    bots = tuple(s.strip() for s in (args.bots or "").split(",") if s.strip())
    handicap = tuple(h.strip() for item in args.handicap for h in item.split(",") if h.strip())
    chosen = Setup(args.game, bots, args.tournament, handicap, args.local_two, args.name,
                   args.seed)
    return lambda: session(chosen, lang)


def run(args: argparse.Namespace) -> int:
    """Run the app until the player quits."""
    lang = args.lang or system_lang()
    app = PlayApp(lang, sessions(args, lang), again=not args.join)
    app.run()
    return 0
