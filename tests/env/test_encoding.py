"""The games' encodings: masks are the rules' legal actions, actions are what the table gets,
observations come from the view alone; numpy only (the learned bot runs without pettingzoo)."""

from __future__ import annotations

import copy
import random
import subprocess
import sys
from typing import Any

import numpy as np
import pytest

from zackzack.games import schnelllauf as sl
from zackzack.games import unter_spannung as us
from zackzack.games.errors import IllegalAction
from zackzack.games.schnelllauf import encoding as sle
from zackzack.games.unter_spannung import encoding as use


def random_states(rules: Any, options: Any, seed: int, steps: int = 300) -> list[Any]:
    """States along a random game: each step a random legal action of a random seat (or the
    table's step when one is due)."""
    rng = random.Random(seed)
    state = rules.deal(options, rng)
    states = []
    for _ in range(steps):
        if state.over:
            break
        states.append(copy.deepcopy(state))
        due = rules.pending(state)
        if due is not None:
            rules.apply(state, None, due)
            continue
        seat = rng.randrange(options.players)
        legal = rules.legal_actions(state, seat)
        if legal:
            rules.apply(state, seat, rng.choice(legal))
    return states


@pytest.mark.parametrize("players", [2, 3, 6])
def test_unter_spannung_mask_is_legal_actions(players: int) -> None:
    options = us.Options(players=players)
    for state in random_states(us, options, seed=players):
        for seat in range(players):
            view = us.view(state, seat)
            allowed = use.mask(view)
            legal = {use.index(view, a) for a in us.legal_actions(state, seat)} | {use.NOOP}
            assert set(np.flatnonzero(allowed).tolist()) == legal
            for i in legal - {use.NOOP}:  # each masked action is accepted by the rules
                act = use.action(view, i)
                assert act is not None
                us.apply(copy.deepcopy(state), seat, act)


def test_schnelllauf_mask_is_legal_actions() -> None:
    for wrap in (True, False):
        options = sl.Options(wrap=wrap)
        for state in random_states(sl, options, seed=int(wrap), steps=400):
            for seat in range(2):
                view = sl.view(state, seat)
                allowed = np.flatnonzero(sle.mask(view, wrap=wrap)).tolist()
                acts = [sle.action(view, i) for i in allowed if i != sle.NOOP]
                assert None not in acts
                assert set(acts) == set(sl.legal_actions(state, seat))
                for act in acts:
                    assert act is not None
                    sl.apply(copy.deepcopy(state), seat, act)


def test_unmasked_actions_are_refused_or_judged() -> None:
    state = us.deal(us.Options(players=2), random.Random(5))
    view = us.view(state, 0)
    allowed = use.mask(view)
    for i in range(1, use.ACTIONS):
        if allowed[i]:
            continue
        act = use.action(view, i)
        assert isinstance(act, us.Play)
        with pytest.raises(IllegalAction) as refusal:
            us.apply(copy.deepcopy(state), 0, act)
        held = act.card in view.hand
        assert refusal.value.code == ("does_not_fit" if held else "not_your_card")


def test_observations_are_fixed_size_and_in_bounds() -> None:
    for rules, encoding, options in ((us, use, us.Options(players=6)), (sl, sle, sl.Options())):
        for state in random_states(rules, options, seed=9, steps=100):
            obs = encoding.observe(rules.view(state, 1))
            assert obs.dtype == np.float32 and obs.shape == (encoding.SIZE,)
            assert obs.min() >= 0 and obs.max() <= encoding.HIGH
            assert encoding.mask(rules.view(state, 1)).dtype == np.int8


def test_unter_spannung_seats_are_relative() -> None:
    state = us.deal(us.Options(players=3), random.Random(2))
    state.hands[1].append(state.draw_piles[1].pop())
    for seat in range(3):
        obs = use.observe(us.view(state, seat))
        assert obs[use.HAND_SIZES] == len(state.hands[seat])
        assert obs[use.HAND_SIZES + 1] == len(state.hands[(seat + 1) % 3])
        assert obs[use.PRESENT:use.PRESENT + use.SEATS].tolist() == [1, 1, 1, 0, 0, 0]


def test_encodings_need_no_pettingzoo_nor_gymnasium() -> None:
    code = ("import sys; import zackzack.games.unter_spannung.encoding, "
            "zackzack.games.schnelllauf.encoding; "
            "print(sorted({'pettingzoo', 'gymnasium'} & set(sys.modules)))")
    found = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                           check=True)
    assert found.stdout.strip() == "[]"
