"""Arenas in the server: the hall hosts the arenas of this process (``zackzack.arena`` pairs
and scores), seats their players at new tables as they wait, scores each table once its match
is stored, pushes the standings, and writes the whole arena to the store at every change, so
that after a restart, or in another process of a cluster, it goes on where it was.

Time is the store's wall clock (seconds; the same in every process of a cluster); timers run
on the lobby's clock. A member is the connection that plays for a player: when it closes, the
player is paused, and their next ``arena_watch`` or ``arena_join`` (or their coming back to
their arena table) takes them back in, unless they paused or withdrew themselves. A table is
scored from the store, never from what a process remembers: a table taken over by another
process, or one whose process died, counts once its match is stored as over (an abandoned one
counts for nobody). ``docs/protocol.md`` (Arenas) has the messages, ``docs/rules.md`` the
scoring.
"""

from __future__ import annotations

import hashlib
import logging
import math
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Literal, Protocol

import msgspec
from sqlalchemy.exc import DBAPIError

from zackzack.arena import PAIR_EVERY, Arena, ArenaError, Settings, Standing, Status, Table
from zackzack.engine.clock import Timer
from zackzack.engine.table import Phase
from zackzack.games import GAMES
from zackzack.server.logs import event
from zackzack.server.protocol import (
    TITLE_CHARS,
    ArenaCreate,
    ArenaEntry,
    ArenaGame,
    ArenaInfo,
    ArenaLine,
    ArenaState,
    ProtocolError,
    clean_text,
    encode,
)
from zackzack.server.room import Room, Seat, SeatKind, Viewer, rated_check
from zackzack.store.arenas import ArenaRecord, ArenaStatus

if TYPE_CHECKING:
    from zackzack.server.lobby import Lobby

log = logging.getLogger(__name__)

PUSH_EVERY = 1.0
"""Seconds between two standings sent to an arena's watchers, at the least."""
LISTED_AFTER_END = 600.0
"""Seconds an arena stays in the lobby's list (and in memory) after it is over."""
LOAD_EVERY = 10.0
"""Seconds between two looks in the store for arenas made elsewhere (an operator's command,
another process) that this process should host."""
ARENAS_PER_PLAYER = 3
"""Arenas still to come or running that one player may have made."""
STANDINGS_SHOWN = 100
"""The lines of the standings an ``arena`` message carries (each member's own comes besides,
as ``mine``): a large arena's whole table would be megabytes a second to every watcher."""
ID_LENGTH, PRIVATE_ID_LENGTH = 8, 12
"""An arena's id: a public one is listed; a private one is its own secret, as a private
table's code is."""

State = Literal["upcoming", "running", "over"]


class Member(Viewer, Protocol):
    """A connection that plays for its player in an arena: the hall seats it at tables."""

    def arena_seated(self, room: Room, arena: str) -> None: ...


class _Stored(msgspec.Struct, frozen=True):
    """What the store's ``state`` column holds of a hosted arena."""

    arena: msgspec.Raw
    names: dict[str, str]
    rooms: dict[int, str]
    series: str
    creator_name: str


@dataclass(eq=False, slots=True)
class Hosted:
    """One arena this process hosts, with who plays and watches it here."""

    record: ArenaRecord
    arena: Arena
    names: dict[str, str]
    """Each player's name as shown when they last joined (by public id)."""
    rooms: dict[int, str]
    """The code of each running table, by the arena's table number."""
    series: str
    """The id of the first arena of its series (its own, if it recurs not)."""
    creator_name: str
    members: dict[str, Member] = field(default_factory=dict)
    away: set[str] = field(default_factory=set)
    """Players paused because their connection went (not by their own choice)."""
    watchers: dict[Viewer, None] = field(default_factory=dict)
    pushed_at: float = -math.inf
    push: Timer | None = None
    dirty: bool = False
    """Changed since it was last stored."""
    listed: ArenaEntry | None = None
    """What the lobby's list was last told of it (a push that changes it tells it again)."""
    over_since: float | None = None
    """When this process saw it over (wall seconds): it is forgotten ``LISTED_AFTER_END``
    later, once its last standings went out."""

    @property
    def id(self) -> str:
        return self.record.id

    def state(self, now: float) -> State:
        """Where the arena stands at wall time ``now``."""
        if self.arena.over(now):
            return "over"
        return "running" if now >= self.arena.settings.start else "upcoming"

    def stored(self, now: float) -> ArenaRecord:
        """The record to write: its status, players and whole state now."""
        state = _Stored(msgspec.Raw(self.arena.dump()), self.names, self.rooms, self.series,
                        self.creator_name)
        return replace(self.record, status=ArenaStatus(self.state(now)),
                       players=len(self.arena.players), state=_LINE.encode(state).decode())


