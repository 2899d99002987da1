"""A game's ``attempt``, what the table calls: ``apply`` with its refusal returned, not raised."""

from __future__ import annotations

import copy
import random
import re
from typing import Any

import pytest

from zackzack.games import game
from zackzack.games import schnelllauf as sl
from zackzack.games import unter_spannung as us
from zackzack.games.errors import IllegalAction


def candidates(name: str, state: Any, seat: int) -> list[Any]:
    """A seat's draw or moves, and a play of every card in the hands (Unter Spannung) or
    face up in its layout (Schnelllauf) aimed at the newest pile version, as legal ones are."""
    if name == "unter-spannung":
        return [us.Draw(), *(us.Play(card, state.version) for hand in state.hands
                             for card in hand)]
    tops = [place[-1] for place in state.layouts[seat] if place]
    return [*(sl.Play(card, pile, state.versions[pile]) for card in tops for pile in (0, 1)),
            *(sl.Move(s, t) for s in range(sl.PLACES) for t in range(sl.PLACES))]


@pytest.mark.parametrize("name", ["unter-spannung", "schnelllauf"])
def test_attempt_takes_exactly_the_legal_actions_and_a_refusal_changes_nothing(name: str) -> None:
    rules = game(name)
    options = rules.parse_options({})
    for seed in range(10):
        rng = random.Random(seed)
        state = rules.new_match(options, rng).round
        for _ in range(12):  # into the round: a random legal action after each look
            for seat in range(options.players):
                legal = rules.legal_actions(state, seat)
                for action in candidates(name, state, seat):
                    tried = copy.deepcopy(state)
                    outcome = rules.attempt(tried, seat, action)
                    assert isinstance(outcome, list) == (action in legal), (seed, action)
                    if isinstance(outcome, list):
                        continue
                    assert isinstance(outcome, IllegalAction) and str(outcome)
                    assert rules.deal_to_json(tried) == rules.deal_to_json(state)
                    assert rules.versions(tried) == rules.versions(state)
                    with pytest.raises(type(outcome), match=f"^{re.escape(str(outcome))}$"):
                        rules.apply(copy.deepcopy(state), seat, action)
            seat = rng.randrange(options.players)
            legal = rules.legal_actions(state, seat)
            if state.over or not legal:
                break
            rules.apply(state, seat, rng.choice(legal))
