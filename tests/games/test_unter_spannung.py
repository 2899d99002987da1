"""Unter Spannung: every rule and decision of RULES.md, by scenario and by property."""

from __future__ import annotations

import itertools
import random
from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule

from zackzack.games import unter_spannung as us
from zackzack.games.errors import (
    BadAction,
    DoesNotFit,
    IllegalAction,
    LogError,
    NoSuchSeat,
    NotPending,
    NotYourCard,
    OptionsError,
    RoundOver,
    TooLate,
)
from zackzack.games.unter_spannung.errors import EmptyDrawPile

C = us.Card.parse


def scenario(hands: list[str], draw_piles: list[str], discard: str, **options: object
             ) -> us.State:
    """A round laid out exactly: hands and piles written as space-separated cards."""
    layout = {
        "hands": [h.split() for h in hands],
        "draw_piles": [p.split() for p in draw_piles],
        "discard_pile": discard.split(),
    }
    deck = tuple(C(c) for zone in (*hands, *draw_piles, discard) for c in zone.split())
    opts = us.Options(players=len(hands), deck=deck + (C("1±1"),) * 20, **options)  # type: ignore[arg-type]
    layout["draw_piles"][0] = ["1±1"] * 20 + layout["draw_piles"][0]
    return us.parse_deal(layout, opts)


# The seed's worked examples ---------------------------------------------------------------

@pytest.mark.parametrize(("top", "allowed"), [
    ("5±2", {3, 7}),   # seed: a 5 with ±2 allows a 3 or a 7
    ("9±3", {2, 6}),   # seed: 9 + 3 = 12 → 2
    ("1±2", {9, 3}),   # seed: 1 − 2 → 0 = 10 → 9
    ("10±1", {9, 1}),
    ("2±3", {9, 5}),
])
def test_allowed_values_follow_the_seed_examples(top: str, allowed: set[int]) -> None:
    assert us.allowed_values(C(top)) == allowed


def test_wrap_keeps_values_in_one_to_ten() -> None:
    assert [us.wrap(x) for x in (-2, 0, 1, 10, 11, 13)] == [8, 10, 1, 10, 1, 3]


def test_card_notation_round_trips_and_rejects_nonsense() -> None:
    for card in us.STANDARD_DECK:
        assert C(str(card)) == card
    for bad in ("11±2", "7±4", "0±1", "seven", "7", "", "7±"):
        with pytest.raises(ValueError):
            C(bad)


# The deck and the deal ---------------------------------------------------------------------

def test_standard_deck_has_73_cards_and_every_combination_twice() -> None:
    counts = Counter(us.STANDARD_DECK)
    assert len(us.STANDARD_DECK) == 73
    assert len(counts) == 30 and min(counts.values()) >= 2


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_deal_splits_evenly_and_leftovers_go_face_down_under_the_start_card(players: int) -> None:
    state = us.deal(us.Options(players=players), random.Random(players))
    share = 72 // players
    leftover = 72 - share * players
    assert [len(h) for h in state.hands] == [4] * players
    assert [len(p) for p in state.draw_piles] == [share - 4] * players
    assert len(state.discard_pile) == 1 + leftover
    assert state.face_down == leftover
    assert us.cards(state) == Counter(us.STANDARD_DECK)


def test_options_are_validated_with_clear_errors() -> None:
    with pytest.raises(OptionsError, match=r"<= 6 - at `\$.players`"):
        us.parse_options({"players": 7})
    with pytest.raises(OptionsError, match="at least"):
        us.Options(players=2, deck=(C("1±1"), C("2±2"), C("3±3")))
    with pytest.raises(OptionsError, match="at least"):
        us.parse_options({"players": 2, "deck": ["1±1", "2±2", "3±3"]})
    with pytest.raises(OptionsError, match="unknown field `colour`"):
        us.parse_options({"players": 3, "colour": "red"})
    with pytest.raises(OptionsError, match=r"Expected `int`, got `str` - at `\$.players`"):
        us.parse_options({"players": "3"})
    with pytest.raises(OptionsError, match=r"'7±9'.* - at `\$.deck\[0\]`"):
        us.parse_options({"deck": ["7±9"]})
    assert us.parse_options(us.options_to_json(us.Options(players=5, tournament=True))) \
        == us.Options(players=5, tournament=True)


# Playing --------------------------------------------------------------------------------

