"""Two at one keyboard: key labels that match the keyboard layout, a cancel key for each side."""

from __future__ import annotations

import pytest

from tui.kit import recording, screenshot, shown, text, until
from zackzack.cli import parser
from zackzack.engine.table import Settings
from zackzack.games import schnelllauf as sl
from zackzack.games.schnelllauf import keys as sl_keys
from zackzack.games.schnelllauf.board import SlBoard
from zackzack.tui import keys
from zackzack.tui.app import PlayApp
from zackzack.tui.dialogs import QuitDialog
from zackzack.tui.game_screen import GameScreen

ROWS = ("1234567890", "qwertyuiop", "asdfghjkl", "zxcvbnm")
"""A QWERTY keyboard's rows; the other layouts swap letters but not places."""
SWAPS = {"qwerty": {}, "qwertz": {"y": "z", "z": "y"}, "azerty": {"q": "a", "a": "q", "w": "z",
                                                                 "z": "w"}}


def _place(key: str, layout: str) -> tuple[int, int]:
    """Where ``key`` is on a keyboard of ``layout``: row and column."""
    on_qwerty = SWAPS[layout].get(key, key)
    row = next(i for i, letters in enumerate(ROWS) if on_qwerty in letters)
    return row, ROWS[row].index(on_qwerty)


@pytest.mark.parametrize("layout", list(keys.KEYBOARDS))
def test_every_layout_puts_the_keys_in_the_same_places(layout: str) -> None:
    """A place's two keys share a column: the digit onto pile 1, a letter of one row onto
    pile 2 (the top letter row, or the home row where the top row starts with Q)."""
    scheme = sl_keys.scheme(two=True, layout=layout)
    for hand, piles in enumerate(scheme.places):
        for pile, row in enumerate(piles):
            rows = {_place(key, layout)[0] for key in row}
            assert rows == {0} if pile == 0 else len(rows) == 1 and rows <= {1, 2}, (layout, row)
            for place, key in enumerate(row):
                assert _place(key, layout)[1] == hand * 5 + place, (layout, key)
                assert scheme.command(key) == sl_keys.PlacePile(hand, place, pile)
                assert key not in keys.QUIT_KEYS


def test_azerty_takes_the_unshifted_digit_row_and_the_defaults_follow_the_language() -> None:
    scheme = sl_keys.scheme(two=True, layout="azerty")
    assert scheme.command("ampersand") == scheme.command("1") == sl_keys.PlacePile(0, 0, 0)
    assert scheme.command("à") == scheme.command("0") == sl_keys.PlacePile(1, 4, 0)
    assert scheme.command("a") == sl_keys.PlacePile(0, 0, 1)
    assert keys.default_layout("de") == "qwertz" and keys.default_layout("en") == "qwerty"
    assert parser().parse_args(["play", "schnelllauf", "--local-two", "--keys", "azerty"]).keys \
        == "azerty"
    with pytest.raises(SystemExit):
        parser().parse_args(["play", "--keys", "dvorak"])


@pytest.mark.parametrize(("lang", "layout", "labels", "bar"), [
    ("de", None, ("1a", "6z"), "Links: 1–5 / a–g · Rechts: 6–0 / z–p"),
    ("en", None, ("1a", "6y"), "Left: 1–5 / a–g · Right: 6–0 / y–p"),
    ("en", "azerty", ("1a", "6y"), "Left: 1–5 / a–t · Right: 6–0 / y–p"),
])
async def test_the_labels_follow_the_layout(lang: str, layout: str | None,
                                            labels: tuple[str, str], bar: str) -> None:
    game = recording(sl, sl.Options(), {}, two=True, settings=Settings())
    app = PlayApp(lang, lambda: game, layout=layout)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: game.view(0) is not None)
        await pilot.pause(0.1)
        board = text(app.screen.query_one(SlBoard).render())
        assert all(label in board for label in labels)
        assert bar in shown(app, "#keys")
        if layout == "azerty":
            screenshot(app, "two_azerty")


async def test_each_side_cancels_only_its_own_half_done_move() -> None:
    game = recording(sl, sl.Options(), {}, two=True, settings=Settings())
    app = PlayApp("en", lambda: game)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, GameScreen))
        board = app.screen.query_one(SlBoard)
        board.moving.update({0: 2, 1: 3})  # both halfway through a move
        await pilot.press("backspace")  # the right player's cancel key
        assert board.moving == {0: 2}
        await pilot.press("backspace")  # nothing left to cancel on the right: nothing happens
        assert board.moving == {0: 2} and isinstance(app.screen, GameScreen)
        board.moving[1] = 4
        await pilot.press("escape")  # the left player's
        assert board.moving == {1: 4} and isinstance(app.screen, GameScreen)
        await pilot.press("backspace", "escape")  # no move on either side: Esc asks to quit
        assert isinstance(app.screen, QuitDialog)
