"""A bot at a table: it watches one seat's events, reacts like a person and acts via the table.

The bot wakes only for a change that alters what its seat can do (a new top card, its own
draw or move, a new round). It then notices the change (perception), thinks (longer with
more cards to compare) and decides from ``rules.view(state, seat)`` alone; a change before
the decision starts the reaction again, a change during the motor delay does not stop the
hand, so its card may arrive too late. With two hands (Schnelllauf without the one-hand
handicap) the bot looks for its next card while the first is on its way. Timers come from
``table.clock``: the asyncio loop in the live server, a :class:`VirtualClock` for a network
simulation. A simulation without a network runs the same timing model on its fast path,
``zackzack.sim.fast``, which has no link or timers: a change here must be made there too
(``tests/sim/test_equivalence.py`` fails until both play every match the same).
"""

from __future__ import annotations

import random
from typing import Final, Protocol

from zackzack.bots.reaction import QUANTILE_BITS, REACTIONS, Reaction
from zackzack.bots.spec import BotSpec, parse_bot
from zackzack.engine.clock import Timer
from zackzack.engine.race import DirectLink, Link, Outcome
from zackzack.engine.table import (
    ONE_HAND_PAUSE_MS,
    MatchEnded,
    Paused,
    Phase,
    Resumed,
    RoundScored,
    RoundStarted,
    Table,
)
from zackzack.games import entry
from zackzack.games.base import Action, Event
from zackzack.games.declarations import Brain
from zackzack.games.errors import (
    DoesNotFit,
    Frozen,
    IllegalAction,
    NotPlaying,
    OneHand,
    RoundOver,
    TooLate,
)

# Final (here and below): the compiled build puts the numbers in the code, not in a dict.
CHANGE: Final = 1
OWN: Final = 2
START: Final = 3
END: Final = 4
"""What an event means to a bot: plans change, its own action landed, play starts or stops."""
_LOW: Final = (1 << QUANTILE_BITS) - 1
_TWO_DRAWS: Final = 2 * QUANTILE_BITS
_Q = tuple[float, ...]
_brains: dict[str, tuple[type[Brain], dict[type[Event], int]]] = {}


def brain_class(game: str) -> type[Brain]:
    """The ``Brain`` class of the game called ``game``."""
    return strategy(game)[0]


def strategy(game: str) -> tuple[type[Brain], dict[type[Event], int]]:
    """The game's ``Brain`` and what each event means to a bot (cached: bots come by the
    thousand in a simulation)."""
    found = _brains.get(game)
    if found is None:
        try:
            brain = entry(game).brain()
        except (ValueError, ModuleNotFoundError):
            raise ValueError(f"no bots for the game {game!r}") from None
        codes: dict[type[Event], int] = {RoundStarted: START, Resumed: START,
                                         RoundScored: END, MatchEnded: END, Paused: END}
        codes.update(dict.fromkeys(brain.OWN, OWN))
        codes.update(dict.fromkeys(brain.CHANGES, CHANGE))
        found = _brains[game] = (brain, codes)
    return found


def timing(reaction: Reaction) -> tuple[_Q, _Q, _Q, float, float, float]:
    """What a bot draws its timing from (both drivers, :class:`Bot` and
    ``zackzack.sim.fast``): the perception, think and motor quantiles, the think time per
    item compared, the mistake rate and the think scale of four cards."""
    return (reaction.perception.quantiles, reaction.think.quantiles, reaction.motor.quantiles,
            reaction.per_item / reaction.think.median, reaction.mistakes,
            reaction.think_scale(4))


