"""Match statistics from logs: counts, reaction times from the answered pile change, invariants."""

from __future__ import annotations

import contextlib
import random
import statistics
from typing import Any

import msgspec
from hypothesis import given, settings
from hypothesis import strategies as st

from zackzack.commands.demo import SimplePlayer
from zackzack.engine.clock import VirtualClock
from zackzack.engine.matchlog import MatchLog, log_to_json, parse_log
from zackzack.engine.replay import replay, table_log
from zackzack.engine.stats import SeatStats, match_stats, median, stats_json
from zackzack.engine.table import Penalised, Phase, Settings, Table
from zackzack.games import unter_spannung as us
from zackzack.games.errors import IllegalAction

DECK = ["3±1", "8±2", "4±1", "6±1", "9±3", "4±2", "1±1", "4±3", "2±2", "7±1", "5±2"]
DEAL = {"hands": [["3±1", "8±2", "4±1"], ["6±1", "9±3", "4±2"]],
        "draw_piles": [["1±1", "4±3"], ["2±2", "7±1"]], "discard_pile": ["5±2"]}


def us_log(actions: list[dict[str, Any]], **extra: Any) -> MatchLog:
    return parse_log({"game": "unter-spannung", "options": {"players": 2, "deck": DECK},
                      "deal": DEAL, "actions": actions, **extra})


def play(t: int, seat: int, card: str, seen: int) -> dict[str, Any]:
    return {"t": t, "seat": seat, "action": {"type": "play", "card": card, "seen": seen}}


def test_reactions_count_from_the_newest_change_of_the_pile() -> None:
    log = us_log([
        play(100, 1, "6±1", 0),   # 5±2 allows 3 and 7: wrong, seat 1 frozen to 1100
        play(200, 0, "3±1", 0),   # 200 ms after the deal
        {"t": 900, "seat": 0, "action": {"type": "draw"}},  # no pile change
        play(1250, 0, "8±2", 0),  # fits neither 3±1 nor 5±2 (version 0): wrong
        play(2600, 1, "4±2", 1),  # 3±1 allows 4: 2400 ms after seat 0's card
        play(2650, 0, "4±1", 1),  # fitted 3±1, replaced 50 ms ago: too late
    ], table={"late_grace_ms": 1000})
    anna, ben = match_stats(log)
    assert anna == SeatStats(0, played=1, wrong=1, late=1, reaction_ms=200)
    assert ben == SeatStats(1, played=1, wrong=1, late=0, reaction_ms=2400)


def test_the_start_countdown_is_no_reaction_time() -> None:
    log = us_log([play(3200, 0, "3±1", 0)], table={"start_ms": 3000})
    assert match_stats(log)[0].reaction_ms == 200


def test_a_seat_that_took_no_card_has_no_reaction_time() -> None:
    assert match_stats(us_log([])) == (SeatStats(0), SeatStats(1))


def test_stats_json_marks_the_bots() -> None:
    data = stats_json(match_stats(us_log([play(200, 0, "3±1", 0)])), [None, "pro"])
    assert data == [
        {"seat": 0, "played": 1, "wrong": 0, "late": 0, "reaction_ms": 200, "bot": None},
        {"seat": 1, "played": 0, "wrong": 0, "late": 0, "reaction_ms": None, "bot": "pro"}]


@given(st.lists(st.integers(0, 10**6), max_size=40))
def test_median_is_the_middle(values: list[int]) -> None:
    found = median(values)
    if not values:
        assert found is None
        return
    assert found is not None
    assert min(values) <= found <= max(values)
    assert abs(found - statistics.median(values)) <= 0.5
    assert median(reversed(values)) == found
    below = sum(v < found for v in values)
    above = sum(v > found for v in values)
    assert below <= len(values) // 2 and above <= len(values) // 2


class Clumsy(SimplePlayer):
    """A simple player whose hand slips now and then: any card of its hand, aimed at the pile
    as it is or as it was just before (a wrong card, or one too late)."""

    def act(self) -> None:
        state = self.table.state
        if self.table.phase is Phase.PLAYING and state.hands[self.seat] and \
                self.rng.random() < 0.3:
            card = self.rng.choice(state.hands[self.seat])
            with contextlib.suppress(IllegalAction):
                self.table.submit(self.seat, us.Play(card, max(0, state.version - 1)))
        super().act()


def played_match(seed: int, players: int, penalty_ms: int) -> Table:
    clock = VirtualClock()
    table = Table(us, us.Options(players=players, penalty_ms=penalty_ms), clock=clock,
                  seed=seed, settings=Settings(start_ms=1000))
    rng = random.Random(seed)
    for seat in range(players):
        Clumsy(table, seat, rng, clock)
    table.start()
    clock.run(stop=lambda: table.phase is Phase.OVER)
    return table


@given(st.integers(0, 10**6), st.integers(2, 4), st.sampled_from([0, 1000]),
       st.integers(0, 10**5))
@settings(max_examples=25)
def test_stats_agree_with_the_replay(seed: int, players: int, penalty_ms: int,
                                     shift: int) -> None:
    table = played_match(seed, players, penalty_ms)
    log = table_log(table, start_ms=0)
    stats = match_stats(log)
    steps = replay(log).steps
    assert [s.seat for s in stats] == list(range(players))
    for seat in stats:
        mine = [s for s in steps if s.seat == seat.seat and s.action is not None
                and s.action.kind == "play"]
        assert seat.played == sum(s.outcome == "accepted" for s in mine)
        assert seat.wrong == sum(s.code == "does_not_fit" for s in mine)
        assert seat.late == sum(s.code == "too_late" for s in mine)
        if penalty_ms:  # every wrong card froze its player
            assert seat.wrong == sum(isinstance(e, Penalised) and e.seat == seat.seat
                                     for s in steps for e in s.events)
        assert (seat.reaction_ms is None) == (seat.played == 0)
        if seat.reaction_ms is not None:
            assert 0 <= seat.reaction_ms <= max(s.t for s in steps)
    # The same match later on the table's clock, or read back from its JSON, is the same.
    later = msgspec.structs.replace(log, start_ms=log.start_ms + shift, actions=tuple(
        msgspec.structs.replace(e, t=e.t + shift) for e in log.actions))
    assert match_stats(later) == stats
    assert match_stats(parse_log(log_to_json(log))) == stats
