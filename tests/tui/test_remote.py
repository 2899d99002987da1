"""``zackzack play --join LINK``: the terminal at a real server's table, with a bot and a host."""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
import socket
from collections.abc import AsyncIterator, Sequence
from pathlib import Path
from typing import Any

import pytest
import uvicorn
from textual.widgets import DataTable, Input
from websockets.asyncio.client import ClientConnection, connect

from tui.kit import Still, play_out, screenshot, shown, until, us_keys
from zackzack.engine.race import SLOW_RTT_MS
from zackzack.engine.table import Phase, Settings, TableView
from zackzack.games import unter_spannung as us
from zackzack.games.base import Action, Event, MatchResult, Placing, RoundResult
from zackzack.games.unter_spannung.board import UsBoard
from zackzack.server import protocol as p
from zackzack.server.app import Config, create_app
from zackzack.server.lobby import Timing
from zackzack.tui import app as tui_app
from zackzack.tui import cli
from zackzack.tui.app import PlayApp
from zackzack.tui.game_screen import STYLES, GameScreen
from zackzack.tui.online import CreateScreen, LobbyScreen
from zackzack.tui.remote import RemoteSession, parse_link, seat_maker
from zackzack.tui.session import Listener, Lost, Seat

WINDOW_MS = 3000
"""The test server's reaction window."""


@pytest.fixture
async def server(tmp_path: Path) -> AsyncIterator[str]:
    """A real server on a free port of this machine; its base URL."""
    # A reaction window (and outer net) wide enough that a busy machine's late drawing never
    # counts against a press the test makes "200 ms" after it (tests/test_race.py holds the
    # real window's bounds). The outer net equals the window: the server then credits no
    # round trip when it bounds which pile versions a press may have seen (``Wire.admit``
    # credits min(smoothed round trip, late_grace_ms - window)). Terminal and server share
    # this event loop, so on a loaded machine the measured round trip is the loop's stalls,
    # up to seconds: with late_grace_ms=5000 a card pressed on a top that came less than
    # that before was judged against the top below, and a race lost to the bot became a
    # wrong card after the reconnect (a fresh connection: one inflated sample is the mean).
    settings = Settings(start_ms=300, between_rounds_ms=1000, late_grace_ms=WINDOW_MS)
    app = create_app(Config(db=str(tmp_path / "zackzack.db"), settings=settings,
                            timing=Timing(reaction_ms=WINDOW_MS, reconnect_grace=0.0)))
    sock = socket.create_server(("127.0.0.1", 0))
    running = uvicorn.Server(uvicorn.Config(app, log_level="warning"))
    task = asyncio.create_task(running.serve(sockets=[sock]))
    while not running.started:
        await asyncio.sleep(0.01)
    yield f"http://127.0.0.1:{sock.getsockname()[1]}"
    running.should_exit = True
    await task


class Host:
    """The browser that made the table: it reads everything and says what it is told to."""

    def __init__(self, socket: ClientConnection) -> None:
        self.socket = socket
        self.inbox: list[dict[str, Any]] = []
        self.reader = asyncio.create_task(self._read())

    async def _read(self) -> None:
        with contextlib.suppress(Exception):
            async for text in self.socket:
                self.inbox.append(json.loads(text))

    async def send(self, **message: Any) -> None:
        await self.socket.send(json.dumps(message))

    def last(self, kind: str) -> dict[str, Any] | None:
        return next((m for m in reversed(self.inbox) if m["type"] == kind), None)


class Recorded(RemoteSession):
    """A remote session that keeps the refusals it passes on."""

    refusals: list[str]
    lost: list[Lost | None]
    acts = 0
    actions: list[Action]

    def act(self, seat: int, action: Action) -> None:
        self.acts += 1
        self.actions.append(action)
        super().act(seat, action)

    def start(self, listener: Listener) -> None:
        self.refusals, self.lost, self.actions = [], [], []
        outer = self

        class Spy:
            def changed(self, events: Sequence[Event]) -> None:
                listener.changed(events)

            def refused(self, seat: int, code: str, reason: str,
                        lost: Lost | None = None) -> None:
                outer.refusals.append(code)
                outer.lost.append(lost)
                listener.refused(seat, code, reason, lost)

            def status(self, text: str) -> None:
                listener.status(text)

            def measured(self, rtt_ms: int) -> None:
                listener.measured(rtt_ms)

        super().start(Spy())


