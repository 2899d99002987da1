"""Schnelllauf keys: one stroke a play, two strokes a move, two players on the keyboard's halves."""

from __future__ import annotations

import itertools

from tui.kit import idle, play_out, recording, screenshot, shown, sl_keys, text, until
from zackzack.engine.table import Phase, Settings, TableView
from zackzack.games import schnelllauf as sl
from zackzack.games.schnelllauf.board import SlBoard
from zackzack.tui.app import PlayApp

from builders import scenario

OPTIONS = sl.Options(max_rounds=1, countdown_ms=100, penalty_ms=300)


async def test_plays_and_moves_by_keys_with_feedback() -> None:
    options = sl.Options(max_rounds=1, penalty_ms=5000)  # a freeze long enough to look at
    deal = scenario(("2c 9h | 5d | | | ", "Kc | Kd | | | "), ("10s", "*"), ("REST", "REST"),
                    options=options)
    game = recording(sl, options, {1: idle}, settings=Settings(), deal=deal)
    app = PlayApp("en", lambda: game)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: game.view(0) is not None)
        board = app.screen.query_one(SlBoard)
        await pilot.pause(0.3)  # long enough to have seen the piles
        assert "free" in text(board.render())  # a joker that starts a pile takes anything
        await pilot.press("3")  # empty place 3: a move into it begins
        assert board.moving == {0: 2} and "Move into place 3" in shown(app, "#banner")
        screenshot(app, "sl_move")
        await pilot.press("a")  # place 1's card (9h) goes there, turning up the 2c
        assert isinstance(game.acts[-1][1], sl.Move) and game.acts[-1][1] == sl.Move(0, 2)
        assert board.moving == {}
        await pilot.press("3")  # 9h onto pile 1 (10s): it fits
        assert game.acts[-1][1] == sl.Play(sl.Card.parse("9h"), 0, seen=0)
        assert game.played(0) == 1
        await pilot.press("s")  # 5d onto pile 2 (the free joker): anything fits
        assert game.played(0) == 2
        await pilot.press("1")  # 2c onto pile 1 (9h): a wrong card
        assert game.refusals == [(0, "does_not_fit")]
        assert "Does not fit" in shown(app, "#feedback")
        assert "frozen" in text(board.render())


async def test_two_players_at_one_keyboard_play_a_round_with_both_halves() -> None:
    game = recording(sl, OPTIONS, {}, two=True, seed=5)
    app = PlayApp("en", lambda: game, again=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: game.view(0) is not None
                    and game.view(0).phase is Phase.PLAYING)  # type: ignore[union-attr]
        board = text(app.screen.query_one(SlBoard).render())
        assert "Left" in board and "Right" in board and "6y" in board and "1a" in board
        screenshot(app, "two_playing")
        turns = itertools.count()

        def both_halves(view: TableView) -> list[str]:
            hand = next(turns) % 2  # the players take their chances in turn
            return sl_keys(view, hand, hand) or sl_keys(view, 1 - hand, 1 - hand)

        await play_out(pilot, lambda: game.view(0), both_halves)
        view = game.view(0)
        assert view is not None and view.phase is Phase.OVER
        assert game.played(0) >= 3 and game.played(1) >= 3  # both halves of the keyboard
        seats = {seat for seat, _, _ in game.acts}
        assert seats == {0, 1}
        assert {code for _, code in game.refusals} <= {"too_late"}
        await pilot.pause(0.1)
        assert "Left" in shown(app, "#results") and "Right" in shown(app, "#results")
        screenshot(app, "two_results")
