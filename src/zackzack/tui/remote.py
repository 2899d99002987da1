"""A remote session: this keyboard at a server's table over the websocket (docs/protocol.md).

``open`` says hello and joins the table from the link (or watches it when every seat is
taken); afterwards a reader task turns the server's messages into views and events. A
dropped connection is retried with growing pauses; the server knows the player by the
token of the first hello, so joining again returns to the same seat. The server's ``ping``
is answered at once (it measures the lag); its ``rtt`` goes to the screen.

In a cluster a table lives on one server: ``moved`` names it, and the session connects
there and asks again; when that connection fails or drops, it asks its home (the address
it was started with) again, which knows the table's new server.

>>> parse_link("http://localhost:8000/t/k7m2qx")
('ws://localhost:8000/ws', 'K7M2QX')
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import re
import secrets
import urllib.parse
from collections.abc import Callable
from socket import gaierror
from typing import Any

import msgspec
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidStatus, WebSocketException
from websockets.typing import Origin

from zackzack.engine.table import Phase, TableView
from zackzack.games import game, registered
from zackzack.games.base import Action, Event, Rules, plain
from zackzack.server import protocol as p
from zackzack.tui.codec import decode_event, decode_view
from zackzack.tui.session import Listener, Lost, Seat, Unavailable
from zackzack.tui.texts import tr

RETRY_S = (0.2, 0.5, 1.0, 2.0, 4.0)
NOTICES = frozenset({"store_unavailable", "store_back"})
"""The server's notices the status line shows (``err_<code>``; others are not known yet)."""
NOTICE_S = 5.0
"""Seconds ``store_back`` stays in the status line."""
"""Pauses before the attempts to reconnect; the last one repeats."""
RETRY_WITHIN_S = 1.5
"""An action unanswered when the connection dropped is sent again after the reconnect only
if it was pressed at most this long ago (an older card would surprise its player)."""
LEAVE_S = 1.0
"""How long Esc waits for ``leave`` to be sent before it closes the connection anyway."""
WATCH_INSTEAD = frozenset({"already_started", "table_full", "seat_taken"})
"""Join refusals after which this keyboard watches the table instead."""
FREE_HOPS = 2
"""``moved`` in a row followed at once; the next ones after the pauses of :data:`RETRY_S`
(two servers sending the keyboard to and fro do not spin)."""
MAX_HOPS = 20
"""``moved`` in a row after which connecting gives up (and says so)."""
ASK_AGAIN = frozenset({"table_moving", "cluster_unavailable"})
"""Refusals of a cluster whose table is between servers: asked again after a pause."""
ASK_AGAIN_TIMES = 5
"""How often; then the refusal is the answer (:class:`Unavailable`), unless someone waits
(:attr:`RemoteSession.waiting`)."""

_CODE = re.compile(r"[A-Za-z0-9]{4,16}")
_decoder = msgspec.json.Decoder(p.ServerMessage)
_encoder = msgspec.json.Encoder()


def parse_link(link: str) -> tuple[str, str]:
    """The websocket URL and the table code of a table link ``http://HOST:PORT/t/CODE``."""
    parts = urllib.parse.urlsplit(link.strip())
    found = re.fullmatch(r"/t/([^/]+)/?", parts.path)
    if parts.scheme not in ("http", "https") or not parts.netloc or not found \
            or not _CODE.fullmatch(found.group(1)):
        raise ValueError(f"a table link looks like http://HOST:PORT/t/CODE, got {link!r}")
    scheme = "wss" if parts.scheme == "https" else "ws"
    return f"{scheme}://{parts.netloc}/ws", found.group(1).upper()


def parse_code(code: str) -> str:
    """A table's code as typed (the waiting room shows it) in the server's spelling.

    >>> parse_code(" k7m2qx ")
    'K7M2QX'
    """
    if not _CODE.fullmatch(code.strip()):
        raise ValueError(f"a table's code is 4 to 16 letters and digits, got {code!r}")
    return code.strip().upper()


