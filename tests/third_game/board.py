"""Höher's terminal board: the others' counts, the top card, and the own hand keyed ``1``–``9``.

It is built of the terminal's shared parts only (:func:`~zackzack.tui.keys.hand_scheme`,
:class:`~zackzack.tui.keys.StableKeys`, :func:`~zackzack.tui.cards.frame`): what a game's
folder adds for the terminal is this one module with its ``make``.
"""

from __future__ import annotations

from rich.text import Text

import third_game as hoeher
from zackzack.engine.table import TableView
from zackzack.tui.board import Board, label
from zackzack.tui.cards import DASHED, HEAVY, ROUND, Block, beside, centred, frame
from zackzack.tui.keys import Command, HandCard, Scheme, StableKeys, hand_key, hand_scheme
from zackzack.tui.session import Session
from zackzack.tui.texts import tr


def card(value: int, key: str = "", *, top: bool = False) -> Block:
    """A card: its number (a dashed place for the empty pile's 0)."""
    if not value:
        return frame([Text("")], 4, key, DASHED, "dim")
    return frame([centred(Text(str(value), style="bold"), 4)], 4, key, HEAVY if top else ROUND)


class HoeherBoard(Board):
    """One seat's view of a round of Höher."""

    def __init__(self, session: Session, scheme: Scheme, lang: str) -> None:
        super().__init__(session, scheme, lang)
        self.keys: StableKeys[int] = StableKeys()

    @property
    def seat(self) -> int | None:
        """The seat played here (``None``: watching)."""
        return self.session.mine[0] if self.session.mine else None

    def versions(self, view: TableView) -> tuple[int, ...]:
        """The one pile's version."""
        return (view.shown.version,)

    def keyed(self, view: TableView) -> list[tuple[int, int]]:
        """The own hand, each card with its place (its key's index)."""
        places = self.keys.arrange(view.round, view.shown.hand)
        return [(place, value) for place, value in enumerate(places) if value is not None]

    def command(self, command: Command) -> bool:
        """Play the card of a hand key."""
        view, seat = self.view(self.seat), self.seat
        if not isinstance(command, HandCard) or view is None or seat is None:
            return False
        held = dict(self.keyed(view))
        if command.index in held:
            self.keys.pressed(command.index)
            seen = self.sightings.aimed(0, view.shown.version)
            self.session.act(seat, hoeher.Play(held[command.index], seen=seen))
        return True

    def lines(self, width: int) -> Block:
        """The others, the pile, the hand."""
        view = self.view(self.seat)
        if view is None:
            return []
        state: hoeher.View = view.shown
        others = [label(f"{self.name_of(seat)}  {tr('in_hand', self.lang, n=count)}")
                  for seat, count in enumerate(state.counts) if seat != self.seat]
        lines = [*others, Text(""), *beside([card(state.top, top=True),
                                             [label(tr("pile", self.lang))]], gap=2)]
        if self.seat is None:
            return [*lines, Text(""), label(tr("watching", self.lang), "italic")]
        hand = self.keyed(view)
        return [*lines, Text(""), label(tr("hand", self.lang, n=len(hand))),
                *beside([card(value, hand_key(place)) for place, value in hand])]


HAND_SIZE = 9
"""The most cards a hand holds (``Options.cards`` goes up to 9): keys ``1``–``9``."""


def make(session: Session, lang: str, layout: str | None = None) -> HoeherBoard:
    """The board for ``session``: one key a card of the hand."""
    scheme = hand_scheme(HAND_SIZE, bar="bar_hoeher", notes="k_hoeher", cursor=False)
    return HoeherBoard(session, scheme, lang)
