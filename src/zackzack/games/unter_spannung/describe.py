"""Unter Spannung's own events as sentences (``zackzack.words.describe`` asks here first).

>>> from zackzack.words.describe import describe
>>> describe(Drew(0, None, 9), ("Anna", "Ben"))
'Anna draws a card (9 left)'
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from zackzack.games.base import Event
from zackzack.games.unter_spannung.data import Drew, Played, Rotated, WentOut

SCORES = "scores_us"
"""The words of a round's scores: minus points."""


def say(event: Event, t: Callable[..., str], who: Callable[[int], str]) -> str | None:
    """``event`` as a sentence by ``t`` (a key and its fields); ``None``: not one of ours."""
    fields: dict[str, Any]
    if isinstance(event, Played):
        key, fields = "played", {"who": who(event.seat), "card": event.card,
                                 "value": event.card.value}
    elif isinstance(event, Drew):
        key = "drew" if event.card is None else "drew_own"
        fields = {"who": who(event.seat), "card": event.card, "left": event.left}
    elif isinstance(event, WentOut):
        key, fields = "went_out", {"who": who(event.seat)}
    elif isinstance(event, Rotated):
        key, fields = "rotated", {"card": event.card}
    else:
        return None
    return t(key, **fields)
