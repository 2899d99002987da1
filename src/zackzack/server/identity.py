"""Who is who: a private token proves a player; the public id and name are what others see.

Tokens come from ``secrets``, are stored only as their SHA-256 hash, compared with
``hmac.compare_digest``, and never logged or sent to anyone but their owner.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Callable
from dataclasses import dataclass

from zackzack.server.protocol import NAME_CHARS, ProtocolError, clean_text
from zackzack.store import PlayerRecord, Store


@dataclass(slots=True, eq=False)
class Player:
    """A person known to the server; ``name`` may change, ``id`` never does."""

    id: str
    name: str


def token_hash(token: str) -> str:
    """The hash under which a token is stored."""
    return hashlib.sha256(token.encode()).hexdigest()


class Identities:
    """The players, cached while the server runs; a token is ``<public id>.<secret>``."""

    def __init__(self, store: Store, connections_per_player: int = 0) -> None:
        self.store = store
        self.connections_per_player = connections_per_player
        self.online: dict[Player, int] = {}
        self._players: dict[str, tuple[Player, str]] = {}

    def hello(self, token: str | None, name: str,
              admit: Callable[[], object] = lambda: None) -> tuple[Player, str]:
        """The player with ``token`` (a new one if unknown or ``None``) and their token; the
        player counts as online (once more) until :meth:`gone`. ``admit`` is called before a
        new player is made and may refuse it (``ProtocolError``: nothing is made)."""
        name = clean_text(name, NAME_CHARS, "a name")
        player = self._find(token) if token else None
        if player is not None and 0 < self.connections_per_player <= self.online.get(player, 0):
            raise ProtocolError("too_many_connections", f"you are connected "
                                f"{self.connections_per_player} times already; close one")
        if player is None or token is None:
            admit()
            record = PlayerRecord("p_" + secrets.token_urlsafe(6),
                                  name or f"Gast {secrets.randbelow(9000) + 1000}")
            token = f"{record.id}.{secrets.token_urlsafe(32)}"
            self.store.add_player(record, token_hash(token))
            player = Player(record.id, record.name)
            self._players[player.id] = (player, token_hash(token))
        elif name and name != player.name:
            self.store.rename_player(player.id, name)
            player.name = name
        self.online[player] = self.online.get(player, 0) + 1
        return player, token

    def rename(self, player: Player, name: str) -> str:
        """Call ``player`` ``name`` (checked and tidied as at hello; empty is refused)."""
        name = clean_text(name, NAME_CHARS, "a name")
        if not name:
            raise ProtocolError("bad_field", f"a name is 1 to {NAME_CHARS} printable characters")
        if name != player.name:
            self.store.rename_player(player.id, name)
            player.name = name
        return name

    def gone(self, player: Player) -> None:
        """One connection of ``player`` closed."""
        left = self.online.pop(player, 1) - 1
        if left:
            self.online[player] = left

    def known(self, player_id: str) -> Player | None:
        """The player with public id ``player_id``, if the store knows them."""
        if player_id not in self._players:
            found = self.store.find_player(player_id)
            if found is None:
                return None
            record, digest = found
            self._players[player_id] = (Player(record.id, record.name), digest)
        return self._players[player_id][0]

    def _find(self, token: str) -> Player | None:
        """The token's player: looked up by the public part, proved by the secret one."""
        player_id = token.partition(".")[0]
        if self.known(player_id) is None:
            return None
        player, digest = self._players[player_id]
        return player if hmac.compare_digest(digest, token_hash(token)) else None
