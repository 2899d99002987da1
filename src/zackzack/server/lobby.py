"""The lobby: every live room by its code, the list of public tables, rematches and clean-up.

The list is encoded once per change (at most every ``Timing.lobby_every``) and the same text
goes to every reader; a reader is sent a version of it once. It is also the door for new
players: each address may make only so many (``Limits.new_players_burst``/``_rate``).
"""

from __future__ import annotations

import logging
import math
import secrets
from collections.abc import Callable, Collection, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

import msgspec

from zackzack.engine.clock import Clock, Timer
from zackzack.engine.race import REACTION_MS
from zackzack.engine.replay import restore
from zackzack.engine.table import LIVE, Phase, Settings, Table
from zackzack.games import GAMES
from zackzack.games.errors import OptionsError
from zackzack.ratings import rated_options_problem
from zackzack.server import tutorial
from zackzack.server.arenas import Hall
from zackzack.server.identity import Player
from zackzack.server.journal import Journal
from zackzack.server.limits import AddressBuckets, Limits, client_key
from zackzack.server.logs import event
from zackzack.server.matchmaking import Matchmaker
from zackzack.server.protocol import (
    TITLE_CHARS,
    Create,
    LobbyList,
    ProtocolError,
    RematchOffer,
    TableRef,
    clean_text,
    encode,
)
from zackzack.server.ratingbook import RatingBook
from zackzack.server.room import (
    RECONNECT_GRACE,
    BotMaker,
    Room,
    Seat,
    SeatKind,
    Viewer,
    rated_check,
)
from zackzack.server.standins import STALL_STAND_IN, STALL_WARNING
from zackzack.store import Status, Store

if TYPE_CHECKING:
    from zackzack.server.cluster import Cluster, NodeState, WaitingSeat
    from zackzack.server.sharedlimits import SharedLimits

log = logging.getLogger(__name__)

CODE_LETTERS = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 6
"""A public table's code: short enough to type (it is listed in the lobby anyway)."""
PRIVATE_CODE_LENGTH = 12
"""A private table's code: only its link lets anyone in (31¹² ≈ 8·10¹⁷ codes to guess from)."""


@dataclass(frozen=True, slots=True)
class Timing:
    """How long the lobby waits before it tidies up (seconds)."""

    lobby_every: float = 0.1
    """The lobby list goes out at most this often."""
    idle: float = 600.0
    """A room nobody has looked at for this long is closed (a running match is abandoned)."""
    idle_waiting: float = 60.0
    """A table still waiting for its players that nobody has looked at for this long (its
    creator left, and nobody else is there) is closed."""
    over: float = 1800.0
    """A finished room closes this long after the end, even with people looking."""
    reconnect_grace: float = RECONNECT_GRACE
    """A person whose connection to a table dropped counts as there this long (a reload
    changes nothing for the others); then a table with nobody else of its people pauses and
    leaves the list (``Room.deserted``)."""
    sweep_every: float = 30.0
    """How often the lobby looks for rooms to close."""
    reaction_ms: int = REACTION_MS
    """The reaction window a card's ``seen`` is judged by (``docs/fairness.md``)."""
    stall_warning: float = STALL_WARNING
    """A round that stands still this long while it waits on a present person who could act
    warns them (``docs/rules.md``, *A round always ends*)."""
    stall_stand_in: float = STALL_STAND_IN
    """This long after the warning a stand-in plays their seat, until they act again."""
    arena_rest: float = 8.0
    """In an arena, a player sees their last result this long before they are paired again
    (``server/arenas.py``)."""


def new_code(length: int = CODE_LENGTH) -> str:
    """A table code: letters and digits that cannot be mistaken for each other."""
    return "".join(secrets.choice(CODE_LETTERS) for _ in range(length))


