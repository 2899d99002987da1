"""Arenas in the terminal (issue 34): ``--arena LINK`` joins, the arena pairs the keyboard at
a table of a real in-process server, the match is played by keys against a browser-like
client, its results show and then the standings again; the podium at the end; pause, come
back and withdraw by keys; the lobby lists the arenas."""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

import pytest
from websockets.asyncio.client import connect

from tui.kit import play_out, screenshot, shown, until, us_keys
from tui.test_remote import Host, autoplay, until_true
from tui.test_remote import server as server  # the fixture: a real server on a free port
from zackzack.cli import parser
from zackzack.engine.table import Phase
from zackzack.games.unter_spannung.board import UsBoard
from zackzack.server.arenas import Hall
from zackzack.tui.app import PlayApp
from zackzack.tui.arena import (
    ArenaGameScreen,
    ArenaListScreen,
    ArenaScreen,
    ArenaSession,
    arena_target,
)
from zackzack.tui.cli import play, sessions
from zackzack.tui.dialogs import QuitDialog
from zackzack.tui.online import LobbyScreen

pytestmark = pytest.mark.wallclock  # a real server on this machine, its arenas' own timers


@pytest.fixture
def shift(monkeypatch: pytest.MonkeyPatch) -> list[float]:
    """Seconds added to the arenas' wall clock (the test moves an arena to its end)."""
    moved = [0.0]
    wall = Hall.wall
    monkeypatch.setattr(Hall, "wall", lambda self: wall(self) + moved[0])
    return moved


async def _arena(host: Host, start_in: int = 0) -> dict[str, Any]:
    """The host makes a casual two-seat Unter Spannung arena of ten minutes; its info."""
    await host.send(type="hello", token=None, name="Host")
    await host.send(type="arena_create", game="unter-spannung", seats=2, minutes=10,
                    start_in=start_in, rated=False, private=False, title="Evening")
    await until_true(lambda: host.last("arena") is not None)
    info: dict[str, Any] = host.last("arena")["arena"]  # type: ignore[index]
    return info


async def opponent(guest: Host) -> None:
    """A browser in the arena that plays like a slow beginner at each table it is seated at."""
    code, playing = None, None
    try:
        while True:
            await asyncio.sleep(0.1)
            table = guest.last("table")
            if table is not None and table["table"]["code"] != code \
                    and table["table"]["you"] is not None:
                if playing is not None:
                    playing.cancel()
                code = table["table"]["code"]
                playing = asyncio.create_task(autoplay(guest, table["table"]["you"]))
    finally:
        if playing is not None:
            playing.cancel()


def _line(session: ArenaSession, name: str) -> Any:
    info = session.info
    return next((line for line in info.standings if line.name == name), None) \
        if info is not None else None


def _phase(session: ArenaSession) -> Phase | None:
    view = session.view(None)
    return view.phase if view is not None else None


async def _board(pilot: Any, app: PlayApp) -> UsBoard:
    """The board of the table on screen, once it is there."""
    await until(pilot, lambda: bool(app.screen.query(UsBoard)))
    return app.screen.query_one(UsBoard)


def _screen(app: PlayApp) -> ArenaScreen:
    screen = app.screen
    assert isinstance(screen, ArenaScreen)
    return screen


