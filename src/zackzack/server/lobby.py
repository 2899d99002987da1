"""The lobby: every live room by its code, the list of public tables, rematches and clean-up."""

from __future__ import annotations

import secrets
from dataclasses import dataclass

from zackzack.clock import Clock, Timer
from zackzack.games import GAMES
from zackzack.games.errors import OptionsError
from zackzack.server.identity import Player
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
from zackzack.server.room import BotMaker, Room, Seat, SeatKind, Viewer
from zackzack.store import Store
from zackzack.table import LIVE, Phase, Settings

CODE_LETTERS = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 6


@dataclass(frozen=True, slots=True)
class Timing:
    """How long the lobby waits before it tidies up (seconds)."""

    lobby_every: float = 0.1
    """The lobby list goes out at most this often."""
    idle: float = 600.0
    """A room nobody has looked at for this long is closed (a running match is abandoned)."""
    over: float = 1800.0
    """A finished room closes this long after the end, even with people looking."""
    sweep_every: float = 30.0
    """How often the lobby looks for rooms to close."""


def new_code() -> str:
    """A table code: six letters and digits that cannot be mistaken for each other."""
    return "".join(secrets.choice(CODE_LETTERS) for _ in range(CODE_LENGTH))


class Lobby:
    """All live rooms; connections that look at the lobby get its list after every change."""

    def __init__(self, *, clock: Clock, store: Store, bots: BotMaker,
                 settings: Settings = LIVE, timing: Timing = Timing()) -> None:
        self.clock, self.store, self.bots = clock, store, bots
        self.settings, self.timing = settings, timing
        self.rooms: dict[str, Room] = {}
        self.subscribers: dict[Viewer, None] = {}
        self._flush: Timer | None = None

    # The list ------------------------------------------------------------------------------

    def listing(self) -> LobbyList:
        """The public rooms, newest first."""
        return LobbyList(tables=[room.lobby_entry() for room in reversed(self.rooms.values())
                                 if not room.private])

    def subscribe(self, viewer: Viewer) -> None:
        """Send ``viewer`` the list now and after every change."""
        self.subscribers[viewer] = None
        viewer.send(encode(self.listing()))

    def unsubscribe(self, viewer: Viewer) -> None:
        """Stop sending ``viewer`` the list."""
        self.subscribers.pop(viewer, None)

    def _changed(self, room: Room) -> None:
        if room.private or self._flush is not None:
            return
        self._flush = self.clock.call_at(self.clock.time() + self.timing.lobby_every, self._send)

    def _send(self) -> None:
        self._flush = None
        if self.subscribers:
            text = encode(self.listing())
            for viewer in list(self.subscribers):
                viewer.send(text)

    # Rooms ---------------------------------------------------------------------------------

    def find(self, code: str) -> Room:
        """The live room with ``code`` (any case)."""
        room = self.rooms.get(code.upper())
        if room is None:
            raise ProtocolError("no_such_table", f"there is no live table {code!r}")
        return room

    def tables_of(self, player: Player) -> list[TableRef]:
        """The live rooms where ``player`` holds a seat."""
        return [TableRef(code=room.code, seat=seat, game=room.rules.INFO.name,
                         phase=room.phase.value)
                for room in self.rooms.values()
                if (seat := room.seat_of(player)) is not None]

    def create(self, viewer: Viewer, request: Create) -> Room:
        """A new room as ``request`` says; ``viewer`` takes its first open seat and looks at it."""
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
        title = clean_text(request.title or "", TITLE_CHARS, "a title")
        room = self._open(rules.INFO.name, options, seats, viewer.player,
                          title or f"{rules.INFO.title} · {viewer.player.name}", request.private)
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
              title: str, private: bool) -> Room:
        code = new_code()
        while code in self.rooms:
            code = new_code()
        room = Room(code=code, rules=GAMES[game], options=options, seats=seats, creator=creator,
                    title=title, private=private, clock=self.clock, settings=self.settings,
                    store=self.store, bots=self.bots, on_change=self._changed)
        self.rooms[code] = room
        self._changed(room)
        return room

    def rematch(self, viewer: Viewer, old: Room) -> Room:
        """The rematch of ``old`` (made on the first request): same seats, options, privacy."""
        if old.seat_of(viewer.player) is None:
            raise ProtocolError("not_seated", "only the players may ask for a rematch")
        if old.phase is not Phase.OVER:
            raise ProtocolError("not_over", "the match is not over yet")
        room = self.rooms.get(old.rematch) if old.rematch is not None else None
        if room is None:
            seats = [Seat(s.kind, s.player, s.bot) for s in old.seats]
            room = self._open(old.rules.INFO.name, old.options, seats, viewer.player, old.title,
                              old.private)
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
        if self.rooms.get(room.code) is room:
            del self.rooms[room.code]
            self._changed(room)

    def sweep(self) -> list[str]:
        """Close rooms nobody has looked at for a while, and finished ones after a longer while."""
        now = self.clock.time()
        gone = [room for room in self.rooms.values()
                if (room.idle_since is not None and now - room.idle_since >= self.timing.idle)
                or (room.over_since is not None and now - room.over_since >= self.timing.over)]
        for room in gone:
            self.close(room)
        return [room.code for room in gone]

    def shutdown(self) -> None:
        """The server stops: bots stop; running matches stay ``playing`` in the store."""
        for room in self.rooms.values():
            room.stop_bots()
