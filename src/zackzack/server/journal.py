"""The journal: actions on their way to the store, committed in batches, always in time.

A room hands every action that reaches its table to the journal. The journal commits what
it holds in one transaction at the end of the event loop's turn, and at once whenever
something is about to leave the server (a connection's writer calls :meth:`Journal.flush`
before it writes): a client never hears of an action that a crash could still lose.

In a cluster, the matches of this process's tables are fenced (``fences``, match id: epoch):
when another process took one over, its actions are dropped, not stored, and ``on_fenced``
hears which matches were lost (``docs/operations.md``).

Round results, match ends and abandoned matches are queued here too (``write``), behind the
actions before them: everything is stored in the order it happened. A write that fails (the
database restarts, the disk is full) is kept and tried again, at once (a reconnection) and
then with backoff (``RETRY_DELAYS``); meanwhile the journal is *behind* (``behind_since``),
``flush`` says so, nothing leaves the server (the connections wait) and ``on_behind`` hears
it (the rooms pause their tables visibly) until everything is stored. With ``probe`` (the
server's), each next try waits until the store answers a probe run in a worker thread: a
database that answers nothing holds the event loop at most once, for ``Store.answer_within``.
Every write may thus be stored twice (its COMMIT went through, the answer was lost): the
store's writes are idempotent.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from zackzack.engine.clock import Clock, Timer
from zackzack.server.logs import event
from zackzack.store import ActionRow, Fenced, Store
from zackzack.store.answering import unanswered

log = logging.getLogger(__name__)

RETRY_DELAYS = (0.0, 0.1, 0.25, 0.5, 1.0)
"""Seconds before each next try of a failed write (the last one repeats while it fails): the
tables go on within about a second of the database's return."""


@dataclass(slots=True, eq=False)
class Write:
    """A write other than actions (a round's result, a match's end): ``store`` writes it (it
    may raise ``Fenced``), ``then`` runs once it is stored."""

    match_id: str
    what: str
    store: Callable[[], object]
    then: Callable[[], object] = lambda: None


