"""The limits that matter against abuse, counted for the whole cluster in Redis.

Every limit is kept by each process for itself (``server/limits.py``); in a cluster, these
are counted in Redis too, so that spreading the attempts over the processes gains nothing:

- new players per address (``Limits.new_players_*``),
- sign-in attempts per address, failed sign-ins per name and address and per name from
  anywhere (``Limits.sign_ins_*``), and the devices and addresses an account knows
  (``Identities.knows``: so a known device is known on every process),
- claims per address and per player (``Limits.claims_*``),
- open websockets per address (``Limits.connections_per_ip``).

Addresses count by ``limits.client_key`` (an IPv6 address by its /64). A bucket is a Redis
hash (tokens, when) changed by one Lua script (``_BUCKET``) on Redis's own clock; its key
runs out once it would be full again. Redis holds no address and no name in clear: every
key and field names a short hash of them.

Nothing waits for Redis on a hot path. Sign-ins and claims are HTTP requests that wait for a
password hash anyway: they ask Redis (one round trip) before hashing. A websocket asks once
when it opens, before it is accepted: one script counts it against the address's websockets
on every process and looks at the address's new-player bucket, which the synchronous
``hello`` then checks with what the process learnt (``blocked``), counting the new player in
Redis afterwards (``count_later``). The local limits always apply as well; while Redis is
unreachable (``Cluster.reachable``, or a call fails or is slow) only they do.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import math
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any, TypeVar

from redis.exceptions import RedisError

from zackzack.server.cluster import awaited, spawn
from zackzack.server.identity import TooManyAttempts, token_hash
from zackzack.server.limits import Limits, client_key
from zackzack.words.names import name_key

if TYPE_CHECKING:
    from zackzack.server.cluster import Cluster

log = logging.getLogger(__name__)

ANSWER_WITHIN = 1.0
"""Seconds Redis may take to answer a limit's question; slower counts as unreachable (the
local limits alone apply to that request)."""
NEVER = 3600.0
"""The wait reported for a bucket that never refills (rate 0)."""
KNOWN_DAYS = 400
"""How long Redis remembers the devices and addresses of an account (as its cookie lasts)."""
KNOWN_PER_ACCOUNT = 16

_BUCKET = """
local now = redis.call('TIME')
now = tonumber(now[1]) * 1000 + math.floor(tonumber(now[2]) / 1000)
local rate, burst, cost = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
local held = redis.call('HMGET', KEYS[1], 't', 'at')
local tokens = burst
if held[1] then
  tokens = math.min(burst, tonumber(held[1]) + math.max(0, now - tonumber(held[2])) * rate / 1000)
end
if tokens < 1 then
  if rate <= 0 then return -1 end
  return math.max(1, math.ceil((1 - tokens) * 1000 / rate))
end
if cost > 0 then
  tokens = tokens - cost
  redis.call('HSET', KEYS[1], 't', tostring(tokens), 'at', now)
  local full = 86400000
  if rate > 0 then full = math.ceil((burst - tokens) * 1000 / rate) end
  redis.call('PEXPIRE', KEYS[1], full + 1000)
end
return 0
"""
"""A token bucket (KEYS[1]: a hash of its tokens ``t`` and when ``at``, in ms) of ARGV[1]
tokens a second and ARGV[2] at once: take ARGV[3] tokens (0: only look). Returns 0 (taken,
or there is one), else the ms until there is one (-1: never)."""
_CONNECT = """
local here = tonumber(ARGV[3])
local total = here
for i = 3, #KEYS do total = total + tonumber(redis.call('HGET', KEYS[i], ARGV[1]) or '0') end
local cap = tonumber(ARGV[2])
local allowed = 0
if cap == 0 or total < cap then
  allowed = 1
  redis.call('HSET', KEYS[1], ARGV[1], here + 1)
  redis.call('PEXPIRE', KEYS[1], ARGV[4])
