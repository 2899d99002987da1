"""The real-time table: arrival order, penalties, too late, countdowns, rounds, redaction."""

from __future__ import annotations

import pytest

from zackzack.engine.clock import VirtualClock
from zackzack.engine.table import (
    Announced,
    MatchEnded,
    NextRound,
    Penalised,
    Phase,
    RoundScored,
    RoundStarted,
    Settings,
    Starting,
    Table,
)
from zackzack.games import unter_spannung as us
from zackzack.games.base import Event
from zackzack.games.errors import DoesNotFit, Frozen, NotPlaying, RoundOver, TooLate

C = us.Card.parse


def table(hands: list[str], draw_piles: list[str], discard: str, *, settings: Settings = Settings(),
          **options: object) -> tuple[Table, VirtualClock]:
    """A started table on a virtual clock with an explicit first deal."""
    deck = tuple(C(c) for zone in (*hands, *draw_piles, discard) for c in zone.split())
    opts = us.Options(players=len(hands), deck=deck, **options)  # type: ignore[arg-type]
    first = us.parse_deal({"hands": [h.split() for h in hands],
                           "draw_piles": [p.split() for p in draw_piles],
                           "discard_pile": discard.split()}, opts)
    clock = VirtualClock()
    t = Table(us, opts, clock=clock, first_round=first, settings=settings)
    t.start()
    return t, clock


def test_a_wrong_card_freezes_the_player_for_the_penalty() -> None:
    t, _ = table(["3±1 8±2 4±1", "6±1 9±3 7±2"], ["1±1 2±1 3±2", "2±2 4±3 5±3"], "5±2")
    seen: list[Event] = []
    t.subscribe(None, seen.extend)
    with pytest.raises(DoesNotFit):
        t.submit(1, us.Play(C("6±1"), seen=0), at=100)
    assert seen == [Penalised(1, 1100)]
    with pytest.raises(Frozen):
        t.submit(1, us.Play(C("7±2"), seen=0), at=1099)
    assert t.submit(1, us.Play(C("7±2"), seen=0), at=1100)[0] == us.Played(1, C("7±2"), 1)


def test_the_penalty_is_an_option() -> None:
    t, _ = table(["3±1 8±2 4±1", "6±1 9±3 7±2"], ["1±1 2±1 3±2", "2±2 4±3 5±3"], "5±2",
                 penalty_ms=250)
    with pytest.raises(DoesNotFit):
        t.submit(1, us.Play(C("6±1")), at=10)
    assert t.frozen_until[1] == 260


def test_the_first_card_to_arrive_wins_the_race_and_the_second_is_too_late() -> None:
    t, _ = table(["3±1 8±2 4±1", "7±1 9±3 2±1"], ["1±1 2±1 3±2", "2±2 4±3 5±3"], "5±2")
    t.submit(0, us.Play(C("3±1"), seen=0), at=500)
    with pytest.raises(TooLate):
        t.submit(1, us.Play(C("7±1"), seen=0), at=520)
    assert t.frozen_until[1] == 0
    assert t.state.top == C("3±1")


def test_aiming_at_a_version_replaced_long_ago_is_a_wrong_card() -> None:
    t, _ = table(["3±1 8±2 4±1", "7±1 9±3 2±1"], ["1±1 2±1 3±2", "2±2 4±3 5±3"], "5±2",
                 settings=Settings(late_grace_ms=1000))
    t.submit(0, us.Play(C("3±1"), seen=0), at=500)
    with pytest.raises(DoesNotFit, match="too long"):
        t.submit(1, us.Play(C("7±1"), seen=0), at=1501)
    assert t.frozen_until[1] == 2501


def test_attempt_returns_the_refusals_submit_raises_and_judges_them_alike() -> None:
    t, _ = table(["3±1 8±2 4±1", "7±1 9±3 2±1"], ["1±1 2±1 3±2", "2±2 4±3 5±3"], "5±2")
    seen: list[Event] = []
    t.subscribe(None, seen.extend)
    assert t.attempt(0, us.Play(C("3±1"), seen=0), at=500) == [us.Played(0, C("3±1"), 1)]
    late = t.attempt(1, us.Play(C("7±1"), seen=0), at=520)
    assert isinstance(late, TooLate) and (late.winner, late.margin_ms) == (0, 20)
    wrong = t.attempt(1, us.Play(C("9±3"), seen=1), at=600)
    assert isinstance(wrong, DoesNotFit) and str(wrong) == "9±3 does not fit 3±1"
    assert isinstance(t.attempt(1, us.Draw(), at=700), Frozen)
    with pytest.raises(Frozen, match=r"^frozen for 900 ms more$"):
        t.submit(1, us.Draw(), at=700)
    assert seen == [us.Played(0, C("3±1"), 1), Penalised(1, 1600)]
    assert [entry.t for entry in t.log] == [500, 520, 600, 700, 700]


def stuck_table(**settings: int) -> tuple[Table, VirtualClock]:
    return table(["1±1 6±1 1±3", "9±1 10±1 4±2"], ["", ""], "2±2 8±1 5±2",
                 settings=Settings(**settings))


def test_nichts_geht_mehr_is_announced_and_runs_after_the_countdown() -> None:
    seen: list[Event] = []
    t, clock = stuck_table()
    assert t.countdown == Announced("rotate", 1500)
    t.subscribe(None, seen.extend)
    clock.run(until=1.4999)
    assert t.state.top == C("5±2")
    clock.run(until=1.5)
    assert t.state.top == C("2±2")
    assert seen == [us.Rotated(C("2±2"), 1, 1)]
    assert t.countdown is None


