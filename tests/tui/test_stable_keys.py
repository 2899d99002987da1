"""Unter Spannung: a card keeps its key while it is in the hand; a drawn card takes a free key."""

from __future__ import annotations

from tui.kit import idle, recording, screenshot, text, until, us_deal
from zackzack.engine.table import Settings
from zackzack.games import unter_spannung as us
from zackzack.games.unter_spannung.board import UsBoard
from zackzack.tui.app import PlayApp

C = us.Card.parse


async def test_keys_stay_with_their_cards_through_plays_and_draws() -> None:
    deal = us_deal(["3±1 8±2 4±1", "6±1 9±3 4±2"], ["1±1 9±3 2±2", "2±1 7±1"], "5±2")
    game = recording(us, deal.options, {1: idle}, settings=Settings(), deal=deal)
    app = PlayApp("en", lambda: game)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: game.view(0) is not None)
        board = app.screen.query_one(UsBoard)
        keys = lambda: {str(card): board.key_of(card) for card in board.hand()}  # noqa: E731
        assert keys() == {"3±1": "1", "4±1": "2", "8±2": "3"}  # a new hand: sorted
        await pilot.press("1")  # 3±1 onto 5±2
        await until(pilot, lambda: len(board.hand()) == 2)
        assert keys() == {"4±1": "2", "8±2": "3"}  # the others keep their keys
        await pilot.press("space")
        await until(pilot, lambda: len(board.hand()) == 3)
        drawn = next(card for card in board.hand() if str(card) not in ("4±1", "8±2"))
        assert board.key_of(drawn) == "1"  # the free key: where the played card was
        await pilot.press("space")
        await until(pilot, lambda: len(board.hand()) == 4)
        second = next(card for card in board.hand() if card not in (drawn, C("4±1"), C("8±2")))
        assert board.key_of(second) == "4"  # no free key: the next one
        await pilot.press("2")  # 4±1 onto 3±1
        await until(pilot, lambda: len(board.hand()) == 3)
        assert board.key_of(C("8±2")) == "3" and board.key_of(drawn) == "1"
        assert board.key_of(second) == "4"
        assert board.hand() == [drawn, C("8±2"), second]  # shown in key order
        assert "Your hand (3)" in text(board.render())
        screenshot(app, "us_stable_keys")
        assert game.refusals == []
