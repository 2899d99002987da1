"""The network in the simulator: each seat's bot sits at the end of a wire with a round trip.

Everything a seat is sent (events with the view they leave it, answers, pings) reaches its
bot half a round trip later, and everything the bot sends reaches the table half a round trip
later. Each one-way trip takes ``rtt / 2`` with a uniform jitter of ±:data:`JITTER` of that,
and never overtakes the message before it (a websocket is one ordered stream). On the table's
side the same parts as in the server decide: a :class:`~zackzack.engine.race.Wire` per seat that the
seat's pings measure, and the table's :class:`~zackzack.engine.race.Arbiter`.

>>> from zackzack.engine.clock import VirtualClock
>>> from zackzack.games import unter_spannung as us
>>> from zackzack.engine.table import Table
>>> clock = VirtualClock()
>>> table = Table(us, us.Options(players=2), clock=clock, seed=1)
>>> net = Network(table, (100, 10), random.Random(1))
>>> table.start()
>>> answers = []
>>> net.links[0].submit(us.Draw(), answers.append)
>>> clock.run(until=0.099)
>>> answers
[]
>>> clock.run(until=0.2)
>>> [type(event).__name__ for event in answers[0]]
['Drew']
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from zackzack.engine.race import PROBE_EVERY_S, Arbiter, Ledger, Outcome, Reply, Wire
from zackzack.engine.table import Subscriber, Table
from zackzack.games.base import Action, Event

JITTER = 0.1
"""Each one-way trip varies uniformly by this fraction of half the round trip."""


@dataclass(frozen=True, slots=True)
class Attack:
    """How a seat's client cheats on its wire (``docs/fairness.md``, *Exploits*): it answers
    pings ``pong_delay_ms`` late (its cards are not delayed), or it opens a new connection
    for every action (``reconnect``), to start each one with a fresh measurement."""

    pong_delay_ms: int = 0
    reconnect: bool = False


NO_ATTACK = Attack()


class _Lane:
    """One direction of one wire: messages arrive in order, each ``rtt / 2`` ± jitter later."""

    __slots__ = ("clock", "half", "last", "rng")

    def __init__(self, table: Table, rtt_ms: int, rng: random.Random) -> None:
        self.clock, self.rng = table.clock, rng
        self.half = rtt_ms / 2000
        self.last = 0.0

    def trip(self) -> float:
        """How long one message takes, in seconds."""
        return self.half * (1 + JITTER * (2 * self.rng.random() - 1)) if self.half else 0.0

    def carry(self, deliver: Callable[[], object]) -> None:
        """Deliver at the far end when the trip is over."""
        self.last = max(self.last, self.clock.time() + self.trip())
        self.clock.call_at(self.last, deliver)


class NetLink:
    """A seat reached over a wire with a round trip of ``rtt_ms`` (a ``race.Link``).

    Like the server, the table's side bounds the lag it credits by what the transport
    measured: here the trips of the kernel's acknowledgement of each ping (which no
    :class:`Attack` delays), the shortest so far, as ``TCP_INFO``'s ``tcpi_min_rtt``.
    """

    __slots__ = ("_callbacks", "_view", "arbiter", "attack", "down", "ledger", "seat",
                 "table", "up", "wire")
    instant = False

    def __init__(self, table: Table, arbiter: Arbiter, seat: int, rtt_ms: int,
                 rng: random.Random, attack: Attack = NO_ATTACK) -> None:
        self.table, self.arbiter, self.seat, self.attack = table, arbiter, seat, attack
        self.down, self.up = _Lane(table, rtt_ms, rng), _Lane(table, rtt_ms, rng)
        self.wire = Wire()
        self.ledger = Ledger()
        self._callbacks: list[Subscriber] = []
        self._view: Any = None
        table.subscribe(seat, self._sent)

    def subscribe(self, callback: Subscriber) -> Callable[[], None]:
        """Events as the seat may see them, when they reach its end of the wire."""
        self._callbacks = [*self._callbacks, callback]

        def unsubscribe() -> None:
            self._callbacks = [c for c in self._callbacks if c is not callback]

        return unsubscribe

    def view(self) -> Any:
        """What the seat's screen shows: the view that came with the latest events."""
        if self._view is None:
            self._view = self.table.rules.view(self.table.match.round, self.seat)
        return self._view

    def submit(self, action: Action, reply: Reply) -> None:
        """Send ``action``; the table's answer comes back over the wire to ``reply``."""
        self.up.carry(lambda: self._arrived(action, reply))

    def _arrived(self, action: Action, reply: Reply) -> None:
        table = self.table
        if self.attack.reconnect:
            self._reconnected()
        admitted = self.wire.admit(action, table.time_ms(), table.settings, self.ledger)
        self.arbiter.submit(self.seat, admitted.action, admitted.credit,
                            lambda outcome: self._answer(outcome, reply), admitted.newest)

    def _reconnected(self) -> None:
        """A new connection just before the action: nothing measured on it but its handshake
        (the seat's ledger stays the seat's)."""
        self.wire = Wire(transport=(self.down.trip() + self.up.trip()) * 1000)
        self.arbiter.set_reach(self.seat, self.wire.lag)

    def _answer(self, outcome: Outcome, reply: Reply) -> None:
        self.down.carry(lambda: reply(outcome))

    def _sent(self, events: list[Event]) -> None:
        table = self.table
        state = table.match.round
        self.ledger.sightings.note(table.rules.versions(state), table.time_ms())
        view = table.rules.view(state, self.seat)
        self.down.carry(lambda: self._received(events, view))

    def _received(self, events: list[Event], view: Any) -> None:
        self._view = view
        for callback in self._callbacks:
            callback(events)

    def probe(self) -> None:
        """Ping the seat; its answer measures the round trip (every :data:`PROBE_EVERY_S`),
        the acknowledgement of the ping the transport's."""
        if self.table.match.result is not None:
            return
        clock = self.table.clock
        sent = clock.time()
        self.down.carry(lambda: self._pinged(sent))
        clock.call_at(sent + PROBE_EVERY_S, self.probe)

    def _pinged(self, sent: float) -> None:
        self.up.carry(lambda: self._acknowledged(sent))
        delay = self.attack.pong_delay_ms
        if delay:
            clock = self.table.clock
            clock.call_at(clock.time() + delay / 1000,
                          lambda: self.up.carry(lambda: self._probed(sent)))
        else:
            self.up.carry(lambda: self._probed(sent))

    def _acknowledged(self, sent: float) -> None:
        trip = (self.table.clock.time() - sent) * 1000
        known = self.wire.transport
        self.wire.transport = trip if known is None else min(known, trip)

    def _probed(self, sent: float) -> None:
        self.wire.stats.record((self.table.clock.time() - sent) * 1000)
        self.arbiter.set_reach(self.seat, self.wire.lag)


class Network:
    """Every seat of ``table`` at the end of its own wire; ``rtts`` in ms, in seat order, and
    each seat's ``attacks`` (none by default)."""

    def __init__(self, table: Table, rtts: Sequence[int], rng: random.Random,
                 attacks: Sequence[Attack] = ()) -> None:
        if len(rtts) != table.players:
            raise ValueError(f"{len(rtts)} round trips for {table.players} seats: name one "
                             "per player")
        if attacks and len(attacks) != table.players:
            raise ValueError(f"{len(attacks)} attacks for {table.players} seats: name one "
                             "per player (\"\" for none)")
        self.arbiter = Arbiter(table)
        self.links = [NetLink(table, self.arbiter, seat, rtt, rng,
                              attacks[seat] if attacks else NO_ATTACK)
                      for seat, rtt in enumerate(rtts)]
        for link in self.links:
            link.probe()
