"""Höher in the terminal: its folder's ``board.py`` (and its words) are all the terminal needs
to find, draw and play it by keys."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

import third_game
from tui.kit import idle, recording, shown, text, until
from zackzack.engine.table import Phase
from zackzack.games import Game, register, unregister
from zackzack.tui.app import PlayApp
from zackzack.tui.dialogs import HelpScreen
from zackzack.tui.game_screen import GameScreen


@pytest.fixture
def hoeher() -> Iterator[Game]:
    """Höher, registered for the test (one line, as in ``games/__init__.py``)."""
    found = register(third_game)
    yield found
    unregister(found.name)


async def test_hoeher_is_played_by_keys_in_the_terminal(hoeher: Game) -> None:
    from third_game.board import HoeherBoard

    options = third_game.Options(players=2, cards=4, countdown_ms=100)
    game = recording(third_game, options, {1: idle})
    app = PlayApp("en", lambda: game, again=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, GameScreen))
        assert "1…9 card" in shown(app, "#keys")
        await pilot.press("question_mark")
        assert isinstance(app.screen, HelpScreen)
        assert "the first with an empty hand wins" in " ".join(shown(app, "#help").split())
        await pilot.press("escape")
        await until(pilot, lambda: isinstance(app.screen, GameScreen))
        await until(pilot, lambda: game.view(0).phase is Phase.PLAYING)  # type: ignore[union-attr]
        board = app.screen.query_one(HoeherBoard)
        drawn = text(board.render())
        assert "Your hand (4)" in drawn and "hand 4" in drawn and "Pile" in drawn
        for played, key in enumerate("1234", 1):
            await pilot.press(key)
            await until(pilot, lambda n=played: game.played(0) == n)  # type: ignore[misc]
            if played == 1:
                await until(pilot, lambda: "You play 1, higher than before" in shown(app, "#log"))
        await until(pilot, lambda: game.view(0).phase is Phase.OVER)  # type: ignore[union-attr]
        assert not game.refusals
        assert [action.card for _, action, _ in game.acts] == [1, 2, 3, 4]  # type: ignore[attr-defined]
        await until(pilot, lambda: "1. You (0 points)" in shown(app, "#log"))
