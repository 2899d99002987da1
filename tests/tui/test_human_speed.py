"""The terminal at human speed (issue 31): two at one keyboard judged as two, keys that never
surprise (no quit or cancel key plays, Ctrl+C asks in the player's language, a half-done move
says what it waits for and gives up, Esc goes back one level), texts as people say them."""

from __future__ import annotations

import contextlib
import time

import pytest
from rich.text import Text

from tui.kit import Still, idle, recording, screenshot, shown, text, until
from zackzack.cli import parser
from zackzack.engine.table import Phase, Settings, TableView
from zackzack.engine.table_data import Penalised
from zackzack.games import schnelllauf as sl
from zackzack.games import unter_spannung as us
from zackzack.games.errors import DoesNotFit
from zackzack.games.schnelllauf import keys as sl_keys
from zackzack.games.schnelllauf.board import SlBoard, top_card
from zackzack.games.unter_spannung import keys as us_keys
from zackzack.games.unter_spannung.board import UsBoard
from zackzack.tui import keys
from zackzack.tui.app import PlayApp
from zackzack.tui.cards import plain
from zackzack.tui.cli import sessions
from zackzack.tui.dialogs import HelpScreen, QuitDialog
from zackzack.tui.game_screen import GameScreen
from zackzack.tui.offline import OfflineSession
from zackzack.tui.session import Seat
from zackzack.tui.setup import Setup, SetupError
from zackzack.tui.start import StartScreen
from zackzack.words.describe import describe, seconds

from builders import scenario

PLAYS = (keys.HandCard, keys.MoveCursor, keys.Confirm, us_keys.DrawCard, sl_keys.PlacePile)
"""Commands that act at the table."""


def _phase(game: OfflineSession) -> Phase | None:
    view = game.view(0)
    return view.phase if view is not None else None


# Two at one keyboard: each player's eyes are their own ----------------------------------------

def _race() -> sl.State:
    """Left holds 9♥ and J♦, right J♣: each fits pile 1's 10♠, none fits 6♥ (a fresh deal:
    the table plays it)."""
    return scenario(("2c 9h | Jd | | | ", "Jc | Kd | | | "), ("10s", "6h"), ("REST", "REST"),
                    options=sl.Options(max_rounds=1, penalty_ms=1000))


@pytest.mark.parametrize(("after", "code"), [
    (0.1, "too_late"), (0.3, "too_late"), (0.5, "too_late"), (0.7, "does_not_fit")])
async def test_two_at_one_keyboard_a_card_pressed_soon_after_the_others_is_too_late(
        after: float, code: str) -> None:
    """The issue's race: right plays J♣ on the 10♠; left's 9♥ (it fitted the 10♠, not the J♣)
    pressed ``after`` s later is too late within the reaction window, a wrong card after it."""
    deal = _race()
    game = recording(sl, deal.options, {}, two=True, settings=Settings(), deal=deal)
    app = PlayApp("en", lambda: game, again=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: _phase(game) is Phase.PLAYING)
        board = app.screen.query_one(SlBoard)
        clock = [0.0]  # what was on screen when, on a clock the test moves
        for seen in board.seen:
            seen.clock = lambda: clock[0]
        assert len(board.seen) == 2
        await until(pilot, lambda: all(seen.shown for seen in board.seen))
        clock[0] = 10.0
        await pilot.press("6")  # right: J♣ onto pile 1
        assert game.played(1) == 1, (game.acts, game.refusals)
        clock[0] = 10.0 + after
        await pilot.press("1")  # left: 9♥ onto pile 1, now the J♣
        assert game.acts[-1][1] == sl.Play(sl.Card.parse("9h"), 0, seen=0 if after < 0.6 else 1)
        assert game.refusals == [(0, code)]
        view = game.view(0)
        assert view is not None and view.frozen_until[0] == (0 if code == "too_late" else
                                                            view.frozen_until[0])
        if code == "too_late":
            lost = game.lost[-1]
            assert lost is not None and lost.winner == 1
            assert f"Left: Too late – Right was {lost.margin_ms} ms faster" \
                in shown(app, "#feedback")
            assert view.frozen_until[0] == 0  # no penalty
        else:
            assert "Left: Does not fit" in shown(app, "#feedback")


