"""The table with Schnelllauf: the one-hand handicap, stalemate steps, both hands in flight."""

from __future__ import annotations

import pytest

from zackzack.engine.clock import VirtualClock
from zackzack.engine.table import Announced, Table
from zackzack.games import schnelllauf as sl
from zackzack.games.errors import OneHand, TooLate

from builders import REST, scenario

C = sl.Card.parse


def started(state: sl.State) -> tuple[Table, VirtualClock]:
    clock = VirtualClock()
    table = Table(sl, state.options, clock=clock, first_round=state)
    table.start()
    return table, clock


def test_one_hand_only_makes_the_player_pause_between_actions() -> None:
    options = sl.Options(one_hand_seats=(True, False))
    state = scenario(("5h | 6c | 7d | Kc", REST), (f"{REST} 4s", f"{REST} Qs"), options=options)
    table, _ = started(state)
    table.submit(0, sl.Play(C("5h"), 0, 0), at=1000)
    with pytest.raises(OneHand, match="wait 1 ms"):
        table.submit(0, sl.Play(C("6c"), 0, 1), at=1399)
    table.submit(0, sl.Play(C("6c"), 0, 1), at=1400)
    assert [str(c) for c in state.discard_piles[0][-3:]] == ["4s", "5h", "6c"]


def test_the_other_player_is_not_slowed_by_the_handicap() -> None:
    options = sl.Options(one_hand_seats=(True, False))
    state = scenario((REST, "5h | 6c | 7d | Kc"), (f"{REST} 4s", f"{REST} Qs"), options=options)
    table, _ = started(state)
    table.submit(1, sl.Play(C("5h"), 0, 0), at=1000)
    table.submit(1, sl.Play(C("6c"), 0, 1), at=1001)
    table.submit(1, sl.Play(C("Kc"), 1, 0), at=1002)
    assert table.state.versions == [2, 1]


def test_two_hands_in_flight_the_second_card_was_aimed_at_the_first_top() -> None:
    state = scenario(("5h | 5c | 9d | Kc", REST), (f"{REST} 4s", f"{REST} Qs"))
    table, _ = started(state)
    table.submit(0, sl.Play(C("5h"), 0, 0), at=1000)
    with pytest.raises(TooLate):
        table.submit(0, sl.Play(C("5c"), 0, 0), at=1050)
    assert table.frozen_until[0] == 0


def test_a_stalemate_is_announced_and_each_player_flips_a_reserve_card() -> None:
    state = scenario(("9h | 9c | 9d | 9s | 8h", "2h | 2c | 2d | 2s | 3h"),
                     (f"{REST} 5s", f"{REST} 5d"), ("Ac 7h", REST))
    table, clock = started(state)
    assert table.countdown == Announced("flip", 1500)
    clock.run(until=1.5)
    assert table.state.discard_piles[0][-1] == C("7h")
    assert table.state.versions[0] == 1
