"""The Unter Spannung board: the others' counts, the discard pile, the own draw pile and hand.

A new round's hand is sorted by value and spread, so that the two values that fit are quick
to find; from then on a card keeps its key while it is in the hand and a drawn card takes a
free key (:class:`~zackzack.tui.keys.StableKeys`). The cursor (arrows, Enter) reaches every
card, also those beyond the keys. Spreads differ by colour *and* by a mark (● ±1, ◆ ±2,
▲ ±3), so that the cards read without colour (``NO_COLOR``):

>>> from zackzack.tui.cards import plain
>>> print(plain(hand_card(us.Card(7, 2), key="1")))
╭1───╮
│ 7  │
│◆±2 │
╰────╯
"""

from __future__ import annotations

from collections import Counter

from rich.text import Text

from zackzack.engine.table import TableView
from zackzack.games import unter_spannung as us
from zackzack.games.unter_spannung.keys import DrawCard, scheme
from zackzack.tui.board import Board, label
from zackzack.tui.cards import DASHED, HEAVY, ROUND, Block, back, beside, frame
from zackzack.tui.keys import (
    Command,
    Confirm,
    HandCard,
    MoveCursor,
    Scheme,
    StableKeys,
    hand_key,
)
from zackzack.tui.session import Session
from zackzack.tui.texts import cards, tr

SPREADS: dict[int, tuple[str, str]] = {1: ("●", "bold #5fafff"), 2: ("◆", "bold #ffaf5f"),
                                       3: ("▲", "bold #d787ff")}
"""Each spread's mark and colour (light ones, so that they stay bright without colour)."""


def hand_card(card: us.Card, key: str = "", *, chosen: bool = False,
              dim: bool = False) -> Block:
    """A hand card: its key, its value and its spread with the mark."""
    mark, colour = SPREADS[card.spread]
    value = Text(f"{card.value:^4}", style="bold")
    spread = Text(f"{mark}±{card.spread}", style=colour)
    style = "bold bright_white" if chosen else ("dim" if dim else "")
    return frame([value, spread], 4, key, HEAVY if chosen else ROUND, style)


def top_card(card: us.Card, *, pending: bool = False) -> Block:
    """The top card of the discard pile, large; ``pending``: one's own card on its way to the
    table (not taken yet), dashed and dim with a trailing "…".

    >>> from zackzack.tui.cards import plain
    >>> print(plain(top_card(us.Card(7, 2), pending=True)))
    ╭┄┄┄┄┄┄┄╮
    ┆  7 …  ┆
    ┆  ◆ ±2 ┆
    ╰┄┄┄┄┄┄┄╯
    """
    mark, colour = SPREADS[card.spread]
    if pending:
        value = Text(f"{card.value} …".center(7), style="bold dim")
        spread = Text(f"{mark} ±{card.spread}".center(7), style="dim")
        return frame([value, spread], 7, corners=DASHED, style="dim")
    value = Text(f"{card.value:^7}", style="bold reverse")
    spread = Text(f"{mark} ±{card.spread}".center(7), style=colour)
    return frame([value, spread], 7, style="bold")

CARD_WIDTH = 7
"""A hand card's width with its gap."""