async def test_two_at_one_keyboard_ones_own_card_is_known_at_once() -> None:
    """Left's own 9♥ on the 10♠: left's J♦ 0.3 s later answers the 9♥ (own card, seen at
    once) and is wrong; right's view of the same pile is not touched by it."""
    deal = _race()
    game = recording(sl, deal.options, {}, two=True, settings=Settings(), deal=deal)
    app = PlayApp("en", lambda: game, again=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: _phase(game) is Phase.PLAYING)
        board = app.screen.query_one(SlBoard)
        clock = [0.0]
        for seen in board.seen:
            seen.clock = lambda: clock[0]
        await until(pilot, lambda: all(seen.shown for seen in board.seen))
        clock[0] = 10.0
        await pilot.press("1")  # left: 9♥ onto pile 1
        assert game.played(0) == 1
        assert board.seen[0].shown[0][-1] == (1, 10.0 - 0.6)  # left's own: known at once
        assert board.seen[1].shown[0][-1] == (1, 10.0)  # right sees it now
        clock[0] = 10.3
        await pilot.press("2")  # left: J♦ onto pile 1, now the 9♥
        assert game.acts[-1][1] == sl.Play(sl.Card.parse("Jd"), 0, seen=1)
        assert game.refusals == [(0, "does_not_fit")]


# Keys that never surprise -------------------------------------------------------------------

def _schemes() -> list[tuple[str, keys.Scheme]]:
    found: list[tuple[str, keys.Scheme]] = [("unter-spannung", us_keys.scheme())]
    for layout in keys.KEYBOARDS:
        found += [(f"schnelllauf {layout}", sl_keys.scheme(layout=layout)),
                  (f"schnelllauf two {layout}", sl_keys.scheme(two=True, layout=layout))]
    return found


@pytest.mark.parametrize(("name", "scheme"), _schemes())
def test_no_quit_or_cancel_key_plays(name: str, scheme: keys.Scheme) -> None:
    """Q, Esc, Ctrl+C, Ctrl+Q, Backspace … never play, move or draw: they quit (asking
    first), go back, cancel a half-done move, or do nothing."""
    for key in keys.QUIT_KEYS:
        command = scheme.command(key)
        assert not isinstance(command, PLAYS), (name, key, command)
    for key in ("q", "ctrl+c", "ctrl+q"):
        assert scheme.command(key) == keys.AskQuit(), (name, key)
    assert isinstance(scheme.command("escape"), keys.Cancel)
    help_keys = " ".join(row.keys for _, rows in scheme.help for row in rows)
    assert "Q Ctrl+Q Ctrl+C" in help_keys and "Esc" in help_keys


async def test_ctrl_c_and_q_ask_in_the_players_language_and_pause() -> None:
    game = recording(us, us.Options(players=2), {1: idle}, settings=Settings())
    app = PlayApp("de", lambda: game)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: _phase(game) is Phase.PLAYING)
        await pilot.press("ctrl+c")
        assert isinstance(app.screen, QuitDialog)
        assert "Das Spiel beenden?" in shown(app, "Static")
        await until(pilot, lambda: _phase(game) is Phase.PAUSED)
        assert not app._notifications  # no Textual "Press ctrl+q" notice
        await pilot.press("n")
        assert isinstance(app.screen, GameScreen)
        await pilot.press("q")  # once the hand's 11th card: now it asks to quit
        assert isinstance(app.screen, QuitDialog) and game.acts == []
        await pilot.press("j")
        await until(pilot, lambda: not app.is_running)


async def test_the_help_shows_the_layout_and_how_a_round_is_won() -> None:
    game = recording(sl, sl.Options(), {1: idle}, settings=Settings())
    app = PlayApp("en", lambda: game)
    async with app.run_test(size=(120, 40)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, GameScreen))
        await pilot.press("question_mark")
        assert isinstance(app.screen, HelpScreen)
        help_text = " ".join(shown(app, "#help").split())
        assert "1 2 3 4 5" in help_text and "a s d f g" in help_text
        assert "q w e r t" not in help_text
        assert "wins the round" in help_text and '"=9|J"' in help_text


async def test_a_half_done_move_says_what_it_waits_for_and_gives_up() -> None:
    options = sl.Options(max_rounds=1)
    deal = scenario(("2c 9h | 5d | | | ", "Kc | Kd | | | "), ("10s", "*"), ("REST", "REST"),
                    options=options)
    game = recording(sl, options, {1: idle}, settings=Settings(), deal=deal)
    app = PlayApp("de", lambda: game)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: _phase(game) is Phase.PLAYING)
        board = app.screen.query_one(SlBoard)
        await pilot.press("3")  # an empty place: a move into it begins
        assert board.moving == {0: 2}
        await until(pilot, lambda: "Umlegen auf Platz 3" in shown(app, "#banner"))
        assert "(4 s; Esc: abbrechen)" in shown(app, "#banner")
        assert "→" in text(board.render())
        board.moving_until[0] = time.monotonic() - 0.1  # the move waited its 4 s
        await until(pilot, lambda: not board.moving)
        assert "Umlegen abgebrochen: in 4 s keine Karte gewählt." in shown(app, "#feedback")
        assert "Umlegen" not in shown(app, "#banner")
        await pilot.press("a")  # so 9♥ goes onto pile 2 (a free joker), no move
        assert game.acts[-1][1] == sl.Play(sl.Card.parse("9h"), 1, seen=0)
        assert game.played(0) == 1


