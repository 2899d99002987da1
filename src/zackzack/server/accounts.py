"""The HTTP API of accounts: claim a name, sign in and out, rename, delete.

A request proves its player with ``Authorization: Bearer TOKEN`` (the token the websocket's
``welcome`` gave). Bodies are small JSON objects, checked by msgspec; every refusal is
``{"error": code, "reason": text}`` and changes nothing. Password hashing runs in worker
threads, at most ``HASHING_AT_ONCE`` at a time, so the tables never wait for it.
"""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Annotated, Any, TypeVar

import msgspec
from msgspec import Meta, Struct
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from zackzack.server.api import Handler, answering, error_response, json_response
from zackzack.server.identity import PASSWORD_CHARS, Player, TooManyAttempts
from zackzack.server.logs import event
from zackzack.server.protocol import NAME_CHARS, ProtocolError

if TYPE_CHECKING:
    from zackzack.server.app import Server

SIGNED_OUT = 4003
"""The websocket close code for connections of a token that was signed out or deleted."""
HASHING_AT_ONCE = 2
"""Password hashes computed at the same time (each takes 64 MiB and tens of milliseconds)."""
HASHING_QUEUE = 32
"""Requests that may wait for a hash; more are refused at once (``too_many_attempts``)."""
MAX_BODY = 4096

Name = Annotated[str, Meta(max_length=NAME_CHARS * 4)]
Password = Annotated[str, Meta(max_length=PASSWORD_CHARS[1])]


class Credentials(Struct, forbid_unknown_fields=True, frozen=True):
    """A name and a password: to claim the name, or to sign in as its player."""

    name: Name
    password: Password


class SignOut(Struct, forbid_unknown_fields=True, frozen=True):
    """Forget this device's token (``everywhere``: every token of mine)."""

    everywhere: bool = False


class Rename(Struct, forbid_unknown_fields=True, frozen=True):
    """Call me ``name``."""

    name: Name


class Delete(Struct, forbid_unknown_fields=True, frozen=True):
    """Delete my account (a claimed player proves it with the password)."""

    password: Password = ""


STATUS = {"bad_field": 400, "bad_json": 400, "bad_token": 401, "wrong_password": 401,
          "name_taken": 409, "already_claimed": 409, "already_started": 409,
          "too_many_attempts": 429}
Body = TypeVar("Body", bound=Struct)


def _json(data: Any, status: int = 200) -> Response:
    return json_response(data, status, {"Cache-Control": "no-store"})


def _refused(error: ProtocolError) -> Response:
    if isinstance(error, TooManyAttempts):
        wait = error.retry_after
        return json_response({"error": error.code, "reason": error.reason, "retry_after": wait},
                             429, {"Retry-After": str(wait)})
    return error_response(STATUS.get(error.code, 400), error.code, error.reason)


def _server(request: Request) -> Server:
    server: Server = request.app.state.server
    return server


class Hashing:
    """Password work in worker threads: ``HASHING_AT_ONCE`` at a time, and at most
    ``HASHING_QUEUE`` requests waiting; more are refused at once rather than queued."""

    def __init__(self) -> None:
        self.running = asyncio.Semaphore(HASHING_AT_ONCE)
        self.waiting = 0

    async def run(self, work: Callable[[], Any]) -> Any:
        """``work``'s result, computed in a worker thread."""
        if self.waiting >= HASHING_QUEUE:
            raise TooManyAttempts(2, "the server is busy checking passwords")
        self.waiting += 1
        try:
            async with self.running:
                return await run_in_threadpool(work)
        finally:
            self.waiting -= 1


async def _slow(request: Request, work: Callable[[], Any]) -> Any:
    """Run ``work`` (password hashing) through the server's :class:`Hashing`."""
    return await _server(request).hashing.run(work)


async def _body(request: Request, kind: type[Body]) -> Body:
    raw = await request.body()
    if len(raw) > MAX_BODY:
        raise ProtocolError("bad_field", f"the body is longer than {MAX_BODY} bytes")
    try:
        return msgspec.json.decode(raw or b"{}", type=kind)
    except msgspec.ValidationError as error:
        raise ProtocolError("bad_field", str(error)) from None
    except msgspec.DecodeError:
        raise ProtocolError("bad_json", "the body is not a JSON object") from None


def _token(request: Request) -> str:
    scheme, _, token = request.headers.get("authorization", "").partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise ProtocolError("bad_token", "send your token as 'Authorization: Bearer TOKEN'")
    return token.strip()


def _player(request: Request) -> tuple[Player, str]:
    token = _token(request)
    player = _server(request).identities.by_token(token)
    if player is None:
        raise ProtocolError("bad_token", "this token is not known (signed out, or deleted)")
    return player, token


