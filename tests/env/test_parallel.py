"""The PettingZoo environment: its API, seeds, the real table's verdicts, hidden cards, replays."""

from __future__ import annotations

import random
import warnings
from typing import Any

import numpy as np
import pytest
from pettingzoo.test import parallel_api_test, parallel_seed_test

from zackzack.engine.replay import outcome, replay, table_log
from zackzack.env import ZackzackEnv, parallel_env
from zackzack.games import schnelllauf as sl
from zackzack.games import unter_spannung as us
from zackzack.games.base import plain

TABLES = [("unter-spannung", 2), ("unter-spannung", 4), ("unter-spannung", 6),
          ("schnelllauf", 2)]


def play(env: ZackzackEnv, rng: random.Random, seed: int | None = None,
         masked: bool = True) -> list[tuple[Any, ...]]:
    """One episode of random (masked) actions; every step's results, the actions first."""
    observations, _ = env.reset(seed=seed)
    steps = []
    while env.agents:
        actions = {}
        for agent in env.agents:
            allowed = np.flatnonzero(observations[agent]["action_mask"]) if masked else \
                range(env.codec.actions)
            actions[agent] = int(rng.choice(list(allowed)))
        observations, *rest = env.step(actions)
        steps.append((actions, observations, *rest))
    return steps


def eager(observation: dict[str, Any]) -> int:
    """A play if one is allowed, else a draw, else wait (Unter Spannung's index order)."""
    return int(np.flatnonzero(observation["action_mask"])[-1])


@pytest.mark.parametrize(("game", "players"), TABLES)
def test_pettingzoo_api(game: str, players: int) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # PettingZoo reports a misstep as a warning
        parallel_api_test(parallel_env(game, players=players), num_cycles=1000)


@pytest.mark.parametrize(("game", "players"), TABLES)
def test_pettingzoo_seed(game: str, players: int) -> None:
    parallel_seed_test(lambda: parallel_env(game, players=players, opponents=["normal"]))


@pytest.mark.parametrize("game", ["unter-spannung", "schnelllauf"])
def test_same_seed_same_episode(game: str) -> None:
    runs = []
    for _ in range(2):
        env = parallel_env(game, players=2)
        steps = play(env, random.Random(4), seed=11)
        runs.append((steps, plain(env.table.log)))
    (steps_a, log_a), (steps_b, log_b) = runs
    assert log_a == log_b and len(steps_a) == len(steps_b)
    for a, b in zip(steps_a, steps_b, strict=True):
        assert a[0] == b[0] and a[2:] == b[2:]
        for agent, obs in a[1].items():
            assert np.array_equal(obs["observation"], b[1][agent]["observation"])
            assert np.array_equal(obs["action_mask"], b[1][agent]["action_mask"])
    env = parallel_env(game, players=2)
    play(env, random.Random(4), seed=12)
    assert plain(env.table.log) != log_a


@pytest.mark.parametrize(("game", "reaction"), [("unter-spannung", None),
                                                ("schnelllauf", None),
                                                ("unter-spannung", "normal"),
                                                ("schnelllauf", "pro")])
def test_an_episode_replays_from_its_log(game: str, reaction: str | None) -> None:
    env = parallel_env(game, players=2, opponents=["pro"], reaction=reaction, tick_ms=50)
    steps = play(env, random.Random(8), seed=3)
    assert any(steps[-1][3].values()), "the episode ends with its round"
    table = env.table
    again = replay(table_log(table)).table
    assert outcome(again) == outcome(table)
    assert table.rules.deal_to_json(again.state) == table.rules.deal_to_json(table.state)
    rewards = sum(step[2]["seat_0"] for step in steps)
    result = table.match.results[0]
    assert rewards == pytest.approx((result.winner == 0) - 0.01 * result.scores[0])


def test_unmasked_wrong_card_freezes_as_for_a_person() -> None:
    env = parallel_env("unter-spannung", players=2, opponents=["beginner"], tick_ms=100)
    observations, _ = env.reset(seed=5)
    view = env.table.rules.view(env.table.state, 0)
    wrong = next(card for card in view.hand if not us.fits(card, view.top))
    index = 2 + (wrong.value - 1) * 3 + wrong.spread - 1
    assert observations["seat_0"]["action_mask"][index] == 0
    observations, _, _, _, infos = env.step({"seat_0": index})
    assert infos["seat_0"]["refusal"] == "does_not_fit"
    obs = observations["seat_0"]
    assert obs["action_mask"].tolist() == [1] + [0] * 31  # frozen: the table takes nothing
    assert 0.8 <= obs["observation"][-1] <= 1.0  # seconds of the freeze left
    observations, *_, infos = env.step({"seat_0": 1})  # a draw while frozen: refused
    assert infos["seat_0"]["refusal"] == "frozen"
    for _ in range(9):
        observations, *_ = env.step({"seat_0": 0})
    assert observations["seat_0"]["observation"][-1] == 0
    assert observations["seat_0"]["action_mask"][1] == 1  # may draw again


