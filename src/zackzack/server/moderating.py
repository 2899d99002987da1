"""The HTTP API of moderation: the operators' review queue and acts, players' reports.

Every ``/api/moderation/…`` request proves an *operator* (``zackzack moderation grant``) with
``Authorization: Bearer TOKEN``: without a known token it is ``bad_token`` (401), from anyone
else ``forbidden`` (403). An act names the player (public id or claimed name) and says why
(``reason``, required); bad input is ``bad_field`` (400) and changes nothing. The acts and the
queue are ``zackzack.moderation``'s, as the command line's are; the audit log names the
operator as ``player:ID``. ``POST /api/reports`` lets a player report another after a match
they both played (one report per reporter, player and match; ``REPORTS_BURST`` at once, then
one per ``REPORT_EVERY`` seconds).
"""

from __future__ import annotations

import functools
import math
from typing import TYPE_CHECKING, Annotated, Any

from msgspec import Meta, Struct
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from zackzack import moderation
from zackzack.games import GAMES
from zackzack.server.accounts import Name, read_body
from zackzack.server.api import Handler, answering, error_response, json_response
from zackzack.server.identity import Player, clean_name
from zackzack.server.limits import AddressBuckets
from zackzack.server.logs import event
from zackzack.server.protocol import NAME_CHARS, ProtocolError
from zackzack.store import NameTaken

if TYPE_CHECKING:
    from zackzack.server.app import Server

REPORTS_BURST = 10
"""Reports a player may send at once."""
REPORT_EVERY = 60.0
"""Seconds after which a player may send one more report (beyond the burst)."""
STATUS = {"bad_field": 400, "bad_json": 400, "bad_token": 401, "forbidden": 403,
          "no_such_player": 404, "name_taken": 409, "already_started": 409,
          "rate_limited": 429}

Id = Annotated[str, Meta(min_length=1, max_length=200)]
Reason = Annotated[str, Meta(max_length=500)]


class TooMany(ProtocolError):
    """Too many requests of one kind: ``rate_limited``, try again in ``retry_after`` s."""

    def __init__(self, retry_after: int, why: str) -> None:
        super().__init__("rate_limited", f"{why}; try again in {retry_after} s")
        self.retry_after = retry_after


class Act(Struct, forbid_unknown_fields=True, frozen=True):
    """Mark, unmark or close ``player`` (an id or a claimed name), because ``reason``."""

    player: Id
    reason: Reason = ""


class MarkAct(Struct, forbid_unknown_fields=True, frozen=True):
    """Mark ``player`` because ``reason``; ``remove_results``: their past rated results
    removed from the ratings too."""

    player: Id
    reason: Reason = ""
    remove_results: bool = False


class RenameAct(Struct, forbid_unknown_fields=True, frozen=True):
    """Call ``player`` ``name`` from now on, because ``reason``."""

    player: Id
    name: Name
    reason: Reason = ""


class ClearAct(Struct, forbid_unknown_fields=True, frozen=True):
    """Clear ``player``'s open flags of ``game`` (of ``source`` only, if given)."""

    player: Id
    game: Id
    reason: Reason = ""
    source: Annotated[str, Meta(pattern="^(timing|reports)$")] | None = None


class Report(Struct, forbid_unknown_fields=True, frozen=True):
    """I report ``player`` after ``match`` (which we both played) for ``reason``."""

    match: Id
    player: Id
    reason: Annotated[str, Meta(max_length=40)]


def _server(request: Request) -> Server:
    server: Server = request.app.state.server
    return server


def _refusing(handler: Handler) -> Handler:
    """``handler``, answering a refusal (``ProtocolError``) with its code and HTTP status,
    a failure as ``internal``."""

    @functools.wraps(handler)
    async def refusing(request: Request) -> Response:
        try:
            return await handler(request)
        except ProtocolError as error:
            response = error_response(STATUS.get(error.code, 400), error.code, error.reason)
            if isinstance(error, TooMany):
                response.headers["Retry-After"] = str(error.retry_after)
            response.headers["Cache-Control"] = "no-store"
            return response

    return answering(refusing)


def _json(data: Any) -> Response:
    return json_response(data, 200, {"Cache-Control": "no-store"})


def signed_in(request: Request) -> Player:
    """The player whose token the request carries (``bad_token`` if none is known)."""
    scheme, _, token = request.headers.get("authorization", "").partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise ProtocolError("bad_token", "send your token as 'Authorization: Bearer TOKEN'")
    player = _server(request).identities.by_token(token.strip())
    if player is None:
        raise ProtocolError("bad_token", "this token is not known (signed out, or deleted)")
    return player


def viewer(request: Request) -> Player | None:
    """The player whose token the request carries, if it carries a known one."""
    try:
        return signed_in(request) if request.headers.get("authorization") else None
    except ProtocolError:
        return None


async def _operator(request: Request) -> Player:
    """The signed-in operator (``forbidden`` for anyone else)."""
    player = signed_in(request)
    role = await run_in_threadpool(moderation.role_of, _server(request).store, player.id)
    if role != moderation.OPERATOR:
        raise ProtocolError("forbidden", "only an operator may do this (zackzack moderation "
                            "grant)")
    return player


