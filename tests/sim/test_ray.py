"""``zackzack simulate --ray``: the same figures as ``--jobs 1`` from Ray tasks, and a clear
word when Ray is not installed or not found.

Each test that starts a Ray gives it its own temporary directory (and no dashboard); Ray picks
free ports, so two test processes can each run one at the same time.
"""

from __future__ import annotations

import json
import secrets
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from zackzack.bots import parse_bot
from zackzack.cli import main
from zackzack.games import game
from zackzack.sim import Config, simulate

RUN_KEYS = ("jobs", "ray", "wall_seconds", "rounds_per_second")
"""The keys of ``--json`` that say how the figures were made, not what they are."""


@pytest.fixture(scope="session")
def ray_token() -> Iterator[None]:
    """One token per test process for the Ray clusters it starts (Ray keeps the first it
    reads), so that no test writes Ray's default one in the home directory."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("RAY_AUTH_MODE", "token")
        patch.setenv("RAY_AUTH_TOKEN", secrets.token_hex(32))
        yield


@pytest.fixture
def ray_dir(ray_token: None, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A fresh, short temporary directory for Ray's sockets and logs; no cluster address
    from the environment."""
    monkeypatch.delenv("RAY_ADDRESS", raising=False)
    with tempfile.TemporaryDirectory(prefix="zz-ray-", dir="/tmp",
                                     ignore_cleanup_errors=True) as path:
        monkeypatch.setenv("RAY_TMPDIR", path)
        yield Path(path)


def _figures(path: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(path.read_text())
    for key in RUN_KEYS:
        del data[key]
    return data


def test_ray_gives_the_same_json_as_one_job(ray_dir: Path, tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    import ray
    args = ["simulate", "unter-spannung", "--bots", "pro,normal", "--rounds", "500",
            "--seed", "3", "--quiet"]
    assert main([*args, "--jobs", "1", "--json", str(tmp_path / "one.json")]) == 0
    # 200 matches a chunk: 4 chunks run ahead on 2 workers, the last one is not needed
    assert main([*args, "--ray", "--jobs", "2", "--json", str(tmp_path / "ray.json")]) == 0
    assert "with Ray (local, 2 worker(s))" in capsys.readouterr().out
    assert not ray.is_initialized()  # the Ray it started is shut down
    ran = json.loads((tmp_path / "ray.json").read_text())
    assert ran["ray"] == "local" and ran["jobs"] == 2
    one = _figures(tmp_path / "one.json")
    assert one == _figures(tmp_path / "ray.json")
    assert one["rounds"] == 500 and one["seats"][0]["round_win_rate"] > 0.6


def test_a_running_ray_is_used_and_left_running(ray_dir: Path) -> None:
    import ray
    config = Config("schnelllauf", game("schnelllauf").parse_options({"pile_size": [4, 3]}),
                    (parse_bot("pro"), parse_bot("normal")), seed=5, matches=7)
    ray.init(address="local", num_cpus=2, include_dashboard=False)
    try:
        records = simulate(config, jobs=2, ray="local")
        assert ray.is_initialized()
    finally:
        ray.shutdown()
    assert records == simulate(config, jobs=1)
    assert [record.index for record in records] == list(range(7))


def test_without_the_extra_ray_asks_for_it(monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # import ray now fails, as when missing
    out = tmp_path / "out.json"
    assert main(["simulate", "schnelllauf", "--matches", "2", "--seed", "1", "--ray",
                 "--json", str(out)]) == 2
    captured = capsys.readouterr()
    assert captured.err == ("zackzack simulate: error: --ray: Ray is not installed: "
                            "pip install 'zackzack[ray]'\n")
    assert captured.out == "" and not out.exists()
    config = Config("schnelllauf", game("schnelllauf").parse_options({}),
                    (parse_bot("normal"), parse_bot("normal")), matches=1)
    with pytest.raises(ImportError, match=r"pip install 'zackzack\[ray\]'"):
        simulate(config, ray="auto")


def test_no_cluster_at_the_address_is_a_clear_error(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    import ray

    def no_cluster(address: str, **kwargs: object) -> None:
        raise ConnectionError("Could not find any running Ray instance.")

    # What ray.init says when nothing answers; a real "auto" would find any Ray that runs on
    # this machine, another test's too.
    monkeypatch.setattr(ray, "init", no_cluster)
    assert main(["simulate", "schnelllauf", "--matches", "2", "--ray", "auto"]) == 2
    assert capsys.readouterr().err == ("zackzack simulate: error: --ray auto: Could not find "
                                       "any running Ray instance.\n")
    assert not ray.is_initialized()