async def test_the_terminal_joins_an_arena_plays_its_tables_and_sees_standings_and_podium(
        server: str, shift: list[float]) -> None:
    async with contextlib.AsyncExitStack() as stack:
        url = server.replace("http", "ws") + "/ws"
        host = Host(await stack.enter_async_context(connect(url)))
        info = await _arena(host)
        others = []  # three more players: never the same opponent twice in a row
        for name in ("Anna", "Ben", "Cleo"):
            other = Host(await stack.enter_async_context(connect(url)))
            await other.send(type="hello", token=None, name=name)
            await other.send(type="arena_join", id=info["id"])
            others.append((other, asyncio.create_task(opponent(other))))
        link = server + info["link"]
        args = parser().parse_args(["play", "--arena", link, "--name", "Tui"])
        assert sessions(args, "en") is None  # the arena is opened by ``play``, not a maker
        session = ArenaSession(*arena_target(link, None), "Tui", "en")
        await session.open()
        app = PlayApp("en", None, lobby=ArenaScreen(session, "en"))
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: isinstance(app.screen, ArenaGameScreen)
                        or (isinstance(app.screen, ArenaScreen)
                            and "Cleo" in _screen(app).plain()))
            if isinstance(app.screen, ArenaScreen):  # (a busy machine may have paired already)
                standings = _screen(app).plain()
                assert "Evening · Unter Spannung · 2 at a table · casual" in standings
                assert "ends in 9:" in standings or "ends in 10:00" in standings
                assert "▸ " in standings and "p: pause · w: withdraw · Esc, q: quit" in standings
                screenshot(app, "arena_standings_first")
            await until(pilot, lambda: isinstance(app.screen, ArenaGameScreen), timeout=20)
            assert session.tables == 1 and session.mine != ()
            board = await _board(pilot, app)
            await until(pilot, lambda: _phase(session) is Phase.PLAYING)
            await play_out(pilot, lambda: session.view(None), us_keys(board))
            await until(pilot, lambda: "Match over" in shown(app, "#results"))
            assert "Enter: the standings (by themselves in 5 s)" in shown(app, "#results")
            assert "Esc: back to the standings" in shown(app, "#keys")
            screenshot(app, "arena_results")
            await pilot.press("enter")
            await until(pilot, lambda: isinstance(app.screen, ArenaScreen)
                        or session.tables > 1)  # the next pairing may come first
            # the standings between games: the first game scored (2 a win, 1 a draw, 0)
            await until(pilot, lambda: len(_line(session, "Tui").games) >= 1, timeout=20)
            tui = _line(session, "Tui")
            assert tui.games[0].points in (0, 1, 2) and tui.games[0].win == (
                tui.games[0].points == 2) and not tui.games[0].doubled
            if isinstance(app.screen, ArenaScreen):
                await until(pilot, lambda: "You: rank" in _screen(app).plain())
                assert f"{tui.score} points" in _screen(app).plain()
                screenshot(app, "arena_standings_between")
            # paired again: never with the same opponent, so once the other table's slow
            # players have finished (a minute on a busy machine) and rested their 8 s
            await until(pilot, lambda: session.tables >= 2, timeout=90)
            await until(pilot, lambda: isinstance(app.screen, ArenaGameScreen)
                        and app.screen.table == session.code)
            shift[0] = 600.0  # the arena's ten minutes are up: no table after this one
            while session.playing():
                board = await _board(pilot, app)
                await play_out(pilot, lambda: session.view(None), us_keys(board))
            # the results, then the standings by themselves, then the podium once it is over
            await until(pilot, lambda: isinstance(app.screen, ArenaScreen), timeout=20)
            # the other table's slow players finish their last game: then it is over
            await until(pilot, lambda: "The podium" in _screen(app).plain(), timeout=90)
            text = _screen(app).plain()
            assert "over" in text and "The arena is over." in text
            assert "p: pause" not in text and "Esc, q: quit" in text
            placed = [line for line in session.info.standings if line.games]  # type: ignore[union-attr]
            assert len(placed) == 4
            for line in placed[:3]:
                assert f"{line.rank}. {line.name} · {line.score} points" in text
            assert f"{placed[3].name} ·" not in text
            screenshot(app, "arena_podium")
            await pilot.press("q")
        for other, playing in others:
            playing.cancel()
            other.reader.cancel()
        host.reader.cancel()