def test_a_fitting_card_is_played_and_becomes_the_new_top() -> None:
    state = scenario(["3±1 8±2 4±1", "6±1 9±3"], ["", "2±2"], "5±2")
    events = us.apply(state, 0, us.Play(C("3±1"), seen=0))
    assert events == [us.Played(0, C("3±1"), 1)]
    assert state.top == C("3±1") and state.version == 1 and state.tops == [C("5±2"), C("3±1")]
    assert state.hands[0] == [C("8±2"), C("4±1")]


def test_a_card_that_does_not_fit_changes_nothing() -> None:
    state = scenario(["3±1 8±2 4±1", "6±1 9±3 2±1"], ["", "2±2"], "5±2")
    before = us.deal_to_json(state)
    with pytest.raises(DoesNotFit):
        us.apply(state, 1, us.Play(C("6±1"), seen=0))
    assert us.deal_to_json(state) == before and state.version == 0


def test_a_card_aimed_at_an_older_top_is_too_late_not_wrong() -> None:
    state = scenario(["3±1 7±2 4±1", "7±1 9±3 2±1"], ["", "2±2"], "5±2")
    us.apply(state, 0, us.Play(C("3±1"), seen=0))
    with pytest.raises(TooLate):
        us.apply(state, 1, us.Play(C("7±1"), seen=0))   # fitted 5±2, not 3±1
    with pytest.raises(DoesNotFit):
        us.apply(state, 1, us.Play(C("9±3"), seen=0))   # fitted neither
    with pytest.raises(BadAction):
        us.apply(state, 1, us.Play(C("7±1"), seen=5))   # a version from the future


def test_cards_not_in_the_hand_are_refused() -> None:
    state = scenario(["3±1 8±2", "6±1 9±3"], ["", "2±2"], "5±2")
    with pytest.raises(NotYourCard):
        us.apply(state, 1, us.Play(C("3±1"), seen=0))   # seat 0's card
    with pytest.raises(NotYourCard):
        us.apply(state, 0, us.Play(C("2±2"), seen=0))   # face down in a draw pile
    with pytest.raises(NoSuchSeat):
        us.apply(state, 2, us.Draw())


def test_drawing_is_allowed_at_any_time_even_with_a_fitting_card() -> None:
    state = scenario(["3±1 8±2", "6±1 9±3"], ["", "2±2"], "5±2")
    events = us.apply(state, 1, us.Draw())
    assert events == [us.Drew(1, C("2±2"), 0)]
    assert state.hands[1][-1] == C("2±2")
    with pytest.raises(EmptyDrawPile):
        us.apply(state, 1, us.Draw())


def test_the_drawn_card_is_shown_only_to_its_drawer() -> None:
    event = us.Drew(1, C("2±2"), 0)
    assert event.seen_by(1) == event
    assert event.seen_by(0) == us.Drew(1, None, 0)
    assert event.seen_by(None) == us.Drew(1, None, 0)


def test_the_last_card_is_laid_face_down_and_need_not_fit() -> None:
    state = scenario(["3±1 10±3", "6±1 9±3 2±1"], ["", "2±2"], "5±2")
    events = us.apply(state, 0, us.Play(C("3±1"), seen=0))
    assert events[1:] == [us.WentOut(0), us.RoundEnded(0, "went_out", (0, 17))]
    assert state.over and state.winner == 0 and state.last_card == C("10±3")
    assert state.top == C("3±1")   # the face-down card hides nothing
    with pytest.raises(RoundOver):
        us.apply(state, 1, us.Draw())


def test_players_cannot_run_the_tables_steps() -> None:
    state = scenario(["3±1 8±2", "6±1 9±3"], ["", "2±2"], "5±2")
    with pytest.raises(BadAction):
        us.apply(state, 0, us.Rotate())
    with pytest.raises(NotPending):
        us.apply(state, None, us.Rotate())


# Nichts geht mehr -------------------------------------------------------------------------

def stuck() -> us.State:
    """Every draw pile empty, no hand fits 5±2; the pile holds 2±2 (bottom), 8±1, 5±2."""
    deck = tuple(map(C, ["1±1", "6±1", "1±3", "9±1", "10±1", "4±2", "2±2", "8±1", "5±2"]))
    return us.parse_deal({"hands": [["1±1", "6±1", "1±3"], ["9±1", "10±1", "4±2"]],
                          "draw_piles": [[], []], "discard_pile": ["2±2", "8±1", "5±2"]},
                         us.Options(players=2, deck=deck))


