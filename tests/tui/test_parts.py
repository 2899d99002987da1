"""The parts under the screens: key schemes, card drawings, the JSON codec, setups, the command."""

from __future__ import annotations

import argparse
import random
import socket

import pytest

from tui.kit import text
from zackzack.cli import main, parser
from zackzack.engine.clock import VirtualClock
from zackzack.engine.table import Table
from zackzack.games import base, entry
from zackzack.games import schnelllauf as sl
from zackzack.games import unter_spannung as us
from zackzack.games.base import Rules
from zackzack.games.schnelllauf import keys as sl_keys
from zackzack.games.schnelllauf.board import readable, top_card
from zackzack.games.unter_spannung import keys as us_keys
from zackzack.games.unter_spannung.board import SPREADS, hand_card
from zackzack.tui import cli, keys
from zackzack.tui.board import Sightings
from zackzack.tui.cards import plain
from zackzack.tui.cli import sessions
from zackzack.tui.codec import decode_event, decode_view
from zackzack.tui.lobby import waiting
from zackzack.tui.offline import OfflineSession
from zackzack.tui.remote import parse_link
from zackzack.tui.session import Seat
from zackzack.tui.setup import Setup, SetupError, options
from zackzack.tui.texts import system_lang
from zackzack.words import catalogue
from zackzack.words.describe import describe

LEFT_HALF = set("12345qwertasdfgxcvb")
RIGHT_HALF = set("67890yzuiophjklnm")


def test_every_hand_card_has_its_own_key_and_the_commands_do_not_collide() -> None:
    scheme = us_keys.scheme()
    cards = [scheme.command(key) for key in keys.HAND_KEYS]
    assert cards == [keys.HandCard(i) for i in range(35)]
    assert scheme.command("space") == us_keys.DrawCard()
    assert scheme.command("y") == keys.HandCard(14)  # no German alias outside two-player mode
    assert keys.hand_key(34) == "m" and keys.hand_key(35) == ""
    assert scheme.command("q") == keys.AskQuit()  # Q quits (asking first), never plays


def test_two_at_one_keyboard_each_keep_to_their_half() -> None:
    scheme = sl_keys.scheme(two=True)
    for key, command in scheme.keys.items():
        if isinstance(command, sl_keys.PlacePile):
            assert key in (LEFT_HALF if command.hand == 0 else RIGHT_HALF), key
    plays = {(c.hand, c.place, c.pile) for c in scheme.keys.values()
             if isinstance(c, sl_keys.PlacePile)}
    assert plays == {(h, p, q) for h in range(2) for p in range(5) for q in range(2)}
    assert scheme.command("y") == scheme.command("z") == sl_keys.PlacePile(1, 0, 1)
    alone = sl_keys.scheme()
    assert alone.command("6") is None and alone.command("1") == sl_keys.PlacePile(0, 0, 0)


def test_spreads_differ_by_mark_not_only_by_colour() -> None:
    marks = {mark for mark, _ in SPREADS.values()}
    assert len(marks) == 3
    for spread, (mark, _) in SPREADS.items():
        drawn = plain(hand_card(us.Card(7, spread), key="a"))
        assert f"{mark}±{spread}" in drawn and "a" in drawn and " 7 " in drawn
    assert "3|5" in plain(top_card(sl.JOKER, frozenset({3, 5}), "free"))
    assert "free" in plain(top_card(sl.JOKER, None, "free"))


@pytest.mark.parametrize("rules", [us, sl], ids=["unter-spannung", "schnelllauf"])
def test_views_and_events_survive_the_wire(rules: Rules) -> None:
    clock = VirtualClock()
    table = Table(rules, rules.parse_options({}), clock=clock, seed=3)
    seen: list[object] = []
    table.subscribe(0, seen.extend)
    table.start()
    for turn in range(60):
        actions = rules.legal_actions(table.state, turn % 2)
        if actions:
            table.submit(turn % 2, random.Random(turn).choice(actions))
        else:
            clock.run(until=clock.time() + 2)  # the stalemate's countdown and flip
    for seat in (0, 1, None):
        view = table.view(seat)
        assert decode_view(rules, base.plain(view)) == view
    assert len({event.kind for event in seen}) >= 3  # type: ignore[attr-defined]
    for event in seen:
        assert decode_event(rules, base.plain(event)) == event  # type: ignore[arg-type]


