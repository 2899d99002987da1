"""``zackzack --help``, ``--version`` and each command's ``--help`` start at once: they import
none of the heavy libraries and none of the server, terminal or store modules that only
running a command needs (issue 28). Asserted on the import graph, in a fresh interpreter
each, not on a time."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from zackzack.cli import COMMANDS

HEAVY = ("sqlalchemy", "alembic", "textual", "numpy", "uvicorn", "starlette", "websockets",
         "rich", "openskill", "redis", "matplotlib", "psycopg", "ray")
"""Libraries no ``--help`` needs."""
HEAVY_OURS = ("zackzack.server.", "zackzack.tui.", "zackzack.store.", "zackzack.ratings.",
              "zackzack.moderation.", "zackzack.learn.train.", "zackzack.sim.stats.")
"""Our modules that only running a command needs (those of the command's own module are
allowed: ``zackzack.server.cli`` for ``serve``)."""
LIGHT = {"play": {"zackzack.tui.keys", "zackzack.tui.texts"}}
"""What a command's arguments need besides its own module: the keyboards and the words."""

CHILD = """
import contextlib, io, json, sys
from zackzack.cli import main
with contextlib.redirect_stdout(io.StringIO()):
    try:
        main(sys.argv[1:])
    except SystemExit:
        pass
print(json.dumps(sorted(sys.modules)))
"""


def imported(*argv: str) -> set[str]:
    """The modules a fresh interpreter has imported after ``zackzack ARGV``."""
    done = subprocess.run([sys.executable, "-c", CHILD, *argv], capture_output=True,
                          text=True, check=True, timeout=120)
    return set(json.loads(done.stdout))


def too_heavy(modules: set[str], allowed: set[str]) -> list[str]:
    """The modules of ``modules`` that a ``--help`` should not import."""
    return sorted(m for m in modules - allowed
                  if m.split(".")[0] in HEAVY or f"{m}.".startswith(HEAVY_OURS))


@pytest.mark.parametrize("argv", [["--help"], ["--version"]])
def test_the_top_level_help_imports_no_command(argv: list[str]) -> None:
    modules = imported(*argv)
    assert too_heavy(modules, set()) == []
    assert not {module for module, _ in COMMANDS.values()} & modules


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_a_commands_help_imports_only_what_its_arguments_need(command: str) -> None:
    module = COMMANDS[command][0]
    own = {".".join(module.split(".")[:end]) for end in range(1, module.count(".") + 2)}
    modules = imported(command, "--help")
    assert module in modules  # its arguments were built
    assert too_heavy(modules, own | LIGHT.get(command, set())) == []


def test_ratings_subcommands_help_is_light_too() -> None:
    modules = imported("ratings", "calibrate", "--help")
    assert too_heavy(modules, {"zackzack.commands.ratings"}) == []


def test_moderation_subcommands_help_is_light_too() -> None:
    assert too_heavy(imported("moderation", "mark", "--help"),
                     {"zackzack.commands.moderation"}) == []


def test_the_server_imports_no_library_only_other_commands_need() -> None:
    """``zackzack serve`` listens at once: the detector's numpy (an operator's request loads
    it), the terminal's Textual and the plots' matplotlib stay out of the server."""
    done = subprocess.run([sys.executable, "-c", "import json, sys, zackzack.server.app; "
                           "print(json.dumps(sorted(sys.modules)))"],
                          capture_output=True, text=True, check=True, timeout=120)
    modules = {m.split(".")[0] for m in json.loads(done.stdout)}
    assert not modules & {"numpy", "textual", "matplotlib", "ray"}


SERVING = """
import json, sys
from zackzack.store import Store, database_url
import zackzack.server.serve
Store(database_url(sys.argv[1])).close()
print(json.dumps(sorted(sys.modules)))
"""


@pytest.mark.parametrize("existing", [False, True])
def test_a_server_alone_on_sqlite_starts_without_alembic_redis_or_postgresql(
        tmp_path: Path, existing: bool) -> None:
    """``zackzack serve`` listens within a second: a server alone on SQLite, with a new
    database or one at the newest revision, loads neither Alembic (no migration to run),
    Redis's client (no cluster) nor PostgreSQL's dialect."""
    path = tmp_path / "zackzack.db"
    if existing:
        subprocess.run([sys.executable, "-c", SERVING, str(path)], check=True, timeout=120,
                       capture_output=True)
    done = subprocess.run([sys.executable, "-c", SERVING, str(path)], capture_output=True,
                          text=True, check=True, timeout=120)
    modules = set(json.loads(done.stdout))
    assert {m.split(".")[0] for m in modules} & {"alembic", "redis", "psycopg"} == set()
    assert "sqlalchemy.dialects.postgresql" not in modules
    assert "zackzack.server.cluster" not in modules
