"""The journal: actions on their way to the store, committed in batches, always in time.

A room hands every action that reaches its table to the journal. The journal commits what
it holds in one transaction at the end of the event loop's turn, and at once whenever
something is about to leave the server (a connection's writer calls :meth:`Journal.flush`
before it writes): a client never hears of an action that a crash could still lose.

In a cluster, the matches of this process's tables are fenced (``fences``, match id: epoch):
when another process took one over, its actions are dropped, not stored, and ``on_fenced``
hears which matches were lost (``docs/operations.md``).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from zackzack.clock import Clock, Timer
from zackzack.store import ActionRow, Fenced, Store

log = logging.getLogger(__name__)


class Journal:
    """A batch of actions not yet committed."""

    def __init__(self, store: Store, clock: Clock) -> None:
        self.store, self.clock = store, clock
        self.pending: list[ActionRow] = []
        self.batches = 0
        self.fencing = False
        """In a cluster: every match's writes are fenced by its epoch."""
        self.fences: dict[str, int] = {}
        """The epoch of each match this process writes (none: not fenced)."""
        self.on_fenced: Callable[[frozenset[str]], object] = lambda _lost: None
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
            self.store.append_actions(rows, self.fences)
        except Fenced as lost:  # the others' rows go in again, without the lost matches'
            self.pending[:0] = rows
            self.lose(lost.match_ids)
            self.flush()
            return
        except Exception:
            self.pending[:0] = rows
            log.exception("storing %d actions failed; they are kept for the next try", len(rows))
            raise
        self.batches += 1

    def own(self, match_id: str, epoch: int) -> None:
        """This process writes ``match_id`` at ``epoch`` (fenced only in a cluster)."""
        if self.fencing:
            self.fences[match_id] = epoch

    def done(self, match_id: str) -> None:
        """``match_id`` is stored to its end: nothing more of it will be written."""
        self.fences.pop(match_id, None)

    def epoch(self, match_id: str) -> int | None:
        """The epoch ``match_id``'s writes must find (``None``: not fenced)."""
        return self.fences.get(match_id)

    def forget(self, match_ids: frozenset[str]) -> None:
        """Store nothing more of the matches ``match_ids`` (another process has them)."""
        self.pending = [row for row in self.pending if row.match_id not in match_ids]
        for match_id in match_ids:
            self.fences.pop(match_id, None)

    def lose(self, match_ids: frozenset[str]) -> None:
        """A write found the matches ``match_ids`` taken over: ``forget`` them, and tell
        ``on_fenced``."""
        self.forget(match_ids)
        self.on_fenced(match_ids)
