"""Time for the table: the asyncio loop for live play, a virtual clock for replays and simulation.

>>> clock = VirtualClock()
>>> seen = []
>>> _ = clock.call_at(2.0, lambda: seen.append(clock.time()))
>>> _ = clock.call_at(1.0, lambda: seen.append(clock.time()))
>>> clock.run()
>>> seen
[1.0, 2.0]
"""

from __future__ import annotations

from collections.abc import Callable
from heapq import heappop, heappush
from typing import Any, Protocol

TIMER = 0
"""The kind of a queue entry that is a :class:`VirtualTimer` (see :class:`TimerQueue`)."""


class Timer(Protocol):
    """A scheduled callback that can be cancelled (``asyncio.TimerHandle`` is one)."""

    def cancel(self) -> None: ...


class Clock(Protocol):
    """A source of time in seconds with timers; an asyncio event loop is one."""

    def time(self) -> float: ...

    def call_at(self, when: float, callback: Callable[[], object]) -> Timer: ...


class VirtualTimer:
    """A timer of the virtual clock."""

    __slots__ = ("callback", "when")

    def __init__(self, when: float, callback: Callable[[], object] | None) -> None:
        self.when = when
        self.callback = callback

    def cancel(self) -> None:
        """Forget the callback; the clock skips this timer."""
        self.callback = None


class TimerQueue:
    """Virtual time and a queue of timers by time, then by the order they were set: the part
    of :class:`VirtualClock` that ``zackzack.sim.fast.Match`` shares. Each entry is
    ``(when, number, TIMER, timer)``; the third field lets a subclass queue other kinds."""

    __slots__ = ("_now", "_queue", "_seq")

    def __init__(self, start: float = 0.0) -> None:
        self._now = start
        self._queue: list[tuple[float, int, int, Any]] = []
        self._seq = 0

    def time(self) -> float:
        """The current virtual time in seconds."""
        return self._now

    def call_at(self, when: float, callback: Callable[[], object]) -> VirtualTimer:
        """Run ``callback`` at ``when`` (not before now); timers due together run in order."""
        if when < self._now:
            when = self._now
        timer = VirtualTimer(when, callback)
        self._seq += 1
        heappush(self._queue, (when, self._seq, TIMER, timer))
        return timer

    def _fire_first(self) -> bool:
        """Take the first timer off the queue and run it at its time, unless it was
        cancelled; whether it ran."""
        when, _, _, timer = heappop(self._queue)
        callback = timer.callback
        if callback is None:
            return False
        timer.callback = None
        self._now = when
        callback()
        return True


class VirtualClock(TimerQueue):
    """A clock whose time jumps from one timer to the next: fast, exact, reproducible."""

    __slots__ = ()

    def call_later(self, delay: float, callback: Callable[[], object]) -> VirtualTimer:
        """Run ``callback`` ``delay`` seconds from now."""
        return self.call_at(self._now + delay, callback)

    def step(self, until: float | None = None) -> bool:
        """Run the next timer due by ``until``; ``False`` when there is none."""
        return self._run(until, once=True)

    def run(self, until: float | None = None, stop: Callable[[], bool] | None = None) -> None:
        """Run timers in time order until none is due by ``until`` or ``stop()`` is true."""
        if stop is None:
            self._run(until, once=False)
        else:
            while not stop() and self._run(until, once=True):
                pass
        if until is not None and until > self._now and (stop is None or not stop()):
            self._now = until

    def _run(self, until: float | None, once: bool) -> bool:
        """Run the timers due by ``until`` (only the next one if ``once``); whether any ran."""
        queue = self._queue
        ran = False
        while queue and (until is None or queue[0][0] <= until):
            if self._fire_first():
                if once:
                    return True
                ran = True
        return ran
