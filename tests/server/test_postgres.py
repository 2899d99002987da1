"""The store on PostgreSQL: a throwaway local server (Debian's ``postgresql``) for this module.

The server runs as the ``postgres`` user (PostgreSQL refuses root) on a Unix socket only.
"""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from server.kit import World, play_out, two_at_a_table
from zackzack.matchlog import replay
from zackzack.store import Status, Store
from zackzack.table import Settings


def postgres_bin(name: str) -> str:
    """A PostgreSQL server program (Debian keeps them out of ``PATH``)."""
    found = shutil.which(name) or next(iter(sorted(
        glob.glob(f"/usr/lib/postgresql/*/bin/{name}"), reverse=True)), None)
    assert found, f"{name} is missing: scripts/test.sh installs Debian's postgresql"
    return found


@pytest.fixture(scope="module")
def pg_url() -> Iterator[str]:
    """A fresh PostgreSQL server: the URL of its database."""
    folder = Path(tempfile.mkdtemp(prefix="zackzack-pg-"))
    as_user: list[str] = []
    if os.geteuid() == 0:
        user = pwd.getpwnam("postgres")
        os.chown(folder, user.pw_uid, user.pw_gid)
        as_user = ["runuser", "-u", "postgres", "--"]
    data = folder / "data"
    subprocess.run([*as_user, postgres_bin("initdb"), "-D", str(data), "-A", "trust",
                    "-U", "zackzack", "--no-sync"], check=True, capture_output=True)
    subprocess.run([*as_user, postgres_bin("pg_ctl"), "-D", str(data), "-w", "-l",
                    str(folder / "log"), "-o", f"-k {folder} -c listen_addresses='' "
                    "-c fsync=off", "start"], check=True, capture_output=True)
    try:
        yield f"postgresql+psycopg2://zackzack@/postgres?host={folder}"
    finally:
        subprocess.run([*as_user, postgres_bin("pg_ctl"), "-D", str(data), "-m", "immediate",
                        "stop"], capture_output=True)
        shutil.rmtree(folder, ignore_errors=True)


def test_matches_are_stored_and_restored_on_postgresql(pg_url: str) -> None:
    store = Store(pg_url)
    try:
        assert store.journal_mode() == "n/a"
        world = World(store, settings=Settings())
        anna, ben, code = two_at_a_table(world)
        anna.send(type="start")
        match_id = anna.table["match"]
        play_out(world, [anna, ben])
        record = store.match(match_id)
        assert record is not None and record.status is Status.OVER
        log = store.log(match_id)
        assert log is not None and replay(log).table.match.result == \
            world.lobby.rooms[code].table.match.result
        assert store.matches()[1] == 1

        carla, _, running = two_at_a_table(world, options={"tournament": True})
        carla.send(type="start")
        for _ in range(5):
            carla.act({"type": "draw"})
        world.lobby.journal.flush()
        playing = carla.table["match"]
        view = world.lobby.rooms[running].table.view(0)
        again = World(store, settings=Settings())  # a restart
        assert again.lobby.restore(again.identities.known) == [running]
        restored = again.lobby.rooms[running]
        assert restored.phase.value == "paused" and restored.match_id == playing
        assert restored.table.view(0).state == view.state
    finally:
        store.close()
