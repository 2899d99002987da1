"""The journal: actions on their way to the store, committed in batches, always in time.

A room hands every action that reaches its table to the journal. The journal commits what
it holds in one transaction at the end of the event loop's turn, and at once whenever
something is about to leave the server (a connection's writer calls :meth:`Journal.flush`
before it writes): a client never hears of an action that a crash could still lose.
"""

from __future__ import annotations

import logging
from typing import Any

from zackzack.clock import Clock, Timer
from zackzack.store import ActionRow, Store

log = logging.getLogger(__name__)


class Journal:
    """A batch of actions not yet committed."""

    def __init__(self, store: Store, clock: Clock) -> None:
        self.store, self.clock = store, clock
        self.pending: list[ActionRow] = []
        self.batches = 0
        self._soon: Timer | None = None

    def append(self, match_id: str, n: int, t: int, seat: int, action: dict[str, Any]) -> None:
        """Hold action number ``n`` of ``match_id``; it is committed before anyone hears of it."""
        self.pending.append(ActionRow(match_id, n, t, seat, action))
        if self._soon is None:
            self._soon = self.clock.call_at(self.clock.time(), self.flush)

    def flush(self) -> None:
        """Commit everything held (a failed commit keeps it for the next try, and says so)."""
        if self._soon is not None:
            self._soon.cancel()
            self._soon = None
        if not self.pending:
            return
        rows, self.pending = self.pending, []
        try:
            self.store.append_actions(rows)
        except Exception:
            self.pending[:0] = rows
            log.exception("storing %d actions failed; they are kept for the next try", len(rows))
            raise
        self.batches += 1
