"""Schnelllauf's data: options, actions, events, views and deals:
msgspec Structs, apart from the rules for the compiled build (docs/design.md, *A compiled
build*); the package exports every name here.
"""

from __future__ import annotations

import enum
from typing import Annotated

import msgspec

from zackzack.games.base import Action, Event, GameInfo, PileEvent, check_bounds
from zackzack.games.errors import OptionsError
from zackzack.games.french import Card

INFO = GameInfo("schnelllauf", "Schnelllauf", min_players=2, max_players=2)


PLACES = 5
"""Layout places per player."""


PileSize = Annotated[int, msgspec.Meta(ge=3, le=4)]
"""Cards per layout place for one seat: 3, or 4 as a handicap."""


Milliseconds = Annotated[int, msgspec.Meta(ge=0, le=10_000)]


class Options(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """The table options of Schnelllauf (RULES.md); wrong ones raise ``OptionsError``.

    ``pile_size`` and ``one_hand_seats`` are the handicaps, per seat.

    >>> Options(players=3)
    Traceback (most recent call last):
    ...
    zackzack.games.errors.OptionsError: Schnelllauf is for exactly 2 players, not 3
    >>> Options(pile_size=(3, 4)).pile_size
    (3, 4)
    """

    players: Annotated[int, msgspec.Meta(ge=0, le=99)] = 2
    jokers: Annotated[int, msgspec.Meta(ge=0, le=3)] = 3
    wrap: bool = True
    pile_size: tuple[PileSize, PileSize] = (3, 3)
    one_hand_seats: tuple[bool, bool] = (False, False)
    max_rounds: Annotated[int, msgspec.Meta(ge=1, le=1000)] = 200
    penalty_ms: Milliseconds = 1000
    countdown_ms: Milliseconds = 1500

    def __post_init__(self) -> None:
        check_bounds(self)
        if self.players != 2:
            raise OptionsError(f"Schnelllauf is for exactly 2 players, not {self.players}")

    def one_hand(self, seat: int) -> bool:
        """Whether ``seat`` plays with the "one hand only" handicap."""
        return self.one_hand_seats[seat]


class Play(Action, frozen=True, tag="play"):
    """Play face-up ``card`` from one's layout onto discard pile ``pile``, aimed at ``seen``.

    The card is named by value, not by place: with both hands two actions may be in flight,
    and the card the player saw is the one they mean.
    """

    card: Card
    pile: Annotated[int, msgspec.Meta(ge=0, le=1)]
    seen: Annotated[int, msgspec.Meta(ge=0, le=1 << 31)] | None = None


class Move(Action, frozen=True, tag="move"):
    """Move the top card of place ``source`` into the empty place ``target``, revealing one."""

    source: Annotated[int, msgspec.Meta(ge=0, le=PLACES - 1)]
    target: Annotated[int, msgspec.Meta(ge=0, le=PLACES - 1)]


class Flip(Action, frozen=True, tag="flip"):
    """Stalemate: each player turns the top of their reserve onto the pile they started."""


class Reshuffle(Action, frozen=True, tag="reshuffle"):
    """Both reserves empty: every discard pile but its top becomes its starter's reserve."""


class EndRound(Action, frozen=True, tag="end_round"):
    """A dead end: nobody can ever play again, so the round ends with no winner."""


AnyAction = Play | Move | Flip | Reshuffle | EndRound
"""Every action of Schnelllauf, told apart by ``"type"``."""


ACTIONS = (Play, Move, Flip, Reshuffle, EndRound)


class EndReason(enum.StrEnum):
    """Why a round ended."""

    PLAYED_OUT = "played_out"
    """A player played the last card of their layout."""
    DEAD_END = "dead_end"
    """Nobody could ever play again (``EndRound``)."""


class MatchEnd(enum.StrEnum):
    """Why a match ended."""

    NO_CARDS_LEFT = "no_cards_left"
    """A player had no cards left to deal."""
    ROUND_LIMIT = "round_limit"
    """``max_rounds`` were played; fewer cards placed higher."""


class Played(PileEvent, frozen=True, tag="played"):
    """``seat`` played ``card`` from ``place`` onto ``pile``, now at ``version``; ``revealed`` is
    the card turned face up under it (``None``: the place is empty)."""

    seat: int
    card: Card
    pile: int
    version: int
    place: int
    revealed: Card | None


class Moved(Event, frozen=True, tag="moved"):
    """``seat`` moved ``card`` from place ``source`` into the empty ``target``, revealing one."""

    seat: int
    source: int
    target: int
    card: Card
    revealed: Card


class Flipped(Event, frozen=True, tag="flipped"):
    """Stalemate: each seat's reserve card turned onto its pile (``None``: none), new versions."""

    cards: tuple[Card | None, Card | None]
    versions: tuple[int, int]


class Reshuffled(Event, frozen=True, tag="reshuffled"):
    """Both reserves were empty: the piles but their tops are the new reserves (counts only)."""

    reserve_counts: tuple[int, int]
    versions: tuple[int, int]


class RoundEnded(Event, frozen=True, tag="round_ended"):
    """The round is over: the winner (``None``: a dead end) and each layout's cards left."""

    winner: int | None
    reason: EndReason
    cards_left: tuple[int, int]


AnyEvent = Played | Moved | Flipped | Reshuffled | RoundEnded
"""Every event of Schnelllauf, told apart by ``"type"``."""


EVENTS = (Played, Moved, Flipped, Reshuffled, RoundEnded)


class View(msgspec.Struct, frozen=True, gc=False):
    """What a seat (``None``: a spectator) sees of a round; in Schnelllauf all of it is public.

    ``layouts[seat][place]`` is the face-up top card (``None``: empty place) and how many
    face-down cards lie under it; ``tops[i]`` is discard pile ``i``'s top (``None``: not
    started) and ``stands[i]`` what it stands for (``None``: free).
    """

    seat: int | None
    layouts: tuple[tuple[tuple[Card | None, int], ...], ...]
    reserve_counts: tuple[int, ...]
    tops: tuple[Card | None, ...]
    pile_counts: tuple[int, ...]
    versions: tuple[int, ...]
    stands: tuple[frozenset[int] | None, ...]
    winner: int | None
    over: bool


Layout = Annotated[list[list[Card]], msgspec.Meta(min_length=PLACES, max_length=PLACES)]


Stands = Annotated[frozenset[Annotated[int, msgspec.Meta(ge=1, le=13)]],
                   msgspec.Meta(min_length=1)] | None
"""What a pile's top stands for: ``None`` (free) or the ranks a joker stands for."""


_TWO = msgspec.Meta(min_length=2, max_length=2)


class Deal(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A round as it is written down, every list bottom to top, one entry per seat.

    ``layouts`` (5 places per seat), ``reserves`` and ``discard_piles`` (empty if not
    started); optionally ``stands`` (per pile: ``null`` = free or a list of ranks, for a
    joker on top), ``seed``, ``reshuffles`` and ``quiet``.
    """

    layouts: Annotated[list[Layout], _TWO]
    reserves: Annotated[list[list[Card]], _TWO]
    discard_piles: Annotated[list[list[Card]], _TWO]
    stands: Annotated[list[Stands], _TWO] | None = None
    seed: Annotated[int, msgspec.Meta(ge=0)] = 0
    reshuffles: Annotated[int, msgspec.Meta(ge=0, le=1 << 31)] = 0
    quiet: bool = False
