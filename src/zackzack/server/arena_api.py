"""The JSON API of arenas: the list the lobby shows, and one arena with its standings."""

from __future__ import annotations

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from zackzack.server.api import answering, error_response, json_response
from zackzack.server.arenas import Hall


def _hall(request: Request) -> Hall:
    hall: Hall = request.app.state.server.lobby.arenas
    return hall


async def listed(request: Request) -> Response:
    """``GET /api/arenas``: the public arenas to come, running, or just over."""
    hall = _hall(request)  # on the loop: the hall's arenas change there
    return json_response({"arenas": hall.entries(), "now": round(hall.wall() * 1000)})


async def one(request: Request) -> Response:
    """``GET /api/arenas/{id}``: one arena with its standings (a private one too: its id is
    its secret)."""
    hall, arena_id = _hall(request), str(request.path_params["id"]).upper()
    if not arena_id.isalnum() or len(arena_id) > 16:
        return error_response(400, "bad_field", "an arena id is up to 16 letters and digits")
    info = hall.info(arena_id) if arena_id in hall.hosted \
        else await run_in_threadpool(hall.info, arena_id)
    if info is None:
        return error_response(404, "no_such_arena", f"there is no arena {arena_id!r}")
    return json_response(info)


routes = [
    Route("/api/arenas", answering(listed)),
    Route("/api/arenas/{id}", answering(one)),
]
