"""Issue 32: accounts and resources that cannot be abused — claims, names, lockouts, idle
sockets, stored refusals, replays and fan-out. Each test here failed on the code before."""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from server.kit import World
from zackzack.engine.table import Settings
from zackzack.server import accounts, identity
from zackzack.server.app import Config, create_app
from zackzack.server.limits import Limits
from zackzack.server.protocol import ProtocolError
from zackzack.store import Store
from zackzack.words.names import name_key

LIMITS = Limits(rate=10_000, burst=10_000)


@pytest.fixture
def http(tmp_path: Path) -> Iterator[TestClient]:
    """The app with its own database."""
    config = Config(db=str(tmp_path / "z.db"), settings=Settings(), limits=LIMITS)
    with TestClient(create_app(config)) as client:
        yield client


def guest(http: TestClient, name: str = "Anna") -> dict[str, Any]:
    with http.websocket_connect("/ws") as ws:
        ws.send_json({"type": "hello", "token": None, "name": name})
        welcome: dict[str, Any] = ws.receive_json()
    return welcome


def post(http: TestClient, path: str, token: str | None = None, **body: Any) -> Any:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    return http.post(f"/api/account/{path}", json=body, headers=headers)


# Names ------------------------------------------------------------------------------------

INVISIBLE = [
    "An\u034fna",  # combining grapheme joiner
    "Anna\ufe0f", "Anna\ufe00", "Anna\U000e0100",  # variation selectors
    "Anna\u180b", "Anna\u180c", "Anna\u180f",  # Mongolian free variation selectors
    "Anna\u17b4", "Anna\u17b5",  # Khmer inherent vowels
    "Anna\u3164", "Anna\u115f", "Anna\u1160", "Anna\uffa0",  # Hangul fillers
    "Anna\u2800",  # Braille blank
    "Anna\U00016fe4", "Anna\U0001d159",  # Khitan filler, null notehead
    "A\u200bnna", "Anna\u2060", "Anna\u00ad", "Anna\u180e", "Anna\U000e0041",  # format
    "Anna\u2065",  # an unassigned default-ignorable
]
"""Anna with something that does not show: refused in any name."""
FOLDED = ["anna", "ANNA", "ＡＮＮＡ", "\u0410nna", "Ann\u0430", "\u1d00nna", "A\u0274\u0274\u1d00",
          "\u1d2cnna", "\U0001d400nna", "\u24b6nna", "Anna\u2028"]
"""Anna written otherwise (case, full width, Cyrillic, small capitals, compatibility forms):
the key of Anna."""


@pytest.mark.parametrize("name", INVISIBLE)
def test_a_name_with_an_invisible_character_is_refused(http: TestClient, name: str) -> None:
    ben = guest(http, "Ben")
    answer = post(http, "claim", ben["token"], name=name, password="password-2")
    assert answer.status_code == 400 and answer.json()["error"] == "bad_field", name
    assert post(http, "rename", ben["token"], name=name).status_code == 400
    with http.websocket_connect("/ws") as ws:  # nor may a guest show it
        ws.send_json({"type": "hello", "token": None, "name": name})
        assert ws.receive_json()["code"] == "bad_field"


@pytest.mark.parametrize("name", FOLDED)
def test_lookalikes_of_a_claimed_name_are_refused(http: TestClient, name: str) -> None:
    post(http, "claim", guest(http)["token"], name="Anna", password="password-1")
    answer = post(http, "claim", guest(http, "Ben")["token"], name=name, password="password-2")
    assert answer.status_code == 409 and answer.json()["error"] == "name_taken", name


def test_the_key_folds_small_capitals_and_drops_what_does_not_show() -> None:
    assert all(name_key(name) == name_key("Anna") for name in (*INVISIBLE, *FOLDED))


@pytest.mark.parametrize("name", ["\u0391nna", "Anna\u0410", "Pаul"])
def test_a_claimed_name_may_not_mix_scripts(http: TestClient, name: str) -> None:
    answer = post(http, "claim", guest(http, "Ben")["token"], name=name, password="password-2")
    assert answer.status_code == 400 and "one script" in answer.json()["reason"]


