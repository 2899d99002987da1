"""The screen while a server cannot do what was asked for a while (a cluster whose store is
unreachable, a table between servers): it says what cannot be done now, and the session asks
again by itself after growing pauses (``RemoteSession.waiting``). Enter asks at once, Esc goes
back (to the match's results, or the lobby); the program never ends by itself here."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.screen import Screen
from textual.widgets import Static

from zackzack.tui.session import Unavailable
from zackzack.tui.texts import tr


def said(error: Unavailable, code: str, lang: str) -> str:
    """What cannot be done now, in ``lang`` (``code``: the table asked about).

    >>> said(Unavailable("…", "cluster_unavailable", "create"), "", "de")
    'Der Server kann gerade keine neuen Tische eröffnen: er erreicht seinen Cluster-Speicher nicht.'
    >>> said(Unavailable("…", "table_moving", "join"), "K7M2QX", "en")
    'Table K7M2QX is moving to another server.'
    """
    if error.code == "table_moving":
        return tr("wait_table_moving", lang, code=code)
    return tr(f"wait_{error.asked}", lang, code=code)


class WaitScreen(Screen[None]):
    """What the server cannot do now, when it is asked again, the keys: Enter calls ``now``
    (ask at once), Esc calls ``back`` (stop waiting)."""

    DEFAULT_CSS = """
    WaitScreen { align: center middle; }
    WaitScreen > Static { width: 72; max-width: 100%; height: auto; padding: 1 2;
                          border: round $warning; background: $surface; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [Binding("enter", "now", priority=True),
                                             Binding("escape", "back", priority=True)]

    def __init__(self, lang: str, code: str, now: Callable[[], object],
                 back: Callable[[], object]) -> None:
        super().__init__()
        self.lang, self.code = lang, code
        self.now, self.back = now, back
        self.error: Unavailable | None = None
        self.attempts = 0
        """How often the server said no so far."""
        self.next_at = 0.0
        """When the session asks again (``time.monotonic``)."""

    def compose(self) -> ComposeResult:
        """One box of text."""
        yield Static(id="wait")

    def on_mount(self) -> None:
        """Count the seconds down."""
        self.set_interval(0.1, self.show)
        self.show()

    def refused(self, error: Unavailable, pause: float) -> None:
        """The server said no again; the next try comes after ``pause`` seconds."""
        self.error, self.attempts = error, self.attempts + 1
        self.next_at = time.monotonic() + pause
        self.show()

    def asking(self) -> None:
        """Asking again right now (Enter)."""
        self.next_at = 0.0
        self.show()

    def text(self) -> Text:
        """The box's text."""
        text = Text(tr("wait_title", self.lang), style="bold")
        if self.error is not None:
            text.append("\n\n" + said(self.error, self.code, self.lang))
            text.append(f"\n{' '.join(str(self.error).split())}", style="dim")
        left = self.next_at - time.monotonic()
        text.append("\n\n")
        if left > 0:
            text.append(tr("wait_again", self.lang, s=f"{left:.0f}", n=self.attempts + 1),
                        style="italic")
        else:
            text.append(tr("wait_asking", self.lang), style="italic")
        text.append("\n" + tr("wait_keys", self.lang), style="bold")
        return text

    def show(self) -> None:
        """Draw the box afresh."""
        if self.is_mounted:
            self.query_one("#wait", Static).update(self.text())

    def action_now(self) -> None:
        """Enter: ask again now."""
        self.asking()
        self.now()

    def action_back(self) -> None:
        """Esc: stop waiting."""
        self.back()
