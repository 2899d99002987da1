"""The small screens over the game: the key help, the quit question, the too-small terminal."""

from __future__ import annotations

from rich.console import Group
from rich.table import Table
from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.screen import ModalScreen
from textual.widgets import Static

from zackzack.tui.keys import Scheme
from zackzack.tui.texts import tr

MIN_WIDTH, MIN_HEIGHT = 80, 24
"""The smallest terminal the boards fit in."""

_CSS = """
{name} {{ align: center middle; }}
{name} > Static {{ width: auto; max-width: 100%; height: auto; padding: 1 2;
                   border: round $accent; background: $surface; }}
"""


class HelpScreen(ModalScreen[None]):
    """Every key of the game in play, from the same table the keys are looked up in."""

    DEFAULT_CSS = _CSS.format(name="HelpScreen")

    def __init__(self, scheme: Scheme, lang: str) -> None:
        super().__init__()
        self.scheme, self.lang = scheme, lang

    def compose(self) -> ComposeResult:
        """The key table, the game's hint about what fits, how to close."""
        parts: list[Table | Text] = [Text(tr("help_title", self.lang), style="bold")]
        for title, rows in self.scheme.help:
            table = Table(box=None, show_header=False, padding=(0, 2),
                          title=tr(title, self.lang) if title else None, title_justify="left",
                          title_style="bold underline")
            table.add_column(style="bold cyan", no_wrap=True)
            table.add_column()
            for row in rows:
                table.add_row(row.keys, tr(row.text, self.lang))
            parts += [Text(""), table]
        parts += [Text(""), Text(tr(self.scheme.notes, self.lang), style="italic"),
                  Text(""), Text(tr("help_close", self.lang), style="dim")]
        yield Static(Group(*parts), id="help")

    def on_key(self, event: events.Key) -> None:
        """Any key closes the help."""
        event.stop()
        self.dismiss()


class QuitDialog(ModalScreen[bool]):
    """Quit the match? y, j or Enter quits; n or Esc plays on."""

    DEFAULT_CSS = _CSS.format(name="QuitDialog")

    def __init__(self, lang: str) -> None:
        super().__init__()
        self.lang = lang

    def compose(self) -> ComposeResult:
        """The question and its keys."""
        yield Static(Group(Text(tr("quit_ask", self.lang), style="bold"), Text(""),
                           Text(tr("quit_keys", self.lang), style="dim")))

    def on_key(self, event: events.Key) -> None:
        """Answer by key; other keys do nothing."""
        event.stop()
        if event.key in ("y", "j", "enter"):
            self.dismiss(True)
        elif event.key in ("n", "escape"):
            self.dismiss(False)


class TooSmall(ModalScreen[None]):
    """Covers everything while the terminal is too small for the board; keys do nothing."""

    DEFAULT_CSS = "TooSmall { align: center middle; background: $background; }" \
        " TooSmall > Static { width: auto; max-width: 100%; text-style: bold; }"

    def __init__(self, lang: str, width: int, height: int) -> None:
        super().__init__()
        self.lang = lang
        self.message = Static(self._text(width, height))

    def _text(self, width: int, height: int) -> str:
        return tr("too_small", self.lang, w=width, h=height, mw=MIN_WIDTH, mh=MIN_HEIGHT)

    def compose(self) -> ComposeResult:
        """Only the message."""
        yield self.message

    def resized(self, width: int, height: int) -> None:
        """Show the new size."""
        self.message.update(self._text(width, height))

    def on_key(self, event: events.Key) -> None:
        """No game keys while the board cannot be seen."""
        event.stop()
