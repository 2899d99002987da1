"""What a bot plays at Unter Spannung: which fitting card, or a draw when nothing fits.

The ``smart`` strategy plays, among the fitting cards, the one that keeps the most of its
own cards fitting after it (a follow-up it can play at once, and a card no opponent holds)
and leaves the opponents the fewest expected answers; in the tournament it sheds high
values first. ``random`` plays any fitting card. ``learned`` plays the fitting card whose
features (``features.py``) score best under the trained weights (``policy.json``). All
draw only when nothing fits and never wait when they can act: the game is a race, and a
card held back is a top an opponent may cover first.

>>> from zackzack.games.unter_spannung import Card, Options, View
>>> brain = Brain(Options(players=2), 0, "smart", random.Random(1))
>>> view = View(0, Card(5, 2), 3, 4, (Card(3, 1), Card(7, 1), Card(4, 2)), (3, 5), (9, 9),
...             0, None, False)
>>> brain.choose(view)  # after 3±1 its own 4±2 fits; after 7±1 nothing
Play(card=Card(value=3, spread=1), seen=3)
"""

from __future__ import annotations

import random
from operator import mul
from typing import ClassVar, Final

from zackzack.games import unter_spannung as us
from zackzack.games.base import Action, Event
from zackzack.games.unter_spannung import features
from zackzack.learn import policy

SHED: Final = 0.3
"""In the tournament, how much one point of card value weighs against one follow-up."""


class Brain:
    """The strategy of one seat at Unter Spannung; it sees only that seat's view."""

    __slots__ = ("deck_counts", "deck_size", "rng", "seat", "smart", "tournament", "weights")

    CHANGES: ClassVar[frozenset[type[Event]]] = frozenset({us.Played, us.Rotated})
    """Events that change what every seat can do: a new top card."""
    OWN: ClassVar[frozenset[type[Event]]] = frozenset({us.Drew})
    """Events that change what a seat can do only when they are its own."""
    HANDS: ClassVar[int] = 1
    """One card at a time: every card is a sum to check against the new top."""

    def __init__(self, options: us.Options, seat: int, strategy: str,
                 rng: random.Random) -> None:
        self.seat = seat
        self.smart = strategy == "smart"
        self.rng = rng
        self.tournament = options.tournament
        self.deck_counts = _STANDARD_COUNTS if options.deck is _STANDARD_DECK \
            else features.counts(options.deck)
        self.deck_size = len(options.deck)
        self.weights = policy.weights(us.INFO.name) if strategy == "learned" else None

    def work(self, view: us.View) -> float:
        """How many cards there are to compare with the top: the hand."""
        return len(view.hand)

    def choose(self, view: us.View, busy: tuple[Action, ...] = ()) -> Action | None:
        """The action to take now, or ``None`` to wait for a change (one hand: never busy)."""
        allowed = view.top.allowed
        fitting: list[us.Card] = []
        for card in view.hand:  # a loop, not a comprehension: one call less per decision
            if card.value in allowed:
                fitting.append(card)
        if not fitting:
            return _DRAW if view.draw_counts[self.seat] else None
        if len(fitting) == 1:
            card = fitting[0]
        elif self.smart:
            card = self._best(view, fitting)
        elif self.weights is not None:
            card = self._learned(view, fitting, self.weights)
        else:
            card = fitting[self.rng.randrange(len(fitting))]
        return _PLAY(card, view.version)

    def mistake(self, view: us.View) -> Action | None:
        """A card that does not fit, as a hurried player might slap down, if there is one."""
        allowed = view.top.allowed
        wrong = [card for card in view.hand if card.value not in allowed]
        return _PLAY(wrong[self.rng.randrange(len(wrong))], view.version) if wrong else None

    def _best(self, view: us.View, fitting: list[us.Card]) -> us.Card:
        hand = view.hand
        held = [0] * 11
        for card in hand:
            held[card.value] += 1
        unseen = self.deck_size - len(hand) - 1
        share = (sum(view.hand_counts) - len(hand)) / unseen if unseen > 0 else 0.0
        deck_counts = self.deck_counts
        best, best_score = fitting[0], -1e9
        for card in fitting:
            own = opponents = 0
            for value in card.allowed:
                own += held[value]
                opponents += deck_counts[value] - held[value]
            score = own - opponents * share
            if self.tournament:
                score += SHED * card.value
            if score > best_score:
                best, best_score = card, score
        return best

    def _learned(self, view: us.View, fitting: list[us.Card],
                 weights: tuple[float, ...]) -> us.Card:
        rows = features.rows(view, fitting, self.deck_counts, self.deck_size, self.tournament)
        best, best_score = fitting[0], -1e18
        for card, row in zip(fitting, rows, strict=True):
            score = sum(map(mul, weights, row))
            if score > best_score:
                best, best_score = card, score
        return best


# Final: the compiled build keeps these in C variables, not in the module's dict.
_DRAW: Final = us.Draw()
_PLAY: Final = us.Play
_STANDARD_DECK: Final = us.STANDARD_DECK
_STANDARD_COUNTS: Final = features.counts(us.STANDARD_DECK)
