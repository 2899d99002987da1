"""The words of the terminal client: both languages complete, cards as on the board, "go!"."""

from __future__ import annotations

import re

import pytest
from rich.text import Text

from tui.kit import idle, recording, screenshot, shown, text, until, us_deal
from zackzack.engine.table import Phase, Settings
from zackzack.games import schnelllauf as sl
from zackzack.games import unter_spannung as us
from zackzack.games.schnelllauf.keys import LAYOUTS, scheme
from zackzack.games.unter_spannung.board import UsBoard
from zackzack.tui.app import PlayApp
from zackzack.tui.dialogs import HelpScreen
from zackzack.tui.game_screen import GameScreen
from zackzack.tui.start import StartScreen
from zackzack.words import LANGS, catalogue

from builders import scenario

QUICK_START = Settings(start_ms=2000)
"""A start countdown long enough to look at the log before "go!" however busy the machine."""


def test_every_key_bar_fits_80_columns() -> None:
    for lang in LANGS:
        texts = catalogue(lang)["terminal"]
        for layout in LAYOUTS:
            fields = scheme(True, layout).bar_fields
            for key in ("bar_us", "bar_sl", "bar_two"):
                bar = texts[key].format(**fields)
                assert Text(bar).cell_len <= 78, (lang, key)  # 80 less the bar's padding


async def test_the_help_says_whose_spread_and_german_names_the_keys_as_labelled() -> None:
    game = recording(us, us.Options(players=2), {1: idle})
    app = PlayApp("de", lambda: game)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, GameScreen))
        await pilot.press("question_mark")
        assert isinstance(app.screen, HelpScreen)
        help_text = " ".join(shown(app, "#help").split())
        for words in ("Leertaste", "Q Strg+Q Strg+C", "vom Ziehstapel ziehen",
                      "der Wert der obersten Karte plus oder minus die Spanne der obersten Karte"):
            assert words in help_text
        for english in ("Space", "Ctrl", "Nachziehstapel", "Spannweite"):
            assert english not in help_text
        screenshot(app, "us_help_de")
    app = PlayApp("en", lambda: recording(us, us.Options(players=2), {1: idle}))
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, GameScreen))
        await pilot.press("question_mark")
        help_text = " ".join(shown(app, "#help").split())
        assert "the top card's value plus or minus the top card's spread" in help_text


@pytest.mark.parametrize(("lang", "go"), [("en", "Round 1 – go!"), ("de", "Runde 1 – los!")])
async def test_go_is_logged_when_play_begins_in_the_language_of_the_screen(
        lang: str, go: str) -> None:
    game = recording(us, us.Options(players=2), {1: idle}, settings=QUICK_START)
    app = PlayApp(lang, lambda: game)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, GameScreen))
        if game.view(0).phase is Phase.STARTING:  # type: ignore[union-attr]  # (a busy machine)
            assert "los" not in shown(app, "#log") and "go!" not in shown(app, "#log")
        await until(pilot, lambda: go in shown(app, "#log"), timeout=30)
        assert game.view(0).phase is Phase.PLAYING  # type: ignore[union-attr]
        assert lang == "de" or "los" not in shown(app, "#log")


@pytest.mark.parametrize(("lang", "says"), [
    ("en", ("You play 9♥ on pile 1, turning up 2♣", "You play 5♦ on pile 2")),
    ("de", ("Du legst 9♥ auf Stapel 1 und deckst 2♣ auf", "Du legst 5♦ auf Stapel 2"))])
async def test_the_log_writes_schnelllauf_cards_as_the_board_draws_them(
        lang: str, says: tuple[str, str]) -> None:
    options = sl.Options(max_rounds=1)
    deal = scenario(("2c 9h | 5d | | | ", "Kc | Kd | | | "), ("10s", "*"), ("REST", "REST"),
                    options=options)
    game = recording(sl, options, {1: idle}, settings=Settings(), deal=deal)
    app = PlayApp(lang, lambda: game)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: game.view(0) is not None)
        await pilot.pause(0.3)
        await pilot.press("1")  # 9h onto pile 1 (10s), turning up the 2c
        await pilot.press("s")  # 5d onto pile 2 (a free joker)
        await until(pilot, lambda: game.played(0) == 2)
        # The table counts a play at once; the screen writes it when its message arrives.
        await until(pilot, lambda: all(words in shown(app, "#log") for words in says))
        log = shown(app, "#log")
        assert not re.search(r"\b(10|[2-9AJQK])[cdhs]\b", log)  # no suit letters
        if lang == "de":
            assert "q Ende" in shown(app, "#keys")  # the whole key bar at 80 columns
            screenshot(app, "sl_log_de")


async def test_the_german_board_names_the_draw_piles_and_the_bots_levels() -> None:
    deal = us_deal(["3±1 8±2 4±1", "6±1 9±3 4±2"], ["1±1 4±3", "2±2 7±1"], "5±2")
    game = recording(us, deal.options, {1: idle}, settings=Settings(), deal=deal)
    app = PlayApp("de", lambda: game)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: game.view(0) is not None)
        await pilot.pause(0.1)
        board = text(app.screen.query_one(UsBoard).render())
        assert "Hand 3 · Ziehstapel 2" in board and "Ziehstapel 2 · Leertaste zieht" in board
        assert "Nachziehstapel" not in board


async def test_the_start_screen_complains_in_its_language_and_takes_its_level_names() -> None:
    app = PlayApp("de")
    async with app.run_test(size=(80, 24)) as pilot:
        assert isinstance(app.screen, StartScreen)
        assert "Stufen: Anfänger, normal, Profi, Maschine" in str(
            app.screen.query_one(".hint").render())
        await pilot.press("tab", *"profi," * 5, *"profi", "enter")  # six bots: too many
        error = shown(app, "#error")
        assert "Unter Spannung ist für 2 bis 6 Spieler: 6 Bots passen nicht." in error
        assert "--" not in error and "players" not in error
        screenshot(app, "start_error_de")
        await pilot.press(*["backspace"] * len(",profi" * 4), "enter")  # two bots
        await until(pilot, lambda: isinstance(app.screen, GameScreen))
        seats = [seat.name for seat in app.screen.session.seats]  # type: ignore[attr-defined]
        assert seats[1:] == ["Ben (Profi)", "Carla (Profi)"]
