"""Refusals: a stable code, and a reason put into words only when somebody reads it."""

from __future__ import annotations

import pickle

from zackzack.games.errors import BadAction, DoesNotFit, IllegalAction, RoundOver, TooLate
from zackzack.games.registry import refusals


class Counted:
    """A value that counts how often it is put into words."""

    def __init__(self, text: str) -> None:
        self.text, self.told = text, 0

    def __str__(self) -> str:
        self.told += 1
        return self.text


def test_a_reason_is_put_into_words_only_when_it_is_read() -> None:
    card, top = Counted("6±1"), Counted("3±1")
    refusal = DoesNotFit("{} does not fit {}", card, top)
    assert (card.told, top.told) == (0, 0)
    assert str(refusal) == "6±1 does not fit 3±1" and (card.told, top.told) == (1, 1)
    assert repr(refusal) == "DoesNotFit('6±1 does not fit 3±1')"
    assert refusal.code == "does_not_fit"


def test_a_reason_without_blanks_is_kept_as_written_and_a_missing_one_is_the_code() -> None:
    assert str(BadAction("{not a blank} stays")) == "{not a blank} stays"
    assert str(RoundOver()) == "round over"


def test_a_refusal_keeps_its_reason_and_race_through_a_pickle() -> None:
    late = TooLate("{} fitted {}, but {} lies on top now", "7±1", "5±2", "3±1", pile=0, seen=2)
    late.winner, late.margin_ms = 0, 40
    again = pickle.loads(pickle.dumps(late))
    assert str(again) == "7±1 fitted 5±2, but 3±1 lies on top now"
    assert (again.pile, again.seen, again.winner, again.margin_ms) == (0, 2, 0, 40)


def test_a_refusals_code_is_its_name_in_snake_case_unless_it_says_another() -> None:
    class NoSuchThing(IllegalAction):
        """Made up for this test."""

    class Named(NoSuchThing):
        """Made up too, with a code of its own."""

        code = "named_so"

    assert (NoSuchThing.code, Named.code, NoSuchThing().code) == (
        "no_such_thing", "named_so", "no_such_thing")
    assert str(Named()) == "named so"
    codes = [refusal.code for refusal in refusals()]
    assert len(set(codes)) == len(codes) and "nothing_to_reveal" in codes
