"""Cards drawn as text: a card is a block of equal-width lines; blocks stand side by side.

Unter Spannung spreads differ by colour *and* by a mark (● ±1, ◆ ±2, ▲ ±3), Schnelllauf
suits by colour and symbol, so that both games read without colour (``NO_COLOR``):

>>> from zackzack.games import unter_spannung as us
>>> print(plain(us_card(us.Card(7, 2), key="1")))
╭1───╮
│ 7  │
│◆±2 │
╰────╯
>>> from zackzack.games import schnelllauf as sl
>>> print(plain(beside([sl_card(sl.Card.parse("10h"), 2, "1q"), sl_card(None, 0, "2w")])))
╭1q──╮ ╭2w┄┄╮
│ 10♥│ ┆    ┆
│ +2 │ ┆    ┆
╰────╯ ╰┄┄┄┄╯
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import msgspec
from rich.text import Text

from zackzack.games import schnelllauf as sl
from zackzack.games import unter_spannung as us
from zackzack.games.base import Event

Block = list[Text]
"""A card (or a group of cards): lines of equal cell width."""

SPREADS: dict[int, tuple[str, str]] = {1: ("●", "bold #5fafff"), 2: ("◆", "bold #ffaf5f"),
                                       3: ("▲", "bold #d787ff")}
"""Each spread's mark and colour (light ones, so that they stay bright without colour)."""

SUITS: dict[str, tuple[str, str]] = {"c": ("♣", "bold"), "d": ("♦", "bold red"),
                                     "h": ("♥", "bold red"), "s": ("♠", "bold")}
"""Each suit's symbol and colour."""

RANKS = ("★", "A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
"""Rank names; rank 0 is the joker."""

_ROUND = "╭╮╰╯─│"
_HEAVY = "┏┓┗┛━┃"
_DASHED = "╭╮╰╯┄┆"


def _frame(inner: Sequence[Text], width: int, key: str = "", corners: str = _ROUND,
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


def us_card(card: us.Card, key: str = "", *, chosen: bool = False, dim: bool = False) -> Block:
    """A hand card of Unter Spannung: its key, its value and its spread with the mark."""
    mark, colour = SPREADS[card.spread]
    value = Text(f"{card.value:^4}", style="bold")
    spread = Text(f"{mark}±{card.spread}", style=colour)
    style = "bold bright_white" if chosen else ("dim" if dim else "")
    return _frame([value, spread], 4, key, _HEAVY if chosen else _ROUND, style)


def us_top(card: us.Card) -> Block:
    """The top card of the discard pile, large."""
    mark, colour = SPREADS[card.spread]
    value = Text(f"{card.value:^7}", style="bold reverse")
    spread = Text(f"{mark} ±{card.spread}".center(7), style=colour)
    return _frame([value, spread], 7, style="bold")


def back(count: int) -> Block:
    """A face-down pile of ``count`` cards (an empty place when there are none)."""
    if not count:
        return _frame([Text(""), Text(" 0  ", style="dim")], 4, corners=_DASHED, style="dim")
    shade = Text("░░░░", style="blue")
    number = Text(f"{count:^4}", style="bold")
    return _frame([shade, number], 4)


def sl_face(card: sl.Card) -> Text:
    """A Schnelllauf card as rank and coloured suit (a yellow star for the joker)."""
    if card.suit is None:
        return Text("★", style="bold yellow")
    symbol, colour = SUITS[card.suit.value]
    return Text(RANKS[card.rank], style="bold") + Text(symbol, style=colour)


def readable(event: Event) -> Event:
    """``event`` with its Schnelllauf cards written as the board shows them, for the log.

    >>> readable(sl.Flipped((sl.Card.parse("8c"), sl.JOKER), (3, 4))).cards
    ('8♣', '★')
    """
    changed: dict[str, Any] = {}
    for name in ("card", "revealed", "cards"):
        value = getattr(event, name, None)
        if isinstance(value, sl.Card):
            changed[name] = sl_face(value).plain
        elif isinstance(value, tuple) and any(isinstance(card, sl.Card) for card in value):
            changed[name] = tuple(sl_face(card).plain if isinstance(card, sl.Card) else card
                                  for card in value)
    return msgspec.structs.replace(event, **changed) if changed else event


def sl_card(card: sl.Card | None, under: int, key: str = "", *, target: bool = False) -> Block:
    """A layout place: its face-up card and the face-down cards under it, or an empty place."""
    if card is None:
        body = Text(" →  " if target else "", style="bold reverse" if target else "")
        return _frame([body, Text("")], 4, key, _HEAVY if target else _DASHED,
                      "bold" if target else "dim")
    face = sl_face(card)
    face = Text(" " * ((4 - face.cell_len + 1) // 2)) + face
    rest = Text(f" +{under}" if under else "", style="dim")
    return _frame([face, rest], 4, key)


def sl_top(card: sl.Card | None, stands: frozenset[int] | None, free: str) -> Block:
    """A discard pile's top, large; a joker shows what it stands for (or ``free``)."""
    if card is None:
        return _frame([Text("")] * 2, 7, corners=_DASHED, style="dim")
    face = sl_face(card)
    centred = Text(" " * ((7 - face.cell_len + 1) // 2)) + face
    note = Text("")
    if card.suit is None:
        note = Text(free if stands is None else "|".join(RANKS[r] for r in sorted(stands)),
                    style="yellow")
        note = Text(" " * max(0, (7 - note.cell_len) // 2)) + note
    return _frame([centred, note], 7, style="bold")


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