@pytest.mark.wallclock
async def test_the_terminal_joins_a_server_table_plays_reconnects_and_finishes(
        server: str) -> None:
    async with connect(server.replace("http", "ws") + "/ws") as browser:
        host = Host(browser)
        await host.send(type="hello", token=None, name="Host")
        await host.send(type="create", game="unter-spannung",
                        options={"countdown_ms": 300, "penalty_ms": 300},
                        seats=[{"kind": "open"}, {"kind": "bot", "bot": "machine"}])
        await until_true(lambda: host.last("table") is not None)
        link = host.last("table")["table"]["link"]  # type: ignore[index]
        code = host.last("table")["table"]["code"]  # type: ignore[index]
        await host.send(type="leave")  # the host gives the seat up and watches
        await host.send(type="watch", code=code)
        await until_true(lambda: host.last("table")["table"]["you"] is None)  # type: ignore[index]
        url, code = parse_link(link)
        made: list[Recorded] = []

        def session() -> Recorded:
            made.append(Recorded(url, code, "Tui", "en"))
            return made[-1]

        app = PlayApp("en", session, again=False)
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: isinstance(app.screen, GameScreen))
            tui = made[0]
            assert tui.mine == (0,) and [s.kind for s in tui.seats] == ["human", "bot"]
            await until(pilot, lambda: "Tui" in shown(app, "#panel"))
            panel = shown(app, "#panel")
            assert "Bot" in panel and "Enter: I am ready" in panel
            assert link in panel and f"or the code {code} · c: copy the link" in panel
            await pilot.press("c")  # the link to the clipboard (OSC 52)
            assert app.clipboard == link and "Link copied" in shown(app, "#feedback")
            screenshot(app, "join_waiting")
            await pilot.press("enter")
            await until(pilot, lambda: tui.seats[0].ready)
            await host.send(type="start")
            await until(pilot, lambda: _phase(tui) is Phase.PLAYING)
            board = app.screen.query_one(UsBoard)
            assert board.display
            screenshot(app, "join_playing")
            assert tui._socket is not None
            await tui._socket.close()  # the connection drops mid-game
            await until(pilot, lambda: "reconnecting" in shown(app, "#head"))
            await until(pilot, lambda: "reconnecting" not in shown(app, "#head"))
            assert tui.mine == (0,)  # the same seat, back at the same table
            # the only person was away (no grace on this server): the table paused, and resumes
            await until(pilot, lambda: "goes on in" in shown(app, "#banner"))
            screenshot(app, "join_resuming")
            await until(pilot, lambda: _phase(tui) is Phase.PLAYING)
            await pilot.press("space")  # at least one action, however fast the machine is
            await play_out(pilot, lambda: tui.view(0), us_keys(board))
            assert _phase(tui) is Phase.OVER
            # races lost, or a card pressed as the bot went out: never a wrong card
            assert set(tui.refusals) <= {"too_late", "round_over"}, tui.refusals
            await until(pilot, lambda: "Match over" in shown(app, "#results"))
            assert "Enter" not in shown(app, "#results")
            screenshot(app, "join_results")
            # the browser saw every action of the terminal that the table took
            seen = [e for m in host.inbox if m["type"] == "events" for e in m["events"]
                    if e["type"] in ("played", "drew") and e["seat"] == 0]
            assert tui.acts >= 1 and len(seen) == tui.acts - len(tui.refusals)
        host.reader.cancel()


def _phase(session: RemoteSession) -> Phase | None:
    view = session.view(None)
    return view.phase if view is not None else None


async def until_true(condition: Any, timeout: float = 10) -> None:
    """Wait without an app."""
    for _ in range(int(timeout / 0.01)):
        if condition():
            return
        await asyncio.sleep(0.01)
    raise AssertionError("timed out")


async def test_joining_a_table_that_does_not_exist_is_one_line_before_the_app(
        server: str, monkeypatch: pytest.MonkeyPatch) -> None:
    apps: list[object] = []
    monkeypatch.setattr(tui_app, "PlayApp", lambda *args, **kwargs: apps.append(args))
    url, code = parse_link(server + "/t/ZZZZZZ")
    with pytest.raises(ValueError) as raised:
        await cli.play("en", lambda: RemoteSession(url, code, "Tui", "en"), again=False,
                       headless=True)
    assert str(raised.value) == (f"there is no table ZZZZZZ at {server} "
                                 "(it ended, or the code is mistyped)")
    assert apps == []  # the full-screen app never started


