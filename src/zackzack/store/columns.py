"""Kinds of column, for ``schema`` and the migrations: a type and its constraints, named once.

A table lists its columns as names with their kinds (``columns``); the migrations build their
tables from the same kinds, so a kind never changes once a revision uses it (a wider id is a
new kind, or the revision would build another table than it did).

>>> [(c.name, str(c.type), c.primary_key, c.nullable)
...  for c in columns(id=ID.key, name=NAME, deleted_at=BIG.null)]
[('id', 'VARCHAR(16)', True, False), ('name', 'VARCHAR(64)', False, False), \
('deleted_at', 'BIGINT', False, True)]
>>> [(c.name, sorted(k.target_fullname for k in c.foreign_keys)) for c in columns(by=PLAYER)]
[('by', ['players.id'])]
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    Column,
    Float,
    ForeignKey,
    Integer,
    String,
    false,
)
from sqlalchemy.types import TypeEngine


@dataclass(frozen=True, slots=True)
class Kind:
    """A column without its name: its type, whether it may be NULL, and its constraints."""

    type: TypeEngine[Any] | type[TypeEngine[Any]]
    nullable: bool = False
    primary_key: bool = False
    refers: str | None = None
    """The column it is a foreign key to (``players.id``)."""
    index: bool = False
    unique: bool = False
    autoincrement: bool = False
    server_default: Any = None

    @property
    def key(self) -> Kind:
        """This kind as (part of) the table's primary key."""
        return replace(self, primary_key=True)

    @property
    def null(self) -> Kind:
        """This kind, but it may be NULL."""
        return replace(self, nullable=True)

    @property
    def indexed(self) -> Kind:
        """This kind with an index of its own (named ``ix_TABLE_COLUMN``)."""
        return replace(self, index=True)

    def to(self, column: str) -> Kind:
        """This kind as a foreign key to ``column`` (``table.column``)."""
        return replace(self, refers=column)

    def column(self, name: str) -> Column[Any]:
        """The column ``name`` of this kind."""
        extra: dict[str, Any] = {}
        if self.nullable or not self.primary_key:  # a key: NOT NULL unsaid, as before
            extra["nullable"] = self.nullable
        if self.index:
            extra["index"] = True
        if self.unique:
            extra["unique"] = True
        if self.autoincrement:
            extra["autoincrement"] = True
        if self.server_default is not None:
            extra["server_default"] = self.server_default
        refers = (ForeignKey(self.refers),) if self.refers else ()
        return Column(name, self.type, *refers, primary_key=self.primary_key, **extra)


def columns(**kinds: Kind) -> list[Column[Any]]:
    """A column for each name with its kind, in the order given."""
    return [kind.column(name) for name, kind in kinds.items()]


def text(length: int) -> Kind:
    """Text of at most ``length`` characters."""
    return Kind(String(length))


ID = text(16)
"""A public id (``p_…`` for a player) or a table's code; ``PLAYER`` and ``MATCH`` refer to one."""
PLAYER = ID.to("players.id")
MATCH = ID.to("matches.id")
NAME = text(64)
"""A player's name or its key, a token's hash, who did something."""
GAME = text(32)
POOL = text(8)
INT = Kind(Integer)
SERIAL = Kind(Integer, primary_key=True, autoincrement=True)
"""The order rows were written in: the primary key, counted by the database."""
BIG = Kind(BigInteger)
"""Times (milliseconds) and seeds."""
REAL = Kind(Float)
DATA = Kind(JSON)
FLAG = Kind(Boolean)
FLAG_OFF = Kind(Boolean, server_default=false())
"""A flag whose rows written before it existed read false."""