async def test_pause_come_back_and_withdraw_by_keys_in_german_from_the_lobbys_list(
        server: str) -> None:
    async with connect(server.replace("http", "ws") + "/ws") as browser:
        host = Host(browser)
        info = await _arena(host, start_in=3600)  # upcoming: nobody is paired meanwhile
        lobby = LobbyScreen(server, "Tui", "de")
        app = PlayApp("de", None, lobby=lobby)
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: isinstance(app.screen, LobbyScreen)
                        and "a: Arenen" in shown(app, "#lobby_hint"))
            await until(pilot, lambda: bool(lobby.client.arenas))
            await pilot.press("a")
            assert isinstance(app.screen, ArenaListScreen)
            await until(pilot, lambda: "Evening" in shown(app, "#arena_list_hint")
                        or app.screen.query_one("DataTable").row_count == 1)  # type: ignore[union-attr]
            screenshot(app, "arena_list_de")
            await pilot.press("enter")
            await until(pilot, lambda: isinstance(app.screen, ArenaScreen)
                        and "Du: Platz 1" in _screen(app).plain())
            screen = _screen(app)
            session = screen.session
            assert session.arena == info["id"]
            text = screen.plain()
            assert "beginnt in 59:" in text or "beginnt in 1:00:00" in text
            assert "gepaart wird, sobald die Arena beginnt" in text
            assert "p: Pause · w: aussteigen · Esc: zurück zur Lobby · q: beenden" in text
            await pilot.press("p")
            await until(pilot, lambda: "p: zurückkommen" in screen.plain())
            assert "Pause: du wirst nicht gepaart" in screen.plain()
            assert _line(session, "Tui").status == "paused"
            screenshot(app, "arena_paused_de")
            dropped = session._socket
            assert dropped is not None
            await dropped.close()  # the connection drops: a pause of one's own stays
            await until(pilot, lambda: session._socket not in (None, dropped)
                        and "Verbindung" not in screen.plain())
            await until(pilot, lambda: session.info is not None
                        and session.info.standings[0].status == "paused")
            assert "p: zurückkommen" in screen.plain()
            await pilot.press("p")
            await until(pilot, lambda: "p: Pause" in screen.plain())
            await pilot.press("w")
            assert isinstance(app.screen, QuitDialog)
            await pilot.press("n")  # stays
            assert app.screen is screen
            await pilot.press("w")
            await pilot.press("j")
            await until(pilot, lambda: "Du bist ausgestiegen" in screen.plain())
            assert "w: aussteigen" not in screen.plain()
            assert _line(session, "Tui").status == "withdrawn"
            screenshot(app, "arena_withdrawn_de")
            await pilot.press("escape")
            await until(pilot, lambda: isinstance(app.screen, LobbyScreen))
            assert session.closed  # the arena's connection is closed with its screen
        host.reader.cancel()


async def test_an_arena_that_is_not_there_is_one_line_before_the_app(server: str) -> None:
    with pytest.raises(ValueError, match=r"there is no arena ABCDEFGH at http://127\.0\.0\.1"):
        await play("en", None, headless=True, arena=f"{server}/arenas/abcdefgh")


@pytest.mark.parametrize(("argv", "says"), [
    (["--arena", "ABCDEFGH"], "an arena's id needs --server URL"),
    (["--arena", "http://h:1/arenas/ABCDEFGH", "--server", "http://h:1"], "the arena's id alone"),
    (["--arena", "http://h:1/t/ABCDEF"], "looks like http://HOST:PORT/arenas/ID"),
    (["--arena", "http://h:1/arenas/ABCDEFGH", "--join", "http://h:1/t/ABCDEF"], "not both"),
    (["--arena", "http://h:1/arenas/ABCDEFGH", "--bots", "pro"], "take the game"),
])
def test_the_arena_on_the_command_line_is_checked_before_anything_connects(
        argv: list[str], says: str) -> None:
    with pytest.raises(ValueError, match=says):
        sessions(parser().parse_args(["play", *argv]), "en")


def test_a_bare_id_with_the_server_is_the_same_arena_as_its_link() -> None:
    assert arena_target("abcdefgh", "http://h:1") == arena_target("http://h:1/arenas/ABCDEFGH",
                                                                   None)