async def test_a_session_that_fails_inside_the_app_ends_it_with_one_line(server: str) -> None:
    """A later match's session (a rematch, say) that cannot open: status 2 and one line."""
    url, _ = parse_link(server + "/t/ZZZZZZ")
    app = PlayApp("en", lambda: RemoteSession(url, "ZZZZZZ", "Tui", "en"), again=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: not app.is_running)
    assert app.return_code == 2 and "there is no table ZZZZZZ" in app.error
    assert "\n" not in app.error


EVEN_DECK = [f"{value}±2" for value in (2, 4, 6, 8, 10) for _ in range(8)]
"""Every card fits the values two up and two down, so a card that fitted the top before any
play never fits the top after it: a card pressed for the old top is too late or wrong."""


def latest_view(host: Host) -> dict[str, Any]:
    """The newest view the host was sent."""
    return next(m["view"] for m in reversed(host.inbox) if m.get("view") is not None)


async def test_a_card_for_the_pile_before_pressed_within_the_reaction_window_is_too_late(
        server: str) -> None:
    async with connect(server.replace("http", "ws") + "/ws") as browser:
        host = Host(browser)
        await host.send(type="hello", token=None, name="Host")
        await host.send(type="create", game="unter-spannung",
                        options={"deck": EVEN_DECK, "penalty_ms": 5000, "countdown_ms": 300},
                        seats=[{"kind": "open"}, {"kind": "open"}])
        await until_true(lambda: host.last("table") is not None)
        url, code = parse_link(host.last("table")["table"]["link"])  # type: ignore[index]
        made: list[Recorded] = []

        def session() -> Recorded:
            made.append(Recorded(url, code, "Tui", "en"))
            return made[-1]

        app = PlayApp("en", session, again=False)
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: isinstance(app.screen, GameScreen))
            tui = made[0]
            assert tui.mine == (1,) and tui.reaction_ms == WINDOW_MS  # from the welcome
            board = app.screen.query_one(UsBoard)
            clock = [0.0]  # the screen's clock for what was on screen when: ours to move
            board.sightings.clock = lambda: clock[0]
            await pilot.press("enter")
            await until(pilot, lambda: tui.seats[1].ready)
            await host.send(type="start")
            await until(pilot, lambda: _phase(tui) is Phase.PLAYING
                        and latest_view(host)["phase"] == "playing")
            refs = iter(range(1, 1000))
            for _ in range(40):  # both draw until each holds a card for the top
                mine = tui.view(1)
                theirs = latest_view(host)
                assert mine is not None
                top = mine.state.top
                assert str(top) == theirs["state"]["top"]
                hand = sorted(mine.state.hand)
                if not any(us.fits(us.Card.parse(card), top) for card in theirs["state"]["hand"]):
                    count = len(theirs["state"]["hand"])
                    await host.send(type="act", ref=next(refs), action={"type": "draw"})
                    await until(pilot, lambda c=count: len(latest_view(host)["state"]["hand"]) > c)
                elif not any(us.fits(card, top) for card in hand):
                    count = len(hand)
                    await pilot.press("space")
                    await until(pilot, lambda c=count: len(tui.view(1).state.hand) > c)  # type: ignore[union-attr]
                else:
                    break
            else:
                raise AssertionError("nobody got a card for the top")
            before = mine.state.version
            theirs_fit = next(card for card in map(us.Card.parse, theirs["state"]["hand"])
                              if us.fits(card, top))
            late = next(card for card in hand if us.fits(card, top))
            clock[0] = 10.0  # the pile has been on screen for long
            await host.send(type="act", ref=next(refs), action={
                "type": "play", "card": str(theirs_fit), "seen": before})
            await until(pilot, lambda: board.sightings.shown[0][-1][0] == before + 1)
            assert not us.fits(late, tui.view(1).state.top)  # type: ignore[union-attr]
            clock[0] = 10.2  # 200 ms after the new top came on screen: the key was for the old
            await pilot.press(board.key_of(late))
            await until(pilot, lambda: bool(tui.refusals))
            assert tui.actions[-1] == us.Play(late, seen=before)
            assert tui.refusals == ["too_late"]
            lost = tui.lost[-1]
            assert lost is not None and lost.winner == 0 and lost.margin_ms >= 0
            feedback = shown(app, "#feedback")
            assert re.search(r"Too late – Host was \d+ ms faster\. No penalty\.", feedback)
            assert app.screen.feedback.style == STYLES["too_late"]  # type: ignore[attr-defined]
            view = tui.view(1)
            assert view is not None and view.frozen_until[1] <= tui.now()  # no freeze
            assert not [e for m in host.inbox if m["type"] == "events" for e in m["events"]
                        if e["type"] == "penalised"]
            screenshot(app, "join_too_late")
            # The same key once the new top has been on screen for longer than the window:
            # the card answered nothing on screen then, so it is a wrong card.
            clock[0] = 10.2 + WINDOW_MS / 1000
            # The server would credit a seat's round trip up to late_grace_ms less the
            # window (here 0: see the server fixture): the claim of the new top stands
            # however busy the machine is.
            await pilot.press(board.key_of(late))
            await until(pilot, lambda: len(tui.refusals) == 2)
            assert tui.actions[-1] == us.Play(late, seen=before + 1)
            assert tui.refusals[-1] == "does_not_fit" and tui.lost[-1] is None
            assert "Does not fit" in shown(app, "#feedback")
        host.reader.cancel()