def hosted_from(record: ArenaRecord) -> Hosted:
    """The arena of a stored record (its ``state`` read), ready to host; ``ArenaError`` if the
    state is not one."""
    if record.state is None:
        raise ArenaError(f"arena {record.id} was read without its state")
    try:
        stored = msgspec.json.decode(record.state, type=_Stored)
    except (msgspec.ValidationError, msgspec.DecodeError) as error:
        raise ArenaError(f"arena {record.id} is not stored as an arena: {error}") from None
    return Hosted(record, Arena.load(bytes(stored.arena)), dict(stored.names),
                  dict(stored.rooms), stored.series, stored.creator_name)


def new_arena(arena_id: str, game: str, seats: int, *, start: float, minutes: float,
              rated: bool, private: bool, title: str, rest: float, creator: str = "",
              creator_name: str = "", every: int = 0) -> Hosted:
    """A new arena, not yet stored (``creator`` "": an operator's); ``ArenaError`` for one
    that cannot be (seats the game has not, no duration).

    >>> new_arena("K7M2QXAB", "schnelllauf", 2, start=0.0, minutes=30, rated=False,
    ...           private=False, title="Abend", rest=8.0).arena.settings.end
    1800.0
    """
    settings = Settings(game, seats, start=start, duration=minutes * 60.0, rated=rated,
                        rest=rest)
    record = ArenaRecord(arena_id, game, title, seats, rated, creator, private, settings.start,
                         settings.end, every, ArenaStatus.UPCOMING, 0)
    return Hosted(record, Arena(settings), {}, {}, arena_id, creator_name or "zackzack")


def series_id(series: str, start: float, private: bool) -> str:
    """The id of the arena of ``series`` that starts at ``start``: the same in every process,
    so that the next one is added once.

    >>> series_id("K7M2QXAB", 3600.0, False) == series_id("K7M2QXAB", 3600.0, False)
    True
    """
    from zackzack.server.lobby import CODE_LETTERS  # (lobby imports this module)

    digest = hashlib.sha256(f"{series}@{start:.0f}".encode()).digest()
    length = PRIVATE_ID_LENGTH if private else ID_LENGTH
    return "".join(CODE_LETTERS[byte % len(CODE_LETTERS)] for byte in digest[:length])