@pytest.mark.parametrize("name", ["Jörg", "किरण", "สมชาย", "محمد", "김민준", "山田 Taro",
                                  "やまだ", "Ελένη", "Наталья", "Nguyễn Văn", "Anna 🃏"])
def test_names_of_every_script_are_still_welcome(http: TestClient, name: str) -> None:
    answer = post(http, "claim", guest(http, "Ben")["token"], name=name, password="password-2")
    assert answer.status_code == 200, answer.text


# Claims -----------------------------------------------------------------------------------

def test_claims_are_throttled_per_player_and_per_address(store: Store) -> None:
    world = World(store, settings=Settings(),
                  limits=Limits(claims_per_address=3, claims_per_player=2))
    identities = world.identities
    anna = identities.by_token(world.client("Anna").welcome["token"])
    assert anna is not None
    identities.claim_throttle(anna, "10.0.0.1")
    with pytest.raises(ProtocolError, match="being checked"):  # one at a time
        identities.claim_throttle(anna, "10.0.0.1")
    identities.claim_done(anna)
    identities.claim_throttle(anna, "10.0.0.2")
    identities.claim_done(anna)
    with pytest.raises(ProtocolError) as refused:  # two for one player
        identities.claim_throttle(anna, "10.0.0.3")
    assert refused.value.code == "too_many_attempts"
    codes = []
    for n in range(3):  # three from one /64, whoever claims
        player = identities.by_token(world.client(f"G{n}").welcome["token"])
        assert player is not None
        try:
            identities.claim_throttle(player, f"2001:db8:0:1::{n}")
            identities.claim_done(player)
            codes.append("ok")
        except ProtocolError as error:
            codes.append(error.code)
    player = identities.by_token(world.client("G9").welcome["token"])
    assert player is not None
    with pytest.raises(ProtocolError):
        identities.claim_throttle(player, "2001:db8:0:1:ffff::1")
    assert codes == ["ok", "ok", "ok"]


def test_a_flood_of_claims_never_keeps_a_sign_in_waiting() -> None:
    """Claims use one hashing thread at most; a sign-in goes first."""
    started: list[str] = []

    def work(what: str) -> str:
        started.append(what)
        time.sleep(0.05)
        return what

    async def flood() -> None:
        hashing = accounts.Hashing()
        claims = [asyncio.create_task(hashing.run(lambda n=n: work(f"claim {n}"), "claim"))
                  for n in range(6)]
        await asyncio.sleep(0.01)
        assert await hashing.run(lambda: work("sign-in"), "sign_in") == "sign-in"
        await asyncio.gather(*claims)
        assert hashing.waiting == 0 and hashing.running == 0

    asyncio.run(flood())
    assert started.index("sign-in") <= 1  # the free thread, not behind the queued claims


def test_more_waiting_claims_than_the_queue_holds_are_refused_at_once() -> None:
    async def flood() -> list[str]:
        hashing = accounts.Hashing()
        runs = [hashing.run(lambda: time.sleep(0.02), "claim")
                for _ in range(accounts.CLAIMS_QUEUE + 3)]
        found = await asyncio.gather(*runs, return_exceptions=True)
        return [type(one).__name__ for one in found]

    kinds = asyncio.run(flood())
    assert kinds.count("TooManyAttempts") == 3


# Lockouts ---------------------------------------------------------------------------------

def attempt(identities: Any, password: str, address: str, device: str | None = None) -> str:
    try:
        identities.throttle("Anna", address, device)
        identities.check_sign_in("Anna", password)
    except ProtocolError as error:
        if error.code == "wrong_password":
            identities.failed("Anna", address, device)
        return error.code
    return "ok"


