"""What both game boards share: the session they show, the keys, and who is who."""

from __future__ import annotations

from rich.console import Group
from rich.text import Text
from textual.widget import Widget

from zackzack.table import TableView
from zackzack.tui.cards import Block
from zackzack.tui.keys import Command, Scheme
from zackzack.tui.session import Session
from zackzack.tui.texts import tr


class Board(Widget):
    """A game's table as this keyboard sees it; it turns key commands into actions."""

    DEFAULT_CSS = "Board { height: 1fr; padding: 0 1; }"

    def __init__(self, session: Session, scheme: Scheme, lang: str) -> None:
        super().__init__()
        self.session = session
        self.scheme = scheme
        self.lang = lang

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

    def lines(self, width: int) -> Block:
        """The board as lines of text, ``width`` cells wide."""
        return []

    def render(self) -> Group:
        """The board, drawn afresh from the session's views."""
        return Group(*self.lines(max(20, self.size.width - 2)))


def label(text: str, style: str = "bold") -> Text:
    """A line of text in ``style``."""
    return Text(text, style=style)
