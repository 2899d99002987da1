"""What a learned bot weighs in Schnelllauf: hand-made features of each play and of the move.

A ``learned`` bot (``bot.py``) scores each action it could take now (a face-up card onto a
pile it fits, or moving a card into an empty place to reveal the one under it) as the dot
product of a trained weight vector (``policy.json``, ``zackzack.learn``) with the action's
row of :data:`NAMES`, computed from the (public) view:

- ``play``: a normal card played; ``joker``: a joker played; ``move``: the move;
- ``reveal``: the play of a normal card turns up a face-down card; ``refill``: it empties a
  place while a face-down card elsewhere could be moved into it;
- ``chain``: own face-up cards that fit on it afterwards (jokers count), ``fresh``: those of
  them that fit neither pile now (new options);
- ``lost``: own cards that fit this pile now and no longer would, on neither pile;
- ``cover``: opponent's face-up cards that fit this pile now (the play takes it from them),
  ``help``: those that fit on the card afterwards;
- ``depth``: face-down cards under the played card's place, ``move_depth``: under the moved
  card's place, each /3.

With weights 10, −100, 5, 3, 1, 2, 0, 0, 1, −1, 0, 0 the actions rank as ``smart`` ranks them
(a joker's row is ``joker`` and ``depth`` alone).

>>> from zackzack.games.schnelllauf import Card, View
>>> c = Card.parse
>>> view = View(0, (((c("5h"), 0), (c("7c"), 2), (c("8d"), 1), (None, 0), (None, 0)),
...                 ((c("Kh"), 2),) * 5), (30, 30), (c("6s"), c("2d")), (3, 1), (4, 0),
...             (frozenset({6}), frozenset({2})), None, False)
>>> plays = [(0, c("5h"), 0), (1, c("7c"), 0)]
>>> five, seven = rows(view, 0, plays, (frozenset({5, 7}), frozenset({1, 3})), True)
>>> dict(zip(NAMES, seven))["reveal"], dict(zip(NAMES, seven))["chain"]  # then 8d fits
(1.0, 1.0)
>>> dict(zip(NAMES, five))["refill"], dict(zip(NAMES, five))["chain"]
(1.0, 0.0)
"""

from __future__ import annotations

from collections.abc import Sequence

from zackzack.games import schnelllauf as sl

NAMES: tuple[str, ...] = ("play", "joker", "move", "reveal", "refill", "chain", "fresh", "lost",
                          "cover", "help", "depth", "move_depth")
"""The features of an action, in the order of the weights."""
MOVE = len(NAMES) - 1
"""Index of ``move_depth``: the move's row is zero but for ``move`` and this."""

_after: dict[tuple[int, bool], frozenset[int]] = {}
_Fits = frozenset[int] | None


def after(rank: int, wrap: bool) -> frozenset[int]:
    """The ranks that fit on a normal card of ``rank`` (its neighbours), kept once made."""
    found = _after.get((rank, wrap))
    if found is None:
        found = _after[rank, wrap] = sl.neighbours(rank, wrap)
    return found



def holdings(places: Sequence[tuple[sl.Card | None, int]]) -> tuple[list[int], int, bool]:
    """Of a seat's places: the ranks of its face-up cards (jokers apart), how many jokers
    are face up, and whether any place has cards under its top."""
    mine: list[int] = []
    jokers = 0
    deep = False
    for card, under in places:  # loops, not comprehensions: this runs per decision
        if card is not None:
            if card.rank:
                mine.append(card.rank)
            else:
                jokers += 1
        if under:
            deep = True
    return mine, jokers, deep

def rows(view: sl.View, seat: int, plays: Sequence[tuple[int, sl.Card, int]],
         fits: tuple[_Fits, _Fits], wrap: bool,
         move: int | None = None) -> list[tuple[float, ...]]:
    """The features of each play ``(place, card, pile)`` onto piles whose fitting ranks are
    ``fits`` (``None``: not started or not free for this hand), then, if ``move`` is the
    place of a card to move, of that move."""
    places = view.layouts[seat]
    mine, jokers, deep = holdings(places)
    theirs = [card.rank for card, _ in view.layouts[1 - seat] if card is not None and card.rank]
    fit0, fit1 = fits
    found: list[tuple[float, ...]] = []
    for place, card, pile in plays:
        rank = card.rank
        under = places[place][1]
        if not rank:
            found.append((0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, under / 3, 0.0))
            continue
        fitting = after(rank, wrap)
        before = fits[pile]
        other = fit1 if pile == 0 else fit0
        chain = fresh = lost = 0
        skipped = False
        for own in mine:
            if own == rank and not skipped:  # the card itself
                skipped = True
                continue
            elsewhere = other is not None and own in other
            if own in fitting:
                chain += 1
                if not elsewhere and (before is None or own not in before):
                    fresh += 1
            elif before is not None and own in before and not elsewhere:
                lost += 1
        cover = help_ = 0
        for rank_ in theirs:
            if before is not None and rank_ in before:
                cover += 1
            if rank_ in fitting:
                help_ += 1
        found.append((1.0, 0.0, 0.0, 1.0 if under else 0.0, 1.0 if deep and not under else 0.0,
                      float(chain + jokers), float(fresh), float(lost), float(cover),
                      float(help_), under / 3, 0.0))
    if move is not None:
        found.append((0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0,
                      places[move][1] / 3))
    return found
