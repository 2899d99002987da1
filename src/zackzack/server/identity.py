"""Who is who: a private token proves a player; the public id and name are what others see.

Tokens come from ``secrets``, are stored only as their SHA-256 hash, compared by that hash,
and never logged or sent to anyone but their owner. A guest has one token; a player who
claimed their name with a password gets one more at each sign-in, on each device.
Passwords are hashed with Argon2id (``argon2-cffi``) and never kept or logged in clear;
sign-in attempts are limited per name and per address.
"""

from __future__ import annotations

import hashlib
import math
import secrets
from collections.abc import Callable, Iterable
from dataclasses import dataclass

import argon2
from argon2.exceptions import InvalidHashError, VerificationError

from zackzack.names import KEY_CHARS, name_key
from zackzack.server.limits import AddressBuckets, Limits, client_key
from zackzack.server.protocol import NAME_CHARS, ProtocolError, clean_text
from zackzack.store import NameTaken, PlayerRecord, Store

PASSWORD_CHARS = (8, 128)
"""The shortest and the longest password accepted."""
DELETED_NAME = "—"
"""What a deleted player's seat shows while a live table still holds it."""


@dataclass(slots=True, eq=False)
class Player:
    """A person known to the server; ``name`` may change, ``id`` never does."""

    id: str
    name: str
    claimed: bool = False
    """The name is theirs (with a password): unique, and they can sign in elsewhere."""
    deleted: bool = False
    """The account was deleted (live tables still seat them, under a dash)."""


def token_hash(token: str) -> str:
    """The hash under which a token is stored."""
    return hashlib.sha256(token.encode()).hexdigest()


def new_token(player_id: str) -> str:
    """A fresh private token of ``player_id``: ``<public id>.<secret>``."""
    return f"{player_id}.{secrets.token_urlsafe(32)}"


def check_password(password: str) -> str:
    """``password`` if its length is acceptable, else ``ProtocolError`` (``bad_field``)."""
    low, high = PASSWORD_CHARS
    if not low <= len(password) <= high:
        raise ProtocolError("bad_field", f"a password is {low} to {high} characters")
    return password


class TooManyAttempts(ProtocolError):
    """Sign-in attempts beyond the limits; ``retry_after`` seconds until the next one."""

    def __init__(self, retry_after: int, why: str = "too many sign-in attempts") -> None:
        super().__init__("too_many_attempts", f"{why}; try again in {retry_after} s")
        self.retry_after = retry_after


def _key(name: str) -> str:
    """The key a claimed ``name`` is unique by (``bad_field`` if it is too long to store)."""
    key = name_key(name)
    if key.startswith("p_"):
        raise ProtocolError("bad_field", "a name may not look like a player's id (p_…)")
    if len(key) > KEY_CHARS:
        raise ProtocolError("bad_field", "this name is too long once its characters are "
                            "written plainly; choose a simpler one")
    return key


