"""Fair races: what a seat saw bounds its claims, lag is credited within a bound, one hand."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from test_table import table as us_table
from zackzack.engine.clock import VirtualClock
from zackzack.engine.race import (
    PAGE_MS,
    QUOTA_GAIN_MS,
    QUOTA_MAX_MS,
    REACTION_MS,
    TRANSPORT_SLACK,
    Arbiter,
    LagCredit,
    Ledger,
    Outcome,
    Sightings,
    Wire,
)
from zackzack.engine.table import Settings, Table
from zackzack.games import schnelllauf as sl
from zackzack.games import unter_spannung as us
from zackzack.games.errors import DoesNotFit, IllegalAction, OneHand, TooLate

from builders import scenario

C = us.Card.parse
HANDS = ["2±2 9±1 9±1", "3±1 4±3 9±3 8±1"]
DRAWS = ["1±1", "1±2"]


def raced(settings: Settings) -> tuple[Table, VirtualClock]:
    """Seat 1 plays 3±1 at 100 ms and 4±3 at 300 ms onto the 5±2; seat 0 holds the 2±2,
    which fitted only the 3±1 (version 1)."""
    t, clock = us_table(HANDS, DRAWS, "5±2", settings=settings)
    t.submit(1, us.Play(C("3±1"), seen=0), at=100)
    t.submit(1, us.Play(C("4±3"), seen=1), at=300)
    return t, clock


def test_a_card_that_fitted_any_version_seen_since_the_claim_is_too_late() -> None:
    t, _ = raced(Settings())
    aimed = t.aim(us.Play(C("2±2"), seen=0))
    assert aimed == us.Play(C("2±2"), seen=1)
    with pytest.raises(TooLate) as late:
        t.submit(0, aimed, at=340)
    assert late.value.winner == 1 and late.value.margin_ms == 40
    assert t.frozen_until[0] == 0


def test_a_version_never_shown_does_not_count() -> None:
    t, _ = raced(Settings())
    with pytest.raises(DoesNotFit):
        t.submit(0, t.aim(us.Play(C("2±2"), seen=0), newest=0), at=340)  # saw only the 5±2
    assert t.frozen_until[0] == 340 + t.options.penalty_ms


def test_a_card_that_fitted_no_version_since_the_claim_is_a_wrong_card() -> None:
    t, _ = raced(Settings())
    with pytest.raises(DoesNotFit):
        t.submit(0, t.aim(us.Play(C("2±2"), seen=2)), at=340)  # it saw the 4±3 already
    assert t.frozen_until[0] == 340 + t.options.penalty_ms


def test_a_card_aimed_at_a_version_replaced_too_long_ago_is_a_wrong_card() -> None:
    t, _ = raced(Settings())
    with pytest.raises(DoesNotFit, match="too long"):
        t.submit(0, us.Play(C("2±2"), seen=1), at=1400)  # the 4±3 came 1.1 s ago


def test_the_one_hand_pause_follows_refusals_too() -> None:
    options = sl.Options(one_hand_seats=(True, False))
    state = scenario(("2c Jh|Qs|5d|8h|3c", "4h 9d|REST|||"), ("10s", "Ks"), options=options)
    table = Table(sl, options, clock=VirtualClock(), first_round=state)
    table.start()
    table.submit(1, sl.Play(sl.Card.parse("9d"), 0, seen=0), at=10)  # the 9 on the 10
    with pytest.raises(TooLate):
        table.submit(0, sl.Play(sl.Card.parse("Jh"), 0, seen=0), at=20)  # J fitted the 10
    with pytest.raises(OneHand):
        table.submit(0, sl.Play(sl.Card.parse("Qs"), 1, seen=0), at=21)  # fits the K: wait
    assert table.submit(0, sl.Play(sl.Card.parse("Qs"), 1, seen=0), at=420)


# Claims ---------------------------------------------------------------------------------


@settings(max_examples=300)
@given(seed=st.integers(0, 10_000), steps=st.lists(st.integers(1, 700), min_size=1,
                                                   max_size=12),
       cut=st.integers(0, 12), claim=st.integers(0, 1 << 20), wait=st.integers(0, 2000),
       rtt=st.integers(0, 3000), pongs=st.lists(st.integers(0, 3000), max_size=6))
def test_no_claim_turns_a_card_that_fitted_nothing_shown_into_too_late(
        seed: int, steps: list[int], cut: int, claim: int, wait: int, rtt: int,
        pongs: list[int]) -> None:
    """Whatever ``seen`` a client names and however late it answers pings, a card is too
    late only if it fitted a version sent to that seat (the first ``cut`` changes: then it
    went away) soon enough to be on its screen at the press, and still there within the
    reaction window before it; the window is stretched by the transport's round trip
    (``rtt``) at most, never by the pongs."""
    clock = VirtualClock()
    table = Table(us, us.Options(players=2), clock=clock, seed=seed)
    table.start()
    wire, seat = Wire(transport=rtt), Ledger()
    for pong in pongs:
        wire.stats.record(pong)
    seat.sightings.note((0,), 0)
    sent = [(0, 0)]
    rng = random.Random(seed)
    for i, dt in enumerate(steps):
        clock.run(until=clock.time() + dt / 1000)
        moves = us.legal_actions(table.state, 1)
        plays = [m for m in moves if isinstance(m, us.Play)]
        try:
            table.submit(1, rng.choice(plays or moves))
        except IllegalAction:
            continue
        if table.match.round.over:
            return
        if i < cut:
            version = table.state.version
            seat.sightings.note((version,), table.time_ms())
            sent.append((version, table.time_ms()))
    clock.run(until=clock.time() + wait / 1000)
    arrived = table.time_ms()
    hand = table.view(0).state.hand
    card = rng.choice(hand)
    admitted = wire.admit(us.Play(card, seen=claim), arrived, table.settings, seat)
    aimed = table.aim(admitted.action, admitted.newest)
    try:
        table.submit(0, aimed, at=arrived - admitted.credit)
    except TooLate:
        assert wire.lag <= rtt * TRANSPORT_SLACK  # however late the pongs came
        on_screen = arrived - min(wire.lag, table.settings.late_grace_ms - REACTION_MS)
        shown = [version for i, (version, at) in enumerate(sent) if (at <= on_screen or i == 0)
                 and (i + 1 == len(sent) or sent[i + 1][1] > on_screen - REACTION_MS)]
        assert aimed.seen in shown, (sent, aimed, arrived)
        assert card.value in table.state.tops[aimed.seen].allowed
    except IllegalAction:
        pass


def test_a_claim_is_raised_to_what_was_on_screen_and_lowered_to_what_was_sent() -> None:
    seen = Sightings()
    for version, at in ((0, 0), (1, 1000), (2, 1100), (3, 2000)):
        seen.note((version,), at)
    assert seen.bound(0, 0, 2300, 0) == (2, 3)  # 3 came 300 ms ago: 2 was on screen
    assert seen.bound(0, 0, 2700, 0) == (3, 3)
    assert seen.bound(0, 2, 2300, 0) == (2, 3)
    assert seen.bound(0, 99, 2300, 0) == (3, 3)
    assert seen.bound(0, 0, 2700, 200) == (2, 3)  # a 200 ms round trip widens the window


# Lag -------------------------------------------------------------------------------------


def test_faked_lag_buys_at_most_the_cap_per_action_and_the_quota_gain_on_average() -> None:
    credit = LagCredit()
    cap = Settings().compensation_ms
    credits = [credit.take(5000, cap) for _ in range(100)]
    assert max(credits) == cap
    assert sum(credits) <= QUOTA_MAX_MS + 100 * QUOTA_GAIN_MS


def test_the_card_pressed_first_wins_within_the_credit() -> None:
    t, clock = us_table(["7±1 9±1 9±1", "3±2 9±3 8±1"], DRAWS, "5±2")
    arbiter = Arbiter(t)
    arbiter.set_reach(1, 100)
    got: list[tuple[int, Outcome]] = []
    clock.run(until=1.0)
    arbiter.submit(0, us.Play(C("7±1"), seen=0), 0, lambda o: got.append((0, o)))
    clock.run(until=1.06)  # the far player's card arrives 60 ms later, pressed 40 ms sooner
    arbiter.submit(1, us.Play(C("3±2"), seen=0), 100, lambda o: got.append((1, o)))
    clock.run(until=2.0)
    assert [seat for seat, _ in got] == [1, 0]
    assert not isinstance(got[0][1], IllegalAction)
    assert isinstance(got[1][1], TooLate) and got[1][1].winner == 1
    assert got[1][1].margin_ms == 40


def test_a_card_that_arrives_later_than_the_credit_loses() -> None:
    t, clock = us_table(["7±1 9±1 9±1", "3±2 9±3 8±1"], DRAWS, "5±2")
    arbiter = Arbiter(t)
    arbiter.set_reach(1, 5000)  # it claims a huge lag: the cap holds
    got: list[tuple[int, Outcome]] = []
    clock.run(until=1.0)
    arbiter.submit(0, us.Play(C("7±1"), seen=0), 0, lambda o: got.append((0, o)))
    clock.run(until=1.3)  # 300 ms later: more than the cap of 250 ms
    arbiter.submit(1, us.Play(C("3±2"), seen=0), 5000, lambda o: got.append((1, o)))
    clock.run(until=2.0)
    assert [seat for seat, _ in got] == [0, 1]
    assert isinstance(got[1][1], TooLate) and got[1][1].winner == 0


def test_without_compensation_the_first_to_arrive_wins_and_nobody_waits() -> None:
    t, clock = us_table(["7±1 9±1 9±1", "3±2 9±3 8±1"], DRAWS, "5±2",
                        settings=Settings(compensation_ms=0))
    arbiter = Arbiter(t)
    arbiter.set_reach(1, 100)
    got: list[tuple[int, Outcome]] = []
    clock.run(until=1.0)
    arbiter.submit(0, us.Play(C("7±1"), seen=0), 0, lambda o: got.append((0, o)))
    assert len(got) == 1  # answered at once
    arbiter.submit(1, us.Play(C("3±2"), seen=0), 100, lambda o: got.append((1, o)))
    assert isinstance(got[1][1], TooLate) and got[1][1].winner == 0


def test_one_hand_means_one_action_in_flight() -> None:
    options = sl.Options(one_hand_seats=(True, False))
    state = scenario(("2c Jh|Qs|5d|8h|3c", "4h 9d|REST|||"), ("10s", "Ks"), options=options)
    clock = VirtualClock()
    t = Table(sl, options, clock=clock, first_round=state)
    t.start()
    arbiter = Arbiter(t)
    arbiter.set_reach(1, 100)  # seat 0's actions wait for seat 1's
    got: list[Outcome] = []
    arbiter.submit(0, sl.Play(sl.Card.parse("Jh"), 0, seen=0), 0, got.append)
    arbiter.submit(0, sl.Play(sl.Card.parse("Qs"), 1, seen=0), 0, got.append)
    assert len(got) == 1 and isinstance(got[0], OneHand)
    clock.run(until=1.0)
    assert len(got) == 2 and not isinstance(got[1], IllegalAction)


@settings(max_examples=200)
@given(transport=st.integers(0, 400), pongs=st.lists(st.integers(0, 5000), max_size=8),
       changed=st.integers(1, 3000), press=st.integers(0, 3000))
def test_late_pongs_never_widen_the_too_late_window(
        transport: int, pongs: list[int], changed: int, press: int) -> None:
    """A version replaced at ``changed`` may still be answered ("too late", no freeze) by a
    card arriving at ``changed + press`` only while ``press`` is within the reaction window
    plus the transport's round trip (with its slack); pongs answered late (the code before
    issue 27 believed them, up to 400 ms more) stretch nothing."""
    wire, seat = Wire(transport=transport), Ledger()
    for pong in pongs:
        wire.stats.record(pong)
    seat.sightings.note((0,), 0)
    seat.sightings.note((1,), changed)
    admitted = wire.admit(us.Play(C("3±1"), seen=0), changed + press, Settings(), seat)
    if press > REACTION_MS + transport * TRANSPORT_SLACK:
        assert admitted.action.seen == 1  # the claim is raised: it can only be a wrong card


def test_an_action_that_races_nobody_is_decided_at_once_unless_its_seat_waits() -> None:
    """The near player feels no wait where no race is possible: a draw is decided on
    arrival, however far the others are; behind the seat's own waiting card it keeps its
    place (a seat's actions never overtake each other)."""
    t, clock = us_table(["7±1 9±1 9±1", "3±2 9±3 8±1"], DRAWS, "5±2")
    arbiter = Arbiter(t)
    arbiter.set_reach(1, 200)
    got: list[str] = []
    clock.run(until=1.0)
    arbiter.submit(0, us.Draw(), 0, lambda o: got.append("draw"))
    assert got == ["draw"]
    arbiter.submit(0, us.Play(C("7±1"), seen=0), 0, lambda o: got.append("play"))
    arbiter.submit(0, us.Draw(), 0, lambda o: got.append("second draw"))
    assert got == ["draw"]  # the play waits for a card of seat 1 pressed sooner
    clock.run(until=1.3)
    assert got == ["draw", "play", "second draw"]


def test_the_page_s_word_that_it_drew_a_version_starts_the_window_at_most_page_ms_later() -> None:
    """A busy page draws a view late: its ``shown`` moves the start of the reaction window to
    when it drew it, by at most ``PAGE_MS``; an early or unknown word changes nothing."""
    seen = Sightings()
    seen.note((0,), 0)
    seen.note((1,), 1000)
    assert seen.bound(0, 0, 1650, 0) == (1, 1)  # 650 ms after it was sent: a wrong card
    seen.shown((1,), 1100)  # the page drew it 100 ms late
    assert seen.bound(0, 0, 1650, 0) == (0, 1)  # 550 ms after the screen: too late
    assert seen.bound(0, 0, 1700, 0) == (1, 1)
    seen.shown((1,), 1500)  # a second word for the same version: the first counts
    assert seen.bound(0, 0, 1700, 0) == (1, 1)
    seen.shown((7,), 1200)  # a version never sent: nothing
    assert 7 not in seen.receipts[0]


@settings(max_examples=200)
@given(credit=st.integers(0, 400), sent=st.integers(1, 3000), receipt=st.integers(0, 10_000),
       press=st.integers(0, 3000))
def test_a_late_word_from_the_page_stretches_the_window_by_page_ms_at_most(
        credit: int, sent: int, receipt: int, press: int) -> None:
    """However late a client says it drew a version, a card arriving more than the reaction
    window plus the credited round trip plus ``PAGE_MS`` after the version was sent can only
    be judged against it."""
    seen = Sightings()
    seen.note((0,), 0)
    seen.note((1,), sent)
    seen.shown((1,), receipt)
    oldest, _ = seen.bound(0, 0, sent + press, credit)
    if press >= REACTION_MS + credit + PAGE_MS:
        assert oldest == 1
