"""What a learned bot weighs in Unter Spannung: hand-made features of each fitting card.

A ``learned`` bot (``bot.py``) scores each card it could play as the dot product of a
trained weight vector (``policy.json``, ``zackzack.learn``) with the card's row of
:data:`NAMES`, all computed from the seat's view alone:

- ``follow_ups``: own other cards that would fit on it (what ``smart`` keeps), and
  ``follow_up``: whether there is one;
- ``answers``: the opponents' expected cards that would fit on it (the unseen cards of those
  values times the share of unseen cards they hold), and ``unseen``: those cards /10;
- ``value`` and ``shed`` (value in the tournament, where minus points add up), each /10;
- ``spread`` /3;
- ``closing``: a follow-up when this play leaves two cards (the next play goes out);
- ``chain``: the most own cards that would fit on one of its follow-ups (two plays ahead),
  other than cards equal to the one played (they count as the card itself);
- ``threat``: the expected answers when an opponent holds two cards or fewer.

With weights 1, 0, −1, 0, 0, 3, 0, 0, 0, 0 the score is ``smart``'s own (``SHED`` = 0.3 a point).

>>> from zackzack.games.unter_spannung import Card, View, STANDARD_DECK
>>> view = View(0, Card(5, 2), 3, 4, (Card(3, 1), Card(7, 1), Card(4, 2)), (3, 5), (9, 9),
...             0, None, False)
>>> first, second = rows(view, [Card(3, 1), Card(7, 1)], counts(STANDARD_DECK), 73, False)
>>> first[:2], second[:2]  # after 3±1 its 4±2 fits; after 7±1 nothing
((1.0, 1.0), (0.0, 0.0))
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from zackzack.games import unter_spannung as us

NAMES: tuple[str, ...] = ("follow_ups", "follow_up", "answers", "unseen", "value", "shed",
                          "spread", "closing", "threat", "chain")
"""The features of a fitting card, in the order of the weights."""


def counts(deck: Sequence[us.Card]) -> tuple[int, ...]:
    """How many cards of each value (index 1–10) ``deck`` holds."""
    found = Counter(card.value for card in deck)
    return tuple(found[value] for value in range(11))


def rows(view: us.View, fitting: Sequence[us.Card], deck_counts: Sequence[int],
         deck_size: int, tournament: bool) -> list[tuple[float, ...]]:
    """The features of each card of ``fitting`` (cards of the view's hand), in order."""
    hand = view.hand
    held = [0] * 11
    for card in hand:
        held[card.value] += 1
    unseen = deck_size - len(hand) - 1
    others = sum(view.hand_counts) - len(hand)
    share = others / unseen if unseen > 0 else 0.0
    closing = len(hand) == 3
    seat = view.seat
    danger = any(count <= 2 for i, count in enumerate(view.hand_counts) if i != seat)
    found: list[tuple[float, ...]] = []
    for card in fitting:
        own = opponents = chain = 0
        for value in card.allowed:
            own += held[value]
            opponents += deck_counts[value] - held[value]
        if own:
            for follow in hand:
                if follow.value in card.allowed:
                    ahead = 0
                    for other in hand:
                        if other.value in follow.allowed and other is not card:
                            ahead += 1
                    chain = max(chain, ahead)
        answers = opponents * share
        worth = card.value / 10
        found.append((
            float(own), 1.0 if own else 0.0, answers, opponents / 10, worth,
            worth if tournament else 0.0, card.spread / 3,
            1.0 if own and closing else 0.0, answers if danger else 0.0, float(chain)))
    return found