class Journal:
    """What is on its way to the store: actions and other writes, in order."""

    def __init__(self, store: Store, clock: Clock) -> None:
        self.store, self.clock = store, clock
        self.queue: list[ActionRow | Write] = []
        """Everything not stored yet, oldest first."""
        self.batches = 0
        """Transactions of actions committed so far."""
        self.appended = 0
        """Actions handed to the journal so far (``appended / batches``: the group commit's
        batch size, which ``bench/load.py`` shows)."""
        self.fencing = False
        """In a cluster: every match's writes are fenced by its epoch."""
        self.fences: dict[str, int] = {}
        """The epoch of each match this process writes (none: not fenced)."""
        self.on_fenced: Callable[[frozenset[str]], object] = lambda _lost: None
        self.on_behind: Callable[[], object] = lambda: None
        """Called (soon, never inside a table's call) when the journal falls behind or has
        caught up again: ``behind_since`` says which."""
        self.behind_since: float | None = None
        """The clock's time of the first failed write still not stored (``None``: none)."""
        self.behind_wall: float | None = None
        """The same as a wall time (seconds since the epoch), for ``/healthz``."""
        self.tries = 0
        """Failed tries since the journal fell behind."""
        self._soon: Timer | None = None
        self._retry: Timer | None = None
        self._telling: Timer | None = None
        self._storing = False
        self.probe: Callable[[], bool] | None = None
        """While behind: whether the store answers again, asked in a worker thread before each
        next try (the server's ``Store.probe``); ``None``: each try tries the write itself."""
        self._probing = False

    @property
    def pending(self) -> list[ActionRow]:
        """The actions not stored yet."""
        return [item for item in self.queue if isinstance(item, ActionRow)]

    @property
    def behind(self) -> bool:
        """Whether a write failed and is waiting for its next try."""
        return self.behind_since is not None

    def append(self, match_id: str, n: int, t: int, seat: int, action: dict[str, Any]) -> None:
        """Hold action number ``n`` of ``match_id``; it is committed before anyone hears of it."""
        self.queue.append(ActionRow(match_id, n, t, seat, action))
        self.appended += 1
        self._soon_flush()

    def write(self, write: Write) -> bool:
        """Queue ``write`` behind everything queued and store the lot now (unless the
        journal is behind: then with the next try); whether it is stored."""
        self.queue.append(write)
        self.flush()
        return write not in self.queue

    def _soon_flush(self) -> None:
        if self._soon is None and self._retry is None and not self._probing:
            self._soon = self.clock.call_at(self.clock.time(), self.flush)

    def flush(self) -> bool:
        """Commit everything held, in order; whether something is still not stored (then
        the journal is behind and tries again by itself: nothing may be told meanwhile).
        While it waits for its next try, nothing is tried."""
        if self._soon is not None:
            self._soon.cancel()
            self._soon = None
        if self._retry is None and not self._storing and not self._probing:
            self._store()
        return bool(self.queue)

    def _store(self) -> None:
        self._storing = True
        try:
            again = True  # one failure is tried again at once: a dead connection reconnects
            while self.queue:
                try:
                    self._store_first()
                except Exception as error:
                    if again and getattr(error, "connection_invalidated", False) \
                            and not unanswered(error):  # (no answer: the probe first)
                        again = False
                        continue
                    self._failed(error)
                    return
        finally:
            self._storing = False
        if self.behind_since is not None:
            self._caught_up()

    def _store_first(self) -> None:
        """Store the first write, or the actions before the first write, in one go."""
        first = self.queue[0]
        try:
            if isinstance(first, Write):
                first.store()
                self.queue.remove(first)
                try:
                    first.then()
                except Exception:  # stored: what follows must not undo that
                    log.exception("after storing the %s of match %s", first.what,
                                  first.match_id)
                return
            rows = []
            for item in self.queue:
                if not isinstance(item, ActionRow):
                    break
                rows.append(item)
            self.store.append_actions(rows, self.fences)
            del self.queue[:len(rows)]
            self.batches += 1
        except Fenced as lost:  # the others' writes stay: the lost matches' go
            self.lose(lost.match_ids)

    def _failed(self, error: Exception) -> None:
        """A write failed: keep everything, try again after a while, and say so once."""
        self.tries += 1
        if self.behind_since is None:
            self.behind_since, self.behind_wall = self.clock.time(), time.time()
            first = self.queue[0] if self.queue else None
            event("store_behind", logging.ERROR, reason=_reason(error),
                  pending=len(self.queue), match=getattr(first, "match_id", None),
                  write=first.what if isinstance(first, Write) else "actions")
            self._tell()
        delay = RETRY_DELAYS[min(self.tries - 1, len(RETRY_DELAYS) - 1)]
        self._retry = self.clock.call_at(self.clock.time() + delay, self._again)

    def _again(self) -> None:
        self._retry = None
        if self._storing or self._probing:
            return
        if self.probe is None:
            self._store()
            return
        self._probing = True
        asyncio.get_running_loop().run_in_executor(None, self.probe).add_done_callback(
            self._probed)

    def _probed(self, answer: asyncio.Future[bool]) -> None:
        """The probe's answer (on the event loop): try the writes, or wait for the next try."""
        self._probing = False
        if answer.cancelled():
            return  # the loop is closing
        if answer.exception() is None and answer.result():
            if self._retry is None and not self._storing:
                self._store()
            return
        self.tries += 1
        delay = RETRY_DELAYS[min(self.tries - 1, len(RETRY_DELAYS) - 1)]
        self._retry = self.clock.call_at(self.clock.time() + delay, self._again)

    def _caught_up(self) -> None:
        assert self.behind_since is not None
        event("store_caught_up", down_s=round(self.clock.time() - self.behind_since, 3),
              tries=self.tries)
        self.behind_since = self.behind_wall = None
        self.tries = 0
        self._tell()

    def _tell(self) -> None:
        """Let ``on_behind`` know soon (not inside the call that wrote: that may be a table's)."""
        if self._telling is None:
            self._telling = self.clock.call_at(self.clock.time(), self._told)

    def _told(self) -> None:
        self._telling = None
        self.on_behind()

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
        self.queue = [item for item in self.queue if item.match_id not in match_ids]
        for match_id in match_ids:
            self.fences.pop(match_id, None)

    def lose(self, match_ids: frozenset[str]) -> None:
        """A write found the matches ``match_ids`` taken over: ``forget`` them, and tell
        ``on_fenced``."""
        self.forget(match_ids)
        self.on_fenced(match_ids)


def _reason(error: BaseException) -> str:
    """What went wrong, in one line: the driver's own words if there are any."""
    cause = getattr(error, "orig", None) or error
    return (" ".join(str(cause).split()) or type(cause).__name__)[:300]
