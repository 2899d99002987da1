"""Crash safety: ``kill -9`` the server during live games, restart it, and lose nothing.

Scripted clients play four tables on a real ``zackzack serve``: one match runs to its end,
two are mid-game (one with a bot), one is bots only. The server is killed with SIGKILL while
the players are still sending actions. Then: every finished match is stored whole, every
action a client was told about is in the stored log, and the restarted server brings every
game back paused exactly where its log ends; it resumes when its people return, and play goes
on with every card still there.
"""

from __future__ import annotations

import asyncio
import json
import signal
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest

from server.kit import run_async
from server.wire import Scripted, serve
from zackzack.engine.matchlog import MatchLog
from zackzack.engine.replay import Step, replay
from zackzack.engine.table import Table
from zackzack.games.base import plain
from zackzack.store import Status, Store, database_url

TWO_OPEN = [{"kind": "open"}, {"kind": "open"}]


async def open_table(host: Scripted, guest: Scripted | None, **create: Any) -> str:
    """``host`` creates a table (``guest`` joins and is ready) and starts it: its code."""
    await host.send(type="create", game="unter-spannung", **create)
    table = await host.wait_for(lambda: host.seen and host.seen[-1]["type"] == "table"
                                and host.seen[-1])
    code: str = table["table"]["code"]
    if guest is not None:
        await guest.send(type="join", code=code, seat=None)
        await guest.send(type="ready", ready=True)
        await host.wait_for(lambda: host.view and host.last("table")["table"]["seats"][1]["ready"])
    await host.send(type="start")
    return code


async def until(condition: Callable[[], bool], seconds: float = 30.0) -> None:
    """Wait until ``condition()`` holds (looked at every 20 ms)."""
    async with asyncio.timeout(seconds):
        while not condition():
            await asyncio.sleep(0.02)


RAN_ON = 60_000
"""How long (ms) a live table may have run on by itself after its last stored action before
the server stopped (it stops seconds later): a round it dealt meanwhile, after the break
between rounds, comes from the log and the clock alone, so the restored table deals it
again."""


def states_in(log: MatchLog, seat: int | None, ran_on: int = 0) -> list[str]:
    """The game state ``seat`` saw after each step of the log, as canonical JSON; with
    ``ran_on`` (ms), also after each change the table makes by itself that long after."""
    seen: list[str] = []

    def keep(_step: Step, table: Table) -> None:
        seen.append(json.dumps(plain(table.view(seat)).get("state"), sort_keys=True))

    until = log.end_ms
    if until is None and ran_on:
        until = max([log.start_ms, *(entry.t for entry in log.actions)]) + ran_on
    replay(log, until=until, on_step=keep)
    return seen


def accepted(log: MatchLog, seat: int) -> int:
    """How many of ``seat``'s actions the table accepted."""
    return sum(step.seat == seat and step.outcome == "accepted" for step in replay(log).steps)


@pytest.mark.wallclock  # a real server process, killed while scripted clients play
def test_kill_9_during_live_games_loses_nothing(tmp_path: Path) -> None:
    db = tmp_path / "z.db"
    with serve(db) as (url, process):
        before = run_async(play_until_killed(url, process))
    assert process.returncode == -signal.SIGKILL
    assert process.stderr is not None
    logged = [json.loads(line) for line in process.stderr.read().splitlines()
              if line.startswith("{")]
    assert {"table_created", "match_started", "match_stored"} <= {e.get("event") for e in logged}
    secrets = [t.partition(".")[2] for table in before["running"].values()
               for t in table["people"].values()]
    assert secrets and not any(secret in json.dumps(logged) for secret in secrets)

    store = Store(database_url(str(db)))
    finished = before["finished"]
    record = store.match(finished["match"])
    assert record is not None and record.status is Status.OVER
    assert record.result == finished["result"] and len(record.rounds) == 1
    log = store.log(finished["match"])
    assert log is not None and plain(replay(log).table.match.result) == finished["result"]
    running = before["running"]
    logs: dict[str, MatchLog] = {}
    for code, table in running.items():
        found = store.log(table["match"], finished=False)
        assert found is not None
        logs[code] = found
        assert store.match(table["match"], finished=False).status is Status.PLAYING  # type: ignore[union-attr]
        for seat, (confirmed, last_state) in table["seats"].items():
            assert accepted(found, seat) >= confirmed  # no confirmed action is lost
            assert last_state in states_in(found, seat, RAN_ON)  # what it saw is in the log
    store.close()

    with serve(db) as (url, process):
        after = run_async(come_back(url, before, logs))
        assert httpx.get(f"{url}/api/matches/{finished['match']}").json()["result"] \
            == finished["result"]
        process.send_signal(signal.SIGTERM)
        process.wait(10)

    store = Store(database_url(str(db)))
    for code, table in running.items():
        full = store.log(table["match"], finished=False)
        assert full is not None
        old = logs[code].actions
        assert full.actions[:len(old)] == old  # the log goes on where it ended
        assert len(full.actions) > len(old)
        again = replay(full).table
        rules = again.rules
        assert rules.cards(again.state) == Counter(again.options.deck)  # no card lost
        assert after[code] <= len(full.actions)
    store.close()


