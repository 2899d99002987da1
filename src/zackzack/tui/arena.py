"""Arenas in the terminal (``zackzack play --arena LINK``, or ``a`` in a server's lobby): the
standings live, the arena's countdown and one's own status; each table the arena pairs this
keyboard at is played on the same connection, its results shown, then the standings again.

One connection serves it all (docs/protocol.md, *Arenas*): ``arena_join`` shows the arena;
``arena_paired`` names the next table, whose ``table`` message follows; once that match is
over, ``arena_watch`` shows the arena again until the next pairing. A dropped connection is
retried as at a table: back at the table while its match runs, else ``arena_watch`` (which
brings a member back unless they paused themselves).

>>> arena_target("http://localhost:8000/arenas/k7m2qxab", None)
('ws://localhost:8000/ws', 'K7M2QXAB')
>>> arena_target("k7m2qxab", "https://zack.example")
('wss://zack.example/ws', 'K7M2QXAB')
"""

from __future__ import annotations

import asyncio
import contextlib
import re
import time
import urllib.parse
from collections.abc import Callable
from typing import Protocol

from rich.text import Text
from textual import events, on
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.screen import ModalScreen, Screen
from textual.widgets import DataTable, Static
from websockets.asyncio.client import ClientConnection
from websockets.exceptions import WebSocketException

from zackzack.engine.table import Phase
from zackzack.games import entry
from zackzack.server import protocol as p
from zackzack.tui.dialogs import QuitDialog, TooSmall
from zackzack.tui.game_screen import GameScreen
from zackzack.tui.remote import ASK_AGAIN, LEAVE_S, RemoteSession, parse_code
from zackzack.tui.texts import tr

RESULTS_S = 5.0
"""How long a match's results stay before the standings come back by themselves (the server
pairs again a few seconds after a game, ``rest``; Enter goes back at once)."""
TICK_S = 0.5
"""How often the countdown on screen is drawn afresh."""
WATCH_INSTEAD = frozenset({"arena_over", "arena_withdrawn"})
"""Join refusals after which this keyboard watches the arena instead (and says why)."""
REFUSALS = WATCH_INSTEAD | {"no_such_arena", "not_in_arena", "rated_needs_account",
                            "playing_elsewhere"}
"""The arena's refusals of a key the arena screen says (``tui_arena_err_<code>``; those of
:data:`WATCH_INSTEAD` by the status they leave)."""

_LINK = re.compile(r"/arenas/([^/]+)/?")


def arena_target(arena: str, server: str | None) -> tuple[str, str]:
    """The websocket URL and the id of the arena ``--arena`` names: its link
    ``http://HOST:PORT/arenas/ID``, or with ``--server`` its id alone."""
    from zackzack.tui.online import server_url

    if server:
        if "/" in arena:
            raise ValueError("--arena with --server takes the arena's id alone (the link names "
                             "the server already)")
        return server_url(server), parse_code(arena)
    if "/" not in arena:
        raise ValueError(f"--arena {arena}: an arena's id needs --server URL (or give the "
                         "whole link, http://HOST:PORT/arenas/ID)")
    parts = urllib.parse.urlsplit(arena.strip())
    found = _LINK.fullmatch(parts.path)
    if parts.scheme not in ("http", "https") or not parts.netloc or not found:
        raise ValueError(f"an arena's link looks like http://HOST:PORT/arenas/ID, got {arena!r}")
    return server_url(f"{parts.scheme}://{parts.netloc}"), parse_code(found.group(1))


