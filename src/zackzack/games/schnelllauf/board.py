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
import time

from rich.text import Text

from zackzack.engine.table import TableView
from zackzack.games import schnelllauf as sl
from zackzack.games.base import Event
from zackzack.games.schnelllauf.keys import PlacePile, PlaceScheme, scheme
from zackzack.tui.board import MOVE_S, Board, label
from zackzack.tui.cards import DASHED, HEAVY, Block, beside, centred, frame
from zackzack.tui.keys import Command, default_layout
from zackzack.tui.session import Session
from zackzack.tui.texts import cards, tr

SUITS: dict[str, tuple[str, str]] = {"c": ("♣", "bold"), "d": ("♦", "bold #ff6b6b"),
                                     "h": ("♥", "bold #ff6b6b"), "s": ("♠", "bold")}
"""Each suit's symbol and colour (a light red: still clear as grey without colour)."""

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


def gone_card(under: int, key: str = "") -> Block:
    """A layout place whose face-up card is on its way to a pile (not taken yet): dashed,
    with "…" and the cards under it.

    >>> from zackzack.tui.cards import plain
    >>> print(plain(gone_card(2, "1q")))
    ╭1q┄┄╮
    ┆ …  ┆
    ┆ +2 ┆
    ╰┄┄┄┄╯
    """
    rest = Text(f" +{under}" if under else "", style="dim")
    return frame([Text(" …", style="bold"), rest], 4, key, DASHED, "dim")


