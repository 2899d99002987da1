"""Write the browser client's protocol types (types/protocol.d.ts) from the server's schemas.

The messages either way (``zackzack.server.protocol``), the table's view and events
(``zackzack.engine.table_data``) and each registered game's view, events, actions and options are
turned into JSON Schema by ``msgspec.json.schema_components``, and that into TypeScript
declarations in one global namespace, ``Protocol`` (``Protocol.Welcome``,
``Protocol.Schnelllauf.View``), which the client's JSDoc names; ``tsc`` checks the client
against them (docs/web.md). ``tests/test_protocol_types.py`` regenerates the file and fails
when it differs, so that client and server cannot drift apart.

    python scripts/protocol_types.py            # write types/protocol.d.ts
    python scripts/protocol_types.py --check    # exit 1 if it is not up to date
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

import msgspec

from zackzack.engine import table_data
from zackzack.games import registry
from zackzack.games.base import Notation
from zackzack.server import protocol

OUT = Path(__file__).resolve().parent.parent / "types" / "protocol.d.ts"
HEADER = """\
// The protocol's types for the browser client (docs/protocol.md), generated from the server's
// msgspec schemas by scripts/protocol_types.py: do not edit, run it again.
// tests/test_protocol_types.py fails when this file differs from what it writes.
"""

Schema = dict[str, Any]


def _hook(kind: Any) -> Schema:
    """Cards (and any other notation) travel as their notation."""
    if isinstance(kind, type) and issubclass(kind, Notation):
        return {"type": "string"}
    raise NotImplementedError(f"no schema for {kind!r}")


def _structs(kinds: list[Any]) -> dict[str, type[msgspec.Struct]]:
    """Every Struct class reachable from ``kinds``, by name (the schemas' ``$defs`` keys)."""
    found: dict[str, type[msgspec.Struct]] = {}

    def walk(info: Any) -> None:
        if isinstance(info, msgspec.inspect.StructType):
            if found.setdefault(info.cls.__name__, info.cls) is not info.cls:
                raise SystemExit(f"two Structs named {info.cls.__name__}: name one namespace each")
            for f in info.fields:
                walk(f.type)
            return
        for name in ("item_type", "key_type", "value_type"):
            if hasattr(info, name):
                walk(getattr(info, name))
        for name in ("types", "item_types"):
            for part in getattr(info, name, ()):
                walk(part)

    for info in msgspec.inspect.multi_type_info(kinds):
        walk(info)
    return found


class Namespace:
    """The declarations of one namespace: named unions first, then the interfaces and types."""

    def __init__(self, unions: dict[str, list[Any]], outputs: list[Any], inputs: list[Any]):
        self.unions = unions
        self.defs: Schema = {}
        self.output: set[str] = set()
        """Defs of what the server sends: every field is there (but an ``omit_defaults``
        Struct's defaults), so none is optional; what a client sends may leave defaults out."""
        self.classes: dict[str, type[msgspec.Struct]] = {}
        for kinds, out in ((outputs, True), (inputs, False)):
            if not kinds:
                continue
            _, defs = msgspec.json.schema_components(kinds, schema_hook=_hook)
            for name, schema in defs.items():
                if self.defs.setdefault(name, schema) != schema:
                    raise SystemExit(f"{name} differs between what is sent and what is received")
                if out:
                    self.output.add(name)
            self.classes.update(_structs(kinds))

    def lines(self, indent: str) -> list[str]:
        lines: list[str] = []
        for name, members in self.unions.items():
            parts = " | ".join(kind.__name__ for kind in members)
            lines.append(f"{indent}type {name} = {parts};")
        for name in sorted(self.defs):
            lines += self._decl(name, self.defs[name], indent)
        return lines

    def _decl(self, name: str, schema: Schema, indent: str) -> list[str]:
        lines = _doc(schema.get("description"), indent)
        if schema.get("type") != "object" or "properties" not in schema:
            return [*lines, f"{indent}type {name} = {_ts(schema)};"]
        kind = self.classes.get(name)
        omits = kind is not None and kind.__struct_config__.omit_defaults
        required = set(schema.get("required", ()))
        lines.append(f"{indent}interface {name} {{")
        for field, value in schema["properties"].items():
            optional = field not in required and (name not in self.output or omits)
            lines.append(f"{indent}  {_key(field)}{'?' if optional else ''}: {_ts(value)};")
        lines.append(f"{indent}}}")
        return lines


def _doc(text: str | None, indent: str) -> list[str]:
    if not text:
        return []
    body = text.replace("*/", "*\\/").replace("``", "`").splitlines()
    if len(body) == 1:
        return [f"{indent}/** {body[0]} */"]
    return [f"{indent}/**", *(f"{indent} * {line}".rstrip() for line in body), f"{indent} */"]


def _key(name: str) -> str:
    return name if name.isidentifier() else json.dumps(name)


def _ts(schema: Schema) -> str:
    """The TypeScript type of a JSON Schema as msgspec writes them."""
    if "$ref" in schema:
        return str(schema["$ref"]).rsplit("/", 1)[-1]
    if "anyOf" in schema:
        parts = list(dict.fromkeys(_ts(part) for part in schema["anyOf"]))
        return "any" if "any" in parts else " | ".join(parts)
    if "enum" in schema:
        return " | ".join(json.dumps(value) for value in schema["enum"])
    if "const" in schema:
        return json.dumps(schema["const"])
    kind = schema.get("type")
    if kind is None:
        return "any"
    if kind == "array":
        if "prefixItems" in schema:
            return "[" + ", ".join(_ts(part) for part in schema["prefixItems"]) + "]"
        item = _ts(schema.get("items", {}))
        return f"({item})[]" if _union(item) else f"{item}[]"
    if kind == "object":
        value = schema.get("additionalProperties", {})
        return f"{{ [key: string]: {_ts(value) if isinstance(value, dict) else 'any'} }}"
    simple = {"string": "string", "integer": "number", "number": "number", "boolean": "boolean",
              "null": "null"}
    return simple[kind]


def _union(text: str) -> bool:
    """Whether ``text`` is a union at its top level (not only inside brackets)."""
    depth = 0
    for char in text:
        depth += (char in "[{(") - (char in "]})")
        if char == "|" and depth == 0:
            return True
    return False


def _pascal(name: str) -> str:
    return "".join(part.capitalize() for part in name.replace("-", "_").split("_"))


def generate() -> str:
    """The text of types/protocol.d.ts."""
    messages = Namespace(
        {"ClientMessage": list(protocol.ClientMessage.__args__),
         "ServerMessage": list(protocol.ServerMessage.__args__),
         "TableEvent": list(table_data.EVENTS)},
        outputs=[protocol.ServerMessage, table_data.TableView, *table_data.EVENTS],
        inputs=[protocol.ClientMessage])
    lines = [HEADER, "declare namespace Protocol {", *messages.lines("  ")]
    inside = Path(registry.__file__).resolve().parent  # the games that come with zackzack
    for game in sorted((game for game in registry.registered() if game.folder.parent == inside),
                       key=lambda game: game.rules.INFO.name):
        rules = game.rules
        space = Namespace({"Event": list(rules.EVENTS), "Action": list(rules.ACTIONS)},
                          outputs=[rules.View, *rules.EVENTS],
                          inputs=list(rules.ACTIONS))
        lines += ["", f"  /** {rules.INFO.title} ({rules.INFO.name}). */",
                  f"  namespace {_pascal(rules.INFO.name)} {{", *space.lines("    "), "  }"]
    lines.append("}")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="exit 1 if the file is not current")
    args = parser.parse_args(argv)
    text = generate()
    if args.check:
        if not OUT.exists() or OUT.read_text(encoding="utf-8") != text:
            print(f"{OUT} is out of date: run python scripts/protocol_types.py", file=sys.stderr)
            return 1
        return 0
    OUT.parent.mkdir(exist_ok=True)
    OUT.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
