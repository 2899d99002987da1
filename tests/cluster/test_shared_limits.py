"""The limits against abuse hold for the whole cluster (issue 32, ``server/sharedlimits.py``):
one address spreading its new players, websockets, claims or sign-ins over two processes is
refused on the second as it would be on one; while Redis is away, each process's own limits
still apply."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import httpx
import pytest
import websockets
from websockets.asyncio.client import ClientConnection

from cluster.harness import Cluster, Node

pytestmark = [pytest.mark.cluster, pytest.mark.wallclock]

PASSWORD = "correct horse battery"


async def started(cluster: Cluster, *limits: str, names: str = "AB") -> list[Node]:
    """The nodes ``names``, each with ``--limit`` for every one of ``limits`` (one at a time:
    the first migrates the new database); once every node has heard the others."""
    nodes = [Node(name, cluster.folder) for name in names]
    cluster.nodes += nodes
    extra = [arg for limit in limits for arg in ("--limit", limit)]
    for node in nodes:
        await node.start(cluster.redis, cluster.db, *extra)
    await asyncio.sleep(1.0)  # every node published itself (a third of the lease)
    return nodes


async def hello(node: Node, token: str | None = None) -> tuple[ClientConnection, dict[str, Any]]:
    """A websocket to ``node`` that said hello (with ``token``): it and the answer."""
    ws = await websockets.connect(node.ws)
    await ws.send(json.dumps({"type": "hello", "token": token, "name": "Tester"}))
    while True:
        answer: dict[str, Any] = json.loads(await ws.recv())
        if answer["type"] in ("welcome", "error"):
            return ws, answer


async def guest(node: Node) -> str:
    """A new guest's token, made on ``node`` (its websocket closed again)."""
    ws, welcome = await hello(node)
    await ws.close()
    assert welcome["type"] == "welcome", welcome
    token: str = welcome["token"]
    return token


async def post(node: Node, path: str, body: dict[str, Any], token: str | None = None
               ) -> httpx.Response:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    async with httpx.AsyncClient(base_url=node.url, timeout=30) as http:
        return await http.post(path, json=body, headers=headers)


async def refused(node: Node) -> bool:
    """Whether ``node`` refuses a new websocket (before the upgrade)."""
    try:
        ws = await websockets.connect(node.ws)
    except websockets.InvalidStatus as error:
        assert error.response.status_code == 403
        return True
    await ws.close()
    return False


async def test_new_players_per_address_count_on_every_process(cluster: Cluster) -> None:
    a, b = await started(cluster, "new_players_burst=2", "new_players_rate=0.001")
    first = await guest(a)
    await guest(a)
    await asyncio.sleep(0.3)  # counted in Redis soon after the welcome
    ws, answer = await hello(b)
    await ws.close()
    assert answer["type"] == "error" and answer["code"] == "too_many_new_players", answer
    ws, answer = await hello(b, first)  # a player the address made before is welcome
    await ws.close()
    assert answer["type"] == "welcome" and answer["token"] == first


async def test_websockets_per_address_count_on_every_process(cluster: Cluster) -> None:
    a, b = await started(cluster, "connections_per_ip=3")
    held = [await websockets.connect(a.ws) for _ in range(3)]
    assert await refused(b)
    assert await refused(a)
    await held.pop().close()
    await asyncio.sleep(0.3)
    assert not await refused(b)
    for ws in held:
        await ws.close()


async def test_claims_and_sign_ins_per_address_and_name_count_on_every_process(
        cluster: Cluster) -> None:
    a, b = await started(cluster, "claims_per_address=2", "claims_per_address_rate=0.001",
                         "sign_ins_per_address=5", "sign_ins_per_address_rate=0.001",
                         "sign_ins_per_name=2", "sign_ins_per_name_rate=0.001")
    tokens = [await guest(a), await guest(a), await guest(b)]
    for n, (node, token) in enumerate(zip((a, a), tokens, strict=False)):
        answer = await post(node, "/api/account/claim", {"name": f"Anna{n}",
                                                         "password": PASSWORD}, token)
        assert answer.status_code == 200, answer.text
    answer = await post(b, "/api/account/claim", {"name": "Anna2", "password": PASSWORD},
                        tokens[2])
    assert answer.status_code == 429 and answer.json()["error"] == "too_many_attempts"

    def wrong(name: str) -> dict[str, str]:
        return {"name": name, "password": "wrong password"}

    for _ in range(2):  # the name fails twice from this address, on A
        assert (await post(a, "/api/account/sign-in", wrong("Anna0"))).status_code == 401
    await asyncio.sleep(0.3)
    answer = await post(b, "/api/account/sign-in", wrong("Anna0"))  # third: refused on B
    assert answer.status_code == 429, answer.text
    for _ in range(2):  # another name still fails plainly: attempts four and five
        assert (await post(b, "/api/account/sign-in", wrong("Anna1"))).status_code == 401
    answer = await post(a, "/api/account/sign-in", wrong("Nobody"))  # A saw three of six
    assert answer.status_code == 429, answer.text


async def test_local_limits_hold_while_redis_is_away(cluster: Cluster) -> None:
    (a,) = await started(cluster, "new_players_burst=2", "new_players_rate=0.001",
                         "connections_per_ip=3", names="A")
    cluster.redis.kill()
    await a.event("redis_unreachable", 20)
    await guest(a)
    await guest(a)
    ws, answer = await hello(a)
    await ws.close()
    assert answer["type"] == "error" and answer["code"] == "too_many_new_players", answer
    held = [await websockets.connect(a.ws) for _ in range(3)]
    assert await refused(a)
    for ws in held:
        await ws.close()
    answer = await post(a, "/api/account/sign-in", {"name": "Anna", "password": "wrong one"})
    assert answer.status_code == 401, answer.text
