"""Who is who: a private token proves a player; the public id and name are what others see.

Tokens come from ``secrets``, are stored only as their SHA-256 hash, compared by that hash,
and never logged or sent to anyone but their owner. A guest has one token; a player who
claimed their name with a password gets one more at each sign-in, on each device.
Passwords are hashed with Argon2id (``argon2-cffi``) and never kept or logged in clear;
sign-in attempts are limited per name and per address, claims per address and per player.

A stranger's failures never lock an owner out: an account remembers the devices (a secret
the browser keeps in a cookie, given at each claim and sign-in) and the addresses (IPv6: the
/64) it was claimed or signed in from. A sign-in from a known device is limited only by that
device's own failures; one from a known address only by the failures from that address, not
by the name's failures from everywhere (docs/protocol.md, *Accounts and ratings*).
"""

from __future__ import annotations

import hashlib
import ipaddress
import math
import secrets
from collections import OrderedDict
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import cached_property, partial
from typing import TypeVar

import argon2
from argon2.exceptions import InvalidHashError, VerificationError

from zackzack.server.limits import AddressBuckets, Limits, client_key
from zackzack.server.protocol import NAME_CHARS, ProtocolError, clean_text
from zackzack.store import NameTaken, PlayerRecord, Store
from zackzack.words.names import KEY_CHARS, mixed_scripts, name_key, name_problem

PASSWORD_CHARS = (8, 128)
"""The shortest and the longest password accepted."""
DELETED_NAME = "—"
"""What a deleted player's seat shows while a live table still holds it."""
KNOWN_PER_ACCOUNT = 16
"""Devices and addresses remembered per account (the most recent)."""
KNOWN_ACCOUNTS = 100_000
"""Accounts whose devices and addresses are remembered (the most recently used)."""
DAY = 86_400.0
_V = TypeVar("_V")


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


def _mark(address_or_device: str) -> str:
    """What the matchmaker compares of an address (its ``client_key``; "" for none or
    a loopback address) or a ``device:…`` mark: a short hash, so that the cluster's queue
    holds no address."""
    if not address_or_device.startswith("device:"):
        try:
            found = ipaddress.ip_address(address_or_device)
        except ValueError:
            pass
        else:
            mapped = getattr(found, "ipv4_mapped", None)
            if found.is_loopback or (mapped is not None and mapped.is_loopback):
                return ""
        address_or_device = client_key(address_or_device)
    if not address_or_device:
        return ""
    return hashlib.sha256(address_or_device.encode()).hexdigest()[:16]


def _keep_last(memory: OrderedDict[str, OrderedDict[str, _V]], key: str, marks: Iterable[str],
               value: _V) -> None:
    """Put ``marks`` (with ``value``) last among ``memory[key]``'s and ``key`` last in
    ``memory``; the oldest go beyond ``KNOWN_PER_ACCOUNT`` marks and ``KNOWN_ACCOUNTS`` keys.

    >>> memory = OrderedDict(a=OrderedDict(), b=OrderedDict(x=None))
    >>> _keep_last(memory, "a", ["y", "x"], None)
    >>> list(memory), list(memory["a"])
    (['b', 'a'], ['y', 'x'])
    """
    kept = memory.pop(key, None) or OrderedDict()
    memory[key] = kept
    for mark in marks:
        kept.pop(mark, None)
        kept[mark] = value
    while len(kept) > KNOWN_PER_ACCOUNT:
        kept.popitem(last=False)
    while len(memory) > KNOWN_ACCOUNTS:
        memory.popitem(last=False)


def clean_name(name: str) -> str:
    """``name`` tidied (``clean_text``), if it shows every character it has
    (``names.name_problem``); ``bad_field`` otherwise."""
    name = clean_text(name, NAME_CHARS, "a name")
    problem = name_problem(name)
    if problem is not None:
        raise ProtocolError("bad_field", f"a name shows every character it has; this one has "
                            f"{problem}")
    return name