def test_nichts_geht_mehr_moves_the_bottom_card_to_the_top() -> None:
    state = stuck()
    assert us.pending(state) == us.Rotate()
    events = us.apply(state, None, us.Rotate())
    assert events == [us.Rotated(C("2±2"), 1, 1)]
    assert state.discard_pile == [C("8±1"), C("5±2"), C("2±2")]
    assert us.pending(state) is None     # 2±2 allows 10 and 4: play resumes
    us.apply(state, 1, us.Play(C("4±2"), seen=1))
    assert state.rotations == 0


def test_nothing_is_pending_while_a_draw_pile_has_cards() -> None:
    state = scenario(["1±1 6±1", "9±1 10±1"], ["", "2±2"], "5±2")
    assert us.pending(state) is None


def test_after_every_card_was_on_top_the_round_ends_without_a_winner() -> None:
    deck = tuple(map(C, ["1±1", "6±1", "2±1", "5±1", "10±1", "6±3", "8±1", "5±2", "4±1"]))
    state = us.parse_deal({"hands": [["1±1", "6±1", "2±1"], ["5±1", "10±1", "4±1"]],
                           "draw_piles": [[], []],
                           "discard_pile": ["6±3", "8±1", "5±2"]}, us.Options(players=2, deck=deck))
    assert us.apply(state, None, us.Rotate())[0].card == C("6±3")
    assert us.apply(state, None, us.Rotate())[0].card == C("8±1")
    assert us.pending(state) == us.EndRound()    # 5±2, 6±3 and 8±1 have all been on top
    events = us.apply(state, None, us.EndRound())
    assert events == [us.RoundEnded(None, "nichts_geht_mehr", (9, 19))]
    assert state.over and state.winner is None


# Explicit deals ---------------------------------------------------------------------------

def test_inconsistent_deals_are_refused_naming_the_problem() -> None:
    cards = "1±1 2±1 3±1 4±1 5±1 6±1 7±1 8±1 9±1 10±1 1±2"
    options = us.Options(players=2, deck=tuple(map(C, cards.split())))
    good = {"hands": [["1±1", "2±1"], ["3±1", "4±1"]], "draw_piles": [["5±1", "6±1", "7±1"],
            ["8±1", "9±1", "10±1"]], "discard_pile": ["1±2"]}
    assert us.parse_deal(good, options).top == C("1±2")
    twice = {**good, "discard_pile": ["1±1"]}
    with pytest.raises(LogError, match=r"missing from the deal: 1±2.*in two places: 1±1"):
        us.parse_deal(twice, options)
    with pytest.raises(LogError, match=r"deal: .* - at `\$.hands\[1\]\[0\]`"):
        us.parse_deal({**good, "hands": [["1±1", "2±1"], ["3±9", "4±1"]]}, options)
    with pytest.raises(LogError, match="3 seats"):
        us.parse_deal({**good, "hands": [["1±1", "2±1"], ["3±1", "4±1"], ["5±1", "6±1"]]},
                      options)
    with pytest.raises(LogError, match=r"length >= 2 - at `\$.hands\[0\]`"):
        us.parse_deal({**good, "hands": [["1±1"], ["2±1"]]}, options)
    with pytest.raises(LogError, match="face_down must be 0 to 0"):
        us.parse_deal({**good, "face_down": 1}, options)


# The tournament -------------------------------------------------------------------------

def finish(match: us.Match, winner: int | None) -> None:
    """End the current round: ``winner`` goes out (``None``: Nichts geht mehr to the end)."""
    state = match.round
    state.over, state.winner = True, winner
    if winner is not None:
        state.hands[winner] = []


def test_a_tournament_has_twice_as_many_rounds_as_players_and_ties_share_a_place() -> None:
    match = us.Match(us.Options(players=3, tournament=True), random.Random(2))
    totals = [0, 0, 0]
    while True:
        finish(match, match.number % 3)
        points = us.minus_points(match.round)
        totals = [t + p for t, p in zip(totals, points, strict=True)]
        result = match.finish_round()
        assert result.scores == points
        if match.result is not None:
            break
        match.next_round()
    assert match.number == 6 and len(match.results) == 6
    placings = sorted(match.result.placings, key=lambda p: p.place)
    assert [p.score for p in placings] == sorted(totals)
    for a, b in itertools.pairwise(placings):
        assert (a.place == b.place) == (a.score == b.score)