class UsBoard(Board):
    """One seat's view of an Unter Spannung round."""

    def __init__(self, session: Session, scheme: Scheme, lang: str) -> None:
        super().__init__(session, scheme, lang)
        self.cursor = 0
        """The hand card Enter plays."""
        self.cursor_shown = False
        """Whether the arrows have been used (only then is the cursor drawn)."""
        self.top_row = 0
        """The first hand row on screen, when the hand has more rows than fit."""
        self.keys: StableKeys[us.Card] = StableKeys()
        self.round: int | None = None
        """The round the cursor was shown in (a new round hides it again)."""

    CURSOR = True

    def chosen(self) -> bool:
        """Whether the cursor is on screen (the arrows were used this round)."""
        return self.cursor_shown

    @property
    def seat(self) -> int | None:
        """The seat played here (``None``: watching)."""
        return self.session.mine[0] if self.session.mine else None

    def hand(self) -> list[us.Card]:
        """The own hand in the order shown."""
        return [card for _, card in self.keyed()]

    def keyed(self, view: TableView | None = None) -> list[tuple[int, us.Card]]:
        """The own hand in the order shown, each card with its place (its key's index)."""
        view = view or self.view(self.seat)
        if view is None:
            return []
        if view.round != self.round:
            self.round, self.cursor, self.cursor_shown = view.round, 0, False
        hand = Counter(view.shown.hand)
        hand.subtract(self.on_way(view))  # on the pile already, as far as this screen goes
        places = self.keys.arrange(view.round, list(hand.elements()))
        return [(place, card) for place, card in enumerate(places) if card is not None]

    def on_way(self, view: TableView) -> list[us.Card]:
        """The own cards played and not answered yet that the view still has in the hand,
        oldest first (remote tables only: a local one answers at once)."""
        if self.seat is None:
            return []
        left = Counter(view.shown.hand)
        cards = []
        for action in self.session.pending(self.seat):
            if isinstance(action, us.Play) and left[action.card] > 0:
                left[action.card] -= 1
                cards.append(action.card)
        return cards

    def key_of(self, card: us.Card) -> str:
        """The key that plays ``card`` now (``""``: none, or not in the hand)."""
        return next((hand_key(place) for place, held in self.keyed()
                     if held == card), "")

    def versions(self, view: TableView) -> tuple[int, ...]:
        """The discard pile's version."""
        return (view.shown.version,)

    def command(self, command: Command) -> bool:
        """Play a card by its key or the cursor, draw, or move the cursor."""
        view, seat = self.view(self.seat), self.seat
        if view is None or seat is None:
            return False
        hand = self.keyed(view)
        if isinstance(command, Confirm) and not self.cursor_shown:
            return False  # Enter plays only a card chosen on screen
        if isinstance(command, HandCard | Confirm):
            places = dict(hand)
            place = command.index if isinstance(command, HandCard) else (
                hand[self.cursor][0] if self.cursor < len(hand) else -1)
            if place in places:
                self.keys.pressed(place)
                seen = self.sightings.aimed(0, view.shown.version)
                self.session.act(seat, us.Play(places[place], seen=seen))
            return True
        if isinstance(command, DrawCard):
            self.session.act(seat, us.Draw())
            return True
        if isinstance(command, MoveCursor):
            step = command.dx + command.dy * self._per_row() if self.cursor_shown else 0
            self.cursor = max(0, min(len(hand) - 1, self.cursor + step))
            self.cursor_shown = True
            self.refresh()
            return True
        return False

    def _per_row(self) -> int:
        return max(1, (self.size.width - 1) // CARD_WIDTH)

    def lines(self, width: int) -> Block:
        """Opponents, pile and draw pile, then the hand in rows that fit the height."""
        view = self.view(self.seat)
        if view is None:
            return []
        state: us.View = view.shown
        others = self._others(view, state, width)
        rows = -(-len(state.hand) // max(1, (width + 1) // CARD_WIDTH))
        roomy = self.size.height - len(others) - 5 - 4 * rows >= 2
        lines = [*others, Text("")] if roomy else others
        on_way = self.on_way(view)
        count = cards(state.discard_count + len(on_way), self.lang)
        info = [label(f"{tr('pile', self.lang)} · {count}")]
        blocks = [top_card(on_way[-1], pending=True) if on_way else top_card(state.top)]
        if on_way:
            info.append(label(tr("on_way", self.lang), "italic"))
        if self.seat is not None:
            blocks.append(back(state.draw_counts[self.seat]))
            draw = tr("draw_pile", self.lang, n=state.draw_counts[self.seat])
            info += [label(draw, ""), label(self.frozen(view, self.seat), "bold cyan")]
        lines += beside([*blocks, info], gap=2)
        if roomy:
            lines.append(Text(""))
        if self.seat is None:
            return [*lines, Text(""), label(tr("watching", self.lang), "italic")]
        return lines + self._hand(view, state, width, self.size.height - len(lines) - 1)

    def _others(self, view: TableView, state: us.View, width: int) -> Block:
        parts = []
        for seat in range(len(state.hand_counts)):
            if seat == self.seat:
                continue
            part = label(self.name_of(seat))
            lag = self.lag(seat)
            if lag:
                part.append(f" ({lag})", style="italic")
            # a fixed width (two-digit counts, a freeze): nothing moves or wraps anew for them
            widest = part.cell_len + Text(self._counts(99, 99)).cell_len \
                + 2 + Text(tr("frozen_short", self.lang, s="00.0")).cell_len
            part.append(self._counts(state.hand_counts[seat], state.draw_counts[seat]))
            left = view.frozen_until[seat] - self.session.now()
            if left > 0:  # short: two opponents still share a line at 80 columns
                part.append(f"  {tr('frozen_short', self.lang, s=f'{left / 1000:.1f}')}",
                            style="bold cyan")
            part.pad_right(max(0, widest - part.cell_len))
            parts.append(part)
        lines: Block = []
        line = Text()
        for part in parts:
            if line.cell_len and line.cell_len + 5 + part.cell_len > width:
                lines.append(line)
                line = Text()
            if line.cell_len:
                line.append("  │  ", style="dim")
            line.append_text(part)
        return [*lines, line]

    def _counts(self, hand: int, draw: int) -> str:
        """An opponent's counts: ``  hand 5 · draw 12``."""
        return f"  {tr('in_hand', self.lang, n=hand)} · {tr('to_draw', self.lang, n=draw)}"

    def _hand(self, view: TableView, state: us.View, width: int, height: int) -> Block:
        hand = self.keyed(view)
        self.cursor = max(0, min(self.cursor, len(hand) - 1))
        per_row = max(1, (width + 1) // CARD_WIDTH)
        rows = max(1, height // 4)
        cursor_row = self.cursor // per_row
        self.top_row = min(max(self.top_row, cursor_row - rows + 1), cursor_row)
        self.top_row = max(0, min(self.top_row, (len(hand) - 1) // per_row - rows + 1))
        first, last = self.top_row * per_row, min(len(hand), (self.top_row + rows) * per_row)
        frozen = self.seat is not None and bool(self.frozen(view, self.seat))
        title = label(tr("hand", self.lang, n=len(hand)))
        if first or last < len(hand):
            title.append("   " + tr("hand_more", self.lang, before=first, after=len(hand) - last),
                         style="yellow")
        lines = [title]
        for start in range(first, last, per_row):
            lines += beside([
                hand_card(card, hand_key(place), dim=frozen,
                        chosen=self.cursor_shown and i == self.cursor)
                for i, (place, card) in enumerate(hand[start:min(last, start + per_row)], start)])
        return lines


def make(session: Session, lang: str, layout: str | None = None) -> UsBoard:
    """The board for ``session`` (hand keys do not follow the keyboard's layout)."""
    return UsBoard(session, scheme(), lang)
