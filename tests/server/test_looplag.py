"""The bench's loop-lag sampler (``server/looplag.py``): off unless asked; a stall shows."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import time
from pathlib import Path
from typing import Any

import pytest

from zackzack.server import looplag


async def report(path: Path, number: int) -> dict[str, Any]:
    """Ask for report ``number`` and wait (on the loop) until it is written."""
    os.kill(os.getpid(), signal.SIGUSR1)
    while True:
        if path.exists():
            data: dict[str, Any] = json.loads(path.read_text())
            if data["report"] == number:
                return data
        await asyncio.sleep(0.001)


@pytest.mark.wallclock
def test_a_stall_of_the_loop_shows_in_the_next_report(tmp_path: Path) -> None:
    path = tmp_path / "lag.json"

    async def main() -> tuple[dict[str, Any], dict[str, Any]]:
        sampler = asyncio.create_task(looplag.sample(path))
        await asyncio.sleep(0.02)
        first = await report(path, 0)
        time.sleep(0.05)  # a callback that holds the loop for 50 ms
        await asyncio.sleep(0.02)
        second = await report(path, 1)
        sampler.cancel()
        return first, second

    first, second = asyncio.run(main())
    assert first["n"] >= 1
    assert second["max"] >= 45 and second["n"] >= 1  # the stall, less the sampler's 5 ms


def test_the_sampler_is_off_unless_asked(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(looplag.ENV, raising=False)
    assert looplag.requested() is None
    monkeypatch.setenv(looplag.ENV, "/tmp/lag.json")
    assert looplag.requested() == Path("/tmp/lag.json")
