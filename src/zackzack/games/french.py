"""French cards: ranks A to K, four suits and the joker, their notation and the deck.

Shared by any game played with a French deck (today Schnelllauf, whose rules decide what
the ranks and suits mean). There is one object per card, so cards compare by identity:

>>> Card.parse("10s"), Card.parse("Qd").rank, str(JOKER), len(deck(0))
(Card.parse('10s'), 12, '*', 52)
>>> Card.parse(" qD ") is Card(12, Suit.DIAMONDS), Card.parse("*") is JOKER
(True, True)
>>> Card.parse("1h")
Traceback (most recent call last):
...
ValueError: a card is written like '7h', '10s', 'Qd' or '*', got '1h'
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from typing import final

from zackzack.games.base import Interned

RANK_NAMES = ("*", "A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
"""How each rank is written, by rank: the joker (0), A (1) … K (13)."""


class Suit(enum.StrEnum):
    """A French suit (in Schnelllauf it plays no part but tells equal ranks apart)."""

    CLUBS = "c"
    DIAMONDS = "d"
    HEARTS = "h"
    SPADES = "s"


@final
class Card(Interned):
    """A French card: rank 1 (A) … 11 (J), 12 (Q), 13 (K) and suit, or the joker (rank 0).

    Immutable and interned: ``Card(rank, suit)`` returns the one card of that rank and suit.
    ``key`` (rank × 4 + suit) is its hash and its order; ``joker`` says whether it is one.

    >>> Card(7, Suit.HEARTS), str(Card(10, Suit.SPADES)), str(Card(1, Suit.HEARTS)), str(JOKER)
    (Card.parse('7h'), '10s', 'Ah', '*')
    >>> sorted([Card.parse("Ks"), JOKER, Card.parse("Ac"), Card.parse("Ah")])
    [Card.parse('*'), Card.parse('Ac'), Card.parse('Ah'), Card.parse('Ks')]
    >>> Card(0, Suit.HEARTS)
    Traceback (most recent call last):
    ...
    ValueError: no French card has rank 0 and suit <Suit.HEARTS: 'h'> (the joker: Card(0, None))
    """

    __slots__ = ("joker", "rank", "suit")
    rank: int
    suit: Suit | None
    joker: bool

    def __new__(cls, rank: int, suit: Suit | None) -> Card:
        card = _INTERNED.get((rank, suit)) if type(rank) is int and (
            suit is None or type(suit) is Suit) else None
        if card is None:
            raise ValueError(f"no French card has rank {rank!r} and suit {suit!r} "
                             "(the joker: Card(0, None))")
        return card

    @classmethod
    def _make(cls, rank: int, suit: Suit | None) -> Card:
        card = cls._build(rank=rank, suit=suit, joker=rank == 0,
                          key=rank * 4 + (0 if suit is None else _SUIT_INDEX[suit]),
                          notation="*" if suit is None else RANK_NAMES[rank] + suit)
        _INTERNED[rank, suit] = _BY_NOTATION[card.notation] = card
        return card

    @classmethod
    def parse(cls, text: str) -> Card:
        """The card written ``7h``, ``10s``, ``Ah``, ``Jc``, ``Qd``, ``Ks`` or ``*`` (joker)."""
        card = _BY_NOTATION.get(text) if type(text) is str else None
        if card is None:
            if isinstance(text, str):
                text = text.strip()
                card = _BY_NOTATION.get(text[:-1].upper() + text[-1:].lower())
            if card is None:
                raise ValueError(f"a card is written like '7h', '10s', 'Qd' or '*', got {text!r}")
        return card

    def __repr__(self) -> str:
        return f"Card.parse('{self.notation}')"


_SUIT_INDEX = {suit: i for i, suit in enumerate(Suit)}
_INTERNED: dict[tuple[int, Suit | None], Card] = {}
_BY_NOTATION: dict[str, Card] = {}

JOKER = Card._make(0, None)
"""The joker; all jokers are alike."""
_FRENCH = tuple(Card._make(rank, suit) for suit in Suit for rank in range(1, 14))


def deck(jokers: int = 3) -> tuple[Card, ...]:
    """A French deck: 52 cards, then ``jokers`` jokers (one player's deck in Schnelllauf).

    >>> len(deck()), len(deck(0)), deck()[0], deck()[-1]
    (55, 52, Card.parse('Ac'), Card.parse('*'))
    """
    return _FRENCH + (JOKER,) * jokers


__all__: Sequence[str] = ("JOKER", "RANK_NAMES", "Card", "Suit", "deck")
