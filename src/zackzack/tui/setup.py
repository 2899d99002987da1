"""What an offline match is made of (game, bots, options) and the session that plays it.

>>> handicap(("bot",)), handicap(("me:piles", "right:one-hand"))
(((3, 4), (False, True)), ((4, 3), (False, True)))
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from zackzack.bots import LEVELS, Bot, parse_bot
from zackzack.demo import NAMES
from zackzack.games import game
from zackzack.table import LIVE, Settings, Table
from zackzack.tui.offline import BotMaker, OfflineSession, Player
from zackzack.tui.session import Seat
from zackzack.tui.texts import level, tr

GAMES = ("unter-spannung", "schnelllauf")
DEFAULT_BOTS = {"unter-spannung": ("normal", "normal"), "schnelllauf": ("normal",)}
"""The opponents when none are named."""

WHO = {"me": 0, "left": 0, "bot": 1, "right": 1}
"""Who a handicap is for: the seat (alone you sit at seat 0, with two the left player)."""


class SetupError(ValueError):
    """A setup that cannot be played: ``str()`` for the command line (naming its options),
    ``key`` and ``fields`` the text for the start screen (:func:`SetupError.say`)."""

    def __init__(self, message: str, key: str, **fields: str) -> None:
        super().__init__(message)
        self.key, self.fields = key, fields

    def say(self, lang: str) -> str:
        """The complaint in ``lang``, in the start screen's words."""
        return tr(self.key, lang, **self.fields)


@dataclass(frozen=True, slots=True)
class Setup:
    """An offline match: the game, the bots' specs, the options and the people here."""

    game: str
    bots: tuple[str, ...] = ()
    tournament: bool = False
    handicap: tuple[str, ...] = ()
    local_two: bool = False
    name: str = ""
    seed: int | None = None

    def __post_init__(self) -> None:
        if self.game not in GAMES:
            raise ValueError(f"unknown game {self.game!r}; choose one of {', '.join(GAMES)}")
        for spec in self.bots:
            try:
                parse_bot(spec)
            except ValueError as error:
                raise SetupError(str(error), "e_bot", spec=spec,
                                 levels=", ".join(LEVELS)) from None
        if self.game == "schnelllauf":
            if self.tournament:
                raise SetupError("--tournament is for Unter Spannung", "e_sl_only")
            wanted = 0 if self.local_two else 1
            if len(self.opponents) != wanted:
                raise SetupError("Schnelllauf is for two: one bot, or --local-two and no bot",
                                 "e_sl_bots")
            handicap(self.handicap)
        else:
            if self.local_two or self.handicap:
                raise SetupError("--local-two and --handicap are for Schnelllauf", "e_us_only")
            if not 1 <= len(self.opponents) <= 5:
                raise SetupError("Unter Spannung needs 1 to 5 bots (2 to 6 players)", "e_us_bots")

    @property
    def opponents(self) -> tuple[str, ...]:
        """The bots' specs, or the default ones."""
        if self.bots or self.local_two:
            return self.bots
        return DEFAULT_BOTS[self.game]


def handicap(items: Sequence[str]) -> tuple[tuple[int, int], tuple[bool, bool]]:
    """Schnelllauf's ``pile_size`` and ``one_hand_seats`` from items like ``bot`` (both
    handicaps), ``me:piles`` (4-card piles) or ``right:one-hand``."""
    piles, hands = [3, 3], [False, False]
    for item in items:
        who, _, kind = item.strip().lower().partition(":")
        if who not in WHO or kind not in ("", "piles", "one-hand"):
            raise SetupError(f"a handicap is WHO or WHO:piles or WHO:one-hand with WHO one of "
                             f"{', '.join(WHO)}; got {item!r}", "e_handicap", item=item)
        if kind in ("", "piles"):
            piles[WHO[who]] = 4
        if kind in ("", "one-hand"):
            hands[WHO[who]] = True
    return (piles[0], piles[1]), (hands[0], hands[1])


def options(setup: Setup) -> Any:
    """The game's options for ``setup``."""
    rules = game(setup.game)
    if setup.game == "schnelllauf":
        piles, hands = handicap(setup.handicap)
        return rules.parse_options({"pile_size": list(piles), "one_hand_seats": list(hands)})
    return rules.parse_options({"players": 1 + len(setup.opponents),
                                "tournament": setup.tournament})


def _bot(spec: str) -> BotMaker:
    parsed = parse_bot(spec)

    def seat(table: Table, seat: int, rng: random.Random) -> Player:
        return Bot(table, seat, parsed, rng)

    return seat


def session(setup: Setup, lang: str, settings: Settings = LIVE) -> OfflineSession:
    """A fresh offline session for ``setup`` (a new seed unless the setup names one)."""
    seed = setup.seed if setup.seed is not None else random.SystemRandom().randrange(1 << 31)
    if setup.local_two:
        seats = [Seat(tr("left_name", lang)), Seat(tr("right_name", lang))]
        mine: tuple[int, ...] = (0, 1)
    else:
        seats = [Seat(setup.name or tr("you", lang))]
        seats += [Seat(f"{NAMES[seat % len(NAMES)]} ({level(str(parse_bot(spec)), lang)})", "bot")
                  for seat, spec in enumerate(setup.opponents, 1)]
        mine = (0,)
    bots = {seat: _bot(spec) for seat, spec in enumerate(setup.opponents, len(mine))}
    return OfflineSession(game(setup.game), options(setup), seats, mine, bots, seed=seed,
                          settings=settings)
