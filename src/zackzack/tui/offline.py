"""An offline session: a table in this process, on the real clock (the asyncio loop), with bots.

The bots run on the same loop as the Textual app, so they act while the player types. While
the player looks away (the help, the quit question, a terminal too small) the table pauses,
as the server's table does when everyone is away: table time stands still, bots wait, and
play resumes after a short countdown.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol

from zackzack.engine.clock import Clock
from zackzack.engine.race import REACTION_MS
from zackzack.engine.table import LIVE, Phase, Settings, Table, TableView
from zackzack.games.base import Action, Event, Rules
from zackzack.games.errors import IllegalAction, TooLate
from zackzack.tui.session import Listener, Lost, Seat


class Player(Protocol):
    """A bot at the table: it acts by itself until stopped."""

    def stop(self) -> None: ...


BotMaker = Callable[[Table, int, random.Random], Player]
"""Seats a bot: ``maker(table, seat, rng)``."""


RESUME_MS = 1500
"""The countdown after looking away, before play goes on."""
PAUSABLE = frozenset({Phase.STARTING, Phase.PLAYING, Phase.BETWEEN})
"""The phases in which table time runs (and can stand still)."""


class OfflineSession:
    """A local table: people at this keyboard in ``mine``, a bot in every other seat."""

    creator = True
    reaction_ms = REACTION_MS
    share = None
    rematch = None

    def __init__(self, rules: Rules, options: Any, seats: Sequence[Seat], mine: Sequence[int],
                 bots: Mapping[int, BotMaker], *, seed: int, settings: Settings = LIVE,
                 first_round: Any = None, clock: Clock | None = None) -> None:
        self.rules = rules
        self.options = options
        self.seats = tuple(seats)
        self.mine = tuple(mine)
        self.seed = seed
        self._bots = dict(bots)
        self._settings = settings
        self._first_round = first_round
        self._clock = clock
        """The table's clock (``None``: the running loop; tests pass a virtual one)."""
        self._players: list[Player] = []
        self._listener: Listener | None = None
        self._unsubscribe: Callable[[], None] | None = None
        self._holds: set[str] = set()
        self.table: Table | None = None

    async def open(self) -> None:
        """Nothing to connect to."""

    def start(self, listener: Listener) -> None:
        """Deal, seat the bots, start the match on the running loop's clock (or the one given)."""
        self._listener = listener
        clock = self._clock if self._clock is not None else asyncio.get_running_loop()
        table = self.table = Table(self.rules, self.options, clock=clock,
                                   seed=self.seed, settings=self._settings,
                                   first_round=self._first_round)
        reader = self.mine[0] if len(self.mine) == 1 else None
        self._unsubscribe = table.subscribe(reader, self._changed)
        for seat, maker in sorted(self._bots.items()):
            self._players.append(maker(table, seat, random.Random(f"{self.seed} bot {seat}")))
        table.start()

    def _changed(self, events: list[Event]) -> None:
        if self._holds and any(event.kind == "resumed" for event in events):
            # looked away again during the resume countdown: halt again, once everyone heard
            asyncio.get_running_loop().call_soon(self._halt)
        if self._listener is not None:
            self._listener.changed(events)

    def hold(self, reason: str, held: bool) -> bool:
        """Pause the table while any reason holds; resume (after a countdown) when none does."""
        if held:
            self._holds.add(reason)
        else:
            self._holds.discard(reason)
        table = self.table
        if table is not None and not self._holds and table.phase is Phase.PAUSED:
            table.resume(RESUME_MS)
        self._halt()
        return True

    def _halt(self) -> None:
        table = self.table
        if table is not None and self._holds and table.phase in PAUSABLE:
            table.pause()

    def view(self, seat: int | None) -> TableView | None:
        """What ``seat`` sees now."""
        return self.table.view(seat) if self.table is not None else None

    def now(self) -> int:
        """The table time now."""
        return self.table.time_ms() if self.table is not None else 0

    def act(self, seat: int, action: Action) -> None:
        """Submit at once, aimed as a reaction to any pile version it names or shown since
        (a local table shows every version the moment it exists); a refusal goes straight to
        the listener."""
        if self.table is None or self._listener is None:
            return
        try:
            self.table.submit(seat, self.table.aim(action))
        except IllegalAction as error:
            lost = Lost(error.winner, error.margin_ms) \
                if isinstance(error, TooLate) and error.margin_ms is not None else None
            self._listener.refused(seat, error.code, str(error), lost)

    def pending(self, seat: int) -> tuple[Action, ...]:
        """A local table answers every action at once: nothing is on its way."""
        return ()

    def ready(self) -> None:
        """A local table starts by itself."""

    async def close(self) -> None:
        """Stop the bots and stop listening."""
        for player in self._players:
            player.stop()
        self._players.clear()
        if self._unsubscribe is not None:
            self._unsubscribe()
        self._listener = None
