"""What the front ends need of Schnelllauf beyond its rules."""

from __future__ import annotations

from typing import Any

from zackzack.games.declarations import Flag, Front

BETA = 0.125
"""Schnelllauf's β in the ratings: how far apart two players' performances in one match may
fall by luck alone. A Schnelllauf match is nearly decided by speed alone: a bot 8 % faster
wins 90 % of them (``docs/analysis.md``), so its β is small enough that the same bots'
ladder spans about as many points as in Unter Spannung (openskill's default, σ₀/2): a rating
difference means a like difference in speed in both games, and one match of the
near-certain game says more."""


def rounds_per_match(options: Any) -> int:
    """A typical match's rounds between bots of one level."""
    return 20


FRONT = Front(opponents=("normal",), handicaps={"pile": ("pile_size", 4),
                                                "one-hand": ("one_hand_seats", True)},
              local_two=True, score="Cards left", score_key="cards_held",
              steps="stalemate flips", preview=("Qh", "*", "Ks"),
              rounds_per_match=rounds_per_match, calibration=(100, 25), ladder=True,
              beta=BETA, actions=("play", "move"),
              flags=(Flag("--jokers", "jokers", "jokers per deck (0 to 3)"),
                     Flag("--no-wrap", "wrap", "the ace is not next to the king", False)))
