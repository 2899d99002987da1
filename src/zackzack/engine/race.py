"""Fair races over a network: what a seat saw, how far away it is, and who was first.

Three small parts sit between a table and the seats that reach it over a wire (the server's
websockets, the simulator's network model); the table itself stays deterministic and knows
nothing of networks (``docs/fairness.md`` explains the whole design):

- :class:`Sightings` records when each pile version was sent to a seat and bounds the version
  a card may claim to answer (``seen``) to what that seat could have had on screen within its
  reaction window before the press;
- :class:`LagStats` smooths a connection's round trips (lichess's ``DecayingStats``), a
  :class:`Wire` bounds them by the round trip its transport measured (which a client cannot
  stretch without delaying its own cards), and :class:`LagCredit` turns that into a bounded
  credit per action (lichess's quota); a seat's :class:`Ledger` keeps its sightings and
  credit across its person's connections;
- :class:`Arbiter` holds every action for a short decision window and hands them to the
  table in the order they were *pressed*: arrival time minus the seat's credit.

>>> from zackzack.engine.clock import VirtualClock
>>> from zackzack.games import unter_spannung as us
>>> from zackzack.engine.table import Settings, Subscriber, Table
>>> clock = VirtualClock()
>>> table = Table(us, us.Options(players=2), clock=clock, seed=1)
>>> table.start()
>>> arbiter = Arbiter(table)
>>> arbiter.set_reach(1, 80)  # seat 1 is 80 ms away: seat 0's actions wait up to 80 ms
>>> order = []
>>> play = us.Play(us.Card(3, 1), seen=0)
>>> arbiter.submit(0, play, 0, lambda outcome: order.append(0))
>>> arbiter.submit(1, play, 80, lambda outcome: order.append(1))  # pressed 80 ms sooner
>>> order
[]
>>> clock.run(until=0.1)
>>> order
[1, 0]
>>> arbiter.submit(0, us.Draw(), 0, lambda outcome: order.append("draw"))  # races nobody
>>> order
[1, 0, 'draw']
"""

from __future__ import annotations

import heapq
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol, cast

import msgspec

from zackzack.engine.table import Settings, Subscriber, Table
from zackzack.games.base import Action, Event
from zackzack.games.errors import IllegalAction, OneHand

REACTION_MS = 600
"""The reaction window: a card pressed this soon after its pile changed on the player's
screen may still answer the pile before (RULES.md: a person needs 0.2–0.6 s to react)."""
PROBE_EVERY_S = 2.0
"""How often the server pings a connection that shows a table, to measure its lag (while
its round trips vary; see :class:`ProbePace`)."""
PROBE_MAX_S = 8.0
"""The longest the server waits between two pings of a connection whose round trip holds
steady (:class:`ProbePace`)."""
STEADY_MS = 5.0
"""A round trip at most this much (or :data:`STEADY_SHARE` of it) above the connection's
floor counts as steady."""
STEADY_SHARE = 0.25
SLOW_RTT_MS = 150
"""A connection whose smoothed round trip is this long or longer is shown as slow."""
QUOTA_GAIN_MS = 150
"""Lag credit a seat earns with every action (lichess's quota gain)."""
QUOTA_MAX_MS = 600
"""The most lag credit a seat can have saved up (lichess's quota maximum)."""
FLOOR_SAMPLES = 5
"""How many recent round trips the credited lag is the shortest of (10 s of pings, up to
40 s while they hold steady)."""
PAGE_MS = 150
"""How much later than the transport's round trip a page's word that it showed a pile version
may start the reaction window: the time a busy page takes to draw a view (issue 30)."""
TRANSPORT_SLACK = 1.1
"""How much longer than the transport's *shortest* round trip (the kernel's ``min_rtt``: the
wire without its jitter) a connection's usual round trip may be credited."""

Outcome = list[Event] | IllegalAction
"""What the table answered to an action: its events, or why it refused."""
Reply = Callable[[Outcome], object]


class Link(Protocol):
    """How a seat's player (a bot) reaches the table: its events, its view, its actions."""

    @property
    def instant(self) -> bool:
        """Whether an action is answered before ``submit`` returns."""
        ...

    def subscribe(self, callback: Subscriber) -> Callable[[], None]: ...
    def view(self) -> Any: ...
    def submit(self, action: Action, reply: Reply) -> None: ...


