"""What every game's board shares: the session they show, the keys, who is who, what was seen."""

from __future__ import annotations

import time
from collections.abc import Callable, Collection, Sequence
from typing import ClassVar

from rich.console import Group
from rich.text import Text
from textual.widget import Widget

from zackzack.games.base import Event
from zackzack.table import TableView
from zackzack.tui.cards import Block
from zackzack.tui.keys import Command, Scheme
from zackzack.tui.session import Session
from zackzack.tui.texts import tr


class Sightings:
    """When each pile version came on screen, to name the version a key press aimed at.

    A card's ``seen`` is the version of its pile that was on screen ``window()`` seconds
    before the key press (the round's first version if the pile has been shown for less
    time): a card that fitted any version from that one up to the top is too late, not wrong
    (RULES.md, the race). Versions shown in an earlier round do not count. One's own card on
    top one knows at once: that version counts as shown a window earlier. The browser's
    ``web/js/sightings.js`` follows the same rule.

    >>> now = [0.0]
    >>> seen = Sightings(lambda: 0.6, lambda: now[0])
    >>> seen.note((4,)); now[0] = 1.0; seen.note((5,)); now[0] = 1.5
    >>> seen.aimed(0, 5)
    4
    >>> now[0] = 1.6
    >>> seen.aimed(0, 5)
    5
    >>> seen.note((0,), round=2); now[0] = 1.7; seen.note((1,), round=2); now[0] = 1.9
    >>> seen.aimed(0, 1)
    0
    >>> seen.note((2,), round=2, own={0}); seen.aimed(0, 2)
    2
    """

    def __init__(self, window: Callable[[], float],
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.window = window
        """The reaction window in seconds (read at each key press)."""
        self.clock = clock
        self.shown: list[list[tuple[int, float]]] = []
        self.round: int | None = None

    def note(self, versions: Sequence[int], round: int | None = None,
             own: Collection[int] = ()) -> None:
        """The piles now on screen are at ``versions`` (in ``round``, when known); ``own``:
        the piles one's own card just changed."""
        now = self.clock()
        if len(self.shown) != len(versions) or (round is not None and round != self.round):
            self.shown = [[] for _ in versions]
        if round is not None:
            self.round = round
        for pile, (history, version) in enumerate(zip(self.shown, versions, strict=True)):
            if history and version < history[-1][0]:
                history.clear()
            if not history or history[-1][0] != version:
                history.append((version, now - self.window() if pile in own else now))
                del history[:-KEEP]

    def aimed(self, pile: int, current: int) -> int:
        """The version of ``pile`` on screen ``window()`` ago (``current``: none noted yet)."""
        history = self.shown[pile] if pile < len(self.shown) else []
        cutoff = self.clock() - self.window()
        seen = [version for version, at in history if at <= cutoff and version <= current]
        return seen[-1] if seen else min(history[0][0], current) if history else current


KEEP = 64
"""Pile versions remembered per pile: far more than change within a reaction window."""


class Board(Widget):
    """A game's table as this keyboard sees it; it turns key commands into actions."""

    DEFAULT_CSS = "Board { height: 1fr; padding: 0 1; }"
    CURSOR: ClassVar[bool] = False
    """Whether the arrows choose a card that Enter plays."""

    def __init__(self, session: Session, scheme: Scheme, lang: str) -> None:
        super().__init__()
        self.session = session
        self.scheme = scheme
        self.lang = lang
        self.sightings = Sightings(lambda: self.session.reaction_ms / 1000)

    def versions(self, view: TableView) -> tuple[int, ...]:
        """The pile versions in ``view``."""
        return ()

    def name_of(self, seat: int) -> str:
        """A seat's name; "You" for the one person at this keyboard."""
        if self.session.mine == (seat,):
            return tr("you", self.lang)
        seats = self.session.seats
        return seats[seat].name if seat < len(seats) else str(seat + 1)

    def lag(self, seat: int) -> str:
        """``slow connection`` after another person whose connection is slow, else ``""``."""
        seats = self.session.seats
        slow = seat < len(seats) and seats[seat].lag == "slow" and seat not in self.session.mine
        return tr("slow_connection", self.lang) if slow else ""

    def view(self, seat: int | None) -> TableView | None:
        """The view of ``seat`` now, if the round is on."""
        view = self.session.view(seat)
        return view if view is not None and view.state is not None else None

    def frozen(self, view: TableView, seat: int) -> str:
        """``❄ 0.7 s`` while ``seat`` is frozen, else ``""``."""
        left = view.frozen_until[seat] - self.session.now()
        return tr("frozen_for", self.lang, s=f"{left / 1000:.1f}") if left > 0 else ""

    def command(self, command: Command) -> bool:
        """Act on ``command``; whether it meant something on this board."""
        return False

    def readable(self, event: Event, line: str) -> str:
        """The log's sentence ``line`` about ``event``, with its cards written as this board
        shows them (the event itself is never changed)."""
        return line

    def chosen(self) -> bool:
        """Whether a card is chosen on screen for Enter to play (boards with a cursor)."""
        return False

    def cancel(self, hand: int | None = None) -> bool:
        """Cancel a half-done input (of ``hand`` only, if given); whether there was one."""
        return False

    def prompt(self) -> str:
        """What a half-done input waits for (``""``: nothing)."""
        return ""

    def lines(self, width: int) -> Block:
        """The board as lines of text, ``width`` cells wide."""
        return []

    def render(self) -> Group:
        """The board, drawn afresh from the session's views."""
        return Group(*self.lines(max(20, self.size.width - 2)))


def label(text: str, style: str = "bold") -> Text:
    """A line of text in ``style``."""
    return Text(text, style=style)
