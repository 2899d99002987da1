"""``zackzack play --server URL --user NAME`` and ``--join LINK --user NAME``: the terminal signs
in with the password (typed, or ``$ZACKZACK_PASSWORD``) and plays as that player; a wrong
password is one line and exit status 2 before any screen opens."""

from __future__ import annotations

import json
import socket
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any, ClassVar

import httpx
import pytest
import uvicorn
from websockets.sync.client import connect

from zackzack.cli import main
from zackzack.server.app import Config, create_app
from zackzack.server.limits import Limits
from zackzack.tui import app as tui_app
from zackzack.tui import cli
from zackzack.tui.cli import PASSWORD_ENV
from zackzack.tui.online import Account, LobbyScreen, sign_in, sign_in_now
from zackzack.tui.remote import RemoteSession

PASSWORD = "correct horse"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A real server on a free port, in a thread of its own (so that both the synchronous
    ``zackzack play`` and the tests' own event loops can talk to it); its base URL."""
    folder: Path = tmp_path_factory.mktemp("sign_in")
    # room for every sign-in of these tests (the throttle has tests of its own)
    limits = Limits(sign_ins_per_name=50, sign_ins_per_address=200)
    app = create_app(Config(db=str(folder / "zackzack.db"), limits=limits))
    sock = socket.create_server(("127.0.0.1", 0))
    running = uvicorn.Server(uvicorn.Config(app, log_level="warning"))
    thread = threading.Thread(target=running.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    pause = threading.Event()
    while not running.started and thread.is_alive():
        pause.wait(0.01)
    assert running.started, "the test server did not start"
    yield f"http://127.0.0.1:{sock.getsockname()[1]}"
    running.should_exit = True
    thread.join(10)
    sock.close()


def hello(server: str, name: str = "", token: str | None = None) -> dict[str, Any]:
    """The ``welcome`` a websocket hello gets."""
    with connect(server.replace("http", "ws") + "/ws") as ws:
        ws.send(json.dumps({"type": "hello", "token": token, "name": name}))
        while True:
            message = json.loads(ws.recv(timeout=10))
            if message["type"] == "welcome":
                return message  # type: ignore[no-any-return]


@pytest.fixture(scope="module")
def ada(server: str) -> dict[str, Any]:
    """A guest who claimed the name Ada with :data:`PASSWORD`: their welcome."""
    welcome = hello(server, "Ada")
    answer = httpx.post(f"{server}/api/account/claim", json={"name": "Ada",
                                                             "password": PASSWORD},
                        headers={"Authorization": f"Bearer {welcome['token']}"}, timeout=30)
    assert answer.status_code == 200, answer.text
    return welcome


class NoApp:
    """Stands in for the full-screen app: records how it was made, runs nothing."""

    made: ClassVar[list[dict[str, Any]]] = []

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        NoApp.made.append(kwargs)
        self.error, self.return_code = None, 0

    async def run_async(self, headless: bool = False) -> None:
        return None


@pytest.fixture
def no_app(monkeypatch: pytest.MonkeyPatch) -> list[dict[str, Any]]:
    NoApp.made = []
    monkeypatch.setattr(tui_app, "PlayApp", NoApp)
    return NoApp.made


def test_sign_in_gives_a_new_token_of_the_claimed_player(server: str,
                                                         ada: dict[str, Any]) -> None:
    account = sign_in_now(server, "ada", PASSWORD)  # names are matched without case
    assert account.player == ada["player"] and account.name == "Ada"
    assert account.token != ada["token"]
    assert hello(server, token=account.token)["player"] == ada["player"]


def test_a_wrong_password_is_one_line_and_status_2_before_any_screen(
        server: str, ada: dict[str, Any], no_app: list[dict[str, Any]],
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(cli, "terminal", lambda: True)
    monkeypatch.setenv(PASSWORD_ENV, "not the password")
    assert main(["play", "--server", server, "--user", "Ada"]) == 2
    error = capsys.readouterr().err
    assert error.startswith("zackzack play: error: cannot sign in as 'Ada': ")
    assert error.endswith("(wrong_password)\n") and error.count("\n") == 1
    assert main(["play", "--join", f"{server}/t/ABCDEF", "--user", "Nobody"]) == 2
    assert "(wrong_password)" in capsys.readouterr().err  # an unknown name: the same answer
    assert no_app == []


def test_user_needs_a_server_and_a_name(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "unter-spannung", "--user", "Ada"]) == 2
    assert "--user signs in at a server" in capsys.readouterr().err
    assert main(["play", "--server", "http://127.0.0.1:9", "--user", " "]) == 2
    assert "--user needs the name" in capsys.readouterr().err


def test_an_unreachable_server_is_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    closed = socket.create_server(("127.0.0.1", 0))
    port = closed.getsockname()[1]
    closed.close()
    with pytest.raises(ValueError, match=rf"cannot reach the server at http://127.0.0.1:{port}"):
        sign_in_now(f"http://127.0.0.1:{port}", "Ada", PASSWORD, timeout=5)


def test_the_password_comes_from_the_environment_or_is_asked_for(
        monkeypatch: pytest.MonkeyPatch) -> None:
    asked: list[str] = []
    monkeypatch.setattr(cli.getpass, "getpass", lambda prompt: asked.append(prompt) or "typed")
    monkeypatch.delenv(PASSWORD_ENV, raising=False)
    assert cli.password("Ada") == "typed" and asked == ["Password for Ada: "]
    monkeypatch.setenv(PASSWORD_ENV, "from the environment")
    assert cli.password("Ada") == "from the environment" and len(asked) == 1


async def test_the_lobby_is_entered_as_the_signed_in_player(
        server: str, ada: dict[str, Any], no_app: list[dict[str, Any]]) -> None:
    await cli.play("en", None, server=server, name="ignored", account=("Ada", PASSWORD),
                   headless=True)
    lobby = no_app[0]["lobby"]
    assert isinstance(lobby, LobbyScreen) and lobby.player_name == "Ada"
    client = lobby.client
    assert client.token is not None and client.token != ada["token"]
    assert hello(server, token=client.token)["player"] == ada["player"]
    await client.close()


async def test_join_with_user_sits_down_as_the_signed_in_player(
        server: str, ada: dict[str, Any], no_app: list[dict[str, Any]]) -> None:
    with connect(server.replace("http", "ws") + "/ws") as host:
        host.send(json.dumps({"type": "hello", "token": None, "name": "Host"}))
        host.send(json.dumps({"type": "create", "game": "schnelllauf", "options": {},
                              "seats": [{"kind": "open"}, {"kind": "open"}]}))
        code = None
        while code is None:
            message = json.loads(host.recv(timeout=10))
            if message["type"] == "table":
                code = message["table"]["code"]
        await cli.play("en", None, account=("Ada", PASSWORD), join=f"{server}/t/{code}",
                       headless=True)
        first = no_app[0]["first"]
        assert isinstance(first, RemoteSession)
        assert first.player == ada["player"] and first.name == "Ada" and first.mine == (1,)
        assert first.seats[1].name == "Ada"
        await first.close()


async def test_sign_in_from_an_event_loop_runs_in_a_worker_thread(
        server: str, ada: dict[str, Any]) -> None:
    account = await sign_in(server, "Ada", PASSWORD)
    assert isinstance(account, Account) and account.player == ada["player"]