def test_setups_are_checked_before_the_app_starts() -> None:
    assert Setup("unter-spannung").opponents == ("normal", "normal")
    with pytest.raises(ValueError, match="unknown bot level"):
        Setup("unter-spannung", ("wizard",))
    with pytest.raises(ValueError, match="2 to 6 players: 1 to 5 bot"):
        Setup("unter-spannung", ("pro",) * 6)
    with pytest.raises(ValueError, match="Unter Spannung has no option --local-two"):
        Setup("unter-spannung", local_two=True)
    with pytest.raises(ValueError, match="two people at one keyboard and no bot"):
        Setup("schnelllauf", ("pro", "pro"))
    with pytest.raises(ValueError, match="start with the player, 1 to 2"):
        Setup("schnelllauf", handicap=("everyone",))
    with pytest.raises(ValueError, match="write --handicap 2:pile=4"):
        Setup("schnelllauf", handicap=("bot:piles",))
    with pytest.raises(ValueError, match="Schnelllauf has no option spread"):
        Setup("schnelllauf", options=("spread=2",))
    assert options(Setup("schnelllauf", handicap=("1",))).pile_size == (4, 3)
    two = options(Setup("schnelllauf", handicap=("2:pile=4", "1:one-hand"), local_two=True))
    assert (two.pile_size, two.one_hand_seats) == ((3, 4), (True, False))
    assert options(Setup("schnelllauf", options=("jokers=1",))).jokers == 1


def test_the_players_come_from_the_bots_and_a_contradiction_is_refused() -> None:
    assert options(Setup("unter-spannung", ("pro", "pro"), options=("players=3",))).players == 3
    with pytest.raises(SetupError) as refused:
        Setup("unter-spannung", options=("players=5",))
    assert "--option players=5" in str(refused.value) and "--bots" in str(refused.value)
    assert refused.value.say("de") == ("Unter Spannung: --option players=5 passt nicht: Bots "
                                       "und Menschen hier sind 3 Spieler (die Zahl ergibt "
                                       "sich aus --bots).")
    with pytest.raises(SetupError, match="make 2 players"):
        Setup("schnelllauf", options=("players=3",))


def test_the_old_handicap_form_is_refused_with_the_new_spelling_in_both_languages() -> None:
    with pytest.raises(SetupError) as refused:
        Setup("schnelllauf", handicap=("me:piles",))
    assert "write --handicap 1:pile=4" in str(refused.value)
    assert "--handicap 1:pile=4" in refused.value.say("de")
    assert "--handicap 1:pile=4" in refused.value.say("en")
    with pytest.raises(SetupError, match=r"^--handicap 1:pile=x: .*pile_size\[0\]"):
        Setup("schnelllauf", handicap=("1:pile=x",))


def test_the_game_of_local_two_and_handicaps_is_picked_only_when_one_has_them(
        monkeypatch: pytest.MonkeyPatch) -> None:
    assert cli.only_game(True, False) == cli.only_game(False, True) == "schnelllauf"
    two = [entry("schnelllauf"), entry("schnelllauf")]
    monkeypatch.setattr(cli, "registered", lambda: two)
    with pytest.raises(ValueError, match="--local-two: schnelllauf, schnelllauf have it; "
                                         "name the game"):
        sessions(_args("--local-two"), "en")
    monkeypatch.setattr(cli, "registered", lambda: [entry("unter-spannung")])
    with pytest.raises(ValueError, match="--handicap: no game has it"):
        sessions(_args("--handicap", "1"), "en")


def test_the_schnelllauf_log_shows_its_cards_without_changing_the_event() -> None:
    flipped = sl.Flipped((sl.Card.parse("Qh"), sl.JOKER), (3, 4))
    line = describe(flipped, ("Anna", "Ben"))
    shown = readable(flipped, line)
    assert "Q♥" in shown and "★" in shown and "Qh" not in shown
    assert flipped.cards == (sl.Card.parse("Qh"), sl.JOKER)  # still cards, not text


def _args(*argv: str) -> argparse.Namespace:
    return parser().parse_args(["play", *argv])


def test_the_play_command_makes_the_sessions_the_arguments_ask_for() -> None:
    assert sessions(_args(), "en") is None  # the start screen asks
    maker = sessions(_args("unter-spannung", "--bots", "normal,pro,beginner", "--tournament",
                           "--seed", "4"), "de")
    assert maker is not None
    made = maker()
    assert isinstance(made, OfflineSession)
    assert made.options.players == 4 and made.options.tournament and made.mine == (0,)
    assert [seat.name for seat in made.seats] == ["Du", "Ben (normal)", "Carla (Profi)",
                                                  "Dieter (Anfänger)"]  # levels in German
    two = sessions(_args("schnelllauf", "--local-two", "--handicap", "1:pile=4"), "en")
    assert two is not None
    made = two()
    assert isinstance(made, OfflineSession)
    assert made.mine == (0, 1) and made.options.pile_size == (4, 3) and not made._bots
    alone = sessions(_args("--local-two"), "en")  # only Schnelllauf is played by two this way
    assert alone is not None and alone().rules.INFO.name == "schnelllauf"
    solo = sessions(_args("schnelllauf", "--bot", "pro", "--handicap", "2"), "en")
    assert solo is not None and solo().options.one_hand_seats == (False, True)  # type: ignore[attr-defined]


