"""No accidental plays: Enter plays only a card chosen on screen, quitting takes an explicit
key, and keys before play begins are answered in words instead of being lost."""

from __future__ import annotations

from tui.kit import Still, idle, recording, screenshot, shown, until, us_deal
from zackzack.engine.table import Phase, Settings, TableView
from zackzack.games import unter_spannung as us
from zackzack.games.base import MatchResult, Placing, RoundResult
from zackzack.games.unter_spannung.board import UsBoard
from zackzack.tui.app import PlayApp
from zackzack.tui.dialogs import QuitDialog
from zackzack.tui.game_screen import GameScreen
from zackzack.tui.session import Seat, Session


async def test_enter_with_no_cursor_on_screen_plays_nothing() -> None:
    deal = us_deal(["3±1 8±2 4±1", "6±1 9±3 4±2"], ["1±1 4±3", "2±2 7±1"], "5±2")
    game = recording(us, deal.options, {1: idle}, settings=Settings(), deal=deal)
    app = PlayApp("en", lambda: game)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: game.view(0) is not None)
        board = app.screen.query_one(UsBoard)
        await pilot.press("enter", "enter")
        assert game.acts == [] and not board.chosen()
        assert "Enter plays the card chosen with ← → – choose one first." in shown(app, "#feedback")
        screenshot(app, "us_enter_no_cursor")
        await pilot.press("right")  # the first arrow shows the cursor where it is
        assert board.chosen() and board.cursor == 0
        first = board.hand()[0]
        await pilot.press("enter")
        assert [action for _, action, _ in game.acts] == [us.Play(first, seen=0)]


async def test_escape_then_enter_does_not_quit_only_y_does() -> None:
    game = recording(us, us.Options(players=2), {1: idle}, settings=Settings())
    app = PlayApp("de", lambda: game)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, GameScreen))
        await pilot.press("escape", "enter", "enter")
        assert isinstance(app.screen, QuitDialog) and app.is_running
        assert "j: beenden · n / Esc: weiterspielen" in shown(app, "Static")
        await pilot.press("escape")
        assert isinstance(app.screen, GameScreen) and game.acts == []
        await pilot.press("ctrl+q", "j")
        await until(pilot, lambda: not app.is_running)
        assert app.return_code == 0


async def test_keys_during_the_start_countdown_get_a_short_message() -> None:
    # a long countdown, so that the keys surely come before the start however busy the machine
    game = recording(us, us.Options(players=2), {1: idle}, settings=Settings(start_ms=20_000))
    app = PlayApp("en", lambda: game)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: game.view(0) is not None
                    and game.view(0).phase is Phase.STARTING)  # type: ignore[union-attr]
        await pilot.press("1", "space", "right", "enter")
        assert game.acts == [] and game.refusals == []  # nothing was sent
        assert "Not yet – the match starts in " in shown(app, "#feedback")
        screenshot(app, "us_not_yet")


def _over() -> TableView:
    result = MatchResult((Placing(0, 1, 0, "went_out"), Placing(1, 2, 5, "minus")), 1, "done")
    return TableView(game="unter-spannung", phase=Phase.OVER, now=9_000, seat=0, players=2,
                     round=1, state=None, frozen_until=(0, 0), countdown=None,
                     next_round_at=None, starts_at=None,
                     results=(RoundResult(1, 0, "went_out", (0, 5)),), totals=(0, 5),
                     result=result)


async def test_enter_twice_after_the_match_starts_one_new_match_and_plays_nothing() -> None:
    made: list[Session] = []

    def session() -> Session:
        if not made:
            made.append(Still(us, _over(), [Seat("Anna"), Seat("Ben", "bot")]))
        else:
            made.append(recording(us, us.Options(players=2), {1: idle},
                                  settings=Settings(start_ms=20_000)))
        return made[-1]

    app = PlayApp("en", session)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: "Enter: play again" in shown(app, "#results"))
        await pilot.press("enter", "enter")
        await until(pilot, lambda: len(made) == 2 and isinstance(app.screen, GameScreen)
                    and app.screen.session is made[1])
        await pilot.press("enter", "1")
        await pilot.pause(0.1)
        assert len(made) == 2 and made[1].acts == []  # type: ignore[attr-defined]
