"""The key schemes: which key does what, in one table per game that the help screen prints.

Unter Spannung: ``1``–``9``, ``0``, then the letters row by row name the hand cards; the
arrows and Enter reach any card of a longer hand; Space draws. Schnelllauf: one key per
place and pile, so that every play is a single stroke; the digits ``1``–``5`` play places
1–5 onto pile 1, the letters below them (``q w e r t``, on AZERTY ``a z e r t``) onto pile 2.
With two players at one keyboard the left player keeps those and the right player plays
with ``6``–``0`` and the letters below (``y u i o p``, on QWERTZ ``z u i o p``); each has
a cancel key on their side: Esc on the left, Backspace on the right. The labels follow the
keyboard layout (``--keys qwerty|qwertz|azerty``); on AZERTY the unshifted digit keys
(``& é " ' (`` …) count as the digits.

>>> scheme = unter_spannung()
>>> scheme.command("1"), scheme.command("q"), scheme.command("space")
(HandCard(index=0), HandCard(index=10), DrawCard())
>>> two = schnelllauf(two=True, layout="qwertz")
>>> two.command("3"), two.command("u")
(PlacePile(hand=0, place=2, pile=0), PlacePile(hand=1, place=1, pile=1))
>>> two.command("y") == two.command("z"), two.place_keys(1, 0)
(True, '6z')
>>> french = schnelllauf(layout="azerty")
>>> french.command("a"), french.command("é"), french.place_keys(0, 0)
(PlacePile(hand=0, place=0, pile=1), PlacePile(hand=0, place=1, pile=0), '1a')
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from zackzack.games import unter_spannung as us

HAND_KEYS = "1234567890qwertyuiopasdfghjklzxcvbnm"
"""The keys of the hand cards of Unter Spannung, in order: digits, then the letter rows."""

Places = tuple[tuple[str, str], tuple[str, str]]
"""Schnelllauf's keys: ``places[hand][pile][place]``; hand 0 is the left (or only) player."""

LAYOUTS: dict[str, Places] = {
    "qwerty": (("12345", "qwert"), ("67890", "yuiop")),
    "qwertz": (("12345", "qwert"), ("67890", "zuiop")),
    "azerty": (("12345", "azert"), ("67890", "yuiop")),
}
"""The Schnelllauf keys of each keyboard layout: the same places on the keyboard."""

ALIASES: dict[str, dict[str, str]] = {
    "qwerty": {"z": "y"},
    "qwertz": {"y": "z"},
    "azerty": {"ampersand": "1", "é": "2", "quotation_mark": "3", "apostrophe": "4",
               "left_parenthesis": "5", "minus": "6", "è": "7", "underscore": "8", "ç": "9",
               "à": "0"},
}
"""Keys that count as others: Y and Z (a player on the other layout still finds them), and
AZERTY's unshifted digit row."""

PLACE_KEYS: Places = LAYOUTS["qwertz"]
"""The keys of the layout the game was first made with."""


def default_layout(lang: str) -> str:
    """The layout most keyboards of ``lang`` have: QWERTZ for German, else QWERTY."""
    return "qwertz" if lang == "de" else "qwerty"


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
    """Esc: cancel a half-done move, or else ask to quit. Two at one keyboard, each side has
    its own: Esc the left player's (``hand`` 0), Backspace the right player's (``hand`` 1)."""

    hand: int | None = None


@dataclass(frozen=True, slots=True)
class HelpRow:
    """One line of the help screen: the keys and the text key of what they do."""

    keys: str
    text: str


Command = HandCard | DrawCard | MoveCursor | PlacePile | ShowHelp | AskQuit | Confirm | Cancel

_COMMON: dict[str, Command] = {
    "question_mark": ShowHelp(), "f1": ShowHelp(), "ctrl+q": AskQuit(), "escape": Cancel(),
    "backspace": Cancel(), "enter": Confirm(), "left": MoveCursor(-1), "right": MoveCursor(1),
    "up": MoveCursor(0, -1), "down": MoveCursor(0, 1),
}
"""Keys of both games; the arrows choose a hand card (Unter Spannung) or scroll the results."""
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
    places: Places = PLACE_KEYS
    """Schnelllauf's keys in this layout."""

    def bar_fields(self) -> dict[str, str]:
        """The keys the key bar names: ``l1``/``l2`` (left, piles 1/2), ``r1``/``r2``."""
        (l1, l2), (r1, r2) = self.places
        return {name: f"{keys[0]}–{keys[-1]}"
                for name, keys in (("l1", l1), ("l2", l2), ("r1", r1), ("r2", r2))}

    def command(self, key: str) -> Command | None:
        """What ``key`` (a Textual key name such as ``q``, ``space``) does here, if anything."""
        return self.keys.get(self.aliases.get(key, key))

    @staticmethod
    def hand_key(index: int) -> str:
        """The key of hand card ``index``, or ``""`` beyond the keys (the cursor reaches it)."""
        return HAND_KEYS[index] if index < len(HAND_KEYS) else ""

    def place_keys(self, hand: int, place: int) -> str:
        """The two keys of a Schnelllauf place: onto pile 1 and onto pile 2."""
        first, second = self.places[hand]
        return first[place] + second[place]


