"""Schnelllauf as numbers: a seat's view as a fixed-size vector, and actions by index.

A contract: the learned bot (``bot.py``'s ``learned`` strategy, ``zackzack.learn``) and the
PettingZoo environment (``zackzack.env``) both build on ``SIZE``, ``ACTIONS``, ``observe``,
``mask`` and ``action``; the layout below may grow (``SIZE`` stays a constant) but an index
never changes its meaning. It needs numpy and the rules only (no pettingzoo, no gymnasium),
and it reads the seat's ``View`` only, never the round's state (the face-down cards and the
reserves stay unknown).

Everything is seen from the observing seat: *own* is that seat, *other* the opponent; pile
``j`` is relative too, 0 the discard pile the seat started, 1 the one the opponent started
(the table's pile ``(seat + j) % 2``). What fits depends on the table's ``wrap`` option (the
ace next to the K), which the ``View`` does not hold: ``observe`` and ``mask`` take it
(default ``True``, the standard table).

Actions (``ACTIONS`` = 31):

- 0: the no-op (wait);
- ``PLAY + 2 * place + j`` (1…10): play the face-up card of own place 0…4 onto pile ``j``;
  ``action`` gives ``None`` (nothing to do) for an empty place;
- ``MOVE + 4 * source + t`` (11…30): move the top of place ``source`` into an empty place,
  ``t`` counting the other four places in order (``target = t + (t >= source)``).

Observation (``SIZE`` = 226, float32); a card's rank is one-hot over 14 entries, 0 the
joker, 1 the ace … 13 the king:

=========  ==================================================================
slice      what
=========  ==================================================================
0:75       own places 0…4, 15 each: the face-up card's rank one-hot (none: an
           empty place), then the number of face-down cards under it
75:150     the other seat's places, likewise
150:208    piles 0 and 1 (relative), 29 each: 1 if started, the top's rank
           one-hot, the ranks the top stands for (13: A…K), 1 if it is free
208:218    ``2 * place + j``: 1 if own place's card fits pile ``j`` now
218:220    reserve sizes, own and other
220:222    discard pile sizes, piles 0 and 1 (relative)
222:224    cards left in the layouts, own and other
224        1 if the round is over
225        seconds the seat is still frozen (a wrong card); the game's ``View`` has no
           clock, so ``observe`` writes ``frozen_ms / 1000`` as it is given (default 0)
=========  ==================================================================

>>> from zackzack.games.schnelllauf import Card, JOKER, View
>>> c = Card.parse
>>> empty = (None, 0)
>>> view = View(1, ((( c("5h"), 2), empty, empty, empty, empty),
...                 ((c("Kd"), 2), (JOKER, 0), (c("3s"), 1), empty, empty)),
...             (30, 28), (c("4c"), c("Ah")), (1, 1), (0, 0),
...             (frozenset({4}), frozenset({1})), None, False)
>>> [int(i) for i in mask(view).nonzero()[0]]  # Kd on the A, * on both, 3s on the 4, moves
[0, 1, 3, 4, 6, 13, 14, 21, 22]
>>> action(view, PLAY + 2 * 2 + 1), action(view, PLAY + 2 * 4), action(view, MOVE + 4 * 2 + 3)
(Play(card=Card.parse('3s'), pile=0, seen=0), None, Move(source=2, target=4))
>>> obs = observe(view)
>>> obs[[OWN + 13, OWN + 14, OWN + 15, OTHER + 5, OTHER + 14, RESERVES, LAYOUT_SIZES]].tolist()
[1.0, 2.0, 1.0, 1.0, 2.0, 28.0, 6.0]
"""

from __future__ import annotations

from typing import Final

import numpy as np
import numpy.typing as npt

from zackzack.games.schnelllauf import PLACES, AnyAction, Card, Move, Play, View, fits

RANKS: Final = 14
"""Rank one-hot width: the joker (0), A (1) … K (13)."""
PLACE_WIDTH: Final = RANKS + 1
PILE_WIDTH: Final = 1 + RANKS + 13 + 1
NOOP: Final = 0
PLAY: Final = 1
"""Index of playing place 0 onto pile 0; place ``i`` onto pile ``j`` is ``PLAY + 2 * i + j``."""
MOVE: Final = PLAY + 2 * PLACES
"""Index of the first move; ``MOVE + 4 * source + t``."""
ACTIONS: Final = MOVE + PLACES * (PLACES - 1)
"""Number of discrete actions."""

OWN: Final = 0
OTHER: Final = OWN + PLACES * PLACE_WIDTH
PILES: Final = OTHER + PLACES * PLACE_WIDTH
FITS: Final = PILES + 2 * PILE_WIDTH
RESERVES: Final = FITS + 2 * PLACES
PILE_SIZES: Final = RESERVES + 2
LAYOUT_SIZES: Final = PILE_SIZES + 2
OVER: Final = LAYOUT_SIZES + 2
FROZEN: Final = OVER + 1
SIZE: Final = FROZEN + 1
"""Length of the observation vector."""
HIGH: Final = 1024.0
"""An upper bound of every entry."""

