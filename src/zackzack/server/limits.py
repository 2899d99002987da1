"""Limits that keep one client from hurting the others: rates, backlogs, tables and connections.

>>> now = [0.0]
>>> bucket = TokenBucket(rate=2, burst=3, time=lambda: now[0])
>>> [bucket.take() for _ in range(4)]
[True, True, True, False]
>>> now[0] = 1.0
>>> [bucket.take() for _ in range(3)]
[True, True, False]
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Limits:
    """What one connection (and one client) may do; docs/protocol.md states these numbers."""

    rate: float = 20.0
    """Messages per second on average."""
    burst: int = 40
    """Messages at once."""
    refused_to_close: int = 100
    """Rate-limited messages in a row that close the connection (4002)."""
    backlog: int = 256
    """Unsent messages kept for a client; one more drops them all (it is resynced later)."""
    stuck_seconds: float = 60.0
    """A client still not reading this long after its backlog was dropped is closed (4001)."""
    frame_bytes: int = 65_536
    """The largest websocket frame the server reads at all (bigger: close 1009)."""
    connections_per_ip: int = 64
    """Open websockets from one address (one more: HTTP 403 before the upgrade; 0: no limit)."""
    connections_per_player: int = 8
    """Greeted connections of one player at once (one more: ``too_many_connections``)."""
    tables_per_player: int = 4
    """Unfinished tables one player may have created at once (``too_many_tables``)."""

    def __post_init__(self) -> None:
        for name in self.__dataclass_fields__:
            if getattr(self, name) < 0:
                raise ValueError(f"the limit {name} cannot be negative")


class TokenBucket:
    """Allows ``rate`` events a second on average and ``burst`` at once."""

    __slots__ = ("_last", "_time", "burst", "rate", "tokens")

    def __init__(self, rate: float, burst: int, time: Callable[[], float]) -> None:
        self.rate, self.burst, self._time = rate, burst, time
        self.tokens = float(burst)
        self._last = time()

    def take(self) -> bool:
        """Use one token if there is one."""
        now = self._time()
        self.tokens = min(self.burst, self.tokens + (now - self._last) * self.rate)
        self._last = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False
