"""A session: what one connection's messages mean — who it is, which place it shows, what it does.

It knows nothing of websockets: it reads decoded text and sends text through ``send``, so the
whole protocol can be driven (and tested) without a network.
"""

from __future__ import annotations

import asyncio
import enum
import logging
from collections.abc import Awaitable, Callable, Coroutine
from functools import partial
from typing import Any

from sqlalchemy.exc import DBAPIError

from zackzack.engine.clock import Timer
from zackzack.engine.race import ProbePace, Wire
from zackzack.engine.table import Phase
from zackzack.server.identity import Identities, Player, token_hash
from zackzack.server.lobby import Lobby
from zackzack.server.logs import event
from zackzack.server.protocol import (
    Act,
    ArenaCreate,
    ArenaJoin,
    ArenaPaired,
    ArenaPause,
    ArenaWatch,
    ArenaWithdraw,
    ClientMessage,
    Create,
    Error,
    Hello,
    Join,
    Leave,
    Left,
    Moved,
    Ping,
    Pong,
    Probe,
    ProbeReply,
    ProtocolError,
    Ready,
    Rematch,
    Rename,
    Seek,
    ServerMessage,
    SetSeat,
    Shown,
    Start,
    Unqueued,
    Unseek,
    Watch,
    WatchLobby,
    Welcome,
    decode,
    encode,
)
from zackzack.server.room import Room

log = logging.getLogger(__name__)


class SessionState(enum.Enum):
    """A session's life: waiting for hello, greeted, closed."""

    NEW = "new"
    GREETED = "greeted"
    CLOSED = "closed"