def clock(ms: int) -> str:
    """A countdown as a clock: ``m:ss``, with hours when there are any.

    >>> clock(7_000), clock(754_999), clock(3_725_000), clock(-5)
    ('0:07', '12:35', '1:02:05', '0:00')
    """
    s = max(0, -(-ms // 1000))
    hours, rest = divmod(s, 3600)
    return f"{hours}:{rest // 60:02d}:{rest % 60:02d}" if hours else f"{rest // 60}:{rest % 60:02d}"


def since(now: int, at: float) -> int:
    """A server's wall clock ``now`` (ms) as it stands ``time.monotonic()`` seconds after
    ``at``, when it was said."""
    return now + int((time.monotonic() - at) * 1000)

def games_text(games: list[p.ArenaGame]) -> str:
    """A player's games in order, their points; a doubled game's in brackets (a streak).

    >>> games_text([p.ArenaGame(1, 2, 2, True, False, None),
    ...             p.ArenaGame(1, 2, 4, True, True, "m1"),
    ...             p.ArenaGame(2, 2, 0, False, False, None)])
    '2 [4] 0'
    """
    return " ".join(f"[{g.points}]" if g.doubled else str(g.points) for g in games)


class ArenaNews(Protocol):
    """What an arena session tells its screen."""

    def arena(self) -> None:
        """The arena changed: standings, state, a refusal."""

    def paired(self) -> None:
        """A new table: its first view is here (the session now plays it)."""

    def over(self) -> None:
        """The match at the current table is over (the arena shows again)."""

    def status(self, text: str) -> None:
        """News about the connection (``""``: all is well)."""


class _TableGone(Exception):
    """The arena's table this keyboard went back to after a drop has ended meanwhile."""


class ArenaSession(RemoteSession):
    """This keyboard in an arena: one connection, the arena's news, and each table it is
    paired at in turn (the session of every game screen of the arena: closing one of them
    leaves the connection open; :meth:`shut` closes it)."""

    def __init__(self, url: str, arena: str, name: str, lang: str, *,
                 token: str | None = None) -> None:
        """Arena ``arena`` at the server of websocket ``url``, as the player of ``token``."""
        super().__init__(url, arena, name, lang, token=token)
        self.arena = arena
        self.info: p.ArenaInfo | None = None
        """The arena as last shown (``None``: not yet)."""
        self.at_table = False
        """Whether a table of the arena is this session's (``code`` is then its code)."""
        self.tables = 0
        """How many tables the arena paired this keyboard at so far."""
        self.said = ""
        """The arena's last refusal (``watch_instead``'s, or of a key): its code."""
        self.news: ArenaNews | None = None
        self._awaited: str | None = None
        """The table ``arena_paired`` named, until its ``table`` message comes."""
        self._over_told = False
        self._arena_clock = (0, time.monotonic())

    # The arena ----------------------------------------------------------------------------

    def follow(self, news: ArenaNews) -> None:
        """Read the server's messages (once) and tell ``news`` about the arena from now on."""
        self.news = news
        self.start(self._listener)

    def done(self, listener: object) -> None:
        """``listener`` (a game screen going away) hears nothing more."""
        if self._listener is listener:
            self._listener = None

    def wall(self) -> int:
        """The server's wall clock now (ms): its last ``now`` plus the time since."""
        return since(*self._arena_clock)

    def me(self) -> p.ArenaLine | None:
        """This keyboard's line of the standings (``None``: not a member)."""
        info = self.info
        if info is None or info.you is None:
            return None
        return info.mine or next((line for line in info.standings if line.player == info.you),
                                 None)

    def playing(self) -> bool:
        """Whether a match of the arena is on for this keyboard (not over yet)."""
        view = self._view
        return self.at_table and not self._over_told and (view is None
                                                         or view.phase is not Phase.OVER)

    def pause(self) -> None:
        """Be paired no more until :meth:`come_back` (a game being played still counts)."""
        self._post(p.ArenaPause(id=self.arena), None)

    def come_back(self) -> None:
        """Be paired again (after a pause)."""
        self.said = ""
        self._post(p.ArenaJoin(id=self.arena), None)

    def withdraw(self) -> None:
        """Leave the arena for good (the results stay in the standings)."""
        self._post(p.ArenaWithdraw(id=self.arena), None)

    # Connecting ----------------------------------------------------------------------------

    async def _sit(self) -> None:
        """Hello; back at the table while its match runs, else join (the first time) or
        show the arena (after a drop: a pause of one's own stays)."""
        socket = await self._dial()
        try:
            if self.playing():
                try:
                    await self._send(socket, p.Join(code=self.code))
                    state = await self._expect(socket, p.TableState)
                except _TableGone:
                    self._finished()
                else:
                    self._socket = socket
                    self._take(state.table, state.view, state.now)
                    return
            first = self.info is None
            await self._send(socket, p.ArenaJoin(id=self.arena) if first
                             else p.ArenaWatch(id=self.arena))
            shown = await self._expect(socket, p.ArenaState)
        except BaseException:
            await socket.close()
            raise
        self._socket = socket
        self._shown(shown)

    async def _refused(self, socket: ClientConnection, error: p.Error) -> None:
        """An arena over (or left for good) is watched instead; one that is not there, or
        refuses, is one line; a table gone meanwhile sends this keyboard to the arena."""
        if error.code in WATCH_INSTEAD:
            self.said = error.code
            await self._send(socket, p.ArenaWatch(id=self.arena))
        elif error.code == "no_such_table" and self.at_table:
            raise _TableGone
        elif self.at_table or error.code in ASK_AGAIN:
            await super()._refused(socket, error)
        elif error.code == "no_such_arena":
            raise ValueError(f"there is no arena {self.arena} at {self.server} "
                             "(the id is mistyped, or it is long over)")
        else:
            raise ValueError(f"arena {self.arena} at {self.server}: "
                             f"{' '.join(error.reason.split())} ({error.code})")

    # Reading -------------------------------------------------------------------------------

    def _receive(self, message: p.ServerMessage | None) -> None:
        if isinstance(message, p.ArenaState):
            if message.arena.id == self.arena:
                self._shown(message)
        elif isinstance(message, p.ArenaPaired):
            if message.arena == self.arena:
                self._awaited = message.code
        elif isinstance(message, p.TableState) and message.table.code == self._awaited:
            self._seated(message)
        elif isinstance(message, p.Error) and message.ref is None and message.code in REFUSALS:
            self.said = message.code
            self._tell_arena()
        elif self.at_table and not (isinstance(message, p.TableState)
                                    and message.table.code != self.code):
            super()._receive(message)
            view = self._view
            if view is not None and view.phase is Phase.OVER and not self._over_told:
                self._finished()

    def _shown(self, message: p.ArenaState) -> None:
        self.info = message.arena
        self._arena_clock = (message.now, time.monotonic())
        self._tell_arena()

    def _seated(self, message: p.TableState) -> None:
        """The table the arena paired this keyboard at: the session plays it from now on."""
        self._awaited, self.at_table, self._over_told = None, True, False
        self.code, self.rematch, self.watching_because = message.table.code, None, ""
        self._pending.clear()
        self._unanswered.clear()
        self._refs.clear()
        self.tables += 1
        self._take(message.table, message.view, message.now)
        if self.news is not None:
            self.news.paired()

    def _finished(self) -> None:
        """The match is over (or gone, or left): show the arena again on this connection."""
        self._over_told = True
        self._post(p.ArenaWatch(id=self.arena), None)
        if self.news is not None:
            self.news.over()

    def _tell_arena(self) -> None:
        if self.news is not None:
            self.news.arena()

    def _tell_status(self, text: str) -> None:
        super()._tell_status(text)
        if self.news is not None:
            self.news.status(text)

    # Closing -------------------------------------------------------------------------------

    async def leave(self) -> None:
        """Esc at a table: give its seat up while the match runs, and show the arena again."""
        socket = self._socket
        if self.playing() and socket is not None:
            with contextlib.suppress(WebSocketException, OSError, TimeoutError):
                await asyncio.wait_for(self._send(socket, p.Leave()), LEAVE_S)
        if self.at_table and not self._over_told:
            self._finished()

    async def close(self) -> None:
        """A game screen is done with the table; the arena's connection stays open."""

    async def shut(self) -> None:
        """Close the connection (the server pauses a member whose connection closes)."""
        await super().close()


def _status(line: p.ArenaLine, lang: str) -> str:
    """A line's status in words: playing, waiting, paused or withdrawn."""
    if line.status == "active":
        return tr("tui_arena_st_playing" if line.playing else "tui_arena_st_waiting", lang)
    return tr(f"tui_arena_st_{line.status}", lang)


class ArenaScreen(Screen[None]):
    """An arena: its state and countdown, one's own status, the standings (the podium once
    over); ``p`` pauses and comes back, ``w`` withdraws (asks first), Esc or ``q`` leaves.
    The tables the arena pairs this keyboard at come on top of it, one after another."""

    DEFAULT_CSS = """
    ArenaScreen { layers: base cover; padding: 0 1; }
    ArenaScreen > #arena_head { height: auto; text-style: bold; }
    ArenaScreen > #arena_podium { height: auto; margin-top: 1; }
    ArenaScreen > #arena_you { height: auto; margin: 1 0; }
    ArenaScreen > DataTable { height: 1fr; }
    ArenaScreen > #arena_legend { height: auto; color: $text-muted; }
    ArenaScreen > #arena_note { height: auto; }
    ArenaScreen > #arena_keys { height: 1; background: $primary-background; padding: 0 1; }
    """

    def __init__(self, session: ArenaSession, lang: str, layout: str | None = None, *,
                 back: bool = False) -> None:
        """``layout``: the keyboard's, for the tables' keys; ``back``: Esc goes back to the
        screen below (the lobby) instead of quitting."""
        super().__init__()
        self.session, self.lang, self.keyboard, self.back = session, lang, layout, back
        self.connection = ""
        self.shown_tables = 0
        """The tables put on screen so far (``session.tables`` when the latest is shown)."""

    def compose(self) -> ComposeResult:
        """Head, podium, one's own status, the standings, the legend, notes, the keys."""
        yield Static(id="arena_head")
        yield Static(id="arena_podium")
        yield Static(id="arena_you")
        table: DataTable[Text] = DataTable(cursor_type="none", zebra_stripes=True)
        for key in ("rank", "name", "score", "fire", "games", "status"):
            table.add_column(tr(f"tui_arena_c_{key}", self.lang), key=key)
        yield table
        yield Static(tr("tui_arena_legend", self.lang), id="arena_legend")
        yield Static(id="arena_note")
        yield Static(id="arena_keys")
        yield TooSmall(self.lang)

    def on_mount(self) -> None:
        """Listen to the arena and count down; a table paired before this showed comes now."""
        self.session.follow(self)
        self.set_interval(TICK_S, self.show_head)
        self.arena()
        if self.session.tables > self.shown_tables and self.session.playing():
            self.call_later(self.paired)

    async def on_unmount(self) -> None:
        """Close the connection: the server pauses this member until they come back."""
        await self.session.shut()

    # The session's news --------------------------------------------------------------------

    def arena(self) -> None:
        """Draw everything from the arena as last shown."""
        if not self.is_mounted:
            return
        self.show_head()
        self._fill()
        self._you()

    def paired(self) -> None:
        """A new table: its game screen on top (over the last one's results, if showing)."""
        if not self.is_mounted or self not in self.app.screen_stack:
            return
        self.shown_tables = self.session.tables
        while self.app.screen is not self:
            self.session.done(self.app.screen)
            self.app.pop_screen()
        self.app.push_screen(ArenaGameScreen(self.session, self.lang, self.keyboard,
                                             self.standings))

    def over(self) -> None:
        """The match is over: its results show, then (after :data:`RESULTS_S`) the standings."""
        if not self.is_mounted:
            return
        code = self.session.code
        self.app.set_timer(RESULTS_S, lambda: self.standings(code))

    def status(self, text: str) -> None:
        """Connection news under the standings."""
        self.connection = text
        if self.is_mounted:
            self._you()

    def standings(self, code: str | None = None) -> None:
        """Back from a table's results to the standings (``code``: only from that table's)."""
        top = self.app.screen
        if isinstance(top, ArenaGameScreen) and (code is None or top.table == code) \
                and not self.session.playing():
            self.session.done(top)
            self.app.pop_screen()

    # Drawing -------------------------------------------------------------------------------

    def show_head(self) -> None:
        """The arena's name, game, tables, rated or not, and its state with the countdown."""
        info = self.session.info
        if info is None or not self.is_mounted:
            return
        lang, now = self.lang, self.session.wall()
        parts = [info.title or entry(info.game).title, tr(f"g_{info.game}", lang),
                 tr("tui_arena_seats", lang, n=info.seats),
                 tr("tui_arena_rated" if info.rated else "tui_arena_casual", lang)]
        if info.state == "upcoming":
            state = tr("tui_arena_starts_in", lang, t=clock(info.start - now))
        elif info.state == "running" and now < info.end:
            state = tr("tui_arena_ends_in", lang, t=clock(info.end - now))
        else:
            state = tr("tui_arena_over" if info.state == "over" else "tui_arena_last", lang)
        head = Text(" · ".join(parts))
        head.append(f"   {state}", style="reverse")
        self.query_one("#arena_head", Static).update(head)

    def _fill(self) -> None:
        info = self.session.info
        table: DataTable[Text] = self.query_one(DataTable)
        table.clear()
        if info is None:
            return
        for line in info.standings:
            mine = line.player == info.you
            style = "bold" if mine else ""
            table.add_row(Text(f"{'▸' if mine else ' '} {line.rank}.", style=style),
                          Text(line.name, style=style),
                          Text(str(line.score), style=style, justify="right"),
                          Text("×2" if line.on_fire else "", style="bold"),
                          Text(games_text(line.games)), Text(_status(line, self.lang)),
                          key=line.player)
        podium = self.query_one("#arena_podium", Static)
        podium.display = info.state == "over"
        if info.state == "over":
            placed = [line for line in info.standings if line.games][:3]
            text = Text(tr("tui_arena_podium", self.lang), style="bold")
            for line in placed:
                text.append(f"\n  {line.rank}. {line.name} · "
                            + tr("tui_arena_points", self.lang, n=line.score),
                            style="bold" if line.rank == 1 else "")
            if not placed:
                text.append("\n  " + tr("tui_arena_no_games", self.lang), style="italic")
            podium.update(text)

    def _you(self) -> None:
        """One's own place and status, the keys that apply, and any note."""
        info, lang, me = self.session.info, self.lang, self.session.me()
        over = info is not None and info.state == "over"
        if me is None:
            key = f"tui_arena_you_{self.session.said}" if self.session.said in WATCH_INSTEAD \
                else "tui_arena_you_watching"
            you = Text(tr(key, lang), style="italic")
        else:
            you = Text(tr("tui_arena_you_rank", lang, rank=me.rank, n=me.score), style="bold")
            if me.on_fire:
                you.append(" · " + tr("tui_arena_you_fire", lang), style="bold")
            if me.status != "active":
                state = f"tui_arena_you_{me.status}"
            elif over:
                state = "tui_arena_you_done"
            elif me.playing:
                state = "tui_arena_you_playing"
            else:
                state = "tui_arena_you_waiting" if info is not None and \
                    info.state == "running" else "tui_arena_you_soon"
            you.append("\n" + tr(state, lang, code=me.playing or ""))
        self.query_one("#arena_you", Static).update(you)
        note = Text(self.connection, style="italic")
        if self.session.said and self.session.said not in WATCH_INSTEAD:
            note = Text(tr(f"tui_arena_err_{self.session.said}", lang), style="bold")
        self.query_one("#arena_note", Static).update(note)
        keys = []
        if me is not None and not over and me.status != "withdrawn":
            keys += [tr("tui_arena_k_back" if me.status == "paused" else "tui_arena_k_pause",
                        lang), tr("tui_arena_k_withdraw", lang)]
        keys.append(tr("tui_arena_k_esc_lobby" if self.back else "tui_arena_k_esc", lang))
        self.query_one("#arena_keys", Static).update(Text(" · ".join(keys)))

    # Keys ----------------------------------------------------------------------------------

    def on_key(self, event: events.Key) -> None:
        """``p`` pauses or comes back, ``w`` withdraws (asks first), Esc goes back (or
        quits), ``q`` quits."""
        me = self.session.me()
        open_ = me is not None and me.status != "withdrawn" and self.session.info is not None \
            and self.session.info.state != "over"
        if event.key == "p" and open_ and me is not None:
            event.stop()
            if me.status == "paused":
                self.session.come_back()
            else:
                self.session.pause()
        elif event.key == "w" and open_:
            event.stop()
            self.app.push_screen(QuitDialog(self.lang, "tui_arena_withdraw_ask"), self._withdraw)
        elif event.key == "escape":
            event.stop()
            self.dismiss(None)
        elif event.key == "q":
            event.stop()
            self.app.exit()

    def _withdraw(self, yes: bool | None) -> None:
        if yes:
            self.session.withdraw()

    def plain(self) -> str:
        """Everything shown, as plain text (the head, podium, status, standings, keys)."""
        table: DataTable[Text] = self.query_one(DataTable)
        lines = [str(self.query_one(f"#arena_{name}", Static).render())
                 for name in ("head", "podium", "you")]
        lines.append("  ".join(str(column.label) for column in table.columns.values()))
        lines += ["  ".join(str(cell) for cell in table.get_row_at(row))
                  for row in range(table.row_count)]
        lines += [str(self.query_one(f"#arena_{name}", Static).render())
                  for name in ("legend", "note", "keys")]
        return "\n".join(lines)


class ArenaGameScreen(GameScreen):
    """A table of an arena: after the match, Enter (or Esc) goes back to the standings."""

    def __init__(self, session: ArenaSession, lang: str, layout: str | None,
                 standings: Callable[[], None]) -> None:
        super().__init__(session, lang, standings, layout)
        self.table = session.code
        """The code of this screen's table (the session goes on to the next)."""
        self.arena = session

    async def on_unmount(self) -> None:
        """Hear no more of the session (its next table has a screen of its own)."""
        self.arena.done(self)
        await super().on_unmount()

    def _end(self) -> str:
        return tr("tui_arena_end", self.lang, s=f"{RESULTS_S:g}")

    def _esc(self) -> str:
        return tr("tui_arena_esc", self.lang)


class ArenaListScreen(ModalScreen[str | None]):
    """The public arenas a server's lobby lists, with their countdowns: Enter joins the
    chosen one (its id), Esc goes back to the lobby."""

    DEFAULT_CSS = """
    ArenaListScreen { align: center middle; }
    ArenaListScreen > Vertical { width: 90%; height: 80%; border: round $accent;
                                 padding: 0 1; background: $surface;
                                 border-title-style: bold; }
    ArenaListScreen DataTable { height: 1fr; }
    ArenaListScreen .hint { color: $text-muted; height: auto; }
    """

    def __init__(self, lang: str, listed: Callable[[], tuple[list[p.ArenaEntry], int]]) -> None:
        """``listed``: the lobby's arenas now, and the server's wall clock they came with
        (ms, as the local monotonic clock continues it)."""
        super().__init__()
        self.lang, self.listed = lang, listed

    def compose(self) -> ComposeResult:
        """The list and the keys."""
        with Vertical() as box:
            box.border_title = tr("tui_arena_list_title", self.lang)
            table: DataTable[str] = DataTable(cursor_type="row", zebra_stripes=True)
            for key in ("title", "game", "seats", "state", "players"):
                table.add_column(tr(f"tui_arena_l_{key}", self.lang), key=key)
            yield table
            yield Static(id="arena_list_hint", classes="hint")

    def on_mount(self) -> None:
        """List the arenas and keep their countdowns running."""
        self.set_interval(TICK_S, self.fill)
        self.fill()

    def fill(self) -> None:
        """The arenas as listed now (the cursor stays on the chosen one)."""
        arenas, now = self.listed()
        table: DataTable[str] = self.query_one(DataTable)
        chosen = self.chosen()
        table.clear()
        for arena in arenas:
            if arena.state == "upcoming":
                state = tr("tui_arena_starts_in", self.lang, t=clock(arena.start - now))
            elif arena.state == "running":
                state = tr("tui_arena_ends_in", self.lang, t=clock(arena.end - now))
            else:
                state = tr("tui_arena_over", self.lang)
            table.add_row(arena.title, tr(f"g_{arena.game}", self.lang),
                          tr("tui_arena_seats", self.lang, n=arena.seats), state,
                          str(arena.players), key=arena.id)
        ids = [arena.id for arena in arenas]
        if chosen in ids:
            table.move_cursor(row=ids.index(chosen))
        self.query_one("#arena_list_hint", Static).update(
            tr("tui_arena_list_hint" if arenas else "tui_arena_list_empty", self.lang))

    def chosen(self) -> str | None:
        """The id of the arena under the cursor (``None``: the list is empty)."""
        table: DataTable[str] = self.query_one(DataTable)
        if not table.row_count:
            return None
        return str(table.coordinate_to_cell_key(table.cursor_coordinate).row_key.value)

    @on(DataTable.RowSelected)
    def join(self) -> None:
        """Enter: join the chosen arena."""
        arena = self.chosen()
        if arena is not None:
            self.dismiss(arena)

    def on_key(self, event: events.Key) -> None:
        """Esc goes back to the lobby."""
        if event.key == "escape":
            event.stop()
            self.dismiss(None)

