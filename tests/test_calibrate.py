"""``zackzack ratings calibrate``: the plan of tables, the fit (where openskill's updates
balance), determinism for a seed and any number of processes, and the shipped anchors."""

from __future__ import annotations

import itertools
import json
import math
from pathlib import Path

import pytest

from zackzack import ratings
from zackzack.bots import LEVELS
from zackzack.cli import main
from zackzack.commands import ratings as ratings_cli
from zackzack.ratings import Rating, calibrate
from zackzack.ratings.calibrate import Entrant, Pairing


def test_the_plan_plays_every_pair_of_levels_in_both_seat_orders() -> None:
    tables = calibrate.plan("unter-spannung", 10)
    assert {p.seats for p in tables} == {(Entrant(a), Entrant(b))
                                         for a, b in itertools.permutations(LEVELS, 2)}
    assert all(p.matches == 5 for p in tables)


def test_the_schnelllauf_ladder_joins_every_level_through_its_rungs() -> None:
    tables = calibrate.plan("schnelllauf", 4)
    entrants = calibrate.ladder("schnelllauf")
    assert {e for p in tables for e in p.seats} == set(entrants)
    assert len(entrants) == len(set(entrants)) > 20  # the machine is far above the pro
    pairs = {frozenset(p.seats) for p in tables}
    for weaker, stronger in itertools.pairwise(LEVELS):  # rung by rung down to the weaker
        top = calibrate.rungs(weaker, stronger, calibrate.LADDER_STEP)
        chain = [Entrant(stronger, k) for k in range(top + 1)]
        assert all(frozenset(link) in pairs for link in itertools.pairwise(chain))
        assert frozenset((chain[-1], Entrant(weaker))) in pairs
    assert all(sum(p.seats == (a, b) for p in tables) == sum(p.seats == (b, a) for p in tables)
               for a, b in pairs)  # every pairing in both seat orders


def test_a_rung_is_its_level_slowed_down() -> None:
    fast = [calibrate.play("schnelllauf", (Entrant("pro"), Entrant("pro", 30)),
                           seed, calibrate.LADDER_STEP) for seed in range(3)]
    assert fast == [(1, 2)] * 3  # 30 rungs (×10) slower: it never wins


def test_the_fit_is_where_openskills_updates_balance() -> None:
    a, b = Entrant("pro"), Entrant("normal")
    found = {((a, b), (1, 2)): 150, ((b, a), (2, 1)): 150,
             ((a, b), (2, 1)): 50, ((b, a), (1, 2)): 50}
    entrants, mu, covariance = calibrate.fit(found, "unter-spannung")
    assert entrants == [b, a]
    floor = calibrate.floor("unter-spannung")
    push = [0.0, 0.0]
    for (seats, placed), count in found.items():
        index = [entrants.index(e) for e in seats]
        after = ratings.update([Rating(float(mu[i]), floor) for i in index], placed,
                               "unter-spannung")
        for i, rating in zip(index, after, strict=True):
            push[i] += count * (rating.mu - mu[i])
    variance = floor ** 2 + ratings.model("unter-spannung").tau ** 2
    for i in (0, 1):  # the matches' pushes cancel the weak prior's pull, nothing more
        assert push[i] / variance == pytest.approx((mu[i] - ratings.MU)
                                                   / calibrate.PRIOR_SIGMA ** 2, abs=1e-7)
    c = math.sqrt(2 * (variance + ratings.model("unter-spannung").beta ** 2))
    assert mu[1] - mu[0] == pytest.approx(c * math.log(3), rel=0.01)  # wins 3 of 4
    assert 0 < covariance[0, 0] + covariance[1, 1] - 2 * covariance[0, 1] < 1


def test_a_level_that_never_lost_stays_finite() -> None:
    found = {((Entrant("machine"), Entrant("pro")), (1, 2)): 20}
    _, mu, _ = calibrate.fit(found, "unter-spannung")
    assert 0 < mu[0] - mu[1] < 100