def test_strangers_failures_never_lock_the_owner_out_of_a_known_address(store: Store) -> None:
    world = World(store, settings=Settings(),
                  limits=Limits(sign_ins_per_name=2, sign_ins_per_name_anywhere=4))
    identities = world.identities
    anna = identities.by_token(world.client("Anna").welcome["token"])
    assert anna is not None
    identities.claim(anna, "Anna", identities.hash_password("password-1"))
    identities.remember(anna, "2001:db8:aa:1::5")  # the owner claimed from home
    strangers = [attempt(identities, "guess", f"10.0.{n}.1") for n in range(12)]
    assert strangers.count("too_many_attempts") >= 8  # the name is closed to strangers...
    assert attempt(identities, "guess", "10.9.9.9") == "too_many_attempts"
    assert attempt(identities, "password-1", "2001:db8:aa:1::77") == "ok"  # ...not to home
    world.wait(10)  # a stranger keeps guessing now and then: home still gets in
    assert attempt(identities, "guess", "10.0.99.1") == "wrong_password"
    assert attempt(identities, "password-1", "2001:db8:aa:1::5") == "ok"


def test_a_known_device_signs_in_whatever_strangers_did(http: TestClient) -> None:
    anna = guest(http)
    claimed = post(http, "claim", anna["token"], name="Anna", password="password-1")
    assert claimed.status_code == 200 and accounts.DEVICE_COOKIE in claimed.cookies
    device = http.cookies.get(accounts.DEVICE_COOKIE)
    http.cookies.clear()  # a stranger, from the same address even
    codes = [post(http, "sign-in", name="Anna", password="guess").status_code
             for _ in range(40)]
    assert codes[-1] == 429
    assert post(http, "sign-in", name="Anna", password="password-1").status_code == 429
    http.cookies.set(accounts.DEVICE_COOKIE, device or "", path="/api/account")
    signed = post(http, "sign-in", name="Anna", password="password-1")
    assert signed.status_code == 200, signed.text


