"""The pure rules of both games; ``GAMES`` maps each game's name to its module."""

from __future__ import annotations

from zackzack.games import schnelllauf, unter_spannung
from zackzack.games.base import Rules

GAMES: dict[str, Rules] = {
    unter_spannung.INFO.name: unter_spannung,
    schnelllauf.INFO.name: schnelllauf,
}


def game(name: str) -> Rules:
    """The rules module of the game called ``name`` (``unter-spannung``, ``schnelllauf``)."""
    try:
        return GAMES[name]
    except KeyError:
        raise ValueError(f"unknown game {name!r}; choose one of {', '.join(GAMES)}") from None
