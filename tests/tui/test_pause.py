"""Offline, the table stands still while the player looks away: the help, the quit question,
a terminal too small. Table time does not move and the bots do not act; play resumes after a
short countdown."""

from __future__ import annotations

from tui.kit import Recording, bot, idle, recording, screenshot, shown, until
from zackzack.engine.table import Phase, Settings
from zackzack.games import schnelllauf as sl
from zackzack.games import unter_spannung as us
from zackzack.tui.app import PlayApp
from zackzack.tui.dialogs import HelpScreen, QuitDialog
from zackzack.tui.game_screen import GameScreen
from zackzack.tui.offline import PAUSABLE


def _phase(game: Recording) -> Phase | None:
    view = game.view(0)
    return view.phase if view is not None else None


async def _stands_still(pilot: object, game: Recording) -> None:
    """Table time and the table's log do not move while the table is paused."""
    assert game.table is not None and _phase(game) is Phase.PAUSED
    now, entries = game.now(), len(game.table.log)
    await pilot.pause(0.5)  # type: ignore[attr-defined]  # time for bots and clocks to move
    assert game.now() == now and len(game.table.log) == entries
    assert _phase(game) is Phase.PAUSED


async def test_the_help_pauses_an_offline_table_and_the_bots_wait() -> None:
    # a machine never runs out of things to do in Schnelllauf: it would play on if it could
    game = recording(sl, sl.Options(), {1: bot("machine")}, settings=Settings())
    app = PlayApp("en", lambda: game)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: _phase(game) in PAUSABLE)
        await pilot.press("question_mark")
        assert isinstance(app.screen, HelpScreen)
        await until(pilot, lambda: _phase(game) is Phase.PAUSED)
        await _stands_still(pilot, game)
        paused_at = game.now()
        await pilot.press("x")  # closes the help
        await until(pilot, lambda: "goes on in" in shown(app, "#banner"))
        screenshot(app, "sl_resuming_offline")
        await until(pilot, lambda: _phase(game) in PAUSABLE - {Phase.STARTING})
        await until(pilot, lambda: game.now() > paused_at)
        log = shown(app, "#log")
        assert "away" not in log and "Paused" not in log  # one's own pause is not news


async def test_the_quit_question_pauses_and_playing_on_resumes() -> None:
    game = recording(us, us.Options(players=2), {1: idle}, settings=Settings())
    app = PlayApp("de", lambda: game)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: _phase(game) is Phase.PLAYING)
        await pilot.press("escape")
        assert isinstance(app.screen, QuitDialog)
        await until(pilot, lambda: _phase(game) is Phase.PAUSED)
        await _stands_still(pilot, game)
        assert isinstance(app.screen, QuitDialog)
        screenshot(app, "quit_paused_de")
        await pilot.press("n")
        assert isinstance(app.screen, GameScreen)
        await until(pilot, lambda: "weiter in" in shown(app, "#banner"))
        await until(pilot, lambda: _phase(game) is Phase.PLAYING)


async def test_a_terminal_too_small_pauses_until_it_is_large_enough() -> None:
    game = recording(us, us.Options(players=3), {1: bot("machine"), 2: bot("pro")},
                     settings=Settings(start_ms=2000))
    app = PlayApp("en", lambda: game)
    async with app.run_test(size=(70, 20)) as pilot:
        await until(pilot, lambda: _phase(game) is Phase.PAUSED)  # before the start even
        await _stands_still(pilot, game)
        assert game.table is not None and game.table.log == []
        await pilot.resize_terminal(80, 24)
        await until(pilot, lambda: _phase(game) in PAUSABLE)
        await pilot.resize_terminal(70, 20)
        await until(pilot, lambda: _phase(game) in (Phase.PAUSED, Phase.OVER))
        if _phase(game) is Phase.PAUSED:
            await _stands_still(pilot, game)