def test_bad_arguments_are_one_clear_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "unter-spannung", "--local-two"]) == 2
    assert "Unter Spannung has no option --local-two" in capsys.readouterr().err
    assert main(["play", "--join", "http://localhost:8000/lobby"]) == 2
    assert "http://HOST:PORT/t/CODE" in capsys.readouterr().err
    assert main(["play", "--join", "http://h:1/t/ABCDEF", "schnelllauf"]) == 2
    assert "--join, --server and --arena take the game" in capsys.readouterr().err
    assert main(["play", "--tournament"]) == 2


def test_join_to_an_unreachable_server_is_one_line_and_status_2(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cli, "terminal", lambda: True)
    with socket.create_server(("127.0.0.1", 0)) as listening:
        port = listening.getsockname()[1]
    # nobody listens there any more
    assert main(["play", "--join", f"http://127.0.0.1:{port}/t/ABCDEF"]) == 2
    said = capsys.readouterr()
    assert said.err == (f"zackzack play: error: cannot reach the server at "
                        f"http://127.0.0.1:{port}: connection refused\n")
    assert said.out == ""  # not a byte of the full-screen app
    assert main(["play", "--server", f"http://127.0.0.1:{port}"]) == 2  # the lobby: the same
    assert capsys.readouterr().err == (f"zackzack play: error: cannot reach the server at "
                                       f"http://127.0.0.1:{port}: connection refused\n")
    assert main(["play", "--server", "h:1", "--join", "http://h:1/t/ABCDEF"]) == 2
    assert "--join with --server takes the table's code alone" in capsys.readouterr().err


def test_without_a_terminal_play_is_one_line_and_status_2(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cli, "terminal", lambda: False)
    assert main(["play", "schnelllauf"]) == 2
    said = capsys.readouterr()
    assert said.err == ("zackzack play: error: a terminal is needed: stdin and stdout must not "
                        "be redirected\n") and said.out == ""


def test_links_become_websocket_addresses() -> None:
    assert parse_link("https://zack.example/t/k7m2qx/") == ("wss://zack.example/ws", "K7M2QX")
    assert parse_link(" http://[::1]:8000/t/ABCDEF ") == ("ws://[::1]:8000/ws", "ABCDEF")
    with pytest.raises(ValueError):
        parse_link("ftp://host/t/ABCDEF")


def test_both_languages_have_every_text_and_the_locale_picks_one() -> None:
    assert set(catalogue("de")["terminal"]) == set(catalogue("en")["terminal"])
    assert system_lang({"LC_ALL": "", "LANG": "de_DE.UTF-8"}) == "de"
    assert system_lang({"LC_MESSAGES": "fr_FR"}) == "en"
    assert system_lang({}) == "en"


def test_a_key_aims_at_the_pile_as_it_was_on_screen_a_reaction_window_before() -> None:
    now, window = [0.0], [0.6]
    seen = Sightings(lambda: window[0], lambda: now[0])
    assert seen.aimed(0, 3) == 3  # nothing on screen yet: the pile as it is
    seen.note((0, 0), round=1)
    now[0] = 0.3
    seen.note((1, 0), round=1)
    now[0] = 0.5
    assert seen.aimed(0, 1) == 0  # shown for less than the window: the round's first version
    now[0] = 5.0
    seen.note((2, 0), round=1)
    now[0] = 5.2
    seen.note((3, 0), round=1)
    now[0] = 5.4
    assert seen.aimed(0, 3) == 1  # 200 and 400 ms after two changes: 4.8 s showed version 1
    now[0] = 5.75
    assert seen.aimed(0, 3) == 2  # 5.15 s showed version 2
    now[0] = 5.85
    assert seen.aimed(0, 3) == 3  # just over one window after version 3 came
    assert seen.aimed(0, 2) == 2  # never newer than the pile it is played onto
    assert seen.aimed(1, 0) == 0 and seen.aimed(5, 7) == 7  # an unknown pile: as it is
    window[0] = 0.3  # a server with a shorter window: read at each press
    now[0] = 5.45
    assert seen.aimed(0, 3) == 2
    now[0] = 5.6
    assert seen.aimed(0, 3) == 3
    seen.note((4, 0), round=1, own=[0])  # one's own card: known at once
    assert seen.aimed(0, 4) == 4
    seen.note((1, 1), round=2)  # a new round: the old round's versions do not count
    now[0] = 5.7
    seen.note((2, 1), round=2)
    assert seen.aimed(0, 2) == 1 and seen.shown[0] == [(1, 5.6), (2, 5.7)]
    seen.note((0, 0))  # versions went back (a round number not known): forgotten as well
    assert seen.shown == [[(0, 5.7)], [(0, 5.7)]]


def test_the_waiting_room_names_a_slow_connection() -> None:
    seats = [Seat("Tui", lag="slow"), Seat("Anna", lag="slow"), Seat("Ben", lag="good")]
    shown = text(waiting(seats, (0,), "de", False, False))
    assert "Anna  ✓ (langsame Verbindung)" in shown
    assert "Tui  ✓ (" not in shown and "Ben  ✓ (" not in shown  # only the others, only slow
