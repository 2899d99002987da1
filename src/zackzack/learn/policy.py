"""A learned bot's policy: one weight per hand-made feature of a candidate action.

A bot with the strategy ``learned`` scores each action it could take now as the dot product
of these weights with the action's features (``games/<pkg>/features.py``: ``NAMES`` and the
rows) and takes the best. The weights of a game ship in its folder as ``policy.json``, are
read once per process and kept; training swaps in a candidate with :func:`trying`.

>>> policy = load("unter-spannung")
>>> len(policy.weights) == len(policy.features), policy.game
(True, 'unter-spannung')
>>> weights("unter-spannung") is policy.weights  # read once, then kept
True
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import msgspec

from zackzack.games import entry

FILE = "policy.json"
"""The name of a game's weights file in its folder."""


class Policy(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A linear policy for ``game``: ``weights[i]`` multiplies feature ``features[i]``;
    ``trained`` says how it was made (command, seed, fitness)."""

    game: str
    features: tuple[str, ...]
    weights: tuple[float, ...]
    trained: dict[str, Any] = msgspec.field(default_factory=dict)

    def __post_init__(self) -> None:
        if len(self.weights) != len(self.features):
            raise ValueError(f"{len(self.weights)} weights for {len(self.features)} features")


_cache: dict[str, Policy] = {}


def features(game: str) -> tuple[str, ...]:
    """The names of the features the game's ``features.py`` computes, in order."""
    names: tuple[str, ...] = tuple(entry(game).part("features").NAMES)
    return names


def path(game: str) -> Path:
    """Where the game's shipped weights are: ``policy.json`` in its folder."""
    return entry(game).folder / FILE


def read(file: Path | str, game: str | None = None) -> Policy:
    """The policy in ``file``, checked against its game's features (a mismatch, e.g. weights
    trained for an older feature list, raises ``ValueError``)."""
    policy = msgspec.json.decode(Path(file).read_bytes(), type=Policy)
    if game is not None and policy.game != game:
        raise ValueError(f"{file} holds a policy for {policy.game}, not {game}")
    expected = features(policy.game)
    if policy.features != expected:
        raise ValueError(f"{file} weighs the features {', '.join(policy.features)}; "
                         f"{policy.game} computes {', '.join(expected)}: train it again")
    return policy


def write(policy: Policy, file: Path | str) -> None:
    """Save ``policy`` as JSON to ``file`` (one weight per line, readable in a diff)."""
    data = msgspec.json.format(msgspec.json.encode(policy), indent=2)
    Path(file).write_bytes(data + b"\n")


def load(game: str) -> Policy:
    """The game's policy: its shipped weights, read on first use and then kept."""
    found = _cache.get(game)
    if found is None:
        found = _cache[game] = read(path(game), game)
    return found


def weights(game: str) -> tuple[float, ...]:
    """The weights a ``learned`` bot of ``game`` plays with now (:func:`load`, or the
    candidate of :func:`trying`)."""
    found = _cache.get(game)
    return (found if found is not None else load(game)).weights


@contextmanager
def trying(policy: Policy) -> Iterator[Policy]:
    """Let every ``learned`` bot made in this process play ``policy`` until the block ends
    (training evaluates candidates this way; bots read the weights when they sit down)."""
    before = _cache.get(policy.game)
    _cache[policy.game] = policy
    try:
        yield policy
    finally:
        if before is None:
            del _cache[policy.game]
        else:
            _cache[policy.game] = before
