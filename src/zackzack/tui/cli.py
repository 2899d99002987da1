"""``zackzack play``: play in the terminal, offline against bots, two at one keyboard, or at a
server's table (``--join LINK``) or in its arena (``--arena LINK``); without arguments a start
screen asks.

Whatever keeps the match from starting (bad arguments, no terminal, a server that cannot be
reached, a table that does not exist, a wrong password) is one line on stderr and exit status
2, said before the full-screen app would start: the first session is opened before the app
runs.

With ``--user NAME`` (and ``--server``, ``--join`` or ``--arena``) the terminal signs in as
the player who claimed NAME on that server: it asks for the password, or takes it from the
environment variable ``ZACKZACK_PASSWORD`` when that is set (for scripts). Without it, a guest
plays.
"""

from __future__ import annotations

import argparse
import asyncio
import getpass
import os
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import msgspec

from zackzack.games import REGISTRY, entry, registered
from zackzack.games.registry import Game, add_flags, flags
from zackzack.tui.keys import KEYBOARDS
from zackzack.tui.texts import bot_spec, system_lang
from zackzack.words.describe import LANGS

if TYPE_CHECKING:  # the app (Textual, websockets) is imported when the command runs
    from textual.screen import Screen

    from zackzack.tui.app import SessionMaker

PASSWORD_ENV = "ZACKZACK_PASSWORD"
"""The environment variable a script can put the password in instead of typing it."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The ``play`` command's arguments."""
    parser.add_argument("game", nargs="?", choices=tuple(REGISTRY),
                        help="the game; without it (and without --join) a start screen asks")
    parser.add_argument("--bots", "--bot", dest="bots", default=None, metavar="LIST",
                        help="the opponents, comma-separated bot names such as "
                             "normal,pro,beginner (default: "
                             + "; ".join(f"{g.title}: {','.join(g.front.opponents)}"
                                         for g in registered()) + ")")
    parser.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                        help="a table option of the game (repeatable), e.g. countdown_ms=0, "
                             "penalty_ms=500; the rules list them")
    add_flags(parser)
    handicapped = [g for g in registered() if g.front.handicaps]
    parser.add_argument("--handicap", action="append", default=[], metavar="SPEC",
                        help="handicap a player (repeatable), players numbered from 1 (you are "
                             "1; with --local-two left 1, right 2), e.g. "
                             + "".join(f"{g.title}'s 1:{next(iter(g.front.handicaps))}, "
                                       for g in handicapped) + "or 1 for every handicap")
    parser.add_argument("--local-two", action="store_true",
                        help=_titles(lambda g: g.front.local_two)
                        + "two people at one keyboard, left and right half")
    parser.add_argument("--server", metavar="URL",
                        help="a server's lobby: its open tables, live, and a new table of "
                             "your own (http://HOST:PORT)")
    parser.add_argument("--join", metavar="LINK",
                        help="play at a server's table: the link the lobby shares, "
                             "http://HOST:PORT/t/CODE, or with --server URL its code alone")
    parser.add_argument("--arena", metavar="LINK",
                        help="play in a server's arena (a timed tournament that pairs you again "
                             "after each game): its link, http://HOST:PORT/arenas/ID, or with "
                             "--server URL its id alone")
    parser.add_argument("--name", default="", help="your name at the table")
    parser.add_argument("--user", metavar="NAME",
                        help="with --server, --join or --arena: sign in as the player who "
                             "claimed NAME "
                             f"(the password is asked for, or read from ${PASSWORD_ENV}); "
                             "without it you play as a guest")
    parser.add_argument("--seed", type=int, default=None, help="the same seed, the same deal")
    parser.add_argument("--lang", choices=LANGS, default=None,
                        help="de or en (default: the system locale)")
    parser.add_argument("--keys", choices=KEYBOARDS, default=None,
                        help=_titles(lambda g: g.front.local_two)
                        + "the keyboard layout the key labels follow "
                             "(default: qwertz with --lang de, else qwerty)")


def sessions(args: argparse.Namespace, lang: str) -> SessionMaker | None:
    """What each match is played with, from the arguments (``None``: ask on the start screen)."""
    from zackzack.tui.online import server_url
    from zackzack.tui.remote import seat_maker
    from zackzack.tui.setup import Setup, session

    if args.join or args.server or args.arena:
        if (args.game or args.bots or args.local_two or args.handicap or flagged(args)
                or args.option):
            raise ValueError("--join, --server and --arena take the game and its options from "
                             "the server")
        if args.join and args.arena:
            raise ValueError("--join and --arena: a table or an arena, not both")
        if args.join and args.server and "/" in args.join:
            raise ValueError("--join with --server takes the table's code alone (the link "
                             "names the server already)")
    elif args.user is not None:
        raise ValueError("--user signs in at a server: use it with --server, --join or "
                         "--arena")
    if args.user is not None and not args.user.strip():
        raise ValueError("--user needs the name you claimed on the server")
    if args.arena:
        from zackzack.tui.arena import arena_target

        arena_target(args.arena, args.server)  # a ValueError for a bad link or id
        return None
    if args.join:
        url, code = join_target(args.join, args.server)
        return seat_maker(url, code, args.name, lang)
    if args.server:
        server_url(args.server)  # a ValueError for a bad address
        return None
    game = args.game
    if game is None and (args.local_two or args.handicap):
        game = only_game(args.local_two, bool(args.handicap))
    if game is None:
        if args.bots or flagged(args) or args.option:
            raise ValueError(f"name the game first: zackzack play {'|'.join(REGISTRY)} …")
        return None
    bots = tuple(any_lang_bot(s) for s in (args.bots or "").split(",") if s.strip())
    handicap = tuple(h.strip() for h in args.handicap if h.strip())
    items = tuple(f"{key}={msgspec.json.encode(value).decode()}"
                  for key, value in entry(game).options_from_flags(args).items())
    chosen = Setup(game, bots, False, handicap, args.local_two, args.name, args.seed,
                   (*args.option, *items))
    return lambda: session(chosen, lang)


