"""Bots that feel human: a strategy (which card) and a reaction model (how fast) per seat.

A bot takes any seat of any table and sees only what that seat may see. It is named by one
string, level and strategy: ``pro``, ``normal:random``, ``beginner``, ``machine``.

>>> import random
>>> from zackzack.engine.clock import VirtualClock
>>> from zackzack.games import unter_spannung as us
>>> from zackzack.engine.table import Table
>>> table = Table(us, us.Options(players=2), clock=VirtualClock(), seed=3)
>>> bots = [Bot(table, seat, name, random.Random(seat))
...         for seat, name in enumerate(["pro", "beginner"])]
>>> table.start()
>>> table.clock.run(stop=lambda: table.match.result is not None)
>>> sorted(placing.place for placing in table.match.result.placings)
[1, 2]
"""

from __future__ import annotations

from zackzack.bots.bot import Bot
from zackzack.bots.reaction import REACTIONS, Delay, Reaction
from zackzack.bots.spec import LEVELS, STRATEGIES, BotSpec, parse_bot

__all__ = ["LEVELS", "REACTIONS", "STRATEGIES", "Bot", "BotSpec", "Delay", "Reaction", "parse_bot"]
