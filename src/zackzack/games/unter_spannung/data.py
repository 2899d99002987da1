"""Unter Spannung's data: cards, options, actions, events, views and deals:
msgspec Structs, apart from the rules for the compiled build (docs/design.md, *A compiled
build*); the package exports every name here.
"""

from __future__ import annotations

import enum
from typing import Annotated, ClassVar, final

import msgspec

from zackzack.games.base import Action, Event, GameInfo, Interned, check_bounds
from zackzack.games.errors import LogError, OptionsError

INFO = GameInfo("unter-spannung", "Unter Spannung", min_players=2, max_players=6)


HAND_SIZE = 4


def wrap(x: int) -> int:
    """``x`` wrapped into 1…10.

    >>> wrap(12), wrap(0), wrap(-1), wrap(10)
    (2, 10, 9, 10)
    """
    return (x - 1) % 10 + 1


@final
class Card(Interned):
    """A card: its value 1–10 and, in its middle, its spread ±1, ±2 or ±3; one object per card.

    >>> Card(7, 2)
    Card(value=7, spread=2)
    >>> str(Card(7, 2)), Card.parse("10/3"), Card(7, 2) is Card.parse("7±2")
    ('7±2', Card(value=10, spread=3), True)
    >>> sorted(Card(7, 2).allowed), Card(3, 1) < Card(3, 2)
    ([5, 9], True)
    """

    __slots__ = ("allowed", "spread", "value")
    value: int
    spread: int
    allowed: frozenset[int]
    """The values that may be played on this card."""
    _ALL: ClassVar[dict[tuple[int, int], Card]] = {}

    def __new__(cls, value: int, spread: int) -> Card:
        card = Card._ALL.get((value, spread))
        if card is not None:
            return card
        if isinstance(value, bool) or not (isinstance(value, int) and 1 <= value <= 10):
            raise ValueError(f"card value must be 1 to 10, got {value!r}")
        if isinstance(spread, bool) or not (isinstance(spread, int) and 1 <= spread <= 3):
            raise ValueError(f"card spread must be 1, 2 or 3, got {spread!r}")
        card = cls._build(value=value, spread=spread,
                          allowed=frozenset((wrap(value + spread), wrap(value - spread))),
                          notation=f"{value}±{spread}", key=value * 4 + spread)
        Card._ALL[value, spread] = card
        return card

    def __repr__(self) -> str:
        return f"Card(value={self.value}, spread={self.spread})"

    @classmethod
    def parse(cls, text: str) -> Card:
        """The card written ``7±2`` (or ``7/2``, ``7+-2``)."""
        if not isinstance(text, str):
            raise ValueError(f"a card is written like '7±2', got {text!r}")
        for sep in ("±", "+-", "/"):
            value, found, spread = text.strip().partition(sep)
            if found:
                break
        if not found or not value.isdigit() or not spread.isdigit():
            raise ValueError(f"a card is written like '7±2', got {text!r}")
        try:
            return cls(int(value), int(spread))
        except ValueError as error:
            raise ValueError(f"{text!r}: {error}") from None


STANDARD_DECK: tuple[Card, ...] = tuple(Card(i % 10 + 1, i % 3 + 1) for i in range(73))
"""Our standard 73-card deck: card *i* has value *i* mod 10 + 1 and spread *i* mod 3 + 1."""


Milliseconds = Annotated[int, msgspec.Meta(ge=0, le=10_000)]


