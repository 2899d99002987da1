"""The one interface the screens talk to, whether the table runs here or on a server.

A session seats one or two people at this keyboard (``mine``), gives the screens each
seat's view and the table time, and takes their actions. What happens comes back through
a :class:`Listener`: events, refusals (with the stable reason code) and connection news.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from zackzack.games.base import Action, Event, Rules
from zackzack.table import TableView


@dataclass(frozen=True, slots=True)
class Seat:
    """A seat as everybody sees it: who sits there and whether they are there and ready."""

    name: str
    kind: str = "human"
    connected: bool = True
    ready: bool = True


class Listener(Protocol):
    """What a session tells the screen."""

    def changed(self, events: Sequence[Event]) -> None:
        """The table changed (``events`` may be empty: seats, a new view after reconnecting)."""

    def refused(self, seat: int, code: str, reason: str) -> None:
        """The table refused ``seat``'s action with reason ``code`` (``too_late``, …)."""

    def status(self, text: str) -> None:
        """News about the connection (``""``: all is well)."""


class Session(Protocol):
    """A table seen from this keyboard: local with bots, or remote over a websocket."""

    @property
    def rules(self) -> Rules:
        """The game's rules module."""

    @property
    def seats(self) -> tuple[Seat, ...]:
        """Every seat of the table, in order."""

    @property
    def mine(self) -> tuple[int, ...]:
        """The seats played from this keyboard (none: watching; two: two at one keyboard)."""

    @property
    def creator(self) -> bool:
        """Whether this keyboard may start the match (remote tables wait for their creator)."""

    async def open(self) -> None:
        """Get ready to be shown: a remote session connects and learns its game and seat."""

    def start(self, listener: Listener) -> None:
        """Deal and seat the bots, or start reading; ``listener`` hears everything from now."""

    def view(self, seat: int | None) -> TableView | None:
        """What ``seat`` sees now (``None`` before a remote table has answered)."""

    def now(self) -> int:
        """The table time now, in ms, on the clock of the views' times."""

    def act(self, seat: int, action: Action) -> None:
        """Send ``seat``'s action; a refusal comes back through ``Listener.refused``."""

    def ready(self) -> None:
        """Before the start: say this keyboard is ready (the creator starts the match)."""

    async def close(self) -> None:
        """Stop the bots or close the connection."""


def names(seats: Sequence[Seat]) -> tuple[str, ...]:
    """The seats' names, in order."""
    return tuple(seat.name for seat in seats)
