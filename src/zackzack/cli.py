"""The one entry point: ``zackzack COMMAND``; each command lives in its own module."""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

from zackzack import __version__

COMMANDS: dict[str, str] = {
    "demo": "zackzack.demo",
    "play": "zackzack.tui.cli",
    "ratings": "zackzack.ratings_cli",
    "replay": "zackzack.replay_cli",
    "serve": "zackzack.server.cli",
    "simulate": "zackzack.sim.cli",
    "train": "zackzack.learn.cli",
}
"""Command name → module with ``HELP``, ``add_arguments(parser)`` and ``run(args) -> int``."""


def parser() -> argparse.ArgumentParser:
    """The argument parser with every command."""
    main_parser = argparse.ArgumentParser(
        prog="zackzack", description="Unter Spannung and Schnelllauf: real-time card games.")
    main_parser.add_argument("--version", action="version", version=f"zackzack {__version__}")
    commands = main_parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for name, module_name in COMMANDS.items():
        module = importlib.import_module(module_name)
        sub = commands.add_parser(name, help=module.HELP, description=module.HELP)
        module.add_arguments(sub)
        sub.set_defaults(run=module.run)
    return main_parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run a command; a bad argument or input is one clear line on stderr and exit code 2."""
    args = parser().parse_args(argv)
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
