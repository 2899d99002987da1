"""Höher's bot strategy: play the lowest card that beats the top."""

from __future__ import annotations

import random
from typing import ClassVar

from third_game import Options, Play, Played, View
from zackzack.games.base import Action, Event


class Brain:
    """One seat's choices, from its view only."""

    CHANGES: ClassVar[frozenset[type[Event]]] = frozenset({Played})
    OWN: ClassVar[frozenset[type[Event]]] = frozenset()
    HANDS: ClassVar[int] = 1

    def __init__(self, options: Options, seat: int, strategy: str, rng: random.Random) -> None:
        self.seat, self.rng = seat, rng

    def work(self, view: View) -> float:
        """How much there is to look at."""
        return len(view.hand)

    def choose(self, view: View, busy: tuple[Action, ...] = ()) -> Action | None:
        """The lowest card above the top."""
        higher = [card for card in view.hand if card > view.top]
        return Play(min(higher), view.version) if higher and not busy else None

    def mistake(self, view: View) -> Action | None:
        """A card that is not higher, if there is one."""
        lower = [card for card in view.hand if card <= view.top]
        return Play(self.rng.choice(lower), view.version) if lower else None
