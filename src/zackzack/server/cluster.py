"""Many server processes, one cluster: who owns which table, one lobby, and fail-over.

Redis holds, for every live table, a key naming the process that owns it, with a lease
(``lease`` seconds, renewed every third of it by one script for all of a process's tables);
a process whose lease is lost stops acting for the table at once. Each process publishes its
tables over Redis pub/sub, and every lobby lists them all. A client is told which process
owns a table (``moved``) and connects there itself, as Colyseus does: no proxy hop, and no
seat reservation that can expire on the way.

When a process dies its keys run out; another process claims each of its tables, raises the
match's epoch in the shared store (``Store.take_match``: from then on every write of the
old owner fails, so a process that was paused past its lease and wakes up cannot write) and
restores the table from the journal. While its lease is unconfirmed (it was paused), a
process holds every timer and message back until Redis says the tables are still its own.
While Redis is unreachable, running tables play on (nobody can take them over) and new ones
are refused. ``docs/operations.md`` tells the whole story.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from collections.abc import Awaitable, Callable, Collection, Iterable
from functools import partial
from typing import Any, Protocol

import msgspec
from redis.asyncio import Redis
from redis.exceptions import RedisError
from sqlalchemy.exc import DBAPIError

from zackzack.engine.clock import Clock, Timer
from zackzack.server.clustering import ClusterConfig, ClusterError, shown_redis
from zackzack.server.logs import event
from zackzack.server.protocol import LobbyTable, ProtocolError, TableRef

log = logging.getLogger(__name__)

POOL = 16
"""Table codes of each kind (public, private) a process claims ahead, so that creating a
table needs no round trip to Redis."""
PUBLISH_EVERY = 0.5
"""Seconds between two publications of this process's tables, at most (every change waits
for the next; the lobby list itself goes out at most every ``Timing.lobby_every``)."""
_RENEW = """
local lost = {}
for _, key in ipairs(KEYS) do
  local owner = redis.call('GET', key)
  if owner == ARGV[1] then
    redis.call('PEXPIRE', key, ARGV[2])
  elseif not owner and ARGV[3] == '1' then
    redis.call('SET', key, ARGV[1], 'PX', ARGV[2])
  else
    table.insert(lost, key)
  end
