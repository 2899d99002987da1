"""The results panel: the last round, every round's scores and totals, the match's placings."""

from __future__ import annotations

from collections.abc import Sequence

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from zackzack.table import TableView
from zackzack.tui.texts import tr


def unit(game: str, lang: str) -> str:
    """What a round's score counts: minus points (Unter Spannung) or cards held (Schnelllauf)."""
    return tr("minus_points" if game == "unter-spannung" else "cards_held", lang)


def results(view: TableView, names: Sequence[str], lang: str, now: int, again: bool,
            reader: int | None = None) -> RenderableType:
    """The results of ``view``'s match so far for ``reader`` (the one person here, if one);
    ``again``: a new match is one key away."""
    parts: list[RenderableType] = []
    if view.results:
        last = view.results[-1]
        key = "winner_you" if last.winner is not None and last.winner == reader else "winner"
        line = tr(key, lang, n=last.number, who=names[last.winner]) \
            if last.winner is not None else tr("no_winner", lang, n=last.number)
        parts += [Text(line, style="bold reverse"), Text("")]
    parts.append(Text(f"{tr('standings', lang)} · {unit(view.game, lang)}", style="bold"))
    table = Table(box=None, padding=(0, 2))
    table.add_column("")
    many = len(view.results) > 4  # up to 12 rounds in a tournament: numbers only
    for result in view.results:
        table.add_column(str(result.number) if many else tr("round", lang, n=result.number),
                         justify="right")
    if len(view.results) > 1:
        table.add_column(tr("total", lang), justify="right", style="bold")
    for seat, name in enumerate(names):
        row = [name, *(str(result.scores[seat]) for result in view.results)]
        if len(view.results) > 1:
            row.append(str(view.totals[seat]))
        table.add_row(*row)
    parts += [table, Text("")]
    if view.result is not None:
        parts.append(Text(tr("match_over", lang), style="bold reverse"))
        for placing in view.result.placings:
            parts.append(Text(f"{tr('place', lang, n=placing.place)} {names[placing.seat]}  "
                              f"{placing.score} {unit(view.game, lang)}",
                              style="bold" if placing.place == 1 else ""))
        parts += [Text(""), Text(tr("again" if again else "again_remote", lang), style="italic")]
    elif view.next_round_at is not None:
        seconds = max(0, view.next_round_at - now) / 1000
        parts.append(Text(tr("next_in", lang, s=f"{seconds:.0f}"), style="bold"))
    return Group(*parts)
