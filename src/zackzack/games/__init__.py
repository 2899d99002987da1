"""The games, one line each: ``register`` a game's rules package and everything in its
folder comes with it (see :mod:`zackzack.games.registry` and docs/design.md, "How to add a
game")."""

from __future__ import annotations

from zackzack.games import schnelllauf, unter_spannung
from zackzack.games.declarations import Front
from zackzack.games.registry import (
    GAMES,
    REGISTRY,
    Game,
    entry,
    game,
    register,
    registered,
    unregister,
)

__all__ = ["GAMES", "REGISTRY", "Front", "Game", "entry", "game", "register", "registered",
           "unregister"]

register(unter_spannung)
register(schnelllauf)
