"""A room's stand-ins: the bots that play the seat of a person who is away, or who let a
running round wait on them (the idle rule: a round always ends, ``docs/rules.md``)."""

from __future__ import annotations

import random
import secrets
from functools import partial
from typing import TYPE_CHECKING

from zackzack.engine.clock import Timer
from zackzack.engine.race import ArbitratedLink
from zackzack.engine.table import Phase
from zackzack.server.logs import event

if TYPE_CHECKING:
    from zackzack.server.room import Room, Stoppable

RUNNING = (Phase.STARTING, Phase.PLAYING, Phase.BETWEEN)
"""The phases in which a table runs by itself (and can be paused)."""
STAND_IN_AFTER = 20.0
"""Seconds a person's seat may stay empty in a running match before a bot plays it."""
STAND_IN_BOT = "normal"
"""The bot that plays a seat while its person is away."""
STALL_WARNING = 15.0
"""Seconds a running round may stand still (no accepted action, no automatic step) while it
waits on a present person who could act, before they are warned: three times the slowest
bot's thinking, far beyond a person's (``docs/rules.md``, *Eine Runde endet immer*)."""
STALL_STAND_IN = 10.0
"""Seconds from that warning until a stand-in plays their seat (until they act again): 25 s
in all, so that no round stands still for longer than about 30 s."""


class StandIns:
    """The stand-ins of one room, the timers that seat them and the idle rule's warnings."""

    def __init__(self, room: Room, *, after: float, stall_warning: float,
                 stall_stand_in: float) -> None:
        self.room = room
        self.after = after
        self.stall_warning, self.stall_stand_in = stall_warning, stall_stand_in
        self.playing: dict[int, Stoppable] = {}
        """The bots playing the seats of people who are away, by seat."""
        self._away: dict[int, Timer] = {}
        """When each empty person's seat gets its stand-in."""
        self._still_since = room.clock.time()
        """When the table last moved: an accepted action, an automatic step, a new phase."""
        self._stall: Timer | None = None
        """The one timer of the idle rule (``_stalled``), armed while it may have work."""
        self.warned: dict[int, float] = {}
        """Seats warned that the table waits on them, with when their stand-in comes."""
        self._idle: set[int] = set()
        """Seats played by a stand-in because their (present) person did not act."""
        self._back: dict[int, float] = {}
        """When each seat's person last took the seat back from such a stand-in."""

    def update(self) -> bool:
        """A bot plays the seat of a person away longer than ``after``, until they are back;
        whether a stand-in left (the caller tells the viewers)."""
        room, left = self.room, False
        present = {viewer.player for viewer in room.viewers}  # 20 s from the drop, grace or not
        running = room.phase in (*RUNNING, Phase.PAUSED)
        for index, seat in enumerate(room.seats):
            if index in self._idle and running:
                continue  # it plays until its person acts (``take_back``), here or not
            if seat.player is not None and running and seat.player not in present:
                if index not in self.playing and index not in self._away:
                    self._away[index] = room.clock.call_at(
                        room.clock.time() + self.after, partial(self._stand_in, index))
                continue
            timer = self._away.pop(index, None)
            if timer is not None:
                timer.cancel()
            self._idle.discard(index)
            stand_in = self.playing.pop(index, None)
            if stand_in is not None:
                stand_in.stop()
                event("stand_in_left", code=room.code, seat=index)
                left = True
        return left

    def _stand_in(self, index: int, why: str = "away") -> None:
        """The seat's person stayed away (``why`` ``"away"``) or let the table wait on them
        (``"idle"``): a bot plays for them."""
        room = self.room
        self._away.pop(index, None)
        if room.closed or room.phase not in (*RUNNING, Phase.PAUSED) or index in self.playing:
            return
        rng = random.Random(secrets.randbits(64))
        self.playing[index] = room.bots.make(room.table, index, STAND_IN_BOT, rng,
                                             ArbitratedLink(room.arbiter, index))
        if why == "idle":
            self._idle.add(index)
        event("stand_in", code=room.code, seat=index, bot=STAND_IN_BOT, why=why)
        room.changed()

    def take_back(self, index: int) -> None:
        """Seat ``index``'s person acts: a stand-in that played for them because they let the
        table wait leaves (the action goes on to the table)."""
        if index not in self._idle:
            return
        self._idle.discard(index)
        self._back[index] = self.room.clock.time()
        stand_in = self.playing.pop(index, None)
        if stand_in is not None:
            stand_in.stop()
            event("stand_in_left", code=self.room.code, seat=index, why="acted")
        self.room.changed()
        self.watch()

    def stop(self) -> None:
        """Every stand-in stops, and every timer and warning goes."""
        for bot in self.playing.values():
            bot.stop()
        self.playing.clear()
        for timer in self._away.values():
            timer.cancel()
        self._away.clear()
        self._idle.clear()
        self.warned.clear()
        if self._stall is not None:
            self._stall.cancel()
            self._stall = None

    # The idle rule: a round always ends (docs/rules.md) ------------------------------------

    def moved(self) -> None:
        """The table moved (an accepted action, an automatic step, a new phase): it waits on
        nobody now; warnings shown are over."""
        self._still_since = self.room.clock.time()
        if self.warned:
            self.warned.clear()
            self.room.changed()
        self.watch()

    def watch(self) -> None:
        """Arm the idle rule's timer if it is not armed: it finds its own next moment."""
        room = self.room
        if self._stall is None and not room.closed and not room.tutorial and room.people():
            self._stall = room.clock.call_at(
                max(room.clock.time(), self._still_since + self.stall_warning), self._stalled)

    def _waited_on(self) -> set[int]:
        """The seats the round waits on: a present person's, with no stand-in, that could act
        while nothing is due by itself (no automatic step is pending: the rules' ``pending``
        is ``None`` exactly while some seat has a legal action)."""
        room, table = self.room, self.room.table
        if table.phase is not Phase.PLAYING or table.countdown is not None:
            return set()
        present = {viewer.player for viewer in room.viewers}
        state, legal = table.match.round, room.rules.legal_actions
        return {index for index, seat in enumerate(room.seats)
                if seat.player is not None and seat.player in present
                and index not in self.playing and legal(state, index)}

    def _stalled(self) -> None:
        """The round may have stood still long enough: warn whom it waits on, seat stand-ins
        for those warned long enough ago, and arm the timer for the next moment."""
        room = self.room
        self._stall = None
        if room.closed or room.phase in (Phase.WAITING, Phase.OVER):
            return
        now = room.clock.time() + 1e-6
        waiting = self._waited_on()
        told = False
        for index, at in list(self.warned.items()):
            if index not in waiting:
                del self.warned[index]
                told = True
            elif at <= now:
                del self.warned[index]
                self._stand_in(index, "idle")  # which tells everyone
        nexts = list(self.warned.values())
        for index, seat in enumerate(room.seats):
            if seat.player is None or index in self.playing or index in self.warned:
                continue
            due = max(self._still_since, self._back.get(index, 0.0)) + self.stall_warning
            if due > now:
                nexts.append(due)
            elif index in waiting:
                self.warned[index] = at = room.clock.time() + self.stall_stand_in
                nexts.append(at)
                event("idle_warning", code=room.code, seat=index,
                      stand_in_in=self.stall_stand_in)
                told = True
        if told:
            room.changed()
        if nexts and not room.closed:
            self._stall = room.clock.call_at(min(nexts), self._stalled)
