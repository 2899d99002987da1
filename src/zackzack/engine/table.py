"""One live game: actions applied strictly in arrival order, the race's digital rules, countdowns.

The table owns the match and its round state. It knows nothing of sockets, browsers or bots:
seats submit actions, subscribers receive the events each seat may see, and time comes from
a :class:`~zackzack.engine.clock.Clock`. Table time is whole milliseconds since the table was made;
every arriving action is logged with its time, so a log replays to the same game bit for bit
(a simulation that will not replay may keep no log: ``keep_log=False``).
Its data (phases, settings, events, log entries, views) is in ``zackzack.engine.table_data``,
exported here too.

>>> from zackzack.engine.clock import VirtualClock
>>> from zackzack.games import unter_spannung as us
>>> table = Table(us, us.Options(players=2), seed=1, clock=VirtualClock())
>>> table.start()
>>> table.phase
<Phase.PLAYING: 'playing'>
>>> table.submit(0, us.Draw())[0].seat
0
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Final, Generic

from zackzack.engine.clock import Clock, Timer
from zackzack.engine.table_data import (
    EVENTS,
    LIVE,
    Announced,
    Cancelled,
    Delay,
    Entry,
    MatchEnded,
    NextRound,
    Paused,
    Penalised,
    Phase,
    Resumed,
    Resuming,
    RoundScored,
    RoundStarted,
    Settings,
    Starting,
    TableView,
)
from zackzack.games.base import (
    ActionT,
    Event,
    EventT,
    Match,
    MatchResult,
    OptionsT,
    RoundResult,
    Rules,
    StateT,
    ViewT,
)
from zackzack.games.errors import (
    DoesNotFit,
    Frozen,
    IllegalAction,
    NoSuchSeat,
    NotPlaying,
    OneHand,
    RoundOver,
    TooLate,
)

ONE_HAND_PAUSE_MS: Final = 400
_NO_SETTINGS: Final = Settings()
"""The default settings: no countdowns (a test, a simulation)."""
# Final: the compiled build keeps these in C variables, not in the module's dict.
_WAITING: Final = Phase.WAITING
_STARTING: Final = Phase.STARTING
_PLAYING: Final = Phase.PLAYING
_BETWEEN: Final = Phase.BETWEEN
_OVER: Final = Phase.OVER
_PAUSED: Final = Phase.PAUSED


Subscriber = Callable[[list[Event]], object]
"""Receives each batch of events; subscribers may share one list, so none may change it."""
ResultHook = Callable[["Table[Any, Any, Any, Any, Any]", RoundResult, MatchResult | None],
                      object]
"""Called with each round's result (and the match's, at its end) before anyone is told."""


@dataclass(slots=True, eq=False)
class _Subscription:
    seat: int | None
    callback: Subscriber
    everything: bool = False


@dataclass(slots=True)
class _Due:
    at: int
    what: str
    timer: Timer | None = field(default=None)


class Table(Generic[OptionsT, StateT, ViewT, ActionT, EventT]):
    """A live match of one game at one table, typed by the game's options, state, view,
    action and event types (``Table(us, us.Options())`` is a ``Table[us.Options, …]``)."""

    def __init__(self, rules: Rules[OptionsT, StateT, ViewT, ActionT, EventT], options: OptionsT,
                 *, clock: Clock, seed: int = 0, first_round: StateT | None = None,
                 settings: Settings = _NO_SETTINGS, on_result: ResultHook | None = None,
                 on_entry: Callable[[Entry[ActionT]], object] | None = None,
                 keep_log: bool = True) -> None:
        self.rules = rules
        self.options = options
        self.settings = settings
        self.seed = seed
        self.clock = clock
        self.match: Match[StateT] = rules.new_match(options, random.Random(seed), first_round)
        self.first_deal: dict[str, Any] | None = (
            rules.deal_to_json(first_round) if first_round is not None else None)
        self.players: int = options.players
        self.phase = _WAITING
        self.now = 0
        self.log: list[Entry[ActionT]] = []
        """Every arriving action; none (and no ``on_entry``) at a table made with
        ``keep_log=False``: a simulation that never replays its match."""
        self._keep_log = keep_log
        self.frozen_until = [0] * self.players
        self.last_action = [-ONE_HAND_PAUSE_MS] * self.players
        self.countdown: Announced | None = None
        self.on_result = on_result
        self.on_entry = on_entry
        self._t0 = clock.time()
        self._subscriptions: list[_Subscription] = []
        self._due: list[_Due] = []
        self._since: list[list[int]] = []
        self._by: list[list[int | None]] = []
        """Per pile and version: the seat whose action made it (``None``: the table)."""
        self._one_hand = [options.one_hand(seat) for seat in range(self.players)]
        self._attempt: Callable[[StateT, int, ActionT], list[Event] | IllegalAction] = \
            getattr(rules, "attempt", None) or _attempting(rules.apply)
        """The rules' ``apply`` that returns its refusal (a game may have it as ``attempt``)."""
        self._pending = rules.pending
        self._versions = rules.versions
        """The rules the table calls on every action, looked up once."""
        self._next_round_at: int | None = None
        self._starts_at: int | None = None
        self._paused_from: Phase | None = None
        self._resume: Timer | None = None
        self._resume_at: float | None = None

    # Observing ---------------------------------------------------------------------------

    @property
    def state(self) -> StateT:
        """The current round's state (private to the table, the rules and replays).

        The table's own hot paths read ``match.round`` directly: one call less per action.
        """
        return self.match.round

    def subscribe(self, seat: int | None, callback: Subscriber) -> Callable[[], None]:
        """Send ``callback`` every event as ``seat`` may see it; returns the unsubscriber."""
        if seat is not None and not 0 <= seat < self.players:
            raise NoSuchSeat(f"there is no seat {seat}")
        return self._add(_Subscription(seat, callback))

    def subscribe_all(self, callback: Subscriber) -> Callable[[], None]:
        """Send ``callback`` every event unredacted: for storage and replays, never a client."""
        return self._add(_Subscription(None, callback, everything=True))

    def _add(self, subscription: _Subscription) -> Callable[[], None]:
        # The list is replaced, never changed: a publish can go on over the one it started with.
        self._subscriptions = [*self._subscriptions, subscription]

        def unsubscribe() -> None:
            self._subscriptions = [s for s in self._subscriptions if s is not subscription]

        return unsubscribe

    def view(self, seat: int | None) -> TableView[ViewT]:
        """Everything ``seat`` may see now; hands stay hidden until the match starts."""
        phase, match = self.phase, self.match
        return TableView(
            game=self.rules.INFO.name,
            phase=phase,
            now=self.now,
            seat=seat,
            players=self.players,
            round=match.number,
            state=None if phase is _WAITING or phase is _STARTING
            else self.rules.view(match.round, seat),
            frozen_until=tuple(self.frozen_until),
            countdown=self.countdown,
            next_round_at=self._next_round_at,
            starts_at=self._starts_at,
            results=tuple(match.results),
            totals=tuple(match.totals),
            result=match.result,
            resumes_in=None if self._resume_at is None else max(
                0, round((self._resume_at - self.clock.time()) * 1000)),
        )

    def time_ms(self) -> int:
        """The table time now: whole milliseconds since the table was made, pauses left out."""
        if self.phase is _PAUSED:
            return self.now
        return max(self.now, math.floor((self.clock.time() - self._t0) * 1000 + 1e-6))

    # Acting ------------------------------------------------------------------------------

    def start(self, at: int | None = None) -> None:
        """Start the match: after the start countdown, round 1 is on."""
        if self.phase is not _WAITING:
            raise NotPlaying("the table has started already")
        self.now = self.time_ms() if at is None else at
        if self.settings.start_ms:
            self.phase = _STARTING
            self._starts_at = self.now + self.settings.start_ms
            self._schedule(self._starts_at, "start")
            self._publish([Starting(self._starts_at)])
        else:
            self._begin_round(self.now)

    def submit(self, seat: int, action: ActionT, at: int | None = None) -> list[Event]:
        """Apply ``seat``'s ``action`` now (or at table time ``at``, for replays).

        Returns the accepted events; raises ``IllegalAction`` (state unchanged) otherwise.
        """
        outcome = self.attempt(seat, action, at)
        if not isinstance(outcome, list):
            raise outcome
        return outcome

    def attempt(self, seat: int, action: ActionT,
                at: int | None = None) -> list[Event] | IllegalAction:
        """:meth:`submit`, but a refusal is returned, not raised (the simulator's way: it
        has thousands, and a raised one costs a traceback).

        >>> from zackzack.engine.clock import VirtualClock
        >>> from zackzack.games import unter_spannung as us
        >>> table = Table(us, us.Options(players=2), seed=1, clock=VirtualClock())
        >>> table.start()
        >>> table.attempt(5, us.Draw()).code
        'no_such_seat'
        """
        t = self.time_ms() if at is None else max(at, self.now)
        if self._due:
            self.advance(t)
        self.now = t
        if not 0 <= seat < self.players:
            return NoSuchSeat("there is no seat {}", seat)
        phase = self.phase
        if phase is not _PLAYING:
            if phase is _BETWEEN or phase is _OVER:
                return RoundOver("the round is over")
            if phase is _PAUSED:
                return NotPlaying("the game is paused")
            return NotPlaying("the round has not started")
        if self._keep_log:  # logged from here on: even a refusal may freeze a player
            entry = Entry(t, seat, action)
            self.log.append(entry)
            if self.on_entry is not None:
                self.on_entry(entry)
        frozen = self.frozen_until[seat]
        if t < frozen:
            return Frozen("frozen for {} ms more", frozen - t)
        if self._one_hand[seat] and t < self.last_action[seat] + ONE_HAND_PAUSE_MS:
            return OneHand("one hand only: wait {} ms more",
                           self.last_action[seat] + ONE_HAND_PAUSE_MS - t)
        events = self._attempt(self.match.round, seat, action)
        if not isinstance(events, list):  # refused
            if self.settings.revision > 1:
                self.last_action[seat] = t  # one hand: a refused card took its time too
            if isinstance(events, TooLate | DoesNotFit):
                return self._judge_miss(seat, events, t)
            return events
        self.last_action[seat] = t
        self._after(events, t, seat)
        return events

    def aim(self, action: ActionT, newest: int | None = None) -> ActionT:
        """``action`` aimed at the newest pile version from its ``seen`` to ``newest`` (or to
        the newest there is) that its card fitted: what a reaction to any of them was."""
        state = self.match.round
        if newest is None:
            newest = max(self.rules.versions(state))
        return self.rules.aim(state, action, newest)

    def pause(self, at: int | None = None) -> None:
        """Halt play (at table time ``at``): timers stop, actions are refused, time stands still."""
        if self.phase in (_WAITING, _OVER, _PAUSED):
            raise NotPlaying(f"a table that is {self.phase.value} cannot be paused")
        t = self.time_ms() if at is None else max(at, self.now)
        self.advance(t)
        self.now = t
        self._paused_from, self.phase = self.phase, _PAUSED
        for due in self._due:
            if due.timer is not None:
                due.timer.cancel()
                due.timer = None
        self._publish([Paused()])

    def skip_wait(self) -> bool:
        """Between rounds: start the next round now (everybody is ready). The rest of the wait
        is skipped in table time, not left out of it: table time jumps to ``next_round_at``,
        so the log, replays and restores are exactly what the full wait would have made.
        ``False`` (nothing changes) at any other time.

        >>> from zackzack.engine.clock import VirtualClock
        >>> from zackzack.games import unter_spannung as us
        >>> table = Table(us, us.Options(players=2), seed=1, clock=VirtualClock())
        >>> table.skip_wait()
        False
        """
        if self.phase is not _BETWEEN or self._next_round_at is None:
            return False
        at = self._next_round_at
        gap = at - self.time_ms()
        if gap > 0:
            self._t0 -= gap / 1000
            for due in self._due:
                if due.timer is not None:
                    due.timer.cancel()
                self._arm(due)
        self.advance(at)
        return True

    def resume(self, delay_ms: int = 3000) -> None:
        """Resume a paused table after a visible countdown of ``delay_ms`` real milliseconds."""
        if self.phase is not _PAUSED:
            raise NotPlaying("the table is not paused")
        if self._resume is None:
            self._resume_at = self.clock.time() + delay_ms / 1000
            self._resume = self.clock.call_at(self._resume_at, self._resumed)
            self._publish([Resuming(delay_ms)])

    def _resumed(self) -> None:
        self._resume = self._resume_at = None
        self._t0 = self.clock.time() - self.now / 1000
        self.phase = self._paused_from or _PLAYING
        for due in self._due:
            self._arm(due)
        self._publish([Resumed()])

    def halt(self) -> None:
        """Stop for good without a word: no timer runs any more and every action is refused
        (another process took the table over: ``server/cluster.py``)."""
        if self._resume is not None:
            self._resume.cancel()
            self._resume = self._resume_at = None
        for due in self._due:
            if due.timer is not None:
                due.timer.cancel()
                due.timer = None
        if self.phase not in (_WAITING, _OVER):
            self._paused_from, self.phase = self.phase, _PAUSED

    # Inside ------------------------------------------------------------------------------

    def _judge_miss(self, seat: int, miss: IllegalAction, t: int) -> IllegalAction:
        """``TooLate`` (who won, by how much), or ``DoesNotFit`` with its penalty.

        The card was too late if it fitted the version it names (``seen``: see ``aim``),
        replaced at most ``late_grace_ms`` ago.
        """
        if not isinstance(miss, TooLate):
            self._penalise(seat, t)
            return miss
        pile, seen = miss.pile, miss.seen
        replaced = self._since[pile][seen + 1]
        if t - replaced > self.settings.late_grace_ms:
            self._penalise(seat, t)
            return DoesNotFit("{} {} ms ago: that is too long", miss, t - replaced)
        miss.winner, miss.margin_ms = self._by[pile][seen + 1], t - replaced
        return miss

    def _penalise(self, seat: int, t: int) -> None:
        penalty: int = self.options.penalty_ms
        if penalty:
            self.frozen_until[seat] = t + penalty
            self._publish([Penalised(seat, t + penalty)])

    def _after(self, events: Sequence[Event], t: int, seat: int | None = None) -> None:
        """Bookkeeping after accepted events: versions, round end, the next automatic step."""
        state = self.match.round
        since = self._since
        for pile, version in enumerate(self._versions(state)):
            times = since[pile]
            if len(times) <= version:  # a new version: note when, and whose action made it
                by = self._by[pile]
                while len(times) <= version:
                    times.append(t)
                    by.append(seat)
        if state.over:
            self._cancel("step")
            self.countdown = None
            events = [*events, *self._finish_round(t)]
        else:
            step = self._pending(state)
            if step is not None or self.countdown is not None:
                events = self._plan_step(events, t, step)
        self._publish(events)

    def _plan_step(self, events: Sequence[Event], t: int, step: ActionT | None) -> Sequence[Event]:
        if step is None and self.countdown is None:
            return events  # the common case: play goes on
        if self.countdown is not None:
            if step is not None and step.kind == self.countdown.step and not events:
                return events
            events = [*events, Cancelled(self.countdown.step)]
            self._cancel("step")
            self.countdown = None
        if step is not None:
            self.countdown = Announced(step.kind, t + self.options.countdown_ms)
            self._schedule(self.countdown.due, "step")
            events = [*events, self.countdown]
        return events

    def _finish_round(self, t: int) -> list[Event]:
        result = self.match.finish_round()
        final = self.match.result
        if self.on_result is not None:
            self.on_result(self, result, final)
        events: list[Event] = [RoundScored(result, self._totals())]
        if final is not None:
            self.phase = _OVER
            events.append(MatchEnded(final))
        else:
            self.phase = _BETWEEN
            self._next_round_at = t + self.settings.between_rounds_ms
            self._schedule(self._next_round_at, "round")
            events.append(NextRound(self.match.number + 1, self._next_round_at))
        return events

    def _totals(self) -> tuple[int, ...]:
        return tuple(self.match.totals)

    def _begin_round(self, t: int) -> None:
        if self.match.results and len(self.match.results) == self.match.number:
            self.match.next_round()
        self.phase = _PLAYING
        self._next_round_at = self._starts_at = None
        self.frozen_until = [0] * self.players
        self._since = [[t] * (v + 1) for v in self.rules.versions(self.state)]
        self._by = [[None] * (v + 1) for v in self.rules.versions(self.state)]
        self._publish(self._plan_step([RoundStarted(self.match.number)], t,
                                      self.rules.pending(self.match.round)))

    def _schedule(self, at: int, what: str) -> None:
        due = _Due(at, what)
        self._due.append(due)
        if self.phase is not _PAUSED:
            self._arm(due)

    def _arm(self, due: _Due) -> None:
        due.timer = self.clock.call_at(self._t0 + due.at / 1000, lambda: self._fire(due))

    def _cancel(self, what: str) -> None:
        for due in [d for d in self._due if d.what == what]:
            self._due.remove(due)
            if due.timer is not None:
                due.timer.cancel()

    def advance(self, t: int) -> None:
        """Run the table's own timers due by table time ``t``, as a virtual clock would."""
        while self._due:
            due = min(self._due, key=lambda d: d.at)
            if due.at > t:
                return
            if due.timer is not None:
                due.timer.cancel()
            self._fire(due)

    def _fire(self, due: _Due) -> None:
        if due not in self._due:
            return
        self._due.remove(due)
        self.now = max(self.now, due.at)
        if due.what == "step":
            self._run_step(due.at)
        else:
            self._begin_round(due.at)

    def _run_step(self, t: int) -> None:
        step = self.rules.pending(self.state)
        self.countdown = None
        if step is None:
            return
        events = self.rules.apply(self.state, None, step)
        self._after(events, t)

    def _publish(self, events: Sequence[Event]) -> None:
        if not events:
            return
        public: bool | None = None  # found out at the first seat (a simulation has none)
        shared = list(events)  # one list for every subscriber that sees it all
        for subscription in self._subscriptions:
            if subscription.everything:
                subscription.callback(shared)
                continue
            if public is None:
                public = all(type(event).seen_by is _SEEN_BY_ALL for event in events)
            if public:
                subscription.callback(shared)
                continue
            seat = subscription.seat
            seen = []
            for event in events:
                shown = event.seen_by(seat)
                if shown is not None:
                    seen.append(shown)
            if seen:
                subscription.callback(seen)


_SEEN_BY_ALL = Event.seen_by


def _attempting(apply: Callable[[Any, int, Any], list[Event]]
                ) -> Callable[[Any, int, Any], list[Event] | IllegalAction]:
    """A game's ``apply`` that returns its refusal, for a game without ``attempt``."""
    def attempt(state: Any, seat: int, action: Any) -> list[Event] | IllegalAction:
        try:
            return apply(state, seat, action)
        except IllegalAction as refusal:
            return refusal
    return attempt


__all__: Sequence[str] = (
    "EVENTS",
    "LIVE",
    "ONE_HAND_PAUSE_MS",
    "Announced",
    "Cancelled",
    "Delay",
    "Entry",
    "MatchEnded",
    "NextRound",
    "Paused",
    "Penalised",
    "Phase",
    "ResultHook",
    "Resumed",
    "Resuming",
    "RoundScored",
    "RoundStarted",
    "Settings",
    "Starting",
    "Subscriber",
    "Table",
    "TableView",
)