class Hall:
    """The arenas this process hosts; every message about arenas comes here."""

    def __init__(self, lobby: Lobby) -> None:
        self.lobby = lobby
        self.hosted: dict[str, Hosted] = {}
        self.tables: dict[str, tuple[Hosted, int]] = {}
        """The arena and table number of each arena table's code."""
        self.rest = lobby.timing.arena_rest
        cluster = lobby.cluster
        self.host = "" if cluster is None else cluster.node
        """Who writes the arenas hosted here (``Store.host_arena``): this process's node."""
        self._timer: Timer | None = None
        self._loaded_at = -math.inf
        self._started = False
        self._elsewhere: list[ArenaRecord] = []
        self._elsewhere_at = -math.inf

    def wall(self) -> float:
        """The store's wall clock, in seconds."""
        return self.lobby.store.wall()

    # Reading -------------------------------------------------------------------------------

    def entries(self) -> list[ArenaEntry]:
        """The public arenas to come, running, or over in the last ``LISTED_AFTER_END``: the
        ones hosted here and (in a cluster) the ones the store knows elsewhere."""
        now = self.wall()
        found = {h.id: self._entry(h, now) for h in self.hosted.values()
                 if not h.record.private}
        if self.lobby.cluster is not None:
            for record in self._listed_elsewhere():
                found.setdefault(record.id, _entry_of(record))
        return sorted(found.values(), key=lambda e: (e.state == "over", e.start, e.id))

    def _listed_elsewhere(self) -> list[ArenaRecord]:
        """The public arenas the store has (read at most every ``PAIR_EVERY``), but for the
        ones hosted here."""
        now = self.lobby.clock.time()
        if now - self._elsewhere_at >= PAIR_EVERY:
            try:
                self._elsewhere = self.lobby.store.arenas(
                    over_since=self.wall() - LISTED_AFTER_END)
                self._elsewhere_at = now
            except DBAPIError:
                pass  # the last list stands until the store answers again
        return [r for r in self._elsewhere if not r.private and r.id not in self.hosted]

    def _entry(self, hosted: Hosted, now: float) -> ArenaEntry:
        settings = hosted.arena.settings
        return ArenaEntry(id=hosted.id, game=settings.game, title=hosted.record.title,
                          seats=settings.seats, rated=settings.rated, state=hosted.state(now),
                          start=_ms(settings.start), end=_ms(settings.end),
                          players=len(hosted.arena.players))

    def info(self, arena_id: str) -> ArenaInfo | None:
        """Arena ``arena_id`` with its standings (hosted here, or as last stored)."""
        hosted = self.hosted.get(arena_id)
        if hosted is None:
            record = self.lobby.store.arena(arena_id)
            if record is None:
                return None
            hosted = hosted_from(record)
        return self._info(hosted, self.wall())[0]

    def ended(self, arena_id: str) -> bool:
        """Whether the store has arena ``arena_id`` as over (shown as stored, not hosted)."""
        record = self.lobby.store.arena(arena_id.upper())
        return record is not None and record.status is ArenaStatus.OVER

    def ended_text(self, arena_id: str) -> str:
        """The ``arena`` message of arena ``arena_id`` as stored (it is over: nothing more
        will change), or ``no_such_arena``."""
        if arena_id.upper() in self.hosted:
            raise ProtocolError("no_such_arena", f"arena {arena_id!r} is hosted here")
        record = self.lobby.store.arena(arena_id.upper())
        if record is None:
            raise ProtocolError("no_such_arena", f"there is no arena {arena_id!r}")
        info, _standings = self._info(hosted_from(record), self.wall())
        return encode(ArenaState(now=_ms(self.wall()), arena=info))

    def _info(self, hosted: Hosted, now: float) -> tuple[ArenaInfo, dict[str, Standing]]:
        """The arena with its first ``STANDINGS_SHOWN`` lines, and every player's standing."""
        entry = self._entry(hosted, now)
        standings = hosted.arena.standings()
        info = ArenaInfo(id=entry.id, game=entry.game, title=entry.title, seats=entry.seats,
                         rated=entry.rated, state=entry.state, start=entry.start,
                         end=entry.end, players=entry.players, private=hosted.record.private,
                         creator=hosted.creator_name, link=f"/arenas/{hosted.id}",
                         standings=[_line(hosted, s) for s in standings[:STANDINGS_SHOWN]])
        return info, {standing.name: standing for standing in standings}

    # Messages ------------------------------------------------------------------------------

    def create(self, viewer: Viewer, request: ArenaCreate) -> Hosted:
        """A new arena as ``request`` says, made by ``viewer``'s player (not joined)."""
        player = viewer.player
        if GAMES.get(request.game) is None:
            raise ProtocolError("no_such_game", f"there is no game {request.game!r}; choose "
                                f"one of {', '.join(GAMES)}")
        if request.rated:
            rated_check(player, self.lobby.store)
        mine = sum(h.record.creator == player.id and h.state(self.wall()) != "over"
                   for h in self.hosted.values())
        if mine >= ARENAS_PER_PLAYER:
            raise ProtocolError("too_many_arenas", f"you made {mine} arenas that are still to "
                                "come or running; wait for one to end")
        info = GAMES[request.game].INFO
        title = clean_text(request.title or "", TITLE_CHARS, "title") \
            or f"{info.title} · Arena"
        hosted = self.add(request.game, request.seats, start=self.wall() + request.start_in,
                          minutes=request.minutes, rated=request.rated,
                          private=request.private, title=title, creator=player.id,
                          creator_name=player.name)
        event("arena_created", arena=hosted.id, game=request.game, creator=player.id,
              minutes=request.minutes, rated=request.rated, private=request.private)
        return hosted

    def add(self, game: str, seats: int, *, start: float, minutes: float, rated: bool,
            private: bool, title: str, creator: str = "", creator_name: str = "",
            every: int = 0, arena_id: str | None = None) -> Hosted:
        """Make an arena and store it (``arena_id``: a series' next, stored once); hosted here
        unless it was there already. ``bad_options`` for seats the game does not have."""
        series = arena_id is not None
        try:
            Settings(game, seats, start=start, duration=minutes * 60.0)
        except ArenaError as error:
            raise ProtocolError("bad_options", str(error)) from None
        arena_id = arena_id or self._new_id(private)
        hosted = new_arena(arena_id, game, seats, start=start, minutes=minutes, rated=rated,
                           private=private, title=title, rest=self.rest, creator=creator,
                           creator_name=creator_name, every=every)
        try:
            added = self.lobby.store.add_arena(hosted.stored(self.wall()),
                                               "" if series else self.host)
        except Exception:
            if not series and self.lobby.cluster is not None:
                self.lobby.cluster.release(arena_id)  # its code goes back
            raise
        if not added:
            return self.hosted.get(arena_id) or hosted
        if self.lobby.cluster is None or not series:
            self._host(hosted)  # (a series' next, in a cluster: whoever claims it first)
        return hosted

    def _new_id(self, private: bool) -> str:
        """A new arena's id: in a cluster a table code this process holds already (the
        arena's key is its lease), else one that no arena or table here has."""
        from zackzack.server.lobby import new_code  # (lobby imports this module)

        if self.lobby.cluster is not None:
            return self.lobby.cluster.take_code(private)
        length = PRIVATE_ID_LENGTH if private else ID_LENGTH
        found = new_code(length)
        while found in self.hosted or found in self.lobby.rooms:
            found = new_code(length)
        return found

    def find(self, arena_id: str) -> Hosted:
        """The hosted arena ``arena_id`` (any case), or ``no_such_arena`` (``arena_over``
        for one that is over and no longer hosted)."""
        hosted = self.hosted.get(arena_id.upper())
        if hosted is None:
            if self.ended(arena_id):
                raise ProtocolError("arena_over", "the arena is over")
            raise ProtocolError("no_such_arena", f"there is no arena {arena_id!r}")
        return hosted

    def watch(self, viewer: Viewer, arena_id: str) -> Hosted:
        """Send ``viewer`` the arena now and after every change; a member who was away is
        back."""
        hosted = self.find(arena_id)
        player = viewer.player.id
        if player in hosted.away and player in hosted.names:
            hosted.away.discard(player)
            hosted.members[player] = viewer  # type: ignore[assignment]
            self._resume(hosted, player)
        elif player in hosted.members and hosted.arena.player(player).status is Status.ACTIVE:
            hosted.members[player] = viewer  # type: ignore[assignment]  # the newest one plays
        hosted.watchers[viewer] = None
        viewer.send(self._text(hosted, viewer))
        return hosted

    def join(self, viewer: Member, arena_id: str) -> Hosted:
        """``viewer``'s player plays in the arena from now on (again, after a pause); the
        caller shows it them (``watch``)."""
        hosted = self.find(arena_id)
        player, now = viewer.player, self.wall()
        if hosted.arena.over(now) or now >= hosted.arena.settings.end:
            raise ProtocolError("arena_over", "the arena is over")
        if hosted.arena.settings.rated:
            rated_check(player, self.lobby.store)
        known = player.id in hosted.names
        if known and hosted.arena.player(player.id).status is Status.WITHDRAWN:
            raise ProtocolError("arena_withdrawn", "you withdrew from this arena")
        if self.lobby.playing(player) and player.id not in self._seated(hosted):
            raise ProtocolError("playing_elsewhere", "you are playing a match: finish it "
                                "first (the arena would seat you at another table)")
        if any(other is not hosted and player.id in other.names
               and other.arena.player(player.id).status is Status.ACTIVE
               and not other.arena.over(now) for other in self.hosted.values()):
            raise ProtocolError("playing_elsewhere", "you play in another arena: pause or "
                                "withdraw there first")
        rating = self.lobby.ratings.shown(player.id, hosted.arena.settings.game)[0]
        hosted.arena.join(player.id, rating, now)
        hosted.names[player.id] = player.name
        hosted.away.discard(player.id)
        hosted.members[player.id] = viewer
        event("arena_joined", arena=hosted.id, player=player.id, rating=rating)
        self._changed(hosted)
        return hosted

    def _seated(self, hosted: Hosted) -> set[str]:
        """The players ``hosted`` has at its running tables."""
        return {name for table in hosted.arena.tables for name in table.players}

    def pause(self, viewer: Viewer, arena_id: str) -> None:
        """``viewer``'s player is paired no more until they join again."""
        hosted = self.find(arena_id)
        self._check_member(hosted, viewer)
        hosted.arena.pause(viewer.player.id)
        hosted.away.discard(viewer.player.id)
        self._changed(hosted)

    def withdraw(self, viewer: Viewer, arena_id: str) -> None:
        """``viewer``'s player leaves the arena for good."""
        hosted = self.find(arena_id)
        self._check_member(hosted, viewer)
        hosted.arena.withdraw(viewer.player.id)
        hosted.away.discard(viewer.player.id)
        hosted.members.pop(viewer.player.id, None)
        self._changed(hosted)

    def _check_member(self, hosted: Hosted, viewer: Viewer) -> None:
        if viewer.player.id not in hosted.names:
            raise ProtocolError("not_in_arena", "you have not joined this arena")
        if hosted.arena.player(viewer.player.id).status is Status.WITHDRAWN:
            raise ProtocolError("arena_withdrawn", "you withdrew from this arena")

    def unwatch(self, viewer: Viewer) -> None:
        """``viewer`` shows something else: no more standings (it stays a member)."""
        for hosted in self.hosted.values():
            hosted.watchers.pop(viewer, None)

    def showing(self, viewer: Viewer, room: Room) -> None:
        """``viewer`` shows ``room``: if it is the arena table of its player, who was away,
        they are back (a reload, a new connection)."""
        found = self.tables.get(room.code)
        if found is None:
            return
        hosted, _number = found
        player = viewer.player.id
        if player in hosted.away and room.seat_of(viewer.player) is not None:
            hosted.away.discard(player)
            hosted.members[player] = viewer  # type: ignore[assignment]
            self._resume(hosted, player)

    def gone(self, viewer: Viewer) -> None:
        """``viewer``'s connection closed: it watches nothing, and its player, if it played
        for them, is paused until they come back."""
        for hosted in self.hosted.values():
            hosted.watchers.pop(viewer, None)
            player = viewer.player.id
            if hosted.members.get(player) is viewer:
                del hosted.members[player]
                if hosted.arena.player(player).status is Status.ACTIVE \
                        and not hosted.arena.over(self.wall()):
                    hosted.arena.pause(player)
                    hosted.away.add(player)
                    self._changed(hosted)

    def _resume(self, hosted: Hosted, player: str) -> None:
        if hosted.arena.player(player).status is Status.PAUSED \
                and not hosted.arena.over(self.wall()):
            hosted.arena.resume(player, self.wall())
            self._changed(hosted)

    # Hosting -------------------------------------------------------------------------------

    def start(self) -> None:
        """Host the arenas the store has that are to come or running (after a restart), and
        look for new ones every ``LOAD_EVERY`` from now on (an operator's); in a cluster
        they are claimed one by one instead (``Cluster.locate_arena``)."""
        self._started = True
        self._load()
        self._tick_later()

    def _load(self) -> None:
        self._loaded_at = self.lobby.clock.time()
        if self.lobby.cluster is not None:
            return
        try:
            records = self.lobby.store.arenas(over_since=math.inf)
        except DBAPIError as error:
            event("arenas_not_loaded", logging.WARNING, reason=str(error.orig)[:200])
            return
        for record in records:
            if record.id not in self.hosted:
                try:
                    self.take(record.id)
                except DBAPIError as error:  # looked for again at the next load
                    event("arenas_not_loaded", logging.WARNING, reason=str(error.orig)[:200])
                    return

    def take(self, arena_id: str) -> Hosted | None:
        """Host arena ``arena_id`` as stored: everyone in it who plays is away until they
        come back (their connections were to the process that hosted it)."""
        record = self.lobby.store.host_arena(arena_id, self.host)
        if record is None:
            return None
        try:
            hosted = hosted_from(record)
        except ArenaError as error:
            event("arena_not_loaded", logging.ERROR, arena=arena_id, reason=str(error))
            return None
        now = self.wall()
        hosted.arena.settings = replace(hosted.arena.settings, rest=self.rest)
        for player in hosted.arena.players:
            if player.status is Status.ACTIVE and not hosted.arena.over(now):
                hosted.arena.pause(player.name)
                hosted.away.add(player.name)
        self._host(hosted)
        event("arena_hosted", arena=arena_id, players=len(hosted.arena.players))
        return hosted

    def _host(self, hosted: Hosted) -> None:
        self.hosted[hosted.id] = hosted
        for number, code in hosted.rooms.items():
            self.tables[code] = (hosted, number)
        self.lobby.others_changed()
        self._tick_later()

    def stop(self) -> None:
        """The process stops: no more pairing (the store has every arena)."""
        self._started = False
        for hosted in list(self.hosted.values()):
            self._save(hosted)
            if hosted.push is not None:
                hosted.push.cancel()
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    def release(self, arena_id: str, lost: bool = False) -> None:
        """Forget ``arena_id`` here: it is long over, or (``lost``) another process hosts it
        now. Its watchers and members here hear no more of it."""
        hosted = self.hosted.pop(arena_id, None)
        if hosted is None:
            return
        for code in hosted.rooms.values():
            self.tables.pop(code, None)
        if hosted.push is not None:
            hosted.push.cancel()
        cluster = self.lobby.cluster
        if cluster is not None and not lost:
            cluster.release(arena_id)
        if lost:
            event("arena_lost", logging.WARNING, arena=arena_id)
            for viewer in list(hosted.watchers):
                viewer.relocate(arena_id, None)

    def _tick_later(self) -> None:
        if self._timer is None and (self.hosted or self._started):
            clock = self.lobby.clock
            self._timer = clock.call_at(clock.time() + PAIR_EVERY, self._tick)

    def _tick(self) -> None:
        """Every ``PAIR_EVERY`` seconds: score the tables that ended, pair those who wait,
        store what changed, and forget arenas long over."""
        self._timer = None
        try:
            if self.lobby.journal.behind:
                return  # the store does not answer: no table could start or be scored
            now = self.wall()
            if self.lobby.clock.time() - self._loaded_at >= LOAD_EVERY:
                self._load()
            for hosted in list(self.hosted.values()):
                try:
                    self._run(hosted, now)
                except Exception:  # one arena's failure must not stop the others
                    log.exception("arena %s failed", hosted.id)
                if hosted.over_since is not None and not hosted.dirty \
                        and now - hosted.over_since >= LISTED_AFTER_END and hosted.push is None:
                    self.release(hosted.id)
                    self.lobby.others_changed()
        finally:
            self._tick_later()

    def _run(self, hosted: Hosted, now: float) -> None:
        if not self._save(hosted):
            return  # another process hosts it now: no pairing here
        was = hosted.record.status
        self._score(hosted, now)
        for table in hosted.arena.pair(now):
            self._seat(hosted, table, now)
            self._changed(hosted)
        status = ArenaStatus(hosted.state(now))
        if status is ArenaStatus.OVER and hosted.over_since is None:
            hosted.over_since = now
        if status is not was:
            hosted.record = replace(hosted.record, status=status)
            event("arena_" + status.value, arena=hosted.id, players=len(hosted.arena.players))
            if was is ArenaStatus.UPCOMING and hosted.record.every:
                self._next_of(hosted)
            self._changed(hosted)
            self.lobby.others_changed()
        if hosted.dirty:
            self._save(hosted)

    def _score(self, hosted: Hosted, now: float) -> None:
        """Score every table of ``hosted`` whose match is stored as ended."""
        asked = {}
        for table in hosted.arena.tables:
            code = hosted.rooms.get(table.number)
            room = None if code is None else self.lobby.rooms.get(code)
            if room is not None and not room.released and not room.closed \
                    and room.phase is not Phase.OVER:
                continue  # playing here: nothing to ask the store yet
            if table.match:
                asked[table.match] = table
            elif room is None:
                hosted.arena.void(table.number, now)  # never started (the store was away)
                self._forget(hosted, table.number)
        if not asked:
            return
        try:
            ended = self.lobby.store.ended(asked)
        except DBAPIError:
            return  # asked again at the next tick
        for match_id, placed in ended.items():
            table = asked[match_id]
            try:
                results = hosted.arena.finished(table.number, placed or (), now)
            except ArenaError as error:  # abandoned by everyone, or a result it cannot score
                hosted.arena.void(table.number, now)
                event("arena_void", arena=hosted.id, table=table.number, match=match_id,
                      reason=str(error)[:200] if placed is not None else "abandoned")
            else:
                event("arena_scored", arena=hosted.id, table=table.number, match=match_id,
                      points=[r.points for r in results])
            self._forget(hosted, table.number)
            self._changed(hosted)

    def _forget(self, hosted: Hosted, number: int) -> None:
        code = hosted.rooms.pop(number, None)
        if code is not None:
            self.tables.pop(code, None)

    def _seat(self, hosted: Hosted, table: Table, now: float) -> None:
        """Open ``table``'s room, move its players there and start it; a table that cannot
        start is void (its players wait again)."""
        members = [hosted.members.get(name) for name in table.players]
        busy = [name for name, member in zip(table.players, members, strict=True)
                if member is not None and self.lobby.playing(member.player)]
        for name in busy:  # at a match elsewhere (they chose it): back when they come back
            hosted.arena.pause(name)
            hosted.away.add(name)
        if busy or any(member is None for member in members):
            hosted.arena.void(table.number, now)  # the others wait again
            return
        present = [member for member in members if member is not None]
        settings = hosted.arena.settings
        rules = GAMES[settings.game]
        options = rules.parse_options({"players": settings.seats} if len(present) ==
                                      settings.seats else {"players": len(present)})
        seats = [Seat(SeatKind.HUMAN, member.player, ready=True) for member in present]
        names = " – ".join(member.player.name for member in present)
        title = f"{hosted.record.title} · {names}"
        if len(title) > TITLE_CHARS:
            title = title[:TITLE_CHARS - 1] + "…"
        first = present[0]
        room = self.lobby._open(settings.game, options, seats, first.player, title,
                                private=hosted.record.private, rated=settings.rated)
        hosted.rooms[table.number] = room.code
        self.tables[room.code] = (hosted, table.number)
        try:
            for member in present:
                self.lobby.end_tutorial(member.player)
                member.arena_seated(room, hosted.id)
            room.start(first)
        except Exception as error:  # the store is away: nobody was told a result
            event("arena_table_not_started", logging.WARNING, arena=hosted.id,
                  code=room.code, reason=str(error)[:200])
            self.lobby.close(room)
            hosted.arena.void(table.number, now)
            self._forget(hosted, table.number)
            return
        hosted.arena.opened(table.number, room.match_id or "")
        event("arena_paired", arena=hosted.id, table=table.number, code=room.code,
              players=list(table.players))

    def _next_of(self, hosted: Hosted) -> None:
        """A recurring arena started: its series' next is stored (once in a cluster)."""
        record, settings = hosted.record, hosted.arena.settings
        start = settings.start + record.every
        try:
            self.add(settings.game, settings.seats, start=start,
                     minutes=settings.duration / 60.0, rated=settings.rated,
                     private=record.private, title=record.title, creator=record.creator,
                     creator_name=hosted.creator_name, every=record.every,
                     arena_id=series_id(hosted.series, start, record.private))
        except DBAPIError as error:
            event("arena_next_not_stored", logging.WARNING, arena=hosted.id,
                  reason=str(error.orig)[:200])

    # Telling -------------------------------------------------------------------------------

    def _changed(self, hosted: Hosted) -> None:
        """``hosted`` changed: store it (now, or at the next tick if the store is away) and
        send the standings soon."""
        hosted.dirty = True
        clock = self.lobby.clock
        if hosted.push is None:
            at = max(clock.time(), hosted.pushed_at + PUSH_EVERY)
            hosted.push = clock.call_at(at, lambda: self._push(hosted))

    def _save(self, hosted: Hosted) -> bool:
        """Store ``hosted`` if it changed; whether it is still this process's (a write that
        finds another process hosting it forgets it here)."""
        if not hosted.dirty:
            return True
        try:
            written = self.lobby.store.save_arena(hosted.stored(self.wall()), self.host)
        except DBAPIError as error:
            event("arena_not_stored", logging.WARNING, arena=hosted.id,
                  reason=str(error.orig)[:200])
            return True  # (tried again at the next tick)
        hosted.dirty = False
        if not written:  # another process took it over (this one lost its lease meanwhile)
            self.release(hosted.id, lost=True)
        return written

    def _push(self, hosted: Hosted) -> None:
        hosted.push = None
        hosted.pushed_at = self.lobby.clock.time()
        entry = None if hosted.record.private else self._entry(hosted, self.wall())
        if entry != hosted.listed:
            hosted.listed = entry
            self.lobby.others_changed()
        if hosted.watchers:
            text, standings = self._shown(hosted)
            for viewer in list(hosted.watchers):
                viewer.send(_for(text, viewer, hosted, standings))

    def _text(self, hosted: Hosted, viewer: Viewer) -> str:
        text, standings = self._shown(hosted)
        return _for(text, viewer, hosted, standings)

    def _shown(self, hosted: Hosted) -> tuple[str, dict[str, Standing]]:
        """The ``arena`` message for nobody, once for every watcher, and each standing."""
        now = self.wall()
        info, standings = self._info(hosted, now)
        return encode(ArenaState(now=_ms(now), arena=info)), standings


