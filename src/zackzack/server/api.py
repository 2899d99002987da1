"""The JSON API of stored matches: list, one match, its log (a download) and its replay.

Only finished matches are served: a running match's log would show every hidden card.
Database reads run in worker threads, so the tables never wait for them.
"""

from __future__ import annotations

import functools
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any

import msgspec
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from zackzack.engine.stats import match_stats, stats_json
from zackzack.games import registered
from zackzack.server.replays import Busy, replay_json
from zackzack.store import Store

log = logging.getLogger(__name__)

Handler = Callable[[Request], Awaitable[Response]]


class BadQuery(ValueError):
    """A query parameter that is not what the API accepts."""


def json_response(data: Any, status: int = 200,
                  headers: dict[str, str] | None = None) -> Response:
    """``data`` as a JSON response."""
    return Response(msgspec.json.encode(data), status, headers, media_type="application/json")


def error_response(status: int, code: str, reason: str) -> Response:
    """A refusal: ``{"error": code, "reason": reason}`` with HTTP ``status``."""
    return json_response({"error": code, "reason": reason}, status)


def answering(handler: Handler) -> Handler:
    """``handler``, answering a failure (a bug, the database gone) as JSON with a code like
    every other API error, not as a bare "Internal Server Error" page."""

    @functools.wraps(handler)
    async def guarded(request: Request) -> Response:
        try:
            return await handler(request)
        except Exception:
            log.exception("%s failed", request.url.path)
            return error_response(500, "internal", "the server failed; try again")

    return guarded


def whole(request: Request, name: str, low: int, high: int, default: int) -> int:
    """The query parameter ``name``: a whole number from ``low`` to ``high`` (``BadQuery``)."""
    text = request.query_params.get(name)
    if text is None:
        return default
    if not text.isdigit() or not low <= int(text) <= high:
        raise BadQuery(f"{name} must be a whole number from {low} to {high}")
    return int(text)


def _store(request: Request) -> Store:
    store: Store = request.app.state.server.store
    return store


async def list_matches(request: Request) -> Response:
    """``GET /api/matches``: finished public matches, newest first."""
    try:
        limit = whole(request, "limit", 1, 100, 50)
        offset = whole(request, "offset", 0, 10**9, 0)
    except BadQuery as error:
        return error_response(400, "bad_field", str(error))
    game, player = request.query_params.get("game"), request.query_params.get("player")
    records, total = await run_in_threadpool(_store(request).matches, limit=limit,
                                             offset=offset, game=game, player=player)
    return json_response({"matches": [record.to_json() for record in records], "total": total})


def _missing(match_id: str) -> Response:
    return error_response(404, "no_such_match", f"there is no finished match {match_id!r}")


async def one_match(request: Request) -> Response:
    """``GET /api/matches/{id}``: the summary, each round, how each seat played (``stats``),
    links to the log and the replay."""
    match_id = request.path_params["id"]
    store = _store(request)

    def build() -> dict[str, Any] | None:
        record = store.match(match_id)
        if record is None:
            return None
        data = record.to_json()
        data["stats"] = record.stats
        if record.stats is None:  # stored before matches kept their statistics: replay
            log = store.log(match_id)
            bots = [seat.bot for seat in sorted(record.seats, key=lambda seat: seat.seat)]
            data["stats"] = None if log is None else stats_json(match_stats(log), bots)
        data["rounds"] = [round_.to_json() for round_ in record.rounds]
        return data

    data = await run_in_threadpool(build)
    if data is None:
        return _missing(match_id)
    data["links"] = {"log": f"/api/matches/{match_id}/log",
                     "replay": f"/api/matches/{match_id}/replay"}
    return json_response(data)


async def match_log(request: Request) -> Response:
    """``GET /api/matches/{id}/log``: the match log as a file ``zackzack replay`` reads."""
    match_id = request.path_params["id"]
    data = await run_in_threadpool(_store(request).log_json, match_id)
    if data is None:
        return _missing(match_id)
    name = "zackzack-" + "".join(c for c in match_id if c.isalnum() or c in "-_") + ".json"
    return json_response(data, headers={"Content-Disposition": f'attachment; filename="{name}"'})


async def match_replay(request: Request) -> Response:
    """``GET /api/matches/{id}/replay``: every step with the spectator's view after it."""
    match_id = request.path_params["id"]
    store = _store(request)

    def build() -> bytes | None:
        log = store.log(match_id)
        record = store.match(match_id)
        if log is None or record is None:
            return None
        return msgspec.json.encode(replay_json(match_id, log, record.result))

    try:  # built once in a worker thread, kept encoded (server/replays.py)
        data = await request.app.state.server.replays.get(match_id, build)
    except Busy:
        return error_response(503, "rate_limited", "too many replays are being built; try "
                              "again in a moment")
    return _missing(match_id) if data is None else Response(
        data, media_type="application/json")


async def list_games(request: Request) -> Response:
    """``GET /api/games``: the registered games with their players, options (defaults and
    bounds), and the addresses of their web board modules and rules pages."""
    return json_response({"games": [found.describe() for found in registered()]})


async def healthz(request: Request) -> JSONResponse:
    """``GET /healthz``: the number of live tables and connections, and whether the database
    (and in a cluster Redis) can be reached: ``ok`` says whether both can and every write is
    stored. ``degraded``: writes wait for the database (``writes_pending`` of them, since
    ``behind_since``, wall ms, for ``behind_s`` seconds; the tables stand paused). HTTP 503
    when the database cannot be reached or writes wait (nothing can be played); without Redis
    the process still plays its
    running tables, so a load balancer should keep it (200)."""
    server = request.app.state.server
    cluster = server.lobby.cluster
    try:
        await run_in_threadpool(server.store.check)
        database = True
    except Exception:
        database = False
    redis = None if cluster is None else cluster.reachable
    journal = server.lobby.journal
    behind = journal.behind_wall
    ok = database and redis is not False and behind is None
    return JSONResponse({"ok": ok, "tables": len(server.lobby.rooms),
                         "connections": len(server.connections),
                         "node": None if cluster is None else cluster.node,
                         "redis": redis, "database": database,
                         "degraded": behind is not None, "writes_pending": len(journal.queue),
                         "behind_since": None if behind is None else int(behind * 1000),
                         "behind_s": None if behind is None else round(time.time() - behind, 1)},
                        status_code=200 if database and behind is None else 503)


routes = [
    Route("/api/games", answering(list_games)),
    Route("/api/matches", answering(list_matches)),
    Route("/api/matches/{id}", answering(one_match)),
    Route("/api/matches/{id}/log", answering(match_log)),
    Route("/api/matches/{id}/replay", answering(match_replay)),
    Route("/healthz", healthz),
]