async def play_until_killed(url: str, process: Any) -> dict[str, Any]:
    """Four tables; one match ends; SIGKILL while the others are being played."""
    anna, ben, carla, dora, emil = (Scripted(n) for n in ("Anna", "Ben", "Carla", "Dora", "Emil"))
    for client in (anna, ben, carla, dora, emil):
        await client.connect(url)
    quick = await open_table(anna, ben, seats=TWO_OPEN, options={"countdown_ms": 300})
    long = await open_table(carla, dora, seats=TWO_OPEN, options={"tournament": True})
    mixed = await open_table(emil, None, seats=[{"kind": "open"}, {"kind": "bot",
                                                                     "bot": "beginner"}],
                             options={"tournament": True})
    watcher = Scripted("Fritz")
    await watcher.connect(url)
    bots = await open_table(watcher, None, seats=[{"kind": "bot", "bot": "normal"}] * 2,
                            options={"tournament": True})

    over = asyncio.Event()
    kill_after = {"acts": 0}

    def quick_over() -> bool:
        if anna.view.get("phase") == "over":
            over.set()
        return over.is_set()

    def killed() -> bool:
        return process.poll() is not None

    async def killer() -> None:
        await over.wait()
        kill_after["acts"] = carla.accepted + dora.accepted + emil.accepted
        await until(lambda: carla.accepted + dora.accepted + emil.accepted
                    >= kill_after["acts"] + 3 and carla.view["phase"] == "playing"
                    and emil.view["phase"] == "playing")
        await asyncio.sleep(0.1)  # in the middle of things: actions are in flight
        process.send_signal(signal.SIGKILL)
        await asyncio.get_running_loop().run_in_executor(None, process.wait)

    await asyncio.gather(
        anna.play(quick_over, 0.04), ben.play(quick_over, 0.04), carla.play(killed, 0.25),
        dora.play(killed, 0.25), emil.play(killed, 0.25), killer())
    finished = {"match": anna.last("table")["table"]["match"], "result": anna.view["result"]}
    assert anna.view["phase"] == ben.view["phase"] == "over"
    assert ben.view["result"] == finished["result"] and finished["match"]

    def seats(*clients: Scripted) -> dict[int, tuple[int, str]]:
        return {c.view["seat"]: (c.accepted, json.dumps(c.view["state"], sort_keys=True))
                for c in clients}

    running = {
        long: {"match": carla.last("table")["table"]["match"], "seats": seats(carla, dora),
               "people": {"Carla": carla.token, "Dora": dora.token}},
        mixed: {"match": emil.last("table")["table"]["match"], "seats": seats(emil),
                "people": {"Emil": emil.token}},
        bots: {"match": watcher.last("table")["table"]["match"], "seats": {}, "people": {}},
    }
    for client in (carla, dora, emil, watcher, anna, ben):
        await client.close()
    return {"finished": finished, "running": running, "quick": quick}


async def come_back(url: str, before: dict[str, Any],
                    logs: dict[str, MatchLog]) -> dict[str, int]:
    """The people reconnect with their tokens: their tables were paused where the logs end,
    resume after the countdown, and take actions again. The actions each log has now."""
    running = before["running"]
    people: list[tuple[str, Scripted]] = []
    for code, table in running.items():
        for name, token in table["people"].items():
            client = Scripted(name, token)
            welcome = await client.connect(url)
            assert [t["code"] for t in welcome["tables"]] == [code]
            assert welcome["tables"][0]["phase"] == "paused"
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
        seat = shown["table"]["you"]
        assert shown["table"]["phase"] in ("paused", "playing")
        restored = json.dumps(shown["view"]["state"], sort_keys=True)
        assert restored == states_in(log, seat)[-1]  # exactly where the log ends
        assert shown["view"]["now"] == max([log.start_ms, *(e.t for e in log.actions)])
    for code, client in people:  # (the countdown is 3 s; 30 s for a loaded machine)
        await client.wait_for(lambda c=client: "resumed" in c.event_types(), 30)
        resumed = next(m for m in client.seen if m["type"] == "events"
                       and m["events"][-1]["type"] == "resumed")
        end = max([logs[code].start_ms, *(e.t for e in logs[code].actions)])
        assert 0 <= resumed["now"] - end < 500  # the downtime is not table time
    bots_code = next(code for code, table in running.items() if not table["people"])
    watcher = Scripted("Fritz")
    await watcher.connect(url)
    await watcher.send(type="watch", code=bots_code)

    def played_on(client: Scripted) -> bool:
        """Anyone at the client's table played a card or drew after the resume. (Not
        ``round_scored``: a round may end by itself just after the restart, with no action
        logged, and the next one starts only after the break.)"""
        kinds = client.event_types()
        after = kinds[len(kinds) - kinds[::-1].index("resumed"):] if "resumed" in kinds \
            else kinds
        return bool({"played", "drew"} & set(after))

    async with asyncio.timeout(90):  # (a break between rounds is 8 s)
        await asyncio.gather(*(client.play(lambda c=client: played_on(c), 0.1)
                               for _, client in people),
                             watcher.wait_for(lambda: played_on(watcher), 60))
    counts = {code: len(logs[code].actions) + 1 for code in running}
    for _, client in [*people, ("", watcher)]:
        await client.close()
    return counts
