"""Online from the terminal (``zackzack play --server URL``): the lobby's open tables, live,
and a form that creates a table; either answers with the session maker of the chosen table.
``a`` lists the server's arenas (``tui/arena.py``): the chosen one shows over the lobby.

The lobby keeps its own connection (``lobby`` messages, docs/protocol.md); the game then
connects as the same player (the lobby's token), so rematches and reconnects find the seat.
``--user NAME`` signs in first (``POST /api/account/sign-in``) and plays with that token.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar

import msgspec
from rich.text import Text
from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen, Screen
from textual.widgets import Button, Checkbox, DataTable, Input, Label, RadioSet, Static
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import WebSocketException
from websockets.typing import Origin

from zackzack.bots import parse_bot
from zackzack.games import REGISTRY, registered
from zackzack.server import protocol as p
from zackzack.tui.arena import ArenaListScreen, ArenaScreen, ArenaSession, since
from zackzack.tui.dialogs import TooSmall
from zackzack.tui.remote import RemoteSession, parse_code, seat_maker, why
from zackzack.tui.setup import SetupError
from zackzack.tui.texts import bot_spec, tr
from zackzack.tui.toggles import Choice, Field, Tick

SessionMaker = Callable[[], RemoteSession]

_decoder = msgspec.json.Decoder(p.ServerMessage)
_encoder = msgspec.json.Encoder()


def server_url(link: str) -> str:
    """The websocket URL of a server's address ``http://HOST:PORT``.

    >>> server_url("https://zack.example/"), server_url("http://[::1]:8000")
    ('wss://zack.example/ws', 'ws://[::1]:8000/ws')
    """
    return "ws" + http_base(link).removeprefix("http") + "/ws"


def http_base(link: str) -> str:
    """The ``http(s)://HOST:PORT`` of a server's address or of a table link.

    >>> http_base("https://zack.example/t/ABCDEF"), http_base("http://[::1]:8000/")
    ('https://zack.example', 'http://[::1]:8000')
    """
    parts = urllib.parse.urlsplit(link.strip())
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise ValueError(f"a server's address looks like http://HOST:PORT, got {link!r}")
    return f"{parts.scheme}://{parts.netloc}"


SIGN_IN_TIMEOUT_S = 20.0


@dataclass(frozen=True, slots=True)
class Account:
    """Who signed in: the public id, the claimed name, and this device's new token."""

    player: str
    name: str
    token: str


