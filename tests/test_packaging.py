"""Every file the package needs at run time is named by pyproject's package data.

An editable install (the tests') finds any file in the source tree; a wheel holds only the
Python modules and what ``[tool.setuptools.package-data]`` names. A game's web modules, words
or tutorial missing from there would work in the tests and break every real install.
"""

from __future__ import annotations

import tomllib
from pathlib import Path, PurePosixPath

PACKAGE = Path(__file__).resolve().parent.parent / "src" / "zackzack"


def _patterns() -> list[str]:
    data = tomllib.loads((PACKAGE.parent.parent / "pyproject.toml").read_text("utf-8"))
    patterns: list[str] = data["tool"]["setuptools"]["package-data"]["zackzack"]
    return patterns


def _named(path: PurePosixPath, patterns: list[str]) -> bool:
    for pattern in patterns:
        if pattern.endswith("/**/*"):
            if path.is_relative_to(pattern.removesuffix("/**/*")):
                return True
        elif path.match(pattern) and len(path.parts) == len(PurePosixPath(pattern).parts):
            return True
    return False


def test_every_data_file_of_the_package_is_in_its_package_data() -> None:
    patterns = _patterns()
    data_files = [PurePosixPath(path.relative_to(PACKAGE).as_posix())
                  for path in PACKAGE.rglob("*")
                  if path.is_file() and path.suffix not in (".py", ".pyc")
                  and "__pycache__" not in path.parts]
    assert any(str(path).startswith("games/") for path in data_files)  # the games' own files
    missing = [str(path) for path in data_files if not _named(path, patterns)]
    assert missing == []


def test_a_file_outside_the_patterns_is_noticed() -> None:
    patterns = _patterns()
    assert not _named(PurePosixPath("games/somegame/web/extra.svg"), patterns)
    assert _named(PurePosixPath("games/schnelllauf/web/board.js"), patterns)
