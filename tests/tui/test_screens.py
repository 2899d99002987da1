"""The screens around the game: help, the too-small terminal, quitting, no colour, the start."""

from __future__ import annotations

import pytest
from textual.widgets import Input

from tui.kit import Recording, Still, idle, recording, screenshot, shown, text, until, us_deal
from zackzack.engine.table import Phase, Settings, TableView
from zackzack.games import schnelllauf as sl
from zackzack.games import unter_spannung as us
from zackzack.games.base import RoundResult
from zackzack.games.schnelllauf.board import SlBoard
from zackzack.games.unter_spannung.board import UsBoard
from zackzack.tui.app import PlayApp
from zackzack.tui.dialogs import HelpScreen, QuitDialog, TooSmall
from zackzack.tui.game_screen import STYLES, GameScreen
from zackzack.tui.session import Lost, Seat
from zackzack.tui.start import StartScreen


async def test_the_help_screen_lists_every_key_and_any_key_closes_it() -> None:
    game = recording(us, us.Options(players=2), {1: idle})
    app = PlayApp("en", lambda: game)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, GameScreen))
        await pilot.press("question_mark")
        assert isinstance(app.screen, HelpScreen)
        help_text = shown(app, "#help")
        for words in ("1 … 9 0", "Space", "draw a card from your draw pile", "Esc", "Ctrl+Q",
                      "●±1", "◆±2", "▲±3"):
            assert words in help_text
        screenshot(app, "us_help")
        await pilot.press("1")  # closes the help; it plays nothing
        assert isinstance(app.screen, GameScreen) and game.acts == []


async def test_two_at_one_keyboard_see_both_halves_in_the_help() -> None:
    game = recording(sl, sl.Options(), {}, two=True)
    app = PlayApp("en", lambda: game)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, GameScreen))
        await pilot.press("f1")
        help_text = shown(app, "#help")
        for words in ("Left player", "1 2 3 4 5", "a s d f g", "Right player", "6 7 8 9 0",
                      "y u i o p", "onto pile 2", "Backspace", "cancel the right player's move"):
            assert words in help_text
        screenshot(app, "two_help")


async def test_a_terminal_too_small_gets_a_message_and_no_key_plays() -> None:
    game = recording(us, us.Options(players=2), {1: idle}, settings=Settings())
    app = PlayApp("de", lambda: game)
    async with app.run_test(size=(60, 20)) as pilot:
        await until(pilot, lambda: game.view(0) is not None)
        cover = app.screen.query_one(TooSmall)
        assert cover.display
        message = str(cover.render())
        assert "60×20" in message and "80×24" in message and "vergrößern" in message
        screenshot(app, "too_small")
        await pilot.press("1", "space", "2")
        assert game.acts == []
        await pilot.resize_terminal(90, 23)
        await until(pilot, lambda: "90×23" in str(cover.render()))
        assert cover.display
        await pilot.resize_terminal(80, 24)
        await until(pilot, lambda: not cover.display)
        # the table stood still meanwhile; it plays on after a short countdown
        await until(pilot, lambda: game.view(0).phase is Phase.PLAYING)  # type: ignore[union-attr]
        await pilot.press("space")
        assert len(game.acts) == 1


async def test_quitting_mid_game_asks_first() -> None:
    game = recording(us, us.Options(players=2), {1: idle}, settings=Settings())
    app = PlayApp("en", lambda: game)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, GameScreen))
        await pilot.press("escape")
        assert isinstance(app.screen, QuitDialog)
        screenshot(app, "quit")
        await pilot.press("2")  # neither yes nor no: the question stays
        assert isinstance(app.screen, QuitDialog) and game.acts == []
        await pilot.press("n")
        assert isinstance(app.screen, GameScreen) and app.is_running
        await pilot.press("ctrl+q")
        assert isinstance(app.screen, QuitDialog)
        await pilot.press("y")
        await pilot.pause()
        assert not app.is_running and app.return_code == 0


async def test_escape_first_cancels_a_half_done_move() -> None:
    game = recording(sl, sl.Options(), {1: idle}, settings=Settings())
    app = PlayApp("en", lambda: game)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, GameScreen))
        board = app.screen.query_one(SlBoard)
        board.moving[0] = 2
        await pilot.press("escape")
        assert board.moving == {} and isinstance(app.screen, GameScreen)


