"""The HTTP API of accounts: claim a name, sign in and out, rename, delete.

A request proves its player with ``Authorization: Bearer TOKEN`` (the token the websocket's
``welcome`` gave). Bodies are small JSON objects, checked by msgspec; every refusal is
``{"error": code, "reason": text}`` and changes nothing. Password hashing runs in worker
threads, at most ``HASHING_AT_ONCE`` at a time, so the tables never wait for it; sign-ins
go before claims, and claims never take more than one of those threads (:class:`Hashing`).
A claim or sign-in that proves the password sets a device cookie (``DEVICE_COOKIE``): the
account then knows that device (``Identities.knows``), and strangers' failures never hold it
back.
"""

from __future__ import annotations

import asyncio
import functools
from collections import deque
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
"""Requests of one kind (sign-ins from known devices or addresses, other sign-ins, claims)
that may wait for a hash; more are refused at once (``too_many_attempts``)."""
CLAIMS_AT_ONCE = 1
"""Hashing threads claims may take at once: the others stay free for sign-ins."""
CLAIMS_QUEUE = 8
"""Claims that may wait for a hash (fewer if ``HASHING_QUEUE`` is lower)."""
LANES = ("owner", "sign_in", "claim")
"""The kinds of password work, first served first: a sign-in from a device or address the
account knows, any other sign-in or password check, a claim."""
DEVICE_COOKIE = "zz_device"
"""The cookie that names a device to the accounts it signed in to (a secret; HttpOnly)."""
DEVICE_DAYS = 400
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
    """Password work in worker threads: ``HASHING_AT_ONCE`` at a time. Each kind of work
    (``LANES``) has its own queue of at most ``HASHING_QUEUE`` requests (claims:
    ``CLAIMS_QUEUE``), more are refused at once rather than queued; a free thread takes the
    first request of the first lane that has one, and claims take at most
    ``CLAIMS_AT_ONCE`` threads. So a flood of claims never delays a sign-in by more than one
    hash, and a flood of strangers' sign-ins never delays the owner's."""

    def __init__(self) -> None:
        self.running = 0
        self.claims_running = 0
        self.inside = dict.fromkeys(LANES, 0)
        """Requests of each lane waiting or running."""
        self._queues: dict[str, deque[asyncio.Future[None]]] = {lane: deque() for lane in LANES}

    @property
    def waiting(self) -> int:
        """Requests waiting or running, all lanes."""
        return sum(self.inside.values())

    def _free(self, lane: str) -> bool:
        return self.running < HASHING_AT_ONCE and (
            lane != "claim" or self.claims_running < CLAIMS_AT_ONCE)

    def _take(self, lane: str) -> None:
        self.running += 1
        self.claims_running += lane == "claim"

    def _release(self, lane: str) -> None:
        self.running -= 1
        self.claims_running -= lane == "claim"
        for next_lane in LANES:  # hand the thread on, first lane first
            queue = self._queues[next_lane]
            while queue and queue[0].done():  # given up while waiting
                queue.popleft()
            if queue and self._free(next_lane):
                self._take(next_lane)
                queue.popleft().set_result(None)
                return

    async def run(self, work: Callable[[], Any], lane: str = "sign_in") -> Any:
        """``work``'s result, computed in a worker thread when ``lane``'s turn comes."""
        cap = min(CLAIMS_QUEUE, HASHING_QUEUE) if lane == "claim" else HASHING_QUEUE
        if self.inside[lane] >= cap:
            raise TooManyAttempts(2, "the server is busy checking passwords")
        self.inside[lane] += 1
        try:
            ahead = any(self._queues[other] for other in LANES[:LANES.index(lane) + 1])
            if ahead or not self._free(lane):
                turn = asyncio.get_running_loop().create_future()
                self._queues[lane].append(turn)
                try:
                    await turn
                except asyncio.CancelledError:
                    if turn.done() and not turn.cancelled():  # given the thread: hand it on
                        self._release(lane)
                    raise
            else:
                self._take(lane)
            try:
                return await run_in_threadpool(work)
            finally:
                self._release(lane)
        finally:
            self.inside[lane] -= 1


async def _slow(request: Request, work: Callable[[], Any], lane: str = "sign_in") -> Any:
    """Run ``work`` (password hashing) through the server's :class:`Hashing`."""
    return await _server(request).hashing.run(work, lane)


def _device(request: Request) -> str | None:
    """The device secret this browser was given (``DEVICE_COOKIE``), if any."""
    found = request.cookies.get(DEVICE_COOKIE)
    return found if found and len(found) <= 64 else None


