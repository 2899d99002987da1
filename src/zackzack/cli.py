"""The one entry point: ``zackzack COMMAND``; each command lives in its own module."""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

from zackzack import __version__

COMMANDS: dict[str, tuple[str, str]] = {
    "arena": ("zackzack.commands.arena",
              "operators schedule arenas (timed tournaments), once or recurring, and list them"),
    "demo": ("zackzack.commands.demo", "watch simple players race through a short game"),
    "moderation": ("zackzack.commands.moderation",
                   "operators, the fair-play review queue, marks, renames and the audit log"),
    "play": ("zackzack.tui.cli",
             "play in the terminal: against bots, two at one keyboard, or at a server's table"),
    "ratings": ("zackzack.commands.ratings",
                "calibrate the bots' ratings by simulation, or rebuild the stored ratings"),
    "replay": ("zackzack.commands.replay",
               "re-run a match log through the rules and print what happened"),
    "serve": ("zackzack.server.cli",
              "run the server: play in the browser at the address it prints"),
    "simulate": ("zackzack.sim.cli",
                 "let bots play many matches and print win rates, round lengths and misses"),
    "train": ("zackzack.learn.cli",
              "train the learned bot (strategy 'learned') by playing rounds against a bot"),
}
"""Command name → its help and the module with ``add_arguments(parser)`` and
``run(args) -> int``; a module is imported only when its command runs (``--help`` and the
other commands start at once)."""


def parser(only: str | None = None) -> argparse.ArgumentParser:
    """The argument parser with every command's arguments, or (``only``) just that one's.

    >>> parser(only="").parse_args(["replay"]).command  # no command's module imported
    'replay'
    """
    main_parser = argparse.ArgumentParser(
        prog="zackzack", description="Unter Spannung and Schnelllauf: real-time card games.")
    main_parser.add_argument("--version", action="version", version=f"zackzack {__version__}")
    commands = main_parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for name, (module_name, about) in COMMANDS.items():
        sub = commands.add_parser(name, help=about, description=about)
        if only is None or only == name:
            module = importlib.import_module(module_name)
            module.add_arguments(sub)
            sub.set_defaults(run=module.run)
    return main_parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run a command; a bad argument or input is one clear line on stderr and exit code 2."""
    given = sys.argv[1:] if argv is None else list(argv)
    command = next((word for word in given if not word.startswith("-")), "")
    args = parser(only=command).parse_args(given)
    try:
        code: int = args.run(args)
    except ValueError as error:
        print(f"zackzack {args.command}: error: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:  # the reader of our output went away (``| head``)
        sys.stderr.close()
        return 0
    return code


if __name__ == "__main__":
    sys.exit(main())
