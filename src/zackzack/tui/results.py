"""The results: the last round's winner, then one scrolling table of every seat with its place
(once the match is over), its total and the rounds' scores, latest first; the hint below.

The table (a Textual ``DataTable``) keeps place, name and total in view while the rounds
scroll sideways (← →) and the rows up and down (↑ ↓): six players and 35 rounds are readable
at 80 × 24, and the hint what Enter does stays on screen below the table.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.widgets import DataTable, Static

from zackzack.engine.table import TableView
from zackzack.games import entry
from zackzack.tui.texts import tr

ROUND_WORDS = 4
"""Up to this many rounds the columns say "Round n"; beyond, the number alone."""


def unit(game: str, lang: str) -> str:
    """What a round's score counts, in the game's words (minus points, cards held)."""
    return tr(entry(game).front.score_key, lang)


class Results(Vertical):
    """The results of the match so far, for the one person here (``reader``) if one."""

    DEFAULT_CSS = """
    Results { height: 1fr; padding: 0 1; }
    Results > #winner { height: auto; margin-bottom: 1; }
    Results > #title { height: 1; }
    Results > DataTable { height: 1fr; scrollbar-size: 1 1; }
    Results > #hint { height: auto; margin-top: 1; }
    """

    def __init__(self, lang: str, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.lang = lang
        self._shown: tuple[object, ...] = ()
        self._hint = ""

    def compose(self) -> ComposeResult:
        """The winner line, the title, the table, the hint."""
        yield Static(id="winner")
        yield Static(id="title")
        table: DataTable[Text] = DataTable(show_cursor=False, cursor_type="none",
                                           zebra_stripes=True, fixed_columns=3)
        table.can_focus = False  # the game screen's keys scroll it
        yield table
        yield Static(id="hint")

    @property
    def table(self) -> DataTable[Text]:
        """The table of seats and rounds."""
        return self.query_one(DataTable)

    def show(self, view: TableView, names: Sequence[str], now: int, end: str,
             reader: int | None = None) -> None:
        """Show ``view``'s results; ``end``: what the keys do once the match is over."""
        lang = self.lang
        winner = self.query_one("#winner", Static)
        if view.results:
            last = view.results[-1]
            key = "winner_you" if last.winner is not None and last.winner == reader else "winner"
            line = tr(key, lang, n=last.number, who=names[last.winner]) \
                if last.winner is not None else tr("no_winner", lang, n=last.number)
            winner.update(Text(line, style="bold reverse"))
        title = tr("match_over" if view.result is not None else "standings", lang)
        self.query_one("#title", Static).update(Text(
            f"{title} · {unit(view.game, lang)}"
            + (f" · {tr('latest_first', lang)}" if len(view.results) > 1 else ""), style="bold"))
        if view.result is not None:
            self._hint = end
        elif view.next_round_at is not None:
            self._hint = tr("next_in", lang, s=f"{max(0, view.next_round_at - now) / 1000:.0f}")
        else:
            self._hint = ""
        shown = (len(view.results), view.result, tuple(names), reader)
        if shown != self._shown:
            self._shown = shown
            self._fill(view, names, reader)
            self.call_after_refresh(self._say_hint)  # once the table knows what it overflows
        self._say_hint()

    def _say_hint(self) -> None:
        """What Enter does (or when the next round starts), and how to scroll if need be."""
        table = self.table
        hint = self._hint
        if table.max_scroll_x > 0 or table.max_scroll_y > 0:
            hint += f"   ({tr('scroll', self.lang)})"
        self.query_one("#hint", Static).update(Text(hint, style="bold italic"))

    def _fill(self, view: TableView, names: Sequence[str], reader: int | None) -> None:
        table, lang = self.table, self.lang
        table.clear(columns=True)
        rounds = list(reversed(view.results))
        places = {p.seat: p.place for p in view.result.placings} if view.result else {}
        table.fixed_columns = 3 if places else 2
        if places:
            table.add_column(tr("place_column", lang), key="place")
        table.add_column("", key="name")
        table.add_column(Text(tr("total", lang), justify="right"), key="total")
        for result in rounds:
            label = str(result.number) if len(rounds) > ROUND_WORDS \
                else tr("round", lang, n=result.number)
            table.add_column(Text(label, justify="right"), key=f"r{result.number}")
        seats = sorted(range(len(names)), key=lambda seat: (places.get(seat, 0), seat))
        for seat in seats:
            style = "bold" if seat == reader or places.get(seat) == 1 else ""
            place = [Text(f"{places[seat]}.", style=style)] if places else []
            total = str(view.totals[seat]) if seat < len(view.totals) else ""
            table.add_row(*place, Text(names[seat], style=style),
                          Text(total, style=f"bold {style}", justify="right"),
                          *(Text(str(result.scores[seat]), justify="right") for result in rounds),
                          key=str(seat))

    def scroll(self, dx: int, dy: int) -> None:
        """Scroll the table ``dx`` columns sideways (about), ``dy`` rows up or down."""
        self.table.scroll_relative(x=dx * 4, y=dy, animate=False)

    def plain(self) -> str:
        """Everything shown, as plain text: winner, title, the table's header and rows, hint."""
        table = self.table
        lines = [str(self.query_one(f"#{name}", Static).content) for name in ("winner", "title")]
        lines.append("  ".join(str(column.label) for column in table.columns.values()))
        lines += ["  ".join(str(cell) for cell in table.get_row_at(row))
                  for row in range(table.row_count)]
        lines.append(str(self.query_one("#hint", Static).content))
        return "\n".join(lines)
