"""Schnelllauf's keys: one key per place and pile, so that every play is a single stroke.

The digits ``1``–``5`` play places 1–5 onto pile 1, the letters of the home row below them
(``a s d f g``; on AZERTY, whose home row starts with Q, the row above: ``a z e r t``) onto
pile 2: never Q, whose everyday meaning is quit (it asks to quit). With two players at one
keyboard the left player keeps those and the right player plays with ``6``–``0`` and the
letters below (``y u i o p``, on QWERTZ ``z u i o p``); each has a cancel key on their
side: Esc on the left, Backspace on the right. The labels follow the keyboard layout
(``--keys qwerty|qwertz|azerty``); on AZERTY the unshifted digit keys (``& é " ' (`` …)
count as the digits.

>>> two = scheme(two=True, layout="qwertz")
>>> two.command("3"), two.command("u")
(PlacePile(hand=0, place=2, pile=0), PlacePile(hand=1, place=1, pile=1))
>>> two.command("s"), two.command("q")
(PlacePile(hand=0, place=1, pile=1), AskQuit())
>>> two.command("y") == two.command("z"), two.place_keys(1, 0), two.place_keys(0, 0)
(True, '6z', '1a')
>>> french = scheme(layout="azerty")
>>> french.command("a"), french.command("é"), french.place_keys(0, 0)
(PlacePile(hand=0, place=0, pile=1), PlacePile(hand=0, place=1, pile=0), '1a')
"""

from __future__ import annotations

from dataclasses import dataclass

from zackzack.tui.keys import (
    ALIASES,
    BACK_HELP,
    COMMON,
    COMMON_HELP,
    Cancel,
    Command,
    HelpRow,
    Scheme,
    Section,
)

Places = tuple[tuple[str, str], tuple[str, str]]
"""The keys of the places: ``places[hand][pile][place]``; hand 0 is the left (or only) one."""

LAYOUTS: dict[str, Places] = {
    "qwerty": (("12345", "asdfg"), ("67890", "yuiop")),
    "qwertz": (("12345", "asdfg"), ("67890", "zuiop")),
    "azerty": (("12345", "azert"), ("67890", "yuiop")),
}
"""The keys of each keyboard layout: the same places on the keyboard."""

PLACE_KEYS: Places = LAYOUTS["qwertz"]
"""The keys of the layout the game was first made with."""


@dataclass(frozen=True, slots=True)
class PlacePile(Command):
    """``hand`` (0 left/only, 1 right) plays place ``place`` onto pile ``pile``.

    On an empty place the key starts a move into it instead; the next place key of the same
    hand names the card to move there.
    """

    hand: int
    place: int
    pile: int


@dataclass(frozen=True, slots=True)
class PlaceScheme(Scheme):
    """The keys, and which key is which place's in this layout."""

    places: Places = PLACE_KEYS

    def place_keys(self, hand: int, place: int) -> str:
        """The two keys of a place: onto pile 1 and onto pile 2."""
        first, second = self.places[hand]
        return first[place] + second[place]


def scheme(two: bool = False, layout: str = "qwerty") -> PlaceScheme:
    """One key per place and pile, as ``layout`` has them; with ``two`` a second set on the
    keyboard's right half, and a cancel key for each side."""
    places = LAYOUTS[layout]
    keys: dict[str, Command] = dict(COMMON)
    if two:
        keys |= {"escape": Cancel(0), "backspace": Cancel(1)}
    sections: list[Section] = []
    for hand in range(2 if two else 1):
        first, second = places[hand]
        for pile, row in enumerate((first, second)):
            keys |= {key: PlacePile(hand, place, pile) for place, key in enumerate(row)}
        rows: tuple[HelpRow, ...] = (
            HelpRow(" ".join(first), "k_pile1"), HelpRow(" ".join(second), "k_pile2"),
            HelpRow(f"{first[2]}, {first[0]}", "k_move"))
        if two:
            rows += (HelpRow("Esc", "k_cancel") if hand == 0
                     else HelpRow("Backspace", "k_cancel_right"),)
        sections.append((("k_left", "k_right")[hand] if two else None, rows))
    rest = tuple(row for row in COMMON_HELP if row != BACK_HELP)  # Esc: the cancel rows
    common = rest if two else (HelpRow("Esc", "k_cancel"), *rest)
    sections.append(("k_both" if two else None, common))
    used = {key for hand in places[:2 if two else 1] for row in hand for key in row}
    aliases = {key: to for key, to in ALIASES[layout].items() if to in used}
    (l1, l2), (r1, r2) = places
    bar = {name: f"{row[0]}–{row[-1]}"
           for name, row in (("l1", l1), ("l2", l2), ("r1", r1), ("r2", r2))}
    return PlaceScheme(keys, tuple(sections), "bar_two" if two else "bar_sl", "k_ranks",
                       aliases, bar, places)