def _reason(text: str) -> str:
    if not text.strip():
        raise ProtocolError("bad_field", "say why: every act of moderation needs a reason")
    return text.strip()


def _target(server: Server, who: str) -> Player:
    """The player ``who`` names (an id or a claimed name), as the live server knows them."""
    try:
        player_id = moderation.find(server.store, who)
    except ValueError:
        raise ProtocolError("no_such_player", f"there is no player {who!r}") from None
    player = server.identities.known(player_id)
    if player is None:
        raise ProtocolError("no_such_player", f"there is no player {who!r}")
    return player


def _actor(player: Player) -> str:
    return f"player:{player.id}"


def _done(act: str, player: Player, operator: Player, **more: Any) -> Response:
    event("moderated", act=act, player=player.id, by=operator.id)
    return _json({"ok": True, "act": act, "player": player.id, "name": player.name, **more})


def _bounds() -> dict[str, Any]:
    """What the page draws the evidence against."""
    from zackzack.moderation.fairplay import (
        BOUNDS,
        FLOOR_MS,
        HISTOGRAM_MS,
        MIN_REACTIONS,
        THRESHOLD,
    )
    return {"floor_ms": FLOOR_MS, "threshold": THRESHOLD, "min_reactions": MIN_REACTIONS,
            "histogram_ms": list(HISTOGRAM_MS),
            "bounds": {name: {"limit": bound.limit, "at": bound.at, "why": bound.why}
                       for name, bound in BOUNDS.items()}}


async def flags(request: Request) -> Response:
    """``GET /api/moderation/flags[?all=1]``: the review queue (open flags, ``all``: cleared
    ones too), highest score first, each with its evidence; the human bounds beside."""
    await _operator(request)
    everything = request.query_params.get("all") in ("1", "true")
    found = await run_in_threadpool(moderation.queue, _server(request).store,
                                    cleared=everything)
    return _json({"flags": found, "reasons": list(moderation.REASONS), **_bounds()})


async def evidence(request: Request) -> Response:
    """``GET /api/moderation/evidence?player=ID&game=GAME``: the detector's statistics over
    the player's newest rated matches of the game, read now (a reported player has no timing
    flag)."""
    await _operator(request)
    server = _server(request)
    game = request.query_params.get("game", "")
    if game not in GAMES:
        raise ProtocolError("bad_field", f"game must be one of {', '.join(GAMES)}")
    player = _target(server, request.query_params.get("player", ""))
    from zackzack.moderation.fairplay import assess  # numpy: imported when an operator asks
    found = await run_in_threadpool(
        lambda: assess(moderation.player_reactions(server.store, player.id, game)).to_json())
    return _json({"player": player.id, "game": game, "evidence": found, **_bounds()})


async def audit_log(request: Request) -> Response:
    """``GET /api/moderation/log[?player=ID&limit=N]``: the newest acts first, each player
    with their name now."""
    await _operator(request)
    server = _server(request)
    limit_text = request.query_params.get("limit", "100")
    if not limit_text.isdigit() or not 1 <= int(limit_text) <= 500:
        raise ProtocolError("bad_field", "limit must be a whole number from 1 to 500")
    who = request.query_params.get("player")
    player_id = None if who is None else _target(server, who).id

    def build() -> list[dict[str, Any]]:
        entries = moderation.audit_log(server.store, player_id, int(limit_text))
        names: dict[str, str | None] = {}
        for entry in entries:
            found = entry["player"]
            if found is not None and found not in names:
                record = server.store.find_player(found)
                names[found] = None if record is None else record.name
            entry["name"] = None if found is None else names[found]
        return entries

    return _json({"log": await run_in_threadpool(build)})


async def mark(request: Request) -> Response:
    """``POST /api/moderation/mark`` ``{"player", "reason"[, "remove_results"]}``: off every
    leaderboard, barred from rated play; the player reads the reason on their profile.
    ``remove_results``: every rating rebuilt without the matches they took part in (the
    answer's ``removed_matches``), the ratings the server keeps read again."""
    operator = await _operator(request)
    body = await read_body(request, MarkAct)
    server = _server(request)
    player, reason = _target(server, body.player), _reason(body.reason)
    if not body.remove_results:
        moderation.mark(server.store, player.id, reason, actor=_actor(operator))
        return _done("mark", player, operator)
    removed = await run_in_threadpool(moderation.mark, server.store, player.id, reason,
                                      actor=_actor(operator), remove_results=True)
    server.lobby.ratings.forget()
    return _done("mark", player, operator, removed_matches=removed)


async def unmark(request: Request) -> Response:
    """``POST /api/moderation/unmark`` ``{"player", "reason"}``: the mark lifted."""
    operator = await _operator(request)
    body = await read_body(request, Act)
    server = _server(request)
    player, reason = _target(server, body.player), _reason(body.reason)
    try:
        moderation.unmark(server.store, player.id, reason, actor=_actor(operator))
    except ValueError as error:
        raise ProtocolError("bad_field", str(error)) from None
    return _done("unmark", player, operator)


