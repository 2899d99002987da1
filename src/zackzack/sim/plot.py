"""Plots of a simulation: win rates with 95 % error bars, distributions of round length."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from matplotlib.axes import Axes
from matplotlib.figure import Figure

from zackzack.games import game
from zackzack.sim import MatchRecord


def plot(summary: dict[str, Any], records: Sequence[MatchRecord], path: str) -> None:
    """Draw ``summary`` and the round lengths of ``records`` into the image file ``path``."""
    figure = Figure(figsize=(11, 7.5), layout="constrained")
    rules = game(summary["game"])
    defaults = rules.options_to_json(rules.parse_options({"players": len(summary["bots"])}))
    changed = [f"{key} {value}" for key, value in summary["options"].items()
               if key != "players" and defaults.get(key) != value]
    figure.suptitle(f"{rules.INFO.title}: {', '.join(summary['bots'])} · "
                    f"{summary['rounds']:,} rounds, {summary['matches']:,} matches · seed "
                    f"{summary['seed']}" + "".join(f" · {text}" for text in changed))
    (wins, misses), (seconds, actions) = figure.subplots(2, 2)
    _wins(wins, summary)
    _misses(misses, summary, records)
    rounds = [r for record in records for r in record.rounds]
    _histogram(seconds, [r.ms / 1000 for r in rounds], "round length (game seconds)",
               summary["round_seconds"])
    _histogram(actions, [r.actions for r in rounds], "accepted actions per round",
               summary["round_actions"])
    figure.savefig(path, dpi=110)


def _labels(summary: dict[str, Any]) -> list[str]:
    return [f"{seat['player']}: {seat['bot']}" for seat in summary["seats"]]


def _wins(axes: Axes, summary: dict[str, Any]) -> None:
    seats = summary["seats"]
    several = summary["rounds_per_match"].get("max", 1) > 1
    kinds = [("round", "rounds won")] + ([("match", "matches won")] if several else [])
    width = 0.8 / len(kinds)
    for k, (kind, label) in enumerate(kinds):
        rates = [100 * seat[f"{kind}_win_rate"] for seat in seats]
        low = [max(0.0, seat[f"{kind}_win_rate"] - seat[f"{kind}_win_ci95"][0]) for seat in seats]
        high = [max(0.0, seat[f"{kind}_win_ci95"][1] - seat[f"{kind}_win_rate"]) for seat in seats]
        errors = [[100 * e for e in low], [100 * e for e in high]]
        xs = [i + (k - (len(kinds) - 1) / 2) * width for i in range(len(seats))]
        axes.bar(xs, rates, width, yerr=errors, capsize=4, label=label)
    axes.set_xticks(range(len(seats)), _labels(summary))
    axes.set_ylabel("share won (%), 95 % CI")
    axes.set_ylim(0, 100)
    axes.set_title("win rates")
    axes.legend()


def _misses(axes: Axes, summary: dict[str, Any], records: Sequence[MatchRecord]) -> None:
    per = summary["rounds_per_match"]
    if per.get("min", 1) < per.get("max", 1) and summary["matches"] > 1:  # several rounds
        counts = [len(record.rounds) for record in records]
        _histogram(axes, counts, "rounds per match", summary["rounds_per_match"])
        return
    seats = summary["seats"]
    xs = range(len(seats))
    axes.bar([x - 0.2 for x in xs], [s["wrong_cards_per_round"] for s in seats], 0.4,
             label="wrong cards")
    axes.bar([x + 0.2 for x in xs], [s["too_late_per_round"] for s in seats], 0.4,
             label="too late")
    axes.set_xticks(list(xs), _labels(summary))
    axes.set_ylabel("per round")
    axes.set_title("misses per player")
    axes.legend()


def _histogram(axes: Axes, values: Sequence[float], label: str,
               figures: dict[str, float]) -> None:
    if values:
        top = figures["p99"] if figures["p99"] > figures["min"] else figures["max"]
        shown = [v for v in values if v <= top]
        bins: Any = 50
        if all(isinstance(v, int) for v in shown) and top - figures["min"] <= 100:
            bins = [b - 0.5 for b in range(int(figures["min"]), int(top) + 2)]
        axes.hist(shown, bins=bins, color="tab:blue", alpha=0.8)
        for name, style in (("median", "-"), ("mean", "--"), ("p90", ":")):
            axes.axvline(figures[name], color="black", linestyle=style,
                         label=f"{name} {figures[name]:.1f}")
        axes.legend()
    axes.set_xlabel(label + " (up to p99)")
    axes.set_ylabel("rounds" if "per match" not in label else "matches")
    axes.set_title(label)