class Identities:
    """The players, cached while the server runs, and their accounts."""

    def __init__(self, store: Store, connections_per_player: int = 0,
                 limits: Limits = Limits(), time: Callable[[], float] | None = None,
                 hasher: argon2.PasswordHasher | None = None, cache_tokens: bool = True) -> None:
        self.store = store
        self.cache_tokens = cache_tokens
        """Keep the tokens seen (a single server); in a cluster another process may sign one
        out at any time, so each is looked up in the store."""
        self.connections_per_player = connections_per_player
        self.online: dict[Player, int] = {}
        self.hasher = hasher or argon2.PasswordHasher()
        self._players: dict[str, Player] = {}
        self._tokens: dict[str, Player] = {}
        """Token hashes seen while the server runs, with their player."""
        clock = time or store.wall
        self._by_address = AddressBuckets(limits.sign_ins_per_address_rate,
                                          limits.sign_ins_per_address, clock)
        """Sign-in attempts per address."""
        self._by_name_here = AddressBuckets(limits.sign_ins_per_name_rate,
                                            limits.sign_ins_per_name, clock)
        """Failed sign-ins per name (key) and address."""
        self._by_name = AddressBuckets(limits.sign_ins_per_name_anywhere_rate,
                                       limits.sign_ins_per_name_anywhere, clock)
        """Failed sign-ins per name, from anywhere."""
        self._dummy = self.hasher.hash(secrets.token_urlsafe(16))
        """Verified against when a name is unknown, so that the answer takes as long."""

    # Who is this -------------------------------------------------------------------------

    def hello(self, token: str | None, name: str,
              admit: Callable[[], object] = lambda: None) -> tuple[Player, str]:
        """The player with ``token`` (a new one if unknown or ``None``) and their token; the
        player counts as online (once more) until :meth:`gone`. ``admit`` is called before a
        new player is made and may refuse it (``ProtocolError``: nothing is made). A guest's
        ``name`` becomes theirs unless it passes for a claimed player's; a claimed player's
        name changes only by ``rename``."""
        name = clean_text(name, NAME_CHARS, "a name")
        player = self.by_token(token) if token else None
        if player is not None and 0 < self.connections_per_player <= self.online.get(player, 0):
            raise ProtocolError("too_many_connections", f"you are connected "
                                f"{self.connections_per_player} times already; close one")
        if player is None or token is None:
            admit()
            if name and self._claimed_by_other(name, None):
                name = ""
            record = PlayerRecord("p_" + secrets.token_urlsafe(6),
                                  name or f"Gast {secrets.randbelow(9000) + 1000}")
            token = new_token(record.id)
            self.store.add_player(record, token_hash(token))
            player = self._players[record.id] = Player(record.id, record.name)
            self._tokens[token_hash(token)] = player
        elif name and name != player.name and not player.claimed \
                and not self._claimed_by_other(name, player):
            self.store.rename_player(player.id, name)
            player.name = name
        self.online[player] = self.online.get(player, 0) + 1
        return player, token

    def by_token(self, token: str) -> Player | None:
        """The player whose token this is, if it is one."""
        digest = token_hash(token)
        player = self._tokens.get(digest) if self.cache_tokens else None
        if player is None:
            record = self.store.find_token(digest)
            if record is None or record.deleted:
                return None
            player = self._tokens[digest] = self._cached(record)
        return player

    def known(self, player_id: str) -> Player | None:
        """The player with public id ``player_id``, if the store knows them."""
        if player_id not in self._players:
            record = self.store.find_player(player_id)
            if record is None:
                return None
            self._cached(record)
        return self._players[player_id]

    def _cached(self, record: PlayerRecord) -> Player:
        player = self._players.get(record.id)
        if player is None:
            player = self._players[record.id] = Player(record.id, record.name, record.claimed)
        return player

    def gone(self, player: Player) -> None:
        """One connection of ``player`` closed."""
        left = self.online.pop(player, 1) - 1
        if left:
            self.online[player] = left

    # Names --------------------------------------------------------------------------------

    def _claimed_by_other(self, name: str, player: Player | None) -> bool:
        found = self.store.account(name_key(name))
        return found is not None and (player is None or found[0].id != player.id)

    def rename(self, player: Player, name: str) -> str:
        """Call ``player`` ``name`` (checked and tidied as at hello; empty is refused). A name
        that passes for a claimed player's is ``name_taken``; a claimed player's new name is
        unique in the same way."""
        name = clean_text(name, NAME_CHARS, "a name")
        if not name:
            raise ProtocolError("bad_field", f"a name is 1 to {NAME_CHARS} printable characters")
        if name == player.name:
            return name
        if self._claimed_by_other(name, player):
            raise ProtocolError("name_taken", "that name (or one that looks like it) is taken")
        try:
            self.store.rename_player(player.id, name, _key(name) if player.claimed else None)
        except NameTaken:
            raise ProtocolError("name_taken", "that name (or one that looks like it) is taken") \
                from None
        player.name = name
        return name

    # Accounts ------------------------------------------------------------------------------
    # Hashing and verifying passwords is slow: the callers run those methods (marked "slow")
    # in worker threads, and only those; every write to the store stays on the event loop.

    def hash_password(self, password: str) -> str:
        """The Argon2id hash of an acceptable ``password``. Slow."""
        return self.hasher.hash(check_password(password))

    def claimable(self, player: Player, name: str) -> str:
        """``name`` tidied, if ``player`` may claim it now (nothing is changed)."""
        if player.claimed:
            raise ProtocolError("already_claimed", f"you have claimed the name {player.name!r}")
        name = clean_text(name, NAME_CHARS, "a name")
        if not name:
            raise ProtocolError("bad_field", f"a name is 1 to {NAME_CHARS} printable characters")
        _key(name)
        if self._claimed_by_other(name, player):
            raise ProtocolError("name_taken", "that name (or one that looks like it) is taken")
        return name

    def claim(self, player: Player, name: str, digest: str) -> None:
        """Make ``name`` (checked by :meth:`claimable`) ``player``'s own, with the password
        hash ``digest``; their token, matches and ratings stay theirs."""
        name = self.claimable(player, name)
        try:
            self.store.claim(player.id, name, _key(name), digest)
        except NameTaken:
            raise ProtocolError("name_taken", "that name (or one that looks like it) is taken") \
                from None
        player.name, player.claimed = name, True

    def throttle(self, name: str, address: str) -> None:
        """Count a sign-in attempt from ``address``, and refuse it (``too_many_attempts``)
        when that address tried too often, or when ``name`` failed too often from there or
        from anywhere. Only failures count against a name (:meth:`failed`), so nobody can
        lock its owner out with a guess now and then from elsewhere."""
        key, address = name_key(clean_text(name, NAME_CHARS * 4, "a name")), client_key(address)
        if address and self._by_address.burst and not self._by_address.take(address):
            raise TooManyAttempts(math.ceil(self._by_address.wait(address)))
        for buckets, who in ((self._by_name_here, f"{key}\n{address}"), (self._by_name, key)):
            wait = buckets.wait(who) if buckets.burst else 0
            if wait > 0:
                raise TooManyAttempts(math.ceil(wait))

    def failed(self, name: str, address: str) -> None:
        """A wrong password for ``name`` from ``address``: it counts against the name."""
        key, address = name_key(clean_text(name, NAME_CHARS * 4, "a name")), client_key(address)
        for buckets, who in ((self._by_name_here, f"{key}\n{address}"), (self._by_name, key)):
            if buckets.burst:
                buckets.take(who)

    def prune(self) -> None:
        """Forget the attempt counts that are full again."""
        for buckets in (self._by_address, self._by_name_here, self._by_name):
            buckets.prune()

    def check_sign_in(self, name: str, password: str) -> tuple[PlayerRecord, str | None]:
        """The claimed player called ``name`` if ``password`` is theirs (``wrong_password``
        otherwise, for an unknown name too, after the same work), and a new hash of the
        password when the hasher's settings changed since it was made. Slow; reads only."""
        name = clean_text(name, NAME_CHARS, "a name")
        found = self.store.account(name_key(name)) if name else None
        record, digest = found if found is not None else (None, self._dummy)
        try:
            self.hasher.verify(digest, password)
        except (VerificationError, InvalidHashError):
            record = None
        if record is None:
            raise ProtocolError("wrong_password", "the name or the password is wrong")
        return record, self.hasher.hash(password) if self.hasher.check_needs_rehash(digest) \
            else None

    def signed_in(self, record: PlayerRecord, rehashed: str | None) -> tuple[Player, str]:
        """The player of ``record`` (their password checked) and a new token for this
        device."""
        if rehashed is not None:
            self.store.set_password_hash(record.id, rehashed)
        player = self._cached(record)
        player.name, player.claimed = record.name, True
        token = new_token(player.id)
        self.store.add_token(player.id, token_hash(token))
        self._tokens[token_hash(token)] = player
        return player, token

    def sign_out(self, token: str, everywhere: bool) -> list[str]:
        """Forget ``token`` (``everywhere``: every token of its player); the hashes dropped."""
        player = self.by_token(token)
        if player is None:
            raise ProtocolError("bad_token", "this token is not known (signed out already?)")
        digest = token_hash(token)
        if everywhere:
            dropped = self.store.drop_tokens(player.id)
        else:
            self.store.drop_token(digest)
            dropped = [digest]
        for gone in dropped:
            self._tokens.pop(gone, None)
        return dropped

    def verify(self, player: Player, password: str) -> None:
        """Raise ``wrong_password`` unless ``password`` is claimed ``player``'s. Slow; reads
        only."""
        found = self.store.account(name_key(player.name)) if player.claimed else None
        try:
            if found is None or found[0].id != player.id:
                raise VerificationError
            self.hasher.verify(found[1], password)
        except (VerificationError, InvalidHashError):
            raise ProtocolError("wrong_password", "the password is wrong") from None

    def revoked(self, digests: Iterable[str], player_id: str | None = None) -> Player | None:
        """Another process signed these token hashes out (or deleted ``player_id``): forget
        them here too, as ``sign_out`` and ``delete`` do; the deleted player, if known here."""
        for digest in digests:
            self._tokens.pop(digest, None)
        player = self._players.get(player_id) if player_id is not None else None
        if player is not None:
            for digest in [d for d, p in self._tokens.items() if p is player]:
                del self._tokens[digest]
            player.name, player.claimed, player.deleted = DELETED_NAME, False, True
        return player

    def delete(self, player: Player) -> None:
        """Delete ``player``'s account: name, password and tokens gone; past matches show a
        neutral deleted player; live tables show a dash until they close."""
        self.store.delete_player(player.id)
        for digest in [d for d, p in self._tokens.items() if p is player]:
            del self._tokens[digest]
        player.name, player.claimed, player.deleted = DELETED_NAME, False, True
