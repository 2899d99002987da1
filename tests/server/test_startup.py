"""Clean starts and stops of ``zackzack serve`` in a process of its own.

Every failure to start is one line on standard error with the reason and a non-zero exit,
before anything is served and with no traceback; ``--db`` creates no folder; SIGTERM stops
like Ctrl-C (exit 0, "stopped"), telling the clients "server restarting" (1012), and the next
start on the same database brings every running table back.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import signal
import socket
import sqlite3
import subprocess
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from server.kit import run_async
from server.test_crash import RAN_ON, accepted, open_table, states_in, until
from server.wire import Scripted, serve
from zackzack.engine.matchlog import MatchLog
from zackzack.engine.replay import replay
from zackzack.store import Status, Store, StoreError, database_url, open_store

TWO_OPEN = [{"kind": "open"}, {"kind": "open"}]


def start(*args: str, seconds: float = 120) -> subprocess.CompletedProcess[str]:
    """``zackzack serve --port 0 ARGS`` run to its end (it must fail to start)."""
    return subprocess.run([sys.executable, "-m", "zackzack.cli", "serve", "--port", "0", *args],
                          capture_output=True, text=True, timeout=seconds)


def one_line(done: subprocess.CompletedProcess[str]) -> str:
    """The one line a failed start printed (and checks it failed cleanly)."""
    assert done.returncode != 0, done
    assert "serving on" not in done.stdout
    assert "Traceback" not in done.stderr + done.stdout
    lines = done.stderr.splitlines()
    assert len(lines) == 1, done.stderr
    assert lines[0].startswith("zackzack serve: error: ")
    return lines[0]


def test_an_unreachable_database_is_one_line() -> None:
    done = start("--db", "postgresql://nobody@127.0.0.1:1/x")
    assert done.returncode == 1
    line = one_line(done)
    assert "127.0.0.1" in line and "refused" in line.lower()


def test_a_file_that_is_no_database_is_one_line_and_left_alone(tmp_path: Path) -> None:
    text = tmp_path / "passwd"
    text.write_text("root:x:0:0:root:/root:/bin/bash\n" * 40)
    before = text.read_bytes()
    assert "is not a database" in one_line(start("--db", str(text)))
    assert text.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["passwd"]


def test_another_programs_database_is_refused_untouched(tmp_path: Path) -> None:
    other = tmp_path / "other.db"
    with sqlite3.connect(other) as conn:
        conn.execute("CREATE TABLE players (id TEXT, email TEXT)")
    assert "not a zackzack database" in one_line(start("--db", str(other)))
    with sqlite3.connect(other) as conn:
        tables = conn.execute("SELECT name FROM sqlite_master WHERE type='table'").fetchall()
    assert tables == [("players",)]  # nothing was created in it


def test_a_missing_folder_is_refused_not_created(tmp_path: Path) -> None:
    missing = tmp_path / "no" / "such" / "z.db"
    line = one_line(start("--db", str(missing)))
    assert f"{missing.parent} does not exist" in line
    assert not (tmp_path / "no").exists()
    assert "it is a folder" in one_line(start("--db", str(tmp_path)))


def test_a_port_in_use_is_one_line(tmp_path: Path) -> None:
    with socket.create_server(("127.0.0.1", 0)) as taken:
        port = taken.getsockname()[1]
        done = subprocess.run(
            [sys.executable, "-m", "zackzack.cli", "serve", "--port", str(port), "--db",
             str(tmp_path / "z.db")], capture_output=True, text=True, timeout=120)
    assert done.returncode == 1
    assert f"cannot listen on 127.0.0.1:{port}: " in one_line(done)
    assert not (tmp_path / "z.db").exists()  # the database is not touched


def test_a_database_that_takes_no_writes_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "z.db"
    open_store(database_url(str(path))).close()
    with pytest.raises(StoreError, match="readonly"):
        open_store(f"sqlite:///file:{path}?mode=ro&uri=true")
    with contextlib.closing(sqlite3.connect(path, isolation_level=None)) as other:
        other.execute("BEGIN IMMEDIATE")  # another program writes (SQLite waits 5 s for it)
        with pytest.raises(StoreError, match="database is locked"):
            open_store(database_url(str(path)))
        other.execute("ROLLBACK")
    open_store(database_url(str(path))).close()


@pytest.mark.parametrize(("args", "words"), [
    (["--public-url", "cards.example.org"], "not an http:// or https:// URL"),
    (["--forwarded-allow-ips", "10.0.0.1/8"], "not an IP address or network"),
    (["--limit", "request_seconds=soon"], "is not a float"),
])
def test_wrong_arguments_are_one_line_and_exit_2(tmp_path: Path, args: list[str],
                                                 words: str) -> None:
    done = start("--db", str(tmp_path / "z.db"), *args)
    assert done.returncode == 2 and words in one_line(done)


@pytest.mark.parametrize("stop", [signal.SIGTERM, signal.SIGINT])
def test_sigterm_or_ctrl_c_stops_an_idle_server_cleanly(tmp_path: Path, stop: int) -> None:
    with serve(tmp_path / "z.db") as (_url, process):
        process.send_signal(stop)
        process.wait(60)
        assert process.returncode == 0
        assert process.stderr is not None
        stderr = process.stderr.read()
    assert stderr.splitlines()[-1] == "zackzack: stopped"
    assert "Traceback" not in stderr


@pytest.mark.wallclock  # a real server process, stopped while scripted clients play
def test_sigterm_during_live_games_then_a_restart_resumes_every_table(tmp_path: Path) -> None:
    db = tmp_path / "z.db"
    with serve(db) as (url, process):
        before = run_async(play_until_stopped(url, process))
        assert process.returncode == 0
        assert process.stderr is not None
        stderr = process.stderr.read()
    assert stderr.splitlines()[-1] == "zackzack: stopped"
    assert "Traceback" not in stderr
    assert not [line for line in stderr.splitlines() if '"level": "error"' in line]
    for name, (code, reason) in before["closed"].items():
        assert (code, reason) == (1012, "server restarting"), name

    store = Store(database_url(str(db)))
    running = before["running"]
    logs: dict[str, MatchLog] = {}
    for code, table in running.items():
        record = store.match(table["match"], finished=False)
        assert record is not None and record.status is Status.PLAYING
        found = store.log(table["match"], finished=False)
        assert found is not None
        logs[code] = found
        for seat, (confirmed, last_state) in table["seats"].items():
            assert accepted(found, seat) >= confirmed  # no confirmed action is lost
            assert last_state in states_in(found, seat, RAN_ON)  # what it saw is stored
    store.close()

    with serve(db) as (url, process):
        run_async(come_back(url, before, logs))
        process.send_signal(signal.SIGTERM)
        process.wait(60)
        assert process.returncode == 0

    store = Store(database_url(str(db)))
    for code, table in running.items():
        full = store.log(table["match"], finished=False)
        assert full is not None
        old = logs[code].actions
        assert full.actions[:len(old)] == old  # the log goes on where it stopped
        assert len(full.actions) > len(old)  # every table was played on
        again = replay(full).table
        assert again.rules.cards(again.state) == Counter(again.options.deck)  # no card lost
    store.close()


async def play_until_stopped(url: str, process: Any) -> dict[str, Any]:
    """Three running tables (two people; a person and a bot; bots watched by a spectator)
    with actions in flight when SIGTERM comes; what each client saw, and how it was closed."""
    carla, dora, emil, fritz = (Scripted(n) for n in ("Carla", "Dora", "Emil", "Fritz"))
    for client in (carla, dora, emil, fritz):
        await client.connect(url)
    long = await open_table(carla, dora, seats=TWO_OPEN, options={"tournament": True})
    mixed = await open_table(emil, None, seats=[{"kind": "open"}, {"kind": "bot",
                                                                     "bot": "beginner"}],
                             options={"tournament": True})
    bots = await open_table(fritz, None, seats=[{"kind": "bot", "bot": "normal"}] * 2,
                            options={"tournament": True})

    def stopped() -> bool:
        return process.poll() is not None

    async def stopper() -> None:
        await until(lambda: carla.accepted + dora.accepted >= 4 and emil.accepted >= 2
                    and carla.view.get("phase") == "playing"
                    and emil.view.get("phase") == "playing", 90)
        await fritz.wait_for(lambda: {"played", "drew"} & set(fritz.event_types()), 30)
        await asyncio.sleep(0.1)  # in the middle of things: actions are in flight
        process.send_signal(signal.SIGTERM)
        await asyncio.get_running_loop().run_in_executor(None, process.wait, 60)

    await asyncio.gather(carla.play(stopped, 0.25), dora.play(stopped, 0.25),
                         emil.play(stopped, 0.25), stopper())
    clients = (carla, dora, emil, fritz)
    for client in clients:
        await until(lambda c=client: c.closed, 30)

    def seats(*people: Scripted) -> dict[int, tuple[int, str]]:
        return {c.view["seat"]: (c.accepted, json.dumps(c.view["state"], sort_keys=True))
                for c in people}

    running = {
        long: {"match": carla.last("table")["table"]["match"], "seats": seats(carla, dora),
               "people": {"Carla": carla.token, "Dora": dora.token}},
        mixed: {"match": emil.last("table")["table"]["match"], "seats": seats(emil),
                "people": {"Emil": emil.token}},
        bots: {"match": fritz.last("table")["table"]["match"], "seats": {}, "people": {}},
    }
    closed = {c.name: (c.ws.close_code, c.ws.close_reason) for c in clients if c.ws}
    for client in clients:
        await client.close()
    return {"running": running, "closed": closed}


async def come_back(url: str, before: dict[str, Any], logs: dict[str, MatchLog]) -> None:
    """The people reconnect with their tokens: each table waits paused exactly where its log
    ends, resumes after the countdown (the downtime is not table time) and is played on; the
    bots' table goes on by itself. (Like ``test_crash.come_back``, but a table counts as
    played on once anyone at it plays a card or draws: a round may end just after the
    restart, and the next one starts after the break.)"""
    running = before["running"]
    people: list[tuple[str, Scripted]] = []
    for code, table in running.items():
        for name, token in table["people"].items():
            client = Scripted(name, token)
            welcome = await client.connect(url)
            assert [(t["code"], t["phase"]) for t in welcome["tables"]] == [(code, "paused")]
            people.append((code, client))
    # Everyone asks at once: the first one back starts the 3 s resume countdown, and what
    # the others are shown must come before it ends (checking one, which replays its log,
    # before asking for the next can take longer than that in a busy parallel run).
    for code, client in people:
        await client.send(type="watch", code=code)
    for code, client in people:
        shown = await client.wait_for(lambda c=client: next(
            (m for m in c.seen if m["type"] == "table"), None))
        log = logs[code]
        end = max([log.start_ms, *(e.t for e in log.actions)])
        assert json.dumps(shown["view"]["state"], sort_keys=True) \
            == states_in(log, shown["table"]["you"])[-1]  # exactly where the log ends
        assert shown["view"]["now"] == end
    for code, client in people:
        await client.wait_for(lambda c=client: "resumed" in c.event_types(), 30)
        resumed = next(m for m in client.seen if m["type"] == "events"
                       and m["events"][-1]["type"] == "resumed")
        end = max([logs[code].start_ms, *(e.t for e in logs[code].actions)])
        assert 0 <= resumed["now"] - end < 500
    bots_code = next(code for code, table in running.items() if not table["people"])
    watcher = Scripted("Fritz")
    await watcher.connect(url)
    await watcher.send(type="watch", code=bots_code)

    def played_on(client: Scripted) -> bool:
        kinds = client.event_types()
        after = kinds[len(kinds) - kinds[::-1].index("resumed"):] if "resumed" in kinds \
            else kinds
        return bool({"played", "drew"} & set(after))

    async with asyncio.timeout(90):
        await asyncio.gather(*(client.play(lambda c=client: played_on(c), 0.1)
                               for _, client in people),
                             watcher.wait_for(lambda: played_on(watcher), 60))
    for _, client in [*people, ("", watcher)]:
        await client.close()