class DirectLink:
    """A seat at the table itself: events at once, the live view, answers at once."""

    __slots__ = ("seat", "table")
    instant = True

    def __init__(self, table: Table, seat: int) -> None:
        self.table, self.seat = table, seat

    def subscribe(self, callback: Subscriber) -> Callable[[], None]:
        """Events as the seat may see them, as they happen."""
        return self.table.subscribe(self.seat, callback)

    def view(self) -> Any:
        """What the seat sees now."""
        return self.table.rules.view(self.table.match.round, self.seat)

    def submit(self, action: Action, reply: Reply) -> None:
        """Act now; the answer comes before this returns."""
        try:
            outcome: Outcome = self.table.submit(self.seat, action)
        except IllegalAction as error:
            outcome = error
        reply(outcome)


class ArbitratedLink(DirectLink):
    """A seat at the table whose actions go through the table's :class:`Arbiter` (a bot at
    a table of people, who may wait for the cards of people further away)."""

    __slots__ = ("arbiter",)
    instant = False

    def __init__(self, arbiter: Arbiter, seat: int) -> None:
        super().__init__(arbiter.table, seat)
        self.arbiter = arbiter

    def submit(self, action: Action, reply: Reply) -> None:
        """Act now, with no lag to credit; the answer comes once the arbiter decides."""
        self.arbiter.submit(self.seat, action, 0, reply)


@dataclass(slots=True)
class LagStats:
    """Round trips of one connection, in ms: smoothed for showing (lichess's
    ``DecayingStats``) and their recent floor for crediting.

    >>> stats = LagStats()
    >>> for rtt in (100, 100, 60, 300):
    ...     stats.record(rtt)
    >>> round(stats.mean), round(stats.deviation, 1), stats.floor
    (125, 36.0, 60)
    """

    mean: float = 0.0
    deviation: float = 0.0
    samples: int = 0
    decay: float = 0.85
    recent: deque[float] = field(default_factory=lambda: deque(maxlen=FLOOR_SAMPLES))

    def record(self, rtt_ms: float) -> None:
        """Take in one measured round trip."""
        if self.samples == 0:
            self.mean = rtt_ms
        else:
            self.deviation = self.decay * self.deviation + (1 - self.decay) * abs(
                self.mean - rtt_ms)
            self.mean = rtt_ms + self.decay * (self.mean - rtt_ms)
        self.samples += 1
        self.recent.append(rtt_ms)

    @property
    def floor(self) -> float:
        """The shortest of the last :data:`FLOOR_SAMPLES` round trips (0 before the first):
        the wire's own lag, without the moments a busy server or client added to it."""
        return min(self.recent, default=0.0)

    @property
    def rtt(self) -> int | None:
        """The estimate in whole ms (``None`` before the first sample)."""
        return round(self.mean) if self.samples else None

    @property
    def quality(self) -> Literal["good", "slow"] | None:
        """``"good"`` or ``"slow"`` (``None`` before the first sample)."""
        if not self.samples:
            return None
        return "good" if self.mean < SLOW_RTT_MS else "slow"


@dataclass(slots=True)
class ProbePace:
    """How long until a connection's next ping: :data:`PROBE_EVERY_S`, doubled with every
    steady answer up to :data:`PROBE_MAX_S`, and back to the start as soon as an answer
    strays from the floor or the last ping went unanswered.

    Fewer pings change nothing the table credits: the credit is the floor of the recent
    round trips (a floor over a longer time is lower, never higher) and never more than the
    transport's own shortest round trip, read afresh at every ping.

    >>> pace, stats = ProbePace(), LagStats()
    >>> def answer(rtt: float) -> float:
    ...     stats.record(rtt)
    ...     return pace.next(stats, answered=True)
    >>> [answer(rtt) for rtt in (40, 41, 40, 42, 40, 41, 40)]
    [2.0, 2.0, 2.0, 2.0, 4.0, 8.0, 8.0]
    >>> stats.record(90)  # the wire changed: measure it closely again
    >>> pace.next(stats, answered=True), pace.next(stats, answered=False)
    (2.0, 2.0)
    """

    every: float = PROBE_EVERY_S

    def next(self, stats: LagStats, answered: bool) -> float:
        """Seconds until the next ping, given the round trips so far and whether the last
        ping was answered."""
        steady = answered and len(stats.recent) >= FLOOR_SAMPLES and \
            stats.recent[-1] - stats.floor <= max(STEADY_MS, STEADY_SHARE * stats.floor)
        self.every = min(2 * self.every, PROBE_MAX_S) if steady else PROBE_EVERY_S
        return self.every