def why(error: BaseException) -> str:
    """Why connecting failed, in a few words on one line.

    >>> why(ConnectionRefusedError(111, "Connect call failed")), why(TimeoutError())
    ('connection refused', 'no answer')
    """
    if isinstance(error, ConnectionRefusedError) or "Connect call failed" in str(error):
        return "connection refused"
    if isinstance(error, gaierror):
        return "unknown host"
    if isinstance(error, TimeoutError):
        return "no answer"
    if isinstance(error, InvalidStatus):
        return f"not a zackzack server (HTTP {error.response.status_code})"
    if isinstance(error, ConnectionClosed):
        return "the server closed the connection"
    return " ".join(str(error).split()) or type(error).__name__


async def _pause(seconds: float) -> None:
    """Wait before the next attempt to connect (one place, so that a test sees the pauses)."""
    await asyncio.sleep(seconds)


class _Again(Exception):
    """The server cannot do it now (:data:`ASK_AGAIN`, the refusal's ``code``): ask again soon."""

    def __init__(self, message: str, code: str) -> None:
        super().__init__(message)
        self.code = code


class _Moved(Exception):
    """The server answered ``moved``: the table is at ``url`` (``None``: ask home again)."""

    def __init__(self, url: str | None) -> None:
        super().__init__(url)
        self.url = url


def seat_maker(url: str, code: str, name: str, lang: str, *, token: str | None = None,
               create: p.Create | None = None) -> Callable[[], RemoteSession]:
    """The sessions of a server's table (``code``'s, or the one ``create`` makes): first that
    table's, then each time the rematch of the last one (asked for, or offered by someone
    else), as the same player (``token``: known already)."""
    last: list[RemoteSession] = []

    def make() -> RemoteSession:
        if not last:
            session = RemoteSession(url, code, name, lang, token=token, create=create)
        elif last[-1].rematch is not None:
            session = RemoteSession(url, last[-1].rematch[0], name, lang, token=last[-1].token)
        else:
            session = RemoteSession(url, last[-1].code, name, lang, token=last[-1].token,
                                    rematch=True)
        last[:] = [session]
        return session

    return make


