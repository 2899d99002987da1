"""Match logs: validation with clear messages, replay, determinism, the replay command."""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path
from typing import Any

import pytest

from zackzack.cli import main
from zackzack.commands.demo import SimplePlayer
from zackzack.engine.clock import VirtualClock
from zackzack.engine.matchlog import load_log, log_to_json, parse_log
from zackzack.engine.replay import replay, restore, table_log
from zackzack.engine.table import Phase, Settings, Table
from zackzack.games import unter_spannung as us
from zackzack.games.base import encode
from zackzack.games.errors import LogError, NotPlaying

SCENARIOS = Path(__file__).parent / "scenarios"


def scenario() -> dict[str, Any]:
    data: dict[str, Any] = json.loads((SCENARIOS / "us_freeze_and_win.json").read_text())
    return data


def played_table(seed: int, players: int = 3, tournament: bool = True) -> Table:
    """A whole match between simple players on the virtual clock."""
    clock = VirtualClock()
    table = Table(us, us.Options(players=players, tournament=tournament), clock=clock, seed=seed,
                  settings=Settings(start_ms=1000, between_rounds_ms=2000))
    rng = random.Random(seed)
    for seat in range(players):
        SimplePlayer(table, seat, rng, clock)
    table.start()
    clock.run(stop=lambda: table.phase is Phase.OVER)
    return table


def test_a_scenario_replays_with_each_outcome() -> None:
    result = replay(parse_log(scenario()))
    outcomes = [(s.seat, s.outcome, s.code) for s in result.steps if s.action is not None]
    assert outcomes == [
        (1, "rejected", "does_not_fit"), (0, "accepted", None), (1, "rejected", "frozen"),
        (1, "rejected", "frozen"), (0, "accepted", None), (0, "rejected", "round_over")]
    assert result.table.match.result is not None
    assert result.table.match.result.placings[0].seat == 0


def test_a_whole_match_replays_to_the_same_events_byte_for_byte() -> None:
    table = played_table(seed=11)
    assert table.match.result is not None and table.match.number == 6
    log = table_log(table, end_ms=table.now)
    text = json.dumps(log_to_json(log))
    first = replay(parse_log(json.loads(text)))
    second = replay(parse_log(json.loads(text)))
    lines = [encode(s) for s in first.steps]
    assert lines == [encode(s) for s in second.steps]
    assert first.table.match.results == table.match.results
    assert first.table.match.result == table.match.result
    assert [e.t for e in first.table.log] == [e.t for e in table.log]


def test_the_same_seed_deals_the_same_game() -> None:
    assert played_table(seed=5).match.results == played_table(seed=5).match.results
    assert played_table(seed=5).match.results != played_table(seed=6).match.results


@pytest.mark.parametrize(("change", "message"), [
    (lambda d: d["deal"]["hands"][0].__setitem__(0, "3±7"), r"deal: .*`\$.hands\[0\]\[0\]`"),
    (lambda d: d["deal"]["hands"][0].__setitem__(0, "6±1"), "in two places: 6±1"),
    (lambda d: d["deal"]["draw_piles"][1].pop(), "missing from the deal: 7±1"),
    (lambda d: d["actions"][2].__setitem__("t", 50), r"actions\[2\]: t=50 is earlier"),
    (lambda d: d["actions"][0]["action"].__setitem__("card", "K♥"), r"actions\[0\].action"),
    (lambda d: d["actions"][0].__setitem__("seat", 2), r"actions\[0\]: seat must be"),
    (lambda d: d["actions"][0]["action"].__setitem__("type", "shout"),
     r"'shout' - at `\$.actions\[0\].action"),
    (lambda d: d.__setitem__("game", "skat"), "unknown game 'skat'"),
    (lambda d: d["options"].__setitem__("players", 9), r"<= 6 - at `\$.options.players`"),
    (lambda d: d.__setitem__("extra", 1), "unknown field"),
    (lambda d: d.pop("actions"), "missing required field `actions`"),
])
def test_malformed_logs_are_refused_naming_the_problem(change: Any, message: str) -> None:
    data = copy.deepcopy(scenario())
    change(data)
    with pytest.raises(LogError, match=message):
        parse_log(data)


