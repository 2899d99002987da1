"""The shared front ends name no game: a game is one folder, browser included (issue 29).

What is scanned: every file of the browser client (``web/js/*.js``, ``web/css/*.css``), the
terminal (``tui/*.py``) and the simulator (``sim/*.py``): code, comments, help texts and
docstrings alike. What it must not hold (case-insensitive): a built-in game's name in any
spelling (``unter-spannung``, ``unter_spannung``, ``Unter Spannung``, ``schnelllauf``), nor a
field name that one built-in game alone has (``ONE_GAME_FIELDS``: the snake_case names of its
options, view, actions and events that neither the other game nor the shared structures
have, and its distinctive options). What it may hold: doctest examples (a ``>>>`` or ``...``
line in a Python file and the expected output after it, up to the next blank line), which run
the shared code with a real game as data; and the word ``tournament``, which the shared code
knows as ``Front.tournament`` (the declaration), not as Unter Spannung's option. There is no
list of exceptions by file: the games' own parts live in their folders.
"""

from __future__ import annotations

import re
from pathlib import Path

import msgspec

from zackzack.engine import table_data
from zackzack.games import base, entry

SRC = Path(__file__).resolve().parents[2] / "src" / "zackzack"
SHARED = [*sorted((SRC / "web" / "js").glob("*.js")), *sorted((SRC / "web" / "css").glob("*.css")),
          *sorted((SRC / "tui").glob("*.py")), *sorted((SRC / "sim").glob("*.py"))]
BUILT_IN = ("unter-spannung", "schnelllauf")
NAMES = re.compile(r"unter[-_ ]?spannung|schnelllauf", re.IGNORECASE)
DISTINCTIVE = {"jokers"}
"""One-game options without an underscore that are no everyday word."""


def _fields(kind: object) -> set[str]:
    return set(getattr(kind, "__struct_fields__", ()))


def one_game_fields() -> set[str]:
    """The snake_case fields one built-in game alone has, and its distinctive options."""
    shared: set[str] = set()
    for module in (table_data, base):
        for value in vars(module).values():
            if isinstance(value, type) and issubclass(value, msgspec.Struct):
                shared |= _fields(value)
    per = {}
    for name in BUILT_IN:
        rules = entry(name).rules
        found = _fields(rules.Options) | _fields(rules.View)
        for kind in (*rules.EVENTS, *rules.ACTIONS):
            found |= _fields(kind)
        per[name] = found
    alone = (per[BUILT_IN[0]] ^ per[BUILT_IN[1]]) - shared
    return {name for name in alone if "_" in name or name in DISTINCTIVE}


ONE_GAME_FIELDS = one_game_fields()


def lines_to_scan(path: Path) -> list[tuple[int, str]]:
    """The file's lines, doctest examples and their expected output left out."""
    found, example = [], False
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        text = line.strip()
        if path.suffix == ".py":
            if text.startswith((">>>", "... ")) or text == "...":
                example = True
                continue
            if example and text and not text.startswith('"""'):
                continue
            example = False
        found.append((number, line))
    return found


def named(path: Path) -> list[str]:
    """Where ``path`` names a built-in game or one of its own fields."""
    words = re.compile(r"(?<![\w-])(" + "|".join(sorted(ONE_GAME_FIELDS)) + r")(?![\w])")
    return [f"{path.relative_to(SRC)}:{number}: {line.strip()}"
            for number, line in lines_to_scan(path)
            if NAMES.search(line) or words.search(line)]


def test_the_one_game_fields_are_found() -> None:
    assert {"hand_counts", "draw_counts", "reserve_counts", "pile_size", "one_hand_seats",
            "jokers"} <= ONE_GAME_FIELDS
    assert not {"players", "seat", "penalty_ms", "tournament"} & ONE_GAME_FIELDS


def test_the_scan_sees_a_name_and_a_field_and_skips_doctests(tmp_path: Path) -> None:
    sample = tmp_path / "sample.py"
    sample.write_text('"""Doc.\n\n>>> f("schnelllauf")\n\'Schnelllauf\'\n\nUnter Spannung.\n"""\n'
                      "x = state.hand_counts\n", encoding="utf-8")
    hits = [line for number, line in lines_to_scan(sample)
            if NAMES.search(line) or "hand_counts" in line]
    assert hits == ["Unter Spannung.", "x = state.hand_counts"]


def test_the_shared_web_terminal_and_simulator_code_names_no_game() -> None:
    assert len(SHARED) > 60
    found = [hit for path in SHARED for hit in named(path)]
    assert not found, "\n".join(found)
