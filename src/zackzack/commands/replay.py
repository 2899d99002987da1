"""``zackzack replay FILE``: re-run a match log and print every action's outcome."""

from __future__ import annotations

import argparse
import json
import sys

from zackzack.engine.matchlog import load_log
from zackzack.engine.replay import outcome, replay
from zackzack.games.base import plain
from zackzack.words.describe import LANGS, describe


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The ``replay`` command's arguments."""
    parser.add_argument("file", help="a match log (JSON, see docs/formats.md)")
    parser.add_argument("--json", action="store_true", help="JSON lines instead of text")
    parser.add_argument("--lang", choices=LANGS, default="en")


def run(args: argparse.Namespace) -> int:
    """Replay the log; a malformed log is a ``LogError`` (exit 2) naming the problem."""
    log = load_log(args.file)
    result = replay(log)
    names = log.players
    out = sys.stdout
    for step in result.steps:
        if args.json:
            out.write(json.dumps(plain(step), ensure_ascii=False) + "\n")
            continue
        who = "table " if step.seat is None else f"seat {step.seat}"
        head = f"{step.t / 1000:8.3f} s  {who}"
        if step.action is not None:
            head += f"  {json.dumps(plain(step.action), ensure_ascii=False)}  {step.outcome}"
            if step.code is not None:
                head += f": {step.code} ({step.reason})"
        lines = [describe(e, names, args.lang, now=step.t, game=log.game) for e in step.events]
        out.write(head + "".join(f"\n{'':14}{line}" for line in lines if line) + "\n")
    final = outcome(result.table)
    if args.json:
        out.write(json.dumps({"outcome": final}, ensure_ascii=False) + "\n")
    else:
        out.write(f"outcome: {json.dumps(final, ensure_ascii=False)}\n")
    return 0
