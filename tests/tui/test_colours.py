"""Readable in any terminal (issue 31): the start screen and the board in 16 colours
(``TEXTUAL_COLOR_SYSTEM=standard``) and without colour (``NO_COLOR``); the two-player help
fits 80 × 24 with its frame whole; the results say what Esc does; a long log line is whole."""

from __future__ import annotations

import pytest
from rich.text import Text

from tui.kit import (
    Still,
    cells,
    idle,
    readable,
    recording,
    screenshot,
    screenshot16,
    shown,
    text,
    until,
)
from tui.test_results import _over
from zackzack.engine.table import Phase, Settings
from zackzack.games import schnelllauf as sl
from zackzack.games import unter_spannung as us
from zackzack.games.schnelllauf.board import SlBoard
from zackzack.tui.app import PlayApp
from zackzack.tui.dialogs import HelpScreen
from zackzack.tui.game_screen import GameScreen
from zackzack.tui.session import Seat
from zackzack.tui.start import StartScreen
from zackzack.tui.texts import tr


def _row(rows: list[list[tuple[str, object, object]]], words: str) -> str:
    line = next(("".join(c for c, _, _ in row) for row in rows
                 if words in "".join(c for c, _, _ in row)), "")
    return line


@pytest.mark.parametrize("mode", ["standard", "no_color"])
@pytest.mark.parametrize("lang", ["en", "de"])
async def test_the_start_screen_and_the_board_are_readable_in_16_colours_and_without(
        mode: str, lang: str, monkeypatch: pytest.MonkeyPatch) -> None:
    if mode == "no_color":
        monkeypatch.setenv("NO_COLOR", "1")
    colours = "standard" if mode == "standard" else "truecolor"
    app = PlayApp(lang)
    assert app.no_color is (mode == "no_color")
    t = lambda key: tr(key, lang)  # noqa: E731
    async with app.run_test(size=(80, 24)) as pilot:
        assert isinstance(app.screen, StartScreen)
        await pilot.pause(0.1)
        rows = cells(app, colours)
        for words in (t("game"), "Unter Spannung", "Schnelllauf", t("opponents"), "normal,normal",
                      t("name"), t("start"), t("start_hint")):
            assert readable(rows, words), (mode, words)
        # every field shows where it is, empty or not: thin bars unfocused, thick focused
        assert "▏ normal,normal" in _row(rows, "normal,normal")
        name_row = rows.index(next(row for row in rows
                                   if t("name") in "".join(c for c, _, _ in row))) + 1
        name_field = "".join(c for c, _, _ in rows[name_row]).strip()
        assert name_field.startswith("│  ▏") and name_field.endswith("▕  │")
        assert readable(rows, "▏")
        # the choices show their state in a glyph: (●) chosen, ( ) not, [ ] unticked
        assert readable(rows, "(●) Unter Spannung") and readable(rows, "( ) Schnelllauf")
        assert readable(rows, f"[ ] {t('tournament')}")
        screenshot16(app, f"h31_start_16_{lang}") if mode == "standard" else \
            screenshot(app, f"h31_start_no_color_{lang}")
        await pilot.press("tab")  # into the bots field: its bars turn thick
        await pilot.pause(0.1)
        rows = cells(app, colours)
        assert "▌ normal,normal" in _row(rows, "normal,normal")
        assert "▏" in "".join(c for c, _, _ in rows[name_row])  # the other one stays thin
        assert readable(rows, "▌")
        await pilot.press("shift+tab", "down", "space", "enter")  # Schnelllauf, start
        await until(pilot, lambda: isinstance(app.screen, GameScreen))
        screen = app.screen
        assert isinstance(screen, GameScreen)
        await until(pilot, lambda: (view := screen.table_view()) is not None
                    and view.phase is Phase.PLAYING, timeout=15)
        await pilot.pause(0.1)
        if mode == "standard":
            screenshot16(app, f"h31_sl_board_16_{lang}")
        else:
            screenshot(app, f"h31_sl_board_no_color_{lang}")
        rows = cells(app, colours)
        board = text(screen.query_one(SlBoard).render(), 80)
        for line in board.splitlines():  # every word and card of the board stands out
            for words in line.split("  "):
                if words.strip():
                    assert readable(rows, words.strip()), (mode, words)


@pytest.mark.parametrize("lang", ["en", "de"])
@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
async def test_the_two_player_help_fits_with_its_frame_whole(
        lang: str, size: tuple[int, int]) -> None:
    game = recording(sl, sl.Options(), {}, two=True)
    app = PlayApp(lang, lambda: game)
    async with app.run_test(size=size) as pilot:
        await until(pilot, lambda: isinstance(app.screen, GameScreen))
        await pilot.press("f1")
        assert isinstance(app.screen, HelpScreen)
        await pilot.pause(0.1)
        rows = ["".join(c for c, _, _ in row) for row in cells(app)]
        top = next(i for i, row in enumerate(rows) if "╭" in row)
        bottom = next(i for i, row in enumerate(rows) if "╰" in row)
        assert tr("help_title", lang) in rows[top] and tr("help_close", lang) in rows[bottom]
        assert top < bottom < size[1]
        help_text = shown(app, "#help")
        for key in ("k_left", "k_right", "k_both"):
            assert tr(key, lang) in help_text
        screenshot(app, f"h31_two_help_{lang}_{size[0]}x{size[1]}")


async def test_match_over_is_whole_in_the_log_at_80_columns() -> None:
    names = ["Annabelle", "Bartholomew", "Cassiopeia", "Dorothea", "Evangeline"]
    game = recording(us, us.Options(players=5), dict.fromkeys(range(1, 5), idle),
                     settings=Settings())
    app = PlayApp("de", lambda: game)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, GameScreen))
        screen = app.screen
        assert isinstance(screen, GameScreen)
        for line in ("Runde 1 – los!", "Anna legt 7±2.", "Ben legt 5±1."):
            screen.log_lines.append(Text(line))
        long = "Partie vorbei: " + ", ".join(f"{n + 1}. {name} ({n * 7} Minuspunkte)"
                                            for n, name in enumerate(names)) + "."
        assert Text(long).cell_len > 2 * 76
        screen.log_lines.append(Text(long))
        screen.show()
        await pilot.pause(0.1)
        rows = ["".join(c for c, _, _ in row) for row in cells(app)]
        on_screen = " ".join(" ".join(rows[-4:-1]).split())  # the log's rows above the keys
        assert "5. Evangeline (28 Minuspunkte)." in on_screen, rows[-5:]
        assert "Ben legt" not in on_screen  # older lines give way to the whole long one
        screenshot(app, "h31_log_match_over_de")


@pytest.mark.parametrize(("lang", "chooser", "said"), [
    ("en", True, "Esc: back to the start"), ("de", True, "Esc: zurück zum Start"),
    ("en", False, "Esc: quit"), ("de", False, "Esc: beenden")])
async def test_the_results_say_what_esc_does(lang: str, chooser: bool, said: str) -> None:
    app = PlayApp(lang, lambda: Still(us, _over("unter-spannung", 2, 1),
                                      [Seat("Anna"), Seat("Ben (normal)", "bot")]))
    app.chooser = chooser
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: said in shown(app, "#results"))
        assert said in shown(app, "#keys")
        if chooser:
            assert "Esc: quit" not in shown(app, "#results")
        screenshot(app, f"h31_results_esc_{lang}_{'start' if chooser else 'quit'}")
        await pilot.press("escape")
        if chooser:
            await until(pilot, lambda: isinstance(app.screen, StartScreen))
        else:
            await until(pilot, lambda: not app.is_running)
