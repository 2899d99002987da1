"""French cards: ranks A to K, four suits and the joker, their notation and the deck.

Shared by any game played with a French deck (today Schnelllauf, whose rules decide what
the ranks and suits mean):

>>> Card.parse("10s"), Card.parse("Qd").rank, str(JOKER), len(deck(0))
(Card.parse('10s'), 12, '*', 52)
>>> card_list(["7h", "*"], "deal.reserve")
[Card.parse('7h'), Card.parse('*')]
>>> card_list(["7h", "1h"], "deal.reserve")
Traceback (most recent call last):
...
ValueError: deal.reserve[1]: a card is written like '7h', '10s', 'Qd' or '*', got '1h'
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

from zackzack.games.base import parse_cards

RANK_NAMES = ("*", "A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
"""How each rank is written, by rank: the joker (0), A (1) … K (13)."""
_RANKS = {name: rank for rank, name in enumerate(RANK_NAMES) if rank}


class Suit(enum.StrEnum):
    """A French suit (in Schnelllauf it plays no part but tells equal ranks apart)."""

    CLUBS = "c"
    DIAMONDS = "d"
    HEARTS = "h"
    SPADES = "s"


_SUIT_INDEX: dict[Suit | None, int] = {suit: i for i, suit in enumerate(Suit)}


@dataclass(frozen=True, slots=True, order=True)
class Card:
    """A French card: rank 1 (A) … 11 (J), 12 (Q), 13 (K) and suit, or the joker (rank 0).

    ``key`` (rank × 4 + suit) is its hash, precomputed: cards are hashed in the hot path.

    >>> Card(7, Suit.HEARTS), str(Card(10, Suit.SPADES)), str(Card(1, Suit.HEARTS)), str(JOKER)
    (Card.parse('7h'), '10s', 'Ah', '*')
    >>> Card.parse("Qd") == Card(12, Suit.DIAMONDS), Card.parse("*") == JOKER
    (True, True)
    """

    rank: int
    suit: Suit | None
    key: int = field(init=False, repr=False, compare=False)
    NOTATION: ClassVar[bool] = True

    def __post_init__(self) -> None:
        if isinstance(self.rank, bool) or not isinstance(self.rank, int) \
                or not 0 <= self.rank <= 13:
            raise ValueError(f"card rank must be 0 (joker) to 13 (K), got {self.rank!r}")
        if self.rank == 0:
            if self.suit is not None:
                raise ValueError(f"a joker has no suit, got {self.suit!r}")
        elif not isinstance(self.suit, Suit):
            raise ValueError(f"card suit must be a Suit, got {self.suit!r}")
        object.__setattr__(self, "key", self.rank * 4 + _SUIT_INDEX.get(self.suit, 0))

    def __hash__(self) -> int:
        return self.key

    def __str__(self) -> str:
        return "*" if self.suit is None else RANK_NAMES[self.rank] + self.suit.value

    def __repr__(self) -> str:
        return f"Card.parse('{self}')"

    @property
    def joker(self) -> bool:
        """Whether this is a joker."""
        return self.rank == 0

    @classmethod
    def parse(cls, text: str) -> Card:
        """The card written ``7h``, ``10s``, ``Ah``, ``Jc``, ``Qd``, ``Ks`` or ``*`` (joker)."""
        if isinstance(text, str):
            text = text.strip()
            if text == "*":
                return JOKER
            rank = _RANKS.get(text[:-1].upper())
            suit = text[-1:].lower()
            if rank is not None and suit in ("c", "d", "h", "s"):
                return cls(rank, Suit(suit))
        raise ValueError(f"a card is written like '7h', '10s', 'Qd' or '*', got {text!r}")


JOKER = Card(0, None)
"""The joker; all jokers are alike."""


def deck(jokers: int = 3) -> tuple[Card, ...]:
    """A French deck: 52 cards, then ``jokers`` jokers (one player's deck in Schnelllauf).

    >>> len(deck()), len(deck(0)), deck()[0], deck()[-1]
    (55, 52, Card.parse('Ac'), Card.parse('*'))
    """
    return _FRENCH + (JOKER,) * jokers


_FRENCH = tuple(Card(rank, suit) for suit in Suit for rank in range(1, 14))


def card_list(data: Any, where: str) -> list[Card]:
    """``data`` as a list of cards in their notation; an error names the card's place."""
    return parse_cards(data, where, Card.parse, "7h")


__all__: Sequence[str] = ("JOKER", "RANK_NAMES", "Card", "Suit", "card_list", "deck")
