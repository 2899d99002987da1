"""The build: pure Python, or with ``ZACKZACK_COMPILE=1`` the simulator's hot path compiled.

Everything about the package is in ``pyproject.toml``; this file only adds, on request, the
C extensions mypyc makes of the modules in :data:`HOT` from the same source (docs/design.md,
"A compiled build")::

    ZACKZACK_COMPILE=1 pip wheel --no-deps -w dist .    # or: pip install .

Without the variable the build is the pure one, with no build requirement beyond setuptools.
With it, pip's isolated build asks this file for its requirements first (setuptools' PEP 517
``get_requires_for_build_wheel`` reads ``setup_requires``): mypy, and the libraries whose
types the compiled modules see (:data:`TYPED`, at the ranges ``pyproject.toml`` gives them),
are installed for that build alone. An editable install (``pip install -e``) is never
compiled: an extension beside its ``.py`` would be imported instead of the edited source.
"""

from __future__ import annotations

import os
import re
import sys
import tomllib
from pathlib import Path

from setuptools import setup

HERE = Path(__file__).resolve().parent
HOT = ("engine/clock.py", "engine/table.py", "sim/fast.py", "bots/bot.py", "bots/reaction.py",
       "games/shuffling.py", "games/unter_spannung/__init__.py", "games/schnelllauf/__init__.py",
       "games/unter_spannung/bot.py", "games/schnelllauf/bot.py",
       "games/unter_spannung/features.py", "games/schnelllauf/features.py")
"""The compiled modules, under ``src/zackzack``: the table, the rules, the bots, the fast path."""
TYPED = ("msgspec", "typing-extensions", "rich", "textual")
"""The runtime dependencies mypy reads the types of when it checks the compiled modules."""


def _requirements() -> list[str]:
    """What a compiled build needs: mypy (for mypyc) and :data:`TYPED`, at the project's ranges."""
    project = tomllib.loads((HERE / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    wanted = [*project["optional-dependencies"]["test"], *project["dependencies"]]
    return [r for r in wanted if re.split(r"[<>=!~;\[ ]", r, maxsplit=1)[0] in ("mypy", *TYPED)]


def _compiled() -> bool:
    """Whether to compile: asked for, and not an editable install (which it says it ignores)."""
    if os.environ.get("ZACKZACK_COMPILE", "") in ("", "0"):
        return False
    if os.environ["ZACKZACK_COMPILE"] != "1":
        raise SystemExit(f"ZACKZACK_COMPILE must be 1 or 0, got {os.environ['ZACKZACK_COMPILE']!r}")
    if any(command in sys.argv for command in ("editable_wheel", "develop")):
        print("zackzack: ZACKZACK_COMPILE=1 ignored for an editable install (an extension "
              "would shadow the edited source); building it pure", file=sys.stderr)
        return False
    return True


if not _compiled():
    setup()
elif "egg_info" in sys.argv:
    # pip's isolated build asks for the build requirements (setuptools runs ``egg_info`` and
    # catches these as they are fetched); it installs them and comes back.
    setup(setup_requires=_requirements())
elif "dist_info" in sys.argv:
    setup()  # the metadata alone: nothing to compile for it
else:
    try:
        from mypyc.build import mypycify
    except ImportError:
        raise SystemExit("zackzack: ZACKZACK_COMPILE=1 needs mypy: build with pip's build "
                         "isolation (its default), or install " + ", ".join(
                             repr(r) for r in _requirements()) + " first") from None
    # One shared library, zackzack__mypyc, beside the package: mypyc derives each compiled
    # module's __file__ from where that library lies, as if it were above the package.
    setup(ext_modules=mypycify([f"src/zackzack/{path}" for path in HOT],
                               opt_level="3", group_name="zackzack"))