class RemoteSession:
    """A seat at a server's table (or a watcher's place when no seat is free)."""

    def __init__(self, url: str, code: str, name: str, lang: str, *, token: str | None = None,
                 rematch: bool = False, create: p.Create | None = None) -> None:
        """A seat at table ``code``; ``token``: the player's from an earlier connection;
        ``rematch``: ask table ``code`` (over) for its rematch and sit at that one instead;
        ``create``: make the table first (``code`` is learnt then)."""
        self.url, self.code, self.name, self.lang = url, code, name, lang
        self.home = url
        """The address this session was started with; ``url`` is the table's server."""
        self._hops = 0
        """``moved`` followed since the table last came."""
        self.token: str | None = token
        self.asks_rematch = rematch
        self.create = create
        self.rematch: tuple[str, str] | None = None
        """The rematch of this table once someone asked: its code and who asked."""
        self.player = ""
        self.rules: Rules = registered()[0].rules  # until the table says which game
        self.seats: tuple[Seat, ...] = ()
        self.mine: tuple[int, ...] = ()
        self.creator = False
        self.closed = False
        self.reaction_ms = 600
        """The reaction window the server judges ``seen`` by (``welcome.reaction_ms``)."""
        self.rtt_ms: int | None = None
        """The server's estimate of this connection's round trip (``None``: not yet)."""
        self._socket: ClientConnection | None = None
        self._table: p.TableInfo | None = None
        self._view: TableView | None = None
        self._clock = (0, 0.0)
        self._listener: Listener | None = None
        self._status = ""
        self._reader: asyncio.Task[None] | None = None
        self._ref = 0
        self._refs: dict[int, int] = {}
        self._unanswered: dict[int, tuple[str, p.Act, int, float]] = {}
        """By ref: each action sent and not answered yet (its id, message, seat, when)."""
        self._ids = (secrets.token_hex(6), itertools.count(1))
        self._sending: set[asyncio.Task[None]] = set()
        self._pending: dict[int, tuple[int, Action]] = {}
        """By ref: each card on its way (its seat and play), until answered or seen taken."""
        self.watching_because = ""
        """Why this keyboard watches instead of playing: the join's refusal (``table_full``,
        ``already_started``, ``seat_taken``); ``""``: it plays, or asked to watch."""
        self.waiting: Callable[[Unavailable, float], None] | None = None
        """Someone waits for :meth:`open` (the app, with a screen that says so): refusals the
        server may lift in a moment (:data:`ASK_AGAIN`) are asked again for ever, after the
        pauses of :data:`RETRY_S`, and each is told here first with the pause that follows.
        ``None``: after :data:`ASK_AGAIN_TIMES` the refusal is the answer."""

    # Connecting ----------------------------------------------------------------------------

    @property
    def server(self) -> str:
        """The server's address as people write it, ``http://HOST:PORT``."""
        parts = urllib.parse.urlsplit(self.url)
        return f"{'https' if parts.scheme == 'wss' else 'http'}://{parts.netloc}"

    async def open(self) -> None:
        """Connect, say hello and take the seat; raises ``ValueError`` (one line) when that
        fails: the server cannot be reached, or the table is not there."""
        for attempt in itertools.count():
            try:
                await self._connect()
                return
            except (OSError, WebSocketException, TimeoutError) as error:
                if self.url == self.home:
                    raise ValueError(f"cannot reach the server at {self.server}: {why(error)}") \
                        from None
            self.url = self.home  # the table's server is gone: home knows its next one
            await _pause(RETRY_S[min(attempt, len(RETRY_S) - 1)])

    async def _connect(self) -> None:
        """Take the seat at the table's server, following ``moved`` to it."""
        for again in itertools.count(1):
            try:
                await self._sit()
            except _Moved as moved:
                await self._hop(moved.url)
                continue
            except _Again as error:
                asked = "create" if self.create is not None else \
                    "rematch" if self.asks_rematch else "join"
                refused = Unavailable(str(error), error.code, asked)
                if self.waiting is None and again > ASK_AGAIN_TIMES:
                    raise refused from None
                pause = RETRY_S[min(again - 1, len(RETRY_S) - 1)]
                if self.waiting is not None:
                    self.waiting(refused, pause)
                await _pause(pause)
                continue
            self._hops = 0
            return

    async def _hop(self, url: str | None) -> None:
        """Go to ``url`` (``None``: home) next; at once the first :data:`FREE_HOPS` times in a
        row, then after a pause; after :data:`MAX_HOPS` give up (``ValueError``)."""
        self.url = url or self.home
        self._hops += 1
        if self._hops > MAX_HOPS:
            self._hops, self.url = 0, self.home
            raise ValueError(f"table {self.code} moved from server to server {MAX_HOPS} times "
                             "in a row (is the cluster's --public-url right?)")
        if self._hops > FREE_HOPS:
            await _pause(RETRY_S[min(self._hops - FREE_HOPS - 1, len(RETRY_S) - 1)])

    async def _dial(self) -> ClientConnection:
        """Connect to ``url``, say hello and learn who this keyboard is (the welcome)."""
        netloc = urllib.parse.urlsplit(self.url).netloc
        origin = Origin(("https" if self.url.startswith("wss") else "http") + "://" + netloc)
        socket = await connect(self.url, origin=origin, open_timeout=10)
        try:
            await self._send(socket, p.Hello(token=self.token, name=self.name))
            welcome = await self._expect(socket, p.Welcome)
        except BaseException:
            await socket.close()
            raise
        self.token, self.player = welcome.token, welcome.player
        self.reaction_ms = welcome.reaction_ms
        return socket

    async def _sit(self) -> None:
        socket = await self._dial()
        try:
            if self.create is not None:  # a new table: this keyboard is its creator
                await self._send(socket, self.create)
                state = await self._expect(socket, p.TableState)
                self.code, self.create = state.table.code, None
            elif self.asks_rematch:  # to the old table, then on to its rematch
                await self._send(socket, p.Watch(code=self.code))
                await self._expect(socket, p.TableState)
                await self._send(socket, p.Rematch())
                state = await self._expect(socket, p.TableState)
                while state.table.code == self.code:  # the old table, now naming its rematch
                    state = await self._expect(socket, p.TableState)
                self.code, self.asks_rematch = state.table.code, False
            else:
                await self._send(socket, p.Join(code=self.code))
                state = await self._expect(socket, p.TableState)
        except BaseException:
            await socket.close()
            raise
        self._socket = socket
        self._take(state.table, state.view, state.now)

    async def _expect(self, socket: ClientConnection, kind: type[Any]) -> Any:
        """Read until a message of ``kind``; a join refused for a full table watches instead;
        ``moved`` raises :class:`_Moved`."""
        while True:
            message = self._decode(await socket.recv())
            if isinstance(message, kind):
                return message
            if isinstance(message, p.Moved):
                raise _Moved(message.url)
            if isinstance(message, p.Probe):
                await self._answer(socket, message)
            if isinstance(message, p.Error):
                await self._refused(socket, message)

    async def _refused(self, socket: ClientConnection, error: p.Error) -> None:
        """A refusal while connecting: watch instead (a full table; the screen says so), or
        raise what ends this attempt (:class:`_Again`: ask again soon; ``ValueError``)."""
        if error.code in WATCH_INSTEAD:
            self.watching_because = error.code
            await self._send(socket, p.Watch(code=self.code))
            return
        if error.code == "no_such_table":
            raise ValueError(f"there is no table {self.code} at {self.server} "
                             "(it ended, or the code is mistyped)")
        refused = (f"table {self.code} at {self.server}: "
                   f"{' '.join(error.reason.split())} ({error.code})")
        if error.code in ASK_AGAIN:
            raise _Again(refused, error.code)
        raise ValueError(refused)

    @staticmethod
    def _decode(text: str | bytes) -> p.ServerMessage | None:
        try:
            message: p.ServerMessage = _decoder.decode(text)
        except (msgspec.DecodeError, msgspec.ValidationError):
            return None
        return message

    @staticmethod
    async def _send(socket: ClientConnection, message: p.ClientMessage) -> None:
        await socket.send(_encoder.encode(message).decode())

    async def _answer(self, socket: ClientConnection, probe: p.Probe) -> None:
        """Answer the server's ping at once and keep its estimate of the round trip."""
        await self._send(socket, p.ProbeReply(n=probe.n))
        if probe.rtt is not None:
            self.rtt_ms = probe.rtt

    # Reading -------------------------------------------------------------------------------

    def start(self, listener: Listener | None) -> None:
        """Tell ``listener`` the server's messages from now on (read from the first call)."""
        self._listener = listener
        if self._reader is None:
            self._reader = asyncio.get_running_loop().create_task(self._read())

    async def _read(self) -> None:
        while not self.closed:
            socket = self._socket
            moved: p.Moved | None = None
            if socket is not None:
                with contextlib.suppress(WebSocketException, OSError):
                    async for text in socket:
                        message = self._decode(text)
                        if isinstance(message, p.Probe):
                            await self._answer(socket, message)
                        if isinstance(message, p.Moved) and message.code == self.code:
                            moved = message  # this server lost the table, or never had it
                            break
                        self._receive(message)
                if moved is not None:
                    with contextlib.suppress(WebSocketException, OSError):
                        await socket.close()
            if not self.closed:
                await self._reconnect(moved)

    async def _reconnect(self, moved: p.Moved | None = None) -> None:
        """Take the seat again: after ``moved`` at once where it says, after a drop at home
        after a pause (the table's server may be gone; home knows the next one)."""
        self._socket = None
        self._tell_status(tr("reconnecting", self.lang))
        for attempt in range(1 << 30):
            if moved is not None and attempt == 0:
                with contextlib.suppress(ValueError):  # moved too often: home, after a pause
                    await self._hop(moved.url)
            else:
                self.url = self.home
                await _pause(RETRY_S[min(attempt, len(RETRY_S) - 1)])
            if self.closed:
                return
            with contextlib.suppress(OSError, WebSocketException, TimeoutError, ValueError):
                await self._connect()
                self._retry()
                self._tell_status("")
                if self._listener is not None:
                    self._listener.changed([])
                return

    def _receive(self, message: p.ServerMessage | None) -> None:
        listener = self._listener
        if isinstance(message, p.TableState):
            self._take(message.table, message.view, message.now)
            if listener is not None:
                listener.changed([])
        elif isinstance(message, p.Events):
            self._take(self._table, message.view, message.now)
            events = [e for e in (decode_event(self.rules, data) for data in message.events)
                      if e is not None]
            self._taken(events)
            if listener is not None:
                listener.changed(events)
        elif isinstance(message, p.Ack) and not message.ok and listener is not None:
            self._unanswered.pop(message.ref, None)
            self._pending.pop(message.ref, None)
            seat = self._refs.pop(message.ref, self.mine[0] if self.mine else 0)
            lost = Lost(message.winner, message.margin_ms) \
                if message.code == "too_late" and message.margin_ms is not None else None
            listener.refused(seat, message.code or "refused", message.reason or "", lost)
        elif isinstance(message, p.Ack):
            self._unanswered.pop(message.ref, None)
            self._refs.pop(message.ref, None)
            if self._pending.pop(message.ref, None) is not None and listener is not None:
                listener.changed([])  # taken, though no event said so: shown as the table's
        elif isinstance(message, p.Error) and listener is not None:
            if message.ref is not None:
                self._unanswered.pop(message.ref, None)
                self._pending.pop(message.ref, None)
            mine = self.mine[0] if self.mine else 0
            seat = self._refs.pop(message.ref, mine) if message.ref is not None else mine
            listener.refused(seat, message.code, message.reason)
        elif isinstance(message, p.Probe) and message.rtt is not None and listener is not None:
            listener.measured(message.rtt)
        elif isinstance(message, p.Notice) and message.code in NOTICES:
            self._notice(message.code)
        elif isinstance(message, p.RematchOffer) and message.previous == self.code:
            self.rematch = (message.code, message.by)
            if listener is not None:
                listener.changed([])

    def _taken(self, events: list[Event]) -> None:
        """Cards of this keyboard the table took (``played`` by one of its seats): no longer
        on their way. The events come before the ``ack``; from them on, the view shows it."""
        for event in events:
            card, seat = getattr(event, "card", None), getattr(event, "seat", None)
            if event.kind != "played" or card is None or seat not in self.mine:
                continue
            for ref, (mine, action) in self._pending.items():
                if mine == seat and getattr(action, "card", None) == card:
                    del self._pending[ref]
                    break

    def _take(self, info: p.TableInfo | None, view: Any, now: int) -> None:
        """Keep the table, its seats and the view, and the clock they are on."""
        if info is not None:
            self._table = info
            if info.rematch is not None and self.rematch is None:
                self.rematch = (info.rematch, "")
            self.rules = game(info.game)
            self.mine = (info.you,) if info.you is not None else ()
            self.creator = info.creator == self.player
            self.seats = tuple(Seat(seat.name or tr("seat_open", self.lang), seat.kind,
                                    seat.connected, seat.ready, seat.lag,
                                    seat.kind == "human" and seat.bot is not None,
                                    seat.stand_in_at,
                                    seat.bot if seat.kind == "human" else None)
                               for seat in info.seats)
        if view is not None:
            self._view = decode_view(self.rules, view)
        self._clock = (now, asyncio.get_running_loop().time())

    def _tell_status(self, text: str) -> None:
        self._status = text
        if self._listener is not None:
            self._listener.status(text)

    def _notice(self, code: str) -> None:
        """The server's ``notice`` in the status line: the store is unavailable (until it is
        back), or back (for ``NOTICE_S`` seconds)."""
        text = tr(f"err_{code}", self.lang)
        self._tell_status(text)
        if code == "store_back":
            asyncio.get_running_loop().call_later(NOTICE_S, self._clear_notice, text)

    def _clear_notice(self, text: str) -> None:
        if self._status == text:
            self._tell_status("")

    # The session ---------------------------------------------------------------------------

    @property
    def options(self) -> dict[str, Any] | None:
        """The table's options as its ``table`` message carries them (``None``: not yet)."""
        return self._table.options if self._table is not None else None

    @property
    def share(self) -> str | None:
        """The table's link as the server makes it (its code is the link's end)."""
        return self._table.link if self._table is not None else None

    def view(self, seat: int | None) -> TableView | None:
        """The last view the server sent (it is always this connection's seat's)."""
        return self._view

    def now(self) -> int:
        """The table time: the server's last ``now`` plus the time since it arrived (table
        time stands still while the table is paused)."""
        now, at = self._clock
        if self._view is not None and self._view.phase is Phase.PAUSED:
            return now
        with contextlib.suppress(RuntimeError):
            return now + int((asyncio.get_running_loop().time() - at) * 1000)
        return now

    def act(self, seat: int, action: Action) -> None:
        """Send the action with a fresh ``ref`` and an id of its own (so a retry after a
        reconnect is applied at most once); its ``ack`` comes back to ``refused``."""
        prefix, count = self._ids
        self._send_act(seat, p.Act(ref=0, action=plain(action), id=f"{prefix}-{next(count)}"),
                       asyncio.get_running_loop().time(),
                       action if getattr(action, "card", None) is not None else None)

    def pending(self, seat: int) -> tuple[Action, ...]:
        """``seat``'s cards on their way, oldest first (sent, not answered, not seen taken)."""
        return tuple(action for mine, action in self._pending.values() if mine == seat)

    def _send_act(self, seat: int, act: p.Act, pressed: float,
                  card: Action | None = None) -> None:
        """Send ``act`` under a fresh ref; ``card``: a play, on its way until answered."""
        self._ref += 1
        act = msgspec.structs.replace(act, ref=self._ref)
        self._refs[self._ref] = seat
        if self._socket is not None:
            self._unanswered[self._ref] = (act.id or "", act, seat, pressed)
        if card is not None:
            self._pending[self._ref] = (seat, card)
        self._post(act, seat)

    def _retry(self) -> None:
        """Back at the table: send the unanswered actions again with their ids, unless they
        were pressed more than :data:`RETRY_WITHIN_S` ago (those are answered "offline")."""
        waiting, self._unanswered = self._unanswered, {}
        now = asyncio.get_running_loop().time()
        for ref, (_, act, seat, pressed) in waiting.items():
            self._refs.pop(ref, None)
            on_way = self._pending.pop(ref, None)
            if now - pressed <= RETRY_WITHIN_S:
                self._send_act(seat, act, pressed, on_way[1] if on_way is not None else None)
            elif self._listener is not None:
                self._listener.refused(seat, "offline", "")

    def ready(self) -> None:
        """The creator starts the match; anybody else says they are ready."""
        self._post(p.Start() if self.creator else p.Ready(ready=True), None)

    def hold(self, reason: str, held: bool) -> bool:
        """A server's table goes on while this keyboard looks away (the others play on)."""
        return False

    def _post(self, message: p.ClientMessage, seat: int | None) -> None:
        socket = self._socket
        if socket is None:
            if isinstance(message, p.Act):
                self._pending.pop(message.ref, None)
            if seat is not None and self._listener is not None:
                self._listener.refused(seat, "offline", "")
            return
        task = asyncio.get_running_loop().create_task(self._send_quietly(socket, message))
        self._sending.add(task)
        task.add_done_callback(self._sending.discard)

    async def _send_quietly(self, socket: ClientConnection, message: p.ClientMessage) -> None:
        with contextlib.suppress(WebSocketException, OSError):
            await self._send(socket, message)

    async def leave(self) -> None:
        """Leave the table for good (Esc back to the lobby): the protocol's ``leave`` first,
        so that the seat is free again before the start and, once the match is on, the
        person is shown as gone at once; then close."""
        socket = self._socket
        if socket is not None and not self.closed:
            with contextlib.suppress(WebSocketException, OSError, TimeoutError):
                await asyncio.wait_for(self._send(socket, p.Leave()), LEAVE_S)
        await self.close()

    async def close(self) -> None:
        """Close the connection; the seat stays ours at the table."""
        self.closed = True
        if self._reader is not None:
            self._reader.cancel()
        if self._socket is not None:
            await self._socket.close()

