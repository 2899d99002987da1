"""Lag compensation over real sockets whose round trip the kernel measures (``delaynet``):
a client that answers pings late buys no credit and makes nobody wait; a client really far
away is credited (issue 27). The near player's act → ack shows it: every play of hers waits
in the arbiter for the other seat's credit."""

from __future__ import annotations

import asyncio
import statistics
from pathlib import Path
from typing import Any

import pytest

from delaynet import DelayNet, unavailable_reason
from server.wire import Scripted, serve

pytestmark = [pytest.mark.wallclock, pytest.mark.delaynet,
              pytest.mark.skipif(unavailable_reason() is not None,
                                 reason=unavailable_reason() or "")]

PLAYS = 9
"""Plays of the near player per setup (any card of her hand: refused ones wait as well)."""


async def near_waits(net: DelayNet, http: str, near: str, other: str,
                     pong_delay: float) -> list[float]:
    """Anna (from address ``near``) and Ben (from ``other``) at a table; Ben answers pings
    ``pong_delay`` s late. Anna's act → ack times in ms, once the server has measured Ben."""
    host, port = net.server_address, int(http.rsplit(":", 1)[1])
    anna, ben = Scripted("Anna"), Scripted("Ben", pong_delay=pong_delay)
    await anna.connect(http, net.connect(near, (host, port)))
    await ben.connect(http, net.connect(other, (host, port)))
    try:
        await anna.send(type="create", game="unter-spannung",
                        seats=[{"kind": "open"}, {"kind": "open"}])
        table = await anna.wait_for(lambda: next(
            (m for m in anna.seen if m["type"] == "table"), None))
        await ben.send(type="join", code=table["table"]["code"], seat=None)
        await ben.wait_for(lambda: any(m["type"] in ("table", "error") for m in ben.seen))
        assert ben.last("table"), ben.seen
        for player in (anna, ben):
            await player.send(type="ready", ready=True)
        await anna.wait_for(lambda: all(seat["ready"] for seat in anna.last("table")["table"]
                                        ["seats"]))
        await anna.send(type="start")
        try:
            await anna.wait_for(lambda: anna.view.get("phase") == "playing"
                                and anna.view.get("state") is not None, seconds=15)
        except TimeoutError:
            raise AssertionError([m for m in anna.seen if m["type"] != "lobby"][-6:]) from None
        await asyncio.sleep(4.5)  # two pings of Ben's measured (late ones too)
        waits = []
        for _ in range(PLAYS):
            view: Any = anna.view
            card = view["state"]["hand"][0]
            started = asyncio.get_running_loop().time()
            await anna.act({"type": "play", "card": card, "seen": view["state"]["version"]})
            waits.append((asyncio.get_running_loop().time() - started) * 1000)
            await asyncio.sleep(0.15)
        return waits
    finally:
        await anna.close()
        await ben.close()


def test_late_pongs_buy_nothing_and_real_distance_is_credited(tmp_path: Path) -> None:
    with DelayNet([10, 10, 10, 120]) as net, \
            serve(tmp_path / "z.db", "--host", net.server_address) as (http, _):
        cheat = asyncio.run(near_waits(net, http, *net.clients[:2], pong_delay=0.25))
        far = asyncio.run(near_waits(net, http, *net.clients[2:], pong_delay=0.0))
    print(f"near player's act → ack p50: {statistics.median(cheat):.0f} ms beside a pong-delayer, "
          f"{statistics.median(far):.0f} ms beside a player 120 ms away")
    # Ben 10 ms away answering 250 ms late: Anna waits ~11 ms for his credit (the code
    # before issue 27 made her wait the cap, 250 ms, on every play)
    assert statistics.median(cheat) < 150, cheat
    # Ben really 120 ms away: his credit is real, and Anna's plays wait for it
    assert statistics.median(far) >= 90, far
