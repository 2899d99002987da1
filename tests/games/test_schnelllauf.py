"""Schnelllauf: every rule and decision of RULES.md, by scenario and by property."""

from __future__ import annotations

import copy
import pickle
import random
from collections import Counter
from typing import Any

import msgspec
import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule

from zackzack.games import GAMES
from zackzack.games import schnelllauf as sl
from zackzack.games.base import plain
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
from zackzack.games.registry import refusals
from zackzack.games.schnelllauf.errors import NoSuchPile, NothingToReveal, PlaceNotEmpty

from builders import REST, cs, scenario

C = sl.Card.parse


def play(state: sl.State, seat: int, card: str, pile: int,
         seen: int | None = None) -> list[sl.Event]:
    """Play ``card`` aimed at the pile's current version unless ``seen`` says otherwise."""
    version = state.versions[pile] if seen is None else seen
    return sl.apply(state, seat, sl.Play(C(card), pile, version))


def run_steps(state: sl.State, limit: int = 10_000) -> list[sl.Event]:
    """Let the table run its automatic steps until a player can act or the round is over."""
    events: list[sl.Event] = []
    for _ in range(limit):
        step = sl.pending(state)
        if step is None:
            return events
        events += sl.apply(state, None, step)
    raise AssertionError("the automatic steps never stopped")


def snapshot(state: sl.State) -> Any:
    """Everything about a round, to tell whether a refused action changed it."""
    return (sl.deal_to_json(state), list(state.versions), [list(h) for h in state.history],
            list(state.stands), list(state.fitting), state.winner, state.over)


def public_cards(state: sl.State) -> Counter[sl.Card]:
    """The face-up cards: layout tops and discard pile tops."""
    found: Counter[sl.Card] = Counter()
    for places in state.layouts:
        found.update(place[-1] for place in places if place)
    found.update(pile[-1] for pile in state.discard_piles if pile)
    return found


# Cards, ranks, jokers ----------------------------------------------------------------------


def test_card_notation_round_trips_for_every_card() -> None:
    for card in sl.deck():
        assert C(str(card)) == card
    assert [str(c) for c in map(C, ["7h", "10s", "Ah", "Jc", "Qd", "Ks", "*"])] == [
        "7h", "10s", "Ah", "Jc", "Qd", "Ks", "*"]
    assert C(" qD ") is sl.Card(12, sl.Suit.DIAMONDS)
    assert C("*") is sl.JOKER and sl.JOKER.joker and not C("2c").joker
    assert plain(C("10h")) == "10h" and plain([sl.JOKER, None]) == ["*", None]


def test_cards_are_interned_and_immutable() -> None:
    assert {id(C(str(card))) for card in sl.deck()} == {id(card) for card in sl.deck()}
    assert copy.deepcopy(C("Qs")) is C("Qs") and pickle.loads(pickle.dumps(C("Qs"))) is C("Qs")
    with pytest.raises(AttributeError):
        C("Qs").rank = 1  # type: ignore[misc]


@pytest.mark.parametrize("text", ["", "1h", "Th", "11c", "7x", "h7", "**", "7", 7, None])
def test_bad_card_notation_is_refused(text: Any) -> None:
    with pytest.raises(ValueError, match="written like"):
        C(text)


@pytest.mark.parametrize(("rank", "suit"), [
    (14, sl.Suit.HEARTS), (-1, sl.Suit.HEARTS), (0, sl.Suit.HEARTS), (5, None), (5, "h"),
    (True, sl.Suit.HEARTS),
])
def test_card_validation(rank: Any, suit: Any) -> None:
    with pytest.raises(ValueError):
        sl.Card(rank, suit)


def test_cards_sort_and_count_with_jokers_among_them() -> None:
    cards = [C("Ks"), sl.JOKER, C("Ac"), C("Ah"), sl.JOKER]
    assert [str(c) for c in sorted(cards)] == ["*", "*", "Ac", "Ah", "Ks"]
    assert sum(sl.decks(sl.Options(jokers=2)).values()) == 108
    assert sl.decks(sl.Options())[sl.JOKER] == 6


@pytest.mark.parametrize(("rank", "wrap", "expected"), [
    (11, True, {10, 12}), (13, True, {12, 1}), (1, True, {13, 2}), (7, True, {6, 8}),
    (13, False, {12}), (1, False, {2}), (2, False, {1, 3}),
])
def test_neighbours(rank: int, wrap: bool, expected: set[int]) -> None:
    assert sl.neighbours(rank, wrap) == expected


@pytest.mark.parametrize("rank", [0, 14, -1, True])
def test_neighbours_of_no_rank(rank: int) -> None:
    with pytest.raises(ValueError):
        sl.neighbours(rank)


def test_fits_and_what_a_pile_stands_for() -> None:
    on_jack = frozenset({11})
    assert sl.fits(C("10s"), on_jack) and sl.fits(C("Qd"), on_jack)  # seed: J → 10 or Q
    assert not sl.fits(C("9c"), on_jack) and not sl.fits(C("Kc"), on_jack)
    on_four = sl.stands_after(sl.JOKER, frozenset({4}))
    assert on_four == {3, 5}  # RULES.md: on a 4 the joker is a 3 or a 5 …
    assert all(sl.fits(sl.Card(r, sl.Suit.CLUBS), on_four) for r in (2, 4, 6))  # … so 2, 4, 6
    assert not any(sl.fits(sl.Card(r, sl.Suit.CLUBS), on_four) for r in (3, 5, 7))
    assert sl.stands_after(sl.JOKER, None) is None
    assert sl.stands_after(sl.JOKER, frozenset({13}), wrap=False) == {12}
    assert sl.stands_after(C("5h"), None) == {5}


# Options --------------------------------------------------------------------------------


def test_default_options() -> None:
    options = sl.Options()
    assert (options.players, options.jokers, options.wrap) == (2, 3, True)
    assert options.pile_size == (3, 3) and options.one_hand_seats == (False, False)
    assert (options.max_rounds, options.penalty_ms, options.countdown_ms) == (200, 1000, 1500)
    assert not options.one_hand(0) and sl.Options(one_hand_seats=(False, True)).one_hand(1)