@dataclass(slots=True)
class LagCredit:
    """How much of its lag a seat is credited per action: ``min(lag, quota, cap)``.

    The quota grows by :data:`QUOTA_GAIN_MS` per action up to :data:`QUOTA_MAX_MS` and pays
    for each credit, so faked lag buys at most ``cap`` on one action and ``QUOTA_GAIN_MS``
    on average (lichess's ``LagTracker``).

    >>> credit = LagCredit()
    >>> [credit.take(400, cap=250) for _ in range(6)]
    [250, 250, 250, 250, 200, 150]
    >>> LagCredit().take(400, cap=0)
    0
    """

    quota: int = QUOTA_MAX_MS - QUOTA_GAIN_MS

    def take(self, lag_ms: float, cap: int) -> int:
        """The credit for one action of a seat whose estimated lag is ``lag_ms``."""
        self.quota = min(self.quota + QUOTA_GAIN_MS, QUOTA_MAX_MS)
        credit = max(0, min(round(lag_ms), self.quota, cap))
        self.quota -= credit
        return credit


class Aimed(Protocol):
    """An action aimed at version ``seen`` (``None``: none named) of pile ``pile``, a game's
    ``Play``; a game with one pile need not declare ``pile``."""

    @property
    def seen(self) -> int | None: ...
    @property
    def pile(self) -> int: ...


_AIMS: dict[type[Action], tuple[bool, bool]] = {}


def _aims(kind: type[Action]) -> tuple[bool, bool]:
    """Whether actions of type ``kind`` declare the field ``seen``, and the field ``pile``.

    >>> from zackzack.games import schnelllauf as sl, unter_spannung as us
    >>> _aims(us.Play), _aims(sl.Play), _aims(us.Draw)
    ((True, False), (True, True), (False, False))
    """
    found = _AIMS.get(kind)
    if found is None:
        fields = kind.__struct_fields__
        found = _AIMS[kind] = ("seen" in fields, "pile" in fields)
    return found


