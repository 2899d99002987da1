"""Players and the tokens they are known by: guests, claimed names with their password hashes,
sign-ins and sign-outs, renames and deleted accounts."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy import bindparam, delete, insert, select, update
from sqlalchemy.exc import IntegrityError

from zackzack.store.connecting import StoreError, reconnecting
from zackzack.store.database import Database
from zackzack.store.schema import marks, match_players, matches, players, ratings, tokens


@dataclass(frozen=True, slots=True)
class PlayerRecord:
    """A person: public id and name; whether the name is claimed, or the account deleted."""

    id: str
    name: str
    claimed: bool = False
    deleted: bool = False


class NameTaken(StoreError):
    """Another claimed player has a name with the same key."""


def player_record(row: Any) -> PlayerRecord:
    """The player of a row of ``players``."""
    return PlayerRecord(row.id, row.name, claimed=row.name_key is not None,
                        deleted=row.deleted_at is not None)


def _name_clash(error: IntegrityError) -> bool:
    """Whether the write broke the uniqueness of claimed names."""
    return "name_key" in str(error.orig)


class Players(Database):
    """The store's players and their tokens."""

    def find_player(self, player_id: str) -> PlayerRecord | None:
        """The player with this public id, if any (deleted ones too, nameless)."""
        with self.engine.connect() as conn:
            row = conn.execute(select(players).where(players.c.id == player_id)).first()
        return None if row is None else player_record(row)

    def find_token(self, token_hash: str) -> PlayerRecord | None:
        """The (not deleted) player known by the token with this hash, if any."""
        with self.engine.connect() as conn:
            row = conn.execute(select(players).join(tokens, tokens.c.player_id == players.c.id)
                               .where(tokens.c.token_hash == token_hash,
                                      players.c.deleted_at.is_(None))).first()
        return None if row is None else player_record(row)

    def add_player(self, player: PlayerRecord, token_hash: str) -> None:
        """Remember a new player (a guest) by the hash of their token."""
        now = self._ms()
        self._write(insert(players).values(id=player.id, name=player.name, created_at=now),
                    insert(tokens).values(token_hash=token_hash, player_id=player.id,
                                          created_at=now))

    def add_token(self, player_id: str, token_hash: str) -> None:
        """The player is known by one more token (a sign-in)."""
        self._write(insert(tokens).values(token_hash=token_hash, player_id=player_id,
                                          created_at=self._ms()))

    @reconnecting
    def drop_tokens(self, player_id: str, *, keep: str | None = None) -> list[str]:
        """Forget every token of the player but ``keep`` (a hash); the hashes forgotten."""
        where = [tokens.c.player_id == player_id]
        if keep is not None:
            where.append(tokens.c.token_hash != keep)
        with self._writer.begin():
            gone = list(self._writer.execute(select(tokens.c.token_hash).where(*where)
                                             .order_by(tokens.c.token_hash)).scalars())
            self._writer.execute(delete(tokens).where(*where))
        return gone

    def drop_token(self, token_hash: str) -> None:
        """Forget one token (a sign-out)."""
        self._write(delete(tokens).where(tokens.c.token_hash == token_hash))

    def claim(self, player_id: str, name: str, name_key: str, password_hash: str) -> None:
        """The player claims ``name`` (key ``name_key``) with a password (its hash); raises
        ``NameTaken`` if another player's claimed name has that key."""
        self._claiming(update(players).where(players.c.id == player_id).values(
            name=name, name_key=name_key, password_hash=password_hash,
            claimed_at=self._ms()),
            update(ratings).where(ratings.c.player_id == player_id,
                                  ~select(marks.c.player_id).where(
                                      marks.c.player_id == player_id).exists())
            .values(listed=True))

    def _claiming(self, *statements: Any) -> None:
        try:
            self._write(*statements)
        except IntegrityError as error:
            if _name_clash(error):
                raise NameTaken("the name is taken") from None
            raise

    def account(self, name_key: str) -> tuple[PlayerRecord, str] | None:
        """The claimed (not deleted) player whose name has this key, and their password hash."""
        with self.engine.connect() as conn:
            row = conn.execute(select(players).where(players.c.name_key == name_key,
                                                     players.c.deleted_at.is_(None))).first()
        if row is None or row.password_hash is None:
            return None
        return player_record(row), row.password_hash

    def set_password_hash(self, player_id: str, password_hash: str) -> None:
        """Store a new hash of the player's password (a rehash, or a new password)."""
        self._write(update(players).where(players.c.id == player_id)
                    .values(password_hash=password_hash))

    def rename_player(self, player_id: str, name: str, name_key: str | None = None) -> None:
        """Change a player's name (a claimed player's with its new key: ``NameTaken`` if
        another claimed name has it). Past matches keep the old name."""
        values: dict[str, Any] = {"name": name}
        if name_key is not None:
            values["name_key"] = name_key
        self._claiming(update(players).where(players.c.id == player_id).values(**values))

    @reconnecting
    def delete_player(self, player_id: str) -> None:
        """Delete the account: nameless, no claim, no tokens, no ratings; in the seats of their
        past matches the name becomes "" and the seat says ``"deleted": true``."""
        with self._writer.begin():
            conn = self._writer
            conn.execute(update(players).where(players.c.id == player_id).values(
                name="", name_key=None, password_hash=None, deleted_at=self._ms()))
            conn.execute(delete(tokens).where(tokens.c.player_id == player_id))
            conn.execute(delete(ratings).where(ratings.c.player_id == player_id))
            played = conn.execute(
                select(matches.c.id, matches.c.seats)
                .where(matches.c.id.in_(select(match_players.c.match_id)
                                        .where(match_players.c.player_id == player_id)))).all()
            changed = [{"m": match_id, "seats": [
                {**seat, "name": "", "deleted": True} if seat.get("player") == player_id
                else seat for seat in seats]} for match_id, seats in played]
            if changed:
                conn.execute(update(matches).where(matches.c.id == bindparam("m"))
                             .values(seats=bindparam("seats")), changed)