_MOVES: Final[tuple[Move, ...]] = tuple(
    Move(s, t + (t >= s)) for s in range(PLACES) for t in range(PLACES - 1))


def observe(view: View, frozen_ms: int = 0, wrap: bool = True) -> npt.NDArray[np.float32]:
    """``view`` as the observation vector (float32, shape ``(SIZE,)``; layout in the module)."""
    obs = np.zeros(SIZE, np.float32)
    me = view.seat or 0
    for who, base in ((me, OWN), (1 - me, OTHER)):
        left = 0
        for place, (card, under) in enumerate(view.layouts[who]):
            if card is not None:
                at = base + place * PLACE_WIDTH
                obs[at + card.rank] = 1
                obs[at + RANKS] = under
                left += under + 1
        obs[LAYOUT_SIZES + (who != me)] = left
    own = view.layouts[me]
    for j in range(2):
        p = (me + j) % 2
        top = view.tops[p]
        at = PILES + j * PILE_WIDTH
        obs[RESERVES + j] = view.reserve_counts[p]
        obs[PILE_SIZES + j] = view.pile_counts[p]
        if top is None:
            continue
        obs[at] = 1
        obs[at + 1 + top.rank] = 1
        stands = view.stands[p]
        if stands is None:
            obs[at + PILE_WIDTH - 1] = 1
        else:
            for rank in stands:
                obs[at + RANKS + rank] = 1
        for place in range(PLACES):
            card = own[place][0]
            if card is not None and fits(card, stands, wrap):
                obs[FITS + 2 * place + j] = 1
    obs[OVER] = view.over
    obs[FROZEN] = frozen_ms / 1000
    return obs


def mask(view: View, wrap: bool = True) -> npt.NDArray[np.int8]:
    """The actions the rules accept now from the seat (``legal_actions``), and the no-op."""
    allowed = np.zeros(ACTIONS, np.int8)
    allowed[NOOP] = 1
    if view.over or view.seat is None:
        return allowed
    me = view.seat
    places = view.layouts[me]
    for j in range(2):
        p = (me + j) % 2
        if view.tops[p] is None:
            continue
        stands = view.stands[p]
        for place in range(PLACES):
            card = places[place][0]
            if card is not None and fits(card, stands, wrap):
                allowed[PLAY + 2 * place + j] = 1
    empty = [t for t in range(PLACES) if places[t][0] is None]
    if empty:
        for s in range(PLACES):
            if places[s][1]:
                for t in empty:
                    allowed[MOVE + 4 * s + t - (t > s)] = 1
    return allowed


def action(view: View, index: int) -> AnyAction | None:
    """The action of ``index`` for the seat of ``view`` (``None``: the no-op, or a play from
    an empty place). A play names the pile version of ``view``; a card that does not fit is
    a wrong card and freezes, an impossible move is refused without a penalty."""
    if index == NOOP:
        return None
    if PLAY <= index < MOVE:
        place, j = divmod(index - PLAY, 2)
        me = view.seat or 0
        card: Card | None = view.layouts[me][place][0]
        if card is None:
            return None
        p = (me + j) % 2
        return Play(card, p, view.versions[p])
    if MOVE <= index < ACTIONS:
        return _MOVES[index - MOVE]
    raise ValueError(f"an action index is 0 to {ACTIONS - 1}, got {index}")


def index(view: View, act: AnyAction | None) -> int:
    """The index of ``act`` by the seat of ``view`` (``None``: the no-op); a play gives the
    first place whose face-up card it names (as the rules do), ``NOOP`` if none does.

    >>> from zackzack.games.schnelllauf import deal, Options, view as see
    >>> import random
    >>> v = see(deal(Options(), random.Random(1)), 0)
    >>> all(index(v, action(v, i)) == i for i in range(MOVE, ACTIONS))
    True
    """
    if act is None:
        return NOOP
    if isinstance(act, Move):
        s, t = act.source, act.target
        return MOVE + 4 * s + t - (t > s)
    if isinstance(act, Play):
        me = view.seat or 0
        for place in range(PLACES):
            if view.layouts[me][place][0] is act.card:
                return PLAY + 2 * place + (act.pile - me) % 2
        return NOOP
    raise ValueError(f"{act.kind} is the table's step, not a seat's action")


__all__ = ["ACTIONS", "FITS", "FROZEN", "HIGH", "LAYOUT_SIZES", "MOVE", "NOOP", "OTHER", "OVER",
           "OWN", "PILES", "PILE_SIZES", "PILE_WIDTH", "PLACE_WIDTH", "PLAY", "RANKS",
           "RESERVES", "SIZE", "action", "index", "mask", "observe"]