@pytest.mark.parametrize("data", [
    {"players": 3}, {"players": 1}, {"jokers": 4}, {"jokers": -1}, {"jokers": True},
    {"wrap": 1}, {"pile_size": [3, 5]}, {"pile_size": [3]}, {"pile_size": [3, 3, 3]},
    {"one_hand_seats": [True]}, {"one_hand_seats": [1, 0]}, {"max_rounds": 0},
    {"max_rounds": 1001}, {"penalty_ms": -1}, {"countdown_ms": 10_001},
])
def test_bad_options_are_refused(data: dict[str, Any]) -> None:
    with pytest.raises(OptionsError):
        sl.parse_options(data)


def test_options_check_the_players_however_they_are_made() -> None:
    with pytest.raises(OptionsError, match="exactly 2 players, not 3"):
        sl.Options(players=3)


@pytest.mark.parametrize(("data", "message"), [
    ({"colour": "red"}, "unknown field `colour`"),
    ({"players": 4}, "exactly 2 players"),
    ({"jokers": "3"}, r"Expected `int`, got `str` - at `\$.jokers`"),
    ({"wrap": "yes"}, r"Expected `bool`, got `str` - at `\$.wrap`"),
    ({"pile_size": [3, 5]}, r"<= 4 - at `\$.pile_size\[1\]`"),
    ({"pile_size": 4}, r"Expected `array`, got `int` - at `\$.pile_size`"),
    ({"one_hand_seats": [True]}, r"length 2, got 1 - at `\$.one_hand_seats`"),
    ({"max_rounds": 0}, r">= 1 - at `\$.max_rounds`"),
    ({"countdown_ms": 1.5}, r"Expected `int`, got `float` - at `\$.countdown_ms`"),
    ([1, 2], "Expected `object`, got `array`"),
])
def test_parse_options_explains_what_is_wrong(data: Any, message: str) -> None:
    with pytest.raises(OptionsError, match=message):
        sl.parse_options(data)


def test_options_round_trip_through_json() -> None:
    options = sl.Options(jokers=1, wrap=False, pile_size=(4, 3), one_hand_seats=(True, False),
                         max_rounds=7, penalty_ms=0, countdown_ms=300)
    assert sl.parse_options(sl.options_to_json(options)) == options
    assert sl.parse_options({}) == sl.Options()


# Actions from JSON ----------------------------------------------------------------------


def test_actions_from_json() -> None:
    assert sl.action_from_json({"type": "play", "card": "7h", "pile": 0, "seen": 3}) == \
        sl.Play(C("7h"), 0, 3)
    assert sl.action_from_json({"type": "play", "card": "*", "pile": 1}) == \
        sl.Play(sl.JOKER, 1, None)
    assert sl.action_from_json({"type": "move", "source": 1, "target": 4}) == sl.Move(1, 4)
    assert sl.action_from_json({"type": "flip"}) == sl.Flip()
    assert sl.action_from_json({"type": "reshuffle"}) == sl.Reshuffle()
    assert sl.action_from_json({"type": "end_round"}) == sl.EndRound()
    for action in (sl.Play(C("10d"), 1, 2), sl.Move(0, 3), sl.Flip()):
        assert sl.action_from_json(plain(action)) == action
    assert plain(sl.Play(C("10d"), 1)) == {"type": "play", "card": "10d", "pile": 1, "seen": None}
    assert plain(sl.EndRound()) == {"type": "end_round"} and sl.EndRound.kind == "end_round"


@pytest.mark.parametrize(("data", "message"), [
    ({"type": "draw"}, r"Invalid value 'draw' - at `\$.type`"),
    ("play", "Expected `object`, got `str`"),
    ({"card": "7h", "pile": 0}, "missing required field `type`"),
    ({"type": "play", "pile": 0}, "missing required field `card`"),
    ({"type": "play", "card": "7h"}, "missing required field `pile`"),
    ({"type": "play", "card": "7x", "pile": 0}, r"written like.* - at `\$.card`"),
    ({"type": "play", "card": 7, "pile": 0}, r"got int - at `\$.card`"),
    ({"type": "play", "card": "7h", "pile": 2}, r"<= 1 - at `\$.pile`"),
    ({"type": "play", "card": "7h", "pile": 0, "seen": -1}, r">= 0 - at `\$.seen`"),
    ({"type": "play", "card": "7h", "pile": 0, "place": 1}, "unknown field `place`"),
    ({"type": "move", "source": 5, "target": 0}, r"<= 4 - at `\$.source`"),
    ({"type": "move", "source": 0}, "missing required field `target`"),
    ({"type": "flip", "pile": 0}, "unknown field `pile`"),
])
def test_bad_actions_from_json(data: Any, message: str) -> None:
    with pytest.raises(BadAction, match=message):
        sl.action_from_json(data)


# Dealing --------------------------------------------------------------------------------


def test_deal_lays_out_five_piles_of_three_a_start_card_and_a_reserve() -> None:
    state = sl.deal(sl.Options(), random.Random(5))
    assert [[len(p) for p in places] for places in state.layouts] == [[3] * 5] * 2
    assert [len(p) for p in state.discard_piles] == [1, 1]
    assert [len(r) for r in state.reserves] == [39, 39]
    assert sl.cards(state) == sl.decks(state.options)
    assert state.versions == [0, 0] and state.reshuffles == 0 and not state.over


def test_deal_handicap_four_per_pile_and_no_jokers() -> None:
    state = sl.deal(sl.Options(jokers=0, pile_size=(4, 3)), random.Random(5))
    assert [[len(p) for p in places] for places in state.layouts] == [[4] * 5, [3] * 5]
    assert [len(r) for r in state.reserves] == [31, 36]
    assert sl.JOKER not in sl.cards(state)


def test_deal_is_determined_by_the_seed() -> None:
    one, two = (sl.deal(sl.Options(), random.Random(9)) for _ in range(2))
    assert sl.deal_to_json(one) == sl.deal_to_json(two)
    assert sl.deal_to_json(one) != sl.deal_to_json(sl.deal(sl.Options(), random.Random(10)))