def _line(hosted: Hosted, standing: Standing) -> ArenaLine:
    """``standing`` as a line of the standings."""
    table = hosted.arena.player(standing.name).table
    return ArenaLine(rank=standing.rank, player=standing.name,
                     name=hosted.names.get(standing.name, "?"), rating=standing.rating,
                     score=standing.score, performance=standing.performance,
                     on_fire=standing.on_fire, status=standing.status.value,
                     playing=None if table is None else hosted.rooms.get(table),
                     games=[ArenaGame(r.place, r.seats, r.points, r.win, r.doubled,
                                      r.match or None) for r in standing.results])


_NOBODY = '"you":null,"mine":null}}'
"""How an ``arena`` message ends for a reader who did not join (``you`` and ``mine`` are the
last fields of the last field): one text is encoded for every watcher, and each member's
differs only in its end."""
_LINE = msgspec.json.Encoder()


def _for(text: str, viewer: Viewer, hosted: Hosted, standings: dict[str, Standing]) -> str:
    """``text`` (an ``arena`` message for nobody) for ``viewer``: ``you`` is their player id
    and ``mine`` their line, if they joined."""
    standing = standings.get(viewer.player.id)
    if standing is None:
        return text
    assert text.endswith(_NOBODY)
    you, mine = _LINE.encode(standing.name).decode(), \
        _LINE.encode(_line(hosted, standing)).decode()
    return f'{text[:-len(_NOBODY)]}"you":{you},"mine":{mine}}}}}'


def _entry_of(record: ArenaRecord) -> ArenaEntry:
    """What a list shows of an arena hosted elsewhere, as last stored."""
    return ArenaEntry(id=record.id, game=record.game, title=record.title, seats=record.seats,
                      rated=record.rated, state=record.status.value, start=_ms(record.start_at),
                      end=_ms(record.end_at), players=record.players)


def _ms(seconds: float) -> int:
    return round(seconds * 1000)
