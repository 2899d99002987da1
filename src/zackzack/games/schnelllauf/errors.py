"""Schnelllauf's own refusals (the shared ones are ``games/errors.py``); their codes are
stable and documented in docs/protocol.md."""

from __future__ import annotations

from zackzack.games.errors import IllegalAction


class NoSuchPile(IllegalAction):
    """The discard pile or layout place does not exist or has no card."""


class PlaceNotEmpty(IllegalAction):
    """Moving a card onto a layout place that still has cards."""


class NothingToReveal(IllegalAction):
    """Moving the only card of a place, which reveals nothing."""


REFUSALS: tuple[type[IllegalAction], ...] = (NoSuchPile, PlaceNotEmpty, NothingToReveal)
"""The game's own refusal classes (``Game.refusals``)."""
