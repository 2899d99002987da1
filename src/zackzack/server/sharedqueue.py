"""The rated queue of a cluster: one queue per game and number of players across processes.

Each person who seeks has a *ticket* in the Redis hash ``zackzack:queue`` (by public id,
so a person waits in one queue of the whole cluster), written by the process their
connection is on. Every second, each process that has people waiting renews its tickets
(a ticket Redis forgot is written again), reads the hash, and runs the pairing of
``server/matchmaking.py`` over every queue it has people in, on the wall clock (tickets
carry their wall time). A group with one of its own people in it is taken by one script
that checks every ticket is unchanged: the tickets of the process's own people go, the
others' are marked with the new table's code and this process's address. The table is
made here; the other processes find their people's marked tickets at their next second and
send them ``unqueued`` ``matched`` then ``moved`` to the table (``docs/protocol.md``).
The tickets of a process that is gone (its ``zackzack:node:ID`` ran out) are dropped by
whoever looks next. While Redis is unreachable, ``seek`` is refused with
``cluster_unavailable``; the people waiting stay in their queue here and are written
again when Redis answers.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import msgspec
from redis.exceptions import RedisError

from zackzack.games import GAMES
from zackzack.server.cluster import awaited, spawn
from zackzack.server.identity import Player
from zackzack.server.logs import event
from zackzack.server.matchmaking import (
    OFFER_BOT_AFTER,
    Entry,
    Matchmaker,
    Seeker,
    groups,
    window,
)
from zackzack.server.protocol import (
    TITLE_CHARS,
    Error,
    Moved,
    ProtocolError,
    Queue,
    Unqueued,
    encode,
)
from zackzack.server.room import Room, Seat, SeatKind, Viewer

if TYPE_CHECKING:
    from zackzack.engine.race import Wire
    from zackzack.server.cluster import Cluster
    from zackzack.server.lobby import Lobby

log = logging.getLogger(__name__)

_RENEW = """
local changed = {}
for i = 1, #ARGV, 2 do
  local current = redis.call('HGET', KEYS[1], ARGV[i])
  if not current then
    redis.call('HSET', KEYS[1], ARGV[i], ARGV[i + 1])
  elseif current ~= ARGV[i + 1] then
    table.insert(changed, ARGV[i])
    table.insert(changed, current)
  end
end
return changed
"""
"""Tickets ARGV (player, ticket, …) of this process in the queue KEYS[1]: a missing one is
written again (Redis restarted); the ones that changed (matched, or a newer seek of the same
person elsewhere) are returned, player and ticket now."""
_TAKE = """
for i = 1, #ARGV, 3 do
  if redis.call('HGET', KEYS[1], ARGV[i]) ~= ARGV[i + 1] then return 0 end
end
for i = 1, #ARGV, 3 do
  if ARGV[i + 2] == '' then
    redis.call('HDEL', KEYS[1], ARGV[i])
  else
    redis.call('HSET', KEYS[1], ARGV[i], ARGV[i + 2])
  end
end
return 1
"""
"""A group ARGV (player, ticket as read, ticket now or '' to delete, …): all or nothing, and
only if no ticket changed since it was read."""
_DROP = "if redis.call('HGET', KEYS[1], ARGV[1]) == ARGV[2] then " \
        "return redis.call('HDEL', KEYS[1], ARGV[1]) end return 0"
"""Delete the ticket of ARGV[1] if it is still ARGV[2]."""


class Ticket(msgspec.Struct, frozen=True):
    """One person waiting, as the cluster's queue holds them."""

    node: str
    """The process their connection is on (it tells them of their match)."""
    token: str
    """This seek's own id (a newer seek of the same person has another)."""
    player: str
    game: str
    players: int
    rating: int
    since: float
    """When they joined this queue (wall clock, seconds)."""
    offer: str
    matched: str | None = None
    """The code of their table, once matched."""
    url: str | None = None
    """The websocket address of the process their table is on, once matched."""
    marks: tuple[str, ...] = ()
    """The devices and addresses (hashed) they were seen on lately (``Lobby.marks``)."""