class Lobby:
    """All live rooms; connections that look at the lobby get its list after every change."""

    def __init__(self, *, clock: Clock, store: Store, bots: BotMaker,
                 settings: Settings = LIVE, timing: Timing = Timing(),
                 limits: Limits = Limits(), cluster: Cluster | None = None) -> None:
        self.clock, self.store, self.bots = clock, store, bots
        self.settings, self.timing, self.limits = settings, timing, limits
        self.cluster = cluster
        """The other processes' tables and this one's leases (``server/cluster.py``), if any."""
        self.journal = Journal(store, clock)
        self.journal.fencing = cluster is not None
        self.journal.on_fenced = self._fenced
        self.journal.on_behind = self._store_behind
        self.on_store: Callable[[bool], object] = lambda _behind: None
        """Hears whether the store is behind (the app tells everyone): after the rooms
        paused, before they go on."""
        self.players: Callable[[str], Player | None] = lambda _id: None
        """Finds a seated person by public id (for restoring a match)."""
        self.online: Callable[[], int] = lambda: 0
        """How many people are connected to this process."""
        self.online_players: Callable[[], Collection[str]] = lambda: ()
        """The public ids of the people connected to this process."""
        self.marks: Callable[[Player, str], frozenset[str]] = lambda _player, _address: \
            frozenset()
        """The devices and addresses a player was seen on lately, the address they are on
        now among them (``Identities.marks``): the matchmaker pairs nobody who share one."""
        self.ratings = RatingBook(store)
        self.ratings.shared = cluster is not None
        """The people's ratings (every room reads and updates this one)."""
        if cluster is None:
            self.matchmaker: Matchmaker = Matchmaker(self)
        else:
            from zackzack.server.sharedqueue import SharedMatchmaker

            self.matchmaker = SharedMatchmaker(self, cluster)
        """The queues of people who want a rated game (``server/matchmaking.py``)."""
        self.rooms: dict[str, Room] = {}
        self.arenas = Hall(self)
        """The arenas this process hosts (``server/arenas.py``)."""
        self.subscribers: dict[Viewer, int] = {}
        """Who gets the list, with the version of it each was sent last."""
        self.newcomers = AddressBuckets(limits.new_players_rate, limits.new_players_burst,
                                        clock.time)
        """New players made per address, for ``Limits.new_players_burst``/``_rate``."""
        self.shared_limits: SharedLimits | None = None
        """In a cluster: the limits counted for the whole cluster (``server/sharedlimits.py``;
        the app sets them)."""
        self._flush: Timer | None = None
        self._text: str | None = None
        """The list as last encoded (``None``: encode it afresh when it is next asked for)."""
        self._stale = False
        """The list changed since it was last encoded (the pending send encodes it anew)."""
        self._version = 0
        self._online = 0
        """How many people online the list last said (here)."""
        self._counting = False
        """The list shows arenas: a text older than a second is made afresh (its ``now``)."""
        self._encoded_at = -math.inf

    # The list ------------------------------------------------------------------------------

    def listing(self) -> LobbyList:
        """The public rooms, newest first; not the deserted ones (their people are gone);
        in a cluster the other processes' after this one's."""
        tables = [room.lobby_entry() for room in self._listed()]
        online = self._online = self.online()
        if self.cluster is not None:
            tables += self.cluster.listed()
            online = self.cluster.online(online)  # each person once, on however many processes
        arenas = self.arenas.entries()
        self._counting = bool(arenas)
        return LobbyList(tables=tables, online=online, arenas=arenas,
                         now=round(self.store.wall() * 1000))

    def _listed(self) -> list[Room]:
        return [room for room in reversed(self.rooms.values())
                if not room.private and not room.deserted]

    @property
    def version(self) -> int:
        """How many times the list was encoded: a new text, a new version."""
        return self._version

    def listing_text(self) -> str:
        """The list as JSON text, shared by every reader: encoded at most once per change
        (a change made in the last ``lobby_every`` shows once the pending send runs)."""
        if self._counting and self.clock.time() - self._encoded_at >= 1.0:
            self._text = None  # its ``now`` lets clients count down to the arenas
        if self._text is None:
            self._encoded_at = self.clock.time()
            self._text = encode(self.listing())
            self._stale = False
            self._version += 1
        return self._text

    def subscribe(self, viewer: Viewer) -> None:
        """Send ``viewer`` the list now (unless it has this version already) and after every
        change: asking again faster than the list changes gets nothing new."""
        text = self.listing_text()
        if self.subscribers.get(viewer) != self._version:
            self.subscribers[viewer] = self._version
            viewer.send(text)

    def snapshot(self, viewer: Viewer) -> str:
        """The list for ``viewer`` to be written now (its backlog was dropped)."""
        text = self.listing_text()
        if viewer in self.subscribers:
            self.subscribers[viewer] = self._version
        return text

    def unsubscribe(self, viewer: Viewer) -> None:
        """Stop sending ``viewer`` the list."""
        self.subscribers.pop(viewer, None)

    def _changed(self, room: Room) -> None:
        if self.cluster is not None and not room.tutorial:
            self.cluster.changed()
        if not room.private:
            self.others_changed()

    def recount(self) -> None:
        """Send the list again if the number of people online here changed."""
        if self.online() != self._online:
            self.others_changed()

    def others_changed(self) -> None:
        """The list changed (another process's tables, or how many are online): send it soon."""
        self._stale = True
        if self._flush is None:
            self._flush = self.clock.call_at(self.clock.time() + self.timing.lobby_every,
                                             self._send)

    def _send(self) -> None:
        self._flush = None
        if self._stale:
            self._text = None
        if self.subscribers:
            text = self.listing_text()
            for viewer, version in list(self.subscribers.items()):
                if version != self._version:
                    self.subscribers[viewer] = self._version
                    viewer.send(text)

    # New players ---------------------------------------------------------------------------

    def admit_new_player(self, address: str) -> None:
        """Count a new player made from ``address``, or refuse it (``too_many_new_players``)
        beyond ``Limits.new_players_burst``/``_rate``. An unknown address ("") is not
        limited."""
        if not address or self.limits.new_players_burst == 0:
            return
        key, shared = client_key(address), self.shared_limits
        wait = 0.0 if shared is None else shared.blocked(key)  # the cluster's, at its open
        if not wait and not self.newcomers.take(key):
            wait = self.newcomers.wait(key)
        if wait:
            raise ProtocolError("too_many_new_players", "too many new players from your "
                                f"address; say hello with your token, or try again in "
                                f"{math.ceil(wait)} s")
        if shared is not None:
            shared.count_later(key)

    # Rooms ---------------------------------------------------------------------------------

    def find(self, code: str) -> Room:
        """The live room with ``code`` (any case)."""
        room = self.rooms.get(code.upper())
        if room is None:
            raise ProtocolError("no_such_table", f"there is no live table {code!r}")
        return room

    def tables_of(self, player: Player) -> list[TableRef]:
        """The live rooms where ``player`` holds a seat."""
        here = [ref for room in self.rooms.values() if not room.tutorial
                for found, ref in room.refs() if found == player.id]
        return here + (self.cluster.seated(player.id) if self.cluster is not None else [])

    def playing(self, player: Player) -> bool:
        """Whether ``player`` holds a seat at a match that has started and is not over (a
        tutorial is no match: it is stored nowhere and ends when they go)."""
        return any(room.phase not in (Phase.WAITING, Phase.OVER) and not room.tutorial
                   and room.seat_of(player) is not None for room in self.rooms.values())

    def end_tutorial(self, player: Player) -> None:
        """Close ``player``'s tutorial, if one is open (a match found them meanwhile)."""
        for old in [r for r in self.rooms.values() if r.tutorial and r.creator is player]:
            self.close(old)

    def player_changed(self, player: Player) -> None:
        """``player``'s name (or account) changed: every table where they sit shows it."""
        for room in list(self.rooms.values()):
            if room.seat_of(player) is not None:
                room.changed()

    def subscribed(self, viewer: Viewer) -> bool:
        """Whether ``viewer`` gets the list."""
        return viewer in self.subscribers

    def _check_quota(self, player: Player) -> None:
        mine = sum(room.creator is player and room.phase is not Phase.OVER and not room.tutorial
                   for room in self.rooms.values())
        if mine >= self.limits.tables_per_player:
            raise ProtocolError("too_many_tables", f"you have {mine} unfinished tables; finish "
                                "or leave one first")

    def create(self, viewer: Viewer, request: Create) -> Room:
        """A new room as ``request`` says; ``viewer`` takes its first open seat and looks at it."""
        if request.tutorial:
            return self.tutorial(viewer, request.game)
        self._check_quota(viewer.player)
        rules = GAMES.get(request.game)
        if rules is None:
            raise ProtocolError("no_such_game", f"there is no game {request.game!r}; choose one"
                                f" of {', '.join(GAMES)}")
        try:
            default = rules.parse_options({}).players
            count = len(request.seats) if request.seats is not None else default
            if request.options.get("players", count) != count:
                raise OptionsError(f"players is {request.options['players']!r}, but there "
                                   f"are {count} seats")
            options = rules.parse_options({**request.options, "players": count})
        except OptionsError as error:
            raise ProtocolError("bad_options", str(error)) from None
        seats = []
        for i, spec in enumerate(request.seats or [None] * count):
            if spec is None or spec.kind == "open":
                if spec is not None and spec.bot is not None:
                    raise ProtocolError("bad_field", f"seats[{i}]: an open seat has no bot")
                seats.append(Seat())
            else:
                if spec.bot is None:
                    raise ProtocolError("bad_field", f"seats[{i}]: a bot seat needs a bot")
                seats.append(Seat(SeatKind.BOT, bot=self.check_bot(spec.bot, rules.INFO.name)))
        if request.rated:
            rated_check(viewer.player, self.store)
            if request.private:
                raise ProtocolError("rated_is_public", "a rated table is public: everyone "
                                    "may watch it (make it unrated to play in private)")
            problem = rated_options_problem(rules.INFO.name, rules.options_to_json(options))
            if any(seat.kind is SeatKind.BOT for seat in seats):
                problem = "a rated table seats people only: leave every seat open"
            elif not request.compensation:
                problem = "a rated table judges close races with lag compensation"
            if problem is not None:
                raise ProtocolError("bad_options", problem)
        title = clean_text(request.title or "", TITLE_CHARS, "a title")
        settings = self.settings if request.compensation else msgspec.structs.replace(self.settings,
                                                                          compensation_ms=0)
        room = self._open(rules.INFO.name, options, seats, viewer.player,
                          title or f"{rules.INFO.title} · {viewer.player.name}", request.private,
                          settings, rated=request.rated)
        if any(seat.kind is SeatKind.OPEN for seat in seats):
            room.join(viewer, None)
        else:
            room.attach(viewer)
        return room

    def check_bot(self, spec: str, game: str) -> str:
        """The canonical name of bot ``spec`` for ``game``."""
        try:
            return self.bots.check(spec, game)
        except ValueError as error:
            raise ProtocolError("bad_bot", str(error)) from None

    def _open(self, game: str, options: object, seats: list[Seat], creator: Player,
              title: str, private: bool, settings: Settings | None = None,
              rated: bool = False, code: str | None = None) -> Room:
        if code is not None:
            pass  # claimed already (the cluster's shared queue: ``server/sharedqueue.py``)
        elif self.cluster is not None:
            code = self.cluster.take_code(private)
        else:
            length = PRIVATE_CODE_LENGTH if private else CODE_LENGTH
            code = new_code(length)
            while code in self.rooms:
                code = new_code(length)
        room = self._room(code, game, options, seats, creator, title, private,
                          settings=settings, rated=rated)
        event("table_created", code=code, game=game, private=private, creator=creator.id,
              seats=[seat.kind.value for seat in seats], rated=rated)
        return room

    def _room(self, code: str, game: str, options: object, seats: list[Seat], creator: Player,
              title: str, private: bool, table: Table | None = None,
              settings: Settings | None = None, tutorial: bool = False,
              rated: bool = False) -> Room:
        room = Room(code=code, rules=GAMES[game], options=options, seats=seats, creator=creator,
                    title=title, private=private, clock=self.clock,
                    settings=settings or self.settings,
                    store=self.store, journal=self.journal, bots=self.bots,
                    on_change=self._changed, table=table,
                    reconnect_grace=self.timing.reconnect_grace, tutorial=tutorial,
                    stall_warning=self.timing.stall_warning,
                    stall_stand_in=self.timing.stall_stand_in,
                    rated=rated, ratings=self.ratings, reaction_ms=self.timing.reaction_ms,
                    limits=self.limits)
        self.rooms[code] = room
        self._changed(room)
        return room

    def tutorial(self, viewer: Viewer, game: str) -> Room:
        """``game``'s tutorial table (``server/tutorial.py``), started at once: ``viewer`` in
        seat 0, the tutor in seat 1. It is private (never listed), stored nowhere, and not
        counted among the player's tables; a player has one at a time (an older one closes)."""
        if game not in tutorial.games():
            raise ProtocolError("no_such_game", f"there is no tutorial of {game!r}; choose one"
                                f" of {', '.join(tutorial.games())}")
        self.end_tutorial(viewer.player)
        script = tutorial.load(game)
        table = Table(GAMES[game], script.options, clock=self.clock, first_round=script.deal,
                      settings=self.settings)
        seats = [Seat(SeatKind.HUMAN, viewer.player, ready=True),
                 Seat(SeatKind.BOT, bot=tutorial.TUTOR)]
        code = new_code(PRIVATE_CODE_LENGTH)
        while code in self.rooms:
            code = new_code(PRIVATE_CODE_LENGTH)
        room = self._room(code, game, script.options, seats, viewer.player, script.title, True,
                          table, tutorial=True)
        event("table_created", code=code, game=game, private=True, creator=viewer.player.id,
              seats=[seat.kind.value for seat in seats], tutorial=True)
        room.attach(viewer)
        room.start(viewer)
        return room

    def restore(self, player: Callable[[str], Player | None]) -> list[str]:
        """Rebuild every match the store has as playing (the server stopped or crashed):
        each table paused where its log ends, resumed when one of its people comes back.
        ``player`` finds a seated person by public id; returns the codes of the tables."""
        restored = (self._restore_or_abandon(match_id, player)
                    for match_id in self.store.playing().values())
        return [code for code in restored if code is not None]

    def _restore_or_abandon(self, match_id: str, player: Callable[[str], Player | None],
                            epoch: int = 0) -> str | None:
        """``_restore``, or, if its log is broken, the match stored as abandoned (one broken
        log must not keep the server from starting, nor a takeover from the rest)."""
        self.journal.own(match_id, epoch)
        try:
            return self._restore(match_id, player)
        except Exception:
            log.exception("restoring match %s failed; it is stored as abandoned", match_id)
            self.store.finish_match(match_id, Status.ABANDONED, 0, None,
                                    epoch=self.journal.epoch(match_id))
            self.journal.done(match_id)
            return None

    def _restore(self, match_id: str, player: Callable[[str], Player | None]) -> str:
        record = self.store.match(match_id, finished=False)
        match_log = self.store.log(match_id, finished=False)
        if record is None or match_log is None or record.code in self.rooms:
            raise ValueError(f"match {match_id} cannot be restored")
        seats = []
        for seat in record.seats:
            person = player(seat.player) if seat.player is not None else None
            if seat.player is not None and person is None:
                raise ValueError(f"match {match_id}: unknown player {seat.player}")
            seats.append(Seat(SeatKind.HUMAN, person, ready=True) if person is not None
                         else Seat(SeatKind.BOT, bot=seat.bot or "normal"))
        creator = next((s.player for s in seats if s.player is not None), Player("", ""))
        table = restore(match_log, self.clock)
        room = self._room(record.code, record.game, match_log.options, seats, creator,
                          record.title, record.private, table, rated=record.rated)
        room.restored(match_id, match_log, len(record.rounds))
        return room.code

    def rematch(self, viewer: Viewer, old: Room) -> Room:
        """The rematch of ``old`` (made on the first request): same seats, options, privacy."""
        if old.seat_of(viewer.player) is None:
            raise ProtocolError("not_seated", "only the players may ask for a rematch")
        if old.phase is not Phase.OVER:
            raise ProtocolError("not_over", "the match is not over yet")
        if old.tutorial:
            raise ProtocolError("no_rematch", "a tutorial has no rematch; start it again")
        room = self.rooms.get(old.rematch) if old.rematch is not None else None
        if room is None:
            self._check_quota(viewer.player)
            seats = [Seat(s.kind, s.player, s.bot) for s in old.seats]
            room = self._open(old.rules.INFO.name, old.options, seats, viewer.player, old.title,
                              old.private, old.table.settings, rated=old.rated)
            old.rematch = room.code
            offer = encode(RematchOffer(code=room.code, previous=old.code,
                                        by=viewer.player.name))
            for other in list(old.viewers):
                if other.player is not viewer.player:
                    other.send(offer)
            old.changed()
        room.join(viewer, None)
        return room

    def close(self, room: Room) -> None:
        """Close ``room`` and forget it."""
        room.close()
        event("table_closed", code=room.code, phase=room.phase.value)
        if self.rooms.get(room.code) is room:
            del self.rooms[room.code]
            if self.cluster is not None:
                self.cluster.release(room.code)
            self._changed(room)

    def sweep(self) -> list[str]:
        """Close rooms nobody has looked at for a while, and finished ones after a longer while."""
        now = self.clock.time()
        gone = [room for room in self.rooms.values()
                if (room.idle_since is not None and now - room.idle_since >= self.timing.idle)
                or (room.idle_since is not None and room.phase is Phase.WAITING
                    and now - room.idle_since >= self.timing.idle_waiting)
                or (room.over_since is not None and now - room.over_since >= self.timing.over)]
        for room in gone:
            self.close(room)
        self.newcomers.prune()
        return [room.code for room in gone]

    # The cluster -------------------------------------------------------------------------

    def state(self, node: str, url: str) -> NodeState:
        """What the other processes hear of this one (``server/cluster.py``)."""
        from zackzack.server.cluster import NodeState

        seated: dict[str, list[TableRef]] = {}
        for room in self.rooms.values():
            if not room.tutorial and not room.closed:
                for player, ref in room.refs():
                    seated.setdefault(player, []).append(ref)
        return NodeState(node=node, url=url, online=self.online(),
                         listed=[room.lobby_entry() for room in self._listed()], seated=seated)

    def holds(self, code: str) -> bool:
        """Whether the table ``code`` is live here."""
        return code in self.rooms

    def waiting(self, node: str) -> dict[str, bytes]:
        """The tables here that wait for their players (not tutorials), each as another
        process would make it again (``server/cluster.py``, ``WaitingTable``), by code."""
        from zackzack.server.cluster import WaitingSeat, WaitingTable

        return {code: msgspec.json.encode(WaitingTable(
            node=node, game=room.rules.INFO.name, options=room.options_json,
            seats=[WaitingSeat(seat.kind.value, seat.player.id if seat.player else None,
                               seat.bot, seat.ready) for seat in room.seats],
            creator=room.creator.id, title=room.title, private=room.private, rated=room.rated,
            compensation_ms=room.table.settings.compensation_ms))
            for code, room in self.rooms.items()
            if room.phase is Phase.WAITING and not room.tutorial and not room.closed}

    def revive(self, code: str, text: str) -> bool:
        """Make the waiting table ``code`` again from its description (its process is gone):
        the same seats, people and options; its people find it here when they come back."""
        from zackzack.server.cluster import WaitingTable

        if code in self.rooms:
            return True
        described = msgspec.json.decode(text, type=WaitingTable)
        rules = GAMES[described.game]
        options = rules.parse_options(described.options)
        seats = [self._seat(seat) for seat in described.seats]
        creator = self.players(described.creator) or next(
            (seat.player for seat in seats if seat.player is not None), None)
        if creator is None:
            return False  # nobody's table: nobody would come back to it
        settings = msgspec.structs.replace(self.settings,
                                           compensation_ms=described.compensation_ms)
        self._room(code, described.game, options, seats, creator, described.title,
                   described.private, settings=settings, rated=described.rated)
        event("table_recreated", code=code, node=described.node,
              seats=[seat.kind.value for seat in seats])
        return True

    def _seat(self, seat: WaitingSeat) -> Seat:
        """A waiting table's seat as its description has it (a person no longer known:
        open)."""
        if seat.kind == SeatKind.BOT.value and seat.bot is not None:
            return Seat(SeatKind.BOT, bot=seat.bot)
        person = self.players(seat.player) if seat.player is not None else None
        return Seat() if person is None else Seat(SeatKind.HUMAN, person, ready=seat.ready)

    def unfinished(self, code: str | None = None) -> dict[str, str]:
        """The matches the store has as playing (or table ``code``'s): match id by code."""
        return self.store.playing(code)

    def take_over(self, code: str, match_id: str) -> bool:
        """This process now owns table ``code``, whose owner is gone: take its match over
        (the old owner's writes fail from now on) and restore it from the journal; whether
        it is live here now."""
        if code in self.rooms:
            return True
        epoch = self.store.take_match(match_id)
        if epoch is None or self._restore_or_abandon(match_id, self.players, epoch) is None:
            return False
        event("table_taken_over", code=code, match=match_id, epoch=epoch,
              actions=self.rooms[code].entries)
        return True

    def unhosted_arenas(self) -> list[str]:
        """The arenas to come or running that the store has and this process does not host."""
        return [record.id for record in self.store.arenas(over_since=math.inf)
                if record.id not in self.arenas.hosted]

    def hosts_arena(self, arena_id: str) -> bool:
        """Whether this process hosts arena ``arena_id``."""
        return arena_id in self.arenas.hosted

    def host_arena(self, arena_id: str) -> bool:
        """This process now hosts arena ``arena_id`` (its host is gone, or it is new)."""
        return arena_id in self.arenas.hosted or self.arenas.take(arena_id) is not None

    def lost(self, codes: Iterable[str], reason: str = "lease") -> None:
        """Another process has the tables (and arenas) ``codes`` now: drop them without a
        word to the store."""
        codes = list(codes)
        for code in codes:
            self.arenas.release(code, lost=True)
        for code in codes:
            room = self.rooms.pop(code, None)
            if room is None:
                continue
            if room.match_id is not None:
                self.journal.forget(frozenset({room.match_id}))
            if self.cluster is not None:
                self.cluster.release(code)  # if Redis still says it is ours (a fenced write)
            room.release(None)
            event("table_lost", code=code, match=room.match_id, reason=reason)
            self._changed(room)

    def _store_behind(self) -> None:
        """The store fell behind or caught up: every room with a match pauses or goes on."""
        behind = self.journal.behind
        if not behind:  # everyone hears that the store is back before any table goes on
            self.on_store(behind)
        for room in list(self.rooms.values()):
            try:
                room.store_behind(behind)
            except Exception:  # one bad room must not keep the others paused
                log.exception("table %s: pausing or resuming for the store failed", room.code)
        if behind:
            self.on_store(behind)

    def _fenced(self, match_ids: frozenset[str]) -> None:
        self.lost([room.code for room in self.rooms.values() if room.match_id in match_ids],
                  "fenced")

    def shutdown(self) -> None:
        """The server stops: bots stop, the journal is committed; running matches stay
        ``playing`` in the store (the next start restores them)."""
        self.matchmaker.stop()
        self.arenas.stop()
        for room in self.rooms.values():
            room.stop_bots()
        self.journal.flush()