def join_target(join: str, server: str | None) -> tuple[str, str]:
    """The websocket URL and the code of the table ``--join`` names: a link, or with
    ``--server`` a code alone (as the waiting room shows it).

    >>> join_target("k7m2qx", "http://localhost:8000")
    ('ws://localhost:8000/ws', 'K7M2QX')
    """
    from zackzack.tui.online import server_url
    from zackzack.tui.remote import parse_code, parse_link

    if server:
        return server_url(server), parse_code(join)
    if "/" not in join:
        raise ValueError(f"--join {join}: a table's code needs --server URL (or give the "
                         "whole link, http://HOST:PORT/t/CODE)")
    return parse_link(join)


def any_lang_bot(text: str) -> str:
    """A bot as typed on the command line, in any language the start screen takes: levels
    and strategies named in German too (``Anfänger`` → ``beginner``).

    >>> any_lang_bot(" Anfänger "), any_lang_bot("profi:zufällig"), any_lang_bot("pro")
    ('beginner', 'pro:random', 'pro')
    """
    for lang in LANGS:
        text = bot_spec(text, lang)
    return text


def _titles(has: Callable[[Game], bool]) -> str:
    """``"Title: "`` for the games that ``has`` holds for (what a flag concerns)."""
    found = [g.title for g in registered() if has(g)]
    return f"{', '.join(found)}: " if found else ""


def flagged(args: argparse.Namespace) -> bool:
    """Whether any game's flag (``--tournament`` and the like) was given."""
    return any(getattr(args, flag.dest, None) not in (None, False) for flag in flags())


def only_game(local_two: bool, handicap: bool) -> str:
    """The one game that has ``--local-two`` and ``--handicap`` as asked, when no game is
    named; none or several raise ``ValueError`` (name the game then).

    >>> only_game(True, True)
    'schnelllauf'
    """
    asked = [option for option, given in (("--local-two", local_two), ("--handicap", handicap))
             if given]
    found = [g.name for g in registered()
             if (g.front.local_two or not local_two) and (g.front.handicaps or not handicap)]
    if len(found) != 1:
        raise ValueError(f"{' and '.join(asked)}: "
                         + (f"{', '.join(found)} have it; name the game: zackzack play "
                            f"{'|'.join(found)} …" if found else "no game has it"))
    return found[0]


def terminal() -> bool:
    """Whether stdin and stdout are a terminal the app can take over."""
    return sys.stdin.isatty() and sys.stdout.isatty()


def run(args: argparse.Namespace) -> int:
    """Run the app until the player quits; a start failure raises ``ValueError`` (one line)."""
    lang = args.lang or system_lang()
    makers = sessions(args, lang)
    if not terminal():
        raise ValueError("a terminal is needed: stdin and stdout must not be "
                         "redirected")
    account = None
    if args.user is not None:
        account = (args.user.strip(), password(args.user.strip()))
    return asyncio.run(play(lang, makers, layout=args.keys, server=args.server, name=args.name,
                            account=account, join=args.join, arena=args.arena))


def password(user: str) -> str:
    """The password of ``user``: from ``$ZACKZACK_PASSWORD`` if set, else typed (not shown)."""
    given = os.environ.get(PASSWORD_ENV)
    if given is not None:
        return given
    try:
        return getpass.getpass(f"Password for {user}: ")
    except EOFError:
        raise ValueError("no password given") from None


async def play(lang: str, makers: SessionMaker | None, *, again: bool = True,
               layout: str | None = None, server: str | None = None, name: str = "",
               headless: bool = False, account: tuple[str, str] | None = None,
               join: str | None = None, arena: str | None = None) -> int:
    """Sign in if ``account`` (name, password) is given, open the first match's session (a
    remote one connects and joins: the table of ``join`` as the signed-in player), the
    ``arena`` (joined) or the lobby of ``server``, then run the app."""
    from zackzack.tui.app import PlayApp
    from zackzack.tui.arena import ArenaScreen, ArenaSession, arena_target
    from zackzack.tui.online import LobbyClient, LobbyScreen, http_base, server_url, sign_in
    from zackzack.tui.remote import seat_maker

    first, token = None, None
    lobby: Screen[Any] | None = None
    if account is not None:
        where = server or join or arena
        if where is None:
            raise ValueError("--user signs in at a server: use it with --server, --join or "
                             "--arena")
        signed = await sign_in(http_base(where), *account)  # ValueError: the app never shows
        token, name = signed.token, signed.name
        if join is not None:
            url, code = join_target(join, server)
            makers = seat_maker(url, code, name, lang, token=token)
    if arena is not None:
        joined = ArenaSession(*arena_target(arena, server), name, lang, token=token)
        await joined.open()  # raises ValueError: the app never shows
        lobby = ArenaScreen(joined, lang, layout)
    elif makers is not None:
        first = makers()
        await first.open()  # raises ValueError: the app never shows
    elif server is not None:
        client = LobbyClient(server_url(server), name, token)
        await client.open()  # raises ValueError: the app never shows
        lobby = LobbyScreen(server.strip().rstrip("/"), name, lang, client)
    app = PlayApp(lang, makers, again=again, first=first, layout=layout, lobby=lobby)
    await app.run_async(headless=headless)
    if app.error:
        raise ValueError(app.error)
    return app.return_code or 0