@dataclass(slots=True)
class Held:
    """A ticket as read from Redis, for the pairing (``matchmaking.groups``)."""

    ticket: Ticket
    text: str
    seq: int

    @property
    def rating(self) -> int:
        return self.ticket.rating

    @property
    def since(self) -> float:
        return self.ticket.since

    @property
    def marks(self) -> frozenset[str]:
        return frozenset(self.ticket.marks)

    def window(self, now: float) -> int:
        return window(now - self.ticket.since)


@dataclass(slots=True)
class _Starter:
    """The creator of a matched table, as ``Room.start`` asks for them (they may be on
    another process)."""

    player: Player
    origin: str = ""

    @property
    def wire(self) -> Wire:
        raise AttributeError("no connection")

    def send(self, text: str) -> None:
        pass

    def moved_out(self, room: Room) -> None:
        pass

    def relocate(self, code: str, url: str | None) -> None:
        pass


class SharedMatchmaker(Matchmaker):
    """The matchmaker of a clustered process: the queues live in Redis (module docstring);
    the people waiting here are ``entries`` as for a single server, with their tickets."""

    def __init__(self, lobby: Lobby, cluster: Cluster) -> None:
        super().__init__(lobby)
        self.cluster = cluster
        self.key = f"{cluster.config.prefix}:queue"
        self.tickets: dict[str, tuple[Ticket, str]] = {}
        """The tickets of the people waiting here, by player id, as written."""
        self.counts: dict[tuple[str, int], int] = {}
        """How many people each queue held at the last look."""
        self._busy = False
        self._lock = asyncio.Lock()
        """Searching and writing a new ticket, one at a time."""
        self._calls: set[asyncio.Future[Any]] = set()

    # Coming and going ----------------------------------------------------------------------

    def seek(self, seeker: Seeker, game: str, players: int) -> None:
        if not self.cluster.reachable:
            raise ProtocolError("cluster_unavailable", "finding an opponent is not possible "
                                "now (the server's cluster store is unreachable); try again soon")
        self._check(seeker, game, players)
        player, clock = seeker.player, self.lobby.clock
        if any(ref.phase not in ("waiting", "over") for ref in self.cluster.seated(player.id)):
            raise ProtocolError("playing_elsewhere", "you are playing a match: finish it "
                                "first (a new one would leave your seat to a stand-in)")
        entry, left = self._join(seeker, game, players)
        ticket = Ticket(self.cluster.node, secrets.token_hex(6), player.id, game, players,
                        entry.rating, time.time() - (clock.time() - entry.since), entry.offer,
                        marks=tuple(sorted(entry.marks)))
        self.tickets.pop(player.id, None)  # written again by ``_enter``
        self._tell(entry)
        if left is not None:
            self._update(left.game, left.players)
        self._spawn(self._enter(entry, ticket))

    async def _enter(self, entry: Entry, ticket: Ticket) -> None:
        """Write the ticket (keeping the waiting time of the same person's ticket in the same
        queue, from another process), then search at once."""
        player, redis = ticket.player, self.cluster.redis
        async with self._lock:  # never between a search's reading and its taking
            try:
                if self.entries.get(player) is not entry:
                    return  # gone meanwhile
                found = await awaited(redis.hget(self.key, player))
                old = _decoded(found) if found is not None else None
                if old is not None and old.matched is None and old.since < ticket.since \
                        and (old.game, old.players) == (ticket.game, ticket.players):
                    ticket = msgspec.structs.replace(ticket, since=old.since)
                    entry.since = self.lobby.clock.time() - (time.time() - old.since)
                text = msgspec.json.encode(ticket).decode()
                await awaited(redis.hset(self.key, player, text))
                if self.entries.get(player) is entry:
                    self.tickets[player] = (ticket, text)
                else:  # left while it was being written
                    await awaited(redis.eval(_DROP, 1, self.key, player, text))
            except (RedisError, OSError):
                if self.entries.get(player) is entry:
                    self._remove(entry.seeker)
                    entry.seeker.send(encode(Unqueued(reason="left")))
                    entry.seeker.send(encode(Error(
                        code="cluster_unavailable", reason="finding an opponent is not "
                        "possible now (the server's cluster store is unreachable); try again")))
                return
        self._kick()

    def _remove(self, seeker: Seeker) -> Entry | None:
        entry = super()._remove(seeker)
        if entry is not None:
            held = self.tickets.pop(seeker.player.id, None)
            if held is not None:
                self._spawn(self._leave(seeker, *held))
        return entry

    async def _leave(self, seeker: Seeker, ticket: Ticket, text: str) -> None:
        """The ticket goes; if it was matched meanwhile, the leave came too late: the person
        is told of the match after all (the table is theirs)."""
        redis = self.cluster.redis
        try:
            if await awaited(redis.eval(_DROP, 1, self.key, ticket.player, text)):
                return
            found = await awaited(redis.hget(self.key, ticket.player))
        except (RedisError, OSError):
            return  # written again nowhere: it goes with this process's node key
        if found is not None:
            now = msgspec.json.decode(found, type=Ticket)
            if now.token == ticket.token and now.matched is not None:
                await self._delivered(seeker, now, found)

    def stop(self) -> None:
        tickets, self.tickets = list(self.tickets.values()), {}
        super().stop()
        for ticket, text in tickets:
            self._spawn(self.cluster.redis.eval(_DROP, 1, self.key, ticket.player, text))

    # Searching -----------------------------------------------------------------------------

    def _kick(self) -> None:
        """Search now (unless a search is under way: it will go on every second)."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        self._tick()

    def _tick(self) -> None:
        self._timer = None
        if self._busy or not self.entries:
            return
        self._busy = True
        self._spawn(self._look())

    async def _look(self) -> None:
        try:
            async with self._lock:
                await self._search_all()
        except (RedisError, OSError):
            pass  # the heartbeat says so in the log; the people wait here meanwhile
        except Exception:
            log.exception("searching the cluster's queue failed")
        finally:
            self._busy = False
            for entry in sorted(self.entries.values(), key=lambda e: (e.since, e.seq)):
                self._tell(entry)
            self._tick_later()

    async def _search_all(self) -> None:
        """Renew this process's tickets, drop the dead processes', form and start the groups
        with people of this process in them."""
        redis = self.cluster.redis
        mine = list(self.tickets.values())
        if mine:
            changed = await awaited(redis.eval(_RENEW, 1, self.key, *(
                part for ticket, text in mine for part in (ticket.player, text))))
            for player, text in zip(changed[::2], changed[1::2], strict=True):
                await self._changed(player, text)
        found: dict[str, str] = await awaited(redis.hgetall(self.key))
        held = []
        for text in found.values():
            try:
                held.append((msgspec.json.decode(text, type=Ticket), text))
            except msgspec.DecodeError:
                continue
        nodes = sorted({ticket.node for ticket, _ in held} - {self.cluster.node})
        urls = await awaited(redis.mget([self.cluster.key("node", node) for node in nodes])) \
            if nodes else []
        alive = {node for node, url in zip(nodes, urls, strict=True) if url is not None}
        alive.add(self.cluster.node)
        for ticket, text in held:
            if ticket.node not in alive:
                await awaited(redis.eval(_DROP, 1, self.key, ticket.player, text))
        waiting = sorted((pair for pair in held if pair[0].node in alive
                          and pair[0].matched is None), key=lambda p: (p[0].since, p[0].token))
        self.counts = {}
        for ticket, _ in waiting:
            kind = (ticket.game, ticket.players)
            self.counts[kind] = self.counts.get(kind, 0) + 1
        now = time.time()
        for game, players in sorted({(e.game, e.players) for e in self.entries.values()}):
            queue = [Held(ticket, text, seq) for seq, (ticket, text) in enumerate(waiting)
                     if (ticket.game, ticket.players) == (game, players)]
            for group in groups(queue, players, now):
                if any(member.ticket.node == self.cluster.node for member in group):
                    await self._match(group)

    async def _changed(self, player: str, text: str) -> None:
        """This process's ticket of ``player`` is not what it wrote: matched (they are told
        where to go), or the person seeks from another process now (this one lets go)."""
        entry = self.entries.get(player)
        held = self.tickets.get(player)
        if entry is None or held is None:
            return
        ticket = msgspec.json.decode(text, type=Ticket)
        super()._remove(entry.seeker)
        del self.tickets[player]
        if ticket.token == held[0].token and ticket.matched is not None:
            await self._delivered(entry.seeker, ticket, text)
        else:
            entry.seeker.send(encode(Unqueued(reason="left")))

    async def _delivered(self, seeker: Seeker, ticket: Ticket, text: str) -> None:
        """Tell ``seeker`` of their match on another process; their ticket goes."""
        assert ticket.matched is not None
        seeker.send(encode(Unqueued(reason="matched", code=ticket.matched)))
        seeker.send(encode(Moved(code=ticket.matched, url=ticket.url)))
        event("queue_sent", player=ticket.player, code=ticket.matched, url=ticket.url)
        await awaited(self.cluster.redis.eval(_DROP, 1, self.key, ticket.player, text))

    async def _match(self, group: list[Held]) -> None:
        """Take the group's tickets (if nobody changed since they were read) and start its
        table here."""
        people: list[Player] = []
        seekers: list[Seeker | None] = []
        for member in group:
            entry = self.entries.get(member.ticket.player)
            here = entry is not None and member.ticket.node == self.cluster.node \
                and self.tickets.get(member.ticket.player, (None, ""))[1] == member.text
            person = entry.seeker.player if here and entry is not None \
                else self.lobby.players(member.ticket.player)
            if person is None:
                return
            people.append(person)
            seekers.append(entry.seeker if here and entry is not None else None)
        try:
            code = self.cluster.take_code(False)
        except ProtocolError:
            return
        parts = []
        for member, seeker in zip(group, seekers, strict=True):
            marked = msgspec.structs.replace(member.ticket, matched=code, url=self.cluster.url)
            parts += [member.ticket.player, member.text,
                      "" if seeker is not None else msgspec.json.encode(marked).decode()]
        if not await awaited(self.cluster.redis.eval(_TAKE, 1, self.key, *parts)):
            self.cluster.pool[False].append(code)  # claimed still: for the next table
            return
        for member, seeker in zip(group, seekers, strict=True):
            if seeker is not None and self.entries.get(member.ticket.player) is not None:
                super()._remove(seeker)
            self.tickets.pop(member.ticket.player, None)
        self._start(code, group, people, seekers)

    def _start(self, code: str, group: list[Held], people: list[Player],
               seekers: list[Seeker | None]) -> None:
        first = group[0].ticket
        rules = GAMES[first.game]
        options = rules.parse_options({"players": first.players})
        seats = [Seat(SeatKind.HUMAN, person, ready=True) for person in people]
        title = f"{rules.INFO.title} · {' – '.join(person.name for person in people)}"
        if len(title) > TITLE_CHARS:
            title = title[:TITLE_CHARS - 1] + "…"
        now = time.time()
        try:
            room = self.lobby._open(first.game, options, seats, people[0], title,
                                    private=False, rated=True, code=code)
        except Exception:
            log.exception("matchmaking failed to open %s", code)
            self.cluster.release(code)
            for seeker in seekers:
                if seeker is not None:
                    seeker.send(encode(Unqueued(reason="left")))
            return
        event("queue_matched", code=room.code, game=first.game, players=first.players,
              ratings=[member.rating for member in group],
              waited=[round(now - member.since, 1) for member in group],
              elsewhere=sum(seeker is None for seeker in seekers))
        try:
            for seeker in seekers:
                if seeker is not None:
                    self.lobby.end_tutorial(seeker.player)
                    seeker.matched(room)
            starter: Viewer = _Starter(people[0])
            room.start(starter)
        except Exception:  # never leave a table of people who were told they were matched
            log.exception("starting the matched table %s failed", room.code)
            self.lobby.close(room)

    def _tell(self, entry: Entry) -> None:
        now = self.lobby.clock.time()
        waited = now - entry.since
        local = sum(e.game == entry.game and e.players == entry.players
                    for e in self.entries.values())
        entry.seeker.send(encode(Queue(
            game=entry.game, players=entry.players,
            waiting=max(local, self.counts.get((entry.game, entry.players), 0)),
            since=round(entry.since * 1000), window=entry.window(now),
            bot=entry.offer if waited >= OFFER_BOT_AFTER - 1e-9 else None)))

    def _spawn(self, work: Any) -> None:
        spawn(self._calls, work, "queue")


def _decoded(text: str) -> Ticket | None:
    try:
        return msgspec.json.decode(text, type=Ticket)
    except msgspec.DecodeError:
        return None