async def test_esc_goes_back_one_level_to_the_start_screen() -> None:
    game = recording(us, us.Options(players=2), {1: idle}, settings=Settings())
    app = PlayApp("en", lambda: game)
    app.chooser = True  # as if chosen on the start screen
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: _phase(game) is Phase.PLAYING)
        await pilot.press("escape")
        assert isinstance(app.screen, QuitDialog)
        assert "Leave this table?" in shown(app, "Static")
        assert "y: leave" in shown(app, "Static")
        await pilot.press("y")
        await until(pilot, lambda: isinstance(app.screen, StartScreen))
        assert app.is_running
        await pilot.press("escape")  # the start screen's Esc quits
        await until(pilot, lambda: not app.is_running)


# Texts as people say them ---------------------------------------------------------------------

def test_times_are_said_as_people_say_them() -> None:
    assert seconds(999) == "1" and seconds(7999) == "8" and seconds(1500) == "1.5"
    line = describe(Penalised(1, 10_999), ("Anna", "Ben"), now=10_000)
    assert line.endswith("frozen for 1 s.")


def test_a_joker_on_a_pile_says_what_it_is_not_what_fits() -> None:
    shown_top = plain(top_card(sl.JOKER, frozenset({9, 11}), "free"))
    assert "=9|J" in shown_top and " 9|J" not in shown_top.replace("=9|J", "")
    assert "free" in plain(top_card(sl.JOKER, None, "free"))


def test_counts_of_players_and_seats_read_right() -> None:
    with pytest.raises(SetupError) as refused:
        Setup("schnelllauf", ("normal", "pro"))
    assert "2 to 2" not in str(refused.value) and "is for 2 players" in str(refused.value)
    said = SetupError("…", "e_seats", game="Schnelllauf", low="2", high="2", n="3").say("en")
    assert said == "Schnelllauf is for 2 players: 3 seats do not fit."


def test_the_command_line_takes_german_bot_names() -> None:
    args = parser().parse_args(["play", "unter-spannung", "--bots", "Anfänger,Profi:zufällig"])
    maker = sessions(args, "de")
    assert maker is not None
    made = maker()
    assert isinstance(made, OfflineSession)
    assert [seat.kind for seat in made.seats] == ["human", "bot", "bot"]
    assert "Anfänger" in made.seats[1].name and "Profi" in made.seats[2].name


def _waiting_view() -> TableView:
    return TableView(game="unter-spannung", phase=Phase.WAITING, now=0, seat=0, players=3,
                     round=0, state=None, frozen_until=(0, 0, 0), countdown=None,
                     next_round_at=None, starts_at=None, results=(), totals=(0, 0, 0),
                     result=None)


async def test_a_refused_start_names_the_seats_from_1() -> None:
    seats = [Seat("Anna"), Seat("Ben", ready=False), Seat("(open)", "open", ready=False)]
    app = PlayApp("en", lambda: Still(us, _waiting_view(), seats))
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, GameScreen))
        screen = app.screen
        assert isinstance(screen, GameScreen)
        screen.refused(0, "not_ready", "seats 1, 2 are open or not ready")
        assert "waiting for seat 2, 3" in shown(app, "#feedback")


async def test_a_tournament_says_how_many_rounds_it_has() -> None:
    game = recording(us, us.Options(players=2, tournament=True), {1: idle}, settings=Settings())
    app = PlayApp("de", lambda: game)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: "Runde 1 von 4" in shown(app, "#head"))
        assert Text(shown(app, "#head")).cell_len <= 80


# A board that stays put, looked at: snapshots at 80×24 and 120×40 in both languages ------------

