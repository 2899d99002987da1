"""Bots at real tables: every refusal survived, rounds after rounds, leaving, taking over."""

from __future__ import annotations

import asyncio
import random
from itertools import pairwise

import pytest

from zackzack.bots import Bot
from zackzack.engine.clock import VirtualClock
from zackzack.engine.table import LIVE, Phase, Settings, Table
from zackzack.games import schnelllauf as sl
from zackzack.games import unter_spannung as us
from zackzack.games.base import Event
from zackzack.games.errors import IllegalAction


def run(table: Table, clock: VirtualClock, until: float = 24 * 3600) -> None:
    clock.run(until=until, stop=lambda: table.phase is Phase.OVER)


def accepted(table: Table, seat: int) -> list[int]:
    """The times of the seat's log entries that the rules accepted (replayed)."""
    from zackzack.engine.replay import replay, table_log

    steps = replay(table_log(table)).steps
    return [s.t for s in steps if s.seat == seat and s.outcome == "accepted"]


def test_bots_play_a_whole_tournament_and_act_in_every_round() -> None:
    clock = VirtualClock()
    options = us.Options(players=3, tournament=True)
    table = Table(us, options, clock=clock, seed=11, settings=Settings(between_rounds_ms=2000))
    rng = random.Random(1)
    for seat, name in enumerate(["pro", "normal:random", "beginner"]):
        Bot(table, seat, name, rng)
    played: list[set[int]] = [set() for _ in range(6)]

    def note(events: list[Event]) -> None:
        for event in events:
            if isinstance(event, us.Played | us.Drew):
                played[table.match.number - 1].add(event.seat)

    table.subscribe_all(note)
    table.start()
    run(table, clock)
    assert table.match.result is not None and table.match.number == 6
    assert played[-1] == {0, 1, 2}  # still at it in the last round
    for seat in range(3):
        assert sum(seat in seats for seats in played) >= 5  # a fast win may leave one out


def test_bots_survive_every_refusal_with_many_mistakes(monkeypatch: pytest.MonkeyPatch) -> None:
    """Wrong cards (frozen), cards too late, round over: the bots go on to the end."""
    from zackzack.bots import reaction

    clumsy = reaction.Reaction(reaction.Delay(0.05, 0.5), reaction.Delay(0.05, 0.5), 0.0,
                               reaction.Delay(0.3, 0.5), 0.4)
    monkeypatch.setitem(reaction.REACTIONS, "beginner", clumsy)
    codes: set[str] = set()
    original = Table.submit

    def submit(self: Table, seat: int, action: object, at: int | None = None) -> object:
        try:
            return original(self, seat, action, at)  # type: ignore[arg-type]
        except IllegalAction as error:
            codes.add(error.code)
            raise

    monkeypatch.setattr(Table, "submit", submit)
    for rules, options in ((us, us.Options(players=4, tournament=True)), (sl, sl.Options())):
        clock = VirtualClock()
        table = Table(rules, options, clock=clock, seed=3)
        rng = random.Random(2)
        for seat in range(options.players):
            Bot(table, seat, "beginner", rng)
        table.start()
        run(table, clock)
        assert table.match.result is not None
    assert {"does_not_fit", "too_late", "frozen"} <= codes


def test_a_bot_acts_only_for_its_seat_and_stops_when_asked() -> None:
    clock = VirtualClock()
    table = Table(us, us.Options(players=2), clock=clock, seed=4)
    bot = Bot(table, 1, "machine", random.Random(0))
    table.start()
    clock.run(until=5.0)
    assert table.log and {entry.seat for entry in table.log} == {1}
    bot.stop()
    sent = len(table.log)
    clock.run(until=60.0)
    assert len(table.log) == sent


def test_a_bot_takes_over_a_seat_in_the_middle_of_a_round() -> None:
    clock = VirtualClock()
    table = Table(us, us.Options(players=2), clock=clock, seed=8)
    Bot(table, 0, "normal", random.Random(0))
    table.start()
    clock.run(until=3.0)
    assert table.phase is Phase.PLAYING
    Bot(table, 1, "normal", random.Random(1))
    run(table, clock)
    assert table.match.result is not None
    assert any(entry.seat == 1 for entry in table.log)


def test_one_hand_bot_keeps_the_pause_and_two_hands_overlap() -> None:
    clock = VirtualClock()
    options = sl.Options(jokers=0, one_hand_seats=(True, False), pile_size=(4, 3))
    table = Table(sl, options, clock=clock, seed=5)
    rng = random.Random(3)
    bots = [Bot(table, seat, "machine", rng) for seat in range(2)]
    table.start()
    run(table, clock)
    assert table.match.result is not None
    one = accepted(table, 0)
    assert all(b - a >= 400 for a, b in pairwise(one))
    two = accepted(table, 1)
    assert min(b - a for a, b in pairwise(two)) < 400
    assert bots[0].wrong_cards == bots[1].wrong_cards == 0  # machines make no mistakes


async def test_a_bot_plays_on_the_asyncio_loop() -> None:
    loop = asyncio.get_running_loop()
    deck = tuple(us.Card.parse(c) for c in
                 "3±1 4±2 6±1 9±3 8±2 1±1 2±2 7±1 9±1 5±2".split())
    options = us.Options(players=2, deck=deck)
    deal = us.parse_deal({"hands": [["3±1", "4±2", "6±1", "9±3"], ["8±2", "1±1", "2±2", "7±1"]],
                          "draw_piles": [["9±1"], []], "discard_pile": ["5±2"]}, options)
    done = loop.create_future()
    table = Table(us, options, clock=loop, first_round=deal,
                  on_result=lambda *_: done.done() or done.set_result(True))
    Bot(table, 0, "machine", random.Random(0))
    table.start()
    await asyncio.wait_for(done, timeout=5)
    assert table.match.results[0].winner == 0


def test_bots_wait_through_the_live_start_countdown() -> None:
    clock = VirtualClock()
    table = Table(us, us.Options(players=2), clock=clock, seed=2, settings=LIVE)
    for seat in range(2):
        Bot(table, seat, "pro", random.Random(seat))
    table.start()
    clock.run(until=2.9)
    assert table.log == []
    clock.run(until=20.0)
    assert table.log and min(entry.t for entry in table.log) >= LIVE.start_ms


def test_bots_rest_while_the_table_is_paused_and_play_on_after() -> None:
    clock = VirtualClock()
    table = Table(us, us.Options(players=3), clock=clock, seed=6)
    for seat in range(3):
        Bot(table, seat, "normal", random.Random(seat))
    table.start()
    clock.run(until=2.0)
    assert table.phase is Phase.PLAYING
    table.pause()
    sent = len(table.log)
    clock.run(until=100.0)
    assert len(table.log) == sent
    table.resume(1000)
    run(table, clock)
    assert table.match.result is not None and len(table.log) > sent