def test_actions_in_a_tick_land_at_distinct_random_milliseconds() -> None:
    env = parallel_env("unter-spannung", players=6, tick_ms=100)
    times = set()
    env.reset(seed=2)
    for _ in range(20):
        before = len(env.table.log)
        env.step(dict.fromkeys(env.agents, 1))  # everyone draws
        batch = env.table.log[before:]
        assert len({entry.t for entry in batch}) == len(batch) == 6
        times |= {entry.t % 100 for entry in batch}
        orders = [entry.seat for entry in batch]
        assert sorted(orders) == list(range(6))
    assert len(times) > 50  # spread over the tick, not bunched


def test_reaction_delays_the_agents_action() -> None:
    env = parallel_env("unter-spannung", players=2, opponents=["normal"], reaction="normal")
    env.reset(seed=6)
    observations, *_ = env.step({"seat_0": 1})
    assert not env.table.log or env.table.log[0].seat == 1  # still on its way
    assert observations["seat_0"]["action_mask"].sum() == 1  # busy: the no-op only
    ticks = 1
    while not any(entry.seat == 0 for entry in env.table.log):
        observations, *_ = env.step({"seat_0": 1})  # ignored while busy
        ticks += 1
    assert ticks >= 5  # a normal player needs about a second
    assert [entry.action for entry in env.table.log if entry.seat == 0] == [us.Draw()]


def _timed(env: ZackzackEnv, delays: dict[int, tuple[int, int]]) -> None:
    """Make each agent's reaction fixed: (perception + think, motor) in ms, by seat."""
    def fixed(seat: int) -> tuple[int, int]:
        return delays[seat]
    env._delays = fixed  # type: ignore[method-assign]


def test_an_agent_is_timed_from_the_last_change_as_a_bot() -> None:
    env = parallel_env("unter-spannung", players=2, reaction="normal")
    env.reset(seed=1)
    _timed(env, {0: (250, 100), 1: (250, 100)})
    env.step({"seat_0": 1})  # a draw, chosen on the deal (the last change: table time 0)
    for _ in range(4):
        env.step({})
    assert [(entry.t, entry.seat, entry.action) for entry in env.table.log] == [
        (350, 0, us.Draw())]


def test_a_change_before_the_agent_commits_voids_its_choice() -> None:
    env = parallel_env("unter-spannung", players=2, reaction="normal")
    for seed in range(50):  # a deal where seat 1 has a card that fits
        observations, _ = env.reset(seed=seed)
        if observations["seat_1"]["action_mask"][2:].any():
            break
    play = int(np.flatnonzero(observations["seat_1"]["action_mask"][2:])[0]) + 2
    _timed(env, {0: (250, 100), 1: (50, 10)})
    env.step({"seat_0": 1, "seat_1": play})  # seat 1 plays at 60 ms: seat 0 has not committed
    for _ in range(3):
        observations, *_ = env.step({})
    assert [(entry.t, entry.seat) for entry in env.table.log] == [(60, 1)]
    assert observations["seat_0"]["action_mask"][1] == 1  # its hand is free: it may choose again
    env.step({"seat_0": 1})  # at 400 ms, long after the change at 60: it commits at once
    env.step({})
    assert [(entry.t, entry.seat) for entry in env.table.log] == [(60, 1), (500, 0)]


def test_an_action_on_its_way_is_not_offered_twice() -> None:
    env = parallel_env("schnelllauf", players=2, reaction="normal")
    observations, _ = env.reset(seed=2)
    _timed(env, {0: (1000, 100), 1: (1000, 100)})
    mask = observations["seat_0"]["action_mask"]
    play = int(np.flatnonzero(mask[1:])[0]) + 1
    observations, *_ = env.step({"seat_0": play})
    assert len(env.in_flight("seat_0")) == 1  # Schnelllauf: a second hand is free
    mask = observations["seat_0"]["action_mask"]
    assert mask[play] == 0 and mask[0] == 1


def test_one_hand_the_mask_waits_as_the_table_does() -> None:
    env = parallel_env("schnelllauf", players=2, options={"one_hand_seats": [True, False]})
    for seed in range(50):  # a deal where seat 0 can play at once
        observations, _ = env.reset(seed=seed)
        if observations["seat_0"]["action_mask"][1:].any():
            break
    table = env.table
    while table.last_action[0] < 0:  # until seat 0's first card is accepted
        mask = observations["seat_0"]["action_mask"]
        choice = int(np.flatnonzero(mask[1:])[0]) + 1 if mask[1:].any() else 0
        observations, *_ = env.step({"seat_0": choice})
    waited = 0
    while env._tick * env.tick_ms < table.last_action[0] + 400:
        assert observations["seat_0"]["action_mask"].sum() == 1  # the no-op alone
        observations, *_ = env.step({})
        waited += 1
    assert 3 <= waited <= 4  # 400 ms at 100 ms ticks, from somewhere in the tick it landed


def test_bots_fill_the_seats_after_the_agents() -> None:
    env = parallel_env("unter-spannung", opponents=["normal", "pro"])
    assert env.options.players == 3 and env.possible_agents == ["seat_0"]
    observations, _ = env.reset(seed=1)
    while env.agents:
        observations, *_ = env.step({"seat_0": eager(observations["seat_0"])})
    assert {entry.seat for entry in env.table.log} == {0, 1, 2}
    assert env.table.match.results


