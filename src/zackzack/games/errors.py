"""The illegal-action hierarchy: every refusal carries a stable reason ``code``.

>>> try:
...     raise DoesNotFit("7±2 does not fit 5±1")
... except IllegalAction as error:
...     print(error.code, "-", error)
does_not_fit - 7±2 does not fit 5±1
"""

from __future__ import annotations

import re
from typing import ClassVar


class IllegalAction(ValueError):
    """An action the table refuses; the state is unchanged.

    A reason with ``{}`` is filled in from ``about`` only when it is put into words
    (``str``): a simulation refuses thousands of cards and reads none of the reasons. A
    refusal's ``code`` is its class's name in snake case, unless the class sets another.

    >>> refusal = DoesNotFit("{} does not fit {}", "7±2", "5±1")
    >>> str(refusal), refusal.about, refusal.code
    ('7±2 does not fit 5±1', ('7±2', '5±1'), 'does_not_fit')
    """

    code: ClassVar[str] = "illegal_action"

    def __init_subclass__(cls) -> None:
        super().__init_subclass__()
        if "code" not in cls.__dict__:
            cls.code = re.sub(r"(?<!^)(?=[A-Z])", "_", cls.__name__).lower()

    def __init__(self, reason: str = "", *about: object) -> None:
        super().__init__(reason or self.code.replace("_", " "))
        self.about = about
        """What the reason's ``{}`` stand for, in order."""

    def __str__(self) -> str:
        reason: str = self.args[0]
        return reason.format(*self.about) if self.about else reason

    def __repr__(self) -> str:
        return f"{type(self).__name__}({str(self)!r})"


class BadAction(IllegalAction):
    """The action is malformed: unknown kind, bad card notation, bad pile."""


class NoSuchSeat(IllegalAction):
    """The seat does not exist at this table."""


class NotYourCard(IllegalAction):
    """The card is not in the player's hand or face up in their layout."""


class DoesNotFit(IllegalAction):
    """The card did not fit the pile, not even the version the player aimed at."""


class TooLate(IllegalAction):
    """The card fitted version ``seen`` of pile ``pile`` the player aimed at, but it moved on.

    The table says who won the race: ``winner`` is the seat whose action moved the pile on
    (``None``: the table's own step) and ``margin_ms`` how much sooner it was.
    """

    winner: int | None = None
    margin_ms: int | None = None

    def __init__(self, reason: str = "", *about: object, pile: int = 0, seen: int = 0) -> None:
        super().__init__(reason, *about)
        self.pile, self.seen = pile, seen


class Frozen(IllegalAction):
    """The player is serving the penalty for a wrong card."""


class OneHand(IllegalAction):
    """The one-hand handicap: the player's previous action was too recent."""


class NotPending(IllegalAction):
    """An automatic step (Nichts geht mehr, a stalemate flip) that is not due."""


class RoundOver(IllegalAction):
    """The round has ended; no more actions until the next one starts."""


class NotPlaying(IllegalAction):
    """The table is between rounds, not started yet or paused."""


ALL: tuple[type[IllegalAction], ...] = (
    IllegalAction, BadAction, NoSuchSeat, NotYourCard, DoesNotFit, TooLate, Frozen, OneHand,
    NotPending, RoundOver, NotPlaying,
)
"""Every shared refusal class; their codes are stable and documented in docs/protocol.md. A
game's own are in its folder's ``errors.py`` (``REFUSALS``); ``games.registry.refusals()``
gives them all."""


class OptionsError(ValueError):
    """Table options that the rules cannot play with (7 players, a deck of 3 cards)."""


class LogError(ValueError):
    """A match log that is malformed or inconsistent; the message says where."""
