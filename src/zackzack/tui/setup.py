"""What an offline match is made of (game, bots, options) and the session that plays it.

>>> options(Setup("schnelllauf", handicap=("2",))).pile_size
(3, 4)
>>> options(Setup("unter-spannung", bots=("pro",), options=("countdown_ms=0",))).players
2
>>> options(Setup("unter-spannung", options=("players=5",)))
Traceback (most recent call last):
...
zackzack.tui.setup.SetupError: --option players=5: the bots and the people here make 3 \
players; choose them with --bots
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from zackzack.bots import LEVELS, Bot, parse_bot
from zackzack.commands.demo import NAMES
from zackzack.engine.table import LIVE, Settings, Table
from zackzack.games import REGISTRY, entry
from zackzack.games.errors import OptionsError
from zackzack.games.registry import old_handicap
from zackzack.tui.offline import BotMaker, OfflineSession, Player
from zackzack.tui.session import Seat
from zackzack.tui.texts import level, tr

GAMES = REGISTRY
"""The games, by name (the registry's)."""


class SetupError(ValueError):
    """A setup that cannot be played: ``str()`` for the command line (naming its options),
    ``keys`` and ``fields`` the sentences for the start screen (:func:`SetupError.say`).

    >>> SetupError("…", "e_bots", game="Schnelllauf", low="2", high="2", bots="3").say("de")
    'Schnelllauf ist für 2 Spieler: 3 Bots passen nicht.'
    >>> SetupError("…", "e_bot", spec="x", levels="beginner, pro").say("de")
    'Unbekannter Bot „x“ – die Stufen sind Anfänger, Profi.'
    """

    def __init__(self, message: str, *keys: str, **fields: str) -> None:
        super().__init__(message)
        self.keys, self.fields = keys, fields

    def say(self, lang: str) -> str:
        """The complaint in ``lang``, in the catalogue's words (``e_bots`` for a game of
        exactly ``low`` players says ``e_bots_exactly``; ``levels`` are named in ``lang``)."""
        fields = dict(self.fields)
        if "levels" in fields:
            fields["levels"] = ", ".join(level(name, lang) for name in
                                         fields["levels"].split(", "))
        keys = [f"{key}_exactly" if key in ("e_bots", "e_seats") and self.fields.get("low")
                == self.fields.get("high") else key for key in self.keys]
        return " ".join(tr(key, lang, **fields) for key in keys)


@dataclass(frozen=True, slots=True)
class Setup:
    """An offline match: the game, the bots' specs, the options and the people here.

    ``handicap`` holds ``--handicap`` specs (``1:pile=4``: players numbered from 1, you are
    1, or with ``local_two`` the left player), ``options`` ``--option KEY=VALUE`` items,
    ``tournament`` the game's match of several rounds (``Front.tournament``).
    """

    game: str
    bots: tuple[str, ...] = ()
    tournament: bool = False
    handicap: tuple[str, ...] = ()
    local_two: bool = False
    name: str = ""
    seed: int | None = None
    options: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        found = entry(self.game)
        for spec in self.bots:
            try:
                parse_bot(spec)
            except ValueError as error:
                raise SetupError(str(error), "e_bot", spec=spec,
                                 levels=", ".join(LEVELS)) from None
        title = found.title
        for option, given, has in (
                ("--local-two", self.local_two, found.front.local_two),
                ("--tournament", self.tournament, found.front.tournament is not None),
                ("--handicap", bool(self.handicap), bool(found.front.handicaps))):
            if given and not has:
                raise SetupError(f"{title} has no option {option}", "e_option", game=title,
                                 option=option)
        low, high = found.info.min_players, found.info.max_players
        players = len(self.opponents) + (2 if self.local_two else 1)
        if not low <= players <= high:
            bots = f"{low - 1} to {high - 1}" if low < high else str(low - 1)
            two = " (or two people at one keyboard and no bot)" if found.front.local_two else ""
            keys = ("e_bots", "e_local_two") if found.front.local_two else ("e_bots",)
            players_text = f"{low} to {high}" if low < high else str(low)
            raise SetupError(f"{title} is for {players_text} players: {bots} bot(s){two}, "
                             f"not {len(self.opponents)}", *keys, game=title, low=str(low),
                             high=str(high), bots=str(len(self.opponents)))
        options(self)

    @property
    def opponents(self) -> tuple[str, ...]:
        """The bots' specs, or the default ones."""
        if self.bots or self.local_two:
            return self.bots
        return entry(self.game).front.opponents


def options(setup: Setup) -> Any:
    """The game's options for ``setup``; bad ones raise ``SetupError``."""
    found = entry(setup.game)
    for spec in setup.handicap:
        new = old_handicap(spec)
        if new is not None:
            raise SetupError(f"--handicap {spec}: a handicap now names the player by number "
                             f"(you are 1): write --handicap {new}", "e_handicap_old",
                             item=spec, new=new)
    try:
        data = found.options_from_args(setup.options)
        if "players" in found.fields():
            players = len(setup.opponents) + (2 if setup.local_two else 1)
            if data.get("players", players) != players:
                raise SetupError(
                    f"--option players={data['players']}: the bots and the people here make "
                    f"{players} players; choose them with --bots", "e_players",
                    game=found.title, given=str(data["players"]), players=str(players))
            data["players"] = players
        if setup.tournament and found.front.tournament is not None:
            data[found.front.tournament.option] = True
        if setup.handicap:
            data |= found.handicap(setup.handicap, data)
        return found.rules.parse_options(data)
    except SetupError:
        raise
    except ValueError as error:  # OptionsError too
        key = "e_handicap" if setup.handicap and not isinstance(error, OptionsError) else \
            "e_options"
        raise SetupError(str(error), key, game=found.title, item=", ".join(setup.handicap),
                         options=", ".join((*setup.options, *setup.handicap)) or "–") from None


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
    return OfflineSession(entry(setup.game).rules, options(setup), seats, mine, bots, seed=seed,
                          settings=settings)