@dataclass(slots=True)
class Sightings:
    """When each version of each pile was sent to one seat, in table ms, and when its page said
    it showed it; bounds its claims.

    >>> seen = Sightings()
    >>> seen.note((0,), 0); seen.note((1,), 1000); seen.note((2,), 1500)
    >>> seen.bound(0, 0, 1700, 0)  # version 1 came 700 ms ago: 0 was gone too long
    (1, 2)
    >>> seen.bound(0, 0, 1700, 300)  # ... but the round trip was 300 ms: 2 came too late
    (0, 1)
    >>> seen.bound(0, 5, 1700, 0)  # a version never sent counts as the newest sent
    (2, 2)
    >>> seen.shown((1,), 1080)  # the page drew version 1 80 ms after it was sent
    >>> seen.bound(0, 0, 1650, 0)  # so 0 was on screen 600 ms before a press arriving at 1650
    (0, 2)
    """

    window_ms: int = REACTION_MS
    sent: list[list[tuple[int, int]]] = field(default_factory=list)
    """Per pile: (version, table ms when it was sent), oldest first."""
    receipts: list[dict[int, int]] = field(default_factory=list)
    """Per pile: version → table ms when the seat's page said it showed it (``shown``)."""

    def note(self, versions: Sequence[int], t: int) -> None:
        """The seat was sent piles at ``versions`` at table time ``t``."""
        if len(self.sent) != len(versions):
            self.sent = [[] for _ in versions]
            self.receipts = [{} for _ in versions]
        for pile, version in enumerate(versions):
            history = self.sent[pile]
            if history:
                last = history[-1][0]
                if version == last:
                    continue  # sent already (nothing of this pile changed)
                if version < last:
                    history.clear()  # a new round: versions start again
                    self.receipts[pile].clear()
            history.append((version, t))
            if len(history) > 32:
                del history[:-16]
                receipts = self.receipts[pile]
                for old in [v for v in receipts if v < history[0][0]]:
                    del receipts[old]

    def shown(self, versions: Sequence[int], t: int) -> None:
        """The seat's page said, arriving at table time ``t``, that it shows piles at
        ``versions`` (the first word for a version sent to the seat counts)."""
        for pile, version in enumerate(versions[:len(self.sent)]):
            receipts = self.receipts[pile]
            if version not in receipts and any(v == version for v, _ in self.sent[pile]):
                receipts[version] = t

    def bound(self, pile: int, claimed: int, arrived: int, credit: int) -> tuple[int, int]:
        """The versions of ``pile`` an action arriving at ``arrived`` may claim to answer.

        A version sent ``credit`` ms (the seat's round trip, as credited) or less before the
        arrival cannot have been on screen at the press: the newest may-have-been-seen is
        the second figure. ``claimed`` is lowered to it and raised to the version on screen
        ``window_ms`` before the press: the first figure. The page's word that it showed a
        version (which travels back as the card does) moves that moment later, by at most
        :data:`PAGE_MS`: the page's own drawing counts as part of the trip.
        """
        history = self.sent[pile] if pile < len(self.sent) else []
        if not history:
            return claimed, claimed
        receipts = self.receipts[pile]
        oldest = newest = history[0][0]
        for version, at in history[1:]:
            reached = at + credit  # the earliest a press answering it could arrive
            receipt = receipts.get(version)
            if receipt is not None:
                reached = max(reached, min(receipt, reached + PAGE_MS))
            if reached + self.window_ms <= arrived:
                oldest = version
            if at + credit <= arrived:
                newest = version
        return max(oldest, min(claimed, newest)), newest

    def claim(self, action: Action, arrived: int, credit: int) -> tuple[Action, int | None]:
        """``action`` with its ``seen`` bounded, and the newest version it may answer
        (``None`` for an action that names no version)."""
        aims, piles = _aims(type(action))
        if not aims:
            return action, None
        aimed = cast(Aimed, action)  # it declares them: _aims read its fields
        seen = aimed.seen
        if seen is None:
            return action, None
        oldest, newest = self.bound(aimed.pile if piles else 0, seen, arrived, credit)
        if oldest != seen:
            action = msgspec.structs.replace(action, seen=oldest)
        return action, newest


@dataclass(slots=True)
class Ledger:
    """What one seat was shown (on any of its person's connections) and its lag credit: the
    seat's, so that neither starts afresh with a new connection."""

    sightings: Sightings = field(default_factory=Sightings)
    credit: LagCredit = field(default_factory=LagCredit)


@dataclass(slots=True)
class Wire:
    """One connection as the table's side sees it: its round trips.

    The lag that counts (:attr:`lag`) is bounded by the round trip the *transport* measured
    (the kernel's ``TCP_INFO`` on the server's socket): a client controls when it answers a
    ping, not when its kernel acknowledges a packet, so answering late buys nothing.

    >>> from zackzack.games import unter_spannung as us
    >>> wire, seat = Wire(transport=120), Ledger()
    >>> seat.sightings.note((0,), 0); seat.sightings.note((1,), 100)
    >>> wire.stats.record(320)  # pongs answered 200 ms late: the transport says 120 at least
    >>> wire.lag
    132.0
    >>> wire.admit(us.Play(us.Card(3, 1), seen=0), 800, Settings(), seat)
    Admitted(action=Play(card=Card(value=3, spread=1), seen=0), credit=132, newest=1)
    >>> wire.admit(us.Play(us.Card(3, 1), seen=0), 900, Settings(), seat).action.seen
    1
    >>> Wire().lag  # nothing measured by the transport: no credit, whatever the pongs say
    0
    """

    stats: LagStats = field(default_factory=LagStats)
    transport: float | None = None
    """The shortest round trip the transport measured, in ms (``None``: unknown)."""

    @property
    def lag(self) -> float:
        """The lag that may be credited, in ms: the pings' recent floor, never more than
        :data:`TRANSPORT_SLACK` times the transport's shortest round trip (0 while that is
        unknown)."""
        if self.transport is None:
            return 0
        if not self.stats.samples:
            return self.transport
        return min(self.stats.floor, self.transport * TRANSPORT_SLACK)

    def admit(self, action: Action, arrived: int, settings: Settings, seat: Ledger) -> Admitted:
        """``action`` of ``seat`` arrived over this wire at table time ``arrived``: its
        claim bounded by what the seat was shown, and its credit, paid from the seat's.

        News reaches the seat a round trip after it was sent (counting both ways: the news
        out and the card back), at most the table's ``late_grace_ms`` less the reaction
        window; the credit in a race is at most its ``compensation_ms``.
        """
        lag = self.lag
        window = min(lag, max(0, settings.late_grace_ms - seat.sightings.window_ms))
        action, newest = seat.sightings.claim(action, arrived, round(window))
        return Admitted(action, seat.credit.take(lag, settings.compensation_ms), newest)


