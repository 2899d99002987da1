"""Schnelllauf's own refusals (the shared ones are ``games/errors.py``); their codes are
stable and documented in docs/protocol.md."""

from __future__ import annotations

from zackzack.games.errors import IllegalAction


class NoSuchPile(IllegalAction):
    """The discard pile or layout place does not exist or has no card."""

    code = "no_such_pile"


class PlaceNotEmpty(IllegalAction):
    """Moving a card onto a layout place that still has cards."""

    code = "place_not_empty"


class NothingToReveal(IllegalAction):
    """Moving the only card of a place, which reveals nothing."""

    code = "nothing_to_reveal"


REFUSALS: tuple[type[IllegalAction], ...] = (NoSuchPile, PlaceNotEmpty, NothingToReveal)
"""The game's own refusal classes (``Game.refusals``)."""
