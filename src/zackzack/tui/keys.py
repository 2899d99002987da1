"""The keys: which key does what, in one table per game (its ``keys.py``) that the help
screen prints, and the parts every game's keys share.

A game's folder builds its :class:`Scheme` from the commands here (the common keys, a hand
keyed by :data:`HAND_KEYS`) and its own :class:`Command` subclasses; the game screen looks
each key up and hands the board what the board alone understands. The labels may follow the
keyboard layout (``--keys qwerty|qwertz|azerty``).

>>> scheme = hand_scheme(9, bar="bar_hand", notes="k_card")
>>> scheme.command("1"), scheme.command("9"), scheme.command("0"), scheme.command("f1")
(HandCard(index=0), HandCard(index=8), None, ShowHelp())
>>> hand_key(10), hand_key(99), default_layout("de")
('w', '', 'qwertz')
>>> [key for key in QUIT_KEYS if scheme.command(key) not in (None, AskQuit(), Cancel())]
[]
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Generic, TypeVar

if TYPE_CHECKING:
    from _typeshed import SupportsRichComparison

HAND_KEYS = "1234567890wertyuiopasdfghjklzxcvbnm"
"""The keys of hand cards, in order: digits, then the letter rows (without Q: no key whose
everyday meaning is quit or cancel plays a card, :data:`QUIT_KEYS`)."""

QUIT_KEYS = ("q", "escape", "ctrl+c", "ctrl+q", "ctrl+d", "ctrl+w", "ctrl+z", "backspace")
"""Keys whose everyday meaning is to quit, cancel or undo: none of them plays (they quit,
ask first, cancel a half-done move, or do nothing)."""

KEYBOARDS = ("qwerty", "qwertz", "azerty")
"""The keyboard layouts the key labels can follow."""

ALIASES: dict[str, dict[str, str]] = {
    "qwerty": {"z": "y"},
    "qwertz": {"y": "z"},
    "azerty": {"ampersand": "1", "é": "2", "quotation_mark": "3", "apostrophe": "4",
               "left_parenthesis": "5", "minus": "6", "è": "7", "underscore": "8", "ç": "9",
               "à": "0"},
}
"""Keys that count as others on each layout: Y and Z (a player on the other layout still
finds them), and AZERTY's unshifted digit row."""


def default_layout(lang: str) -> str:
    """The layout most keyboards of ``lang`` have: QWERTZ for German, else QWERTY."""
    return "qwertz" if lang == "de" else "qwerty"


def hand_key(index: int) -> str:
    """The key of hand card ``index``, or ``""`` beyond the keys (the cursor reaches it)."""
    return HAND_KEYS[index] if index < len(HAND_KEYS) else ""


@dataclass(frozen=True, slots=True)
class Command:
    """What a key means; a game's own commands subclass it and its board acts on them."""


@dataclass(frozen=True, slots=True)
class HandCard(Command):
    """Play hand card number ``index`` (0 is the first)."""

    index: int


@dataclass(frozen=True, slots=True)
class MoveCursor(Command):
    """Move the hand cursor ``dx`` cards along or ``dy`` rows up or down."""

    dx: int
    dy: int = 0


@dataclass(frozen=True, slots=True)
class ShowHelp(Command):
    """Show the help screen."""


@dataclass(frozen=True, slots=True)
class AskQuit(Command):
    """Quit, asking first while a match is on."""


@dataclass(frozen=True, slots=True)
class Confirm(Command):
    """Enter: play the card under the cursor; ready before the start; again after the match."""


@dataclass(frozen=True, slots=True)
class Cancel(Command):
    """Esc: cancel a half-done move, or else ask to quit. Two at one keyboard, each side has
    its own: Esc the left player's (``hand`` 0), Backspace the right player's (``hand`` 1)."""

    hand: int | None = None


@dataclass(frozen=True, slots=True)
class HelpRow:
    """One line of the help screen: the keys and the text key of what they do."""

    keys: str
    text: str


COMMON: dict[str, Command] = {
    "question_mark": ShowHelp(), "f1": ShowHelp(), "ctrl+q": AskQuit(), "ctrl+c": AskQuit(),
    "q": AskQuit(), "escape": Cancel(),
    "backspace": Cancel(), "enter": Confirm(), "left": MoveCursor(-1), "right": MoveCursor(1),
    "up": MoveCursor(0, -1), "down": MoveCursor(0, 1),
}
"""Keys of every game; the arrows choose a hand card (where a board has a cursor) or scroll
the results."""
BACK_HELP = HelpRow("Esc", "k_back")
"""The help screen's line for Esc: one level back (a half-done move, the table, the lobby)."""
COMMON_HELP = (HelpRow("? F1", "k_help"), BACK_HELP, HelpRow("Q Ctrl+Q Ctrl+C", "k_quit"),
               HelpRow("Enter", "k_enter"))
"""The help screen's lines for :data:`COMMON`."""

Section = tuple[str | None, tuple[HelpRow, ...]]
"""A part of the help screen: its title's text key (``None``: untitled) and its lines."""