def test_a_match_episode_and_the_tick_cap() -> None:
    env = parallel_env("unter-spannung", players=2, opponents=["machine"], episode="match",
                       options={"tournament": True})
    observations, _ = env.reset(seed=3)
    total = 0.0
    while env.agents:
        observations, rewards, terminations, truncations, _ = env.step(
            {"seat_0": eager(observations["seat_0"])})
        total += rewards["seat_0"]
    assert terminations["seat_0"] and not truncations["seat_0"]
    assert len(env.table.match.results) == 4 and env.table.match.result is not None
    wins = sum(result.winner == 0 for result in env.table.match.results)
    assert total == pytest.approx(wins - 0.01 * env.table.match.totals[0])
    env = parallel_env("schnelllauf", max_ticks=7)
    env.reset(seed=1)
    for _ in range(7):
        _, _, terminations, truncations, _ = env.step({})
    assert truncations == {"seat_0": True, "seat_1": True} and not any(terminations.values())
    assert env.agents == [] and env.step({}) == ({}, {}, {}, {}, {})


def scramble_unter_spannung(state: us.State, seat: int, rng: random.Random) -> None:
    """Shuffle every card ``seat`` may not see: other hands, all draw piles, the face-down
    cards under the discard pile."""
    zones = [hand for s, hand in enumerate(state.hands) if s != seat] + state.draw_piles
    hidden = [card for zone in zones for card in zone] + state.discard_pile[:state.face_down]
    rng.shuffle(hidden)
    for zone in zones:
        zone[:] = [hidden.pop() for _ in zone]
    state.discard_pile[:state.face_down] = hidden


def scramble_schnelllauf(state: sl.State, rng: random.Random) -> None:
    """Shuffle every face-down card: under the layouts' tops and in both reserves."""
    places = [place for places in state.layouts for place in places if place]
    hidden = [card for place in places for card in place[:-1]]
    hidden += [card for reserve in state.reserves for card in reserve]
    rng.shuffle(hidden)
    for place in places:
        place[:-1] = [hidden.pop() for _ in place[:-1]]
    for reserve in state.reserves:
        reserve[:] = [hidden.pop() for _ in reserve]


@pytest.mark.parametrize(("game", "players"), TABLES)
def test_hidden_cards_do_not_change_observations(game: str, players: int) -> None:
    env = parallel_env(game, players=players)
    rng = random.Random(1)
    observations, _ = env.reset(seed=7)
    for _ in range(30):
        actions = {agent: int(rng.choice(np.flatnonzero(obs["action_mask"])))
                   for agent, obs in observations.items()}
        observations, *_ = env.step(actions)
    state, rules = env.table.state, env.table.rules
    for seat in range(players):
        before = env.codec.observe(rules.view(state, seat), 0), env.codec.mask(
            rules.view(state, seat))
        deck = rules.cards(state)
        for attempt in range(5):
            if game == "schnelllauf":
                scramble_schnelllauf(state, random.Random(attempt))
            else:
                scramble_unter_spannung(state, seat, random.Random(attempt))
            assert rules.cards(state) == deck
            after = env.codec.observe(rules.view(state, seat), 0), env.codec.mask(
                rules.view(state, seat))
            assert np.array_equal(before[0], after[0]) and np.array_equal(before[1], after[1])


def test_options_are_checked() -> None:
    with pytest.raises(ValueError, match="leave at least one seat"):
        parallel_env("schnelllauf", opponents=["normal", "pro"])
    with pytest.raises(ValueError, match="unknown reaction"):
        parallel_env("unter-spannung", reaction="superhuman")
    with pytest.raises(ValueError, match="a tick must be"):
        parallel_env("unter-spannung", players=6, tick_ms=5)


def test_two_hands_in_schnelllauf_one_with_the_handicap() -> None:
    for one_hand, in_flight in ((False, 2), (True, 1)):
        env = parallel_env("schnelllauf", opponents=["beginner"], reaction="normal",
                           options={"one_hand_seats": [one_hand, False]})
        observations, _ = env.reset(seed=4)
        for sent in range(1, 4):
            play = int(np.flatnonzero(observations["seat_0"]["action_mask"])[-1])
            assert play, "the deal of seed 4 lets seat 0 play at once"
            observations, *_ = env.step({"seat_0": play})
            if sent == in_flight:
                break
        assert observations["seat_0"]["action_mask"].sum() == 1  # every hand is busy
        assert not any(entry.seat == 0 for entry in env.table.log)


def test_a_tournament_with_reaction_replays_from_its_log() -> None:
    env = parallel_env("unter-spannung", players=3, opponents=["normal"], reaction="normal",
                       episode="match", options={"tournament": True}, max_ticks=100_000)
    steps = play(env, random.Random(2), seed=9)
    assert any(steps[-1][3].values()) and env.table.match.result is not None
    again = replay(table_log(env.table)).table
    assert outcome(again) == outcome(env.table) and len(env.table.match.results) == 6
