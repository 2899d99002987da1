"""Whole offline rounds of both games, played by key presses against real bots on the real clock
(a wrong card on a virtual one)."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from tui.kit import (
    Recording,
    bot,
    idle,
    play_out,
    recording,
    screenshot,
    shown,
    sl_keys,
    text,
    until,
    us_deal,
    us_keys,
)
from zackzack.engine.clock import VirtualClock
from zackzack.engine.table import Phase, Settings
from zackzack.games import schnelllauf as sl
from zackzack.games import unter_spannung as us
from zackzack.games.schnelllauf.board import SlBoard
from zackzack.games.unter_spannung.board import UsBoard
from zackzack.tui import game_screen
from zackzack.tui.app import PlayApp
from zackzack.tui.game_screen import GameScreen
from zackzack.tui.keys import hand_key


async def test_a_whole_round_of_unter_spannung_by_keys() -> None:
    made: list[Recording] = []

    def session() -> Recording:
        options = us.Options(players=3, penalty_ms=200, countdown_ms=2000)  # seen on a busy machine
        made.append(recording(us, options, {1: bot("normal"), 2: bot("pro")}, seed=9))
        return made[-1]

    app = PlayApp("en", session)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: bool(made) and isinstance(app.screen, GameScreen))
        game = made[0]
        await until(pilot, lambda: "Starting in" in shown(app, "#banner"))
        await until(pilot, lambda: game.view(0).phase is Phase.PLAYING)  # type: ignore[union-attr]
        board = app.screen.query_one(UsBoard)
        hand = text(board.render())
        assert "Your hand (4)" in hand and "Pile" in hand

        async def snap(presses: int) -> None:
            if presses == 3:
                screenshot(app, "us_playing")

        await play_out(pilot, lambda: game.view(0), us_keys(board), snap)
        view = game.view(0)
        assert view is not None and view.phase is Phase.OVER and view.result is not None
        # every card went out aimed at the version shown; quick fingers lose races, never guess
        plays = [(action, version) for seat, action, version in game.acts
                 if isinstance(action, us.Play)]
        assert plays and all(a.seen is not None and a.seen <= v for a, v in plays)
        assert {code for _, code in game.refusals} <= {"too_late"}
        assert game.played(0) >= 1
        await pilot.pause(0.1)
        assert not board.display and app.screen.query_one("#results").display
        panel = shown(app, "#results")
        assert "Match over" in panel and "minus points" in panel and "Enter: play again" in panel
        assert "Round 1: " in shown(app, "#log")
        screenshot(app, "us_results")
        await pilot.press("enter")
        await until(pilot, lambda: len(made) == 2 and app.screen.query(UsBoard).first().display)
        assert made[0]._players == []  # the old match's bots were stopped


async def test_a_whole_round_of_schnelllauf_by_keys() -> None:
    options = sl.Options(max_rounds=1, countdown_ms=100, penalty_ms=200)
    game = recording(sl, options, {1: bot("pro")}, seed=4)
    app = PlayApp("de", lambda: game, again=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: game.view(0) is not None
                    and game.view(0).phase is Phase.PLAYING)  # type: ignore[union-attr]
        assert "Stapel 1" in text(app.screen.query_one(SlBoard).render())

        async def snap(presses: int) -> None:
            if presses == 4:
                screenshot(app, "sl_playing_de")

        await play_out(pilot, lambda: game.view(0), lambda view: sl_keys(view, 0, 0), snap)
        view = game.view(0)
        assert view is not None and view.phase is Phase.OVER and view.result is not None
        assert game.played(0) >= 5
        plays = [action for _, action, _ in game.acts if isinstance(action, sl.Play)]
        assert plays and all(action.seen is not None for action in plays)
        assert {code for _, code in game.refusals} <= {"too_late"}
        await pilot.pause(0.1)
        panel = shown(app, "#results")
        assert "Partie vorbei" in panel and "Karten" in panel and "Esc: beenden" in panel
        log = shown(app, "#log")
        assert "Partie vorbei: 1. " in log and " Karten)" in log  # the places in German too
        assert not any(word in log for word in ("cards", "fewer", "more", "no cards"))
        screenshot(app, "sl_results_de")


async def test_a_wrong_card_freezes_and_says_so(monkeypatch: pytest.MonkeyPatch) -> None:
    # The table and the screen's feedback run on a virtual clock: "still frozen" and "the
    # message stays" hold however slowly a loaded machine gets from one key to the next.
    clock = VirtualClock()
    monkeypatch.setattr(game_screen, "time", SimpleNamespace(monotonic=clock.time))
    deal = us_deal(["3±1 8±2 4±1", "6±1 9±3 4±2"], ["1±1 4±3", "2±2 7±1"], "5±2",
                   penalty_ms=4000)
    game = recording(us, deal.options, {1: idle}, settings=Settings(), deal=deal, clock=clock)
    app = PlayApp("en", lambda: game)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: game.view(0) is not None)
        await pilot.press("3")  # sorted hand: 3±1, 4±1, 8±2; 8 does not fit 5±2
        assert game.refusals == [(0, "does_not_fit")]
        assert "Does not fit" in shown(app, "#feedback")
        assert "frozen" in text(app.screen.query_one(UsBoard).render())
        clock.run(until=clock.time() + 2.0)  # within the freeze, and the message's 2.5 s
        await pilot.press("1")  # still frozen; the stronger message stays
        assert game.refusals[-1] == (0, "frozen") and "Does not fit" in shown(app, "#feedback")
        frozen_until = game.view(0).frozen_until[0]  # type: ignore[union-attr]
        assert frozen_until == 4000  # the penalty from the wrong card at table time 0
        clock.run(until=frozen_until / 1000 + 0.001)
        assert game.now() > frozen_until
        await pilot.press("1")  # 3±1 fits 5±2 (5 - 2)
        assert game.played(0) == 1
        view = game.view(0)
        assert view is not None and str(view.state.top) == "3±1"


async def test_a_lost_race_says_who_was_faster_and_does_not_freeze() -> None:
    deal = us_deal(["3±1 8±2 4±1", "7±1 9±3 4±2"], ["1±1 4±3", "2±2 7±1"], "5±2",
                   penalty_ms=4000)
    game = recording(us, deal.options, {1: idle}, settings=Settings(), deal=deal)
    app = PlayApp("de", lambda: game)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, GameScreen))
        board = app.screen.query_one(UsBoard)
        clock = [0.0]  # what was on screen when, on a clock the test moves
        board.sightings.clock = lambda: clock[0]
        await until(pilot, lambda: game.view(0) is not None
                    and game.view(0).phase is Phase.PLAYING)  # type: ignore[union-attr]
        await until(pilot, lambda: bool(board.sightings.shown))
        clock[0] = 10.0
        assert game.table is not None
        game.table.submit(1, us.Play(us.Card(7, 1), seen=0))  # 5±2 → 7±1: 3 fitted, now no more
        assert board.sightings.shown[0][-1] == (1, 10.0)
        clock[0] = 10.25  # a quarter second later: the key answered 5±2
        await pilot.press("1")  # sorted hand: 3±1, 4±1, 8±2
        assert game.acts[-1][1] == us.Play(us.Card(3, 1), seen=0)
        assert game.refusals == [(0, "too_late")]
        lost = game.lost[-1]
        assert lost is not None and lost.winner == 1 and lost.margin_ms >= 0
        assert f"Zu spät – Bot 1 war {lost.margin_ms} ms schneller" in shown(app, "#feedback")
        view = game.view(0)
        assert view is not None and view.frozen_until[0] == 0
        screenshot(app, "us_too_late_de")


async def test_a_hand_longer_than_the_keys_stays_reachable() -> None:
    long_hand = " ".join(f"{v}±{s}" for v in range(1, 11) for s in (1, 2, 3))
    extra = "1±1 1±2 2±1 2±2 3±1 3±2 4±1 4±2"  # 38 cards in all: more than the 35 keys
    deal = us_deal([f"{long_hand} {extra}", "5±1 6±1"], ["7±1", "8±1"], "10±3")
    game = recording(us, deal.options, {1: idle}, settings=Settings(), deal=deal)
    app = PlayApp("en", lambda: game)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: game.view(0) is not None)
        board = app.screen.query_one(UsBoard)
        await pilot.pause(0.3)
        shown_now = text(board.render())
        assert "Your hand (38)" in shown_now and "more ▸" in shown_now
        hand = board.hand()
        assert [hand_key(i) for i in (0, 9, 10, 34, 35)] == ["1", "0", "w", "m", ""]
        await pilot.press("down")  # the first arrow shows the cursor where it is
        await pilot.press("down", "down", "down", "right", "right", "right", "right", "right")
        target = min(board.cursor, len(hand) - 1)
        assert target >= 35  # beyond the keys
        screenshot(app, "us_long_hand")
        wanted = hand[target]
        await pilot.press("enter")
        assert game.acts[-1][1] == us.Play(wanted, seen=0)
        assert "◂" in text(board.render())


async def test_nichts_geht_mehr_counts_down_on_screen() -> None:
    deal = us_deal(["1±1 2±1", "1±2 2±2"], ["", ""], "3±1 4±1 5±1 6±2 7±3 3±3 9±1")
    game = recording(us, deal.options, {1: idle}, settings=Settings(), deal=deal)
    app = PlayApp("en", lambda: game)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: "Nichts geht mehr" in shown(app, "#banner"))
        banner = shown(app, "#banner")
        assert "the bottom card of the pile goes on top" in banner and " s " in banner
        screenshot(app, "us_nichts_geht_mehr")
        await until(pilot, lambda: "The bottom card 3±1 goes on top" in shown(app, "#log"))
        view = game.view(0)
        assert view is not None and str(view.state.top) == "3±1" and view.state.rotations == 1
