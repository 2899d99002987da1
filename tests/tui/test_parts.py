"""The parts under the screens: key schemes, card drawings, the JSON codec, setups, the command."""

from __future__ import annotations

import argparse
import random

import pytest

from zackzack.cli import main, parser
from zackzack.clock import VirtualClock
from zackzack.games import schnelllauf as sl
from zackzack.games import unter_spannung as us
from zackzack.games.base import Rules, event_json, to_json
from zackzack.table import Table
from zackzack.tui import keys
from zackzack.tui.cards import SPREADS, plain, sl_top, us_card
from zackzack.tui.cli import sessions
from zackzack.tui.codec import decode_event, decode_view
from zackzack.tui.offline import OfflineSession
from zackzack.tui.remote import parse_link
from zackzack.tui.setup import Setup, handicap
from zackzack.tui.texts import _TEXT, system_lang

LEFT_HALF = set("12345qwertasdfgxcvb")
RIGHT_HALF = set("67890yzuiophjklnm")


def test_every_hand_card_has_its_own_key_and_the_commands_do_not_collide() -> None:
    scheme = keys.unter_spannung()
    cards = [scheme.command(key) for key in keys.HAND_KEYS]
    assert cards == [keys.HandCard(i) for i in range(36)]
    assert scheme.command("space") == keys.DrawCard()
    assert scheme.command("y") == keys.HandCard(15)  # no German alias outside two-player mode
    assert scheme.hand_key(35) == "m" and scheme.hand_key(36) == ""


def test_two_at_one_keyboard_each_keep_to_their_half() -> None:
    scheme = keys.schnelllauf(two=True)
    for key, command in scheme.keys.items():
        if isinstance(command, keys.PlacePile):
            assert key in (LEFT_HALF if command.hand == 0 else RIGHT_HALF), key
    plays = {(c.hand, c.place, c.pile) for c in scheme.keys.values()
             if isinstance(c, keys.PlacePile)}
    assert plays == {(h, p, q) for h in range(2) for p in range(5) for q in range(2)}
    assert scheme.command("y") == scheme.command("z") == keys.PlacePile(1, 0, 1)
    alone = keys.schnelllauf()
    assert alone.command("6") is None and alone.command("1") == keys.PlacePile(0, 0, 0)


def test_spreads_differ_by_mark_not_only_by_colour() -> None:
    marks = {mark for mark, _ in SPREADS.values()}
    assert len(marks) == 3
    for spread, (mark, _) in SPREADS.items():
        drawn = plain(us_card(us.Card(7, spread), key="a"))
        assert f"{mark}±{spread}" in drawn and "a" in drawn and " 7 " in drawn
    assert "3|5" in plain(sl_top(sl.JOKER, frozenset({3, 5}), "free"))
    assert "free" in plain(sl_top(sl.JOKER, None, "free"))


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
        assert decode_view(rules, to_json(view)) == view
    assert len({event.kind for event in seen}) >= 3  # type: ignore[attr-defined]
    for event in seen:
        assert decode_event(rules, event_json(event)) == event  # type: ignore[arg-type]


def test_setups_are_checked_before_the_app_starts() -> None:
    assert Setup("unter-spannung").opponents == ("normal", "normal")
    with pytest.raises(ValueError, match="unknown bot level"):
        Setup("unter-spannung", ("wizard",))
    with pytest.raises(ValueError, match="1 to 5 bots"):
        Setup("unter-spannung", ("pro",) * 6)
    with pytest.raises(ValueError, match="for Schnelllauf"):
        Setup("unter-spannung", local_two=True)
    with pytest.raises(ValueError, match="one bot, or --local-two"):
        Setup("schnelllauf", ("pro", "pro"))
    with pytest.raises(ValueError, match="WHO:piles"):
        handicap(["everyone"])
    assert handicap(["me"]) == ((4, 3), (True, False))
    assert handicap(["bot:piles", "left:one-hand"]) == ((3, 4), (True, False))


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
    assert [seat.name for seat in made.seats] == ["Du", "Ben (normal)", "Carla (pro)",
                                                  "Dieter (beginner)"]
    two = sessions(_args("schnelllauf", "--local-two", "--handicap", "left:piles"), "en")
    assert two is not None
    made = two()
    assert isinstance(made, OfflineSession)
    assert made.mine == (0, 1) and made.options.pile_size == (4, 3) and not made._bots
    solo = sessions(_args("schnelllauf", "--bot", "pro", "--handicap", "bot"), "en")
    assert solo is not None and solo().options.one_hand_seats == (False, True)  # type: ignore[attr-defined]


def test_bad_arguments_are_one_clear_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "unter-spannung", "--local-two"]) == 2
    assert "--local-two and --handicap are for Schnelllauf" in capsys.readouterr().err
    assert main(["play", "--join", "http://localhost:8000/lobby"]) == 2
    assert "http://HOST:PORT/t/CODE" in capsys.readouterr().err
    assert main(["play", "--join", "http://h:1/t/ABCDEF", "schnelllauf"]) == 2
    assert "--join takes the game" in capsys.readouterr().err
    assert main(["play", "--tournament"]) == 2


def test_links_become_websocket_addresses() -> None:
    assert parse_link("https://zack.example/t/k7m2qx/") == ("wss://zack.example/ws", "K7M2QX")
    assert parse_link(" http://[::1]:8000/t/ABCDEF ") == ("ws://[::1]:8000/ws", "ABCDEF")
    with pytest.raises(ValueError):
        parse_link("ftp://host/t/ABCDEF")


def test_both_languages_have_every_text_and_the_locale_picks_one() -> None:
    assert set(_TEXT["de"]) == set(_TEXT["en"])
    assert system_lang({"LC_ALL": "", "LANG": "de_DE.UTF-8"}) == "de"
    assert system_lang({"LC_MESSAGES": "fr_FR"}) == "en"
    assert system_lang({}) == "en"
