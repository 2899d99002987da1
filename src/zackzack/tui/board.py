"""What every game's board shares: the session they show, the keys, who is who, what was seen."""

from __future__ import annotations

import time
from collections.abc import Callable, Collection, Mapping, Sequence
from typing import ClassVar

from rich.console import Group
from rich.text import Text
from textual.widget import Widget

from zackzack.engine.table import TableView
from zackzack.games.base import Event
from zackzack.tui.cards import Block
from zackzack.tui.keys import Command, Scheme
from zackzack.tui.session import Session
from zackzack.tui.texts import level, tr


class Sightings:
    """When each pile version came on screen, to name the version a key press aimed at.

    A card's ``seen`` is the version of its pile that was on screen ``window()`` seconds
    before the key press (the round's first version if the pile has been shown for less
    time): a card that fitted any version from that one up to the top is too late, not wrong
    (RULES.md, the race). Versions shown in an earlier round do not count. One's own card on
    top one knows at once: that version counts as shown a window earlier. The browser's
    ``web/js/sightings.js`` follows the same rule.

    >>> now = [0.0]
    >>> seen = Sightings(lambda: 0.6, lambda: now[0])
    >>> seen.note((4,)); now[0] = 1.0; seen.note((5,)); now[0] = 1.5
    >>> seen.aimed(0, 5)
    4
    >>> now[0] = 1.6
    >>> seen.aimed(0, 5)
    5
    >>> seen.note((0,), round=2); now[0] = 1.7; seen.note((1,), round=2); now[0] = 1.9
    >>> seen.aimed(0, 1)
    0
    >>> seen.note((2,), round=2, own={0}); seen.aimed(0, 2)
    2
    """

    def __init__(self, window: Callable[[], float],
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.window = window
        """The reaction window in seconds (read at each key press)."""
        self.clock = clock
        self.shown: list[list[tuple[int, float]]] = []
        self.round: int | None = None

    def note(self, versions: Sequence[int], round: int | None = None,
             own: Collection[int] = ()) -> None:
        """The piles now on screen are at ``versions`` (in ``round``, when known); ``own``:
        the piles one's own card just changed."""
        now = self.clock()
        if len(self.shown) != len(versions) or (round is not None and round != self.round):
            self.shown = [[] for _ in versions]
        if round is not None:
            self.round = round
        for pile, (history, version) in enumerate(zip(self.shown, versions, strict=True)):
            if history and version < history[-1][0]:
                history.clear()
            if not history or history[-1][0] != version:
                history.append((version, now - self.window() if pile in own else now))
                del history[:-KEEP]

    def aimed(self, pile: int, current: int) -> int:
        """The version of ``pile`` on screen ``window()`` ago (``current``: none noted yet)."""
        history = self.shown[pile] if pile < len(self.shown) else []
        cutoff = self.clock() - self.window()
        seen = [version for version, at in history if at <= cutoff and version <= current]
        return seen[-1] if seen else min(history[0][0], current) if history else current


KEEP = 64
"""Pile versions remembered per pile: far more than change within a reaction window."""
MOVE_S = 4.0
"""How long a half-done input (an empty place, then a card) waits for its second key."""


class Board(Widget):
    """A game's table as this keyboard sees it; it turns key commands into actions."""

    DEFAULT_CSS = "Board { height: 1fr; padding: 0 1; }"
    CURSOR: ClassVar[bool] = False
    """Whether the arrows choose a card that Enter plays."""

    def __init__(self, session: Session, scheme: Scheme, lang: str) -> None:
        super().__init__()
        self.session = session
        self.scheme = scheme
        self.lang = lang
        self.seen = [Sightings(lambda: self.session.reaction_ms / 1000)
                     for _ in range(max(1, len(session.mine)))]
        """What each player at this keyboard saw (``hand`` 0: the left or only one): two at
        one keyboard, each has their own eyes; the other's card is news to them."""

    @property
    def sightings(self) -> Sightings:
        """The sightings of the first (or only) player at this keyboard."""
        return self.seen[0]

    def sightings_of(self, seat: int) -> Sightings:
        """The sightings of ``seat``, a player at this keyboard (the first's for any other)."""
        mine = self.session.mine
        return self.seen[mine.index(seat)] if seat in mine else self.seen[0]

    def note(self, view: TableView, own: Mapping[int, Collection[int]] | None = None) -> None:
        """The piles of ``view`` are on screen now; ``own``: by seat at this keyboard, the
        piles that seat's own card just changed (known to that player at once, news to the
        other)."""
        versions = self.versions(view)
        mine = self.session.mine or (None,)
        for hand, seen in enumerate(self.seen):
            seat = mine[hand] if hand < len(mine) else None
            seen.note(versions, view.round, (own or {}).get(seat, ()) if seat is not None
                      else ())

    def versions(self, view: TableView) -> tuple[int, ...]:
        """The pile versions in ``view``."""
        return ()

    def name_of(self, seat: int) -> str:
        """A seat's name; "You" for the one person at this keyboard."""
        if self.session.mine == (seat,):
            return tr("you", self.lang)
        seats = self.session.seats
        return seats[seat].name if seat < len(seats) else str(seat + 1)

    def lag(self, seat: int) -> str:
        """What a seat's name is followed by: ``gone`` after a person who left (or whose
        connection dropped), ``slow connection`` after another person whose
        connection is slow, ``stand-in: normal`` (the bot named where the table says which;
        else ``stand-in playing``) / ``stand-in coming`` after a person's seat a
        stand-in plays or is about to (docs/rules.md); else ``""``."""
        seats = self.session.seats
        if seat >= len(seats):
            return ""
        found = seats[seat]
        slow = found.lag == "slow" and seat not in self.session.mine
        gone = found.kind == "human" and not found.connected  # left, or lost the connection
        marks = [tr("seat_away", self.lang) if gone else "",
                 tr("slow_connection", self.lang) if slow and not gone else "",
                 (tr("stand_in_named", self.lang, bot=level(found.stand_in_bot, self.lang))
                  if found.stand_in_bot else tr("stand_in_mark", self.lang)) if found.stand_in
                 else tr("stand_in_soon", self.lang) if found.stand_in_at is not None else ""]
        return " · ".join(mark for mark in marks if mark)

    def view(self, seat: int | None) -> TableView | None:
        """The view of ``seat`` now, if the round is on."""
        view = self.session.view(seat)
        return view if view is not None and view.state is not None else None

    def frozen(self, view: TableView, seat: int) -> str:
        """``❄ 0.7 s`` while ``seat`` is frozen, else ``""``."""
        left = view.frozen_until[seat] - self.session.now()
        return tr("frozen_for", self.lang, s=f"{left / 1000:.1f}") if left > 0 else ""

    def command(self, command: Command) -> bool:
        """Act on ``command``; whether it meant something on this board."""
        return False

    def readable(self, event: Event, line: str) -> str:
        """The log's sentence ``line`` about ``event``, with its cards written as this board
        shows them (the event itself is never changed)."""
        return line

    def chosen(self) -> bool:
        """Whether a card is chosen on screen for Enter to play (boards with a cursor)."""
        return False

    def cancel(self, hand: int | None = None) -> bool:
        """Cancel a half-done input (of ``hand`` only, if given); whether there was one."""
        return False

    def prompt(self) -> str:
        """What a half-done input waits for (``""``: nothing)."""
        return ""

    def timed_out(self) -> str:
        """Give up a half-done input that waited too long; the text key of the feedback that
        says so, with ``{s}`` the seconds it waited (``""``: nothing gave up)."""
        return ""

    def lines(self, width: int) -> Block:
        """The board as lines of text, ``width`` cells wide."""
        return []

    def render(self) -> Group:
        """The board, drawn afresh from the session's views."""
        return Group(*self.lines(max(20, self.size.width - 2)))


def label(text: str, style: str = "bold") -> Text:
    """A line of text in ``style``."""
    return Text(text, style=style)