def calibrated(tmp_path: Path, name: str, *args: str) -> str:
    path = tmp_path / name
    assert main(["ratings", "calibrate", "unter-spannung", "--matches", "6", "--seed", "5",
                 "--quiet", "--json", str(path), *args]) == 0
    return path.read_text()


def test_a_seed_gives_the_same_ratings_with_any_number_of_processes(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    once = calibrated(tmp_path, "a.json")
    assert calibrated(tmp_path, "b.json") == once
    assert calibrated(tmp_path, "c.json", "--jobs", "2") == once
    out = capsys.readouterr().out
    assert "Unter Spannung · 36 matches at 12 tables · seed 5" in out
    assert "normal beats beginner in" in out and "(95 %" in out
    data = json.loads(once)
    assert data["command"] == "zackzack ratings calibrate unter-spannung --matches 6 --seed 5"
    assert data["games"]["unter-spannung"]["normal"] == {"mu": 25.0, "sigma": 1.0}
    assert data["calibration"]["unter-spannung"]["matches"] == 36
    assert calibrated(tmp_path, "d.json").replace('"seed": 5', "") == once.replace(
        '"seed": 5', "")
    assert main(["ratings", "calibrate", "unter-spannung", "--matches", "6", "--seed", "6",
                 "--quiet", "--json", str(tmp_path / "e.json")]) == 0
    assert (tmp_path / "e.json").read_text() != once


def test_the_schnelllauf_ladder_is_the_same_with_two_processes() -> None:
    one = calibrate.calibrate("schnelllauf", 2, seed=3, jobs=1, step=3.0)
    two = calibrate.calibrate("schnelllauf", 2, seed=3, jobs=2, step=3.0)
    assert one == two and one.entrants == 12 and one.step == 3.0
    assert [n.wins for n in one.neighbours] == [2.0, 2.0, 2.0]  # the faster level always wins
    mus = [level.mu for level in one.levels]
    assert mus == sorted(mus) and mus[1] == ratings.MU


def test_write_keeps_the_other_games_anchors(tmp_path: Path,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "bots.json"
    target.write_text(json.dumps({"command": "earlier", "games": {"schnelllauf": {
        "normal": {"mu": 25.0, "sigma": 1.0}}}, "calibration": {"schnelllauf": {
            "command": "earlier"}}}))
    monkeypatch.setattr(ratings_cli, "bots_file", lambda: target)
    assert main(["ratings", "calibrate", "unter-spannung", "--matches", "4", "--seed", "1",
                 "--quiet", "--write"]) == 0
    data = json.loads(target.read_text())
    assert sorted(data["games"]) == ["schnelllauf", "unter-spannung"]
    assert data["games"]["schnelllauf"] == {"normal": {"mu": 25.0, "sigma": 1.0}}
    assert data["command"] == ("earlier ; zackzack ratings calibrate unter-spannung "
                               "--matches 4 --seed 1")


def test_bad_arguments_are_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["ratings", "calibrate", "chess"]) == 2
    assert "there is no game 'chess'" in capsys.readouterr().err
    assert main(["ratings", "calibrate", "unter-spannung", "--matches", "1"]) == 2
    assert "--matches must be 2 to" in capsys.readouterr().err


def test_the_shipped_anchors_are_a_calibration_with_normal_at_a_new_players_rating() -> None:
    data = json.loads(ratings_cli.bots_file().read_text())
    for game in ("unter-spannung", "schnelllauf"):
        anchors = [ratings.bot_anchor(game, level) for level in LEVELS]
        assert all(a is not None and a.sigma >= calibrate.floor(game) for a in anchors)
        mus = [a.mu for a in anchors if a is not None]
        assert mus == sorted(mus) and mus[1] == ratings.MU
        assert data["calibration"][game]["command"].startswith("zackzack ratings calibrate")
        assert data["calibration"][game]["matches"] > 1000


def test_pairing_of_unknown_game_is_refused() -> None:
    with pytest.raises(ValueError, match="there is no game"):
        calibrate.plan("chess", 4)
    assert Pairing((Entrant("pro"),), 1).seats[0].slower == 0