class Bot:
    """A bot in ``seat`` of ``table``, playing as ``spec`` says (``"pro"``, ``"normal:random"``)."""

    __slots__ = ("_bits", "_busy", "_clock", "_codes", "_frozen", "_hands", "_landing", "_mistakes",
                 "_motor", "_one_hand", "_per_item", "_perception", "_ready", "_scale",
                 "_think", "_timer", "_unsubscribe", "brain", "link", "reaction", "rng", "seat",
                 "spec", "table", "too_late", "wrong_cards")

    def __init__(self, table: Table, seat: int, spec: BotSpec | str, rng: random.Random,
                 link: Link | None = None) -> None:
        self.spec = spec if isinstance(spec, BotSpec) else parse_bot(spec)
        self.table = table
        self.link: Link = DirectLink(table, seat) if link is None else link
        self.seat = seat
        self.rng = rng
        self.reaction = reaction = REACTIONS[self.spec.level]
        brain, self._codes = strategy(table.rules.INFO.name)
        self.brain: Brain = brain(table.options, seat, self.spec.strategy, rng)
        self.wrong_cards = 0
        """Wrong cards this bot played (each cost the penalty freeze)."""
        self.too_late = 0
        """Cards that lost the race: they fitted the pile the bot aimed at, too late."""
        self._clock = table.clock
        self._bits = rng.getrandbits
        (self._perception, self._think, self._motor, self._per_item, self._mistakes,
         self._scale) = timing(reaction)
        self._one_hand = table.options.one_hand(seat)
        self._hands = 1 if self._one_hand else brain.HANDS
        self._timer: Timer | None = None
        """The decision being thought about, if any."""
        self._busy: list[_Hand] = []
        """Actions on their way to the table, one per busy hand."""
        self._frozen = self._ready = 0.0
        self._landing = False
        self._unsubscribe = self.link.subscribe(self._on_events)
        if table.phase is Phase.PLAYING:
            self._start()

    def __repr__(self) -> str:
        return f"Bot(seat={self.seat}, spec='{self.spec}')"

    def stop(self) -> None:
        """Leave the seat: no more events, no more actions (a person took it back)."""
        self._unsubscribe()
        self._halt()

    # Reacting ----------------------------------------------------------------------------

    def _on_events(self, events: list[Event]) -> None:
        codes = self._codes
        changed = False
        for event in events:
            code = codes.get(type(event))
            if code is None:
                continue
            if code == CHANGE:
                changed = True
            elif code == OWN:  # an OWN event has a seat (typing.cast would cost a call here)
                if event.seat == self.seat:  # type: ignore[attr-defined]
                    changed = True
            elif code == START:
                self._start()
                return
            elif code == END:
                self._halt()
                return
        if changed and len(self._busy) < self._hands:
            self._plan()

    def _start(self) -> None:
        """A round starts, play resumes or the bot sits down: look at the table afresh."""
        self._halt()
        table = self.table
        self._frozen = self._clock.time() + max(0, table.frozen_until[self.seat] - table.now) / 1000
        self._scale = 1 + self._per_item * self.brain.work(self.link.view())
        self._plan()

    def _halt(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        for hand in self._busy:
            hand.timer.cancel()
        self._busy.clear()

    def _plan(self) -> None:
        """Notice the change and think: the decision falls when this timer fires.

        A change the bot made itself needs no noticing: it knows where its card went.
        """
        timer = self._timer
        if timer is not None:
            timer.cancel()
        draw = self._bits(_TWO_DRAWS)
        clock = self._clock
        when = clock.time() + self._think[draw & _LOW] * self._scale
        if not self._landing:
            when += self._perception[draw >> QUANTILE_BITS]
        if when < self._frozen:
            when = self._frozen
        self._timer = clock.call_at(when, self._decide)

    def _decide(self) -> None:
        self._timer = None
        table = self.table
        if table.phase is not Phase.PLAYING:
            return
        view = self.link.view()
        brain = self.brain
        self._scale = 1 + self._per_item * brain.work(view)
        action = None
        if self._mistakes and self.rng.random() < self._mistakes:
            action = brain.mistake(view)
        busy = self._busy
        if action is None:
            action = brain.choose(view, tuple(hand.action for hand in busy) if busy else ())
            if action is None:
                return
        clock = self._clock
        hand = _Hand(self, action)
        hand.timer = clock.call_at(clock.time() + self._motor[self._bits(QUANTILE_BITS)],
                                   hand.land)
        busy.append(hand)
        if len(busy) < self._hands:
            self._plan()  # the other hand is free: look for the next card

    def _land(self, hand: _Hand) -> None:
        """The hand reaches the table: submit its action; the answer comes to ``_answered``.

        One hand keeps its action in flight until the answer is back (RULES.md: one action
        in flight); two hands are free again as soon as the card leaves them, but over a wire
        the card counts as busy until the answer shows where it went.
        """
        clock = self._clock
        if self._one_hand and clock.time() < self._ready:
            hand.timer = clock.call_at(self._ready, hand.land)  # the pause the rule demands
            return
        hand.timer = _NO_TIMER
        if not self._one_hand and self.link.instant:
            self._busy.remove(hand)
        self._landing = True  # its own events need no perception
        try:
            self.link.submit(hand.action, hand.answered)
        finally:
            self._landing = False

    def _answered(self, hand: _Hand, outcome: Outcome) -> None:
        """Take in the table's answer to ``hand``'s action."""
        self._landing = False  # a refusal must be noticed
        if self._one_hand or not self.link.instant:
            if hand not in self._busy:
                return  # the bot stopped or a new round began meanwhile
            self._busy.remove(hand)
        if not isinstance(outcome, IllegalAction):
            if self._one_hand:
                self._ready = self._clock.time() + ONE_HAND_PAUSE_MS / 1000
            if self._one_hand or not self.link.instant:
                self._landing = True  # the hand is free: look on (its own card needs no noticing)
                self._plan()
                self._landing = False
            return
        what, wait = refusal(outcome, self.table, self.seat, self)
        now = self._clock.time()
        if what & PAUSE and self._one_hand:
            self._ready = now + ONE_HAND_PAUSE_MS / 1000  # refusals count too
        if what & FREEZE:
            self._frozen = now + wait
        if what & RETRY:
            self._ready = now + wait
            self._busy.append(hand)
            hand.timer = self._clock.call_at(self._ready, hand.land)
        elif what & PLAN:
            self._plan()

PLAN: Final = 1
PAUSE: Final = 2
FREEZE: Final = 4
RETRY: Final = 8
"""What a refusal makes a bot do (:func:`refusal`; bits): plan afresh, count it towards the
one-hand pause, stay frozen for the returned time, retry the same card after it."""


class _Counts(Protocol):
    too_late: int
    wrong_cards: int


def refusal(outcome: IllegalAction, table: Table, seat: int, counts: _Counts) -> tuple[int, float]:
    """What the table's refusal ``outcome`` of ``seat``'s action means to its bot: counted on
    ``counts`` (a card too late or a wrong card), and the bits of what the bot does with the
    seconds it waits for (the freeze or the one-hand pause still due). The one home of this
    for both drivers, :class:`Bot` and ``zackzack.sim.fast``."""
    if isinstance(outcome, TooLate):
        counts.too_late += 1
        return PLAN | PAUSE, 0.0
    if isinstance(outcome, DoesNotFit | Frozen):
        wait = max(0, table.frozen_until[seat] - table.now) / 1000
        if isinstance(outcome, DoesNotFit):
            counts.wrong_cards += 1
            return PLAN | PAUSE | FREEZE, wait
        return PLAN | FREEZE, wait
    if isinstance(outcome, OneHand):
        return RETRY, max(0, table.last_action[seat] + ONE_HAND_PAUSE_MS - table.now) / 1000
    if isinstance(outcome, RoundOver | NotPlaying):
        return PAUSE, 0.0
    return PLAN | PAUSE, 0.0


class _Hand:
    """An action on its way to the table."""

    __slots__ = ("action", "bot", "timer")

    def __init__(self, bot: Bot, action: Action) -> None:
        self.bot = bot
        self.action = action
        self.timer: Timer = _NO_TIMER

    def land(self) -> None:
        """The motor delay is over."""
        self.bot._land(self)

    def answered(self, outcome: Outcome) -> None:
        """The table answered."""
        self.bot._answered(self, outcome)


class _NoTimer:
    def cancel(self) -> None:
        """Nothing to cancel."""


_NO_TIMER = _NoTimer()
