"""The key schemes: which key does what, in one table per game that the help screen prints.

Unter Spannung: ``1``–``9``, ``0``, then the letters row by row name the hand cards; the
arrows and Enter reach any card of a longer hand; Space draws. Schnelllauf: one key per
place and pile, so that every play is a single stroke; the digits ``1``–``5`` play places
1–5 onto pile 1, ``q w e r t`` onto pile 2. With two players at one keyboard the left
player keeps those and the right player plays with ``6``–``0`` and ``z``/``y u i o p``.

>>> scheme = unter_spannung()
>>> scheme.command("1"), scheme.command("q"), scheme.command("space")
(HandCard(index=0), HandCard(index=10), DrawCard())
>>> two = schnelllauf(two=True)
>>> two.command("3"), two.command("u")
(PlacePile(hand=0, place=2, pile=0), PlacePile(hand=1, place=1, pile=1))
>>> two.command("y") == two.command("z"), two.place_keys(1, 0)
(True, '6z')
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

HAND_KEYS = "1234567890qwertyuiopasdfghjklzxcvbnm"
"""The keys of the hand cards of Unter Spannung, in order: digits, then the letter rows."""

PLACE_KEYS: tuple[tuple[str, str], ...] = (("12345", "qwert"), ("67890", "zuiop"))
"""Schnelllauf: ``PLACE_KEYS[hand][pile][place]``; hand 0 is the left (or only) player."""

RIGHT_ALIASES = {"y": "z"}
"""For the right player, ``y`` acts like ``z``: German keyboards swap the two."""


@dataclass(frozen=True, slots=True)
class HandCard:
    """Unter Spannung: play hand card number ``index`` (0 is the first)."""

    index: int


@dataclass(frozen=True, slots=True)
class DrawCard:
    """Unter Spannung: draw a card from one's own draw pile."""


@dataclass(frozen=True, slots=True)
class MoveCursor:
    """Move the hand cursor ``dx`` cards along or ``dy`` rows up or down."""

    dx: int
    dy: int = 0


@dataclass(frozen=True, slots=True)
class PlacePile:
    """Schnelllauf: ``hand`` (0 left/only, 1 right) plays place ``place`` onto pile ``pile``.

    On an empty place the key starts a move into it instead; the next place key of the same
    hand names the card to move there.
    """

    hand: int
    place: int
    pile: int


@dataclass(frozen=True, slots=True)
class ShowHelp:
    """Show the help screen."""


@dataclass(frozen=True, slots=True)
class AskQuit:
    """Quit, asking first while a match is on."""


@dataclass(frozen=True, slots=True)
class Confirm:
    """Enter: play the card under the cursor; ready before the start; again after the match."""


@dataclass(frozen=True, slots=True)
class Cancel:
    """Esc: cancel a half-done move, or else ask to quit."""


@dataclass(frozen=True, slots=True)
class HelpRow:
    """One line of the help screen: the keys and the text key of what they do."""

    keys: str
    text: str


Command = HandCard | DrawCard | MoveCursor | PlacePile | ShowHelp | AskQuit | Confirm | Cancel

_COMMON: dict[str, Command] = {
    "question_mark": ShowHelp(), "f1": ShowHelp(), "ctrl+q": AskQuit(), "escape": Cancel(),
    "backspace": Cancel(), "enter": Confirm(),
}
_COMMON_HELP = (HelpRow("? F1", "k_help"), HelpRow("Esc Ctrl+Q", "k_quit"),
                HelpRow("Enter", "k_enter"))


@dataclass(frozen=True, slots=True)
class Scheme:
    """A game's keys: what each key does, the help screen's lines and the footer's text."""

    keys: Mapping[str, Command]
    help: tuple[tuple[str | None, tuple[HelpRow, ...]], ...]
    bar: str
    notes: str
    aliases: Mapping[str, str] = field(default_factory=dict)

    def command(self, key: str) -> Command | None:
        """What ``key`` (a Textual key name such as ``q``, ``space``) does here, if anything."""
        return self.keys.get(self.aliases.get(key, key))

    @staticmethod
    def hand_key(index: int) -> str:
        """The key of hand card ``index``, or ``""`` beyond the keys (the cursor reaches it)."""
        return HAND_KEYS[index] if index < len(HAND_KEYS) else ""

    @staticmethod
    def place_keys(hand: int, place: int) -> str:
        """The two keys of a Schnelllauf place: onto pile 1 and onto pile 2."""
        first, second = PLACE_KEYS[hand]
        return first[place] + second[place]


def unter_spannung() -> Scheme:
    """Hand cards by ``1``–``0`` and the letters, the arrows and Enter for any, Space draws."""
    keys: dict[str, Command] = {key: HandCard(i) for i, key in enumerate(HAND_KEYS)}
    keys |= {"space": DrawCard(), "left": MoveCursor(-1), "right": MoveCursor(1),
             "up": MoveCursor(0, -1), "down": MoveCursor(0, 1), **_COMMON}
    rows = (HelpRow("1 … 9 0", "k_card"), HelpRow("q … p  a … l  z … m", "k_card"),
            HelpRow("← → ↑ ↓", "k_cursor"), HelpRow("Enter", "k_play_cursor"),
            HelpRow("Space", "k_draw"), *_COMMON_HELP[:2])  # Enter is above
    return Scheme(keys, ((None, rows),), "bar_us", "k_spread")


def schnelllauf(two: bool = False) -> Scheme:
    """One key per place and pile; with ``two`` a second set on the keyboard's right half."""
    keys: dict[str, Command] = dict(_COMMON)
    sections: list[tuple[str | None, tuple[HelpRow, ...]]] = []
    for hand in range(2 if two else 1):
        first, second = PLACE_KEYS[hand]
        for pile, row in enumerate((first, second)):
            keys |= {key: PlacePile(hand, place, pile) for place, key in enumerate(row)}
        rows = (HelpRow(" ".join(first), "k_pile1"),
                HelpRow(" ".join(second).replace("z", "z/y"), "k_pile2"),
                HelpRow(f"{first[2]}, {first[0]}", "k_move"))
        sections.append((("k_left", "k_right")[hand] if two else None, rows))
    sections.append(("k_both" if two else None,
                     (HelpRow("Esc Backspace" if two else "Esc", "k_cancel"), *_COMMON_HELP)))
    return Scheme(keys, tuple(sections), "bar_two" if two else "bar_sl", "k_ranks",
                  RIGHT_ALIASES if two else {})