async def rename(request: Request) -> Response:
    """``POST /api/moderation/rename`` ``{"player", "name", "reason"}``: another name (an
    offensive one replaced), checked as a player's own rename is; not while a match of theirs
    runs."""
    from zackzack.server.identity import _key
    from zackzack.words.names import name_key

    operator = await _operator(request)
    body = await read_body(request, RenameAct)
    server = _server(request)
    player, reason = _target(server, body.player), _reason(body.reason)
    if player.deleted:
        raise ProtocolError("bad_field", "the account is closed")
    name = clean_name(body.name)
    if not name:
        raise ProtocolError("bad_field", f"a name is 1 to {NAME_CHARS} printable characters")
    if server.identities.playing(player):
        raise ProtocolError("already_started", "a match of theirs is running: rename them "
                            "once it is over")
    if player.claimed:
        _key(name)
    taken = server.store.account(name_key(name))
    if taken is not None and taken[0].id != player.id:
        raise ProtocolError("name_taken", "that name (or one that looks like it) is taken")
    old = player.name
    try:
        moderation.rename(server.store, player.id, name, reason, actor=_actor(operator))
    except NameTaken:
        raise ProtocolError("name_taken", "that name (or one that looks like it) is taken") \
            from None
    except ValueError as error:
        raise ProtocolError("bad_field", str(error)) from None
    player.name = name
    server.lobby.player_changed(player)
    return _done("rename", player, operator, old=old)


async def close(request: Request) -> Response:
    """``POST /api/moderation/close`` ``{"player", "reason"}``: the account closed, as its
    own deletion would (nameless, no ratings, signed out everywhere)."""
    from zackzack.server.accounts import revoked

    operator = await _operator(request)
    body = await read_body(request, Act)
    server = _server(request)
    player, reason = _target(server, body.player), _reason(body.reason)
    if player.id == operator.id:
        raise ProtocolError("bad_field", "close your own account from the account dialog")
    try:
        moderation.close(server.store, player.id, reason, actor=_actor(operator))
    except ValueError as error:
        raise ProtocolError("bad_field", str(error)) from None
    revoked(server, (), player.id)  # its tokens, connections, name on the tables and replays
    if server.lobby.cluster is not None:
        server.lobby.cluster.revoke((), player.id)
    return _done("close", player, operator)


async def clear(request: Request) -> Response:
    """``POST /api/moderation/clear`` ``{"player", "game", "reason"[, "source"]}``: the
    player's open flags of the game reviewed, nothing to do."""
    operator = await _operator(request)
    body = await read_body(request, ClearAct)
    server = _server(request)
    player, reason = _target(server, body.player), _reason(body.reason)
    if body.game not in GAMES:
        raise ProtocolError("bad_field", f"game must be one of {', '.join(GAMES)}")
    count = moderation.clear(server.store, player.id, body.game, reason,
                             actor=_actor(operator), source=body.source)
    if not count:
        raise ProtocolError("bad_field", "the player has no open flag of that game")
    return _done("clear", player, operator, cleared=count)


async def report(request: Request) -> Response:
    """``POST /api/reports`` ``{"match", "player", "reason"}``: the signed-in player reports
    another after a match they both played; the report joins the review queue."""
    reporter = signed_in(request)
    body = await read_body(request, Report)
    server = _server(request)
    if body.reason not in moderation.REASONS:
        raise ProtocolError("bad_field", f"reason must be one of {', '.join(moderation.REASONS)}")
    buckets: AddressBuckets | None = getattr(request.app.state, "reports", None)
    if buckets is None:
        buckets = request.app.state.reports = AddressBuckets(1 / REPORT_EVERY, REPORTS_BURST,
                                                             server.store.wall)
    if not buckets.take(reporter.id):
        raise TooMany(math.ceil(buckets.wait(reporter.id)), "too many reports")
    try:
        await run_in_threadpool(moderation.report, server.store, reporter.id, body.match,
                                body.player, body.reason)
    except ValueError as error:
        raise ProtocolError("bad_field", str(error)) from None
    event("reported", player=body.player, by=reporter.id, reason=body.reason)
    return _json({"ok": True})


routes = [
    Route("/api/moderation/flags", _refusing(flags)),
    Route("/api/moderation/evidence", _refusing(evidence)),
    Route("/api/moderation/log", _refusing(audit_log)),
    Route("/api/moderation/mark", _refusing(mark), methods=["POST"]),
    Route("/api/moderation/unmark", _refusing(unmark), methods=["POST"]),
    Route("/api/moderation/rename", _refusing(rename), methods=["POST"]),
    Route("/api/moderation/close", _refusing(close), methods=["POST"]),
    Route("/api/moderation/clear", _refusing(clear), methods=["POST"]),
    Route("/api/reports", _refusing(report), methods=["POST"]),
]
