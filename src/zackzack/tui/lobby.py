"""The waiting room of a remote table: who sits where, who is ready, and what Enter does."""

from __future__ import annotations

from collections.abc import Sequence

from rich.console import Group, RenderableType
from rich.text import Text

from zackzack.tui.session import Seat
from zackzack.tui.texts import tr


def waiting(seats: Sequence[Seat], mine: Sequence[int], lang: str, creator: bool,
            ready: bool, share: str | None = None) -> RenderableType:
    """The seats before the start; ``ready``: this keyboard said so already; ``share``: the
    table's link, shown with its code for the others to join."""
    lines = [Text(tr("waiting", lang), style="bold"), Text("")]
    if share:
        code = share.rstrip("/").rsplit("/", 1)[-1]
        lines += [Text(tr("share", lang)), Text(share, style="bold underline"),
                  Text(tr("share_code", lang, code=code), style="dim"), Text("")]
    for index, seat in enumerate(seats):
        line = Text(f"{index + 1}. ")
        if seat.kind == "open":
            line.append(tr("seat_open", lang), style="dim")
        else:
            line.append(seat.name, style="bold" if index in mine else "")
            line.append("  ✓" if seat.ready else "  …", style="green" if seat.ready else "dim")
            if not seat.connected:
                line.append(f" {tr('seat_gone', lang)}", style="dim")
            elif seat.lag == "slow" and index not in mine:
                line.append(f" ({tr('slow_connection', lang)})", style="italic")
        lines.append(line)
    lines.append(Text(""))
    if mine:
        key = "start_key" if creator else ("ready_done" if ready else "ready_key")
        lines.append(Text(tr(key, lang), style="italic"))
    return Group(*lines)
