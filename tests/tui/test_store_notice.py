"""The server's ``notice`` in the terminal's status line (issue 26): while the server cannot
store the game the header says so (in the player's language), and says it is back, for a few
seconds, when it is. A pretend server sends the notices."""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator

import pytest
from websockets.asyncio.server import Server, ServerConnection, serve
from websockets.exceptions import ConnectionClosed
from websockets.protocol import State

from tui.kit import shown, until
from tui.test_outage import OLD, table_message
from zackzack.server import protocol as p
from zackzack.tui import remote
from zackzack.tui.app import PlayApp
from zackzack.tui.game_screen import GameScreen
from zackzack.tui.remote import RemoteSession
from zackzack.tui.texts import tr

pytestmark = pytest.mark.wallclock  # a real socket on this machine


class Notices:
    """A server that seats the keyboard at table :data:`OLD`, then sends what ``say`` gets."""

    def __init__(self) -> None:
        self.say: asyncio.Queue[p.Notice] = asyncio.Queue()
        self.server: Server | None = None
        self.url = ""

    async def _serve(self, socket: ServerConnection) -> None:
        try:
            async for data in socket:
                kind = json.loads(data)["type"]
                if kind == "hello":
                    await socket.send(p.encode(p.Welcome(player="p_tui", token="secret",
                                                         name="Tui")))
                elif kind in ("watch", "join"):
                    await socket.send(p.encode(table_message(OLD)))
                    while socket.state is State.OPEN:
                        with contextlib.suppress(TimeoutError):
                            said = await asyncio.wait_for(self.say.get(), 0.05)
                            await socket.send(p.encode(said))
        except ConnectionClosed:
            pass


@pytest.fixture
async def notices(monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[Notices]:
    monkeypatch.setattr(remote, "NOTICE_S", 0.5)
    found = Notices()
    found.server = await serve(found._serve, "127.0.0.1", 0)
    found.url = f"ws://127.0.0.1:{found.server.sockets[0].getsockname()[1]}/ws"
    yield found
    found.server.close()
    await found.server.wait_closed()


@pytest.mark.parametrize("lang", ["en", "de"])
async def test_the_status_line_says_when_the_server_cannot_store_and_when_it_can_again(
        notices: Notices, lang: str) -> None:
    app = PlayApp(lang, lambda: RemoteSession(notices.url, OLD, "Tui", lang))
    unavailable, back = tr("err_store_unavailable", lang), tr("err_store_back", lang)

    def head() -> str:
        return " ".join(shown(app, "#head").split())

    async with app.run_test(size=(200, 24)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, GameScreen))
        await notices.say.put(p.Notice(code="store_unavailable", since=1))
        await until(pilot, lambda: unavailable in head())
        await pilot.pause(0.7)
        assert unavailable in head()  # until the store is back
        await notices.say.put(p.Notice(code="store_back"))
        await until(pilot, lambda: back in head())
        await until(pilot, lambda: back not in head() and unavailable not in head())
        await notices.say.put(p.Notice(code="something_new"))  # unknown: not shown
        await pilot.pause(0.3)
        assert head() and "something_new" not in head()
