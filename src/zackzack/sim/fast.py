"""The simulator's fast path: bots at a real table with no timers, links or per-seat fan-out.

:class:`~zackzack.bots.Bot` reaches a table through a link, wakes by a clock's timers and
hears the events each seat may see, one subscription per seat: what a live table needs. In
a simulation nobody else watches, so one :class:`Match` is the clock of its table and the
body of every bot: it keeps one queue of the table's timers and the bots' decisions and
hands, hears the events once and tells each bot what they mean to it. The table, the rules
and each game's ``Brain`` are the very ones a live table uses, and the timing model is
``Bot``'s, draw for draw from the same random stream, so a match plays exactly as it does
with ``Bot``s at a live table (``tests/sim/test_equivalence.py`` shows it, and that every
simulated match's log replays through the live table to the same events and results).

>>> from zackzack.bots import parse_bot
>>> from zackzack.games import unter_spannung as us
>>> match = Match(us, us.Options(players=2), (parse_bot("pro"), parse_bot("normal")), seed=1)
>>> match.play(until=3600.0)  # nothing is left to do: the match is over
False
>>> winner, ms, actions, steps, scores = match.rounds[0]
>>> match.table.match.result is not None, actions > 2, match.table.log  # kept only if asked
(True, True, [])
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from heapq import heappop, heappush
from typing import Any

from zackzack.bots.bot import (
    CHANGE,
    END,
    FREEZE,
    OWN,
    PAUSE,
    PLAN,
    RETRY,
    START,
    refusal,
    strategy,
    timing,
)
from zackzack.bots.reaction import QUANTILE_BITS, REACTIONS
from zackzack.bots.spec import BotSpec
from zackzack.clock import TIMER, TimerQueue
from zackzack.games.base import Action, Event, Rules
from zackzack.games.errors import IllegalAction
from zackzack.games.registry import Brain
from zackzack.table import ONE_HAND_PAUSE_MS, Phase, RoundScored, Settings, Table

ACTIONS = frozenset({"played", "drew", "moved"})
"""Event kinds that are a player's accepted action."""
STEPS = frozenset({"rotated", "flipped", "reshuffled"})
"""Event kinds that are an automatic step: Nichts geht mehr, a stalemate flip or reshuffle."""

_BITS = QUANTILE_BITS
_LOW = (1 << QUANTILE_BITS) - 1
_TWO_DRAWS = 2 * QUANTILE_BITS
_PAUSE = ONE_HAND_PAUSE_MS / 1000
_LAND = TIMER + 2
_PLAYING = Phase.PLAYING
_TALLY_ACTION, _TALLY_STEP, _TALLY_SCORED = 1, 2, 3


_MEANINGS: dict[str, dict[type[Event], tuple[int, int]]] = {}
"""Per game: what each event type means to the tally and to a bot (``Match._meaning``)."""


class _Hand:
    """An action on its way to the table; ``live`` until the bot's round is over."""

    __slots__ = ("action", "live", "seat")

    def __init__(self, action: Action, seat: int) -> None:
        self.action = action
        self.seat = seat
        self.live = True


class Seat:
    """One bot's state in the fast path: ``Bot``'s fields, without link or timers."""

    __slots__ = ("brain", "busy", "frozen", "hands", "landing", "mistakes", "motor", "one_hand",
                 "per_item", "perception", "planned", "ready", "scale", "seat", "think",
                 "too_late", "wrong_cards")

    def __init__(self, brain: Brain, seat: int, spec: BotSpec, one_hand: bool) -> None:
        self.brain = brain
        self.seat = seat
        (self.perception, self.think, self.motor, self.per_item, self.mistakes,
         self.scale) = timing(REACTIONS[spec.level])
        self.one_hand = one_hand
        self.hands = 1 if one_hand else type(brain).HANDS
        self.busy: list[_Hand] = []
        self.frozen = self.ready = 0.0
        self.landing = False
        self.planned = 0
        """The queue number of the decision being thought about (0: none; others are void)."""
        self.wrong_cards = 0
        """Wrong cards this bot played (each cost the penalty freeze)."""
        self.too_late = 0
        """Cards that lost the race: they fitted the pile the bot aimed at, too late."""


