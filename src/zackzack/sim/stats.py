"""Every figure of a simulation, as plain JSON data: win rates with 95 % intervals, lengths.

>>> low, high = wilson(40, 100)
>>> round(low, 3), round(high, 3)
(0.309, 0.498)
>>> quantiles([1, 2, 3, 4, 5, 6, 7, 8, 9, 10])["median"]
5.5
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from zackzack.games import game
from zackzack.sim import Config, MatchRecord

Z95 = 1.959963984540054
"""The normal quantile of a two-sided 95 % interval."""
QUANTILES = {"p10": 0.10, "p25": 0.25, "median": 0.50, "p75": 0.75, "p90": 0.90, "p99": 0.99}


def wilson(successes: float, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion (95 % by default); ``(0, 1)`` for no trials."""
    if trials <= 0:
        return 0.0, 1.0
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)


def quantiles(values: Sequence[float]) -> dict[str, float]:
    """Mean, the usual quantiles (linear interpolation), minimum and maximum of ``values``."""
    if not values:
        return {}
    ordered = sorted(values)
    last = len(ordered) - 1
    result = {"mean": math.fsum(ordered) / len(ordered), "min": float(ordered[0])}
    for name, q in QUANTILES.items():
        position = q * last
        low = math.floor(position)
        high = min(low + 1, last)
        result[name] = ordered[low] + (ordered[high] - ordered[low]) * (position - low)
    result["max"] = float(ordered[-1])
    return result


def summarise(config: Config, records: Sequence[MatchRecord]) -> dict[str, Any]:
    """Every figure of a simulation of ``config`` whose matches came out as ``records``."""
    rules = game(config.game)
    rounds = [r for record in records for r in record.rounds]
    n, matches = len(rounds), len(records)
    seats = []
    for seat, spec in enumerate(config.bots):
        wins = sum(1 for r in rounds if r.winner == seat)
        match_wins = math.fsum(_first_share(record.places, seat) for record in records)
        seats.append({
            "player": seat + 1,
            "bot": str(spec),
            "round_wins": wins,
            "round_win_rate": wins / n if n else 0.0,
            "round_win_ci95": wilson(wins, n),
            "match_wins": match_wins,
            "match_win_rate": match_wins / matches if matches else 0.0,
            "match_win_ci95": wilson(match_wins, matches),
            "final_score_mean": _mean([record.scores[seat] for record in records]),
            "round_score_mean": _mean([r.scores[seat] for r in rounds]),
            "wrong_cards_per_round": sum(record.wrong_cards[seat] for record in records) / n
            if n else 0.0,
            "too_late_per_round": sum(record.too_late[seat] for record in records) / n
            if n else 0.0,
            "rtt_ms": config.rtt[seat] if config.rtt is not None else None,
            "pong_delay_ms": config.attacks[seat].pong_delay_ms if config.attacks else 0,
            "reconnect": config.attacks[seat].reconnect if config.attacks else False,
        })
    nobody = sum(1 for r in rounds if r.winner is None)
    return {
        "game": config.game,
        "options": rules.options_to_json(config.options),
        "bots": [str(spec) for spec in config.bots],
        "seed": config.seed,
        "compensation": config.compensation if config.rtt is not None else None,
        "matches": matches,
        "rounds": n,
        "seats": seats,
        "no_winner_rate": nobody / n if n else 0.0,
        "round_seconds": quantiles([r.ms / 1000 for r in rounds]),
        "round_actions": quantiles([r.actions for r in rounds]),
        "steps_per_round": _mean([r.steps for r in rounds]),
        "rounds_with_steps": sum(1 for r in rounds if r.steps) / n if n else 0.0,
        "rounds_per_match": quantiles([len(record.rounds) for record in records]),
    }


def _first_share(places: Sequence[int], seat: int) -> float:
    """A seat's share of first place: 1, or 1/k when k seats tie for it, else 0."""
    return 1 / places.count(1) if places[seat] == 1 else 0.0


def _mean(values: Sequence[float]) -> float:
    return math.fsum(values) / len(values) if values else 0.0
