"""The simulator's fast path: bots at a real table with no timers, links or per-seat fan-out.

:class:`~zackzack.bots.Bot` reaches a table through a link, wakes by a clock's timers and
hears the events each seat may see, one subscription per seat: what a live table needs. In
a simulation nobody else watches, so one :class:`Match` is the clock of its table and the
body of every bot: it keeps the table's timers, and each bot's decision and hands in flight,
hears the events once and tells each bot what they mean to it. The table, the rules
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
from typing import Any, Final

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
from zackzack.engine.clock import TimerQueue
from zackzack.engine.table import ONE_HAND_PAUSE_MS, Phase, RoundScored, Settings, Table
from zackzack.games.base import Action, Event, Rules
from zackzack.games.declarations import Brain
from zackzack.games.errors import IllegalAction

ACTIONS: Final = frozenset({"played", "drew", "moved"})
"""Event kinds that are a player's accepted action."""
STEPS: Final = frozenset({"rotated", "flipped", "reshuffled"})
"""Event kinds that are an automatic step: Nichts geht mehr, a stalemate flip or reshuffle."""

# Final: the compiled build keeps these in C variables, not in the module's dict.
_BITS: Final = QUANTILE_BITS
_LOW: Final = (1 << QUANTILE_BITS) - 1
_TWO_DRAWS: Final = 2 * QUANTILE_BITS
_PAUSE: Final = ONE_HAND_PAUSE_MS / 1000
_PLAYING: Final = Phase.PLAYING
_NEVER: Final = math.inf
_TALLY_ACTION: Final = 1 << 3
_TALLY_STEP: Final = 2 << 3
_TALLY_SCORED: Final = 3 << 3
_CODE: Final = 7
"""A meaning is a tally (these, or 0) plus a bot's code (``CHANGE`` … ``END``, or 0)."""


_MEANINGS: Final[dict[str, dict[type[Event], int]]] = {}
"""Per game: what each event type means to the tally and to a bot (``Match._meaning``)."""


class _Hand:
    """An action on its way to the table, landing at ``when`` (queue number ``number``)."""

    __slots__ = ("action", "number", "seat", "when")

    def __init__(self, action: Action, seat: int, when: float, number: int) -> None:
        self.action = action
        self.seat = seat
        self.when = when
        self.number = number


class Seat:
    """One bot's state in the fast path: ``Bot``'s fields, without link or timers."""

    __slots__ = ("brain", "busy", "frozen", "hands", "landing", "mistakes", "motor", "one_hand",
                 "per_item", "perception", "planned", "ready", "scale", "seat", "think",
                 "too_late", "when", "wrong_cards")

    def __init__(self, brain: Brain, seat: int, spec: BotSpec, one_hand: bool) -> None:
        self.brain = brain
        self.seat = seat
        (self.perception, self.think, self.motor, self.per_item, self.mistakes,
         self.scale) = timing(REACTIONS[spec.level])
        self.one_hand = one_hand
        self.hands = 1 if one_hand else type(brain).HANDS
        self.busy: list[_Hand] = []
        """The hands on their way (at most ``hands``): nothing else is."""
        self.frozen = self.ready = 0.0
        self.landing = False
        self.planned = 0
        """The queue number of the decision being thought about (0: none)."""
        self.when = 0.0
        """When that decision falls, in virtual seconds."""
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
        super().__init__()  # the table's timers
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
        seats = self.seats
        while True:
            # What comes first: a bot's decision, a hand landing or a table's timer, by time
            # and then by queue number. A few seats, each thinking about one decision and
            # moving a hand or two at most, are looked through faster than a heap is kept.
            when = _NEVER
            number = 0
            thinking: Seat | None = None
            landing: _Hand | None = None
            for seat in seats:
                if seat.planned and (seat.when < when or (
                        seat.when == when and seat.planned < number)):
                    when, number, thinking, landing = seat.when, seat.planned, seat, None
                for hand in seat.busy:
                    if hand.when < when or (hand.when == when and hand.number < number):
                        when, number, thinking, landing = hand.when, hand.number, None, hand
            if queue and (queue[0][0] < when or (queue[0][0] == when and queue[0][1] < number)):
                if queue[0][0] > until:
                    return True
                self._fire_first()
            elif when > until:
                return when != _NEVER
            elif thinking is not None:
                thinking.planned = 0
                self._now = when
                self._decide(thinking)
            elif landing is not None:
                self._now = when
                self._land(landing)

    # What the bots hear -------------------------------------------------------------------

    def _heard(self, events: list[Event]) -> None:
        """Every event once: tallied, and told to each bot as ``Bot._on_events`` takes it."""
        meanings = self._meanings
        decisive = 0
        changed = False
        own = 0  # the seats, as bits, whose own action an event tells of
        for event in events:
            meaning = meanings.get(type(event), -1)
            if meaning < 0:
                meaning = self._meaning(event)
            if meaning > _CODE:
                if meaning < _TALLY_STEP:
                    self._actions += 1
                elif meaning < _TALLY_SCORED:
                    self._steps += 1
                else:
                    self._scored(event)
            code = meaning & _CODE
            if decisive or not code:
                continue
            if code == CHANGE:
                changed = True
            elif code == OWN:
                own |= 1 << event.seat  # type: ignore[attr-defined]
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
                    seat.when = when
                else:
                    seat.planned = 0  # only a seat with a free hand thinks
            self._seq = number
        elif own:
            for seat in self.seats:
                if own >> seat.seat & 1 and len(seat.busy) < seat.hands:
                    self._plan(seat)

    def _meaning(self, event: Event) -> int:
        """What an event of this type means to the tally and to a bot (``Bot``'s codes)."""
        kind = event.kind
        tally = (_TALLY_ACTION if kind in ACTIONS else _TALLY_STEP if kind in STEPS
                 else _TALLY_SCORED if type(event) is RoundScored else 0)
        found = self._meanings[type(event)] = tally | self._codes.get(type(event), 0)
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
        seat.busy.clear()

    def _plan(self, seat: Seat) -> None:
        draw = self._bits(_TWO_DRAWS)
        when = self._now + seat.think[draw & _LOW] * seat.scale
        if not seat.landing:
            when += seat.perception[draw >> _BITS]
        if when < seat.frozen:
            when = seat.frozen
        seat.planned = self._seq = self._seq + 1
        seat.when = when

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
        self._seq += 1
        busy.append(_Hand(action, seat.seat, self._now + seat.motor[self._bits(_BITS)],
                          self._seq))
        if len(busy) < seat.hands:
            self._plan(seat)

    def _land(self, hand: _Hand) -> None:
        number = hand.seat
        seat = self.seats[number]
        if seat.one_hand:
            if self._now < seat.ready:  # the pause the rule demands
                self._seq += 1
                hand.when, hand.number = seat.ready, self._seq
                return
        else:
            seat.busy.remove(hand)
        seat.landing = True
        outcome = self.table.attempt(number, hand.action, math.floor(self._now * 1000 + 1e-6))
        seat.landing = False
        if not isinstance(outcome, list):  # the refusal
            self._refused(seat, hand, outcome)
            return
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
            self._seq += 1
            hand.when, hand.number = seat.ready, self._seq
            seat.busy.append(hand)
        elif what & PLAN:
            self._plan(seat)
