"""The Schnelllauf board: both layouts, the two discard piles, the reserves.

Alone against a bot, the bot's layout is on top and yours below; two at one keyboard,
the left player's layout is on the left and the right player's on the right, like the
halves of the keyboard they play with.
"""

from __future__ import annotations

from rich.text import Text

from zackzack.games import schnelllauf as sl
from zackzack.table import TableView
from zackzack.tui.board import Board, label
from zackzack.tui.cards import Block, beside, sl_card, sl_top
from zackzack.tui.keys import Command, PlacePile, Scheme, default_layout, schnelllauf
from zackzack.tui.session import Session
from zackzack.tui.texts import cards, tr


class SlBoard(Board):
    """The Schnelllauf round as the seats at this keyboard see it."""

    def __init__(self, session: Session, scheme: Scheme, lang: str) -> None:
        super().__init__(session, scheme, lang)
        self.moving: dict[int, int] = {}
        """Half-done moves: hand → the empty place the next card goes to."""

    def versions(self, view: TableView) -> tuple[int, ...]:
        """Both discard piles' versions."""
        return tuple(view.shown.versions)

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
        cards = [sl_card(card, under, self.scheme.place_keys(hand, place) if hand is not None
                         else "", target=place == target)
                 for place, (card, under) in enumerate(state.layouts[seat])]
        return [title, *beside(cards)]

    def _piles(self, state: sl.View, width: int) -> Block:
        hands = range(len(self.session.mine))
        blocks = []
        for p in range(2):
            places = self.scheme.places
            keys = " · ".join(f"{places[h][p][0]}–{places[h][p][-1]}" for h in hands)
            head = label(tr("pile_n", self.lang, n=p + 1))
            head.append(f" · {cards(state.pile_counts[p], self.lang)}", style="")
            head.append(f" · {keys}" if keys else "", style="bold cyan")
            blocks.append([head, *sl_top(state.tops[p], state.stands[p], tr("free", self.lang))])
        piles = beside(blocks, gap=6)
        indent = Text(" " * max(0, (width - max(line.cell_len for line in piles)) // 2))
        return [indent + line for line in piles]


def make(session: Session, lang: str, layout: str | None = None) -> SlBoard:
    """The board for ``session``: one key set, or two with two seats at this keyboard, as the
    keyboard ``layout`` has them (``None``: the usual one for ``lang``)."""
    scheme = schnelllauf(len(session.mine) == 2, layout or default_layout(lang))
    return SlBoard(session, scheme, lang)
