"""A stored match as the browser replays it: each step of the log with the table after it."""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

from starlette.concurrency import run_in_threadpool

from zackzack.engine.matchlog import MatchLog
from zackzack.engine.replay import Step, replay
from zackzack.engine.table import Table
from zackzack.games.base import plain


def replay_json(match_id: str, log: MatchLog, result: Any) -> dict[str, Any]:
    """The replay of ``log``: every step (``zackzack replay --json``) plus a spectator's view."""
    steps: list[dict[str, Any]] = []

    def keep(step: Step, table: Table) -> None:
        steps.append({**plain(step), "view": plain(table.view(None))})

    replay(log, on_step=keep)
    return {"id": match_id, "game": log.game, "players": list(log.players),
            "options": log.rules.options_to_json(log.options), "start_ms": log.start_ms,
            "end_ms": log.end_ms, "result": result, "steps": steps}


REPLAY_CACHE_BYTES = 32 * 1024 * 1024
"""Encoded replays kept in memory (the most recently asked for); a finished match's replay
never changes."""
REPLAYS_AT_ONCE = 1
"""Replays built at the same time (each in a worker thread); the others wait their turn."""
REPLAYS_WAITING = 16
"""Requests that may wait for a replay to be built; more get ``503`` at once."""


class ReplayCache:
    """Encoded replays by match id, at most ``limit`` bytes in all, least recently used out;
    building them (a thread each) at most ``REPLAYS_AT_ONCE`` at a time, and one build per
    match however many ask for it at once."""

    def __init__(self, limit: int = REPLAY_CACHE_BYTES) -> None:
        self.limit = limit
        self.size = 0
        self._kept: OrderedDict[str, bytes] = OrderedDict()
        self._building: dict[str, asyncio.Future[bytes | None]] = {}
        self._turns = asyncio.Semaphore(REPLAYS_AT_ONCE)
        self.waiting = 0

    def clear(self) -> None:
        """Forget every replay (names in them may have changed: an account was deleted)."""
        self._kept.clear()
        self.size = 0

    async def get(self, match_id: str, build: Callable[[], bytes | None]) -> bytes | None:
        """The replay of ``match_id``: kept, or ``build()`` in a worker thread (``None``: no
        such match). Raises ``Busy`` when too many wait."""
        found = self._kept.get(match_id)
        if found is not None:
            self._kept.move_to_end(match_id)
            return found
        running = self._building.get(match_id)
        if running is not None:
            return await asyncio.shield(running)
        if self.waiting >= REPLAYS_WAITING:
            raise Busy
        future: asyncio.Future[bytes | None] = asyncio.get_running_loop().create_future()
        self._building[match_id] = future
        self.waiting += 1
        try:
            async with self._turns:
                data = await run_in_threadpool(build)
            future.set_result(data)
        except BaseException as error:
            future.set_exception(error)
            future.exception()  # retrieved: nobody else may be waiting
            raise
        finally:
            self.waiting -= 1
            del self._building[match_id]
        if data is not None and len(data) <= self.limit:
            self._kept[match_id] = data
            self.size += len(data)
            while self.size > self.limit:
                self.size -= len(self._kept.popitem(last=False)[1])
        return data


class Busy(Exception):
    """Too many replay requests wait already."""