def test_short_stack_lays_out_everything_from_the_left_and_starts_no_pile() -> None:
    deck = sl.deck()
    state = sl.deal(sl.Options(), random.Random(1), [deck[:13], [*deck[13:], *deck]])
    assert [len(p) for p in state.layouts[0]] == [3, 3, 3, 3, 1]
    assert state.discard_piles[0] == [] and state.reserves[0] == []
    assert len(state.discard_piles[1]) == 1
    exactly = sl.deal(sl.Options(), random.Random(1), [deck[:16], [*deck[16:], *deck]])
    assert [len(p) for p in exactly.layouts[0]] == [3] * 5
    assert len(exactly.discard_piles[0]) == 1 and exactly.reserves[0] == []
    handicap = sl.deal(sl.Options(pile_size=(4, 3)), random.Random(1),
                       [deck[:20], [*deck[20:], *deck]])
    assert [len(p) for p in handicap.layouts[0]] == [4] * 5
    assert handicap.discard_piles[0] == []
    with pytest.raises(ValueError):
        sl.deal(sl.Options(), random.Random(1), [[], [*deck, *deck]])


def test_deal_round_trips_through_json() -> None:
    state = sl.deal(sl.Options(jokers=2), random.Random(3))
    again = sl.parse_deal(sl.deal_to_json(state), state.options)
    assert sl.deal_to_json(again) == sl.deal_to_json(state)
    assert again.stands == state.stands and again.fitting == state.fitting


@pytest.mark.parametrize(("change", "message"), [
    (lambda d: d["reserves"][0].append("7h"), "not in the deck or in two places: 7h"),
    (lambda d: d["reserves"][0].remove(d["reserves"][0][0]), "missing from the deal"),
    (lambda d: d["layouts"][0].pop(), r"length >= 5 - at `\$.layouts\[0\]`"),
    (lambda d: d["layouts"].pop(), r"length >= 2 - at `\$.layouts`"),
    (lambda d: d["reserves"][1].__setitem__(0, "7z"), r"'7z' - at `\$.reserves\[1\]\[0\]`"),
    (lambda d: d["discard_piles"].__setitem__(0, "7h"), r"got `str` - at `\$.discard_piles\[0\]`"),
    (lambda d: d.__setitem__("colour", 1), "unknown field `colour`"),
    (lambda d: d.__setitem__("stands", [[0], d["stands"][1]]), r"at `\$.stands\[0\]\[0\]`"),
    (lambda d: d.__setitem__("stands", [d["stands"][0], []]), r"at `\$.stands\[1\]`"),
    (lambda d: d.__setitem__("stands", [None, [13]]), r"deal.stands\[1\]: .* stands for"),
    (lambda d: d.__setitem__("seed", -1), r">= 0 - at `\$.seed`"),
])
def test_parse_deal_says_where_the_problem_is(change: Any, message: str) -> None:
    data = sl.deal_to_json(sl.deal(sl.Options(), random.Random(3)))
    change(data)
    with pytest.raises(LogError, match=message):
        sl.parse_deal(data, sl.Options())


def test_parse_deal_refuses_impossible_rounds() -> None:
    with pytest.raises(LogError, match="at least one pile"):
        scenario(("REST", "REST"), ("", ""))
    with pytest.raises(LogError, match="no reserve"):
        scenario(("REST", "7h"), ("", "2c"), ("3c", ""))
    with pytest.raises(LogError, match="a card in every layout"):
        scenario(("", "7h"), ("REST", "2c"))


def test_parse_deal_reads_what_a_joker_stands_for() -> None:
    state = scenario(("7h", "9d *"), ("REST *", "REST 2c"), stands=[[3, 5], [2]])
    assert state.stands == [{3, 5}, {2}] and state.history[0] == [frozenset({3, 5})]
    with pytest.raises(DoesNotFit):
        play(state, 0, "7h", 0)
    assert play(state, 1, "*", 0) == [sl.Played(1, sl.JOKER, 0, 1, 0, C("9d"))]
    assert state.stands[0] == {2, 4, 6}


# Playing: the seed's examples ------------------------------------------------------------


def test_jack_takes_a_ten_or_a_queen() -> None:
    layouts = ("10h | Qd | 9c | Kc", "REST")
    for card in ("10h", "Qd"):
        state = scenario(layouts, ("REST Jh", "REST 5d"))
        (played,) = play(state, 0, card, 0)
        assert played == sl.Played(0, C(card), 0, 1, ("10h", "Qd").index(card), None)
        assert state.discard_piles[0][-1] == C(card) and state.stands[0] == {C(card).rank}
    state = scenario(layouts, ("REST Jh", "REST 5d"))
    for card in ("9c", "Kc"):
        with pytest.raises(DoesNotFit, match=f"{card} does not fit the Jh on pile 0"):
            play(state, 0, card, 0)


def test_three_joker_five() -> None:
    state = scenario(("5h | * | 4c | Ac | 7d", "REST"), ("REST 3s", "REST"))
    (played,) = play(state, 0, "*", 0)
    assert played.card == sl.JOKER and state.stands[0] == {2, 4}
    assert sl.view(state, 0).stands[0] == {2, 4}
    with pytest.raises(DoesNotFit, match="joker standing for 2 or 4"):
        play(state, 0, "4c", 0)
    with pytest.raises(DoesNotFit):
        play(state, 0, "7d", 0)
    play(state, 0, "5h", 0)  # seed: 3 – Joker – 5
    assert [str(c) for c in state.discard_piles[0][-3:]] == ["3s", "*", "5h"]


def test_joker_on_a_four_lets_a_two_four_or_six_follow() -> None:
    for card in ("2c", "4c", "6c"):
        state = scenario(("2c | 4c | 6c | * | 5c", "REST"), ("REST 4h", "REST"))
        play(state, 0, "*", 0)
        assert state.stands[0] == {3, 5}
        play(state, 0, card, 0)
    state = scenario(("2c | 4c | 6c | * | 5c", "REST"), ("REST 4h", "REST"))
    play(state, 0, "*", 0)
    with pytest.raises(DoesNotFit):
        play(state, 0, "5c", 0)


def test_a_joker_that_starts_a_pile_is_free_and_stays_free_under_a_joker() -> None:
    state = scenario(("9c | * | Kd", "REST"), ("REST *", "REST"))
    assert state.stands[0] is None and sl.view(state, 1).stands[0] is None
    play(state, 0, "*", 0)
    assert state.stands[0] is None
    play(state, 0, "9c", 0)
    assert state.stands[0] == {9}
    with pytest.raises(DoesNotFit):
        play(state, 0, "Kd", 0)


