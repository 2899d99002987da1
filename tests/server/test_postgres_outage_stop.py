"""The server is stopped during a PostgreSQL outage (issue 26): ``kill -9``, or SIGTERM as an
operator's restart sends it, while the table waits for the store. Nothing acknowledged is lost
(nothing is told before it is stored); once PostgreSQL is back and the server started again,
the match comes back from the journal, paused where its log ends, goes on when its player
returns, ends, and is stored once."""

from __future__ import annotations

import asyncio
import contextlib
import signal
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from pg import fresh_database, pg_ctl, postgres_server
from server.kit import run_async
from server.test_postgres_outage import STARTUP, _play, _serve, _until
from server.wire import Scripted
from zackzack.engine.matchlog import parse_log
from zackzack.engine.replay import replay

pytestmark = pytest.mark.wallclock

RECOVERY = 5.0 + STARTUP
"""Seconds from PostgreSQL's return to the table's next event, at most: the server's start
(its imports and migrations on a busy machine) and the 3 s countdown of the resume, plus
issue 26's 5 s."""
STOPPED = 30.0
"""Seconds SIGTERM may take to stop the server while the store is away (it waits up to 5 s
for its connections to close, then gives up on what cannot be stored)."""


@pytest.fixture(scope="module")
def pg_url() -> Iterator[str]:
    with postgres_server() as url:
        yield url


@pytest.mark.parametrize("stop", [signal.SIGKILL, signal.SIGTERM], ids=["kill-9", "sigterm"])
def test_server_stopped_during_a_postgres_outage(pg_url: str, tmp_path: Path,
                                                 stop: signal.Signals) -> None:
    db = fresh_database(pg_url)
    first, second = tmp_path / "first", tmp_path / "second"
    first.mkdir()
    second.mkdir()

    async def scenario() -> dict[str, Any]:
        process, http = await _serve(db, first)
        anna = Scripted("Anna")
        halt = asyncio.Event()
        try:
            await anna.connect(http)
            # A tournament (4 rounds): a single round of 4-card hands can end (Anna wins with
            # 4 plays, or the bot wins first) before her 5th accepted action, and the wait
            # below could then never end; 4 rounds hold far more than 5 of her actions.
            await anna.send(type="create", game="unter-spannung", seats=[
                {"kind": "open"}, {"kind": "bot", "bot": "pro"}], options={"tournament": True})
            await anna.wait_for(lambda: any(m["type"] == "table" for m in anna.seen))
            await anna.send(type="start")
            await anna.wait_for(lambda: anna.view.get("phase") == "playing", 30)
            table = next(m for m in reversed(anna.seen) if m["type"] == "table")["table"]
            player = asyncio.create_task(_play(anna, halt))
            await _until(lambda: anna.accepted >= 5, 30)

            pg_ctl(pg_url, "stop")
            await _until(lambda: any(m["type"] == "notice" and m["code"] == "store_unavailable"
                                     for m in anna.seen), 30)  # her next action finds it
            # (30 s: PostgreSQL may stop just as a round ends; her next action comes after her
            # "ready" starts the next round, on a busy machine)
            await asyncio.sleep(0.5)  # her actions go on arriving, and wait
            acked = anna.accepted  # nothing more can be acknowledged now
            stopping = time.monotonic()
            process.send_signal(stop)
            await asyncio.get_running_loop().run_in_executor(None, process.wait, STOPPED)
            stopped = time.monotonic() - stopping
            assert process.returncode == (-stop if stop is signal.SIGKILL else 0)
            halt.set()
            await player
            assert anna.accepted == acked
            await anna.close()

            pg_ctl(pg_url, "start")
            back = time.monotonic()
            process, http = await _serve(db, second)
            again = Scripted("Anna", anna.token)
            welcome = await again.connect(http)
            assert [(t["code"], t["phase"]) for t in welcome["tables"]] == \
                [(table["code"], "paused")]  # restored from the journal, paused
            await again.send(type="watch", code=table["code"])
            await again.wait_for(lambda: any(m["type"] == "events" for m in again.seen), 30)
            recovered = time.monotonic() - back
            await again.wait_for(lambda: "resumed" in again.event_types(), 30)
            halt.clear()
            player = asyncio.create_task(_play(again, halt))
            await again.wait_for(lambda: again.view.get("phase") == "over", 300)
            halt.set()
            await player
            async with httpx.AsyncClient(base_url=http, timeout=10) as client:
                listed = (await client.get("/api/matches?limit=100")).json()["matches"]
                log = (await client.get(f"/api/matches/{table['match']}/log")).json()
            return {"recovered": recovered, "stopped": stopped, "listed": listed, "log": log,
                    "table": table, "acked": acked, "later": again.accepted}
        finally:
            halt.set()
            with contextlib.suppress(subprocess.CalledProcessError):
                pg_ctl(pg_url, "start")  # (fails if it runs: it was started again)
            if process.poll() is None:
                process.terminate()
                process.wait(20)

    found = run_async(scenario())
    print(f"{stop.name} during the outage (it stopped in {found['stopped']:.2f} s); PostgreSQL "
          f"back -> next event after the restart: {found['recovered']:.2f} s")
    assert found["recovered"] <= RECOVERY
    table = found["table"]
    assert [m["id"] for m in found["listed"] if m["code"] == table["code"]] == \
        [table["match"]]  # stored once
    log = parse_log(found["log"])
    accepted = sum(step.seat == 0 and step.outcome == "accepted" for step in replay(log).steps)
    assert accepted >= found["acked"] + found["later"]  # every acknowledged action is there
    errors = [line for run in (first, second)
              for line in (run / "stderr").read_text().splitlines()
              if not line.startswith("{") and not line.startswith("zackzack:")]
    assert errors == []  # JSON lines only: no plain traceback