def test_a_play_that_leaves_nobody_a_card_announces_the_countdown() -> None:
    t, clock = table(["6±1 2±1 4±1", "9±1 10±1 3±2"], ["", ""], "2±2 8±1 5±2")
    seen: list[Event] = []
    t.subscribe(None, seen.extend)
    assert t.countdown is None  # 3±2 fits 5±2
    t.submit(1, us.Play(C("3±2"), seen=0), at=100)
    assert seen[-1] == Announced("rotate", 1600)  # nothing fits 3±2 (1 or 5)
    clock.run(until=1.6)
    assert t.state.top == C("2±2") and t.countdown is None  # 4±1 and 10±1 fit 2±2


def test_due_steps_run_before_a_later_action_whatever_the_clock_did() -> None:
    t, _ = stuck_table()
    with pytest.raises(DoesNotFit):      # the rotation (due at 1500) happened first: 2±2 on top
        t.submit(0, us.Play(C("6±1"), seen=1), at=1500)
    assert t.state.top == C("2±2")


def test_a_round_ends_is_scored_and_the_match_ends() -> None:
    t, _ = table(["3±1 10±3", "6±1 9±3 2±1"], ["1±1 7±3", "2±2"], "5±2")
    stored: list[object] = []
    seen: list[Event] = []

    def store(table: Table, result: object, final: object) -> None:
        stored.append((result, final))
        assert seen == []  # nobody has been told anything yet

    t.on_result = store
    t.subscribe(0, seen.extend)
    t.submit(0, us.Play(C("3±1"), seen=0), at=10)
    assert len(stored) == 1 and t.phase is Phase.OVER
    assert isinstance(seen[-1], MatchEnded) and isinstance(seen[-2], RoundScored)
    with pytest.raises(RoundOver):
        t.submit(1, us.Draw(), at=20)


def test_the_next_round_of_a_tournament_is_dealt_after_the_pause() -> None:
    clock = VirtualClock()
    t = Table(us, us.Options(players=2, tournament=True), clock=clock, seed=4,
              settings=Settings(start_ms=3000, between_rounds_ms=5000))
    seen: list[Event] = []
    t.subscribe(1, seen.extend)
    t.start()
    assert t.phase is Phase.STARTING and seen == [Starting(3000)]
    assert t.view(1).state is None   # nobody sees a hand before the start
    with pytest.raises(NotPlaying):
        t.submit(0, us.Draw(), at=100)
    clock.run(until=3.0)
    assert t.phase is Phase.PLAYING and RoundStarted(1) in seen
    state = t.state
    state.hands[0] = state.hands[0][:2]
    card = next(c for c in state.hands[0])
    state.discard_pile.append(us.Card(us.wrap(card.value - 1), 1))
    state.tops.append(state.discard_pile[-1])
    state.version += 1
    t.submit(0, us.Play(card, seen=state.version), at=3500)
    assert t.phase is Phase.BETWEEN and seen[-1] == NextRound(2, 8500)
    clock.run(until=8.5)
    assert t.phase is Phase.PLAYING and t.match.number == 2 and t.state is not state


def test_subscribers_see_only_their_own_drawn_cards() -> None:
    t, _ = table(["3±1 8±2 4±1", "6±1 9±3 7±2"], ["1±1 2±1 3±2", "2±2 4±3 5±3"], "5±2")
    mine: list[Event] = []
    theirs: list[Event] = []
    watcher: list[Event] = []
    everything: list[Event] = []
    t.subscribe(0, mine.extend)
    t.subscribe(1, theirs.extend)
    t.subscribe(None, watcher.extend)
    t.subscribe_all(everything.extend)
    t.submit(0, us.Draw(), at=5)
    assert mine == everything == [us.Drew(0, C("3±2"), 2)]
    assert theirs == watcher == [us.Drew(0, None, 2)]
    assert t.view(1).state.hand == (C("6±1"), C("9±3"), C("7±2"))
    assert t.view(None).state.hand == ()


def test_every_arriving_action_is_logged_in_order() -> None:
    t, _ = table(["3±1 8±2 4±1", "6±1 9±3 7±2"], ["1±1 2±1 3±2", "2±2 4±3 5±3"], "5±2")
    with pytest.raises(DoesNotFit):
        t.submit(1, us.Play(C("6±1")), at=100)
    t.submit(0, us.Draw(), at=200)
    assert [(e.t, e.seat, e.action) for e in t.log] == [
        (100, 1, us.Play(C("6±1"))), (200, 0, us.Draw())]


def test_everybody_ready_skips_the_rest_of_the_wait_in_table_time() -> None:
    clock = VirtualClock()
    t = Table(us, us.Options(players=2, tournament=True), clock=clock, seed=4,
              settings=Settings(start_ms=3000, between_rounds_ms=5000))
    seen: list[Event] = []
    t.subscribe(1, seen.extend)
    t.start()
    assert not t.skip_wait()  # only between rounds
    clock.run(until=3.0)
    state = t.state
    state.hands[0] = state.hands[0][:2]
    card = next(c for c in state.hands[0])
    state.discard_pile.append(us.Card(us.wrap(card.value - 1), 1))
    state.tops.append(state.discard_pile[-1])
    state.version += 1
    t.submit(0, us.Play(card, seen=state.version), at=3500)
    assert t.phase is Phase.BETWEEN
    clock.run(until=4.5)  # one second of the five: then everybody is ready
    assert t.skip_wait()
    # the round starts now in real time, at 8500 in table time (logs and replays unchanged)
    assert t.phase is Phase.PLAYING and t.match.number == 2 and seen[-1] == RoundStarted(2)
    assert t.time_ms() == 8500 and clock.time() == 4.5
    assert not t.skip_wait()