def _key(name: str) -> str:
    """The key a claimed ``name`` is unique by (``bad_field`` if it is too long to store, or
    mixes scripts)."""
    if mixed_scripts(name):
        raise ProtocolError("bad_field", "a claimed name keeps to one script (or Latin with "
                            "Chinese, Japanese or Korean writing)")
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
        clock = self._time = time or store.wall
        self.apart_seconds = limits.rated_apart_days * DAY
        """How long a device or address ties two accounts together for the matchmaker."""
        buckets = partial(AddressBuckets, time=clock)
        self._by_address = buckets(limits.sign_ins_per_address_rate, limits.sign_ins_per_address)
        """Sign-in attempts per address."""
        self._by_name_here = buckets(limits.sign_ins_per_name_rate, limits.sign_ins_per_name)
        """Failed sign-ins per name (key) and address."""
        self._by_name = buckets(limits.sign_ins_per_name_anywhere_rate,
                                limits.sign_ins_per_name_anywhere)
        """Failed sign-ins per name, from anywhere."""
        self._claims_here = buckets(limits.claims_per_address_rate, limits.claims_per_address)
        """Claims that reached the hash, per address."""
        self._claims_by = buckets(limits.claims_per_player_rate, limits.claims_per_player)
        """Claims that reached the hash, per player."""
        self._renames = buckets(limits.renames_per_player_rate, limits.renames_per_player)
        """Renames per player."""
        self.claiming: set[str] = set()
        """Players whose claim is being hashed now (one at a time each)."""
        self._known: OrderedDict[str, OrderedDict[str, None]] = OrderedDict()
        """Per name key of a claimed player: the devices (``device:HASH``) and addresses
        it was claimed or signed in from, the most recent last."""
        self._seen: OrderedDict[str, OrderedDict[str, float]] = OrderedDict()
        """Per player id: the devices and addresses (hashed marks, ``_mark``) it was seen
        on, with when last; the most recently seen player last, each player's most recent
        mark last (for the matchmaker: ``marks``)."""
        self.playing: Callable[[Player], bool] = lambda _player: False
        """Whether a match of the player's is running (the lobby's ``playing``): their name
        stays until it is over, whatever asks to change it."""

    @cached_property
    def _dummy(self) -> str:
        """Verified against when a name is unknown, so that the answer takes as long; made at
        the first such sign-in, not at start-up (a hash is ~0.1 s of CPU)."""
        return self.hasher.hash(secrets.token_urlsafe(16))

    # Who is this -------------------------------------------------------------------------

    def hello(self, token: str | None, name: str,
              admit: Callable[[], object] = lambda: None) -> tuple[Player, str]:
        """The player with ``token`` (a new one if unknown or ``None``) and their token; the
        player counts as online (once more) until :meth:`gone`. ``admit`` is called before a
        new player is made and may refuse it (``ProtocolError``: nothing is made). A guest's
        ``name`` becomes theirs unless it passes for a claimed player's; a claimed player's
        name changes only by ``rename``."""
        name = clean_name(name)
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
        elif name and name != player.name and not player.claimed and not self.playing(player) \
                and self._renames_left(player) and not self._claimed_by_other(name, player):
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

    def _renames_left(self, player: Player) -> bool:
        """Count a rename of ``player``: whether they may (``Limits.renames_per_player``)."""
        return not self._renames.burst or self._renames.take(player.id)

    def rename(self, player: Player, name: str) -> str:
        """Call ``player`` ``name`` (checked and tidied as at hello; empty is refused). A name
        that passes for a claimed player's is ``name_taken``; a claimed player's new name is
        unique in the same way. Not while a match of theirs runs (``already_started``), nor
        more often than ``Limits.renames_per_player`` allows (``rate_limited``)."""
        name = clean_name(name)
        if not name:
            raise ProtocolError("bad_field", f"a name is 1 to {NAME_CHARS} printable characters")
        if name == player.name:
            return name
        if self.playing(player):
            raise ProtocolError("already_started", "a match of yours is running: your name "
                                "stays until it is over")
        if not self._renames_left(player):
            raise ProtocolError("rate_limited", "too many renames; try again in "
                                f"{math.ceil(self._renames.wait(player.id))} s")
        if self._claimed_by_other(name, player):
            raise ProtocolError("name_taken", "that name (or one that looks like it) is taken")
        try:
            self.store.rename_player(player.id, name, _key(name) if player.claimed else None)
        except NameTaken:
            raise ProtocolError("name_taken", "that name (or one that looks like it) is taken") \
                from None
        if player.claimed:
            self._move_known(name_key(player.name), name_key(name))
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
        name = clean_name(name)
        if not name:
            raise ProtocolError("bad_field", f"a name is 1 to {NAME_CHARS} printable characters")
        if name != player.name and self.playing(player):
            raise ProtocolError("already_started", "a match of yours is running: claim your "
                                "name under the one you play with, or once it is over")
        if self._claimed_by_other(name, player):
            raise ProtocolError("name_taken", "that name (or one that looks like it) is taken")
        _key(name)
        return name

    def claim_throttle(self, player: Player, address: str) -> None:
        """Count a claim that is about to be hashed, or refuse it (``too_many_attempts``):
        one at a time per player, and at most ``Limits.claims_per_*`` per address (IPv6: its
        /64) and per player. The caller calls :meth:`claim_done` after the hash."""
        if player.id in self.claiming:
            raise TooManyAttempts(1, "a claim of yours is being checked")
        here = client_key(address)
        for buckets, who in ((self._claims_here, here), (self._claims_by, player.id)):
            if who and buckets.burst and not buckets.take(who):
                raise TooManyAttempts(math.ceil(buckets.wait(who)), "too many claims")
        self.claiming.add(player.id)

    def claim_done(self, player: Player) -> None:
        """The claim's hash (from :meth:`claim_throttle`) is done, or failed."""
        self.claiming.discard(player.id)

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

    # Who may try how often -----------------------------------------------------------------

    def knows(self, name: str, device: str | None, address: str) -> str | None:
        """How the account called ``name`` knows this attempt: ``"device"`` (a device
        secret it was given), ``"address"`` (an address it signed in from), or ``None``."""
        marks = self._known.get(name_key(name))
        if not marks:
            return None
        if device and f"device:{token_hash(device)}" in marks:
            return "device"
        here = client_key(address)
        return "address" if here and here in marks else None

    def remember(self, player: Player, address: str, device: str | None = None) -> str:
        """``player`` proved their password from ``address``: remember it and the device
        secret (``device``, the one the device had, or a new one; returned: the caller gives
        it to the device) for their account. The account moves to the end of the memory
        (the least recently used go first, beyond ``KNOWN_ACCOUNTS``). A device keeps its
        secret whichever account signs in on it, so the matchmaker sees two accounts of one
        device (``marks``)."""
        device = device or secrets.token_urlsafe(24)
        new = [mark for mark in (client_key(address), f"device:{token_hash(device)}") if mark]
        _keep_last(self._known, name_key(player.name), new, None)
        self.seen(player, address, device)
        return device

    def seen(self, player: Player, address: str, device: str | None = None) -> None:
        """``player`` is on ``address`` (and ``device``) now: remember it for ``marks``
        (a loopback address, the server's own, tells nothing and is not remembered). The
        player moves to the end of the memory (the least recently seen go first, beyond
        ``KNOWN_ACCOUNTS``); each keeps its ``KNOWN_PER_ACCOUNT`` most recent marks."""
        now = self._time()
        new = [mark for mark in (_mark(address),
                                 _mark(f"device:{token_hash(device)}") if device else "") if mark]
        if new or self._seen.get(player.id):  # else nothing to remember: nobody goes for it
            _keep_last(self._seen, player.id, new, now)

    def marks(self, player: Player, address: str = "") -> frozenset[str]:
        """The devices and addresses (hashed) ``player`` was seen on within
        ``Limits.rated_apart_days``, ``address`` (where they are now) among them: the
        matchmaker never pairs two players who share one (empty when the limit is 0)."""
        if not self.apart_seconds:
            return frozenset()
        self.seen(player, address)
        since = self._time() - self.apart_seconds
        return frozenset(mark for mark, at in self._seen.get(player.id, {}).items()
                         if at >= since)

    def _move_known(self, old: str, new: str) -> None:
        marks = self._known.pop(old, None)
        if marks is not None and old != new:
            self._known[new] = marks

    def _buckets(self, name: str, address: str, device: str | None, known: str | None = None
                 ) -> list[tuple[AddressBuckets, str]]:
        """The failure buckets an attempt at ``name`` answers to: a known device only its
        own; a known address its own (not the name's from everywhere); else both. ``known``:
        how another process of the cluster knows the attempt, if this one does not."""
        key = name_key(clean_text(name, NAME_CHARS * 4, "a name"))
        known = self.knows(name, device, address) or known
        if known == "device" and device:
            return [(self._by_name_here, f"{key}\ndevice:{token_hash(device)}")]
        here = [(self._by_name_here, f"{key}\n{client_key(address)}")]
        return here if known == "address" else [*here, (self._by_name, key)]

    def throttle(self, name: str, address: str, device: str | None = None,
                 known: str | None = None) -> None:
        """Count a sign-in attempt from ``address``, and refuse it (``too_many_attempts``)
        when that address tried too often, or when ``name`` failed too often from there or
        from anywhere. Only failures count against a name (:meth:`failed`); and an attempt
        from a device or an address the account knows (:meth:`knows`, or ``known``: how
        another process of the cluster knows it) answers only to the failures from there, so
        no stranger can lock its owner out."""
        address_key = client_key(address)
        if (self.knows(name, device, address) or known) != "device" and address_key \
                and self._by_address.burst and not self._by_address.take(address_key):
            raise TooManyAttempts(math.ceil(self._by_address.wait(address_key)))
        for buckets, who in self._buckets(name, address, device, known):
            wait = buckets.wait(who) if buckets.burst else 0
            if wait > 0:
                raise TooManyAttempts(math.ceil(wait))

    def failed(self, name: str, address: str, device: str | None = None,
               known: str | None = None) -> None:
        """A wrong password for ``name`` from ``address`` (and ``device``): it counts against
        the name there (and from anywhere, unless the account knows the device or address,
        or ``known`` says another process of the cluster does)."""
        for buckets, who in self._buckets(name, address, device, known):
            if buckets.burst:
                buckets.take(who)

    def prune(self) -> None:
        """Forget the attempt counts that are full again."""
        for buckets in (self._by_address, self._by_name_here, self._by_name, self._claims_here,
                        self._claims_by, self._renames):
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
        if player.claimed:
            self._known.pop(name_key(player.name), None)
        self._seen.pop(player.id, None)
        for digest in [d for d, p in self._tokens.items() if p is player]:
            del self._tokens[digest]
        player.name, player.claimed, player.deleted = DELETED_NAME, False, True
