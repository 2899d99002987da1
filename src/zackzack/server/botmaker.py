"""The server's door to ``zackzack.bots``: check a bot's name for a game, seat it at a table."""

from __future__ import annotations

import random

from zackzack.bots import Bot, parse_bot
from zackzack.bots.bot import brain_class
from zackzack.engine.race import Link
from zackzack.engine.table import Table


class Bots:
    """Real bots, as ``zackzack.bots`` makes them."""

    def check(self, spec: str, game: str) -> str:
        """The canonical name of the bot ``spec`` for ``game``; ``ValueError`` if there is none."""
        brain_class(game)
        return str(parse_bot(spec))

    def make(self, table: Table, seat: int, spec: str, rng: random.Random,
             link: Link | None = None) -> Bot:
        """A bot playing ``seat`` of ``table`` from now on (through ``link``, if given)."""
        return Bot(table, seat, spec, rng, link)