def unter_spannung() -> Scheme:
    """Hand cards by ``1``–``0`` and the letters, the arrows and Enter for any, Space draws."""
    keys: dict[str, Command] = {key: HandCard(i) for i, key in enumerate(HAND_KEYS)}
    keys |= {"space": DrawCard(), **_COMMON}
    rows = (HelpRow("1 … 9 0", "k_card"), HelpRow("q … p  a … l  z … m", "k_card_more"),
            HelpRow("← → ↑ ↓", "k_cursor"), HelpRow("Enter", "k_play_cursor"),
            HelpRow("Space", "k_draw"), *_COMMON_HELP[:2])  # Enter is above
    return Scheme(keys, ((None, rows),), "bar_us", "k_spread")


def schnelllauf(two: bool = False, layout: str = "qwerty") -> Scheme:
    """One key per place and pile, as ``layout`` has them; with ``two`` a second set on the
    keyboard's right half, and a cancel key for each side."""
    places = LAYOUTS[layout]
    keys: dict[str, Command] = dict(_COMMON)
    if two:
        keys |= {"escape": Cancel(0), "backspace": Cancel(1)}
    sections: list[tuple[str | None, tuple[HelpRow, ...]]] = []
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
    common = _COMMON_HELP if two else (HelpRow("Esc", "k_cancel"), *_COMMON_HELP)
    sections.append(("k_both" if two else None, common))
    used = {key for hand in places[:2 if two else 1] for row in hand for key in row}
    aliases = {key: to for key, to in ALIASES[layout].items() if to in used}
    return Scheme(keys, tuple(sections), "bar_two" if two else "bar_sl", "k_ranks", aliases,
                  places)


class StableKeys:
    """Unter Spannung's hand keys: a card keeps its key as long as it is in the hand.

    The rule (the browser is to follow it too): a new round's hand is sorted by value and
    spread and keyed in order, ``HAND_KEYS[0]``, ``HAND_KEYS[1]``, …; a card that leaves the
    hand frees its key; a card that comes (a draw) takes the first free key – usually that of
    the card played last – or, with every key taken, goes after the others without a key and
    takes the first key that frees. Of two equal cards, the one whose key was pressed leaves.
    The hand is shown in key order: a drawn card appears where the played one was.

    >>> from zackzack.games.unter_spannung import Card
    >>> keys = StableKeys(4)
    >>> shown = lambda places: " ".join(str(card) if card else "_" for card in places)
    >>> shown(keys.arrange(1, [Card(8, 2), Card(3, 1), Card(5, 3)]))
    '3±1 5±3 8±2'
    >>> keys.pressed(1); shown(keys.arrange(1, [Card(8, 2), Card(3, 1)]))
    '3±1 _ 8±2'
    >>> shown(keys.arrange(1, [Card(8, 2), Card(3, 1), Card(1, 1)]))
    '3±1 1±1 8±2'
    >>> shown(keys.arrange(1, [Card(8, 2), Card(3, 1), Card(1, 1), Card(2, 2), Card(7, 1)]))
    '3±1 1±1 8±2 2±2 7±1'
    >>> keys.pressed(0); shown(keys.arrange(1, [Card(8, 2), Card(1, 1), Card(2, 2), Card(7, 1)]))
    '7±1 1±1 8±2 2±2'
    >>> shown(keys.arrange(2, [Card(8, 2), Card(1, 1)]))  # a new round: sorted afresh
    '1±1 8±2'
    """

    def __init__(self, size: int = len(HAND_KEYS)) -> None:
        self.size = size
        """How many keys there are: places from ``size`` on have none."""
        self.places: list[us.Card | None] = []
        """Place ``i`` holds the card of key ``i`` (``None``: free)."""
        self.round: int | None = None
        self.last: int | None = None
        """The place whose key was pressed last."""

    def arrange(self, round: int, hand: Sequence[us.Card]) -> list[us.Card | None]:
        """The places of ``hand`` (a view's hand, in round ``round``), keeping every card that
        stayed where it was; trailing free places are left off."""
        if round != self.round or not any(card is not None for card in self.places):
            self.round, self.last = round, None
            self.places = list(sorted(hand))
            return list(self.places)
        left = Counter(hand)
        places: list[us.Card | None] = [None] * len(self.places)
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
