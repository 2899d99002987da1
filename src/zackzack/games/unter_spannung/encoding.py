"""Unter Spannung as numbers: a seat's view as a fixed-size vector, and actions by index.

A contract: the learned bot (``bot.py``'s ``learned`` strategy, ``zackzack.learn``) and the
PettingZoo environment (``zackzack.env``) both build on ``SIZE``, ``ACTIONS``, ``observe``,
``mask`` and ``action``; the layout below may grow (``SIZE`` stays a constant) but an index
never changes its meaning. It needs numpy and the rules only (no pettingzoo, no gymnasium),
and it reads the seat's ``View`` only, never the round's state, so hidden cards cannot leak.

A card is named by its *kind*: ``kind(card) = (value - 1) * 3 + (spread - 1)``, 0…29. A hand
has no limit (RULES.md), so actions play a kind, not a hand slot; equal cards are
interchangeable (the rules name a card by its value too).

Actions (``ACTIONS`` = 32): 0 the no-op (wait), 1 draw, ``2 + kind`` play a card of that kind.

Observation (``SIZE`` = 102, float32; seats counted from the observing seat: 0 is itself,
1 the next seat, …; a table has at most ``SEATS`` = 6):

=========  ==================================================================
slice      what
=========  ==================================================================
0:30       own hand: how many cards of each kind
30:60      top card of the discard pile: one-hot by kind
60:70      the values the top allows (value ``v`` at ``60 + v - 1``)
70:80      own hand: how many cards of each value (value ``v`` at ``70 + v - 1``)
80:86      hand sizes by relative seat (0 past the table's seats)
86:92      draw pile sizes by relative seat
92:98      1 for each relative seat at the table
98         cards in the discard pile
99         Nichts geht mehr rotations since the last card was played
100        1 if the round is over
101        seconds the seat is still frozen (a wrong card); the game's ``View`` has no
           clock, so ``observe`` writes ``frozen_ms / 1000`` as it is given (default 0)
=========  ==================================================================

>>> from zackzack.games.unter_spannung import Card, View
>>> view = View(0, Card(5, 2), 3, 4, (Card(3, 1), Card(7, 1), Card(4, 2)), (3, 5), (9, 0),
...             0, None, False)
>>> obs = observe(view)
>>> obs.shape, obs[[kind(Card(3, 1)), HAND_SIZES, HAND_SIZES + 1, DRAW_SIZES + 1]].tolist()
((102,), [1.0, 3.0, 5.0, 0.0])
>>> [int(i) for i in mask(view).nonzero()[0]]  # no-op, draw, 3±1 and 7±1 (5±2 allows 3, 7)
[0, 1, 8, 20]
>>> action(view, 0), action(view, 1), action(view, 8)
(None, Draw(), Play(card=Card(value=3, spread=1), seen=3))
"""

from __future__ import annotations

from typing import Final

import numpy as np
import numpy.typing as npt

from zackzack.games.unter_spannung import AnyAction, Card, Draw, Play, View

SEATS: Final = 6
"""The most seats a table has (``INFO.max_players``)."""
KINDS: Final = 30
"""Card kinds: 10 values × 3 spreads."""
NOOP: Final = 0
DRAW: Final = 1
PLAY: Final = 2
"""Index of the play of kind 0; kind ``k`` is ``PLAY + k``."""
ACTIONS: Final = PLAY + KINDS
"""Number of discrete actions."""

HAND: Final = 0
TOP: Final = HAND + KINDS
ALLOWED: Final = TOP + KINDS
HAND_VALUES: Final = ALLOWED + 10
HAND_SIZES: Final = HAND_VALUES + 10
DRAW_SIZES: Final = HAND_SIZES + SEATS
PRESENT: Final = DRAW_SIZES + SEATS
DISCARD: Final = PRESENT + SEATS
ROTATIONS: Final = DISCARD + 1
OVER: Final = ROTATIONS + 1
FROZEN: Final = OVER + 1
SIZE: Final = FROZEN + 1
"""Length of the observation vector."""
HIGH: Final = 1024.0
"""An upper bound of every entry (counts of a deck of at most that many cards)."""

