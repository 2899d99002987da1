"""Unter Spannung's keys: ``1``–``9``, ``0``, then the letters row by row (``q`` left out:
it asks to quit) name the hand cards; the arrows and Enter reach any card of a longer hand;
Space draws. The hand keys do not follow the keyboard's layout.

>>> keys = scheme()
>>> keys.command("1"), keys.command("w"), keys.command("space"), keys.command("y")
(HandCard(index=0), HandCard(index=10), DrawCard(), HandCard(index=14))
>>> keys.command("q")
AskQuit()
"""

from __future__ import annotations

from dataclasses import dataclass

from zackzack.tui.keys import Command, HelpRow, Scheme, hand_scheme


@dataclass(frozen=True, slots=True)
class DrawCard(Command):
    """Draw a card from one's own draw pile."""


def scheme() -> Scheme:
    """Hand cards by ``1``–``0`` and the letters, the arrows and Enter for any, Space draws."""
    return hand_scheme(bar="bar_us", notes="k_spread", extra={"space": DrawCard()},
                       rows=(HelpRow("Space", "k_draw"),))