def test_a_joker_flipped_from_the_reserve_takes_anything() -> None:
    # Stalemate: no top fits a K, nobody can move; seat 1's reserve is empty.
    state = scenario(("7c", "7d"), ("Kc", "Ks"), (f"{REST} *", ""))
    assert sl.pending(state) == sl.Flip()
    events = sl.apply(state, None, sl.Flip())
    assert events == [sl.Flipped((sl.JOKER, None), (1, 0))]
    assert state.stands[0] is None and sl.pending(state) is None
    play(state, 1, "7d", 0)
    assert state.stands[0] == {7}


def test_the_ace_is_next_to_the_king_unless_wrap_is_off() -> None:
    state = scenario(("Ah | Kd | 2c", "REST"), ("REST Kc", "REST"))
    play(state, 0, "Ah", 0)
    play(state, 0, "Kd", 0)
    with pytest.raises(DoesNotFit):
        play(state, 0, "2c", 0)
    flat = sl.Options(wrap=False)
    state = scenario(("Ah | Qd | 2c", "REST"), ("REST Kc", "REST"), options=flat)
    with pytest.raises(DoesNotFit):
        play(state, 0, "Ah", 0)
    play(state, 0, "Qd", 0)
    assert state.stands[0] == {12}


def test_a_joker_on_a_king_without_wrap_stands_for_the_queen() -> None:
    state = scenario(("* | Jh | Ah", "REST"), ("REST Kc", "REST"), options=sl.Options(wrap=False))
    play(state, 0, "*", 0)
    assert state.stands[0] == {12}
    with pytest.raises(DoesNotFit):
        play(state, 0, "Ah", 0)
    play(state, 0, "Jh", 0)


# Playing: the layout ---------------------------------------------------------------------


def test_playing_turns_up_the_card_underneath() -> None:
    state = scenario(("2c 9h 6h | 5d", "REST"), ("REST 5c", "REST"))
    assert play(state, 0, "6h", 0) == [sl.Played(0, C("6h"), 0, 1, 0, C("9h"))]
    assert sl.view(state, 1).layouts[0][0] == (C("9h"), 1)
    with pytest.raises(NotYourCard):
        play(state, 0, "2c", 0)  # face down
    with pytest.raises(NotYourCard):
        play(state, 0, "6h", 0)  # played already
    with pytest.raises(NotYourCard):
        play(state, 1, "9h", 0)  # the other seat's
    assert play(state, 0, "5d", 0) == [sl.Played(0, C("5d"), 0, 2, 1, None)]


def test_moving_into_an_empty_place_reveals_a_card() -> None:
    state = scenario(("3c Jd 9h | | 5s", "REST"), ("REST Kc", "REST"))
    assert sl.apply(state, 0, sl.Move(0, 1)) == [sl.Moved(0, 0, 1, C("9h"), C("Jd"))]
    view = sl.view(state, 0)
    assert view.layouts[0][:3] == ((C("Jd"), 1), (C("9h"), 0), (C("5s"), 0))
    assert sl.legal_actions(state, 0)[-2:] == [sl.Move(0, 3), sl.Move(0, 4)]


@pytest.mark.parametrize(("move", "error"), [
    (sl.Move(2, 1), NothingToReveal),  # one card: nothing under it
    (sl.Move(0, 2), PlaceNotEmpty),
    (sl.Move(0, 0), PlaceNotEmpty),
    (sl.Move(1, 3), NoSuchPile),  # empty source
    (sl.Move(5, 1), NoSuchPile),
    (sl.Move(0, -1), NoSuchPile),
])
def test_bad_moves_are_refused(move: sl.Move, error: type[IllegalAction]) -> None:
    state = scenario(("3c Jd 9h | | 5s", "REST"), ("REST Kc", "REST"))
    before = snapshot(state)
    with pytest.raises(error):
        sl.apply(state, 0, move)
    assert snapshot(state) == before


def test_equal_cards_in_two_places_play_from_the_first() -> None:
    state = scenario(("2c 6h | 4d | 3d 6h", "REST"), ("REST 5c", "REST 7c"))
    assert play(state, 0, "6h", 0) == [sl.Played(0, C("6h"), 0, 1, 0, C("2c"))]
    with pytest.raises(DoesNotFit):
        play(state, 0, "6h", 0)  # 6 on a 6
    assert play(state, 0, "6h", 1) == [sl.Played(0, C("6h"), 1, 1, 2, C("3d"))]


def test_play_needs_a_started_pile() -> None:
    state = scenario(("Jh 10h 9h | Qh", "REST"), ("", "REST 8c"))
    with pytest.raises(NoSuchPile, match="not started"):
        play(state, 0, "Qh", 0, seen=0)
    with pytest.raises(NoSuchPile):
        sl.apply(state, 0, sl.Play(C("Qh"), 2, 0))
    assert play(state, 0, "9h", 1)[0].version == 1


# The race: too late and wrong cards --------------------------------------------------------


def test_too_late_when_the_card_fitted_the_version_aimed_at() -> None:
    state = scenario(("10h | Qd | 9c | 8s", "10c | Ks"), ("REST Jh", "REST 5d"))
    play(state, 1, "10c", 0)  # seat 1 is first: pile 0 is now at version 1, a 10
    before = snapshot(state)
    with pytest.raises(TooLate, match="fitted pile 0 at version 0"):
        play(state, 0, "Qd", 0, seen=0)  # Q fitted the J seat 0 saw
    with pytest.raises(DoesNotFit):
        play(state, 0, "Qd", 0, seen=1)  # it does not fit the 10 seat 0 saw
    with pytest.raises(DoesNotFit):
        play(state, 0, "8s", 0, seen=0)  # an 8 never fitted the J
    with pytest.raises(DoesNotFit):
        sl.apply(state, 0, sl.Play(C("Qd"), 0))  # no version named: a plain wrong card
    with pytest.raises(BadAction, match="has not happened"):
        play(state, 0, "Qd", 0, seen=2)
    with pytest.raises(BadAction):
        play(state, 0, "Qd", 0, seen=-1)
    assert snapshot(state) == before
    play(state, 0, "9c", 0, seen=0)  # still fits: accepted whatever version was seen


