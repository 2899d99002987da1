"""The ASGI app over HTTP and real websockets (Starlette's test client): pages, API, /ws."""

from __future__ import annotations

import itertools
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient, WebSocketTestSession
from starlette.websockets import WebSocketDisconnect

from server.kit import us_action
from zackzack import cli
from zackzack.engine.matchlog import parse_log
from zackzack.engine.replay import replay
from zackzack.engine.table import Settings
from zackzack.server.app import Config, create_app
from zackzack.server.limits import Limits

FAST = Config(settings=Settings(), limits=Limits(rate=10_000, burst=10_000))


@pytest.fixture
def web(tmp_path: Path) -> Path:
    """A stand-in web client directory."""
    folder = tmp_path / "web"
    (folder / "js").mkdir(parents=True)
    (folder / "index.html").write_text("<!doctype html><title>zackzack</title>")
    (folder / "js" / "app.js").write_text("console.log('zack')")
    return folder


def client_for(tmp_path: Path, config: Config = FAST, **changes: Any) -> TestClient:
    """A test client of an app with its own database."""
    fields = {name: getattr(config, name) for name in config.__dataclass_fields__}
    fields.update(db=str(tmp_path / "z.db"), **changes)
    return TestClient(create_app(Config(**fields)))


@pytest.fixture
def client(tmp_path: Path, web: Path) -> Iterator[TestClient]:
    """The app with fast tables and no rate limit to speak of."""
    with client_for(tmp_path, web_dir=web) as test_client:
        yield test_client


class Player:
    """One browser tab on the websocket: sends, and keeps the latest view."""

    refs = itertools.count()

    def __init__(self, ws: WebSocketTestSession, name: str) -> None:
        self.ws = ws
        self.seen: list[dict[str, Any]] = []
        ws.send_json({"type": "hello", "token": None, "name": name})
        self.welcome = ws.receive_json()

    def send(self, **message: Any) -> None:
        self.ws.send_json(message)

    def sync(self) -> list[dict[str, Any]]:
        """Read everything the server sent before now (a ping is the barrier)."""
        mark = float(next(self.refs))
        self.send(type="ping", t=mark)
        got = []
        while (message := self.ws.receive_json()) != {"type": "pong", "t": mark}:
            if message["type"] == "ping":  # the server measures the lag: answer, as browsers do
                self.send(type="pong", n=message["n"])
                continue
            got.append(message)
        self.seen.extend(got)
        return got

    def last(self, kind: str) -> dict[str, Any]:
        return next(m for m in reversed(self.seen) if m["type"] == kind)

    @property
    def view(self) -> dict[str, Any]:
        found: dict[str, Any] = next(m["view"] for m in reversed(self.seen)
                                     if m["type"] in ("table", "events"))
        return found


def test_the_pages_are_the_web_client(client: TestClient) -> None:
    for path in ("/", "/t/K7M2QX", "/matches", "/matches/abc"):
        response = client.get(path)
        assert response.status_code == 200 and "<title>zackzack</title>" in response.text
    assert client.get("/static/js/app.js").text == "console.log('zack')"
    assert client.get("/static/nothing.js").status_code == 404
    assert client.get("/static/../../z.db").status_code == 404


def test_without_the_web_client_the_pages_say_so(tmp_path: Path) -> None:
    with client_for(tmp_path, web_dir=tmp_path / "missing") as test_client:
        response = test_client.get("/")
        assert response.status_code == 503 and "not installed" in response.text
        assert test_client.get("/healthz").json()["ok"] is True


def test_health_and_an_empty_match_list(client: TestClient) -> None:
    assert client.get("/healthz").json() == {"ok": True, "tables": 0, "connections": 0,
                                              "node": None, "redis": None, "database": True,
                                              "degraded": False, "writes_pending": 0,
                                              "behind_since": None, "behind_s": None}
    assert client.get("/api/matches").json() == {"matches": [], "total": 0}
    for path in ("/api/matches/nope", "/api/matches/nope/log", "/api/matches/nope/replay"):
        response = client.get(path)
        assert response.status_code == 404 and response.json()["error"] == "no_such_match"
    for query in ("limit=0", "limit=101", "offset=-1", "limit=x"):
        response = client.get(f"/api/matches?{query}")
        assert response.status_code == 400 and response.json()["error"] == "bad_field"


