"""``zackzack simulate``: the table, --json, --plot, and clear errors for bad arguments."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from zackzack.cli import main


def test_simulate_prints_a_table_and_writes_json_and_a_plot(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out_json, out_png = tmp_path / "us.json", tmp_path / "us.png"
    code = main(["simulate", "unter-spannung", "--players", "4", "--bots",
                 "pro,normal,normal,beginner", "--rounds", "80", "--tournament", "--seed", "7",
                 "--jobs", "2", "--json", str(out_json), "--plot", str(out_png)])
    assert code == 0
    text = capsys.readouterr().out
    for words in ("Unter Spannung", "Match wins", "Round wins", "95% CI", "Minus pts",
                  "beginner", "round length", "Nichts geht mehr per round"):
        assert words in text
    data = json.loads(out_json.read_text())
    assert data["rounds"] == 80 and data["matches"] == 10 and data["jobs"] == 2
    assert data["bots"] == ["pro", "normal", "normal", "beginner"]
    assert data["options"]["tournament"] is True
    assert {"round_win_ci95", "match_win_rate", "final_score_mean", "wrong_cards_per_round",
            "too_late_per_round"} <= set(data["seats"][0])
    assert out_png.read_bytes()[:4] == b"\x89PNG"


def test_simulate_schnelllauf_with_a_handicap(tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    out_json = tmp_path / "sl.json"
    assert main(["simulate", "schnelllauf", "--bots", "pro,normal", "--matches", "4",
                 "--handicap", "1:pile=4,one-hand", "--seed", "1", "--json", str(out_json)]) == 0
    text = capsys.readouterr().out
    assert "Schnelllauf" in text and "rounds per match" in text and "Cards left" in text
    data = json.loads(out_json.read_text())
    assert data["options"]["pile_size"] == [4, 3]
    assert data["options"]["one_hand_seats"] == [True, False]
    assert data["matches"] == 4


def test_simulate_with_a_network_reports_each_seats_round_trip(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    figures = {}
    for extra in ([], ["--no-compensation"]):
        out_json = tmp_path / f"net{len(extra)}.json"
        assert main(["simulate", "unter-spannung", "--bots", "pro,pro", "--rounds", "300",
                     "--rtt", "10,250", "--seed", "3", "--jobs", "2", "--json", str(out_json),
                     *extra]) == 0
        text = capsys.readouterr().out
        assert "RTT" in text and "250 ms" in text
        data = json.loads(out_json.read_text())
        assert [seat["rtt_ms"] for seat in data["seats"]] == [10, 250]
        assert data["compensation"] is not bool(extra)
        figures[bool(extra)] = data["seats"][1]["round_win_rate"]
    assert figures[True] < figures[False]  # a 250 ms wire loses more without compensation


def test_the_same_seed_gives_the_same_figures(tmp_path: Path) -> None:
    figures = []
    for jobs in ("1", "2"):
        path = tmp_path / f"{jobs}.json"
        main(["simulate", "schnelllauf", "--bots", "normal", "--matches", "3", "--seed", "5",
              "--jobs", jobs, "--json", str(path)])
        data = json.loads(path.read_text())
        for key in ("jobs", "wall_seconds", "rounds_per_second"):
            del data[key]
        figures.append(data)
    assert figures[0] == figures[1]


@pytest.mark.parametrize(("args", "message"), [
    (["unter-spannung", "--bots", "pro,wizard"], "unknown bot level 'wizard'"),
    (["unter-spannung", "--players", "7"], "<= 6 - at `$.players`"),
    (["unter-spannung", "--jobs", "0"], "--jobs must be 1 to 256"),
    (["unter-spannung", "--players", "3", "--bots", "pro,normal"], "2 bots for 3 players"),
    (["unter-spannung", "--rounds", "0"], "--rounds must be at least 1"),
    (["unter-spannung", "--handicap", "1:pile=4"], "Unter Spannung has no handicaps"),
    (["schnelllauf", "--tournament"], "Schnelllauf has no option tournament"),
    (["schnelllauf", "--handicap", "3:pile=4"], "the player, 1 to 2, as in 1:pile=4"),
    (["schnelllauf", "--handicap", "1:piles"], "'piles' is not one of pile=4, one-hand"),
    (["schnelllauf", "--handicap", "1:pile=5"], "pile_size"),
    (["schnelllauf", "--handicap", "me:piles"], "write --handicap 1:pile=4"),
    (["schnelllauf", "--jokers", "9"], "jokers"),
    (["schnelllauf", "--option", "jokers=9"], "jokers"),
    (["schnelllauf", "--option", "spread=2"], "Schnelllauf has no option spread"),
    (["schnelllauf", "--option", "jokers"], "write KEY=VALUE"),
    (["schnelllauf", "--plot", "/no/such/dir/x.png"], "no such directory"),
    (["schnelllauf", "--plot", "x.txt"], ".png"),
    (["schnelllauf", "--json", "."], "it is a directory"),
    (["unter-spannung", "--matches", "100000001"], "1 to 100000000"),
    (["unter-spannung", "--bots", "normal,normal", "--rtt", "10,x"], "whole milliseconds"),
    (["unter-spannung", "--bots", "normal,normal", "--rtt", "10,20,30"], "3 round trips"),
    (["unter-spannung", "--bots", "normal,normal", "--rtt", "10,-5"], "0 to 5000 ms"),
    (["unter-spannung", "--no-compensation"], "needs --rtt"),
    (["unter-spannung", "--pong-delay", "200,0"], "need --rtt"),
    (["unter-spannung", "--bots", "normal,normal", "--rtt", "10", "--pong-delay", "2x"],
     "whole milliseconds"),
    (["unter-spannung", "--bots", "normal,normal", "--rtt", "10", "--pong-delay", "1,2,3"],
     "3 delays for 2 players"),
    (["unter-spannung", "--bots", "normal,normal", "--rtt", "10", "--pong-delay", "9000"],
     "0 to 5000 ms"),
    (["unter-spannung", "--bots", "normal,normal", "--rtt", "10", "--reconnect", "2"],
     "seats are 0 to 1"),
    (["unter-spannung", "--bots", "normal,normal", "--rtt", "10", "--reconnect", "a"],
     "seat numbers"),
])
def test_bad_arguments_get_a_clear_message_and_exit_2(
        args: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", *args]) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err
    assert err.startswith("zackzack simulate: error:")


def test_any_option_of_the_game_on_the_command_line(tmp_path: Path) -> None:
    out_json = tmp_path / "sl.json"
    assert main(["simulate", "schnelllauf", "--bots", "normal", "--matches", "1", "--quiet",
                 "--option", "jokers=0", "--option", "wrap=false", "--option", "max_rounds=3",
                 "--handicap", "2", "--seed", "1", "--json", str(out_json)]) == 0
    options = json.loads(out_json.read_text())["options"]
    assert (options["jokers"], options["wrap"], options["max_rounds"]) == (0, False, 3)
    assert options["pile_size"] == [3, 4] and options["one_hand_seats"] == [False, True]