def _known_device(response: Response, device: str) -> Response:
    """``response`` with the device cookie set to ``device``."""
    response.set_cookie(DEVICE_COOKIE, device, max_age=DEVICE_DAYS * 86_400, path="/api/account",
                        httponly=True, samesite="strict")
    return response


async def read_body(request: Request, kind: type[Body]) -> Body:
    """The request's JSON body as ``kind`` (``bad_field``/``bad_json`` for anything else)."""
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
    """``GET /api/account``: who the token's player is, and their ``mark`` if an operator
    marked them (``zackzack.moderation``: the reason is theirs to read)."""
    from zackzack.moderation import marked

    player, _ = _player(request)
    mark = await run_in_threadpool(marked, _server(request).store, player.id)
    return _json(_me(player) if mark is None else {**_me(player), "mark": mark})


async def claim(request: Request) -> Response:
    """``POST /api/account/claim``: the guest claims a name with a password."""
    player, _ = _player(request)
    body = await read_body(request, Credentials)
    identities, address = _server(request).identities, _address(request)
    identities.claimable(player, body.name)  # the cheap refusals before any hashing
    identities.claim_throttle(player, address)
    shared = _server(request).shared_limits
    try:
        if shared is not None:  # in a cluster: the claims on every process count
            await shared.claim(player.id, address)
        digest = await _slow(request, lambda: identities.hash_password(body.password), "claim")
    finally:
        identities.claim_done(player)
    identities.claim(player, body.name, digest)
    event("name_claimed", player=player.id)
    _server(request).lobby.player_changed(player)
    return _known_device(_json(_me(player)),
                         _remember(request, player, address, _device(request)))


def _remember(request: Request, player: Player, address: str, device: str | None) -> str:
    """``Identities.remember``, on every process of a cluster: the device secret."""
    device = _server(request).identities.remember(player, address, device)
    shared = _server(request).shared_limits
    if shared is not None:
        shared.remember(player.name, address, device)
    return device


async def _throttle(request: Request, name: str, address: str, device: str | None
                    ) -> str | None:
    """``Identities.throttle``, and in a cluster the same for the whole cluster: how the
    account knows the attempt (``Identities.knows``, asked of the cluster too), to be given
    to ``_failed``."""
    identities, shared = _server(request).identities, _server(request).shared_limits
    known = identities.knows(name, device, address)
    if known is None and shared is not None:
        known = await shared.knows(name, device, address)
    identities.throttle(name, address, device, known)
    if shared is not None:
        await shared.throttle(name, address, device, known)
    return known


def _failed(request: Request, name: str, address: str, device: str | None,
            known: str | None) -> None:
    """``Identities.failed``, on every process of a cluster."""
    _server(request).identities.failed(name, address, device, known)
    shared = _server(request).shared_limits
    if shared is not None:
        shared.failed(name, address, device, known)


async def sign_in(request: Request) -> Response:
    """``POST /api/account/sign-in``: a new token for this device."""
    body = await read_body(request, Credentials)
    identities, address, device = _server(request).identities, _address(request), \
        _device(request)
    known = await _throttle(request, body.name, address, device)
    lane = "sign_in" if known is None else "owner"
    try:
        record, rehashed = await _slow(
            request, lambda: identities.check_sign_in(body.name, body.password), lane)
    except ProtocolError:
        _failed(request, body.name, address, device, known)
        raise
    player, token = identities.signed_in(record, rehashed)
    event("signed_in", player=player.id)
    return _known_device(_json({**_me(player), "token": token}),
                         _remember(request, player, address, device))


async def sign_out(request: Request) -> Response:
    """``POST /api/account/sign-out``: forget this token, or every token of the player."""
    token = _token(request)
    body = await read_body(request, SignOut)
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
    body = await read_body(request, Rename)
    server = _server(request)
    server.identities.rename(player, body.name)  # refused while a match of theirs runs
    server.lobby.player_changed(player)
    return _json(_me(player))


async def delete(request: Request) -> Response:
    """``POST /api/account/delete``: the account goes; its matches show a deleted player."""
    player, _ = _player(request)
    body = await read_body(request, Delete)
    server = _server(request)
    if player.claimed:
        identities, address, device = server.identities, _address(request), _device(request)
        known = await _throttle(request, player.name, address, device)
        try:
            await _slow(request, lambda: identities.verify(player, body.password))
        except ProtocolError:
            _failed(request, player.name, address, device, known)
            raise
    server.identities.delete(player)
    server.replays.clear()  # its name leaves the replays too
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
        server.replays.clear()
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