def _sl_board_deal() -> sl.State:
    """Pile 1 long (12 cards, a 9♣ on top), pile 2 a joker on a 4 (it is a 3 or a 5)."""
    return scenario(("2c 9h | 5d 6d | Kh | 3s | 8d", "Kc | Kd Qd | 7h | 7s | Js"),
                    ("2h 3h 4h 5h 6h 7h 8h 9h 10h Jh Qh 9c", "4d *"), ("REST", "REST"),
                    options=sl.Options(max_rounds=1, penalty_ms=10_000),
                    stands=[[9], [3, 5]])


@pytest.mark.parametrize("lang", ["en", "de"])
@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
async def test_snapshots_of_schnelllauf_with_a_frozen_opponent_a_joker_and_a_long_count(
        lang: str, size: tuple[int, int]) -> None:
    deal = _sl_board_deal()
    game = recording(sl, deal.options, {1: idle}, settings=Settings(), deal=deal)
    app = PlayApp(lang, lambda: game)
    async with app.run_test(size=size) as pilot:
        await until(pilot, lambda: _phase(game) is Phase.PLAYING)
        board = app.screen.query_one(SlBoard)
        await pilot.pause(0.1)
        before = text(board.render(), size[0])
        assert game.table is not None
        with contextlib.suppress(DoesNotFit):  # a wrong card: frozen for 10 s
            game.table.submit(1, sl.Play(sl.Card.parse("Js"), 1, seen=0))
        await until(pilot, lambda: "❄" in text(board.render(), size[0]))
        after = text(board.render(), size[0])
        assert "=3|5" in after and "12" in after
        lines_before, lines_after = before.splitlines(), after.splitlines()
        assert len(lines_before) == len(lines_after)  # frozen shown without reflow
        pile = next(i for i, line in enumerate(lines_after) if "1–5" in line)
        assert lines_before[pile].index("1–5") == lines_after[pile].index("1–5")
        screenshot(app, f"h31_sl_frozen_{lang}_{size[0]}x{size[1]}")


@pytest.mark.parametrize("lang", ["en", "de"])
@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
async def test_snapshots_of_unter_spannung_with_frozen_opponents(
        lang: str, size: tuple[int, int]) -> None:
    options = us.Options(players=5, penalty_ms=10_000)
    game = recording(us, options, dict.fromkeys(range(1, 5), idle), settings=Settings(), seed=3)
    app = PlayApp(lang, lambda: game)
    async with app.run_test(size=size) as pilot:
        await until(pilot, lambda: _phase(game) is Phase.PLAYING)
        board = app.screen.query_one(UsBoard)
        await pilot.pause(0.1)
        before = text(board.render(), size[0]).splitlines()
        assert game.table is not None
        for seat in (2, 4):  # a wrong card each: frozen for 10 s
            view = game.table.view(seat)
            wrong = next(card for card in view.state.hand if not us.fits(card, view.state.top))
            with contextlib.suppress(DoesNotFit):
                game.table.submit(seat, us.Play(wrong, seen=view.state.version))
        await until(pilot, lambda: text(board.render(), size[0]).count("❄") == 2)
        after = text(board.render(), size[0]).splitlines()
        assert len(before) == len(after)  # frozen shown without a new row
        pile = next(i for i, line in enumerate(before) if "1" in line and "╭" in line)
        assert [line.find("╭") for line in before[pile:]] == \
            [line.find("╭") for line in after[pile:]]  # the pile and hand stay put
        screenshot(app, f"h31_us_frozen_{lang}_{size[0]}x{size[1]}")


async def test_no_free_look_while_paused() -> None:
    """Help during the start countdown (or the quit question in play) pauses the table: the
    cards are not on screen until play goes on."""
    game = recording(us, us.Options(players=2), {1: idle}, settings=Settings(start_ms=5_000))
    app = PlayApp("en", lambda: game)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: _phase(game) is Phase.STARTING)
        await pilot.press("question_mark")
        await until(pilot, lambda: _phase(game) is Phase.PAUSED)
        await pilot.press("x")  # closes the help: a countdown, the table still paused
        await until(pilot, lambda: "goes on in" in shown(app, "#banner"))
        screen = app.screen
        assert isinstance(screen, GameScreen)
        board = screen.query_one(UsBoard)
        assert not board.display and "hidden" in shown(app, "#panel")
        screenshot(app, "h31_paused_hidden")
        await until(pilot, lambda: _phase(game) is Phase.PLAYING, timeout=15)
        await pilot.press("ctrl+q")
        await until(pilot, lambda: _phase(game) is Phase.PAUSED)
        assert not board.display  # the quit question hides the board behind it
        await pilot.press("n")
        await until(pilot, lambda: _phase(game) is Phase.PLAYING)
        assert board.display and "Your hand" in text(board.render())