@dataclass(frozen=True, slots=True)
class Scheme:
    """A game's keys: what each key does, the help screen's lines and the footer's text."""

    keys: Mapping[str, Command]
    help: tuple[Section, ...]
    bar: str
    """The text key of the footer."""
    notes: str
    """The text key of the help screen's closing note."""
    aliases: Mapping[str, str] = field(default_factory=dict)
    bar_fields: Mapping[str, str] = field(default_factory=dict)
    """What the footer's text fills in (the keys of this layout, say)."""

    def command(self, key: str) -> Command | None:
        """What ``key`` (a Textual key name such as ``q``, ``space``) does here, if anything."""
        return self.keys.get(self.aliases.get(key, key))


def hand_scheme(size: int = len(HAND_KEYS), *, bar: str, notes: str,
                extra: Mapping[str, Command] | None = None, rows: Sequence[HelpRow] = (),
                cursor: bool = True) -> Scheme:
    """A hand game's keys: hand cards by ``1``–``0`` and the letters (the first ``size``),
    with ``cursor`` the arrows and Enter for any, and ``extra`` keys explained by ``rows``;
    the footer's text may name the last hand key, ``{last}``."""
    keys: dict[str, Command] = {key: HandCard(i) for i, key in enumerate(HAND_KEYS[:size])}
    keys |= {**(extra or {}), **COMMON}
    cards = (HelpRow("1 … 9 0", "k_card"), HelpRow("w … p  a … l  z … m", "k_card_more")) \
        if size > 10 else (HelpRow(f"1 … {HAND_KEYS[size - 1]}", "k_card"),)
    chosen = (HelpRow("← → ↑ ↓", "k_cursor"), HelpRow("Enter", "k_play_cursor"))
    common = COMMON_HELP[:-1] if cursor else COMMON_HELP  # the cursor's Enter says the rest
    help_rows = (*cards, *(chosen if cursor else ()), *rows, *common)
    return Scheme(keys, ((None, help_rows),), bar, notes,
                  bar_fields={"last": HAND_KEYS[size - 1]})


CardT = TypeVar("CardT", bound="SupportsRichComparison")
"""A hand's card: one that sorts (hands are keyed in order)."""


class StableKeys(Generic[CardT]):
    """A hand's keys: a card keeps its key as long as it is in the hand.

    The rule (the browser is to follow it too): a new round's hand is sorted and keyed in
    order, ``HAND_KEYS[0]``, ``HAND_KEYS[1]``, …; a card that leaves the hand frees its key;
    a card that comes (a draw) takes the first free key – usually that of the card played
    last – or, with every key taken, goes after the others without a key and takes the first
    key that frees. Of two equal cards, the one whose key was pressed leaves. The hand is
    shown in key order: a drawn card appears where the played one was.

    >>> keys: StableKeys[int] = StableKeys(4)
    >>> shown = lambda places: " ".join(str(card) if card else "_" for card in places)
    >>> shown(keys.arrange(1, [8, 3, 5]))
    '3 5 8'
    >>> keys.pressed(1); shown(keys.arrange(1, [8, 3]))
    '3 _ 8'
    >>> shown(keys.arrange(1, [8, 3, 1]))
    '3 1 8'
    >>> shown(keys.arrange(1, [8, 3, 1, 2, 7]))
    '3 1 8 2 7'
    >>> keys.pressed(0); shown(keys.arrange(1, [8, 1, 2, 7]))
    '7 1 8 2'
    >>> shown(keys.arrange(2, [8, 1]))  # a new round: sorted afresh
    '1 8'
    """

    def __init__(self, size: int = len(HAND_KEYS)) -> None:
        self.size = size
        """How many keys there are: places from ``size`` on have none."""
        self.places: list[CardT | None] = []
        """Place ``i`` holds the card of key ``i`` (``None``: free)."""
        self.round: int | None = None
        self.last: int | None = None
        """The place whose key was pressed last."""

    def arrange(self, round: int, hand: Sequence[CardT]) -> list[CardT | None]:
        """The places of ``hand`` (a view's hand, in round ``round``), keeping every card that
        stayed where it was; trailing free places are left off."""
        if round != self.round or not any(card is not None for card in self.places):
            self.round, self.last = round, None
            self.places = list(sorted(hand))
            return list(self.places)
        left = Counter(hand)
        places: list[CardT | None] = [None] * len(self.places)
        for place in sorted(range(len(self.places)), key=lambda p: p == self.last):
            card = self.places[place]
            if card is not None and left[card] > 0:
                places[place] = card
                left[card] -= 1
        keyless = [card for card in places[self.size:] if card is not None]
        coming = [*keyless, *sorted(left.elements())]
        places = places[:self.size]
        for place, card in enumerate(places):
            if card is None and coming:
                places[place] = coming.pop(0)
        places += coming
        while places and places[-1] is None:
            places.pop()
        self.places = places
        return list(places)

    def pressed(self, place: int) -> None:
        """The key of ``place`` was pressed (or Enter on its card): its card is on the way."""
        self.last = place