async def test_without_colour_the_spreads_keep_their_marks(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NO_COLOR", "1")
    deal = us_deal(["1±1 2±2 3±3 4±1 5±2", "6±3 7±1"], ["1±2 1±3", "2±1 2±3"],
                   "3±1 3±2 4±2 4±3 9±2")
    game = recording(us, deal.options, {1: idle}, settings=Settings(), deal=deal)
    app = PlayApp("en", lambda: game)
    assert app.no_color
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: game.view(0) is not None)
        await pilot.pause(0.1)
        board = text(app.screen.query_one(UsBoard).render())
        assert "●±1" in board and "◆±2" in board and "▲±3" in board
        screenshot(app, "us_no_color")


async def test_the_start_screen_by_keys() -> None:
    app = PlayApp("en")
    async with app.run_test(size=(80, 24)) as pilot:
        assert isinstance(app.screen, StartScreen)
        screenshot(app, "start")
        await pilot.press("tab", *"wizard", "enter")  # into the bots field: a bad bot
        assert "Unknown bot “wizard” – the levels are beginner, normal" in shown(app, "#error")
        await pilot.press("shift+tab", "down", "space")  # back to the game: Schnelllauf
        assert app.screen.query_one("#bots", Input).value == "normal"
        await pilot.press("enter")  # Enter starts from any field, the game choice too
        await until(pilot, lambda: isinstance(app.screen, GameScreen))
        assert app.screen.query(SlBoard)
        view = app.screen.session.view(0)  # type: ignore[attr-defined]
        assert view is not None and view.phase is Phase.STARTING


async def test_tournament_standings_between_rounds() -> None:
    results = (RoundResult(1, 0, "went_out", (0, 12, 7)),
               RoundResult(2, 2, "went_out", (9, 4, 0)))
    view = TableView(game="unter-spannung", phase=Phase.BETWEEN, now=20_000, seat=0, players=3,
                     round=2, state=None, frozen_until=(0, 0, 0), countdown=None,
                     next_round_at=26_000, starts_at=None, results=results, totals=(9, 16, 7),
                     result=None)
    seats = [Seat("Anna"), Seat("Ben (pro)", "bot"), Seat("Carla (normal)", "bot")]
    app = PlayApp("de", lambda: Still(us, view, seats))
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: "Summe" in shown(app, "#results"))
        panel = shown(app, "#results")
        for words in ("Runde 2: Carla (normal) gewinnt", "Minuspunkte", "Runde 1", "Runde 2",
                      "Du", "Ben (pro)", "16", "Nächste Runde in 6 s"):
            assert words in panel
        assert not app.screen.query_one(UsBoard).display
        screenshot(app, "us_tournament_de")


async def test_slow_connections_and_lost_races_are_said_in_words() -> None:
    deal = us_deal(["3±1 8±2 4±1", "7±1 9±3 4±2"], ["1±1 4±3", "2±2 7±1"], "5±2")
    game = Recording(us, deal.options, [Seat("Tui"), Seat("Anna", lag="slow")], (0,),
                     {1: idle}, seed=7, settings=Settings(), first_round=deal)
    app = PlayApp("en", lambda: game)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, GameScreen) and game.view(0) is not None)
        screen = app.screen
        assert isinstance(screen, GameScreen)
        await pilot.pause(0.1)
        assert "Anna (slow connection)" in text(screen.query_one(UsBoard).render())
        assert "connection" not in shown(app, "#head")  # offline: no connection to show
        assert "· Tui" in shown(app, "#head")  # the name typed, as the others see it
        screen.measured(240)
        assert "connection slow · 240 ms" in shown(app, "#head")
        screen.measured(42)
        assert "connection good · 42 ms" in shown(app, "#head")
        says = {
            Lost(1, 40): "Too late – Anna was 40 ms faster. No penalty.",
            Lost(None, 15): "Too late – the table's own step came 15 ms sooner. No penalty.",
            Lost(0, 5): "Too late – your own card got there first. No penalty.",
            None: "Too late – someone was faster. No penalty.",
        }
        for lost, words in says.items():
            screen.refused(0, "too_late", "7±2 fitted 5±2", lost)
            assert words in shown(app, "#feedback")
            assert screen.feedback.style == STYLES["too_late"] != STYLES["does_not_fit"]
        screen.refused(0, "too_late", "", Lost(1, 40))
        screenshot(app, "us_lost_race")
        screen.refused(0, "one_hand", "one hand only: your last action is not answered yet")
        assert "One hand only: wait a moment." in shown(app, "#feedback")


async def test_schnelllauf_names_a_slow_opponent_in_german() -> None:
    game = Recording(sl, sl.Options(), [Seat("Tui"), Seat("Anna", lag="slow")], (0,),
                     {1: idle}, seed=7, settings=Settings())
    app = PlayApp("de", lambda: game)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, GameScreen) and game.view(0) is not None)
        await pilot.pause(0.1)
        assert "Anna (langsame Verbindung)" in text(app.screen.query_one(SlBoard).render())
