"""What a game declares for its front ends beyond its rules: ``Front`` (``front.py`` in its
folder: ``FRONT``) with its ``Flag``s and ``Tournament``, and the shapes its ``bot.py``
(``Brain``) and ``board.py`` (``BoardMaker``) must have."""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar, Protocol

from zackzack.games.base import Action, Event

if TYPE_CHECKING:
    from zackzack.tui.board import Board
    from zackzack.tui.session import Session


class Brain(Protocol):
    """A game's strategy for one seat (``bot.py``'s ``Brain``): what to do, seen through that
    seat's view only; ``CHANGES``/``OWN`` are the events that change its plans, ``HANDS``
    how many hands it plays with."""

    CHANGES: ClassVar[frozenset[type[Event]]]
    OWN: ClassVar[frozenset[type[Event]]]
    HANDS: ClassVar[int]

    def __init__(self, options: Any, seat: int, strategy: str, rng: random.Random) -> None: ...
    def work(self, view: Any) -> float: ...
    def choose(self, view: Any, busy: tuple[Action, ...] = ()) -> Action | None: ...
    def mistake(self, view: Any) -> Action | None: ...


class BoardMaker(Protocol):
    """``board.py``'s ``make``: the terminal board of a session, in ``lang``, for a keyboard
    ``layout`` (``None``: the usual one for ``lang``)."""

    def __call__(self, session: Session, lang: str, layout: str | None = None) -> Board: ...


def _one_round(options: Any) -> int:
    return 1


@dataclass(frozen=True, slots=True)
class Flag:
    """A command-line short form of one of a game's options (``zackzack play`` and
    ``simulate``): ``--jokers N`` sets ``jokers`` to the whole number N; with ``value``, the
    bare flag sets the option to it (``--no-wrap``: ``wrap`` false)."""

    flag: str
    option: str
    help: str
    value: Any = None

    @property
    def dest(self) -> str:
        """The flag's attribute on the parsed arguments (``--no-wrap`` → ``no_wrap``)."""
        return self.flag.removeprefix("--").replace("-", "_")


@dataclass(frozen=True, slots=True)
class Tournament:
    """A match of several rounds whose scores add up, turned on by a bool option: each player
    has ``rounds_per_player`` rounds."""

    option: str
    rounds_per_player: int



@dataclass(frozen=True, slots=True)
class Front:
    """What front ends need of a game beyond its rules (``front.py`` in its folder: ``FRONT``).

    ``handicaps`` maps a handicap's word to the per-seat option it sets and the value a bare
    word sets (``"pile": ("pile_size", 4)``); ``rounds_per_match`` guesses a match's rounds
    for the simulator's chunks; ``calibration`` is ``(matches, matches per chunk)`` for
    ``zackzack ratings calibrate``, ``ladder`` whether it also climbs the reaction ladder;
    ``score``/``score_key`` name a round's score (the simulator's column, the terminal's
    text), ``steps`` the automatic steps, ``preview`` a few cards for the lobby.
    """

    opponents: tuple[str, ...] = ("normal",)
    handicaps: Mapping[str, tuple[str, Any]] = field(default_factory=dict)
    local_two: bool = False
    score: str = "points"
    score_key: str = "points"
    steps: str = "automatic steps"
    preview: tuple[str, ...] = ()
    rounds_per_match: Callable[[Any], int] = _one_round
    calibration: tuple[int, int] = (1000, 100)
    ladder: bool = False
    rated_options: tuple[str, ...] = ("players",)
    """The options a rated table may choose; the others keep the game's standard values."""
    beta: float | None = None
    """The game's β in the ratings (``None``: openskill's default, σ₀/2)."""
    actions: tuple[str, ...] = ()
    """The actions a player sends, by ``type`` (the others are the table's own steps; empty:
    every action of the rules); a refusal of an unknown one names them."""
    flags: tuple[Flag, ...] = ()
    """The command-line short forms of some options (``--tournament``, ``--jokers``)."""
    tournament: Tournament | None = None
    """The match of several rounds with running totals, if the game has one."""
    low_wins: bool = True
    """Standings: the fewest points (totals, a round's scores) place first."""
    noisy: tuple[str, ...] = ()
    """The events (by ``type``) a bot makes so often that a feed hides them unless asked
    (Unter Spannung's bots draw all the time)."""
