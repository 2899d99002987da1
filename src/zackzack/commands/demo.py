"""``zackzack demo GAME``: simple players race through a short game on the virtual clock.

The players here are deliberately naive (first legal action after a random pause); the
real bots with reaction models and strategies live in ``zackzack.bots``.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from typing import Any, TextIO

from zackzack.engine.clock import VirtualClock, VirtualTimer
from zackzack.engine.table import Phase, Table
from zackzack.games import GAMES, game
from zackzack.games.base import Event, Rules
from zackzack.games.errors import IllegalAction
from zackzack.words.describe import LANGS, describe

NAMES = ("Anna", "Ben", "Carla", "Dieter", "Emil", "Frida")


class SimplePlayer:
    """Looks at the table after every change and, after a pause, takes the first legal action."""

    def __init__(self, table: Table, seat: int, rng: random.Random, clock: VirtualClock) -> None:
        self.table, self.seat, self.rng, self.clock = table, seat, rng, clock
        self.timer: VirtualTimer | None = None
        table.subscribe(seat, self.on_events)

    def on_events(self, events: list[Event]) -> None:
        """Something changed: think again."""
        if self.timer is not None:
            self.timer.cancel()
        self.timer = self.clock.call_later(self.rng.uniform(0.6, 1.6), self.act)

    def act(self) -> None:
        """Take the first legal action, if any."""
        self.timer = None
        if self.table.phase is not Phase.PLAYING:
            return
        actions = self.table.rules.legal_actions(self.table.state, self.seat)
        if actions:
            try:
                self.table.submit(self.seat, actions[0])
            except IllegalAction:
                self.on_events([])


def play(rules: Rules, options: Any, *, seed: int, rounds: int, lang: str, pace: float,
         out: TextIO) -> Table:
    """Play ``rounds`` rounds between simple players, printing each event as it happens."""
    clock = VirtualClock()
    table = Table(rules, options, clock=clock, seed=seed)
    names = NAMES[:table.players]
    rng = random.Random(seed)

    def show(events: list[Event]) -> None:
        for event in events:
            line = describe(event, names, lang, now=table.now, game=rules.INFO.name)
            if line:
                if pace:
                    time.sleep(max(0.0, table.now / 1000 / pace - (time.monotonic() - began)))
                out.write(f"{table.now / 1000:7.2f} s  {line}\n")
        out.flush()

    began = time.monotonic()
    table.subscribe(None, show)
    for seat in range(table.players):
        SimplePlayer(table, seat, rng, clock)
    out.write(f"{rules.INFO.title}: {', '.join(names)}\n")
    table.start()
    clock.run(stop=lambda: table.phase is Phase.OVER or len(table.match.results) >= rounds)
    return table


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The ``demo`` command's arguments."""
    parser.add_argument("game", choices=sorted(GAMES), help="which game to watch")
    parser.add_argument("--players", type=int, default=None, help="Unter Spannung: 2 to 6")
    parser.add_argument("--seed", type=int, default=None, help="the same seed, the same game")
    parser.add_argument("--rounds", type=int, default=1, help="rounds to watch (default 1)")
    parser.add_argument("--lang", choices=LANGS, default="en")
    parser.add_argument("--pace", type=float, default=0.0,
                        help="1 plays in real time, 4 four times as fast; 0 (default) at once")


def run(args: argparse.Namespace) -> int:
    """Run the demo; bad arguments get a message and exit code 2."""
    rules = game(args.game)
    data = {"players": args.players} if args.players is not None else {}
    options = rules.parse_options(data)
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(1 << 31)
    if args.rounds < 1:
        raise ValueError("--rounds must be at least 1")
    print(f"seed {seed}")
    play(rules, options, seed=seed, rounds=args.rounds, lang=args.lang, pace=args.pace,
         out=sys.stdout)
    return 0