def test_too_late_for_a_joker_that_moved_on() -> None:
    state = scenario(("4c | 6d", "* | Kd"), ("REST 3s", "REST"))
    play(state, 1, "*", 0)  # now stands for 2 or 4
    with pytest.raises(TooLate):
        play(state, 0, "4c", 0, seen=0)
    with pytest.raises(DoesNotFit, match="standing for 2 or 4"):
        play(state, 0, "6d", 0, seen=0)


# Stalemate, reshuffle, dead end -----------------------------------------------------------


def test_stalemate_flips_both_reserves_onto_their_own_piles() -> None:
    state = scenario(("7c", "7d"), ("Kc", "Ks"), ("REST 2c", "REST 9d"))
    assert sl.legal_actions(state, 0) == [] and sl.pending(state) == sl.Flip()
    assert sl.apply(state, None, sl.Flip()) == [sl.Flipped((C("2c"), C("9d")), (1, 1))]
    assert [str(p[-1]) for p in state.discard_piles] == ["2c", "9d"]
    assert state.stands == [{2}, {9}]


def test_a_player_with_an_empty_reserve_turns_nothing() -> None:
    state = scenario(("7c", "7d"), ("REST Kc", "Ks"), ("8h", ""))
    assert sl.apply(state, None, sl.Flip()) == [sl.Flipped((C("8h"), None), (1, 0))]
    assert sl.pending(state) is None and sl.legal_actions(state, 1) == [sl.Play(C("7d"), 0, 1)]


def test_nothing_is_pending_while_a_move_would_reveal_a_card() -> None:
    state = scenario(("REST 7c | ", "7d"), ("Kc", "Ks"), ("8h", ""))
    assert sl.pending(state) is None
    with pytest.raises(NotPending):
        sl.apply(state, None, sl.Flip())
    sl.apply(state, 0, sl.Move(0, 1))
    assert sl.pending(state) in (None, sl.Flip())


def test_automatic_steps_belong_to_the_table() -> None:
    state = scenario(("7c", "7d"), ("REST Kc", "Ks"), ("8h", ""))
    for step in (sl.Flip(), sl.Reshuffle(), sl.EndRound()):
        with pytest.raises(BadAction, match="automatic step"):
            sl.apply(state, 0, step)
    for step in (sl.Reshuffle(), sl.EndRound()):
        with pytest.raises(NotPending):
            sl.apply(state, None, step)
    with pytest.raises(NotPending):
        sl.apply(state, None, sl.Play(C("7c"), 0))
    with pytest.raises(NoSuchSeat):
        sl.apply(state, 2, sl.Play(C("7c"), 0))


def test_both_reserves_empty_reshuffles_each_pile_into_its_starters_reserve() -> None:
    def make() -> sl.State:
        return scenario(("7c", "7d"), ("REST Kc", "REST Ks"), seed=11)
    state = make()
    sizes = [len(p) for p in state.discard_piles]
    assert sl.pending(state) == sl.Reshuffle()
    events = sl.apply(state, None, sl.Reshuffle())
    assert events == [sl.Reshuffled((sizes[0] - 1, sizes[1] - 1), (1, 1))]
    assert state.discard_piles == [[C("Kc")], [C("Ks")]] and state.stands == [{13}, {13}]
    assert state.reshuffles == 1 and state.quiet
    assert sl.cards(state) == sl.decks(state.options)
    assert sl.pending(state) == sl.Flip()
    again = make()
    sl.apply(again, None, sl.Reshuffle())
    assert again.reserves == state.reserves  # the same seed, the same reshuffle
    other = scenario(("7c", "7d"), ("REST Kc", "REST Ks"), seed=12)
    sl.apply(other, None, sl.Reshuffle())
    assert other.reserves != state.reserves


def test_only_the_pile_with_cards_under_its_top_is_reshuffled() -> None:
    state = scenario(("REST 7c | 7h | 7s | 7d | 6c", "5c | 5d | 5h | 5s | 6d"), ("2c 3c Kc", "Ks"))
    assert sl.apply(state, None, sl.Reshuffle()) == [sl.Reshuffled((2, 0), (1, 0))]
    assert sorted(state.reserves[0]) == [C("2c"), C("3c")]


def test_a_dead_end_ends_the_round_with_no_winner() -> None:
    state = scenario(("REST 7c | 7h | 7s | 7d | 6c", "5c | 5d | 5h | 5s | 6d"), ("Kc", "Ks"))
    assert sl.pending(state) == sl.EndRound()
    left = sl.cards_left(state)
    assert sl.apply(state, None, sl.EndRound()) == [sl.RoundEnded(None, "dead_end", left)]
    assert state.over and state.winner is None and sl.pending(state) is None
    with pytest.raises(RoundOver):
        play(state, 0, "7c", 0)
    with pytest.raises(RoundOver):
        sl.apply(state, None, sl.EndRound())
    assert sl.legal_actions(state, 0) == []
    held = sl.holdings_after(state)
    assert [len(h) for h in held] == [left[0] + 1, left[1] + 1]
    assert Counter(held[0] + held[1]) == sl.decks(state.options)


DEAD = ("5c 5d 5h 5s 8c 8d 8h 8s 6h 6s 6h 7c | 7d | 7h | 7s | 6c",
        "5c 5d 5h 5s 8c 8d 8h 8s 6s 6c 6d 7c | 7d | 7h | 7s | 6d")
"""Tops 7 and 6, every 5, 6 and 8 face down: nothing in the piles will ever fit."""


def test_a_fruitless_reshuffle_ends_the_round() -> None:
    state = scenario(DEAD, ("Kc", "REST Ks"), ("REST", "REST"), options=sl.Options(jokers=0))
    events = run_steps(state)
    kinds = Counter(event.kind for event in events)
    assert kinds["reshuffled"] == 1 and kinds["round_ended"] == 1
    assert events[-1] == sl.RoundEnded(None, "dead_end", sl.cards_left(state))
    assert sl.cards(state) == sl.decks(state.options)