def top_card(card: sl.Card | None, stands: frozenset[int] | None, free: str, *,
             pending: bool = False) -> Block:
    """A discard pile's top, large; a joker shows what it stands for (or ``free``);
    ``pending``: one's own card on its way (not taken yet), dashed and dim with "…".

    >>> from zackzack.tui.cards import plain
    >>> print(plain(top_card(sl.Card.parse("9d"), None, "", pending=True)))
    ╭┄┄┄┄┄┄┄╮
    ┆  9♦ … ┆
    ┆       ┆
    ╰┄┄┄┄┄┄┄╯
    """
    if card is None:
        return frame([Text("")] * 2, 7, corners=DASHED, style="dim")
    if pending:
        shown = face(card) + Text(" …", style="bold")
        shown.stylize("dim")
        return frame([centred(shown, 7), Text("")], 7, corners=DASHED, style="dim")
    note = Text("")
    if card.suit is None:  # "=9|J": the joker is a 9 or a J (not: a 9 or a J fits)
        note = Text(free if stands is None else "=" + "|".join(RANKS[r] for r in sorted(stands)),
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
        self.moving_until: dict[int, float] = {}
        """When each half-done move gives up (``time.monotonic``), :data:`MOVE_S` after."""

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
        if command.place in self.on_way(view, seat):
            return True  # that card is on its way already
        target = self.moving.pop(command.hand, None)
        card, _ = state.layouts[seat][command.place]
        if target is not None:
            if target != command.place:
                self.session.act(seat, sl.Move(command.place, target))
        elif card is None:
            self.moving[command.hand] = command.place
            self.moving_until[command.hand] = time.monotonic() + MOVE_S
        else:
            seen = self.sightings_of(seat).aimed(command.pile, state.versions[command.pile])
            self.session.act(seat, sl.Play(card, command.pile, seen=seen))
        self.refresh()
        return True

    def on_way(self, view: TableView, seat: int) -> dict[int, sl.Play]:
        """``seat``'s cards played and not answered yet that the view still shows face up,
        by their place (remote tables only: a local one answers at once)."""
        places: dict[int, sl.Play] = {}
        layout = view.shown.layouts[seat]
        for action in self.session.pending(seat):
            if not isinstance(action, sl.Play):
                continue
            place = next((i for i, (card, _) in enumerate(layout)
                          if card == action.card and i not in places), None)
            if place is not None:
                places[place] = action
        return places

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
        """What a half-done move waits for, if one does, with the seconds it still waits
        (two at one keyboard: whose move it is)."""
        for hand, place in self.moving.items():
            left = max(0.0, self.moving_until.get(hand, time.monotonic() + MOVE_S)
                       - time.monotonic())
            text = tr("move_to", self.lang, n=place + 1, s=max(1, -int(-left // 1)))
            if len(self.session.mine) > 1:
                text = f"{self.name_of(self.session.mine[hand])}: {text}"
            return text
        return ""

    def timed_out(self) -> str:
        """Give up the half-done moves that waited :data:`MOVE_S`; the text key that says so."""
        now = time.monotonic()
        for hand in set(self.moving_until) - set(self.moving):  # done or cancelled
            del self.moving_until[hand]
        for hand in self.moving:  # a move begun elsewhere (a test) waits from now on
            self.moving_until.setdefault(hand, now + MOVE_S)
        gone = [hand for hand in self.moving if self.moving_until[hand] <= now]
        for hand in gone:
            self.moving.pop(hand, None)
            self.moving_until.pop(hand, None)
        if gone:
            self.refresh()
        return "move_gone" if gone else ""

    def lines(self, width: int) -> Block:
        """The layouts and the piles."""
        mine = self.session.mine
        view = self.view(mine[0] if mine else None)
        if view is None:
            return []
        state: sl.View = view.shown
        on_way = {seat: self.on_way(view, seat) for seat in mine}
        if len(mine) == 2:
            halves = [self._layout(view, state, seat, hand, on_way[seat])
                      for hand, seat in enumerate(mine)]
            half = max(line.cell_len for line in halves[0])
            gap = max(2, width - 2 * half)
            return [*self._piles(state, width, on_way), *beside(halves, gap=gap)]
        me = mine[0] if mine else 1
        other = 1 - me
        # centred like the piles, by the card rows (a title that grows never moves them)
        return [*_centre(self._layout(view, state, other, None), width),
                *self._piles(state, width, on_way),  # its last row: a card on its way, or blank
                *_centre(self._layout(view, state, me, 0 if mine else None,
                                      on_way.get(me, {})), width)]

    def _layout(self, view: TableView, state: sl.View, seat: int, hand: int | None,
                on_way: dict[int, sl.Play] | None = None) -> Block:
        title = label(self.name_of(seat))
        lag = self.lag(seat)
        if lag:
            title.append(f" ({lag})", style="italic")
        title.append(f" · {tr('reserve', self.lang, n=state.reserve_counts[seat])}", style="")
        frozen = self.frozen(view, seat)
        if frozen:
            title.append(f"  {frozen}", style="bold cyan")
        target = self.moving.get(hand) if hand is not None else None
        keys = [self.places.place_keys(hand, place) if hand is not None else ""
                for place in range(len(state.layouts[seat]))]
        cards = [gone_card(under, keys[place]) if on_way and place in on_way else
                 place_card(card, under, keys[place], target=place == target)
                 for place, (card, under) in enumerate(state.layouts[seat])]
        return [title, *beside(cards)]

    def _piles(self, state: sl.View, width: int,
               on_way: dict[int, dict[int, sl.Play]] | None = None) -> Block:
        hands = range(len(self.session.mine))
        plays = [play for places in (on_way or {}).values() for play in places.values()]
        blocks = []
        for p in range(2):
            coming = [play.card for play in plays if play.pile == p]
            places = self.places.places
            keys = " · ".join(f"{places[h][p][0]}–{places[h][p][-1]}" for h in hands)
            head = label(tr("pile_n", self.lang, n=p + 1))
            head.append(f" · {keys}" if keys else "", style="bold cyan")
            count = cards(state.pile_counts[p], self.lang)  # a fixed width: the piles stay put
            head.append(f" · {count}".ljust(3 + _count_width(self.lang)), style="")
            top = top_card(coming[-1], None, "", pending=True) if coming else \
                top_card(state.tops[p], state.stands[p], tr("free", self.lang))
            way = Text(tr("on_way", self.lang) if coming else "", style="italic")
            blocks.append([head, *top, way])  # a row of its own: the heads stay put
        piles = beside(blocks, gap=6)
        indent = Text(" " * max(0, (width - max(line.cell_len for line in piles)) // 2))
        return [indent + line for line in piles]


def _count_width(lang: str) -> int:
    """The widest a pile's count can be in ``lang`` (two decks and their jokers: 3 digits)."""
    return max(len(cards(n, lang)) for n in (1, 888))


def _centre(block: Block, width: int) -> Block:
    """``block`` (a layout: its title, then its card rows) centred in ``width`` by its card
    rows, so that a title that grows (a freeze) moves nothing."""
    rows = block[1:] or block
    indent = " " * max(0, (width - max(line.cell_len for line in rows)) // 2)
    return [Text(indent) + line for line in block]


def make(session: Session, lang: str, layout: str | None = None) -> SlBoard:
    """The board for ``session``: one key set, or two with two seats at this keyboard, as the
    keyboard ``layout`` has them (``None``: the usual one for ``lang``)."""
    keys = scheme(len(session.mine) == 2, layout or default_layout(lang))
    return SlBoard(session, keys, lang)
