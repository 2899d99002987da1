"""How late the event loop runs: a sampler for ``bench/load.py``, off unless asked for.

With ``ZACKZACK_LOOP_LAG=FILE`` in its environment, ``zackzack serve`` wakes up every
:data:`EVERY` seconds and notes how much later than asked it woke (a callback that held the
loop, a collector pause, a blocking commit). Each ``SIGUSR1`` writes what it noted since the
previous one to FILE as one JSON object (``n``, ``p999`` and ``max`` in ms; ``report``: how
many reports came before; and running totals such as the journal's actions and commits) and
starts afresh. Without the variable nothing runs.
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
from collections.abc import Callable
from pathlib import Path

ENV = "ZACKZACK_LOOP_LAG"
EVERY = 0.005
"""Seconds between two samples."""


def summary(lags: list[float]) -> dict[str, float]:
    """The count, 99.9th percentile and maximum of ``lags`` (seconds), in ms.

    >>> summary([0.001] * 999 + [0.02])
    {'n': 1000, 'p999': 20.0, 'max': 20.0}
    >>> summary([])
    {'n': 0, 'p999': 0.0, 'max': 0.0}
    """
    if not lags:
        return {"n": 0, "p999": 0.0, "max": 0.0}
    ordered = sorted(lags)
    p999 = ordered[min(len(ordered) - 1, int(0.999 * len(ordered)))]
    return {"n": len(ordered), "p999": round(p999 * 1000, 3),
            "max": round(ordered[-1] * 1000, 3)}


async def sample(path: Path, every: float = EVERY,
                 counters: Callable[[], dict[str, int]] = dict) -> None:
    """Note the loop's lateness every ``every`` seconds; report to ``path`` on ``SIGUSR1``,
    with ``counters()`` (running totals the bench takes differences of)."""
    loop = asyncio.get_running_loop()
    lags: list[float] = []
    reports = 0

    def report() -> None:
        nonlocal lags, reports
        data = {**summary(lags), **counters(), "report": reports}
        lags, reports = [], reports + 1
        partial = path.with_name(path.name + ".part")
        partial.write_text(json.dumps(data))
        os.replace(partial, path)

    loop.add_signal_handler(signal.SIGUSR1, report)
    try:
        while True:
            asked = loop.time() + every
            await asyncio.sleep(every)
            lags.append(max(0.0, loop.time() - asked))
    finally:
        loop.remove_signal_handler(signal.SIGUSR1)


def requested() -> Path | None:
    """The file named by :data:`ENV`, if the sampler is asked for."""
    value = os.environ.get(ENV)
    return Path(value) if value else None
