"""Garbage collection for a server full of long-lived objects: many short pauses, no long ones.

Every connection keeps a few hundred objects alive (tasks, coroutines, its session), so a
full collection walks hundreds of thousands of them and halts every table for 100–400 ms
(measured with ``bench/load.py`` at 2,000 connections). :func:`tidy` moves the survivors into
the permanent generation every second (``gc.freeze``, which costs nothing), so the collector
only walks what is new; every ten minutes it collects everything, frozen objects included
(cyclic garbage that was frozen waits until then).
"""

from __future__ import annotations

import asyncio
import gc


async def tidy(every: float = 1.0, full_every: float = 600.0) -> None:
    """Freeze the survivors every ``every`` seconds; a full collection every ``full_every``."""
    rounds = max(1, round(full_every / every))
    done = 0
    while True:
        await asyncio.sleep(every)
        done += 1
        if done % rounds == 0:
            gc.unfreeze()
            gc.collect()
        gc.freeze()