def test_a_joker_waiting_under_a_top_earns_another_reshuffle() -> None:
    options = sl.Options(jokers=1)
    quiet = scenario(DEAD, ("REST Kc", "REST Ks"), options=options, quiet=True)
    assert sl.pending(quiet) == sl.Reshuffle()
    run_steps(quiet)
    assert not quiet.over and quiet.stands.count(None) >= 1
    plain = scenario(DEAD, ("REST Kc", "REST Ks"), options=sl.Options(jokers=0), quiet=True)
    assert sl.pending(plain) == sl.EndRound()


def test_playing_or_moving_after_a_reshuffle_makes_the_next_one_worth_it() -> None:
    state = scenario(("3c Jd 9h | | 6s", "REST"), ("REST 5c", "REST"), quiet=True)
    assert state.quiet
    sl.apply(state, 0, sl.Move(0, 1))
    assert not state.quiet
    state.quiet = True
    play(state, 0, "6s", 0)
    assert not state.quiet


# The end of a round ---------------------------------------------------------------------

CHAIN = ("6", "7", "8", "9", "10", "J", "Q", "K", "A", "2", "3", "4", "5",
         "6", "7", "8", "9", "10", "J", "Q")


@pytest.mark.parametrize("size", [3, 4])
def test_the_round_ends_when_a_layout_is_played_out(size: int) -> None:
    suits = "hs"
    cards = [f"{rank}{suits[i // 13]}" for i, rank in enumerate(CHAIN[:5 * size])]
    places = " | ".join(" ".join(reversed(cards[i * size:(i + 1) * size])) for i in range(5))
    options = sl.Options(pile_size=(size, 3))
    state = scenario((places, "REST"), ("REST 5c", "REST"), options=options)
    for i, card in enumerate(cards):
        events = play(state, 0, card, 0)
        if i < len(cards) - 1:
            assert not state.over and len(events) == 1
    assert len(cards) == 5 * size
    assert events[-1] == sl.RoundEnded(0, "played_out", (0, sl.cards_left(state)[1]))
    assert state.over and state.winner == 0 and sl.view(state, None).winner == 0
    assert sl.pending(state) is None


# Views ----------------------------------------------------------------------------------


def test_views_show_only_face_up_cards_and_are_the_same_for_everyone() -> None:
    state = sl.deal(sl.Options(), random.Random(2))
    mine, spectator = sl.view(state, 0), sl.view(state, None)
    assert spectator == msgspec.structs.replace(mine, seat=None) and mine.seat == 0
    assert mine.reserve_counts == (39, 39) and mine.pile_counts == (1, 1)
    assert all(place[1] == 2 for places in mine.layouts for place in places)
    assert Counter(c for c in _view_cards(plain(mine))) == Counter(
        map(str, public_cards(state).elements()))


def _view_cards(data: Any) -> list[str]:
    """Every card notation anywhere in JSON data."""
    if isinstance(data, str):
        try:
            C(data)
        except ValueError:
            return []
        return [data]
    if isinstance(data, dict):
        return [c for value in data.values() for c in _view_cards(value)]
    if isinstance(data, list):
        return [c for value in data for c in _view_cards(value)]
    return []


# The match ------------------------------------------------------------------------------


def test_winner_takes_the_smaller_pile_loser_the_larger_and_the_rest() -> None:
    state = scenario(("6h", "REST Kd"), ("REST 5c", "Qs"), ("2d 3d 4d", "REST"))
    match = sl.new_match(sl.Options(), random.Random(1), state)
    pile0, layout1, reserve1 = list(state.discard_piles[0]), state.layouts[1], state.reserves[1]
    play(state, 0, "6h", 0)
    result = match.finish_round()
    assert result == sl.RoundResult(1, 0, "played_out", (4, len(pile0) + 1 + sum(
        map(len, layout1)) + len(reserve1)))
    assert sorted(match.holdings[0]) == sorted(map(C, ["2d", "3d", "4d", "Qs"]))
    assert match.result is None
    with pytest.raises(ValueError):
        match.finish_round()
    nxt = match.next_round()
    assert match.number == 2 and nxt is match.round
    assert [len(p) for p in nxt.layouts[0]] == [3, 1, 0, 0, 0]  # a short stack
    assert nxt.discard_piles[0] == [] and nxt.reserves[0] == [] and len(nxt.discard_piles[1]) == 1
    assert sl.cards(nxt) == sl.decks(nxt.options)
    with pytest.raises(ValueError):
        match.next_round()


def test_equal_piles_the_winner_takes_the_first() -> None:
    c = cs("2c 3c 4c 5c 6c 7c")
    state = sl.State(sl.Options(), [[[]] * 5, [[c[0]], [], [], [], []]], [[c[1]], []],
                     [[c[2], c[3]], [c[4], c[5]]])
    state.over, state.winner = True, 1
    held = sl.holdings_after(state)
    assert held == [[c[1], c[4], c[5]], [c[0], c[2], c[3]]]
    state.winner = 0
    assert sl.holdings_after(state) == [[c[1], c[2], c[3]], [c[0], c[4], c[5]]]


def test_a_short_stack_that_wins_has_no_cards_left_and_wins_the_match() -> None:
    state = scenario(("Jh 10h 9h | Qh", "REST"), ("", "REST 8c"), ("", "REST"))
    match = sl.new_match(sl.Options(), random.Random(1), state)
    for card in ("9h", "10h", "Jh"):
        play(state, 0, card, 1)
    assert not state.over
    assert play(state, 0, "Qh", 1)[-1] == sl.RoundEnded(0, "played_out", sl.cards_left(state))
    result = match.finish_round()
    assert result.scores == (0, 110)
    assert match.result == sl.MatchResult(
        (sl.Placing(0, 1, 0, "no cards left"), sl.Placing(1, 2, 110, "110 cards left")),
        1, "no_cards_left")
    assert match.result.place_of(1) == 2
    with pytest.raises(ValueError):
        match.next_round()