CARDS: Final[tuple[Card, ...]] = tuple(Card(k // 3 + 1, k % 3 + 1) for k in range(KINDS))
"""The card of each kind, by kind."""
_ALLOWED_KINDS: Final[tuple[tuple[int, ...], ...]] = tuple(
    tuple(k for k in range(KINDS) if CARDS[k].value in card.allowed) for card in CARDS)
"""By the top's kind: the kinds that may be played on it."""


def kind(card: Card) -> int:
    """The kind of ``card``, 0…29: ``(value - 1) * 3 + spread - 1``.

    >>> kind(Card(1, 1)), kind(Card(10, 3)), CARDS[kind(Card(7, 2))]
    (0, 29, Card(value=7, spread=2))
    """
    return (card.value - 1) * 3 + card.spread - 1


def observe(view: View, frozen_ms: int = 0) -> npt.NDArray[np.float32]:
    """``view`` as the observation vector (float32, shape ``(SIZE,)``; layout in the module)."""
    obs = np.zeros(SIZE, np.float32)
    for card in view.hand:
        k = (card.value - 1) * 3 + card.spread - 1
        obs[k] += 1
        obs[HAND_VALUES + card.value - 1] += 1
    top = view.top
    obs[TOP + (top.value - 1) * 3 + top.spread - 1] = 1
    for value in top.allowed:
        obs[ALLOWED + value - 1] = 1
    players = len(view.hand_counts)
    me = view.seat or 0
    for i in range(players):
        seat = (me + i) % players
        obs[HAND_SIZES + i] = view.hand_counts[seat]
        obs[DRAW_SIZES + i] = view.draw_counts[seat]
        obs[PRESENT + i] = 1
    obs[DISCARD] = view.discard_count
    obs[ROTATIONS] = view.rotations
    obs[OVER] = view.over
    obs[FROZEN] = frozen_ms / 1000
    return obs


def mask(view: View) -> npt.NDArray[np.int8]:
    """The actions the rules accept now from the seat (``legal_actions``), and the no-op."""
    allowed = np.zeros(ACTIONS, np.int8)
    allowed[NOOP] = 1
    if view.over or view.seat is None:
        return allowed
    if view.draw_counts[view.seat]:
        allowed[DRAW] = 1
    fitting = view.top.allowed
    for card in view.hand:
        if card.value in fitting:
            allowed[PLAY + (card.value - 1) * 3 + card.spread - 1] = 1
    return allowed


def action(view: View, index: int) -> AnyAction | None:
    """The action of ``index`` for the seat of ``view`` (``None``: the no-op).

    A play names the pile version of ``view``; a card the seat does not hold is refused by
    the table (``not_your_card``), a card that does not fit is a wrong card and freezes.

    >>> from zackzack.games.unter_spannung import Card, View
    >>> view = View(0, Card(5, 2), 7, 4, (Card(3, 1),), (1, 5), (9, 9), 0, None, False)
    >>> action(view, PLAY + kind(Card(9, 3)))
    Play(card=Card(value=9, spread=3), seen=7)
    >>> action(view, ACTIONS)
    Traceback (most recent call last):
    ...
    ValueError: an action index is 0 to 31, got 32
    """
    if index == NOOP:
        return None
    if index == DRAW:
        return _DRAW
    if not PLAY <= index < ACTIONS:
        raise ValueError(f"an action index is 0 to {ACTIONS - 1}, got {index}")
    return Play(CARDS[index - PLAY], view.version)


def index(view: View | None, act: AnyAction | None) -> int:
    """The index of ``act`` (``None``: the no-op); the inverse of :func:`action`. ``view`` is
    not needed here; it keeps the signature of every game's ``index`` alike.

    >>> index(None, Play(Card(1, 3), seen=0)), index(None, Draw()), index(None, None)
    (4, 1, 0)
    """
    if act is None:
        return NOOP
    if isinstance(act, Play):
        return PLAY + kind(act.card)
    if isinstance(act, Draw):
        return DRAW
    raise ValueError(f"{act.kind} is the table's step, not a seat's action")


def fitting_kinds(top: Card) -> tuple[int, ...]:
    """The kinds of card that may be played on ``top``.

    >>> [str(CARDS[k]) for k in fitting_kinds(Card(5, 2))][:3]
    ['3±1', '3±2', '3±3']
    """
    return _ALLOWED_KINDS[kind(top)]


_DRAW: Final = Draw()

__all__ = ["ACTIONS", "ALLOWED", "CARDS", "DISCARD", "DRAW", "DRAW_SIZES", "FROZEN", "HAND",
           "HAND_SIZES", "HAND_VALUES", "HIGH", "KINDS", "NOOP", "OVER", "PLAY", "PRESENT",
           "ROTATIONS", "SEATS", "SIZE", "TOP", "action", "fitting_kinds", "index", "kind", "mask",
           "observe"]