async def test_the_terminal_answers_the_servers_pings_and_shows_the_round_trip(
        server: str) -> None:
    async with connect(server.replace("http", "ws") + "/ws") as browser:
        host = Host(browser)
        await host.send(type="hello", token=None, name="Host")
        await host.send(type="create", game="schnelllauf", options={},
                        seats=[{"kind": "open"}, {"kind": "open"}])
        await until_true(lambda: host.last("table") is not None)
        link = host.last("table")["table"]["link"]  # type: ignore[index]
        url, code = parse_link(link)
        tui = RemoteSession(url, code, "Tui", "de")
        app = PlayApp("de", lambda: tui, again=False)
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: isinstance(app.screen, GameScreen))
            # the first ping has no figure yet; the second one (2 s on) carries the measure
            await until(pilot, lambda: "Verbindung" in shown(app, "#head"), timeout=15)
            assert tui.rtt_ms is not None
            quality = "gut" if tui.rtt_ms < SLOW_RTT_MS else "langsam"  # a busy machine: slow
            assert f"Verbindung {quality} · {tui.rtt_ms} ms" in shown(app, "#head")
            # the server measured the answers: the host sees how the terminal's seat is doing
            await until_true(lambda: host.last("table")["table"]["seats"][1].get("lag")  # type: ignore[index]
                             in ("good", "slow"))
            screenshot(app, "join_connection_de")
        host.reader.cancel()


async def test_an_action_unanswered_when_the_connection_drops_is_sent_again_once(
        server: str) -> None:
    """A draw sent just before the connection dropped goes again after the reconnect, with
    the same id: applied once, however often it arrives; one pressed too long ago does not."""
    async with connect(server.replace("http", "ws") + "/ws") as browser:
        host = Host(browser)
        await host.send(type="hello", token=None, name="Host")
        await host.send(type="create", game="unter-spannung", options={},
                        seats=[{"kind": "open"}, {"kind": "open"}])
        await until_true(lambda: host.last("table") is not None)
        url, code = parse_link(host.last("table")["table"]["link"])  # type: ignore[index]
        tui = Recorded(url, code, "Tui", "en")
        await tui.open()

        class Quiet:
            def changed(self, events: Sequence[Event]) -> None: ...
            def refused(self, seat: int, code: str, reason: str,
                        lost: Lost | None = None) -> None: ...
            def status(self, text: str) -> None: ...
            def measured(self, rtt_ms: int) -> None: ...

        tui.start(Quiet())
        tui.ready()
        await until_true(lambda: host.last("table")["table"]["seats"][1]["ready"])  # type: ignore[index]
        await host.send(type="start")
        await until_true(lambda: tui.view(None) is not None
                         and tui.view(None).phase is Phase.PLAYING)  # type: ignore[union-attr]
        left = tui.view(None).state.draw_counts[1]  # type: ignore[union-attr]
        sent: list[Any] = []
        post = tui._post
        tui._post = lambda message, seat: sent.append(message)  # type: ignore[method-assign]
        tui.act(1, us.Draw())  # lost on the way: the connection drops before it is sent
        tui._post = post  # type: ignore[method-assign]
        assert len(sent) == 1 and sent[0].id
        assert tui._socket is not None
        await tui._socket.close()
        await until_true(lambda: tui.view(None).state.draw_counts[1] == left - 1)  # type: ignore[union-attr]
        tui._post(sent[0], 1)  # the lost one turns up after all: nothing more happens
        await asyncio.sleep(0.5)
        assert tui.view(None).state.draw_counts[1] == left - 1  # type: ignore[union-attr]
        assert "offline" not in tui.refusals
        await tui.close()
        host.reader.cancel()


