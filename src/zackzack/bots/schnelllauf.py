"""What a bot plays at Schnelllauf: which face-up card onto which pile, or which move.

The ``smart`` strategy prefers a play that reveals a face-down card, then one that chains
(after it another of its own face-up cards fits), one that covers a pile the opponent could
use, and one that empties a place it can refill; when no card fits it moves a card into an
empty place to reveal the one under it, and a joker is its last resort. ``random`` takes
any play or revealing move. When there is nothing to do, both wait for the stalemate flip.

>>> from zackzack.games.schnelllauf import Card, Options, View
>>> c = Card.parse
>>> brain = Brain(Options(), 0, "smart", random.Random(1))
>>> view = View(0, (((c("5h"), 0), (c("7c"), 2), (c("8d"), 1), (None, 0), (None, 0)),
...                 ((c("Kh"), 2),) * 5), (30, 30), (c("6s"), c("2d")), (3, 1), (4, 0),
...             (frozenset({6}), frozenset({2})), None, False)
>>> brain.choose(view)  # 7c reveals a card and the 8d fits on it
Play(card=Card.parse('7c'), pile=0, seen=4)
"""

from __future__ import annotations

import random
from typing import ClassVar

from zackzack.games import schnelllauf as sl
from zackzack.games.base import Action, Event

EFFORT = 0.4
"""Comparing a rank with a pile (one up or down) counts as this much of an Unter Spannung
card (value ± spread): the bot's think time grows with face-up cards × started piles × this."""

_PLAY, _REVEAL, _CHAIN, _COVER, _REFILL, _HELP = 10.0, 3.0, 2.0, 1.0, 1.0, 1.0
_MOVE, _JOKER = 5.0, -100.0
_Reach = frozenset[int]
_reach_cache: dict[tuple[frozenset[int] | None, bool], _Reach] = {}


def reach(stands: frozenset[int] | None, wrap: bool) -> _Reach:
    """The ranks of normal cards that fit a top standing for ``stands`` (``None``: free).

    >>> sorted(reach(frozenset({13}), True)), sorted(reach(frozenset({13}), False))
    ([1, 12], [12])
    """
    key = (stands, wrap)
    found = _reach_cache.get(key)
    if found is None:
        found = sl.ALL_RANKS if stands is None else frozenset().union(
            *(sl.neighbours(rank, wrap) for rank in stands))
        _reach_cache[key] = found
    return found


class Brain:
    """The strategy of one seat at Schnelllauf; it sees only the (public) view."""

    __slots__ = ("rng", "seat", "smart", "wrap")

    CHANGES: ClassVar[frozenset[type[Event]]] = frozenset({sl.Played, sl.Flipped, sl.Reshuffled})
    """Events that change what every seat can do: a new top on a discard pile."""
    OWN: ClassVar[frozenset[type[Event]]] = frozenset({sl.Moved})
    """Events that change what a seat can do only when they are its own."""

    def __init__(self, options: sl.Options, seat: int, strategy: str,
                 rng: random.Random) -> None:
        self.seat = seat
        self.smart = strategy == "smart"
        self.rng = rng
        self.wrap = options.wrap

    def work(self, view: sl.View) -> float:
        """Face-up cards to compare with each started pile, scaled by :data:`EFFORT`."""
        cards = sum(1 for card, _ in view.layouts[self.seat] if card is not None)
        piles = (view.tops[0] is not None) + (view.tops[1] is not None)
        return cards * piles * EFFORT

    def choose(self, view: sl.View) -> Action | None:
        """The action to take now, or ``None`` to wait for a change."""
        places = view.layouts[self.seat]
        wrap = self.wrap
        reaches = [None if top is None else reach(stands, wrap)
                   for top, stands in zip(view.tops, view.stands, strict=True)]
        plays: list[tuple[int, sl.Card, int]] = []
        for place, (card, _) in enumerate(places):
            if card is not None:
                for pile, fitting in enumerate(reaches):
                    if fitting is not None and (card.rank == 0 or card.rank in fitting):
                        plays.append((place, card, pile))
        move = self._move(places)
        if not self.smart:
            count = len(plays) + (move is not None)
            if not count:
                return None
            pick = self.rng.randrange(count)
            if pick == len(plays):
                return move
            _, card, pile = plays[pick]
            return sl.Play(card, pile, view.versions[pile])
        best: Action | None = move
        best_score = _MOVE if move is not None else -1e9
        for place, card, pile in plays:
            score = self._score(view, place, card, pile, reaches)
            if score > best_score:
                best, best_score = sl.Play(card, pile, view.versions[pile]), score
        return best

    def mistake(self, view: sl.View) -> Action | None:
        """A face-up card onto a started pile it does not fit, if there is one."""
        wrong = []
        for card, _ in view.layouts[self.seat]:
            if card is not None and card.rank:
                for pile, (top, stands) in enumerate(zip(view.tops, view.stands, strict=True)):
                    if top is not None and card.rank not in reach(stands, self.wrap):
                        wrong.append(sl.Play(card, pile, view.versions[pile]))
        return wrong[self.rng.randrange(len(wrong))] if wrong else None

    def _move(self, places: tuple[tuple[sl.Card | None, int], ...]) -> sl.Move | None:
        """Into the first empty place, from the place with most cards to reveal."""
        target = next((i for i, (card, _) in enumerate(places) if card is None), None)
        if target is None:
            return None
        under, source = max((under, i) for i, (_, under) in enumerate(places))
        return sl.Move(source, target) if under else None

    def _score(self, view: sl.View, place: int, card: sl.Card, pile: int,
               reaches: list[_Reach | None]) -> float:
        if card.rank == 0:
            return _JOKER
        wrap = self.wrap
        places = view.layouts[self.seat]
        score = _PLAY
        if places[place][1]:
            score += _REVEAL
        elif any(under for _, under in places):
            score += _REFILL
        after = reach(sl.stands_after(card, view.stands[pile], wrap), wrap)
        before = reaches[pile]
        for i, (other, _) in enumerate(places):
            if other is not None and i != place and (other.rank == 0 or other.rank in after):
                score += _CHAIN
        for other, _ in view.layouts[1 - self.seat]:
            if other is not None and other.rank:
                if before is not None and other.rank in before:
                    score += _COVER
                if other.rank in after:
                    score -= _HELP
        return score
