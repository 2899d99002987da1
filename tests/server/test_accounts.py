"""Accounts over HTTP: claim a name, sign in elsewhere, throttling, rename, sign out, delete."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from server.kit import World, play_out
from zackzack.engine.table import Settings
from zackzack.server import accounts
from zackzack.server.accounts import SIGNED_OUT
from zackzack.server.app import Config, create_app
from zackzack.server.limits import Limits
from zackzack.server.protocol import ProtocolError
from zackzack.store import Store
from zackzack.words.names import name_key

CONFIG = Config(settings=Settings(), limits=Limits(rate=10_000, burst=10_000,
                                                   sign_ins_per_name=3, sign_ins_per_address=6))


@pytest.fixture
def http(tmp_path: Path) -> Iterator[TestClient]:
    """The app with its own database."""
    config = Config(**{**{n: getattr(CONFIG, n) for n in CONFIG.__dataclass_fields__},
                       "db": str(tmp_path / "z.db")})
    with TestClient(create_app(config)) as client:
        yield client


def guest(http: TestClient, name: str = "Anna") -> dict[str, Any]:
    """A new guest made by a websocket hello: its welcome (with its token)."""
    with http.websocket_connect("/ws") as ws:
        ws.send_json({"type": "hello", "token": None, "name": name})
        welcome: dict[str, Any] = ws.receive_json()
    return welcome


def post(http: TestClient, path: str, token: str | None = None, **body: Any) -> Any:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    return http.post(f"/api/account/{path}", json=body, headers=headers)


def test_a_guest_claims_a_name_and_signs_in_on_another_device_as_the_same_player(
        http: TestClient) -> None:
    anna = guest(http, "Anna")
    claimed = post(http, "claim", anna["token"], name="Anna", password="correct horse")
    assert claimed.status_code == 200, claimed.text
    assert claimed.json() == {"player": anna["player"], "name": "Anna", "claimed": True}
    signed = post(http, "sign-in", name="anna", password="correct horse")
    assert signed.status_code == 200
    other = signed.json()
    assert other["player"] == anna["player"] and other["token"] != anna["token"]
    with http.websocket_connect("/ws") as ws:  # the second device says hello with its token
        ws.send_json({"type": "hello", "token": other["token"], "name": "whatever"})
        welcome = ws.receive_json()
    assert welcome["player"] == anna["player"] and welcome["name"] == "Anna"
    assert welcome["claimed"] is True
    me = http.get("/api/account", headers={"Authorization": f"Bearer {anna['token']}"})
    assert me.json()["claimed"] is True  # the first device's token still works


def test_the_password_is_never_stored_in_clear(http: TestClient, tmp_path: Path) -> None:
    anna = guest(http)
    post(http, "claim", anna["token"], name="Anna", password="s3cret-passphrase")
    assert b"s3cret-passphrase" not in (tmp_path / "z.db").read_bytes()
    wal = tmp_path / "z.db-wal"
    assert not wal.exists() or b"s3cret-passphrase" not in wal.read_bytes()


@pytest.mark.parametrize(("name", "taken"), [("anna", True), ("ＡＮＮＡ", True),
                                              ("\u0410nna", True), ("Anne", False)])
def test_claimed_names_are_unique_lookalikes_included(http: TestClient, name: str,
                                                      taken: bool) -> None:
    post(http, "claim", guest(http)["token"], name="Anna", password="password-1")
    other = guest(http, "Ben")
    answer = post(http, "claim", other["token"], name=name, password="password-2")
    assert answer.status_code == (409 if taken else 200)
    if taken:
        assert answer.json()["error"] == "name_taken"
        me = http.get("/api/account", headers={"Authorization": f"Bearer {other['token']}"})
        assert me.json() == {"player": other["player"], "name": "Ben", "claimed": False}


def test_a_guest_cannot_show_a_claimed_name(http: TestClient) -> None:
    post(http, "claim", guest(http)["token"], name="Anna", password="password-1")
    impostor = guest(http, "ANNA")
    assert name_key(impostor["name"]) != name_key("Anna")
    answer = post(http, "rename", impostor["token"], name="Аnna")  # Cyrillic А
    assert answer.status_code == 409 and answer.json()["error"] == "name_taken"


@pytest.mark.parametrize("body", [{"name": "Anna"}, {"name": "Anna", "password": "short"},
                                  {"name": "Anna", "password": "x" * 129},
                                  {"name": "", "password": "long enough"},
                                  {"name": "Anna", "password": "long enough", "admin": True}])
def test_a_bad_claim_is_refused_and_changes_nothing(http: TestClient, body: dict[str, Any]
                                                   ) -> None:
    anna = guest(http, "Gast")
    answer = post(http, "claim", anna["token"], **body)
    assert answer.status_code == 400 and answer.json()["error"] == "bad_field"
    me = http.get("/api/account", headers={"Authorization": f"Bearer {anna['token']}"})
    assert me.json()["claimed"] is False and me.json()["name"] == "Gast"


def test_without_a_known_token_nothing_is_done(http: TestClient) -> None:
    for token in (None, "p_nobody.nothing"):
        answer = post(http, "claim", token, name="Anna", password="long enough")
        assert answer.status_code == 401 and answer.json()["error"] == "bad_token"


def test_sign_in_is_throttled_per_name_and_the_answer_never_tells_which_part_was_wrong(
        http: TestClient) -> None:
    post(http, "claim", guest(http)["token"], name="Anna", password="right password")
    unknown = post(http, "sign-in", name="Nobody", password="whatever1")
    wrong = post(http, "sign-in", name="Anna", password="wrong password")
    assert unknown.status_code == wrong.status_code == 401
    assert unknown.json() == {**wrong.json()} == {"error": "wrong_password",
                                                  "reason": "the name or the password is wrong"}
    post(http, "sign-in", name="Anna", password="wrong again")
    post(http, "sign-in", name="anna", password="and again")  # the 3rd for this name
    refused = post(http, "sign-in", name="ANNA", password="right password")
    assert refused.status_code == 429 and refused.json()["error"] == "too_many_attempts"
    wait = refused.json()["retry_after"]
    assert 0 < wait <= 60 and refused.headers["retry-after"] == str(wait)
    assert f"try again in {wait} s" in refused.json()["reason"]


def test_sign_in_is_throttled_per_address_whatever_the_names(http: TestClient) -> None:
    answers = [post(http, "sign-in", name=f"Name{i}", password="password!").status_code
               for i in range(8)]
    assert answers == [401] * 6 + [429] * 2


def test_signing_out_everywhere_closes_every_connection_and_forgets_every_token(
        http: TestClient) -> None:
    anna = guest(http)
    post(http, "claim", anna["token"], name="Anna", password="password-1")
    second = post(http, "sign-in", name="Anna", password="password-1").json()["token"]
    with http.websocket_connect("/ws") as ws:
        ws.send_json({"type": "hello", "token": second, "name": ""})
        ws.receive_json()
        assert post(http, "sign-out", anna["token"], everywhere=True).json() == {"ok": True}
        with pytest.raises(WebSocketDisconnect) as closed:
            while True:
                ws.receive_json()
        assert closed.value.code == SIGNED_OUT
    for token in (anna["token"], second):
        me = http.get("/api/account", headers={"Authorization": f"Bearer {token}"})
        assert me.status_code == 401
    back = post(http, "sign-in", name="Anna", password="password-1").json()
    assert back["player"] == anna["player"]  # the account itself stays


def test_signing_out_one_device_keeps_the_others(http: TestClient) -> None:
    anna = guest(http)
    post(http, "claim", anna["token"], name="Anna", password="password-1")
    second = post(http, "sign-in", name="Anna", password="password-1").json()["token"]
    post(http, "sign-out", second)
    ok = http.get("/api/account", headers={"Authorization": f"Bearer {anna['token']}"})
    gone = http.get("/api/account", headers={"Authorization": f"Bearer {second}"})
    assert (ok.status_code, gone.status_code) == (200, 401)


def test_rename_keeps_the_old_name_in_past_matches(store: Store) -> None:
    world = World(store, settings=Settings())
    anna = world.client("Anna")
    anna.send(type="create", game="unter-spannung",
              seats=[{"kind": "open"}, {"kind": "bot", "bot": "machine"}])
    anna.send(type="start")
    play_out(world, [anna])
    match = anna.table["match"]
    player = world.identities.by_token(anna.welcome["token"])
    assert player is not None
    world.identities.claim(player, "Anna", world.identities.hash_password("password-1"))
    world.identities.rename(player, "Annabel")
    record = store.match(match)
    assert record is not None and record.seats[0].name == "Anna"
    account, rehashed = world.identities.check_sign_in("annabel", "password-1")
    assert world.identities.signed_in(account, rehashed)[0] is player


def test_deleting_an_account_needs_the_password_and_leaves_a_neutral_player(
        http: TestClient) -> None:
    anna = guest(http)
    post(http, "claim", anna["token"], name="Anna", password="password-1")
    wrong = post(http, "delete", anna["token"], password="not it!!")
    assert wrong.status_code == 401 and wrong.json()["error"] == "wrong_password"
    assert post(http, "delete", anna["token"], password="password-1").json() == {"ok": True}
    assert http.get("/api/account", headers={"Authorization": f"Bearer {anna['token']}"}
                    ).status_code == 401
    assert post(http, "sign-in", name="Anna", password="password-1").status_code == 401
    ben = guest(http, "Ben")  # the name is free again
    assert post(http, "claim", ben["token"], name="Anna", password="password-2").status_code \
        == 200


def test_failures_from_elsewhere_do_not_lock_the_owner_out(store: Store) -> None:
    world = World(store, settings=Settings(),
                  limits=Limits(sign_ins_per_name=2, sign_ins_per_name_anywhere=4))
    identities = world.identities
    anna = world.client("Anna")
    player = identities.by_token(anna.welcome["token"])
    assert player is not None
    identities.claim(player, "Anna", identities.hash_password("password-1"))

    def attempt(password: str, address: str) -> str:
        try:
            identities.throttle("Anna", address)
            identities.check_sign_in("Anna", password)
        except ProtocolError as error:
            if error.code == "wrong_password":
                identities.failed("Anna", address)
            return error.code
        return "ok"

    assert [attempt("guess", "10.0.0.9") for _ in range(3)] \
        == ["wrong_password", "wrong_password", "too_many_attempts"]
    assert attempt("password-1", "10.0.0.1") == "ok"  # the owner, from home
    assert attempt("password-1", "10.0.0.1") == "ok"  # successes cost the name nothing
    assert [attempt("guess", f"10.0.1.{n}") for n in range(3)] \
        == ["wrong_password", "wrong_password", "too_many_attempts"]  # 4 from anywhere


@pytest.mark.parametrize("name", ["p_abc", "P_Anna"])
def test_a_claimed_name_cannot_pass_for_a_player_id(http: TestClient, name: str) -> None:
    answer = post(http, "claim", guest(http)["token"], name=name, password="password-1")
    assert answer.status_code == 400 and "player's id" in answer.json()["reason"]


def test_a_name_stays_while_its_players_match_runs(store: Store, tmp_path: Path) -> None:
    config = Config(**{**{n: getattr(CONFIG, n) for n in CONFIG.__dataclass_fields__},
                       "db": str(tmp_path / "y.db")})
    with TestClient(create_app(config)) as http, http.websocket_connect("/ws") as ws:
        ws.send_json({"type": "hello", "token": None, "name": "Anna"})
        token = ws.receive_json()["token"]
        ws.send_json({"type": "create", "game": "unter-spannung",
                      "seats": [{"kind": "open"}, {"kind": "bot", "bot": "beginner"}]})
        ws.send_json({"type": "start"})
        while ws.receive_json()["type"] != "table":
            pass
        answer = post(http, "rename", token, name="Annabel")
        assert answer.status_code == 409 and answer.json()["error"] == "already_started"


def test_addresses_of_one_ipv6_network_share_their_sign_in_attempts(store: Store) -> None:
    world = World(store, settings=Settings(), limits=Limits(sign_ins_per_address=2))
    tries = []
    for host in ("2001:db8:1:2::1", "2001:db8:1:2::2", "2001:db8:1:2:ffff::9", "2001:db8:1:3::1"):
        try:
            world.identities.throttle("Anna", host)
            tries.append("ok")
        except ProtocolError as error:
            tries.append(error.code)
    assert tries == ["ok", "ok", "too_many_attempts", "ok"]  # the last is another /64


def test_when_too_many_wait_for_a_hash_a_claim_is_refused_at_once(
        http: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    anna = guest(http, "Anna")
    monkeypatch.setattr(accounts, "HASHING_QUEUE", 0)
    answer = post(http, "claim", anna["token"], name="Anna", password="password-1")
    assert answer.status_code == 429 and answer.json()["error"] == "too_many_attempts"
    assert "busy" in answer.json()["reason"]
    me = http.get("/api/account", headers={"Authorization": f"Bearer {anna['token']}"})
    assert me.json()["claimed"] is False
