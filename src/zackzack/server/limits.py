"""Limits that keep one client from hurting the others: rates, backlogs (messages and bytes),
tables, connections, and new players per address.

>>> now = [0.0]
>>> bucket = TokenBucket(rate=2, burst=3, time=lambda: now[0])
>>> [bucket.take() for _ in range(4)]
[True, True, True, False]
>>> now[0] = 1.0
>>> [bucket.take() for _ in range(3)]
[True, True, False]
"""

from __future__ import annotations

import ipaddress
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
    backlog_bytes: int = 524_288
    """Bytes of unsent messages kept for a client (their size in memory, ``sys.getsizeof``);
    a message that would pass it drops them all, as ``backlog`` does."""
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
    new_players_burst: int = 30
    """New players (``hello`` without a known token) one address may make at once
    (one more: ``too_many_new_players``; 0: no limit)."""
    new_players_rate: float = 0.2
    """New players per second one address may make on average after the burst."""
    sign_ins_per_name: int = 5
    """Failed sign-ins for one name from one address at once (then ``too_many_attempts``;
    0: no limit)."""
    sign_ins_per_name_rate: float = 1 / 60
    """Failed sign-ins per second for one name from one address after those: one a minute."""
    sign_ins_per_name_anywhere: int = 30
    """Failed sign-ins for one name from all addresses at once (0: no limit)."""
    sign_ins_per_name_anywhere_rate: float = 0.1
    """Failed sign-ins per second for one name from all addresses after those."""
    sign_ins_per_address: int = 20
    """Sign-in attempts (right or wrong) from one address at once, whatever the names (0: no
    limit)."""
    sign_ins_per_address_rate: float = 0.1
    """Sign-in attempts per second from one address on average after those."""
    claims_per_address: int = 5
    """Claims that reach the password hash from one address (IPv6: its /64) at once (then
    ``too_many_attempts``; 0: no limit)."""
    claims_per_address_rate: float = 1 / 60
    """Claims per second from one address after those: one a minute."""
    claims_per_player: int = 3
    """Claims that reach the password hash for one player at once (one at a time in any
    case; 0: no limit)."""
    claims_per_player_rate: float = 1 / 60
    """Claims per second for one player after those."""
    refusals_per_seat: int = 20
    """Refused actions one seat may have stored at once (wrong or late cards, a card while
    frozen), from all its person's connections together; beyond them the seat's actions are
    dropped with ``rate_limited`` before they reach the table or the store (0: no limit).
    Accepted actions are bounded by the game itself."""
    refusals_per_seat_rate: float = 2.0
    """Refused actions per second one seat may have stored on average after those."""
    renames_per_player: int = 10
    """Renames one player may make at once (``rename`` over the websocket or the API, a new
    name at ``hello``): more get ``rate_limited`` (0: no limit)."""
    renames_per_player_rate: float = 0.2
    """Renames per second after those: one every 5 s."""
    rated_apart_days: float = 30.0
    """Two players seen on one device or one address (IPv6: its /64; not loopback) within
    this many days are never paired by the matchmaker (0: not checked)."""
    hello_seconds: float = 10.0
    """A websocket that has not said ``hello`` this long after it opened is closed (4004;
    0: never)."""

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
        self._refill()
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False

    def wait(self) -> float:
        """Seconds until there is a token (0: now; ``inf``: never, at rate 0)."""
        self._refill()
        if self.tokens >= 1:
            return 0.0
        return (1 - self.tokens) / self.rate if self.rate > 0 else float("inf")

    def full(self) -> bool:
        """Whether the bucket has filled up again (it is as good as a fresh one)."""
        self._refill()
        return self.tokens >= self.burst

    def _refill(self) -> None:
        now = self._time()
        self.tokens = min(self.burst, self.tokens + (now - self._last) * self.rate)
        self._last = now


def client_key(address: str) -> str:
    """Whom an address stands for when counting what it may do: an IPv4 address itself, an
    IPv6 address its /64 (one household or server gets a whole /64 and can pick any address
    in it).

    >>> client_key("203.0.113.7"), client_key("2001:db8:1:2:aaaa::1"), client_key("")
    ('203.0.113.7', '2001:db8:1:2::/64', '')
    """
    try:
        found = ipaddress.ip_address(address)
    except ValueError:
        return address
    if isinstance(found, ipaddress.IPv6Address) and found.ipv4_mapped is None:
        return str(ipaddress.ip_network(f"{found}/64", strict=False))
    return str(found.ipv4_mapped or found) if isinstance(found, ipaddress.IPv6Address) \
        else address


class AddressBuckets:
    """One ``TokenBucket`` per key (a client's address), made on first use; buckets that have
    filled up again are forgotten by :meth:`prune` (a full bucket is a fresh one).

    >>> now = [0.0]
    >>> buckets = AddressBuckets(rate=1, burst=2, time=lambda: now[0])
    >>> [buckets.take("10.0.0.1") for _ in range(3)], buckets.take("10.0.0.2")
    ([True, True, False], True)
    >>> now[0] = 5.0
    >>> buckets.prune(), len(buckets)
    (2, 0)
    """

    __slots__ = ("_buckets", "_time", "burst", "rate")

    def __init__(self, rate: float, burst: int, time: Callable[[], float]) -> None:
        self.rate, self.burst, self._time = rate, burst, time
        self._buckets: dict[str, TokenBucket] = {}

    def __len__(self) -> int:
        return len(self._buckets)

    def take(self, key: str) -> bool:
        """Use one token of ``key``'s bucket if there is one."""
        bucket = self._buckets.get(key)
        if bucket is None:
            bucket = self._buckets[key] = TokenBucket(self.rate, self.burst, self._time)
        return bucket.take()

    def wait(self, key: str) -> float:
        """Seconds until ``key`` has a token again (0: now)."""
        bucket = self._buckets.get(key)
        return 0.0 if bucket is None else bucket.wait()

    def prune(self) -> int:
        """Forget the buckets that are full again; how many were forgotten."""
        full = [key for key, bucket in self._buckets.items() if bucket.full()]
        for key in full:
            del self._buckets[key]
        return len(full)
