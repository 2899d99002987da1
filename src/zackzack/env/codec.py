"""A game's encoding (``games/<pkg>/encoding.py``) bound to one table's options.

An encoding's ``observe``/``mask`` may take keyword parameters named like the game's options
(Schnelllauf's ``wrap``); :func:`codec` passes those from the options, so the environment
serves every game with an encoding alike.

>>> from zackzack.games import schnelllauf as sl
>>> c = codec("schnelllauf", sl.Options(wrap=False))
>>> c.size, c.actions, c.bound
(226, 31, {'wrap': False})
"""

from __future__ import annotations

import inspect
from dataclasses import dataclass
from types import ModuleType
from typing import Any

import numpy as np
import numpy.typing as npt

from zackzack.games import entry
from zackzack.games.base import Action


@dataclass(frozen=True, slots=True)
class Codec:
    """One game's ``observe``, ``mask`` and ``action`` with its table's options bound."""

    module: ModuleType
    bound: dict[str, Any]
    _observe: dict[str, Any]
    _mask: dict[str, Any]

    @property
    def size(self) -> int:
        """The length of an observation vector."""
        return int(self.module.SIZE)

    @property
    def actions(self) -> int:
        """The number of action indices (0: the no-op)."""
        return int(self.module.ACTIONS)

    @property
    def high(self) -> float:
        """The largest number an observation holds."""
        return float(self.module.HIGH)

    def observe(self, view: Any, frozen_ms: int = 0) -> npt.NDArray[np.float32]:
        """The observation vector of ``view`` (the seat frozen for ``frozen_ms`` more)."""
        found: npt.NDArray[np.float32] = self.module.observe(view, frozen_ms, **self._observe)
        return found

    def mask(self, view: Any) -> npt.NDArray[np.int8]:
        """The actions the rules accept now from the seat of ``view``, and the no-op."""
        found: npt.NDArray[np.int8] = self.module.mask(view, **self._mask)
        return found

    def index(self, view: Any, action: Action | None) -> int:
        """The index of ``action`` by the seat of ``view`` (0: the no-op)."""
        found: int = self.module.index(view, action)
        return found

    def action(self, view: Any, index: int) -> Action | None:
        """The action of ``index`` for the seat of ``view`` (``None``: nothing to do)."""
        found: Action | None = self.module.action(view, index)
        return found


def codec(game: str, options: Any) -> Codec:
    """The encoding of ``game`` bound to ``options``; a game without one raises ``ValueError``."""
    found = entry(game)
    try:
        module = found.part("encoding")
    except ModuleNotFoundError as error:
        if error.name != f"{found.package}.encoding":
            raise  # something the encoding imports is missing: not the same as no encoding
        raise ValueError(f"the game {game!r} has no encoding.py: no environment for it") from None
    fields = set(getattr(type(options), "__struct_fields__", ()))

    def bind(function: Any) -> dict[str, Any]:
        names = list(inspect.signature(function).parameters)[1:]
        return {name: getattr(options, name) for name in names if name in fields}

    observe, mask = bind(module.observe), bind(module.mask)
    return Codec(module, {**observe, **mask}, observe, mask)