class Match(TimerQueue):
    """A match of ``rules`` between bots (``specs``, one per seat), played as fast as can be.

    The match is the table's clock; :meth:`play` runs it. ``rounds`` collects each round's
    record as :func:`zackzack.sim.play_match` reports it. The table keeps its log of
    actions only with ``log`` (to replay the match).
    """

    def __init__(self, rules: Rules, options: Any, specs: Sequence[BotSpec], seed: int,
                 settings: Settings = Settings(), log: bool = False) -> None:
        super().__init__()  # the table's timers and the hands on their way
        self._decisions: list[tuple[float, int, Seat]] = []
        """The bots' decisions being thought about, likewise; void ones are skipped."""
        self.table = table = Table(rules, options, clock=self, seed=seed, settings=settings,
                                   keep_log=log)
        self.rng = rng = random.Random(seed ^ 0x5EED)
        self._bits = rng.getrandbits
        self._random = rng.random
        brain, self._codes = strategy(rules.INFO.name)
        self.seats = [Seat(brain(options, seat, spec.strategy, rng), seat, spec,
                           options.one_hand(seat)) for seat, spec in enumerate(specs)]
        self._meanings = _MEANINGS.setdefault(rules.INFO.name, {})
        self._view = rules.view
        self.rounds: list[tuple[int | None, int, int, int, tuple[int, ...]]] = []
        """Each round: winner, length in table ms, accepted actions, automatic steps, scores."""
        self._actions = self._steps = self._started = 0
        table.subscribe_all(self._heard)

    def play(self, until: float) -> bool:
        """Start the match and run it to its end or to virtual time ``until`` (seconds);
        whether anything was still due then (the match ran too long)."""
        self.table.start()
        queue = self._queue
        decisions = self._decisions
        while decisions or queue:
            if decisions and (not queue or decisions[0] < queue[0]):
                when, number, seat = decisions[0]
                if when > until:
                    return True
                heappop(decisions)
                if seat.planned == number:
                    seat.planned = 0
                    self._now = when
                    self._decide(seat)
                continue
            when, number, what, thing = queue[0]
            if when > until:
                return True
            heappop(queue)
            if what == _LAND:
                if thing.live:
                    self._now = when
                    self._land(thing)
            else:
                callback = thing.callback
                if callback is not None:
                    thing.callback = None
                    self._now = when
                    callback()
        return False

    # What the bots hear -------------------------------------------------------------------

    def _heard(self, events: list[Event]) -> None:
        """Every event once: tallied, and told to each bot as ``Bot._on_events`` takes it."""
        meanings = self._meanings
        decisive = 0
        changed = False
        own: list[int] | None = None
        for event in events:
            tally, code = meanings.get(type(event)) or self._meaning(event)
            if tally:
                if tally == _TALLY_ACTION:
                    self._actions += 1
                elif tally == _TALLY_STEP:
                    self._steps += 1
                else:
                    self._scored(event)
            if decisive or not code:
                continue
            if code == CHANGE:
                changed = True
            elif code == OWN:
                if own is None:
                    own = []
                own.append(event.seat)  # type: ignore[attr-defined]
            else:
                decisive = code
        if decisive == START:
            for seat in self.seats:
                self._start(seat)
        elif decisive == END:
            for seat in self.seats:
                self._halt(seat)
        elif changed:
            now = self._now
            bits = self._bits
            decisions = self._decisions
            decisions.clear()  # only a seat with a free hand thinks, and each is replanned
            number = self._seq
            for seat in self.seats:  # _plan, inlined: this is the simulation's hottest loop
                if len(seat.busy) < seat.hands:
                    draw = bits(_TWO_DRAWS)
                    when = now + seat.think[draw & _LOW] * seat.scale
                    if not seat.landing:
                        when += seat.perception[draw >> _BITS]
                    if when < seat.frozen:
                        when = seat.frozen
                    number += 1
                    seat.planned = number
                    heappush(decisions, (when, number, seat))
            self._seq = number
        elif own:
            for seat in self.seats:
                if seat.seat in own and len(seat.busy) < seat.hands:
                    self._plan(seat)

    def _meaning(self, event: Event) -> tuple[int, int]:
        """What an event of this type means to the tally and to a bot (``Bot``'s codes)."""
        kind = event.kind
        tally = (_TALLY_ACTION if kind in ACTIONS else _TALLY_STEP if kind in STEPS
                 else _TALLY_SCORED if type(event) is RoundScored else 0)
        found = self._meanings[type(event)] = (tally, self._codes.get(type(event), 0))
        return found

    def _scored(self, event: Any) -> None:
        result = event.result
        now = self.table.now
        self.rounds.append((result.winner, now - self._started, self._actions, self._steps,
                            result.scores))
        self._actions = self._steps = 0
        self._started = now

    # A bot, as Bot does it ----------------------------------------------------------------

    def _start(self, seat: Seat) -> None:
        self._halt(seat)
        table = self.table
        seat.frozen = self._now + max(0, table.frozen_until[seat.seat] - table.now) / 1000
        seat.scale = 1 + seat.per_item * seat.brain.work(
            self._view(table.match.round, seat.seat))
        self._plan(seat)

    def _halt(self, seat: Seat) -> None:
        seat.planned = 0
        for hand in seat.busy:
            hand.live = False
        seat.busy.clear()

    def _plan(self, seat: Seat) -> None:
        draw = self._bits(_TWO_DRAWS)
        when = self._now + seat.think[draw & _LOW] * seat.scale
        if not seat.landing:
            when += seat.perception[draw >> QUANTILE_BITS]
        if when < seat.frozen:
            when = seat.frozen
        number = seat.planned = self._seq = self._seq + 1
        heappush(self._decisions, (when, number, seat))

    def _decide(self, seat: Seat) -> None:
        table = self.table
        if table.phase is not _PLAYING:
            return
        view = self._view(table.match.round, seat.seat)
        brain = seat.brain
        seat.scale = 1 + seat.per_item * brain.work(view)
        action = None
        if seat.mistakes and self._random() < seat.mistakes:
            action = brain.mistake(view)
        busy = seat.busy
        if action is None:
            action = brain.choose(view, tuple([hand.action for hand in busy]) if busy else ())
            if action is None:
                return
        hand = _Hand(action, seat.seat)
        self._seq += 1
        heappush(self._queue, (self._now + seat.motor[self._bits(QUANTILE_BITS)], self._seq,
                               _LAND, hand))
        busy.append(hand)
        if len(busy) < seat.hands:
            self._plan(seat)

    def _land(self, hand: _Hand) -> None:
        number = hand.seat
        seat = self.seats[number]
        if seat.one_hand:
            if self._now < seat.ready:
                self._seq += 1
                heappush(self._queue, (seat.ready, self._seq, _LAND, hand))
                return
        else:
            seat.busy.remove(hand)
        table = self.table
        seat.landing = True
        try:
            table.submit(number, hand.action, math.floor(self._now * 1000 + 1e-6))
        except IllegalAction as refusal:
            seat.landing = False
            self._refused(seat, hand, refusal)
            return
        seat.landing = False
        if seat.one_hand:
            if hand not in seat.busy:
                return
            seat.busy.remove(hand)
            seat.ready = self._now + _PAUSE
            seat.landing = True
            self._plan(seat)
            seat.landing = False

    def _refused(self, seat: Seat, hand: _Hand, outcome: IllegalAction) -> None:
        if seat.one_hand:
            if hand not in seat.busy:
                return
            seat.busy.remove(hand)
        what, wait = refusal(outcome, self.table, seat.seat, seat)
        if what & PAUSE and seat.one_hand:
            seat.ready = self._now + _PAUSE
        if what & FREEZE:
            seat.frozen = self._now + wait
        if what & RETRY:
            seat.ready = self._now + wait
            seat.busy.append(hand)
            self._seq += 1
            heappush(self._queue, (seat.ready, self._seq, _LAND, hand))
        elif what & PLAN:
            self._plan(seat)