class Session:
    """One connection's protocol state: its player and the place it shows (lobby or a room)."""

    def __init__(self, lobby: Lobby, identities: Identities, origin: str,
                 send: Callable[[str], object],
                 restart: Callable[[str], object] | None = None,
                 transport_rtt: Callable[[], float | None] = lambda: None,
                 urgent: Callable[[str], object] | None = None) -> None:
        self.lobby, self.identities = lobby, identities
        self._urgent = urgent or send
        """Send a text ahead of everything queued, even while the store is behind: the lag
        probes, which tell nothing the store must have first (and measure the wire, not the
        queue)."""
        self._transport_rtt = transport_rtt
        """The round trip the connection's transport measures now, in ms (``None``: unknown;
        ``zackzack.server.transport``): the bound on the lag a race credits."""
        self.origin = origin
        self._restart = restart or send
        """Send a text instead of everything not yet sent (``relocate``)."""
        self.address = ""
        """The client's network address (its connection sets it): new players are limited per
        address (``Limits.new_players_burst``); "" (unknown) is not limited."""
        self._send = send
        self.state = SessionState.NEW
        self._player: Player | None = None
        self.token_digest: str | None = None
        """The hash of the token this connection said hello with (a sign-out closes it)."""
        self.room: Room | None = None
        self.wire = Wire()
        """This connection's lag and what it was sent when (``docs/fairness.md``)."""
        self._finding: set[asyncio.Task[None]] = set()
        """Looking for tables on other processes of the cluster."""
        self._probes: dict[int, float] = {}
        self._probed = 0
        self._prober: Timer | None = None
        self._pace = ProbePace()

    @property
    def player(self) -> Player:
        """The greeted player."""
        if self._player is None:
            raise ProtocolError("hello_first", "say hello first")
        return self._player

    @property
    def known_player(self) -> Player | None:
        """The greeted player, or ``None`` before the hello."""
        return self._player

    def send(self, text: str) -> None:
        """Send ``text`` to the client (never blocks; a slow client is the connection's matter)."""
        if self.state is not SessionState.CLOSED:
            self._send(text)

    def reply(self, message: ServerMessage) -> None:
        """Send ``message`` to the client."""
        self.send(encode(message))

    def _urgently(self, message: ServerMessage) -> None:
        if self.state is not SessionState.CLOSED:
            self._urgent(encode(message))

    def snapshot(self) -> str | None:
        """The whole place this connection shows, afresh (after its backlog was dropped)."""
        if self.room is not None:
            return encode(self.room.state_for(self))
        if self.lobby.subscribed(self):
            return self.lobby.snapshot(self)
        return None

    def moved_out(self, room: Room) -> None:
        """``room`` closed under this connection."""
        if self.room is room:
            self.room = None
            self.reply(Left(code=room.code))

    def relocate(self, code: str, url: str | None) -> None:
        """Table ``code`` moved to another process (``url``; ``None``: the client's home
        finds it): tell the client instead of anything of it not yet sent."""
        if self.room is not None and self.room.code == code:
            self.room = None
        if self.state is not SessionState.CLOSED:
            self._restart(encode(Moved(code=code, url=url)))

    # Messages ------------------------------------------------------------------------------

    def receive(self, text: str | bytes) -> None:
        """Handle one frame from the client; anything refused is answered with an ``error``."""
        cluster = self.lobby.cluster
        if cluster is not None and not cluster.valid():  # until the leases are confirmed
            cluster.hold(partial(self.receive, text))
            return
        try:
            message = decode(text)
        except ProtocolError as error:
            self.reply(Error(code=error.code, reason=error.reason, ref=error.ref))
            return
        self._answer(message)

    def _answer(self, message: ClientMessage) -> None:
        ref = message.ref if isinstance(message, Act) else None
        try:
            self.handle(message)
        except ProtocolError as error:
            self.reply(Error(code=error.code, reason=error.reason, ref=ref))
        except DBAPIError as error:  # the database is away (the journal keeps what it must)
            event("store_unavailable", logging.WARNING, message=type(message).__name__,
                  reason=str(error.orig)[:200])
            self.reply(Error(code="store_unavailable", ref=ref,
                             reason="the server cannot reach its database; try again soon"))
        except Exception:  # a bug: say so, keep serving
            log.exception("%s message failed", type(message).__name__)
            self.reply(Error(code="internal", reason="the server failed; try again", ref=ref))

    def handle(self, message: ClientMessage) -> None:
        """Do what ``message`` asks, or raise ``ProtocolError``."""
        if self.state is SessionState.CLOSED:
            return
        if isinstance(message, Hello):
            self.hello(message)
            return
        if isinstance(message, Ping):
            self.reply(Pong(t=message.t))  # in order: a ping is a barrier (docs/protocol.md)
            return
        if isinstance(message, ProbeReply):
            self._probe_answered(message.n)
            return
        if self.state is not SessionState.GREETED:
            raise ProtocolError("hello_first", "the first message must be hello")
        match message:
            case Act(ref=ref, action=action, id=act_id):  # first: the most frequent by far
                if self.room is None:
                    raise ProtocolError("not_at_table", "show a table first")
                self.room.act(self, ref, action, self.reply, act_id)
            case ArenaCreate():
                self._show_arena(self.lobby.arenas.create(self, message).id)
            case ArenaWatch(id=arena_id):
                if self._arena_here(message, arena_id):
                    self._show_arena(arena_id)
            case ArenaJoin(id=arena_id):
                if self._arena_here(message, arena_id):
                    self.lobby.arenas.join(self, arena_id)  # (a refusal changes nothing)
                    self._show_arena(arena_id)
            case ArenaPause(id=arena_id):
                if self._arena_here(message, arena_id):
                    self.lobby.arenas.pause(self, arena_id)
            case ArenaWithdraw(id=arena_id):
                if self._arena_here(message, arena_id):
                    self.lobby.arenas.withdraw(self, arena_id)
            case WatchLobby():
                if not self.lobby.subscribed(self):
                    self._show(None)
                self.lobby.subscribe(self)  # nothing new if it has this version of the list
            case Create():
                self._show(self.lobby.create(self, message))
            case Join(code=code, seat=seat):
                if (room := self._find(message, code)) is not None:
                    room.join(self, seat)
                    self._show(room)
            case Watch(code=code):
                if (room := self._find(message, code)) is not None:
                    room.attach(self)  # nothing, to anyone, if it shows it already
                    self._show(room)
            case Leave():
                if self.lobby.matchmaker.unseek(self) and self.room is None:
                    return  # a leave while waiting for an opponent leaves the queue
                room = self._room()
                room.leave(self)
                self.room = None
                self.reply(Left(code=room.code))
            case Ready(ready=ready):
                self._room().set_ready(self, ready)
            case Rename(name=name):
                self.rename(name)
            case SetSeat(seat=seat, kind=kind, bot=bot):
                if (kind == "bot") != (bot is not None):
                    raise ProtocolError("bad_field", "a bot seat needs a bot, an open one none")
                room = self._room()
                name = room.rules.INFO.name
                room.set_seat(self, seat, None if bot is None else self.lobby.check_bot(bot, name))
            case Start():
                self._room().start(self)
            case Seek(game=game, players=players):
                self.lobby.matchmaker.seek(self, game, players)
            case Unseek():
                self.lobby.matchmaker.unseek(self)
            case Rematch():
                old = self._room()
                self._show(self.lobby.rematch(self, old))
            case Shown(versions=versions):
                if self.room is not None:
                    self.room.shown(self, versions)

    def hello(self, message: Hello) -> None:
        """Identify the player (a new one for an unknown token) and welcome them."""
        if self.state is not SessionState.NEW:
            raise ProtocolError("already_hello", "hello comes once per connection")
        player, token = self.identities.hello(
            message.token, message.name, lambda: self.lobby.admit_new_player(self.address))
        self._player, self.token_digest = player, token_hash(token)
        self.state = SessionState.GREETED
        self.reply(Welcome(player=player.id, token=token, name=player.name,
                           tables=self.lobby.tables_of(player),
                           reaction_ms=self.lobby.timing.reaction_ms, claimed=player.claimed))

    def rename(self, name: str) -> None:
        """Rename the player; every waiting table where they sit shows everyone the new name.
        At a table of theirs that has started, the name stays (it is in the match's record)."""
        player, shown = self.player, self.room
        if shown is not None and shown.seat_of(player) is not None \
                and shown.phase is not Phase.WAITING:
            raise ProtocolError("already_started", "the match has started: your name stays")
        self.identities.rename(player, name)
        self.lobby.player_changed(player)

    def _arena_here(self, message: ArenaWatch | ArenaJoin | ArenaPause | ArenaWithdraw,
                    arena_id: str) -> bool:
        """Whether arena ``arena_id`` is hosted here (else ``no_such_arena``); in a cluster,
        if not, where it is comes later (a ``moved``, or ``message`` done here once this
        process hosts it)."""
        arena_id = arena_id.upper()
        cluster, hall = self.lobby.cluster, self.lobby.arenas
        if arena_id in hall.hosted or cluster is None \
                or (isinstance(message, ArenaWatch) and hall.ended(arena_id)):
            return True
        self._later(self._elsewhere(message, arena_id, cluster.locate_arena,
                                    lambda: arena_id in self.lobby.arenas.hosted,
                                    Error(code="no_such_arena",
                                          reason=f"there is no arena {arena_id!r}")))
        return False

    def _later(self, work: Coroutine[Any, Any, None]) -> None:
        task = asyncio.get_running_loop().create_task(work)
        self._finding.add(task)
        task.add_done_callback(self._finding.discard)

    def _find(self, message: Join | Watch, code: str) -> Room | None:
        """The room ``code`` if it is here; in a cluster, else ``None``: where it is comes
        later (a ``moved``, or ``message`` done here once the table is taken over)."""
        code = code.upper()
        room = self.lobby.rooms.get(code)
        cluster = self.lobby.cluster
        if room is not None or cluster is None:
            return room or self.lobby.find(code)
        self._later(self._elsewhere(message, code, cluster.locate,
                                    lambda: code in self.lobby.rooms,
                                    Error(code="no_such_table",
                                          reason=f"there is no live table {code!r}")))
        return None

    async def _elsewhere(self, message: ClientMessage, code: str,
                         locate: Callable[[str], Awaitable[str | None]],
                         here: Callable[[], bool], missing: Error) -> None:
        """Find table (or arena) ``code`` in the cluster: ``moved`` to its process, or
        ``message`` answered here once it is here, or ``missing``."""
        try:
            url = await locate(code)
        except ProtocolError as error:
            self.reply(Error(code=error.code, reason=error.reason))
            return
        except Exception:  # a bug or a storage failure: say so, keep serving
            log.exception("finding %s failed", code)
            self.reply(Error(code="internal", reason="the server failed; try again"))
            return
        if self.state is not SessionState.GREETED:
            return
        if url is not None:
            self.reply(Moved(code=code, url=url))
        elif here():
            self._answer(message)
        else:
            self.reply(missing)

    def _room(self) -> Room:
        if self.room is None:
            raise ProtocolError("not_at_table", "this connection shows no table")
        return self.room

    def _show_arena(self, arena_id: str) -> None:
        """Show arena ``arena_id``: its standings now and after every change, or once as
        stored if it is over and no longer hosted."""
        hall = self.lobby.arenas
        if arena_id.upper() in hall.hosted:
            self._show(None)
            hall.watch(self, arena_id)
        else:
            text = hall.ended_text(arena_id)
            self._show(None)
            self.send(text)

    def _show(self, room: Room | None) -> None:
        """Show ``room`` (already attached) or nothing, leaving the place shown before."""
        self.lobby.unsubscribe(self)
        self.lobby.arenas.unwatch(self)
        if self.room is not None and self.room is not room:
            self.room.detach(self)
        self.room = room
        if room is not None and room.seat_of(self.player) is not None:
            self.lobby.matchmaker.unseek(self)  # at a table of theirs: no longer seeking
            self.lobby.arenas.showing(self, room)
        if room is not None and self._prober is None:
            self._probe()

    def matched(self, room: Room) -> None:
        """The matchmaker seated this connection's player at ``room``: show it."""
        self.reply(Unqueued(reason="matched", code=room.code))
        room.attach(self)
        self._show(room)

    def arena_seated(self, room: Room, arena: str) -> None:
        """Arena ``arena`` seated this connection's player at ``room``: show it."""
        self.reply(ArenaPaired(arena=arena, code=room.code))
        room.attach(self)
        self._show(room)

    # Lag ---------------------------------------------------------------------------------

    def _probe(self) -> None:
        """Ping the client while it shows a table: its answers measure the lag (less often
        while they hold steady: ``race.ProbePace``)."""
        self._prober = None
        if self.room is None or self.state is SessionState.CLOSED:
            return
        clock = self.lobby.clock
        answered = self._probed not in self._probes  # (or there was none before)
        self._probed += 1
        self._probes[self._probed] = clock.time()
        self.wire.transport = self._transport_rtt()
        if len(self._probes) > 8:  # a client that stopped answering keeps only the newest
            del self._probes[min(self._probes)]
        self._urgently(Probe(n=self._probed, rtt=self.wire.stats.rtt))
        self._prober = clock.call_at(
            clock.time() + self._pace.next(self.wire.stats, answered), self._probe)

    def _probe_answered(self, n: int) -> None:
        sent = self._probes.pop(n, None)
        if sent is None:
            return  # not ours, or answered twice: nothing to learn
        quality = self.wire.stats.quality
        self.wire.stats.record((self.lobby.clock.time() - sent) * 1000)
        if self.room is not None:
            self.room.lag_measured(self, quality)

    def close(self) -> None:
        """The connection is gone: leave the lobby and the room (seats stay their players')."""
        if self.state is SessionState.CLOSED:
            return
        self.lobby.unsubscribe(self)
        for task in self._finding:
            task.cancel()
        if self._prober is not None:
            self._prober.cancel()
            self._prober = None
        if self.room is not None:
            cluster = self.lobby.cluster
            if cluster is not None and not cluster.valid():  # the table may not be ours now
                cluster.hold(partial(self.room.detach, self))
            else:
                self.room.detach(self)
            self.room = None
        if self._player is not None:
            self.lobby.matchmaker.drop(self)
            self.lobby.arenas.gone(self)
            self.identities.gone(self._player)
        self.state = SessionState.CLOSED