class Options(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """The table options of Unter Spannung (RULES.md); wrong ones raise ``OptionsError``.

    >>> Options(players=7)
    Traceback (most recent call last):
    ...
    zackzack.games.errors.OptionsError: players must be between 2 and 6, got 7
    >>> Options(players=3, deck=STANDARD_DECK[:5])  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    zackzack.games.errors.OptionsError: a deck for 3 players needs at least 13 cards (...), not 5
    """

    players: Annotated[int, msgspec.Meta(ge=INFO.min_players, le=INFO.max_players)] = 4
    tournament: bool = False
    deck: tuple[Card, ...] = STANDARD_DECK
    penalty_ms: Milliseconds = 1000
    countdown_ms: Milliseconds = 1500

    def __post_init__(self) -> None:
        check_bounds(self)
        needed = self.players * HAND_SIZE + 1
        if len(self.deck) < needed:
            raise OptionsError(
                f"a deck for {self.players} players needs at least {needed} cards "
                f"({HAND_SIZE} for each hand and a start card), not {len(self.deck)}")

    def one_hand(self, seat: int) -> bool:
        """Unter Spannung has no one-hand handicap."""
        return False


class Play(Action, frozen=True, tag="play"):
    """Play ``card`` from the hand onto the discard pile, aimed at pile version ``seen``."""

    card: Card
    seen: Annotated[int, msgspec.Meta(ge=0, le=1 << 31)] | None = None


class Draw(Action, frozen=True, tag="draw"):
    """Draw the top card of one's own draw pile into the hand."""


class Rotate(Action, frozen=True, tag="rotate"):
    """Nichts geht mehr: the table moves the bottom card of the discard pile to the top."""


class EndRound(Action, frozen=True, tag="end_round"):
    """Nichts geht mehr after every card has been on top: the round ends with no winner."""


AnyAction = Play | Draw | Rotate | EndRound
"""Every action of Unter Spannung, told apart by ``"type"``."""


ACTIONS = (Play, Draw, Rotate, EndRound)


class EndReason(enum.StrEnum):
    """Why a round ended."""

    WENT_OUT = "went_out"
    """A player laid their last card."""
    NICHTS_GEHT_MEHR = "nichts_geht_mehr"
    """Nobody could play, and every card of the discard pile had been on top."""


class Played(Event, frozen=True, tag="played"):
    """``seat`` played ``card``; the discard pile is now at ``version``."""

    seat: int
    card: Card
    version: int


class Drew(Event, frozen=True, tag="drew"):
    """``seat`` drew a card (its value only for that seat); ``left`` remain in their pile."""

    seat: int
    card: Card | None
    left: int

    def seen_by(self, seat: int | None) -> Event | None:
        return self if seat == self.seat else Drew(self.seat, None, self.left)


class WentOut(Event, frozen=True, tag="went_out"):
    """``seat`` laid their last card face down on the pile and won the round."""

    seat: int


class Rotated(Event, frozen=True, tag="rotated"):
    """Nichts geht mehr: the bottom card of the discard pile, ``card``, is now on top."""

    card: Card
    version: int
    rotations: int


class RoundEnded(Event, frozen=True, tag="round_ended"):
    """The round is over: the winner (``None``: nobody could play) and each hand's minus points."""

    winner: int | None
    reason: EndReason
    minus_points: tuple[int, ...]


AnyEvent = Played | Drew | WentOut | Rotated | RoundEnded
"""Every event of Unter Spannung, told apart by ``"type"``."""


EVENTS = (Played, Drew, WentOut, Rotated, RoundEnded)


class View(msgspec.Struct, frozen=True, gc=False):
    """What one seat (``None``: a spectator) may see of a round: own hand, others as counts."""

    seat: int | None
    top: Card
    version: int
    discard_count: int
    hand: tuple[Card, ...]
    hand_counts: tuple[int, ...]
    draw_counts: tuple[int, ...]
    rotations: int
    winner: int | None
    over: bool


Hand = Annotated[list[Card], msgspec.Meta(min_length=2)]


class Deal(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A round's layout as it is written down: piles from bottom to top, one per seat."""

    hands: list[Hand]
    draw_piles: list[list[Card]]
    discard_pile: Annotated[list[Card], msgspec.Meta(min_length=1)]
    face_down: Annotated[int, msgspec.Meta(ge=0)] = 0

    def __post_init__(self) -> None:
        if self.face_down >= len(self.discard_pile):
            raise LogError(f"face_down must be 0 to {len(self.discard_pile) - 1}")
