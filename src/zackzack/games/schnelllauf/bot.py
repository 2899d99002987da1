"""What a bot plays at Schnelllauf: which face-up card onto which pile, or which move.

The ``smart`` strategy prefers a play that reveals a face-down card, then one that chains
(after it another of its own face-up cards fits), one that covers a pile the opponent could
use, and one that empties a place it can refill; when no card fits it moves a card into an
empty place to reveal the one under it, and a joker is its last resort. ``random`` takes
any play or revealing move. ``learned`` scores every play and the move by their features
(``features.py``) under the trained weights (``policy.json``) and takes the best. When there
is nothing to do, all wait for the stalemate flip; when there is, none waits (a race).

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
from operator import mul
from typing import ClassVar

from zackzack.games import schnelllauf as sl
from zackzack.games.base import Action, Event
from zackzack.games.schnelllauf import features
from zackzack.learn import policy

EFFORT = 0.4
"""Comparing a rank with a pile (one up or down) counts as this much of an Unter Spannung
card (value ± spread): the bot's think time grows with face-up cards × started piles × this."""

_PLAY, _REVEAL, _CHAIN, _COVER, _REFILL, _HELP = 10.0, 3.0, 2.0, 1.0, 1.0, 1.0
_MOVE, _JOKER = 5.0, -100.0
_Reach = frozenset[int]
_reach_cache: dict[tuple[frozenset[int] | None, bool], _Reach] = {}
_SINGLE = tuple(frozenset({rank}) for rank in range(14))
_NONE: frozenset[int] = frozenset()


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

    __slots__ = ("reaches", "rng", "seat", "smart", "weights", "wrap")

    CHANGES: ClassVar[frozenset[type[Event]]] = frozenset({sl.Played, sl.Flipped, sl.Reshuffled})
    """Events that change what every seat can do: a new top on a discard pile."""
    OWN: ClassVar[frozenset[type[Event]]] = frozenset({sl.Moved})
    """Events that change what a seat can do only when they are its own."""
    HANDS: ClassVar[int] = 2
    """Both hands: the next card is chosen while the first is on its way."""

    def __init__(self, options: sl.Options, seat: int, strategy: str,
                 rng: random.Random) -> None:
        self.seat = seat
        self.smart = strategy != "random"
        self.weights = policy.weights(sl.INFO.name) if strategy == "learned" else None
        self.rng = rng
        self.wrap = options.wrap
        self.reaches: dict[frozenset[int] | None, _Reach] = {}

    def work(self, view: sl.View) -> float:
        """Face-up cards to compare with each started pile, scaled by :data:`EFFORT`."""
        cards = 0
        for card, _ in view.layouts[self.seat]:
            if card is not None:
                cards += 1
        top0, top1 = view.tops
        return cards * ((top0 is not None) + (top1 is not None)) * EFFORT

    def choose(self, view: sl.View, busy: tuple[Action, ...] = ()) -> Action | None:
        """The action to take now, or ``None`` to wait for a change.

        ``busy`` are the actions the other hand is carrying: their places, their piles and
        a second move are left alone.
        """
        reaches = self.reaches
        top0, top1 = view.tops
        stands0, stands1 = view.stands
        fit0 = None if top0 is None else reaches.get(stands0) or self._reach(stands0)
        fit1 = None if top1 is None else reaches.get(stands1) or self._reach(stands1)
        blocked: set[int] | frozenset[int] = _NONE
        if busy:
            fit0, fit1, blocked = self._avoid(view, busy, fit0, fit1)
        plays: list[tuple[int, sl.Card, int]] = []
        empty = source = -1
        deepest = 0
        for place, (card, under) in enumerate(view.layouts[self.seat]):
            if blocked and place in blocked:
                continue
            if card is None:
                if empty < 0:
                    empty = place
                continue
            if under > deepest:
                deepest, source = under, place
            rank = card.rank
            if fit0 is not None and (rank == 0 or rank in fit0):
                plays.append((place, card, 0))
            if fit1 is not None and (rank == 0 or rank in fit1):
                plays.append((place, card, 1))
        can_move = empty >= 0 and deepest > 0
        if not self.smart:
            count = len(plays) + can_move
            pick = self.rng.randrange(count) if count else -1
            if pick < 0 or pick == len(plays):
                return sl.Move(source, empty) if can_move else None
        elif len(plays) == 1 and (not can_move or (self.weights is None and plays[0][1].rank)):
            pick = 0
        elif plays:
            if self.weights is None:
                pick = self._best(view, plays, (fit0, fit1), can_move)
            else:
                pick = self._learned(view, plays, (fit0, fit1), source if can_move else None,
                                     self.weights)
            if pick < 0:
                return sl.Move(source, empty)
        else:
            return sl.Move(source, empty) if can_move else None
        _, card, pile = plays[pick]
        return sl.Play(card, pile, view.versions[pile])

    def mistake(self, view: sl.View) -> Action | None:
        """A face-up card onto a started pile it does not fit, if there is one."""
        started = [(pile, reach(stands, self.wrap)) for pile, (top, stands)
                   in enumerate(zip(view.tops, view.stands, strict=True)) if top is not None]
        wrong = []
        for card, _ in view.layouts[self.seat]:
            if card is not None and card.rank:
                for pile, fitting in started:
                    if card.rank not in fitting:
                        wrong.append(sl.Play(card, pile, view.versions[pile]))
        return wrong[self.rng.randrange(len(wrong))] if wrong else None

    def _avoid(self, view: sl.View, busy: tuple[Action, ...], fit0: _Reach | None,
               fit1: _Reach | None) -> tuple[_Reach | None, _Reach | None, set[int]]:
        """The piles still free and the places the busy hand is using (every place after a
        move is on its way, so that no second move goes to the same empty place)."""
        blocked: set[int] = set()
        places = view.layouts[self.seat]
        for action in busy:
            if isinstance(action, sl.Play):
                if action.pile:
                    fit1 = None
                else:
                    fit0 = None
                blocked.update(i for i, (card, _) in enumerate(places) if card == action.card)
            elif isinstance(action, sl.Move):
                blocked.update(range(len(places)))
        return fit0, fit1, blocked

    def _reach(self, stands: frozenset[int] | None) -> _Reach:
        found = self.reaches[stands] = reach(stands, self.wrap)
        return found

    def _learned(self, view: sl.View, plays: list[tuple[int, sl.Card, int]],
                 fits: tuple[_Reach | None, _Reach | None], move: int | None,
                 weights: tuple[float, ...]) -> int:
        """The index of the play that scores best, or -1 if the move scores better."""
        rows = features.rows(view, self.seat, plays, fits, self.wrap, move)
        best, best_score = -1, -1e18
        if move is not None:  # first: a play must beat the move, as in ``_best``
            best_score = sum(map(mul, weights, rows.pop()))
        for i, row in enumerate(rows):
            score = sum(map(mul, weights, row))
            if score > best_score:
                best, best_score = i, score
        return best

    def _best(self, view: sl.View, plays: list[tuple[int, sl.Card, int]],
              fits: tuple[_Reach | None, _Reach | None], move: bool) -> int:
        """The index of the best play, or -1 if the move is better than all of them."""
        places = view.layouts[self.seat]
        mine, jokers, deep = features.holdings(places)
        theirs: list[int] = []
        for card, _ in view.layouts[1 - self.seat]:
            if card is not None and card.rank:
                theirs.append(card.rank)
        reaches = self.reaches
        best, best_score = -1, _MOVE if move else -1e9
        for i, (place, card, pile) in enumerate(plays):
            rank = card.rank
            if not rank:
                score = _JOKER
            else:
                score = _PLAY + (_REVEAL if places[place][1] else _REFILL if deep else 0.0)
                after = reaches.get(_SINGLE[rank]) or self._reach(_SINGLE[rank])
                before = fits[pile]
                # Every other face-up card of its own that fits after this one (the card
                # itself never does: no rank is its own neighbour); all scores are whole.
                score += _CHAIN * jokers
                for mine_rank in mine:
                    if mine_rank in after:
                        score += _CHAIN
                for theirs_rank in theirs:
                    if before is not None and theirs_rank in before:
                        score += _COVER
                    if theirs_rank in after:
                        score -= _HELP
            if score > best_score:
                best, best_score = i, score
        return best