async def test_after_the_match_enter_asks_for_a_rematch_and_sits_down_there(
        server: str) -> None:
    async with connect(server.replace("http", "ws") + "/ws") as browser:
        host = Host(browser)
        await host.send(type="hello", token=None, name="Host")
        await host.send(type="create", game="unter-spannung",
                        options={"countdown_ms": 300, "penalty_ms": 300},
                        seats=[{"kind": "open"}, {"kind": "bot", "bot": "machine"}])
        await until_true(lambda: host.last("table") is not None)
        link = host.last("table")["table"]["link"]  # type: ignore[index]
        await host.send(type="leave")  # the host watches
        await host.send(type="watch", code=host.last("table")["table"]["code"])  # type: ignore[index]
        url, code = parse_link(link)
        made: list[RemoteSession] = []
        maker = seat_maker(url, code, "Tui", "en")

        def session() -> RemoteSession:
            made.append(maker())
            return made[-1]

        app = PlayApp("en", session)
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: isinstance(app.screen, GameScreen))
            await pilot.press("enter")  # ready
            await until(pilot, lambda: made[0].seats[0].ready)
            await host.send(type="start")
            await until(pilot, lambda: _phase(made[0]) is Phase.PLAYING)
            await play_out(pilot, lambda: made[0].view(0), us_keys(app.screen.query_one(UsBoard)))
            await until(pilot, lambda: "Enter: rematch · Esc: quit" in shown(app, "#results"))
            screenshot(app, "join_rematch")
            await pilot.press("enter")
            await until(pilot, lambda: len(made) == 2 and app.screen.session is made[1]  # type: ignore[attr-defined]
                        and "Waiting" in shown(app, "#panel"))
            again = made[1]
            assert again.code != code and again.token == made[0].token and again.mine == (0,)
            assert again.creator and again.share is not None and again.code in again.share
            panel = shown(app, "#panel")
            assert again.share in panel and "Enter: start the match" in panel
            screenshot(app, "join_rematch_waiting")
            offers = [m for m in host.inbox if m["type"] == "rematch"]
            assert offers and offers[-1]["code"] == again.code and offers[-1]["by"] == "Tui"
            await pilot.press("enter")  # the creator starts the rematch
            await until(pilot, lambda: _phase(again) in (Phase.STARTING, Phase.PLAYING))
        host.reader.cancel()


async def test_a_rematch_offered_by_another_player_is_one_key_away() -> None:
    maker = seat_maker("ws://h:1/ws", "ABCDEF", "Tui", "en")
    first = maker()
    first._receive(p.RematchOffer(code="GHJKMN", previous="ABCDEF", by="Anna"))
    first.token = "secret"
    assert first.rematch == ("GHJKMN", "Anna")
    second = maker()
    assert (second.code, second.token, second.asks_rematch) == ("GHJKMN", "secret", False)
    third = maker()  # nobody asked for a rematch of the second table: this one asks for it
    assert (third.code, third.token, third.asks_rematch) == ("GHJKMN", "secret", True)
    view = TableView(game="unter-spannung", phase=Phase.OVER, now=9_000, seat=0, players=2,
                     round=1, state=None, frozen_until=(0, 0), countdown=None,
                     next_round_at=None, starts_at=None,
                     results=(RoundResult(1, 1, "went_out", (5, 0)),), totals=(5, 0),
                     result=MatchResult((Placing(1, 1, 0, "won"), Placing(0, 2, 5, "")), 1, ""))
    still = Still(us, view, [Seat("Tui"), Seat("Anna")])
    still.share, still.rematch = "http://h:1/t/ABCDEF", ("GHJKMN", "Anna")
    app = PlayApp("de", lambda: still)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: "Anna möchte eine Revanche – Enter: mitspielen"
                    in shown(app, "#results"))


async def autoplay(guest: Host, seat: int) -> None:
    """A browser that plays like a slow beginner: a fitting card if it has one, else a draw."""
    refs = iter(range(1, 1 << 20))
    while True:
        await asyncio.sleep(0.3)
        views = [m["view"] for m in guest.inbox if m.get("view") is not None]
        if not views or views[-1]["phase"] != "playing" or views[-1]["state"] is None:
            continue
        state = views[-1]["state"]
        top = us.Card.parse(state["top"])
        fitting = [card for card in state["hand"] if us.fits(us.Card.parse(card), top)]
        if fitting:
            await guest.send(type="act", ref=next(refs), action={
                "type": "play", "card": fitting[0], "seen": state["version"]})
        elif state["draw_counts"][seat]:
            await guest.send(type="act", ref=next(refs), action={"type": "draw"})