def test_a_match_over_the_websocket_then_in_the_api(
        client: TestClient, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with client.websocket_connect("/ws") as ws_a, client.websocket_connect("/ws") as ws_b:
        anna, ben = Player(ws_a, "Anna"), Player(ws_b, "Ben")
        assert client.get("/healthz").json()["connections"] == 2
        anna.send(type="create", game="unter-spannung", options={"countdown_ms": 100},
                  seats=[{"kind": "open"}, {"kind": "open"}])
        code = anna.sync()[-1]["table"]["code"]
        assert anna.last("table")["table"]["link"] == f"http://testserver/t/{code}"
        ben.send(type="join", code=code, seat=None)
        ben.send(type="ready", ready=True)
        ben.sync()
        anna.send(type="start")
        anna.sync()
        waiting: dict[Player, int | None] = {anna: None, ben: None}  # an act not answered yet
        for _ in range(3000):
            if anna.view["phase"] == "over":
                break
            for player in (anna, ben):
                player.sync()
                answered = {m["ref"] for m in player.seen if m["type"] == "ack"}
                if player.view["phase"] == "playing" and waiting[player] in (None, *answered):
                    action = us_action(player.view)  # one card at a time, as the pages do
                    if action is not None:
                        waiting[player] = next(Player.refs)
                        player.send(type="act", ref=waiting[player], action=action)
        ben.sync()
        assert anna.view["phase"] == ben.view["phase"] == "over"
        acks = [m for m in anna.seen + ben.seen if m["type"] == "ack"]
        # a card may lose the race to another card or to the round's end, and on a busy
        # machine a view may be older than the reaction window (a wrong card, then frozen);
        # nothing else is refused
        races = ("too_late", "round_over", "does_not_fit", "frozen")
        assert acks and all(a["ok"] or a["code"] in races for a in acks), [
            a for a in acks if not a["ok"]]
        result = anna.view["result"]
        match_id = anna.last("table")["table"]["match"]

    listed = client.get("/api/matches").json()
    assert listed["total"] == 1 and listed["matches"][0]["id"] == match_id
    summary = listed["matches"][0]
    assert summary["result"] == result and summary["status"] == "over"
    assert [p["name"] for p in summary["players"]] == ["Anna", "Ben"]
    assert summary["players"][0]["player"] == anna.welcome["player"]
    mine = client.get(f"/api/matches?player={ben.welcome['player']}&game=unter-spannung")
    assert mine.json()["total"] == 1
    assert client.get("/api/matches?game=schnelllauf").json()["total"] == 0
    one = client.get(f"/api/matches/{match_id}").json()
    assert len(one["rounds"]) == 1 and one["rounds"][0]["winner"] == result["placings"][0]["seat"]
    assert one["links"]["log"] == f"/api/matches/{match_id}/log"
    download = client.get(f"/api/matches/{match_id}/log")
    assert "attachment" in download.headers["content-disposition"]
    log = parse_log(download.json())
    assert log.players == ("Anna", "Ben")
    assert replay(log).table.match.result is not None
    saved = tmp_path / "match.json"
    saved.write_bytes(download.content)
    assert cli.main(["replay", "--json", str(saved)]) == 0
    final = json.loads(capsys.readouterr().out.splitlines()[-1])
    assert final["outcome"]["result"] == result
    response = client.get(f"/api/matches/{match_id}/replay")
    assert response.headers["content-encoding"] == "gzip"
    steps = response.json()
    assert steps["players"] == ["Anna", "Ben"] and steps["result"] == result
    assert steps["steps"][0]["events"][0]["type"] == "round_started"
    assert steps["steps"][-1]["view"]["phase"] == "over"
    assert steps["steps"][-1]["view"]["result"] == result
    assert all(step["view"]["seat"] is None for step in steps["steps"])
    accepted = [s for s in steps["steps"] if s["outcome"] == "accepted"]
    assert len(accepted) == sum(a["ok"] for a in acks)


def test_a_running_match_is_not_served(client: TestClient) -> None:
    with client.websocket_connect("/ws") as ws:
        carla = Player(ws, "Carla")
        carla.send(type="create", game="schnelllauf",
                   seats=[{"kind": "bot", "bot": "beginner"}, {"kind": "bot", "bot": "beginner"}])
        carla.send(type="start")
        match_id = carla.sync()[-1]["table"]["match"]
        assert match_id is not None
        for path in ("", "/log", "/replay"):
            assert client.get(f"/api/matches/{match_id}{path}").status_code == 404
        assert client.get("/healthz").json()["tables"] == 1


def test_foreign_pages_may_not_open_the_websocket(tmp_path: Path) -> None:
    config = Config(public_urls=("http://testserver",), allow_origins=("https://friend.example",))
    with client_for(tmp_path, config) as test_client:
        with pytest.raises(WebSocketDisconnect) as refused, \
                test_client.websocket_connect("/ws", headers={"origin": "https://evil.example"}):
            pass
        assert refused.value.code == 1008
        for origin in ("http://testserver", "https://friend.example"):
            with test_client.websocket_connect("/ws", headers={"origin": origin}) as ws:
                assert Player(ws, "Anna").welcome["type"] == "welcome"


def test_bad_frames_get_errors_and_floods_are_cut_off(tmp_path: Path) -> None:
    config = Config(limits=Limits(rate=0.001, burst=5, refused_to_close=3))
    with client_for(tmp_path, config) as test_client, \
            test_client.websocket_connect("/ws") as ws:
        ws.send_bytes(b'{"type": "ping"}')
        assert ws.receive_json()["code"] == "bad_json"
        ws.send_text("x" * 20_000)
        assert ws.receive_json()["code"] == "too_large"
        ws.send_text('{"type": "ping", "t": 1}')
        assert ws.receive_json() == {"type": "pong", "t": 1}
        ws.send_text('{"type": "act", "ref": 4, "action": {}}')
        assert ws.receive_json() == {"type": "error", "code": "hello_first",
                                     "reason": "the first message must be hello", "ref": 4}
        ws.send_text('{"type": "lobby"}')
        assert ws.receive_json()["code"] == "hello_first"
        ws.send_text('{"type": "act", "ref": 5, "action": {}}')  # the sixth: over the limit
        assert ws.receive_json() == {"type": "error", "code": "rate_limited",
                                     "reason": "too many messages; this one was dropped",
                                     "ref": 5}
        ws.send_text('{"type": "ping"}')
        assert ws.receive_json()["code"] == "rate_limited"
        ws.send_text('{"type": "ping"}')
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
        assert closed.value.code == 4002
