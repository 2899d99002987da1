"""Moderation over HTTP: only operators see the queue and act; every act needs a reason and
bad input changes nothing; a marked player reads their mark; players report each other after
a match they both played, once per match, rate-limited."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from store.kit import play
from zackzack import moderation
from zackzack.moderation.fairplay import Reaction, assess
from zackzack.server import moderating
from zackzack.server.app import Config, create_app
from zackzack.store import RatingRow, Store, database_url

GAME = "unter-spannung"


@pytest.fixture
def world(tmp_path: Path) -> Iterator[tuple[TestClient, Store]]:
    """The app over a store the test reaches too."""
    store = Store(database_url(str(tmp_path / "z.db")))
    with TestClient(create_app(Config(), store=store)) as client:
        yield client, store
    store.close()


def guest(http: TestClient, name: str) -> tuple[str, str]:
    """A new guest: its public id and token."""
    with http.websocket_connect("/ws") as ws:
        ws.send_json({"type": "hello", "token": None, "name": name})
        welcome: dict[str, Any] = ws.receive_json()
    return welcome["player"], welcome["token"]


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def scripted_flag(store: Store, player: str) -> None:
    rng = random.Random(1)
    evidence = assess([Reaction(200 + rng.randrange(-2, 3), 3 + i % 4, 1, False)
                       for i in range(120)])
    assert evidence.flagged
    moderation._flag(store, player, GAME, "timing", evidence.score, evidence.to_json())


def test_only_operators_see_the_queue_and_act(world: tuple[TestClient, Store]) -> None:
    http, store = world
    olga, olga_token = guest(http, "Olga")
    bot, bot_token = guest(http, "Bot3000")
    scripted_flag(store, bot)
    assert http.get("/api/moderation/flags").json()["error"] == "bad_token"
    refused = http.get("/api/moderation/flags", headers=auth(olga_token))
    assert refused.status_code == 403 and refused.json()["error"] == "forbidden"
    assert http.post("/api/moderation/mark", json={"player": bot, "reason": "x"},
                     headers=auth(olga_token)).status_code == 403
    assert moderation.marked(store, bot) is None

    moderation.grant(store, olga, "operator", actor="cli:root", reason="runs it")
    queue = http.get("/api/moderation/flags", headers=auth(olga_token)).json()
    [flag] = queue["flags"]
    assert (flag["player"], flag["name"], flag["source"]) == (bot, "Bot3000", "timing")
    assert sum(flag["evidence"]["histogram"]["counts"]) == 120
    assert queue["floor_ms"] == 150 and set(queue["bounds"]) >= {"floor", "spread"}

    for body in ({"player": bot}, {"player": bot, "reason": "  "}, {"player": bot, "why": "x"},
                 {"player": bot, "reason": "x" * 501}):
        bad = http.post("/api/moderation/mark", json=body, headers=auth(olga_token))
        assert bad.status_code == 400 and bad.json()["error"] == "bad_field", body
    missing = http.post("/api/moderation/mark", json={"player": "p_nobody", "reason": "x"},
                        headers=auth(olga_token))
    assert missing.status_code == 404 and missing.json()["error"] == "no_such_player"
    assert moderation.marked(store, bot) is None
    assert moderation.audit_log(store)[0]["act"] == "grant"

    done = http.post("/api/moderation/mark", json={"player": bot, "reason": "scripted timing"},
                     headers=auth(olga_token))
    assert done.json() == {"ok": True, "act": "mark", "player": bot, "name": "Bot3000"}
    assert http.get("/api/account", headers=auth(bot_token)).json()["mark"]["reason"] == \
        "scripted timing"
    own = http.get(f"/api/players/{bot}", headers=auth(bot_token)).json()
    assert own["mark"]["reason"] == "scripted timing"
    assert "mark" not in http.get(f"/api/players/{bot}").json()  # nobody else reads it
    assert "mark" not in http.get(f"/api/players/{bot}", headers=auth(olga_token)).json()

    renamed = http.post("/api/moderation/rename", json={"player": bot, "name": "Player42",
                                                        "reason": "offensive name"},
                        headers=auth(olga_token))
    assert renamed.json()["name"] == "Player42" and renamed.json()["old"] == "Bot3000"
    assert http.post("/api/moderation/clear", json={"player": bot, "game": GAME,
                                                    "reason": "dealt with"},
                     headers=auth(olga_token)).json()["cleared"] == 1
    again = http.post("/api/moderation/clear", json={"player": bot, "game": GAME,
                                                     "reason": "dealt with"},
                      headers=auth(olga_token))
    assert again.status_code == 400
    assert http.get("/api/moderation/flags", headers=auth(olga_token)).json()["flags"] == []
    assert http.post("/api/moderation/unmark", json={"player": bot, "reason": "appeal"},
                     headers=auth(olga_token)).json()["act"] == "unmark"
    assert http.post("/api/moderation/unmark", json={"player": bot, "reason": "again"},
                     headers=auth(olga_token)).status_code == 400
    closed = http.post("/api/moderation/close", json={"player": bot, "reason": "asked to"},
                       headers=auth(olga_token))
    assert closed.json()["act"] == "close"
    assert "mark" not in http.get("/api/account", headers=auth(olga_token)).json()
    assert http.get("/api/account", headers=auth(bot_token)).status_code == 401
    log = http.get("/api/moderation/log", headers=auth(olga_token)).json()["log"]
    assert [(e["act"], e["actor"]) for e in log[:5]] == [
        ("close", f"player:{olga}"), ("unmark", f"player:{olga}"), ("clear", f"player:{olga}"),
        ("rename", f"player:{olga}"), ("mark", f"player:{olga}")]
    assert http.get("/api/moderation/log?limit=0", headers=auth(olga_token)).status_code == 400


def test_a_mark_takes_the_player_off_the_leaderboard(world: tuple[TestClient, Store]) -> None:
    http, store = world
    olga, token = guest(http, "Olga")
    moderation.grant(store, olga, "operator", actor="cli:root", reason="runs it")
    bot, _ = guest(http, "Bot")
    store.claim(bot, "Bot", "bot", "x")
    now = int(store.wall() * 1000)
    store.replace_ratings([], {(bot, GAME, "rated"): RatingRow(30.0, 2.0, 20, now)})

    def board() -> list[str]:
        return [p["player"] for p in http.get(f"/api/leaderboard?game={GAME}").json()["players"]]

    assert board() == [bot]
    http.post("/api/moderation/mark", json={"player": "Bot", "reason": "scripted"},
              headers=auth(token))
    assert board() == []


def test_reports_feed_the_queue_once_per_match(world: tuple[TestClient, Store],
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    http, store = world
    anna, anna_token = guest(http, "Anna")
    ben, _ = guest(http, "Ben")
    _, cleo_token = guest(http, "Cleo")
    play(store, "m1", GAME, [anna, ben], [1, 2], rated=False)

    def report(token: str, **body: Any) -> Any:
        return http.post("/api/reports", json={"match": "m1", "player": ben,
                                                "reason": "offensive_name", **body},
                         headers=auth(token))

    assert http.post("/api/reports", json={"match": "m1", "player": ben,
                                           "reason": "scripted"}).status_code == 401
    assert report(anna_token, reason="rude").status_code == 400
    assert report(cleo_token).status_code == 400  # Cleo did not play it
    assert report(anna_token, player=anna).status_code == 400  # oneself
    assert report(anna_token).json() == {"ok": True}
    assert report(anna_token).json() == {"ok": True}  # once: the same report again
    [flag] = moderation.queue(store)
    assert (flag["player"], flag["source"], flag["evidence"]) == (
        ben, "reports", {"reports": {"offensive_name": 1}})

    monkeypatch.setattr(moderating, "REPORTS_BURST", 2)
    http.app.state.reports = None  # type: ignore[attr-defined]
    assert report(anna_token).status_code == 200
    assert report(anna_token).status_code == 200
    limited = report(anna_token)
    assert limited.status_code == 429 and limited.json()["error"] == "rate_limited"
    assert int(limited.headers["Retry-After"]) > 0


def test_a_mark_can_remove_the_players_rated_results(world: tuple[TestClient, Store]) -> None:
    http, store = world
    olga, token = guest(http, "Olga")
    moderation.grant(store, olga, "operator", actor="cli:root", reason="runs it")
    bot, _ = guest(http, "Bot")
    anna, _ = guest(http, "Anna")
    play(store, "m1", GAME, [anna, bot], [2, 1])
    play(store, "m2", GAME, [anna, olga], [1, 2])
    book = http.app.state.server.lobby.ratings  # type: ignore[attr-defined]
    assert book.standing(anna, GAME).matches == 2  # read into the server's book
    bad = http.post("/api/moderation/mark", json={"player": bot, "reason": "scripted",
                                                  "remove_results": "yes"}, headers=auth(token))
    assert bad.status_code == 400 and moderation.marked(store, bot) is None
    done = http.post("/api/moderation/mark", json={"player": bot, "reason": "scripted",
                                                   "remove_results": True}, headers=auth(token))
    assert done.json() == {"ok": True, "act": "mark", "player": bot, "name": "Bot",
                           "removed_matches": ["m1"]}
    assert store.ratings_of(bot) == {}
    assert store.ratings_of(anna)[GAME, "rated"].matches == 1
    assert book.standing(anna, GAME).matches == 1  # the server read them again
    assert [m.id for m in store.rated_matches_in_order()] == ["m2"]
    log = http.get("/api/moderation/log", headers=auth(token)).json()["log"]
    assert [(e["act"], e["player"], e["detail"]) for e in log[:2]] == [
        ("remove_results", bot, {"matches": ["m1"], "replayed": 1}),
        ("mark", bot, {"remove_results": True})]
