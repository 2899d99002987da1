"""Strategies matter: at equal speed the smart bot beats the random one, seats swapped."""

from __future__ import annotations

from zackzack.bots import parse_bot
from zackzack.games import game
from zackzack.sim import Config, simulate
from zackzack.sim.stats import wilson


def smart_share(name: str, data: dict[str, object], level: str, *, rounds: int | None = None,
                matches: int | None = None, by: str = "round") -> tuple[float, int]:
    """The smart bot's share of the wins against ``level:random``, each seat played once."""
    wins, total = 0.0, 0
    options = game(name).parse_options(data)
    for smart, bots in ((0, (f"{level}", f"{level}:random")), (1, (f"{level}:random", level))):
        config = Config(name, options, tuple(map(parse_bot, bots)), seed=2024, rounds=rounds,
                        matches=matches)
        for record in simulate(config):
            if by == "match":
                wins += record.places[smart] == 1
                total += 1
            else:
                wins += sum(r.winner == smart for r in record.rounds)
                total += sum(r.winner is not None for r in record.rounds)
    return wins / total, total


def test_smart_beats_random_at_unter_spannung() -> None:
    share, rounds = smart_share("unter-spannung", {"players": 2}, "pro", rounds=1500)
    low, _ = wilson(share * rounds, rounds)
    assert share > 0.53 and low > 0.5


def test_smart_beats_random_at_schnelllauf() -> None:
    share, matches = smart_share("schnelllauf", {}, "normal", matches=15, by="match")
    low, _ = wilson(share * matches, matches)
    assert share >= 0.8 and low > 0.6