end
local wait = 0
local burst, rate = tonumber(ARGV[6]), tonumber(ARGV[5])
if burst > 0 then
  local held = redis.call('HMGET', KEYS[2], 't', 'at')
  if held[1] then
    local now = redis.call('TIME')
    now = tonumber(now[1]) * 1000 + math.floor(tonumber(now[2]) / 1000)
    local tokens = tonumber(held[1]) + math.max(0, now - tonumber(held[2])) * rate / 1000
    if tokens < 1 then
      wait = -1
      if rate > 0 then wait = math.max(1, math.ceil((1 - tokens) * 1000 / rate)) end
    end
  end
end
return {allowed, wait}
"""
"""A websocket opens from the address (hashed) ARGV[1]: count it in this process's hash
KEYS[1] (ARGV[3]: its websockets from there before this one; the hash lasts ARGV[4] ms)
unless the address has ARGV[2] open already with the other processes' (KEYS[3:]); and how
long (ms) until the address's new-player bucket KEYS[2] (ARGV[5] a second, ARGV[6] at once)
has a token. Returns {1 if counted, that wait}."""

T = TypeVar("T")


def tag(key: str) -> str:
    """What Redis is told of an address, a name or a player: a short hash.

    >>> len(tag("203.0.113.7")), tag("203.0.113.7") == tag("2001:db8::1")
    (20, False)
    """
    return hashlib.sha256(key.encode()).hexdigest()[:20]


def _wait(ms: int) -> float:
    return NEVER if ms < 0 else ms / 1000


class SharedLimits:
    """The cluster-wide part of the limits of one process (see the module)."""

    def __init__(self, cluster: Cluster, limits: Limits) -> None:
        self.cluster, self.limits = cluster, limits
        self.blocked_until: dict[str, float] = {}
        """New-player buckets Redis said were empty, by address key: until when (the loop's
        clock)."""
        self.per_ip: Callable[[], dict[str, int]] = dict
        """This process's open websockets per address key (the app's ``Server.per_ip``)."""
        self._calls: set[asyncio.Future[Any]] = set()
        self._task: asyncio.Task[None] | None = None

    # Redis -----------------------------------------------------------------------------------

    def _key(self, kind: str, name: str) -> str:
        return self.cluster.key(kind, tag(name))

    @property
    def _conns(self) -> str:
        return self.cluster.key("conns", self.cluster.node)

    async def _ask(self, call: Callable[[], Awaitable[T]], fallback: T) -> T:
        """``call``'s answer, or ``fallback`` while Redis is unreachable, fails or is slow."""
        if not self.cluster.reachable:
            return fallback
        try:
            async with asyncio.timeout(ANSWER_WITHIN):
                return await call()
        except (RedisError, OSError, TimeoutError):
            return fallback

    async def _bucket(self, kind: str, key: str, rate: float, burst: int, cost: int) -> float:
        """Seconds until ``kind``'s bucket of ``key`` has a token (0: it had one, and ``cost``
        of them was taken); 0 as well while Redis cannot say (the local limits decide)."""
        if not key or burst <= 0:
            return 0.0

        async def call() -> int:
            found: Any = await awaited(self.cluster.redis.eval(
                _BUCKET, 1, self._key(f"limit:{kind}", key), rate, burst, cost))
            return int(found)

        return _wait(await self._ask(call, 0))

    def _later(self, work: Awaitable[Any]) -> None:
        spawn(self._calls, work, "cluster limit's")

    # New players and websockets -------------------------------------------------------------

    async def connect(self, ip: str) -> bool:
        """A websocket opens from the address key ``ip``: whether the cluster has room for it
        (``Limits.connections_per_ip``, counted here when it has; the caller then counts it
        in ``per_ip`` and calls :meth:`disconnect` when it closes); and learn whether the
        address may make a new player (:meth:`blocked`). Yes while Redis cannot say."""
        limits, cluster = self.limits, self.cluster
        if not limits.connections_per_ip and not limits.new_players_burst:
            return True  # nothing to count
        here = self.per_ip().get(ip, 0)
        others = [cluster.key("conns", node) for node in cluster.others]

        async def call() -> list[int]:
            found: Any = await awaited(cluster.redis.eval(
                _CONNECT, 2 + len(others), self._conns, self._key("limit:new_player", ip),
                *others, tag(ip), limits.connections_per_ip, here,
                int(cluster.config.lease * 1000), limits.new_players_rate,
                limits.new_players_burst))
            return [int(found[0]), int(found[1])]

        allowed, wait = await self._ask(call, [1, 0])
        if wait:
            self.blocked_until[ip] = asyncio.get_running_loop().time() + _wait(wait)
        else:
            self.blocked_until.pop(ip, None)
        return bool(allowed)

    def disconnect(self, ip: str) -> None:
        """A websocket of the address key ``ip`` closed (``per_ip`` counts it no more)."""
        left = self.per_ip().get(ip, 0)
        if self.cluster.reachable:
            redis = self.cluster.redis
            self._later(self._ask(lambda: awaited(
                redis.hset(self._conns, tag(ip), str(left)) if left
                else redis.hdel(self._conns, tag(ip))), 0))

    def blocked(self, ip: str) -> float:
        """Seconds until the address key ``ip`` may make a new player, as far as Redis said
        when its websocket opened or its last new player was counted (0: it may)."""
        until = self.blocked_until.get(ip)
        if until is None:
            return 0.0
        left = until - asyncio.get_running_loop().time()
        if left <= 0:
            del self.blocked_until[ip]
        return max(left, 0.0)

    def count_later(self, ip: str) -> None:
        """A new player was made from the address key ``ip``: take its token in Redis (soon:
        ``hello`` cannot wait); if there was none, the address's next ``hello`` is refused."""
        limits = self.limits

        async def count() -> None:
            wait = await self._bucket("new_player", ip, limits.new_players_rate,
                                      limits.new_players_burst, 1)
            if wait:
                self.blocked_until[ip] = asyncio.get_running_loop().time() + wait

        self._later(count())

    # Sign-ins and claims --------------------------------------------------------------------

    def _known(self, name: str) -> str:
        return self._key("known", name_key(name))

    async def knows(self, name: str, device: str | None, address: str) -> str | None:
        """How the account called ``name`` knows this attempt on any process
        (``Identities.knows``): ``"device"``, ``"address"`` or ``None``."""
        marks = [f"device:{token_hash(device)}" if device else "", client_key(address)]
        wanted = [tag(mark) for mark in marks if mark]
        if not wanted:
            return None

        async def call() -> list[Any]:
            found: list[Any] = await awaited(self.cluster.redis.zmscore(self._known(name), wanted))
            return found

        scores = await self._ask(call, [None] * len(wanted))
        found = dict(zip([mark for mark in marks if mark], scores, strict=True))
        if device and found.get(marks[0]) is not None:
            return "device"
        return "address" if marks[1] and found.get(marks[1]) is not None else None

    def remember(self, name: str, address: str, device: str) -> None:
        """The account called ``name`` proved its password from ``address`` on ``device``:
        every process knows them from now on (``knows``), the most recent
        ``KNOWN_PER_ACCOUNT`` of them for ``KNOWN_DAYS``."""
        if not self.cluster.reachable:
            return
        marks = [mark for mark in (client_key(address), f"device:{token_hash(device)}") if mark]
        key = self._known(name)

        async def write() -> None:
            now = await awaited(self.cluster.redis.time())
            async with self.cluster.redis.pipeline(transaction=True) as pipe:
                pipe.zadd(key, {tag(mark): float(now[0]) for mark in marks})
                pipe.zremrangebyrank(key, 0, -KNOWN_PER_ACCOUNT - 1)
                pipe.expire(key, KNOWN_DAYS * 86_400)
                await pipe.execute()

        self._later(self._ask(write, None))

    def _failures(self, name: str, address: str, device: str | None, known: str | None
                  ) -> list[tuple[str, str, float, int]]:
        """The failure buckets an attempt answers to, as ``Identities._buckets`` says."""
        limits, key = self.limits, name_key(name)
        here = ("name_here", f"{key}\n{client_key(address)}", limits.sign_ins_per_name_rate,
                limits.sign_ins_per_name)
        if known == "device" and device:
            return [("name_here", f"{key}\ndevice:{token_hash(device)}",
                     limits.sign_ins_per_name_rate, limits.sign_ins_per_name)]
        anywhere = ("name", key, limits.sign_ins_per_name_anywhere_rate,
                    limits.sign_ins_per_name_anywhere)
        return [here] if known == "address" else [here, anywhere]

    async def throttle(self, name: str, address: str, device: str | None,
                       known: str | None) -> None:
        """``Identities.throttle`` for the whole cluster: count the attempt from ``address``
        and refuse it (``too_many_attempts``) when the address tried too often, or the name
        failed too often from there or from anywhere (``known``: how the account knows the
        attempt, see :meth:`knows`)."""
        limits = self.limits
        if known != "device":
            wait = await self._bucket("sign_in", client_key(address),
                                      limits.sign_ins_per_address_rate,
                                      limits.sign_ins_per_address, 1)
            if wait:
                raise TooManyAttempts(math.ceil(wait))
        for kind, who, rate, burst in self._failures(name, address, device, known):
            wait = await self._bucket(kind, who, rate, burst, 0)
            if wait:
                raise TooManyAttempts(math.ceil(wait))

    def failed(self, name: str, address: str, device: str | None, known: str | None) -> None:
        """A wrong password for ``name``: ``Identities.failed`` for the whole cluster."""
        for kind, who, rate, burst in self._failures(name, address, device, known):
            self._later(self._bucket(kind, who, rate, burst, 1))

    async def claim(self, player: str, address: str) -> None:
        """Count a claim about to be hashed for the whole cluster, or refuse it
        (``too_many_attempts``), as ``Identities.claim_throttle`` does per process."""
        limits = self.limits
        for kind, who, rate, burst in (
                ("claim_here", client_key(address), limits.claims_per_address_rate,
                 limits.claims_per_address),
                ("claim_by", player, limits.claims_per_player_rate, limits.claims_per_player)):
            wait = await self._bucket(kind, who, rate, burst, 1)
            if wait:
                raise TooManyAttempts(math.ceil(wait), "too many claims")

    # Life -----------------------------------------------------------------------------------

    async def start(self) -> None:
        """Keep this process's count of websockets per address right in Redis (rewritten
        every third of a lease: after an outage, a restart of Redis, or a lost update)."""
        self._task = asyncio.create_task(self._resync(), name="cluster-limits")

    async def stop(self) -> None:
        """Stop, and take this process's websockets out of the count."""
        if self._task is not None:
            self._task.cancel()
        for call in list(self._calls):
            call.cancel()
        await self._ask(lambda: self.cluster.redis.delete(self._conns), 0)

    async def _resync(self) -> None:
        while True:
            await asyncio.sleep(self.cluster.config.lease / 3)
            now = asyncio.get_running_loop().time()
            for ip in [ip for ip, until in self.blocked_until.items() if until <= now]:
                del self.blocked_until[ip]
            counts = {tag(ip): count for ip, count in self.per_ip().items() if count > 0}

            async def write(counts: dict[str, int] = counts) -> None:
                async with self.cluster.redis.pipeline(transaction=True) as pipe:
                    pipe.delete(self._conns)
                    if counts:
                        pipe.hset(self._conns, mapping=counts)
                        pipe.pexpire(self._conns, int(self.cluster.config.lease * 1000))
                    await pipe.execute()

            try:
                await self._ask(write, None)
            except Exception:
                log.exception("counting the websockets in Redis failed")
