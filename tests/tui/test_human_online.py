"""Online at human speed (issue 31): a table joined by its code (in the lobby and with
``--server URL --join CODE``), a full table watched with a sentence, a leaver shown as gone,
Esc from a table back to the lobby."""

from __future__ import annotations

import asyncio

import pytest
from websockets.asyncio.client import connect

from tui.kit import screenshot, shown, text, until
from tui.test_remote import Host, until_true
from tui.test_remote import server as server  # the fixture: a real server on a free port
from zackzack.cli import parser
from zackzack.engine.table import Phase
from zackzack.games.unter_spannung.board import UsBoard
from zackzack.tui.app import PlayApp
from zackzack.tui.cli import sessions
from zackzack.tui.dialogs import QuitDialog
from zackzack.tui.game_screen import GameScreen
from zackzack.tui.online import CodeScreen, LobbyScreen
from zackzack.tui.remote import RemoteSession


async def _table(host: Host, seats: list[dict[str, str]], private: bool = False) -> str:
    """The host makes a table; its code."""
    await host.send(type="hello", token=None, name="Host")
    await host.send(type="create", game="unter-spannung", options={}, seats=seats,
                    private=private)
    await until_true(lambda: host.last("table") is not None)
    return str(host.last("table")["table"]["code"])  # type: ignore[index]


@pytest.mark.wallclock
async def test_a_private_table_joined_by_its_code_a_leaver_gone_and_esc_back_to_the_lobby(
        server: str) -> None:
    async with connect(server.replace("http", "ws") + "/ws") as browser:
        host = Host(browser)
        code = await _table(host, [{"kind": "open"}, {"kind": "open"}], private=True)
        lobby = LobbyScreen(server, "Tui", "en")
        app = PlayApp("en", None, lobby=lobby)
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: isinstance(app.screen, LobbyScreen))
            assert "j: join by code" in shown(app, "#lobby_hint")
            await pilot.press("j")
            assert isinstance(app.screen, CodeScreen)
            await pilot.press(*"no!")
            await pilot.press("enter")
            assert "4 to 16 letters" in shown(app, "#code_error")
            await pilot.press("backspace", "backspace", "backspace", *code.lower())
            screenshot(app, "h31_online_code")
            await pilot.press("enter")
            await until(pilot, lambda: isinstance(app.screen, GameScreen)
                        and bool(app.screen.session.mine))  # type: ignore[attr-defined]
            tui = app.screen.session  # type: ignore[attr-defined]
            assert isinstance(tui, RemoteSession) and tui.code == code and tui.mine == (1,)
            await pilot.press("enter")  # ready
            await until(pilot, lambda: tui.seats[1].ready)
            await host.send(type="start")
            await until(pilot, lambda: tui.view(1) is not None
                        and tui.view(1).phase is Phase.PLAYING)  # type: ignore[union-attr]
            await browser.close()  # the host leaves
            board = app.screen.query_one(UsBoard)
            await until(pilot, lambda: "Host (gone" in text(board.render(), 80))
            screenshot(app, "h31_online_gone")
            await pilot.press("escape")
            assert isinstance(app.screen, QuitDialog)
            assert "Leave this table?" in shown(app, "Static")
            await pilot.press("y")
            await until(pilot, lambda: isinstance(app.screen, LobbyScreen)
                        and app.screen is not lobby)  # a fresh lobby: one level back
            assert app.is_running
        host.reader.cancel()


@pytest.mark.wallclock
async def test_a_full_table_joined_by_code_from_the_command_line_is_watched_and_said(
        server: str) -> None:
    async with connect(server.replace("http", "ws") + "/ws") as browser:
        host = Host(browser)
        code = await _table(host, [{"kind": "open"}, {"kind": "bot", "bot": "normal"}])
        args = parser().parse_args(["play", "--server", server, "--join", code.lower(),
                                    "--lang", "de"])
        maker = sessions(args, "de")
        assert maker is not None
        app = PlayApp("de", maker)
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: isinstance(app.screen, GameScreen))
            tui = app.screen.session  # type: ignore[attr-defined]
            assert tui.mine == () and tui.watching_because == "table_full"
            await until(pilot, lambda: "Alle Plätze sind besetzt" in shown(app, "#log"))
            screenshot(app, "h31_online_full_de")
        host.reader.cancel()
    await asyncio.sleep(0)


def test_a_code_alone_needs_the_server_and_a_link_needs_no_server() -> None:
    with pytest.raises(ValueError, match="a table's code needs --server URL"):
        sessions(parser().parse_args(["play", "--join", "K7M2QX"]), "en")
    with pytest.raises(ValueError, match="takes the table's code alone"):
        sessions(parser().parse_args(["play", "--server", "http://h:1", "--join",
                                      "http://h:1/t/K7M2QX"]), "en")
    assert sessions(parser().parse_args(["play", "--server", "http://h:1", "--join",
                                         "k7m2qx"]), "en") is not None
