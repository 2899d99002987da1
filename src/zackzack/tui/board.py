"""What both game boards share: the session they show, the keys, who is who, what was seen."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence

from rich.console import Group
from rich.text import Text
from textual.widget import Widget

from zackzack.table import TableView
from zackzack.tui.cards import Block
from zackzack.tui.keys import Command, Scheme
from zackzack.tui.session import Session
from zackzack.tui.texts import tr

REACTION_S = 0.25
"""Nobody presses a key in answer to a pile that changed less than this long ago."""


class Sightings:
    """When each pile version came on screen, to name the version a key press aimed at.

    A person who presses a key 0.1 s after the pile changed was answering the card before:
    if theirs fitted that one, they were too late, not wrong (RULES.md, the race). Their own
    card on top they know at once.

    >>> now = [0.0]
    >>> seen = Sightings(lambda: now[0])
    >>> seen.note((4,)); now[0] = 1.0; seen.note((5,)); now[0] = 1.1
    >>> seen.aimed(0, 5)
    4
    >>> now[0] = 1.3
    >>> seen.aimed(0, 5)
    5
    """

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self.shown: list[list[tuple[int, float]]] = []

    def note(self, versions: Sequence[int], own: bool = False) -> None:
        """The piles now on screen are at ``versions`` (``own``: after one's own card)."""
        now = self.clock() - (REACTION_S if own else 0)
        if len(self.shown) != len(versions):
            self.shown = [[] for _ in versions]
        for history, version in zip(self.shown, versions, strict=True):
            if history and version < history[-1][0]:
                history.clear()
            if not history or history[-1][0] != version:
                history.append((version, now))
                del history[:-8]

    def aimed(self, pile: int, current: int) -> int:
        """The newest version of ``pile`` on screen ``REACTION_S`` ago (``current``: none)."""
        history = self.shown[pile] if pile < len(self.shown) else []
        cutoff = self.clock() - REACTION_S
        seen = [version for version, at in history if at <= cutoff and version <= current]
        return seen[-1] if seen else (history[0][0] if history else current)


class Board(Widget):
    """A game's table as this keyboard sees it; it turns key commands into actions."""

    DEFAULT_CSS = "Board { height: 1fr; padding: 0 1; }"

    def __init__(self, session: Session, scheme: Scheme, lang: str) -> None:
        super().__init__()
        self.session = session
        self.scheme = scheme
        self.lang = lang
        self.sightings = Sightings()

    def versions(self, view: TableView) -> tuple[int, ...]:
        """The pile versions in ``view``."""
        return ()

    def name_of(self, seat: int) -> str:
        """A seat's name; "You" for the one person at this keyboard."""
        if self.session.mine == (seat,):
            return tr("you", self.lang)
        seats = self.session.seats
        return seats[seat].name if seat < len(seats) else str(seat + 1)

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

    def cancel(self) -> bool:
        """Cancel a half-done input; whether there was one."""
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
