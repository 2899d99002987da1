"""The compiled build (``setup.py``, ``scripts/compiled.sh``) behaves as the source does.

The rest of the suite runs against a compiled install in ``scripts/compiled.sh``; these check
what only that build could get wrong: which modules it compiles, and that msgspec's Structs
(which mypyc would change) stay out of them.
"""

from __future__ import annotations

import ast
import importlib
import os
from pathlib import Path

import msgspec
import pytest

from zackzack.games import base

ROOT = Path(__file__).resolve().parent.parent


def hot_modules() -> list[str]:
    """The modules ``setup.py`` compiles (its ``HOT``), by name."""
    tree = ast.parse((ROOT / "setup.py").read_text(encoding="utf-8"))
    hot = next(node.value for node in tree.body if isinstance(node, ast.Assign)
               and any(isinstance(t, ast.Name) and t.id == "HOT" for t in node.targets))
    paths: tuple[str, ...] = ast.literal_eval(hot)
    return ["zackzack." + path.removesuffix(".py").removesuffix("/__init__").replace("/", ".")
            for path in paths]


HOT = hot_modules()
COMPILED = os.environ.get("ZACKZACK_COMPILED") == "1"
"""Set by ``scripts/compiled.sh``: the installed zackzack must be the compiled one."""


@pytest.mark.parametrize("name", HOT)
def test_hot_modules_are_compiled_exactly_when_expected(name: str) -> None:
    module = importlib.import_module(name)
    assert Path(module.__file__ or "").suffix == (".so" if COMPILED else ".py")


@pytest.mark.parametrize("name", HOT)
def test_no_struct_is_defined_in_a_compiled_module(name: str) -> None:
    # mypyc would drop a Struct's class keywords (tag, frozen, ...) and its annotations
    module = importlib.import_module(name)
    made_here = [kind for kind in vars(module).values()
                 if isinstance(kind, type) and kind.__module__ == name]
    if name.endswith(("table", "unter_spannung", "schnelllauf")):
        assert made_here  # the table's and the rules' own classes (State, Match) are compiled
    assert not [kind for kind in made_here if issubclass(kind, msgspec.Struct)]


def test_structs_keep_their_tags_and_checks() -> None:
    from zackzack.engine.table import RoundScored, Settings
    from zackzack.games import schnelllauf, unter_spannung
    from zackzack.games.errors import BadAction, OptionsError

    with pytest.raises(OptionsError, match="pile_size"):
        schnelllauf.parse_options({"pile_size": [3, 5]})
    with pytest.raises(OptionsError, match="players"):
        unter_spannung.Options(players=7)
    with pytest.raises(OptionsError, match="revision"):
        Settings(revision=3)
    with pytest.raises(BadAction, match="source"):
        schnelllauf.action_from_json({"type": "move", "source": 5, "target": 0})
    drew = base.convert({"type": "drew", "seat": 1, "card": None, "left": 3},
                        unter_spannung.Drew)
    assert drew == unter_spannung.Drew(seat=1, card=None, left=3)
    assert base.plain(RoundScored(base.RoundResult(1, None, "dead_end", (0, 0)), (0, 0)))[
        "type"] == "round_scored"
    with pytest.raises(AttributeError):
        unter_spannung.Options().players = 3  # type: ignore[misc]