def test_the_memory_of_devices_and_addresses_drops_the_least_recently_used(
        store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(identity, "KNOWN_ACCOUNTS", 2)
    world = World(store, settings=Settings())
    ids = world.identities
    people = []
    for name in ("Anna", "Ben", "Cleo"):
        player = ids.by_token(world.client(name).welcome["token"])
        assert player is not None
        ids.claim(player, name, ids.hash_password("password-1"))
        people.append(player)
    anna, ben, cleo = people
    ids.remember(anna, "198.51.100.1")
    ids.remember(ben, "198.51.100.2")
    ids.remember(anna, "198.51.100.1")  # Anna signs in again: the most recently used now
    ids.remember(cleo, "198.51.100.3")  # one account too many: Ben, the least recent, goes
    assert ids.knows("Anna", None, "198.51.100.1") == "address"
    assert ids.knows("Ben", None, "198.51.100.2") is None
    assert ids.knows("Cleo", None, "198.51.100.3") == "address"
    assert ids.marks(ben) == frozenset()  # forgotten, and seen nowhere now
    ids.seen(anna, "198.51.100.9")  # a seek moves Anna to the end of the matchmaker's memory
    ids.seen(cleo, "198.51.100.8")
    assert list(ids._seen) == [anna.id, cleo.id]
    assert len(ids.marks(anna)) == 4  # her two addresses and the two devices she signed in on


# Idle sockets -----------------------------------------------------------------------------

def test_a_websocket_that_never_says_hello_is_closed_after_the_deadline(tmp_path: Path) -> None:
    from websockets.exceptions import ConnectionClosed
    from websockets.sync.client import connect

    from server.wire import Live
    from zackzack.server.app import NO_HELLO

    live = Live(tmp_path / "z.db", Limits(hello_seconds=0.5))
    try:
        greeted = live.connect("Anna")
        began = time.monotonic()
        with connect(f"ws://127.0.0.1:{live.port}/ws", close_timeout=2) as silent, \
                pytest.raises(ConnectionClosed) as closed:
            silent.recv(10)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == NO_HELLO
        assert 0.4 < time.monotonic() - began < 3
        greeted.send('{"type": "ping", "t": 1}')  # one that said hello stays
        assert '"pong"' in str(greeted.recv(5))
        assert len(live.state.connections) == 1
    finally:
        live.stop()


def test_websockets_are_counted_per_ipv6_64(tmp_path: Path) -> None:
    from starlette.websockets import WebSocketDisconnect

    config = Config(db=str(tmp_path / "z.db"), settings=Settings(),
                    limits=Limits(connections_per_ip=2))
    with TestClient(create_app(config)) as http:
        transport: Any = http._transport

        def from_(host: str) -> Any:
            transport.client = (host, 40000)
            return http.websocket_connect("/ws")

        with contextlib.ExitStack() as held:
            held.enter_context(from_("2001:db8:0:7::1"))
            held.enter_context(from_("2001:db8:0:7::2"))
            with pytest.raises(WebSocketDisconnect), from_("2001:db8:0:7:ffff::3") as third:
                third.send_json({"type": "hello", "name": "C"})
                third.receive_json()
            with from_("2001:db8:0:8::1") as other:  # another /64
                other.send_json({"type": "hello", "name": "D"})
                assert other.receive_json()["type"] == "welcome"


# Stored refusals, action ids, fan-out, renames --------------------------------------------

def started(store: Store, **limits: Any) -> tuple[World, Any, Any]:
    world = World(store, limits=Limits(**limits))
    anna, ben = world.client("Anna"), world.client("Ben")
    anna.send(type="create", game="unter-spannung", seats=[{"kind": "open"}, {"kind": "open"}])
    ben.send(type="join", code=anna.table["code"], seat=None)
    ben.send(type="ready", ready=True)
    anna.send(type="start")
    world.wait(3.5)
    return world, anna, ben


def test_refused_actions_are_stored_at_a_bounded_rate_whatever_the_tabs(store: Store) -> None:
    world, anna, _ = started(store)
    code = anna.table["code"]
    room = world.lobby.rooms[code]
    tabs = [anna] + [world.client("Anna", token=anna.welcome["token"]) for _ in range(7)]
    for tab in tabs[1:]:
        tab.send(type="join", code=code)
    before, codes = room.entries, []
    for step in range(300):  # 8 tabs, 100 wrong cards a second for 3 s
        ack = tabs[step % 8].act({"type": "play", "card": "1±1", "seen": 0})
        codes.append(ack.get("code"))
        world.wait(0.01)
    stored = room.entries - before
    assert stored <= Limits().refusals_per_seat + 2 * 3 + 2, stored
    assert "rate_limited" in codes
    world.wait(30)  # the seat's bucket fills again: a card is judged as usual
    # (judged as usual: refused as a wrong card, or taken if the deal gave her a fitting 1±1)
    assert anna.act({"type": "play", "card": "1±1", "seen": 0}).get("code") != "rate_limited"


def test_a_watchers_action_ids_never_push_out_a_seats(store: Store) -> None:
    world, anna, _ = started(store)
    carl = world.client("Carl")
    carl.send(type="watch", code=anna.table["code"])
    before = anna.view["state"]["draw_counts"][0]
    first = next(m for m in anna.send(type="act", ref=1, action={"type": "draw"}, id="d-1")
                 if m["type"] == "ack")
    assert first["ok"]
    for n in range(1100):
        carl.send(type="act", ref=n, action={"type": "draw"}, id=f"w-{n}")
    again = next(m for m in anna.send(type="act", ref=2, action={"type": "draw"}, id="d-1")
                 if m["type"] == "ack")
    assert again == {**first, "ref": 2}
    assert anna.view["state"]["draw_counts"][0] == before - 1  # drawn once


def tables(client: Any) -> int:
    return sum(message["type"] == "table" for message in client.inbox)


def test_watching_back_and_forth_reaches_a_seated_player_coalesced(store: Store) -> None:
    world = World(store)
    anna, ben, carl = world.client("Anna"), world.client("Ben"), world.client("Carl")
    anna.send(type="create", game="unter-spannung", seats=[{"kind": "open"}, {"kind": "open"}])
    ben.send(type="create", game="unter-spannung", seats=[{"kind": "open"}, {"kind": "open"}])
    codes = [anna.table["code"], ben.table["code"]]
    before = tables(anna)
    for n in range(1000):  # ten seconds of 100 watches a second
        carl.send(type="watch", code=codes[n % 2])
        if n % 10 == 9:
            world.wait(0.1)
    world.wait(1)
    got = tables(anna) - before
    assert got <= 20 + 11 / 0.25, got
    assert anna.table["watchers"] == 0 and carl.table["code"] == codes[1]


def test_renaming_in_a_loop_is_limited(store: Store) -> None:
    world = World(store)
    anna, ben = world.client("Anna"), world.client("Ben")
    anna.send(type="create", game="unter-spannung", seats=[{"kind": "open"}, {"kind": "open"}])
    ben.send(type="join", code=anna.table["code"], seat=None)
    before, codes = tables(anna), []
    for n in range(100):
        replies = ben.send(type="rename", name=f"Ben {n}")
        codes.extend(m["code"] for m in replies if m["type"] == "error")
        world.wait(0.05)
    assert codes.count("rate_limited") >= 80
    assert tables(anna) - before <= Limits().renames_per_player + 2


def test_a_second_tab_or_a_claim_never_renames_a_player_in_a_running_match(
        store: Store) -> None:
    world, anna, _ = started(store)
    tab = world.client("Annabel", token=anna.welcome["token"])
    assert tab.welcome["name"] == "Anna"
    player = world.identities.by_token(anna.welcome["token"])
    assert player is not None and player.name == "Anna"
    with pytest.raises(ProtocolError) as refused:
        world.identities.claimable(player, "Annabel")
    assert refused.value.code == "already_started"
    assert world.identities.claimable(player, "Anna") == "Anna"  # the name played under


# Replays ----------------------------------------------------------------------------------

def test_a_replay_flood_builds_each_replay_once_within_a_bound_of_memory() -> None:
    from zackzack.server.replays import ReplayCache

    built: list[str] = []

    def build(match_id: str) -> bytes:
        built.append(match_id)
        time.sleep(0.02)
        return match_id.encode() * 100

    async def flood() -> ReplayCache:
        cache = ReplayCache(limit=250)
        got = await asyncio.gather(*(cache.get("m1", lambda: build("m1")) for _ in range(32)))
        assert set(got) == {b"m1" * 100}
        await cache.get("m2", lambda: build("m2"))  # the bound pushes m1 out
        await cache.get("m2", lambda: build("m2"))
        return cache

    cache = asyncio.run(flood())
    assert built == ["m1", "m2"] and cache.size <= 250


def test_the_replay_api_builds_a_finished_match_once(
        store: Store, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from server.kit import play_out, two_at_a_table
    from zackzack.server import api

    world = World(store, settings=Settings())
    anna, ben, _ = two_at_a_table(world)
    anna.send(type="start")
    world.wait(3.5)
    play_out(world, [anna, ben])
    world.lobby.journal.flush()
    match_id = anna.last("table")["table"]["match"]
    calls = []
    real = api.replay_json
    monkeypatch.setattr(api, "replay_json", lambda *a: calls.append(1) or real(*a))
    config = Config(db=str(tmp_path / "zackzack.db"), settings=Settings(), limits=LIMITS)
    with TestClient(create_app(config)) as http:
        first = http.get(f"/api/matches/{match_id}/replay")
        again = http.get(f"/api/matches/{match_id}/replay")
    assert first.status_code == 200 and first.content == again.content
    assert first.json()["steps"][-1]["view"]["phase"] == "over" and len(calls) == 1


def test_a_frame_that_is_not_utf8_is_one_line_in_the_log() -> None:
    import io
    import logging

    from zackzack.server import logs

    logs.setup()
    stream = io.StringIO()
    handler = logs.json_handler(stream)
    uvicorn_errors = logging.getLogger("uvicorn.error")
    for logger in (uvicorn_errors, logs.EVENTS):
        logger.addHandler(handler)
    try:
        try:
            b"\xff".decode()
        except UnicodeDecodeError:  # as uvicorn's websocket protocol logs it
            uvicorn_errors.exception("Invalid UTF-8 sequence received from client.")
    finally:
        for logger in (uvicorn_errors, logs.EVENTS):
            logger.removeHandler(handler)
    lines = stream.getvalue().splitlines()
    assert "Traceback" not in stream.getvalue() and len(lines) == 1
    assert '"reason": "bad_utf8"' in lines[0]
