"""The one interface the screens talk to, whether the table runs here or on a server.

A session seats one or two people at this keyboard (``mine``), gives the screens each
seat's view and the table time, and takes their actions. What happens comes back through
a :class:`Listener`: events, refusals (with the stable reason code and, for a lost race,
who won it), connection news and the measured round trip.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from zackzack.engine.table import TableView
from zackzack.games.base import Action, Event, Rules


@dataclass(frozen=True, slots=True)
class Seat:
    """A seat as everybody sees it: who sits there and whether they are there and ready."""

    name: str
    kind: str = "human"
    connected: bool = True
    ready: bool = True
    lag: str | None = None
    """A remote person's connection: ``"good"``, ``"slow"`` or ``None`` (not measured, a bot)."""
    stand_in: bool = False
    """A stand-in bot plays this person's seat (they are away, or let the table wait)."""
    stand_in_at: int | None = None
    """The table waits on this person: the table time (ms) at which a stand-in plays for
    them (docs/rules.md, *A round always ends*); ``None``: it does not."""
    stand_in_bot: str | None = None
    """Which bot plays as the stand-in (its level, ``normal``), where the table says so."""


@dataclass(frozen=True, slots=True)
class Lost:
    """A lost race: who took the pile first (``None``: the table's own step), how much sooner."""

    winner: int | None
    margin_ms: int


class Listener(Protocol):
    """What a session tells the screen."""

    def changed(self, events: Sequence[Event]) -> None:
        """The table changed (``events`` may be empty: seats, a new view after reconnecting)."""

    def refused(self, seat: int, code: str, reason: str, lost: Lost | None = None) -> None:
        """The table refused ``seat``'s action with reason ``code`` (``too_late``, …);
        ``lost``: who won the race, when the table says so."""

    def status(self, text: str) -> None:
        """News about the connection (``""``: all is well)."""

    def measured(self, rtt_ms: int) -> None:
        """The connection's round trip to the server takes about ``rtt_ms`` ms (remote only)."""


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

    @property
    def share(self) -> str | None:
        """The link that brings others to this table (``None``: a table in this process)."""

    @property
    def rematch(self) -> tuple[str, str] | None:
        """A server table's rematch once someone asked for it: its code and who asked
        (``""``: not said); ``None``: none yet, or a table in this process."""

    @property
    def reaction_ms(self) -> int:
        """The reaction window: a card's ``seen`` names its pile as on screen this long before
        the key press (RULES.md, the race)."""

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

    def pending(self, seat: int) -> tuple[Action, ...]:
        """``seat``'s cards on their way, oldest first: plays sent and not answered yet (nor
        seen taken in an ``events`` message). The board shows each on its pile at once,
        marked, until the table takes it, and puts it back in the hand when the table refuses
        it. A local table answers at once: none."""

    def ready(self) -> None:
        """Before the start: say this keyboard is ready (the creator starts the match)."""

    def hold(self, reason: str, held: bool) -> bool:
        """This keyboard looks away for ``reason`` (the help, the quit question, a terminal
        too small) or back: a local table's time stands still while any reason holds; a
        server's table goes on. Whether table time stands still for it."""

    async def close(self) -> None:
        """Stop the bots or close the connection."""


class Unavailable(ValueError):
    """The server cannot do it now, though it may in a moment: its cluster store is
    unreachable (``cluster_unavailable``), or the table is between servers
    (``table_moving``). ``asked`` is what was asked: ``create``, ``rematch`` or ``join``."""

    def __init__(self, message: str, code: str, asked: str) -> None:
        super().__init__(message)
        self.code, self.asked = code, asked


def names(seats: Sequence[Seat]) -> tuple[str, ...]:
    """The seats' names, in order."""
    return tuple(seat.name for seat in seats)