end
return lost
"""
"""Renew the leases of KEYS for node ARGV[1] for ARGV[2] ms; a missing key is ours again
only if ARGV[3] is 1 (Redis restarted, empty: nobody took anything over since, see
``_settled``), else it ran out (this process stalled) and may be someone else's by now.
Returns the keys lost."""
_RELEASE = "if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end " \
           "return 0"
_FORGET = """
local gone = 0
for i = 2, #ARGV do
  local text = redis.call('HGET', KEYS[1], ARGV[i])
  if text and string.sub(text, 1, #ARGV[1]) == ARGV[1] then
    gone = gone + redis.call('HDEL', KEYS[1], ARGV[i])
  end
end
return gone
"""
"""Delete the fields ARGV[2:] of the hash KEYS[1] whose values begin with ARGV[1] (this
process's own: ``{"node":"…"``), and no other process's."""
_RESET = """
local keep = {}
for i = 2, #ARGV do keep[ARGV[i]] = true end
local fields = redis.call('HGETALL', KEYS[1])
local gone = 0
for i = 1, #fields, 2 do
  if not keep[fields[i]] and string.sub(fields[i + 1], 1, #ARGV[1]) == ARGV[1] then
    gone = gone + redis.call('HDEL', KEYS[1], fields[i])
  end
end
return gone
"""
"""Delete the fields of the hash KEYS[1] whose values begin with ARGV[1] (this process's),
except ARGV[2:]."""
_DROP = "if redis.call('HGET', KEYS[1], ARGV[1]) == ARGV[2] then " \
        "return redis.call('HDEL', KEYS[1], ARGV[1]) end return 0"
"""Delete the field ARGV[1] of the hash KEYS[1] if its value is still ARGV[2]."""
_COUNT = """
if #KEYS == 1 then return redis.call('SCARD', KEYS[1]) end
local union = redis.call('SUNION', unpack(KEYS))
return #union
"""
"""How many different members the sets KEYS hold together (the people online anywhere)."""


class NodeState(msgspec.Struct, frozen=True):
    """What one process tells the others: where it is, who is connected, its tables."""

    node: str
    url: str
    online: int
    listed: list[LobbyTable]
    """Its public tables as the lobby lists them (not the deserted ones)."""
    seated: dict[str, list[TableRef]]
    """Its tables by the public id of each person seated there."""


class WaitingSeat(msgspec.Struct, frozen=True):
    """A seat of a waiting table: ``open``, a person's (public id) or a bot's."""

    kind: str
    player: str | None = None
    bot: str | None = None
    ready: bool = False


class WaitingTable(msgspec.Struct, frozen=True):
    """A table waiting for its players (no match yet, so nothing of it is in the database),
    as its owner keeps it in Redis: another process makes it again if the owner is gone."""

    node: str
    """The owner (first: the owner's ``_FORGET`` and ``_RESET`` look for it)."""
    game: str
    options: dict[str, Any]
    seats: list[WaitingSeat]
    creator: str
    title: str
    private: bool
    rated: bool
    compensation_ms: int


class Revoked(msgspec.Struct, frozen=True):
    """Tokens signed out (by their hashes), or a whole player's, if ``player`` (deleted)."""

    tokens: list[str]
    player: str | None = None


class Tables(Protocol):
    """The lobby, as the cluster needs it."""

    def state(self, node: str, url: str) -> NodeState: ...
    def online_players(self) -> Collection[str]: ...
    def waiting(self, node: str) -> dict[str, bytes]: ...
    def revive(self, code: str, text: str) -> bool: ...
    def others_changed(self) -> None: ...
    def lost(self, codes: Iterable[str]) -> None: ...
    def unfinished(self, code: str | None = None) -> dict[str, str]: ...
    def take_over(self, code: str, match_id: str) -> bool: ...
    def holds(self, code: str) -> bool: ...
    def unhosted_arenas(self) -> list[str]: ...
    def hosts_arena(self, arena_id: str) -> bool: ...
    def host_arena(self, arena_id: str) -> bool: ...


def websocket_url(public_url: str) -> str:
    """The websocket address of a process at ``public_url``.

    >>> websocket_url("https://cards.example.org"), websocket_url("http://10.0.0.5:8001")
    ('wss://cards.example.org/ws', 'ws://10.0.0.5:8001/ws')
    """
    scheme, _, rest = public_url.partition("://")
    return f"{'wss' if scheme.lower() == 'https' else 'ws'}://{rest}/ws"


class Cluster:
    """This process's part of the cluster: its leases, its view of the others."""

    def __init__(self, config: ClusterConfig, redis: Redis | None = None,
                 new_code: Callable[[bool], str] | None = None) -> None:
        from zackzack.server.lobby import CODE_LENGTH, PRIVATE_CODE_LENGTH
        from zackzack.server.lobby import new_code as make_code

        self.config = config
        self.node = secrets.token_hex(4)
        self._own = f'{{"node":"{self.node}"'
        """How this process's own lobby messages begin (``NodeState.node`` comes first)."""
        self.url = websocket_url(config.public_url)
        timeout = min(max(config.lease / 4, 0.2), 2.0)  # a hanging Redis fails a beat in time
        self.redis: Redis = redis or Redis.from_url(
            config.redis, decode_responses=True, socket_timeout=timeout,
            socket_connect_timeout=timeout, health_check_interval=max(1, int(config.lease)))
        self.new_code = new_code or (lambda private: make_code(
            PRIVATE_CODE_LENGTH if private else CODE_LENGTH))
        self.tables: Tables | None = None
        self.on_revoked: Callable[[Revoked], object] = lambda _revoked: None
        """Another process signed tokens out or deleted a player (``revoke``)."""
        self.owned: set[str] = set()
        """The codes whose keys this process holds: its tables and its pool."""
        self.pool: dict[bool, list[str]] = {False: [], True: []}
        """Codes claimed ahead, public and private."""
        self.others: dict[str, tuple[float, NodeState]] = {}
        """Every other process's last word, with when it came."""
        self.reachable = False
        """Redis answered the last heartbeat."""
        self.reachable_since = 0.0
        """Since when (the loop's clock) Redis has answered every heartbeat."""
        self.run_id: str | None = None
        """Redis's run id at the last heartbeat (another one: it restarted, empty)."""
        self.valid_until = 0.0
        """Until when (the loop's clock) this process's leases surely hold."""
        self._held: list[Callable[[], object]] = []
        self._tasks: list[asyncio.Task[Any]] = []
        self._calls: set[asyncio.Future[Any]] = set()
        """Single Redis calls on their way (releases, revocations)."""
        self._dirty = asyncio.Event()
        self._low = asyncio.Event()
        """The pool ran low."""
        self._loop: asyncio.AbstractEventLoop | None = None
        self.everyone: int | None = None
        """How many different people were connected to the whole cluster at the last renewal
        (``None``: not known, Redis could not say)."""
        self._online_sent: set[str] | None = None
        """The people this process's set in Redis holds (``None``: write it afresh)."""
        self._waiting_sent: dict[str, bytes] | None = None
        """This process's waiting tables as Redis has them (``None``: write them afresh)."""

    # Keys ----------------------------------------------------------------------------------

    def _key(self, kind: str, name: str) -> str:
        return f"{self.config.prefix}:{kind}:{name}"

    @property
    def _channel(self) -> str:
        return f"{self.config.prefix}:changes"

    @property
    def _revocations(self) -> str:
        return f"{self.config.prefix}:revoked"

    @property
    def waiting_key(self) -> str:
        """The hash of the tables waiting for their players, by code: each one's description
        (``{"node":"OWNER",…}``), so that another process recreates it when its owner is gone."""
        return f"{self.config.prefix}:waiting"

    def key(self, kind: str, name: str) -> str:
        """The Redis key of ``kind`` (``node``, ``table``, ``online``, …) ``name``."""
        return self._key(kind, name)

    def _code(self, key: str) -> str:
        return key.rsplit(":", 1)[1]

    @property
    def _ms(self) -> int:
        return int(self.config.lease * 1000)

    # Life ----------------------------------------------------------------------------------

    async def start(self, tables: Tables) -> None:
        """Join: register, fill the pool, hear the others; then renew every third of a lease.
        Raises ``ClusterError`` when Redis cannot be reached."""
        self.tables, self._loop = tables, asyncio.get_running_loop()
        try:
            await awaited(self.redis.ping())
        except (RedisError, OSError) as error:
            raise ClusterError(f"cannot reach Redis at {shown_redis(self.config.redis)}: "
                               f"{' '.join(str(error).split())}") from None
        self.reachable, self.reachable_since = True, self._loop.time()
        await self._beat()
        await self._refill_pool()
        for name in ("heartbeat", "adopting", "listen", "publish", "refill"):
            self._tasks.append(asyncio.create_task(getattr(self, f"_{name}")(),
                                                   name=f"cluster-{name}"))
        event("cluster_joined", node=self.node, url=self.url, lease=self.config.lease)

    async def stop(self) -> None:
        """Leave (after the tables were paused and the journal committed: ``app.halt``): the
        tasks stop and every key of this process goes, so that the others take its running
        tables over at their next look instead of after the lease (a rolling restart)."""
        await ended(self._tasks)
        with contextlib.suppress(RedisError, OSError):
            for code in list(self.owned):
                await awaited(self.redis.eval(_RELEASE, 1, self._key("table", code),
                                              self.node))
            await awaited(self.redis.delete(self._key("node", self.node),
                                            self._key("lobby", self.node)))
        self.owned.clear()
        self.valid_until = 0.0  # nothing more is this process's to do
        with contextlib.suppress(RedisError, OSError):
            await self.redis.aclose()

    def valid(self) -> bool:
        """Whether this process may act for its tables now."""
        assert self._loop is not None
        return self._loop.time() < self.valid_until

    def hold(self, callback: Callable[[], object]) -> None:
        """Run ``callback`` now if the leases hold, else once a renewal confirms them."""
        if self._loop is None or self.valid():
            callback()
        else:
            self._held.append(callback)

    def clock(self, loop: asyncio.AbstractEventLoop) -> Clock:
        """``loop`` as the tables' clock, with every timer held while the leases are
        unconfirmed (``hold``)."""
        return _HeldClock(loop, self)

    # Ownership -----------------------------------------------------------------------------

    def take_code(self, private: bool) -> str:
        """A code for a new table, claimed already; ``cluster_unavailable`` if none is left
        (Redis cannot be reached)."""
        pool = self.pool[private]
        self._low.set()
        if not pool or not self.reachable:
            raise ProtocolError("cluster_unavailable", "the server cannot open tables now "
                                "(its cluster store is unreachable); try again soon")
        return pool.pop()

    def release(self, code: str) -> None:
        """The table ``code`` closed: its key goes (if it is still this process's)."""
        if code in self.owned:
            self.owned.discard(code)
            self._spawn(self.redis.eval(_RELEASE, 1, self._key("table", code), self.node))

    async def claim(self, code: str) -> bool:
        """Claim the ownerless table ``code`` (``SET NX``): whether it is this process's now."""
        got = await awaited(self.redis.set(self._key("table", code), self.node, nx=True,
                                           px=self._ms))
        if got:
            self.owned.add(code)
        return bool(got)

    async def locate(self, code: str, patience: float | None = None) -> str | None:
        """Where the table ``code`` is: ``None`` here (claimed and restored now if it had no
        living owner and its match is unfinished), else the owner's websocket address.
        Raises ``no_such_table``, or ``table_moving`` if its dead owner's lease does not run
        out within ``patience`` seconds."""
        return await self._locate(code, patience, self._table_here, "table")

    async def locate_arena(self, arena_id: str, patience: float | None = None) -> str | None:
        """Where arena ``arena_id`` is hosted, as ``locate`` for a table (``no_such_arena``,
        ``arena_moving``): it is taken up here if its process is gone. An arena's key is the
        table key of its id (ids and codes share one pool)."""
        return await self._locate(arena_id, patience, self._arena_here, "arena")

    async def _locate(self, code: str, patience: float | None,
                      here: Callable[[str], Awaitable[bool]], kind: str) -> str | None:
        """Ask Redis for ``code``'s owner until it names a living one (its address) or
        ``here`` makes it this process's (``None``)."""
        assert self._loop is not None
        deadline = self._loop.time() + (self.config.lease * 2 + 1 if patience is None
                                        else patience)
        while True:
            try:
                owner = await awaited(self.redis.get(self._key("table", code)))
                if owner is None or owner == self.node:
                    if await here(code):
                        return None
                elif (url := await self._url_of(owner)) is not None:
                    return url
            except RedisError as error:
                raise ProtocolError("cluster_unavailable", f"the {kind}'s server cannot be "
                                    f"found now ({type(error).__name__}); try again") from None
            if self._loop.time() >= deadline:
                raise ProtocolError(f"{kind}_moving", f"{kind} {code}'s server is gone; "
                                    "another takes it over in a few seconds: try again")
            await asyncio.sleep(min(0.25, self.config.lease / 8))

    async def _table_here(self, code: str) -> bool:
        """Whether the ownerless table ``code`` is live here now: claimed and restored if its
        match is unfinished or it waits for its players (else ``no_such_table``)."""
        assert self.tables is not None
        if self.tables.holds(code):
            return True
        match_id = self.tables.unfinished(code).get(code)
        waiting = None if match_id is not None else await awaited(
            self.redis.hget(self.waiting_key, code))
        gone = ProtocolError("no_such_table", f"there is no live table {code!r}")
        if match_id is None and waiting is None:
            raise gone
        if not (await self._settled() and await self.claim(code)):
            return False
        if self._take_over(code, match_id) if match_id is not None \
                else self._revive(code, str(waiting)):
            return True
        raise gone

    async def _arena_here(self, arena_id: str) -> bool:
        """Whether the unhosted arena ``arena_id`` is hosted here now: claimed and taken up
        from the store (else ``no_such_arena``)."""
        assert self.tables is not None
        gone = ProtocolError("no_such_arena", f"there is no arena {arena_id!r}")
        if self.tables.hosts_arena(arena_id):
            return True
        if arena_id not in self.tables.unhosted_arenas():
            raise gone
        if not (await self._settled() and await self.claim(arena_id)):
            return False
        if self._made(arena_id, partial(self.tables.host_arena, arena_id), "hosting arena"):
            return True
        raise gone

    async def _url_of(self, node: str) -> str | None:
        """The address of the living process ``node`` (``None``: it is gone)."""
        url = await awaited(self.redis.get(self._key("node", node)))
        return None if url is None else str(url)

    # The others ----------------------------------------------------------------------------

    def changed(self) -> None:
        """This process's tables changed: tell the others (soon)."""
        self._dirty.set()

    def revoke(self, tokens: Iterable[str], player: str | None = None) -> None:
        """Tell the other processes that these tokens (hashes) were signed out, or that
        ``player`` was deleted: they forget them and close their connections."""
        text = msgspec.json.encode(Revoked(sorted(tokens), player))
        self._spawn(self.redis.publish(self._revocations, text))

    def listed(self) -> list[LobbyTable]:
        """The others' public tables."""
        return [table for _, state in self.others.values() for table in state.listed]

    def seated(self, player: str) -> list[TableRef]:
        """The others' tables where the person ``player`` sits."""
        return [ref for _, state in self.others.values() for ref in state.seated.get(player, ())]

    def online(self, here: int) -> int:
        """People connected to the whole cluster, each once however many processes they are
        connected to (as counted at the last renewal), or, if Redis could not say, ``here``
        (the people connected to this process) plus the other processes' last word."""
        if self.everyone is not None and self.reachable:
            return self.everyone
        return here + sum(state.online for _, state in self.others.values())

    async def _count_online(self) -> None:
        """Bring this process's set of people online (``zackzack:online:NODE``, expiring with
        the lease) up to date, and count the people of all living processes' sets once each."""
        assert self.tables is not None
        now = set(self.tables.online_players())
        mine = self._key("online", self.node)
        async with self.redis.pipeline(transaction=True) as pipe:
            if self._online_sent is None:
                pipe.delete(mine)
                added, gone = now, set()
            else:
                added, gone = now - self._online_sent, self._online_sent - now
            if added:
                pipe.sadd(mine, *added)
            if gone:
                pipe.srem(mine, *gone)
            pipe.pexpire(mine, self._ms)
            await pipe.execute()
        self._online_sent = now
        keys = [mine, *(self._key("online", node) for node in self.others)]
        everyone = int(await awaited(self.redis.eval(_COUNT, len(keys), *keys)))
        if everyone != self.everyone:
            self.everyone = everyone
            self.tables.others_changed()

    def origins(self) -> list[str]:
        """The public addresses of the other processes (their pages may open websockets here)."""
        return [state.url for _, state in self.others.values()]

    def _heard(self, text: str | bytes) -> None:
        assert self.tables is not None and self._loop is not None
        if isinstance(text, str) and text.startswith(self._own):
            return  # its own, heard back: not decoded (the biggest message there is)
        try:
            state = msgspec.json.decode(text, type=NodeState)
        except msgspec.DecodeError:
            log.warning("a malformed lobby message on %s", self._channel)
            return
        if state.node == self.node:
            return
        old = self.others.get(state.node)
        self.others[state.node] = (self._loop.time(), state)
        if old is None or old[1] != state:
            self.tables.others_changed()

    def _revoked(self, text: str | bytes) -> None:
        try:
            revoked = msgspec.json.decode(text, type=Revoked)
        except msgspec.DecodeError:
            log.warning("a malformed message on %s", self._revocations)
            return
        self.on_revoked(revoked)

    # Tasks ---------------------------------------------------------------------------------

    async def _heartbeat(self) -> None:
        assert self._loop is not None
        due = last = self._loop.time()
        every = self.config.lease / 3
        while True:  # at a steady rate: a slow beat (Redis hanging) does not delay the next
            due = max(due + every, self._loop.time())
            await asyncio.sleep(due - self._loop.time())
            began = self._loop.time()
            if began - last > 2 * every:  # the loop stood still (in the sleep or the beat
                # before), or Redis was slow: the leases may have run out meanwhile
                event("heartbeat_late", logging.WARNING, node=self.node,
                      late_s=round(began - last - every, 2))
            last = began
            try:
                await self._beat()
            except Exception:  # one bad beat must not end the heartbeat
                log.exception("the cluster heartbeat failed")

    async def _beat(self) -> None:
        """Renew every lease (re-assert the ones a restarted Redis forgot) and hear who is
        gone; let the held callbacks go."""
        assert self.tables is not None and self._loop is not None
        began, was_valid = self._loop.time(), self.valid()
        lease = self.config.lease
        try:
            info = await awaited(self.redis.info("server"))
            run_id = str(info.get("run_id", ""))
            restarted = self.run_id is not None and run_id != self.run_id
            keys = [self._key("table", code) for code in self.owned]
            lost: list[str] = await awaited(self.redis.eval(
                _RENEW, len(keys), *keys, self.node, self._ms, int(restarted))) if keys else []
            await awaited(self.redis.set(self._key("node", self.node), self.url, px=self._ms))
            if restarted:  # Redis forgot everything: this process's sets are written afresh
                self._online_sent = self._waiting_sent = None
            await self._publish_now()
            await self._count_online()
        except (RedisError, OSError) as error:
            self._online_sent = self._waiting_sent = None  # unsure what went through
            if self.reachable:
                event("redis_unreachable", node=self.node, error=type(error).__name__)
                self.reachable = False
            if was_valid:  # nobody can take a table over while Redis is away: play on
                self.valid_until = began + lease * 0.8
                self._release_held()
            return
        self.run_id = run_id
        if not self.reachable:
            event("redis_back", node=self.node)
            self.reachable = True
            self.reachable_since = began
        self.valid_until = began + lease * 0.8
        codes = [self._code(key) for key in lost]
        for code in codes:
            self.owned.discard(code)
            for pool in self.pool.values():
                if code in pool:
                    pool.remove(code)
        if codes:
            self.tables.lost(codes)
        self._release_held()
        for node, (heard, _) in list(self.others.items()):
            if began - heard > lease:
                del self.others[node]
                self.tables.others_changed()
        self._low.set()

    def _release_held(self) -> None:
        """The leases hold: the held callbacks run, in order, each on its own (as timers do)."""
        assert self._loop is not None
        held, self._held = self._held, []
        for callback in held:
            self._loop.call_soon(callback)

    async def _settled(self) -> bool:
        """Whether a missing key now means a dead owner: Redis has been up, and this process
        has reached it, for a lease and a third (every living owner renewed since; after a
        restart of Redis or an outage, owners re-assert their keys first)."""
        assert self._loop is not None
        settle = self.config.lease * 4 / 3
        if not self.reachable or self._loop.time() - self.reachable_since < settle:
            return False
        info = await awaited(self.redis.info("server"))
        return int(info.get("uptime_in_seconds", 0)) >= settle

    async def _adopting(self) -> None:
        while True:
            await asyncio.sleep(self.config.lease / 3)
            try:
                await self._adopt()
                await self._adopt_arenas()
            except (RedisError, OSError):
                pass  # the heartbeat says so in the log
            except DBAPIError as error:  # the store is away: the journal says so; try again
                event("takeover_waits", logging.WARNING, reason=str(error.orig)[:200])
            except Exception:
                log.exception("taking tables over failed")

    async def _adopt(self) -> None:
        """Claim and restore the unfinished matches whose tables have no owner, then recreate
        the waiting tables whose owner is gone, one at a time (the heartbeat renews between
        them)."""
        assert self.tables is not None
        playing = {code: match_id for code, match_id in self.tables.unfinished().items()
                   if code not in self.owned}
        described: dict[str, str] = await awaited(self.redis.hgetall(self.waiting_key))
        waiting = {code: text for code, text in described.items()
                   if code not in self.owned and not text.startswith(self._own)}
        if not (playing or waiting) or not await self._settled():
            return
        codes = list(dict.fromkeys([*playing, *waiting]))
        owners = await awaited(self.redis.mget([self._key("table", code) for code in codes]))
        for code, owner in zip(codes, owners, strict=True):
            if owner is not None or not self.valid():
                continue
            stale = code in waiting and (code in playing or self.tables.holds(code))
            if stale:  # it started (its match is taken over) or it is live here already
                await awaited(self.redis.eval(_DROP, 1, self.waiting_key, code, waiting[code]))
            if code in playing:
                if await self.claim(code):
                    self._take_over(code, playing[code])
            elif not stale and await self.claim(code) and not self._revive(code, waiting[code]):
                await awaited(self.redis.eval(_DROP, 1, self.waiting_key, code, waiting[code]))
            await asyncio.sleep(0)

    async def _adopt_arenas(self) -> None:
        """Claim and host the arenas to come or running that no living process hosts (an
        operator's new one, the next of a series, one whose process is gone)."""
        assert self.tables is not None
        ids = [arena for arena in self.tables.unhosted_arenas() if arena not in self.owned]
        if not ids or not await self._settled():
            return
        owners = await awaited(self.redis.mget([self._key("table", arena) for arena in ids]))
        for arena, owner in zip(ids, owners, strict=True):
            if owner is None and self.valid() and await self.claim(arena):
                self._made(arena, partial(self.tables.host_arena, arena), "hosting arena")
            await asyncio.sleep(0)

    def _take_over(self, code: str, match_id: str) -> bool:
        """The claimed table ``code`` is restored here (its key goes again if that fails)."""
        assert self.tables is not None
        return self._made(code, partial(self.tables.take_over, code, match_id), "taking over")

    def _revive(self, code: str, text: str) -> bool:
        """The claimed table ``code``, which was waiting for its players on a process that is
        gone, is made again here from its description (its key goes again if that fails)."""
        assert self.tables is not None
        return self._made(code, partial(self.tables.revive, code, text),
                          "recreating waiting")

    def _made(self, code: str, make: Callable[[], bool], doing: str) -> bool:
        """Whether ``make`` made the claimed table (or arena) ``code`` here; if not, its key
        goes again (an error is logged as ``doing`` it)."""
        try:
            if make():
                return True
        except Exception:
            log.exception("%s table %s failed", doing, code)
        self.release(code)
        return False

    async def _publish_now(self) -> None:
        assert self.tables is not None
        self._dirty.clear()
        text = msgspec.json.encode(self.tables.state(self.node, self.config.public_url))
        waiting = self.tables.waiting(self.node)
        sent = self._waiting_sent or {}
        news = {code: table for code, table in waiting.items() if sent.get(code) != table}
        gone = [code for code in sent if code not in waiting]
        async with self.redis.pipeline(transaction=False) as pipe:
            pipe.set(self._key("lobby", self.node), text, px=self._ms)
            pipe.publish(self._channel, text)
            if news:
                pipe.hset(self.waiting_key, mapping=news)
            if self._waiting_sent is None:  # what it wrote before is unknown: all but these go
                pipe.eval(_RESET, 1, self.waiting_key, self._own, *waiting)
            elif gone:
                pipe.eval(_FORGET, 1, self.waiting_key, self._own, *gone)
            await pipe.execute()
        self._waiting_sent = waiting

    async def _publish(self) -> None:
        while True:
            await self._dirty.wait()
            await asyncio.sleep(PUBLISH_EVERY)  # the changes of a while go out once
            try:
                await self._publish_now()
            except (RedisError, OSError):
                await asyncio.sleep(self.config.lease / 3)  # the heartbeat says so in the log
            except Exception:
                log.exception("publishing the tables failed")
                await asyncio.sleep(self.config.lease / 3)

    async def _listen(self) -> None:
        while True:
            try:
                async with self.redis.pubsub() as pubsub:
                    await pubsub.subscribe(self._channel, self._revocations)
                    async for key in self.redis.scan_iter(match=self._key("lobby", "*")):
                        text = await awaited(self.redis.get(key))
                        if text is not None:
                            self._heard(text)
                    while True:
                        message = await pubsub.get_message(ignore_subscribe_messages=True,
                                                           timeout=self.config.lease)
                        if message is None or message["type"] != "message":
                            continue
                        if message["channel"] == self._revocations:
                            self._revoked(message["data"])
                        else:
                            self._heard(message["data"])
            except (RedisError, OSError):
                await asyncio.sleep(min(1.0, self.config.lease / 3))
            except Exception:  # a bug must not stop the lobby from hearing the others
                log.exception("listening to the cluster failed")
                await asyncio.sleep(min(1.0, self.config.lease / 3))

    async def _refill_pool(self) -> None:
        for private, pool in self.pool.items():
            while len(pool) < POOL:
                code = self.new_code(private)
                if await self.claim(code):
                    pool.append(code)

    async def _refill(self) -> None:
        while True:
            await self._low.wait()
            self._low.clear()
            try:
                await self._refill_pool()
            except (RedisError, OSError):
                await asyncio.sleep(self.config.lease / 3)
            except Exception:
                log.exception("claiming table codes failed")
                await asyncio.sleep(self.config.lease / 3)

    def _spawn(self, work: Any) -> None:
        spawn(self._calls, work, "cluster")


async def ended(tasks: Iterable[asyncio.Task[Any]]) -> None:
    """Cancel ``tasks`` and wait for their end, cancelling again any that went on: redis-py
    can hand a call's answer to a task cancelled meanwhile, and the cancellation is lost."""
    pending = set(tasks)
    for _ in range(50):
        for task in pending:
            task.cancel()
        done, pending = await asyncio.wait(pending, timeout=0.1)
        for task in done:  # what they ended with is read (never logged as unretrieved)
            if not task.cancelled():
                task.exception()
        if not pending:
            return
    log.error("tasks that would not stop: %s", ", ".join(task.get_name() for task in pending))


async def awaited(call: Any) -> Any:
    """The answer of an asyncio Redis call (redis-py types them as sync or async)."""
    return await call


def spawn(calls: set[asyncio.Future[Any]], work: Any, what: str) -> None:
    """Run the Redis call ``work`` in the background, kept in ``calls`` until it ends; a
    failure is only logged (as a ``what`` call's)."""
    task = asyncio.ensure_future(work)
    calls.add(task)
    task.add_done_callback(calls.discard)
    task.add_done_callback(partial(_quiet, what))


def _quiet(what: str, task: asyncio.Future[Any]) -> None:
    if not task.cancelled() and task.exception() is not None:
        log.warning("a %s call failed: %s", what, task.exception())


class _HeldTimer:
    """A timer of the held clock: it waits for the renewal if it comes due while the leases
    are unconfirmed; cancelling it stops it there too."""

    __slots__ = ("callback", "cancelled", "cluster", "handle")

    def __init__(self, callback: Callable[[], object], cluster: Cluster) -> None:
        self.callback, self.cluster = callback, cluster
        self.cancelled = False
        self.handle: asyncio.TimerHandle | None = None

    def cancel(self) -> None:
        self.cancelled = True
        if self.handle is not None:
            self.handle.cancel()

    def fire(self) -> None:
        if not self.cancelled:
            self.cluster.hold(self._run)

    def _run(self) -> None:
        if not self.cancelled:  # not cancelled while it was held
            self.callback()


class _HeldClock:
    """The loop's time and timers; a timer that comes due while the leases are unconfirmed
    waits for the renewal (``Cluster.hold``)."""

    __slots__ = ("cluster", "loop")

    def __init__(self, loop: asyncio.AbstractEventLoop, cluster: Cluster) -> None:
        self.loop, self.cluster = loop, cluster

    def time(self) -> float:
        return self.loop.time()

    def call_at(self, when: float, callback: Callable[[], object]) -> Timer:
        timer = _HeldTimer(callback, self.cluster)
        timer.handle = self.loop.call_at(when, timer.fire)
        return timer