@dataclass(frozen=True, slots=True)
class Admitted:
    """An action as the table's side takes it: its claim bounded, its credit in ms, and the
    newest version of its pile it may answer (``None``: it names none)."""

    action: Action
    credit: int
    newest: int | None


@dataclass(order=True, slots=True)
class _Held:
    pressed: int
    order: int
    seat: int = field(compare=False)
    action: Action = field(compare=False)
    reply: Reply = field(compare=False)
    newest: int | None = field(compare=False)


class Arbiter:
    """Hands actions to ``table`` in the order they were pressed, within a bounded credit.

    An action that arrives at table time ``a`` with credit ``c`` was pressed at ``a − c``.
    It waits until ``a − c + reach``, where ``reach`` is the largest credit any seat may get
    now: by then every action pressed before it has arrived. With the table's
    ``compensation_ms`` at 0, or when every seat is as near as the next, nothing waits; nor
    does an action that aims at no pile (it races nobody) while nothing of its seat waits.
    A one-handed seat has at most one action waiting; a second is refused (``one_hand``).
    """

    def __init__(self, table: Table) -> None:
        self.table = table
        self.cap = table.settings.compensation_ms
        self._reach = [0] * table.players
        self._held: list[_Held] = []
        self._order = 0
        self._timer: Any = None
        self._one_hand = [table.options.one_hand(seat) for seat in range(table.players)]

    @property
    def reach(self) -> int:
        """How long an action of a seat with no lag waits now, in ms."""
        return max(self._reach)

    def set_reach(self, seat: int, lag_ms: float) -> None:
        """Seat ``seat``'s lag is now about ``lag_ms`` (what its credit may come to)."""
        self._reach[seat] = max(0, min(round(lag_ms), self.cap))

    def submit(self, seat: int, action: Action, credit: int, reply: Reply,
               newest: int | None = None) -> None:
        """``seat``'s ``action`` arrived now, with ``credit`` ms of its lag credited; the
        table's answer goes to ``reply`` once it is decided. With ``newest``, the action is
        judged as aimed at the newest version up to that one its card fitted
        (``Table.aim``)."""
        table = self.table
        credit = max(0, min(credit, self.cap))
        now = table.time_ms()
        if self._one_hand[seat] and any(held.seat == seat for held in self._held):
            reply(OneHand("one hand only: your last action is not answered yet"))
            return
        first = not self._held and credit >= self.reach  # nothing sooner can be on its way
        alone = not _aims(type(action))[0] and not any(held.seat == seat for held in self._held)
        if first or alone:  # alone: it aims at no pile and nothing of its seat waits
            self._decide(_Held(now - credit, 0, seat, action, reply, newest))
            return
        self._order += 1
        heapq.heappush(self._held, _Held(now - credit, self._order, seat, action, reply, newest))
        self._arm()

    def _arm(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        if self._held:
            clock = self.table.clock
            wait = self._held[0].pressed + self.reach - self.table.time_ms()
            self._timer = clock.call_at(clock.time() + max(0, wait) / 1000, self._release)

    def _release(self) -> None:
        self._timer = None
        now = self.table.time_ms()
        while self._held and self._held[0].pressed + self.reach <= now:
            self._decide(heapq.heappop(self._held))
        self._arm()

    def _decide(self, held: _Held) -> None:
        table = self.table
        action = held.action if held.newest is None else table.aim(held.action, held.newest)
        try:
            outcome: Outcome = table.submit(held.seat, action, at=held.pressed)
        except IllegalAction as error:
            outcome = error
        held.reply(outcome)