def test_tied_minus_points_share_the_place() -> None:
    match = us.Match(us.Options(players=2), random.Random(1))
    state = match.round
    state.over, state.winner = True, None
    state.hands = [[C("3±1"), C("4±2")], [C("7±1")]]
    result = match.finish_round()
    assert result.scores == (7, 7)
    assert [p.place for p in match.result.placings] == [1, 1]  # type: ignore[union-attr]


def test_a_single_round_ranks_the_winner_first() -> None:
    match = us.Match(us.Options(players=4), random.Random(1))
    finish(match, 2)
    match.finish_round()
    assert match.result is not None and match.result.placings[0].seat == 2
    assert match.result.placings[0].why == "went out"
    with pytest.raises(ValueError):
        match.next_round()


# Properties -------------------------------------------------------------------------------

class RandomActions(RuleBasedStateMachine):
    """Random actions from random seats, legal or not; the table's steps when due."""

    def __init__(self) -> None:
        super().__init__()
        self.state: us.State | None = None

    @rule(players=st.integers(2, 6), seed=st.integers(0, 2**32))
    @precondition(lambda self: self.state is None)
    def deal(self, players: int, seed: int) -> None:
        self.state = us.deal(us.Options(players=players), random.Random(seed))

    @rule(seat=st.integers(-1, 6), value=st.integers(1, 10), spread=st.integers(1, 3),
          seen=st.none() | st.integers(0, 80), draw=st.booleans())
    @precondition(lambda self: self.state is not None)
    def act(self, seat: int, value: int, spread: int, seen: int | None, draw: bool) -> None:
        state = self.state
        assert state is not None
        action = us.Draw() if draw else us.Play(us.Card(value, spread), seen)
        before = (us.deal_to_json(state), state.version, state.over)
        try:
            us.apply(state, seat, action)
        except IllegalAction:
            assert (us.deal_to_json(state), state.version, state.over) == before

    @rule(data=st.data())
    @precondition(lambda self: self.state is not None)
    def legal(self, data: st.DataObject) -> None:
        state = self.state
        assert state is not None
        seat = data.draw(st.integers(0, state.players - 1))
        actions = us.legal_actions(state, seat)
        if actions:
            us.apply(state, seat, data.draw(st.sampled_from(actions)))

    @rule()
    @precondition(lambda self: self.state is not None)
    def step(self) -> None:
        state = self.state
        assert state is not None
        due = us.pending(state)
        if due is not None:
            us.apply(state, None, due)

    @invariant()
    def cards_are_conserved(self) -> None:
        if self.state is not None:
            assert us.cards(self.state) == Counter(self.state.options.deck)

    @invariant()
    def views_show_only_what_a_seat_may_see(self) -> None:
        state = self.state
        if state is None:
            return
        for seat in (None, *range(state.players)):
            view = us.view(state, seat)
            assert view.hand == (tuple(state.hands[seat]) if seat is not None else ())
            assert view.hand_counts == tuple(len(h) for h in state.hands)
            public = {f for f in view.__slots__ if f != "hand"}
            other = us.view(state, (seat or 0) + 1 if seat is not None and seat + 1 < state.players
                            else None)
            assert {f: getattr(view, f) for f in public - {"seat"}} == \
                {f: getattr(other, f) for f in public - {"seat"}}


TestRandomActions = RandomActions.TestCase


@given(players=st.integers(2, 6), seed=st.integers(0, 2**32), order=st.randoms())
def test_players_who_play_and_draw_always_finish_a_round(players: int, seed: int,
                                                         order: random.Random) -> None:
    state = us.deal(us.Options(players=players), random.Random(seed))
    bound = len(state.options.deck) * 3 + 100
    for _ in range(bound):
        if state.over:
            break
        due = us.pending(state)
        if due is not None:
            us.apply(state, None, due)
            continue
        seats = [s for s in range(players) if us.legal_actions(state, s)]
        seat = order.choice(seats)
        actions = us.legal_actions(state, seat)
        plays = [a for a in actions if isinstance(a, us.Play)]
        us.apply(state, seat, plays[0] if plays else actions[0])
    assert state.over
    assert us.cards(state) == Counter(state.options.deck)