def sign_in_now(server: str, name: str, password: str,
                timeout: float = SIGN_IN_TIMEOUT_S) -> Account:
    """Sign in at ``server`` (``http://HOST:PORT``) as ``name``; any refusal or failure is a
    ``ValueError`` of one line (blocking: see :func:`sign_in`)."""
    request = urllib.request.Request(
        f"{http_base(server)}/api/account/sign-in", method="POST",
        data=json.dumps({"name": name, "password": password}).encode(),
        headers={"Content-Type": "application/json", "Accept": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            data: Any = json.loads(response.read())
        return Account(str(data["player"]), str(data["name"]), str(data["token"]))
    except urllib.error.HTTPError as error:
        body: Any = None
        with contextlib.suppress(ValueError, OSError):
            body = json.loads(error.read())
        if isinstance(body, dict) and "reason" in body:
            raise ValueError(f"cannot sign in as {name!r}: {body['reason']} "
                             f"({body.get('error', error.code)})") from None
        raise ValueError(f"cannot sign in as {name!r}: the server answered HTTP {error.code} "
                         "(not a zackzack server with accounts?)") from None
    except (urllib.error.URLError, OSError) as error:
        reason = error.reason if isinstance(error, urllib.error.URLError) else error
        text = why(reason) if isinstance(reason, BaseException) else str(reason)
        raise ValueError(f"cannot reach the server at {http_base(server)}: {text}") from None
    except (KeyError, TypeError, ValueError):
        raise ValueError(f"cannot sign in as {name!r}: the server's answer is not an "
                         "account (not a zackzack server?)") from None


async def sign_in(server: str, name: str, password: str) -> Account:
    """:func:`sign_in_now` in a worker thread, so that the event loop runs on meanwhile."""
    return await asyncio.to_thread(sign_in_now, server, name, password)


class LobbyClient:
    """The server's list of open tables, kept up to date over a connection of its own."""

    def __init__(self, url: str, name: str, token: str | None = None) -> None:
        """The lobby at websocket ``url``; ``token``: say hello as that player (signed in)."""
        self.url, self.name = url, name
        self.token: str | None = token
        self.tables: list[p.LobbyTable] = []
        self.online = 0
        """People connected to the server (to every server of a cluster; 0: not said)."""
        self.arenas: list[p.ArenaEntry] = []
        """The public arenas to come, running or just over."""
        self.wall = (0, time.monotonic())
        """The server's wall clock (ms) with the lobby's last list, and when that came."""
        self.changed: Callable[[], None] = lambda: None
        """Called after each new list."""
        self._socket: ClientConnection | None = None
        self._reader: asyncio.Task[None] | None = None

    @property
    def opened(self) -> bool:
        """Whether the connection is made."""
        return self._socket is not None

    async def open(self) -> None:
        """Connect, say hello, ask for the lobby; raises ``ValueError`` (one line) on failure."""
        netloc = urllib.parse.urlsplit(self.url).netloc
        origin = Origin(("https" if self.url.startswith("wss") else "http") + "://" + netloc)
        try:
            socket = await connect(self.url, origin=origin, open_timeout=10)
            await socket.send(_encoder.encode(p.Hello(token=self.token, name=self.name))
                              .decode())
            await socket.send(_encoder.encode(p.WatchLobby()).decode())
        except (OSError, WebSocketException, TimeoutError) as error:
            server = self.url.replace("ws", "http", 1).removesuffix("/ws")
            raise ValueError(f"cannot reach the server at {server}: {why(error)}") from None
        self._socket = socket
        self._reader = asyncio.get_running_loop().create_task(self._read(socket))

    async def _read(self, socket: ClientConnection) -> None:
        with contextlib.suppress(WebSocketException, OSError):
            async for text in socket:
                try:
                    message = _decoder.decode(text)
                except (msgspec.DecodeError, msgspec.ValidationError):
                    continue
                if isinstance(message, p.Welcome):
                    self.token = message.token
                elif isinstance(message, p.LobbyList):
                    self.tables = [t for t in message.tables if t.phase == "waiting"]
                    self.online = message.online
                    self.arenas, self.wall = message.arenas, (message.now, time.monotonic())
                    self.changed()

    async def close(self) -> None:
        """Close the lobby's connection."""
        if self._reader is not None:
            self._reader.cancel()
        if self._socket is not None:
            await self._socket.close()


def _seats(table: p.LobbyTable, lang: str) -> str:
    """``2/4`` seats taken; a full table says Enter watches it."""
    taken = sum(seat.kind != "open" for seat in table.seats)
    full = f" · {tr('lobby_full', lang)}" if taken == len(table.seats) else ""
    return f"{taken}/{len(table.seats)}{full}"


class LobbyScreen(Screen[SessionMaker | None]):
    """The open tables, live; Enter joins the chosen one, ``n`` makes a new one, Esc leaves."""

    DEFAULT_CSS = """
    LobbyScreen { layers: base cover; padding: 1 2; }
    LobbyScreen > #lobby_title { text-style: bold; height: 2; }
    LobbyScreen > DataTable { height: 1fr; }
    LobbyScreen > #lobby_hint { height: auto; margin-top: 1; color: $text-muted; }
    """

    def __init__(self, server: str, name: str, lang: str,
                 client: LobbyClient | None = None) -> None:
        """The lobby of ``server`` (``http://HOST:PORT``); ``client``: connected already."""
        super().__init__()
        self.server, self.url, self.lang = server, server_url(server), lang
        self.player_name = name
        self.client = client or LobbyClient(self.url, name)

    def compose(self) -> ComposeResult:
        """Title, the tables, the keys."""
        yield Static(tr("lobby_title", self.lang, server=self.server), id="lobby_title")
        table: DataTable[str] = DataTable(cursor_type="row", zebra_stripes=True)
        for key in ("l_code", "l_game", "l_title", "l_seats"):
            table.add_column(tr(key, self.lang), key=key)
        yield table
        yield Static(tr("lobby_hint", self.lang), id="lobby_hint")
        yield TooSmall(self.lang)

    def afresh(self) -> LobbyScreen:
        """This lobby again, on a new connection as the same player (this one was left)."""
        return LobbyScreen(self.server, self.player_name, self.lang,
                           LobbyClient(self.url, self.player_name, self.client.token))

    async def on_mount(self) -> None:
        """Connect (unless connected already) and list the tables as they come."""
        self.client.changed = self._list
        self._list()
        if self.client.opened:
            return
        try:
            await self.client.open()
        except ValueError as error:
            self.query_one("#lobby_title", Static).update(Text(str(error), style="bold red"))

    async def on_unmount(self) -> None:
        """Close the lobby's connection."""
        await self.client.close()

    def _list(self) -> None:
        table = self.query_one(DataTable)
        chosen = self._chosen()
        title = tr("lobby_title", self.lang, server=self.server)
        if self.client.online:
            title += " · " + tr("lobby_online", self.lang, n=str(self.client.online))
        self.query_one("#lobby_title", Static).update(title)
        table.clear()
        for entry in self.client.tables:
            table.add_row(entry.code, tr("g_" + entry.game, self.lang), entry.title,
                          _seats(entry, self.lang), key=entry.code)
        hint = tr("lobby_hint" if self.client.tables else "lobby_empty", self.lang)
        self.query_one("#lobby_hint", Static).update(
            f"{tr('tui_arena_lobby_key', self.lang)} · {hint}")
        codes = [entry.code for entry in self.client.tables]
        if chosen in codes:
            table.move_cursor(row=codes.index(chosen))

    def _chosen(self) -> str | None:
        table = self.query_one(DataTable)
        if not table.row_count:
            return None
        return str(table.get_row_at(table.cursor_row)[0])

    @on(DataTable.RowSelected)
    def join(self) -> None:
        """Enter: sit at the chosen table."""
        code = self._chosen()
        if code is not None:
            self.dismiss(seat_maker(self.url, code, self.player_name, self.lang,
                                    token=self.client.token))

    def on_key(self, event: events.Key) -> None:
        """``n`` creates a table, ``j`` joins one by its code, ``a`` lists the arenas, Esc
        leaves."""
        if event.key == "a":
            event.stop()
            self._arenas()
        elif event.key == "n":
            event.stop()
            self.app.push_screen(CreateScreen(self.lang), self._created)
        elif event.key == "j":
            event.stop()
            self.app.push_screen(CodeScreen(self.lang), self._coded)
        elif event.key == "escape":
            event.stop()
            self.dismiss(None)

    def _arenas(self) -> None:
        """The arenas, live; the chosen one is joined, and shown over this lobby."""
        client = self.client
        self.app.push_screen(ArenaListScreen(self.lang,
                                             lambda: (client.arenas, since(*client.wall))),
                             self._arena)

    def _arena(self, arena: str | None) -> None:
        if arena is not None:
            self.run_worker(self._join_arena(arena), exclusive=True)

    async def _join_arena(self, arena: str) -> None:
        session = ArenaSession(self.url, arena, self.player_name, self.lang,
                               token=self.client.token)
        try:
            await session.open()
        except ValueError as error:
            self.query_one("#lobby_title", Static).update(Text(str(error), style="bold red"))
            return
        self.app.push_screen(ArenaScreen(session, self.lang, getattr(self.app, "layout", None),
                                         back=True))

    def _coded(self, code: str | None) -> None:
        if code is not None:
            self.dismiss(seat_maker(self.url, code, self.player_name, self.lang,
                                    token=self.client.token))

    def _created(self, create: p.Create | None) -> None:
        if create is not None:
            self.dismiss(seat_maker(self.url, "", self.player_name, self.lang,
                                    token=self.client.token, create=create))


class CodeScreen(ModalScreen[str | None]):
    """A table's code, as its waiting room shows it (a private table is not in the list):
    Enter joins it, Esc goes back to the lobby."""

    DEFAULT_CSS = """
    CodeScreen { align: center middle; }
    CodeScreen > Vertical { width: 60; height: auto; border: round $accent; padding: 0 2;
                            background: $surface; border-title-style: bold; }
    CodeScreen .hint { color: $text-muted; }
    CodeScreen #code_error { color: $error; text-style: bold; height: auto; }
    """

    def __init__(self, lang: str) -> None:
        super().__init__()
        self.lang = lang

    def compose(self) -> ComposeResult:
        """The code field."""
        with Vertical() as form:
            form.border_title = tr("code_title", self.lang)
            yield Field(placeholder=tr("code_example", self.lang), id="code")
            yield Static(id="code_error")
            yield Static(tr("code_hint", self.lang), classes="hint")

    @on(Input.Submitted)
    def join(self) -> None:
        """Enter: join the table of the code typed, or say what is wrong with it."""
        try:
            code = parse_code(self.query_one("#code", Input).value)
        except ValueError:
            self.query_one("#code_error", Static).update(tr("code_bad", self.lang))
            return
        self.dismiss(code)

    def on_key(self, event: events.Key) -> None:
        """Esc goes back to the lobby."""
        if event.key == "escape":
            event.stop()
            self.dismiss(None)


class CreateScreen(ModalScreen[p.Create | None]):
    """A new table: the game, the other seats (a bot each, or ``open`` for a person), private."""

    DEFAULT_CSS = """
    CreateScreen { align: center middle; }
    CreateScreen > Vertical { width: 72; height: auto; border: round $accent; padding: 0 2;
                              background: $surface; border-title-style: bold; }
    CreateScreen Label { margin-top: 1; text-style: bold; }
    CreateScreen RadioSet { layout: horizontal; width: auto; }
    CreateScreen RadioButton { width: auto; margin-right: 3; }
    CreateScreen .hint { color: $text-muted; }
    CreateScreen #create_error { color: $error; text-style: bold; height: auto; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [Binding("enter", "create", priority=True)]
    """Enter creates from any field (Space chooses the game and ticks "private")."""

    def __init__(self, lang: str) -> None:
        super().__init__()
        self.lang = lang

    def action_create(self) -> None:
        """Enter: create the table."""
        self.create()

    def compose(self) -> ComposeResult:
        """The form."""
        with Vertical() as form:
            form.border_title = tr("create_title", self.lang)
            yield Label(tr("game", self.lang))
            with RadioSet(id="create_game", compact=True):
                for i, found in enumerate(registered()):
                    yield Choice(found.title, value=i == 0)
            yield Label(tr("create_seats", self.lang))
            yield Field(f"{tr('seat_open', self.lang)},normal", id="create_seats")
            yield Static(tr("create_seats_hint", self.lang), classes="hint")
            yield Tick(tr("create_private", self.lang), id="create_private", compact=True)
            yield Static(id="create_error")
            yield Button(tr("create_button", self.lang), variant="primary", id="create_go",
                         compact=True)
            yield Static(tr("create_hint", self.lang), classes="hint")

    @on(Button.Pressed, "#create_go")
    @on(Input.Submitted)
    def create(self) -> None:
        """Check the seats and answer with the ``create`` message, or say what is wrong."""
        game = registered()[self.query_one("#create_game", RadioSet).pressed_index].name
        items = [item.strip() for item in self.query_one("#create_seats", Input).value.split(",")
                 if item.strip()]
        seats = [p.SeatSpec(kind="open")]  # this keyboard's
        try:
            for item in items:
                if item.lower() in ("open", tr("seat_open", self.lang).lower()):
                    seats.append(p.SeatSpec(kind="open"))
                else:
                    bot = str(parse_bot(bot_spec(item, self.lang)))
                    seats.append(p.SeatSpec(kind="bot", bot=bot))
        except ValueError:
            self.query_one("#create_error", Static).update(tr("e_seat", self.lang, item=item))
            return
        info = REGISTRY[game].info
        if not info.min_players <= len(seats) <= info.max_players:
            low, high = info.min_players, info.max_players
            players = f"{low} to {high}" if low < high else str(low)
            error = SetupError(f"{info.title} is for {players} players, not {len(seats)}",
                               "e_seats", game=info.title, low=str(low), high=str(high),
                               n=str(len(seats)))
            self.query_one("#create_error", Static).update(error.say(self.lang))
            return
        self.dismiss(p.Create(game=game, seats=seats,
                              private=self.query_one("#create_private", Checkbox).value))

    def on_key(self, event: events.Key) -> None:
        """Esc goes back to the lobby."""
        if event.key == "escape":
            event.stop()
            self.dismiss(None)
