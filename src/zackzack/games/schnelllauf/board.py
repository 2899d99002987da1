"""The Schnelllauf board: both layouts, the two discard piles, the reserves.

Alone against a bot, the bot's layout is on top and yours below; two at one keyboard,
the left player's layout is on the left and the right player's on the right, like the
halves of the keyboard they play with. Suits differ by colour and symbol, so that the cards
read without colour (``NO_COLOR``):

>>> from zackzack.tui.cards import beside, plain
>>> print(plain(beside([place_card(sl.Card.parse("10h"), 2, "1q"), place_card(None, 0, "2w")])))
╭1q──╮ ╭2w┄┄╮
│ 10♥│ ┆    ┆
│ +2 │ ┆    ┆
╰────╯ ╰┄┄┄┄╯
"""

from __future__ import annotations

import re

from rich.text import Text

from zackzack.games import schnelllauf as sl
from zackzack.games.base import Event
from zackzack.games.schnelllauf.keys import PlacePile, PlaceScheme, scheme
from zackzack.table import TableView
from zackzack.tui.board import Board, label
from zackzack.tui.cards import DASHED, HEAVY, Block, beside, centred, frame
from zackzack.tui.keys import Command, default_layout
from zackzack.tui.session import Session
from zackzack.tui.texts import cards, tr

SUITS: dict[str, tuple[str, str]] = {"c": ("♣", "bold"), "d": ("♦", "bold red"),
                                     "h": ("♥", "bold red"), "s": ("♠", "bold")}
"""Each suit's symbol and colour."""

