"""The browser client's protocol types (types/protocol.d.ts) are what the server's schemas say.

``scripts/protocol_types.py`` writes them from the msgspec Structs of the messages, the table's
view and events and each game's; ``tsc`` checks the client against them (scripts/test.sh). A
change to a message or a view without running the script again fails here (docs/web.md).
"""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

SCRIPT = Path(__file__).resolve().parent.parent / "scripts" / "protocol_types.py"


def _script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("protocol_types", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_declarations_are_generated_from_the_current_schemas() -> None:
    script = _script()
    assert script.OUT.read_text(encoding="utf-8") == script.generate(), \
        "types/protocol.d.ts is out of date: run python scripts/protocol_types.py"


def test_every_message_and_game_is_declared() -> None:
    text = _script().generate()
    for name in ("interface Welcome {", "interface TableView {", "type ClientMessage =",
                 "namespace Schnelllauf {", "namespace UnterSpannung {", "type Event ="):
        assert name in text
    assert 'type: "played";' in text
