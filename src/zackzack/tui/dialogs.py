"""The small screens over the game: the key help, the quit question, the too-small terminal."""

from __future__ import annotations

from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.screen import ModalScreen, Screen
from textual.widget import Widget
from textual.widgets import Static

from zackzack.tui.keys import Scheme
from zackzack.tui.texts import key_names, tr

MIN_WIDTH, MIN_HEIGHT = 80, 24
"""The smallest terminal the boards fit in."""

_CSS = """
{name} {{ align: center middle; }}
{name} > Static {{ width: auto; max-width: 100%; height: auto; padding: 1 2;
                   border: round $accent; background: $surface; }}
"""


class HelpScreen(ModalScreen[None]):
    """Every key of the game in play, from the same table the keys are looked up in."""

    DEFAULT_CSS = _CSS.format(name="HelpScreen") + """
    HelpScreen > Static { padding: 0 2; max-height: 100%; border-title-style: bold;
                          border-subtitle-color: $text-muted; }
    """
    """No blank rows inside the frame: two players' keys fit 80 × 24 with the frame whole."""

    def __init__(self, scheme: Scheme, lang: str) -> None:
        super().__init__()
        self.scheme, self.lang = scheme, lang

    def compose(self) -> ComposeResult:
        """The key tables, one a section (a section's title above it, not in the keys'
        column, so the columns stay narrow), the game's hint about what fits; the title and
        how to close in the frame."""
        keys = [[(key_names(row.keys, self.lang), tr(row.text, self.lang)) for row in rows]
                for _, rows in self.scheme.help]
        width = max(Text(key).cell_len for rows in keys for key, _ in rows)
        parts: list[RenderableType] = []
        for (title, _), rows in zip(self.scheme.help, keys, strict=True):
            if title:
                parts.append(Text(tr(title, self.lang), style="bold underline"))
            table = Table(box=None, show_header=False, padding=(0, 1))
            table.add_column(style="bold cyan", no_wrap=True, min_width=width)
            table.add_column()
            for key, text in rows:
                table.add_row(key, text)
            parts.append(table)
        help_box = Static(Group(*parts, Text(""), Text(tr(self.scheme.notes, self.lang),
                                                       style="italic")), id="help")
        help_box.border_title = tr("help_title", self.lang)
        help_box.border_subtitle = tr("help_close", self.lang)
        yield help_box

    def on_key(self, event: events.Key) -> None:
        """Any key closes the help."""
        event.stop()
        self.dismiss()


class QuitDialog(ModalScreen[bool]):
    """Quit the match? y (or j, German "ja") quits; n or Esc plays on; Enter does nothing,
    so that Esc then Enter never ends a match by accident."""

    DEFAULT_CSS = _CSS.format(name="QuitDialog")

    def __init__(self, lang: str, ask: str = "quit_ask") -> None:
        """``ask``: the question's text key (``leave_ask``: leave the table, not the app)."""
        super().__init__()
        self.lang, self.ask = lang, ask

    def compose(self) -> ComposeResult:
        """The question and its keys."""
        yield Static(Group(Text(tr(self.ask, self.lang), style="bold"), Text(""),
                           Text(tr(self.ask.replace("_ask", "_keys"), self.lang),
                                style="dim")))

    def on_key(self, event: events.Key) -> None:
        """Answer by key; other keys (Enter too) do nothing."""
        event.stop()
        if event.key in ("y", "j"):
            self.dismiss(True)
        elif event.key in ("n", "escape"):
            self.dismiss(False)


class TooSmall(Widget):
    """Covers its screen while the terminal is below ``MIN_WIDTH`` × ``MIN_HEIGHT``.

    The app's breakpoints give the screen the class ``-narrow`` or ``-short``; only then is
    this shown, and the screens ignore game keys (:func:`too_small`).
    """

    SCOPED_CSS = False  # the rules below look at the screen's classes
    DEFAULT_CSS = """
    TooSmall { display: none; dock: top; layer: cover; width: 100%; height: 100%;
               background: $background; content-align: center middle; text-style: bold;
               padding: 1 2; }
    .-narrow TooSmall, .-short TooSmall { display: block; }
    """

    def __init__(self, lang: str) -> None:
        super().__init__()
        self.lang = lang

    def render(self) -> str:
        """The terminal's size and the size needed."""
        width, height = self.app.size
        return tr("too_small", self.lang, w=width, h=height, mw=MIN_WIDTH, mh=MIN_HEIGHT)

    def on_resize(self) -> None:
        """Say the new size."""
        self.refresh()


def too_small(screen: Screen[Any]) -> bool:
    """Whether ``screen`` is too small for the board (the app's breakpoints say so)."""
    return screen.has_class("-narrow") or screen.has_class("-short")