def _address(request: Request) -> str:
    return request.client.host if request.client else ""


def _answering(handler: Handler) -> Handler:
    """``handler``, answering a refusal with its code, a failure as ``internal``."""

    @functools.wraps(handler)
    async def refusing(request: Request) -> Response:
        try:
            return await handler(request)
        except ProtocolError as error:
            return _refused(error)

    return answering(refusing)


def _me(player: Player) -> dict[str, Any]:
    return {"player": player.id, "name": player.name, "claimed": player.claimed}


async def account(request: Request) -> Response:
    """``GET /api/account``: who the token's player is."""
    player, _ = _player(request)
    return _json(_me(player))


async def claim(request: Request) -> Response:
    """``POST /api/account/claim``: the guest claims a name with a password."""
    player, _ = _player(request)
    body = await _body(request, Credentials)
    identities = _server(request).identities
    identities.claimable(player, body.name)  # the cheap refusals before any hashing
    digest = await _slow(request, lambda: identities.hash_password(body.password))
    identities.claim(player, body.name, digest)
    event("name_claimed", player=player.id)
    _server(request).lobby.player_changed(player)
    return _json(_me(player))


async def sign_in(request: Request) -> Response:
    """``POST /api/account/sign-in``: a new token for this device."""
    body = await _body(request, Credentials)
    identities, address = _server(request).identities, _address(request)
    identities.throttle(body.name, address)
    try:
        record, rehashed = await _slow(
            request, lambda: identities.check_sign_in(body.name, body.password))
    except ProtocolError:
        identities.failed(body.name, address)
        raise
    player, token = identities.signed_in(record, rehashed)
    event("signed_in", player=player.id)
    return _json({**_me(player), "token": token})


async def sign_out(request: Request) -> Response:
    """``POST /api/account/sign-out``: forget this token, or every token of the player."""
    token = _token(request)
    body = await _body(request, SignOut)
    server = _server(request)
    player = server.identities.by_token(token)
    dropped = set(server.identities.sign_out(token, body.everywhere))
    _close(server, lambda c: c.session.token_digest in dropped)
    if server.lobby.cluster is not None:
        server.lobby.cluster.revoke(dropped)
    event("signed_out", player=player.id if player else None, everywhere=body.everywhere)
    return _json({"ok": True})


async def rename(request: Request) -> Response:
    """``POST /api/account/rename``: a new name (unique if claimed); past matches keep the
    old one."""
    player, _ = _player(request)
    body = await _body(request, Rename)
    server = _server(request)
    if server.lobby.playing(player):
        raise ProtocolError("already_started", "a match of yours is running: your name stays "
                            "until it is over")
    server.identities.rename(player, body.name)
    server.lobby.player_changed(player)
    return _json(_me(player))


async def delete(request: Request) -> Response:
    """``POST /api/account/delete``: the account goes; its matches show a deleted player."""
    player, _ = _player(request)
    body = await _body(request, Delete)
    server = _server(request)
    if player.claimed:
        identities, address = server.identities, _address(request)
        identities.throttle(player.name, address)
        try:
            await _slow(request, lambda: identities.verify(player, body.password))
        except ProtocolError:
            identities.failed(player.name, address)
            raise
    server.identities.delete(player)
    server.lobby.player_changed(player)
    _close(server, lambda c: c.session.known_player is player)
    if server.lobby.cluster is not None:
        server.lobby.cluster.revoke((), player.id)
    event("player_deleted", player=player.id)
    return _json({"ok": True})


def revoked(server: Server, tokens: Iterable[str], player_id: str | None) -> None:
    """Another process of the cluster signed ``tokens`` out, or deleted ``player_id``: the
    same here (``server/cluster.py``)."""
    dropped = set(tokens)
    deleted = server.identities.revoked(dropped, player_id)
    _close(server, lambda c: c.session.token_digest in dropped or (
        deleted is not None and c.session.known_player is deleted))
    if deleted is not None:
        server.lobby.player_changed(deleted)


def _close(server: Server, which: Callable[[Any], bool]) -> None:
    for connection in list(server.connections):
        if which(connection):
            connection.close(SIGNED_OUT, "signed out")


routes = [
    Route("/api/account", _answering(account)),
    Route("/api/account/claim", _answering(claim), methods=["POST"]),
    Route("/api/account/sign-in", _answering(sign_in), methods=["POST"]),
    Route("/api/account/sign-out", _answering(sign_out), methods=["POST"]),
    Route("/api/account/rename", _answering(rename), methods=["POST"]),
    Route("/api/account/delete", _answering(delete), methods=["POST"]),
]