def test_a_short_stack_that_loses_takes_the_pile_and_their_unplayed_cards() -> None:
    state = scenario(("Jh 10h 9h | Qh", "9c"), ("", "REST 8c"), ("", "REST"))
    match = sl.new_match(sl.Options(), random.Random(1), state)
    play(state, 0, "9h", 1)
    with pytest.raises(TooLate):
        play(state, 1, "9c", 1, seen=0)
    play(state, 0, "10h", 1)
    assert play(state, 1, "9c", 1)[-1] == sl.RoundEnded(1, "played_out", (2, 0))
    pile, reserve = list(state.discard_piles[1]), list(state.reserves[1])
    result = match.finish_round()
    assert sorted(match.holdings[0]) == sorted([*pile, C("Jh"), C("Qh")])
    assert sorted(match.holdings[1]) == sorted(reserve)
    assert result == sl.RoundResult(1, 1, "played_out", (len(pile) + 2, len(reserve)))
    assert match.result is None
    nxt = match.next_round()
    assert all(nxt.discard_piles) and sl.cards(nxt) == sl.decks(nxt.options)


def test_the_round_cap_gives_the_match_to_the_player_with_fewer_cards() -> None:
    state = scenario(("6h", "REST Kd"), ("REST 5c", "Qs"), ("2d 3d 4d", "REST"))
    match = sl.new_match(sl.Options(max_rounds=1), random.Random(1), state)
    play(state, 0, "6h", 0)
    match.finish_round()
    assert match.result is not None and match.result.reason == "round_limit"
    assert match.result.placings == (sl.Placing(0, 1, 4, "fewer cards after 1 rounds"),
                                     sl.Placing(1, 2, 106, "more cards after 1 rounds"))


def test_the_round_cap_with_equal_cards_shares_first_place() -> None:
    c = cs("2c 2d 9c 9d")
    state = sl.State(sl.Options(max_rounds=3), [[[c[0]], [], [], [], []], [[c[1]], [], [], [], []]],
                     [[], []], [[c[2]], [c[3]]])
    assert sl.pending(state) == sl.EndRound()
    sl.apply(state, None, sl.EndRound())
    match = sl.Match(state.options, random.Random(1), state)
    match.number = 3
    match.results = [sl.RoundResult(n, None, "dead_end", (2, 2)) for n in (1, 2)]
    match.finish_round()
    assert match.result is not None
    assert [(p.place, p.score, p.why) for p in match.result.placings] == [
        (1, 2, "as many cards after 3 rounds"), (1, 2, "as many cards after 3 rounds")]


def test_finish_round_needs_a_finished_round() -> None:
    match = sl.new_match(sl.Options(), random.Random(1))
    with pytest.raises(ValueError):
        match.finish_round()
    with pytest.raises(ValueError):
        sl.holdings_after(match.round)


def test_schnelllauf_is_registered() -> None:
    assert GAMES["schnelllauf"] is sl
    assert sl.INFO.min_players == sl.INFO.max_players == 2 and sl.INFO.simultaneous
    assert all(hasattr(sl, name) for name in sl.__all__)
    assert {NothingToReveal, PlaceNotEmpty, NoSuchPile} <= set(refusals())


# Properties -----------------------------------------------------------------------------

options_strategy = st.builds(
    sl.Options, jokers=st.integers(0, 3), wrap=st.booleans(),
    pile_size=st.tuples(st.sampled_from([3, 4]), st.sampled_from([3, 4])))


def thin(state: sl.State, keep: int | None) -> sl.State:
    """Move all but ``keep`` cards of each reserve under its discard pile, so that stalemates
    soon empty the reserves and the table has to reshuffle (rare in a fresh deal)."""
    if keep is not None:
        for seat, reserve in enumerate(state.reserves):
            if state.discard_piles[seat]:
                cut = max(0, len(reserve) - keep)
                state.discard_piles[seat][0:0] = reserve[:cut]
                del reserve[:cut]
    return state


keep_strategy = st.sampled_from([None, 0, 1, 2, 4])


def step_once(state: sl.State, rng: random.Random) -> bool:
    """One automatic step or one random legal action of a random seat; False if none."""
    step = sl.pending(state)
    if step is not None:
        sl.apply(state, None, step)
        return True
    seats = [0, 1]
    rng.shuffle(seats)
    for seat in seats:
        actions = sl.legal_actions(state, seat)
        if actions:
            sl.apply(state, seat, rng.choice(actions))
            return True
    return False


@settings(max_examples=200, deadline=None)
@given(options=options_strategy, seed=st.integers(0, 2**32), keep=keep_strategy)
def test_legal_play_always_finishes_a_round(options: sl.Options, seed: int,
                                            keep: int | None) -> None:
    rng = random.Random(seed)
    state = thin(sl.deal(options, rng), keep)
    # At most one player action per layout card and per face-down card; between two, the
    # table flips every reserve, reshuffles, flips again and reshuffles once more at most.
    actions_bound = sum(len(p) + len(p) - 1 for places in state.layouts for p in places) + 1
    bound = actions_bound * (3 * sum(sl.decks(options).values()) + 4)
    for _ in range(bound):
        if state.over:
            break
        assert step_once(state, rng), "nobody can act and nothing is pending"
    assert state.over
    assert sl.cards(state) == sl.decks(options)


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32))
def test_matches_end(seed: int) -> None:
    rng = random.Random(seed)
    match = sl.new_match(sl.Options(max_rounds=25), rng)
    full = sl.decks(match.options)
    while True:
        state = match.round
        while not state.over:
            # seat 0 is three times as fast: it wins most rounds, the match shrinks its decks
            step = sl.pending(state)
            if step is not None:
                sl.apply(state, None, step)
                continue
            seat = 0 if rng.random() < 0.75 else 1
            actions = sl.legal_actions(state, seat)
            if not actions:
                seat = 1 - seat
                actions = sl.legal_actions(state, seat)
            sl.apply(state, seat, rng.choice(actions))
        result = match.finish_round()
        assert Counter(match.holdings[0] + match.holdings[1]) == full
        assert result.scores == tuple(map(len, match.holdings))
        if match.result is not None:
            break
        match.next_round()
    assert match.result.rounds == match.number <= 25
    assert {p.place for p in match.result.placings} <= {1, 2}


