"""Unter Spannung's own refusals (the shared ones are ``games/errors.py``); their codes are
stable and documented in docs/protocol.md."""

from __future__ import annotations

from zackzack.games.errors import IllegalAction


class EmptyDrawPile(IllegalAction):
    """Drawing from a draw pile that has no cards left."""


REFUSALS: tuple[type[IllegalAction], ...] = (EmptyDrawPile,)
"""The game's own refusal classes (``Game.refusals``)."""
