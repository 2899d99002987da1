"""What the front ends need of Unter Spannung beyond its rules."""

from __future__ import annotations

from zackzack.games.declarations import Flag, Front, Tournament
from zackzack.games.unter_spannung import Options


def rounds_per_match(options: Options) -> int:
    """A match's rounds: the tournament's 2 × players, else one."""
    return 2 * options.players if options.tournament else 1


FRONT = Front(opponents=("normal", "normal"), score="Minus pts", score_key="minus_points",
              steps="Nichts geht mehr", preview=("7±2", "5±1", "9±3"),
              rounds_per_match=rounds_per_match, calibration=(6000, 500),
              rated_options=("players", "tournament"),
              actions=("play", "draw"),
              flags=(Flag("--tournament", "tournament",
                          "the tournament, 2 × players rounds a match", True),),
              tournament=Tournament("tournament", 2), noisy=("drew",))