class RandomActions(RuleBasedStateMachine):
    """Random actions, legal and illegal, from random seats, through whole matches."""

    @initialize(options=options_strategy, seed=st.integers(0, 2**32), keep=keep_strategy)
    def start(self, options: sl.Options, seed: int, keep: int | None) -> None:
        first = thin(sl.deal(options, random.Random(seed)), keep)
        self.match = sl.new_match(msgspec.structs.replace(options, max_rounds=3),
                                  random.Random(seed), first)
        self.full = sl.decks(options)
        self.rng = random.Random(seed)
        self.all_cards = sorted(self.full)

    @property
    def state(self) -> sl.State:
        return self.match.round

    def attempt(self, seat: int | None, action: sl.Action) -> list[sl.Event] | None:
        before = snapshot(self.state)
        try:
            events = sl.apply(self.state, seat, action)
        except IllegalAction as error:
            assert error.code in {cls.code for cls in refusals()}
            event(f"refused: {error.code}")
            assert snapshot(self.state) == before
            return None
        self.check_events(events)
        return events

    def check_events(self, events: list[sl.Event]) -> None:
        state = self.state
        for happened in events:
            assert happened.seen_by(0) is happened and happened.seen_by(None) is happened
            if isinstance(happened, sl.Played):
                place = state.layouts[happened.seat][happened.place]
                assert happened.revealed == (place[-1] if place else None)
                assert happened.version == state.versions[happened.pile]
            elif isinstance(happened, sl.Moved):
                assert state.layouts[happened.seat][happened.target] == [happened.card]
                assert state.layouts[happened.seat][happened.source][-1] == happened.revealed
            elif isinstance(happened, sl.Flipped):
                for pile, card in enumerate(happened.cards):
                    assert card is None or state.discard_piles[pile][-1] == card
            elif isinstance(happened, sl.Reshuffled | sl.RoundEnded):
                event(happened.kind)

    @rule(seat=st.integers(-1, 2), data=st.data(), pile=st.integers(0, 2),
          seen=st.one_of(st.none(), st.integers(-1, 6)))
    def random_play(self, seat: int, data: st.DataObject, pile: int, seen: int | None) -> None:
        card = data.draw(st.sampled_from(self.all_cards))
        if seen is not None and pile < 2:
            seen += max(0, self.state.versions[pile] - 3)
        self.attempt(seat, sl.Play(card, pile, seen))

    @rule(seat=st.integers(0, 1), data=st.data())
    def visible_card_anywhere(self, seat: int, data: st.DataObject) -> None:
        tops = [place[-1] for places in self.state.layouts for place in places if place]
        if tops:
            card = data.draw(st.sampled_from(tops))
            pile = data.draw(st.integers(0, 1))
            self.attempt(seat, sl.Play(card, pile, self.state.versions[pile]))

    @rule(seat=st.integers(0, 1), data=st.data())
    def own_card_seen_earlier(self, seat: int, data: st.DataObject) -> None:
        tops = [place[-1] for place in self.state.layouts[seat] if place]
        if tops:
            card = data.draw(st.sampled_from(tops))
            pile = data.draw(st.integers(0, 1))
            seen = data.draw(st.integers(0, self.state.versions[pile]))
            self.attempt(seat, sl.Play(card, pile, seen))

    @rule(seat=st.integers(0, 1), data=st.data())
    def move_own_card(self, seat: int, data: st.DataObject) -> None:
        places = self.state.layouts[seat]
        sources = [i for i, place in enumerate(places) if place]
        if sources:
            source = data.draw(st.sampled_from(sources))
            self.attempt(seat, sl.Move(source, data.draw(st.integers(0, 4))))

    @rule(seat=st.integers(0, 1), source=st.integers(-1, 5), to=st.integers(-1, 5))
    def random_move(self, seat: int, source: int, to: int) -> None:
        self.attempt(seat, sl.Move(source, to))

    @rule(seat=st.one_of(st.none(), st.integers(0, 1)),
          step=st.sampled_from([sl.Flip(), sl.Reshuffle(), sl.EndRound()]))
    def random_step(self, seat: int | None, step: sl.Action) -> None:
        self.attempt(seat, step)

    @rule(count=st.integers(1, 100))
    def legal_run(self, count: int) -> None:
        for _ in range(count):
            state = self.state
            if state.over:
                return
            step = sl.pending(state)
            if step is not None:
                assert self.attempt(None, step) is not None
                continue
            seat = self.rng.randrange(2)
            actions = sl.legal_actions(state, seat)
            if not actions:
                seat = 1 - seat
                actions = sl.legal_actions(state, seat)
            assert actions, "nobody can act and nothing is pending"
            assert self.attempt(seat, self.rng.choice(actions)) is not None

    @rule()
    def next_round(self) -> None:
        if self.state.over and self.match.result is None:
            self.match.finish_round()
            assert Counter(self.match.holdings[0] + self.match.holdings[1]) == self.full
            if self.match.result is None:
                self.match.next_round()
                event("next round")

    @invariant()
    def cards_are_conserved(self) -> None:
        assert sl.cards(self.state) == self.full

    @invariant()
    def views_show_no_face_down_card(self) -> None:
        state = self.state
        for seat in (0, 1, None):
            view = sl.view(state, seat)
            assert Counter(_view_cards(plain(view))) == Counter(
                map(str, public_cards(state).elements()))
            for places, layout in zip(state.layouts, view.layouts, strict=True):
                assert layout == tuple((p[-1], len(p) - 1) if p else (None, 0) for p in places)
            assert view.versions == tuple(state.versions) == sl.versions(state)

    @invariant()
    def history_matches_versions(self) -> None:
        state = self.state
        for p in (0, 1):
            assert len(state.history[p]) == state.versions[p] + 1
            assert state.history[p][-1] == state.stands[p]
            top = state.discard_piles[p][-1] if state.discard_piles[p] else None
            if top is not None and top.rank:
                assert state.stands[p] == {top.rank}


RandomActions.TestCase.settings = settings(
    max_examples=150, stateful_step_count=50, deadline=None)
TestRandomActions = RandomActions.TestCase


def test_thin_reserves_make_the_table_reshuffle_and_rounds_still_end() -> None:
    reshuffled = 0
    for seed in range(40):
        rng = random.Random(seed)
        state = thin(sl.deal(sl.Options(), rng), 0)
        while not state.over:
            assert step_once(state, rng)
        reshuffled += state.reshuffles > 0
        assert sl.cards(state) == sl.decks(state.options)
    assert reshuffled > 20
