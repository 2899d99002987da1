"""The learning curve of a training run: fitness per generation against the baselines."""

from __future__ import annotations

from collections.abc import Sequence

from matplotlib.figure import Figure

from zackzack.games import game
from zackzack.learn.settings import Settings
from zackzack.learn.train import Generation


def plot(name: str, curve: Sequence[Generation], baseline: float, settings: Settings,
         path: str) -> None:
    """Draw the round-win share of each generation's mean, best and elite into ``path``,
    with ``smart`` itself (50 %) and ``random`` (``baseline``) against the same opponent."""
    figure = Figure(figsize=(8, 4.8), layout="constrained")
    axes = figure.subplots()
    numbers = [step.number for step in curve]
    axes.plot(numbers, [step.mean for step in curve], marker="o", label="learned (mean weights)")
    axes.plot(numbers, [step.elite for step in curve], linestyle="--", alpha=0.7,
              label=f"elite ({settings.elite} best)")
    axes.plot(numbers, [step.best for step in curve], linestyle=":", alpha=0.7,
              label="best candidate")
    axes.axhline(0.5, color="grey", label=f"{settings.level} (smart) itself")
    axes.axhline(baseline, color="tab:red", linestyle="-.", label=f"{settings.level}:random")
    axes.set_xlabel("generation")
    axes.set_ylabel(f"rounds won against {settings.level}")
    axes.yaxis.set_major_formatter("{x:.0%}")
    axes.set_title(f"{game(name).INFO.title}: cross-entropy method, {settings.population} "
                   f"candidates × {settings.rounds:,} rounds, seed {settings.seed}")
    axes.grid(alpha=0.3)
    axes.legend(loc="lower right")
    figure.savefig(path, dpi=110)