RANKS = ("★", "A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
"""Rank names; rank 0 is the joker."""


def face(card: sl.Card) -> Text:
    """A card as rank and coloured suit (a yellow star for the joker)."""
    if card.suit is None:
        return Text("★", style="bold yellow")
    symbol, colour = SUITS[card.suit.value]
    return Text(RANKS[card.rank], style="bold") + Text(symbol, style=colour)


def place_card(card: sl.Card | None, under: int, key: str = "", *,
               target: bool = False) -> Block:
    """A layout place: its face-up card and the face-down cards under it, or an empty place."""
    if card is None:
        body = Text(" →  " if target else "", style="bold reverse" if target else "")
        return frame([body, Text("")], 4, key, HEAVY if target else DASHED,
                     "bold" if target else "dim")
    rest = Text(f" +{under}" if under else "", style="dim")
    return frame([centred(face(card), 4), rest], 4, key)


def top_card(card: sl.Card | None, stands: frozenset[int] | None, free: str) -> Block:
    """A discard pile's top, large; a joker shows what it stands for (or ``free``)."""
    if card is None:
        return frame([Text("")] * 2, 7, corners=DASHED, style="dim")
    note = Text("")
    if card.suit is None:
        note = Text(free if stands is None else "|".join(RANKS[r] for r in sorted(stands)),
                    style="yellow")
        note = Text(" " * max(0, (7 - note.cell_len) // 2)) + note
    return frame([centred(face(card), 7), note], 7, style="bold")


def readable(event: Event, line: str) -> str:
    """The log's sentence ``line`` about ``event`` with the event's cards written as the board
    shows them (``8♣`` for ``8c``): the event keeps its cards, only the text changes.

    >>> readable(sl.Flipped((sl.Card.parse("8c"), sl.JOKER), (3, 4)), "Flipped: 8c, *.")
    'Flipped: 8♣, ★.'
    >>> readable(sl.Flipped((sl.Card.parse("10s"), None), (3, 4)), "10s on 10 s")
    '10♠ on 10 s'
    """
    for card in _cards(event):
        line = re.sub(rf"(?<![\w*]){re.escape(str(card))}(?![\w*])", face(card).plain, line)
    return line


def _cards(event: Event) -> set[sl.Card]:
    """The cards an event names (``card``, ``revealed``, ``cards``)."""
    found: set[sl.Card] = set()
    for name in ("card", "revealed", "cards"):
        value = getattr(event, name, None)
        for card in value if isinstance(value, tuple) else (value,):
            if isinstance(card, sl.Card):
                found.add(card)
    return found


class SlBoard(Board):
    """The Schnelllauf round as the seats at this keyboard see it."""

    def __init__(self, session: Session, scheme: PlaceScheme, lang: str) -> None:
        super().__init__(session, scheme, lang)
        self.places = scheme
        """The keys, with the places'."""
        self.moving: dict[int, int] = {}
        """Half-done moves: hand → the empty place the next card goes to."""

    def versions(self, view: TableView) -> tuple[int, ...]:
        """Both discard piles' versions."""
        return tuple(view.shown.versions)

    def readable(self, event: Event, line: str) -> str:
        """The log's ``line`` about ``event`` with its cards as the board shows them."""
        return readable(event, line)

    def command(self, command: Command) -> bool:
        """Play a place onto a pile, or move a card into an empty place (two keys)."""
        if not isinstance(command, PlacePile) or command.hand >= len(self.session.mine):
            return False
        seat = self.session.mine[command.hand]
        view = self.view(seat)
        if view is None:
            return True
        state: sl.View = view.shown
        target = self.moving.pop(command.hand, None)
        card, _ = state.layouts[seat][command.place]
        if target is not None:
            if target != command.place:
                self.session.act(seat, sl.Move(command.place, target))
        elif card is None:
            self.moving[command.hand] = command.place
        else:
            seen = self.sightings.aimed(command.pile, state.versions[command.pile])
            self.session.act(seat, sl.Play(card, command.pile, seen=seen))
        self.refresh()
        return True

    def cancel(self, hand: int | None = None) -> bool:
        """Forget the half-done move of ``hand`` (``None``: every one)."""
        if hand is None:
            had = bool(self.moving)
            self.moving.clear()
        else:
            had = self.moving.pop(hand, None) is not None
        self.refresh()
        return had

    def prompt(self) -> str:
        """What a half-done move waits for, if one does."""
        for place in self.moving.values():
            return tr("move_to", self.lang, n=place + 1)
        return ""

    def lines(self, width: int) -> Block:
        """The layouts and the piles."""
        mine = self.session.mine
        view = self.view(mine[0] if mine else None)
        if view is None:
            return []
        state: sl.View = view.shown
        if len(mine) == 2:
            halves = [self._layout(view, state, seat, hand) for hand, seat in enumerate(mine)]
            half = max(line.cell_len for line in halves[0])
            gap = max(2, width - 2 * half)
            return [*self._piles(state, width), Text(""), *beside(halves, gap=gap)]
        me = mine[0] if mine else 1
        other = 1 - me
        return [*self._layout(view, state, other, None), *self._piles(state, width),
                Text(""), *self._layout(view, state, me, 0 if mine else None)]

    def _layout(self, view: TableView, state: sl.View, seat: int, hand: int | None) -> Block:
        title = label(self.name_of(seat))
        lag = self.lag(seat)
        if lag:
            title.append(f" ({lag})", style="italic")
        title.append(f" · {tr('reserve', self.lang, n=state.reserve_counts[seat])}", style="")
        frozen = self.frozen(view, seat)
        if frozen:
            title.append(f"  {frozen}", style="bold cyan")
        target = self.moving.get(hand) if hand is not None else None
        cards = [place_card(card, under, self.places.place_keys(hand, place)
                            if hand is not None else "", target=place == target)
                 for place, (card, under) in enumerate(state.layouts[seat])]
        return [title, *beside(cards)]

    def _piles(self, state: sl.View, width: int) -> Block:
        hands = range(len(self.session.mine))
        blocks = []
        for p in range(2):
            places = self.places.places
            keys = " · ".join(f"{places[h][p][0]}–{places[h][p][-1]}" for h in hands)
            head = label(tr("pile_n", self.lang, n=p + 1))
            head.append(f" · {cards(state.pile_counts[p], self.lang)}", style="")
            head.append(f" · {keys}" if keys else "", style="bold cyan")
            blocks.append([head, *top_card(state.tops[p], state.stands[p], tr("free", self.lang))])
        piles = beside(blocks, gap=6)
        indent = Text(" " * max(0, (width - max(line.cell_len for line in piles)) // 2))
        return [indent + line for line in piles]


def make(session: Session, lang: str, layout: str | None = None) -> SlBoard:
    """The board for ``session``: one key set, or two with two seats at this keyboard, as the
    keyboard ``layout`` has them (``None``: the usual one for ``lang``)."""
    keys = scheme(len(session.mine) == 2, layout or default_layout(lang))
    return SlBoard(session, keys, lang)