async def test_online_lobby_create_share_join_play_and_rematch(server: str) -> None:
    async with connect(server.replace("http", "ws") + "/ws") as browser:
        host = Host(browser)
        await host.send(type="hello", token=None, name="Host")
        await host.send(type="create", game="unter-spannung", options={},
                        seats=[{"kind": "open"}, {"kind": "open"}])
        await until_true(lambda: host.last("table") is not None)
        first = host.last("table")["table"]["code"]  # type: ignore[index]
        lobby = LobbyScreen(server, "Tui", "en")
        app = PlayApp("en", None, lobby=lobby)
        async with app.run_test(size=(80, 24)) as pilot:
            table = lobby.query_one(DataTable)
            await until(pilot, lambda: table.row_count == 1)
            assert str(table.get_row_at(0)[0]) == first and "Unter Spannung" in str(
                table.get_row_at(0)[1])
            async with connect(server.replace("http", "ws") + "/ws") as other:
                maker = Host(other)
                await maker.send(type="hello", token=None, name="Anna")
                await maker.send(type="create", game="schnelllauf", options={},
                                 seats=[{"kind": "open"}, {"kind": "open"}])
                await until(pilot, lambda: table.row_count == 2)  # live: a new table shows
                screenshot(app, "online_lobby")
                maker.reader.cancel()
            await pilot.press("n")
            assert isinstance(app.screen, CreateScreen)
            await pilot.press("tab", *"open,machine")
            screenshot(app, "online_create")
            await pilot.press("enter")
            await until(pilot, lambda: isinstance(app.screen, GameScreen)
                        and app.screen.session.share is not None  # type: ignore[attr-defined]
                        and "Waiting" in shown(app, "#panel"))
            tui = app.screen.session  # type: ignore[attr-defined]
            assert tui.creator and tui.mine == (0,) and len(tui.seats) == 3
            code = tui.code
            assert code in tui.share and f"or the code {code}" in shown(app, "#panel")
            screenshot(app, "online_waiting")
            async with connect(server.replace("http", "ws") + "/ws") as second:
                guest = Host(second)  # a second client joins with the code shared
                await guest.send(type="hello", token=None, name="Guest")
                await guest.send(type="join", code=code.lower())
                await until(pilot, lambda: tui.seats[1].name == "Guest")
                await guest.send(type="ready", ready=True)
                await until(pilot, lambda: tui.seats[1].ready)
                playing = asyncio.create_task(autoplay(guest, 1))
                await pilot.press("enter")  # the creator starts the match
                await until(pilot, lambda: _phase(tui) is Phase.PLAYING)
                board = app.screen.query_one(UsBoard)
                await play_out(pilot, lambda: tui.view(0), us_keys(board))  # a whole round
                playing.cancel()
                await until(pilot, lambda: "Enter: rematch" in shown(app, "#results"))
                await pilot.press("enter")
                await until(pilot, lambda: isinstance(app.screen, GameScreen)
                            and app.screen.session is not tui  # type: ignore[attr-defined]
                            and "Waiting" in shown(app, "#panel"))
                again = app.screen.session  # type: ignore[attr-defined]
                assert again.code != code and again.creator and len(again.seats) == 3
                await until_true(lambda: any(m["type"] == "rematch" and m["code"] == again.code
                                             for m in guest.inbox))
                guest.reader.cancel()
        host.reader.cancel()


async def test_enter_creates_the_table_from_any_field_of_the_form(server: str) -> None:
    lobby = LobbyScreen(server, "Tui", "de")
    app = PlayApp("de", None, lobby=lobby)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, LobbyScreen))
        await pilot.press("n")
        assert isinstance(app.screen, CreateScreen)
        assert app.screen.query_one("#create_seats", Input).value == "frei,normal"
        await pilot.press("enter")  # the game's choice has the focus: Enter still creates
        await until(pilot, lambda: isinstance(app.screen, GameScreen)
                    and app.screen.session.share is not None)  # type: ignore[attr-defined]
        assert len(app.screen.session.seats) == 3  # type: ignore[attr-defined]