def test_the_replay_command_prints_each_outcome(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", str(SCENARIOS / "us_freeze_and_win.json")]) == 0
    out = capsys.readouterr().out
    assert "rejected: does_not_fit" in out and "Player 1 plays 3±1" in out
    assert '"winner": 0' in out
    assert main(["replay", "--json", str(SCENARIOS / "us_freeze_and_win.json")]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert lines[-1]["outcome"]["phase"] == "over"
    assert [line.get("code") for line in lines if line.get("seat") == 1] == [
        "does_not_fit", "frozen", "frozen"]


def test_the_replay_command_explains_a_bad_file(tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('{"game": "unter-spannung", "actions": [}')
    assert main(["replay", str(bad)]) == 2
    assert "not JSON" in capsys.readouterr().err
    assert main(["replay", str(tmp_path / "missing.json")]) == 2
    assert "cannot read" in capsys.readouterr().err


def test_load_log_reads_what_log_to_json_wrote(tmp_path: Path) -> None:
    log = table_log(played_table(seed=3, players=2, tournament=False))
    path = tmp_path / "match.json"
    path.write_text(json.dumps(log_to_json(log)))
    again = load_log(path)
    assert again.actions == log.actions and again.deal == log.deal and again.seed == log.seed


def test_a_restored_table_is_paused_exactly_where_its_log_ends() -> None:
    clock = VirtualClock()
    live = Table(us, us.Options(players=3, tournament=True), clock=clock, seed=9,
                 settings=Settings(start_ms=1000, between_rounds_ms=2000))
    rng = random.Random(9)
    for seat in range(3):
        SimplePlayer(live, seat, rng, clock)
    live.start()
    clock.run(stop=lambda: len(live.log) >= 40)
    log = table_log(live)
    restored = restore(parse_log(json.loads(json.dumps(log_to_json(log)))), VirtualClock(500.0))
    assert restored.phase is Phase.PAUSED and restored.now == log.actions[-1].t
    assert us.deal_to_json(restored.state) == us.deal_to_json(live.state)
    assert restored.match.results == live.match.results
    assert restored.log == live.log


def test_a_paused_table_refuses_actions_and_resumes_with_time_left_out() -> None:
    clock = VirtualClock()
    table = Table(us, us.Options(players=2), clock=clock, seed=2)
    table.start()
    clock.run(until=1.0)
    table.pause()
    assert table.phase is Phase.PAUSED and table.now == 1000
    clock.run(until=60.0)
    with pytest.raises(NotPlaying, match="paused"):
        table.submit(0, us.Draw())
    assert table.log == []
    table.resume(delay_ms=3000)
    clock.run(until=62.9)
    assert table.phase is Phase.PAUSED and table.view(0).resumes_in == 100
    clock.run(until=63.0)
    assert table.phase is Phase.PLAYING and table.time_ms() == 1000
    assert table.view(0).resumes_in is None
    clock.run(until=63.25)
    table.submit(0, us.Draw())
    assert table.log[-1].t == 1250


def test_a_pause_holds_back_a_countdown_until_play_resumes() -> None:
    deck = tuple(map(us.Card.parse, "1±1 6±1 1±3 9±1 10±1 4±2 2±2 8±1 5±2".split()))
    first = us.parse_deal({"hands": [["1±1", "6±1", "1±3"], ["9±1", "10±1", "4±2"]],
                           "draw_piles": [[], []], "discard_pile": ["2±2", "8±1", "5±2"]},
                          us.Options(players=2, deck=deck))
    clock = VirtualClock()
    table = Table(us, first.options, clock=clock, first_round=first)
    table.start()
    clock.run(until=1.0)
    table.pause()
    clock.run(until=30.0)
    assert table.state.top == us.Card(5, 2)   # the rotation due at 1500 waits
    table.resume(delay_ms=0)
    clock.run(until=30.4999)
    assert table.state.top == us.Card(5, 2)
    clock.run(until=30.5)
    assert table.state.top == us.Card(2, 2)


def test_a_log_from_before_fair_races_replays_with_the_rules_of_its_time() -> None:
    data = scenario()
    assert "revision" not in data.get("table", {})
    log = parse_log(data)
    assert log.settings.revision == 1 and log.settings.compensation_ms == 0
    assert parse_log(log_to_json(log)).settings == log.settings  # they survive a round trip
    new = parse_log(log_to_json(table_log(played_table(5))))
    assert new.settings.revision == 2 and new.settings.compensation_ms == 250
    with pytest.raises(LogError):
        parse_log({**data, "table": {**data.get("table", {}), "revision": 3}})
