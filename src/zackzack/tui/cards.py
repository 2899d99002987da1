"""Cards drawn as text: a card is a block of equal-width lines; blocks stand side by side.

A game's board draws its own cards (in its folder) with :func:`frame`; a face should read
without colour too (``NO_COLOR``): a mark or a symbol beside the colour.

>>> from rich.text import Text
>>> print(plain(beside([frame([Text(" 7"), Text(" ±2")], 4, "1"), back(3), back(0)])))
╭1───╮ ╭────╮ ╭┄┄┄┄╮
│ 7  │ │░░░░│ ┆    ┆
│ ±2 │ │ 3  │ ┆ 0  ┆
╰────╯ ╰────╯ ╰┄┄┄┄╯
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text

Block = list[Text]
"""A card (or a group of cards): lines of equal cell width."""

ROUND = "╭╮╰╯─│"
"""A card's corners and edges."""
HEAVY = "┏┓┗┛━┃"
"""A chosen card's (or a move's target's) corners and edges."""
DASHED = "╭╮╰╯┄┆"
"""An empty place's corners and edges."""


def frame(inner: Sequence[Text], width: int, key: str = "", corners: str = ROUND,
          style: str = "") -> Block:
    """``inner`` lines inside a border of ``corners``; ``key`` sits in the top edge."""
    tl, tr, bl, br, h, v = tuple(corners)
    top = Text(tl, style=style)
    top.append(key, style="bold reverse" if key else "")
    top.append(h * (width - len(key)) + tr, style=style)
    lines = [top]
    for line in inner:
        body = line.copy()
        body.truncate(width, pad=True)
        lines.append(Text(v, style=style) + body + Text(v, style=style))
    lines.append(Text(bl + h * width + br, style=style))
    return lines


def centred(text: Text, width: int) -> Text:
    """``text`` with the spaces before it that centre it in ``width`` cells."""
    return Text(" " * max(0, (width - text.cell_len + 1) // 2)) + text


def back(count: int) -> Block:
    """A face-down pile of ``count`` cards (an empty place when there are none)."""
    if not count:
        return frame([Text(""), Text(" 0  ", style="dim")], 4, corners=DASHED, style="dim")
    shade = Text("░░░░", style="blue")
    number = Text(f"{count:^4}", style="bold")
    return frame([shade, number], 4)


def beside(blocks: Sequence[Block], gap: int = 1) -> Block:
    """Blocks side by side, top-aligned, ``gap`` spaces apart."""
    if not blocks:
        return []
    height = max(len(block) for block in blocks)
    lines = []
    for row in range(height):
        line = Text()
        for i, block in enumerate(blocks):
            if i:
                line.append(" " * gap)
            width = max((part.cell_len for part in block), default=0)
            part = block[row].copy() if row < len(block) else Text("")
            part.truncate(width, pad=True)
            line.append_text(part)
        lines.append(line)
    return lines


def plain(block: Block) -> str:
    """The block as plain text (for tests and doctests)."""
    return "\n".join(line.plain.rstrip() for line in block)
