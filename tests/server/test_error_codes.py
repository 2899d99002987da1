"""Every error code the server can send is documented and has words in both languages.

The codes are read from the code itself (every ``ProtocolError``, ``Error``, ``Ack`` and API
``error_response`` with a literal code, and every refusal, ``games.registry.refusals()``) and
from docs/protocol.md; the words from the catalogue's ``web`` section (``zackzack.words``). A new
code without a line in the docs or without an English and a German sentence fails here.
"""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path

import pytest

from zackzack.games.registry import refusals
from zackzack.words import catalogue

ROOT = Path(__file__).resolve().parents[2]
SERVER = ROOT / "src" / "zackzack" / "server"
PROTOCOL_MD = ROOT / "docs" / "protocol.md"


def _literal(node: ast.expr | None) -> str | None:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


def sent_codes() -> set[str]:
    """The codes the server can send: literal codes in its source, and the games' refusals."""
    codes = {cls.code for cls in refusals()}
    for path in SERVER.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call):
                continue
            func = node.func
            name = func.id if isinstance(func, ast.Name) else \
                func.attr if isinstance(func, ast.Attribute) else ""
            found: list[str | None] = []
            if name == "ProtocolError" and node.args:
                found.append(_literal(node.args[0]))
            if name in ("Error", "Ack"):
                found += [_literal(k.value) for k in node.keywords if k.arg == "code"]
            if name == "error_response" and len(node.args) > 1:
                found.append(_literal(node.args[1]))
            codes.update(code for code in found if code)
    return codes


def documented_codes() -> set[str]:
    """The codes docs/protocol.md lists: each "Codes:" list, and the HTTP API's errors."""
    text = PROTOCOL_MD.read_text(encoding="utf-8")
    codes: set[str] = set()
    for found in re.finditer(r"Codes:(.*?)(?:\n\s*\n|\n- )", text, re.S):
        listed = re.sub(r"\([^)]*\)", "", found.group(1))  # "(you are watching)" and such
        listed = re.split(r"\.\s", listed)[0]  # the list is one sentence
        codes.update(re.findall(r"`([a-z_]+)`", listed))
    codes.update(re.findall(r'\{"error": "([a-z_]+)"', text))
    return codes


def words() -> dict[str, dict[str, str]]:
    """The browser's sentences per language: ``{"en": {key: text}, "de": {...}}``."""
    return {lang: catalogue(lang)["web"] for lang in ("en", "de")}


def test_the_scan_finds_the_known_codes() -> None:
    sent, documented = sent_codes(), documented_codes()
    assert {"bad_bot", "no_such_table", "rate_limited", "internal", "no_such_match",
            "not_seated", "too_late", "round_over"} <= sent
    assert {"bad_bot", "no_such_match", "too_late", "not_seated", "internal"} <= documented


def test_every_code_the_server_sends_is_documented() -> None:
    missing = sent_codes() - documented_codes()
    assert not missing, f"codes sent but not listed in docs/protocol.md: {sorted(missing)}"


def test_every_code_has_a_sentence_in_english_and_german() -> None:
    text = words()
    for code in sorted(sent_codes() | documented_codes()):
        key = f"err_{code}"
        assert text["en"].get(key), f"no English words for {code} ({key} in words/en.json)"
        assert text["de"].get(key), f"no German words for {code} ({key} in words/de.json)"
        assert text["de"][key] != text["en"][key], f"{key} is not translated"


def test_error_sentences_never_embed_the_english_reason() -> None:
    # The server's reason is English: it is a detail beside the sentence, never inside it.
    for lang, table in words().items():
        for key, sentence in table.items():
            if key.startswith("err_") or key == "load_failed":
                assert "{reason}" not in sentence, f"{lang} {key} puts the English reason inside"


def test_a_failing_api_request_answers_with_a_code(tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    from starlette.testclient import TestClient

    from zackzack.server.app import Config, create_app

    with TestClient(create_app(Config(db=str(tmp_path / "z.db")))) as client:
        store = client.app.state.server.store  # type: ignore[attr-defined]

        def broken(*args: object, **kwargs: object) -> None:
            raise OSError("the disk is gone")

        monkeypatch.setattr(store, "matches", broken)
        monkeypatch.setattr(store, "match", broken)
        for path in ("/api/matches", "/api/matches/q3J8x0aZ1c"):
            response = client.get(path)
            assert response.status_code == 500
            assert response.json() == {"error": "internal",
                                       "reason": "the server failed; try again"}


def test_the_welcome_offers_the_servers_bots() -> None:
    from zackzack.bots import LEVELS, STRATEGIES
    from zackzack.server.protocol import Welcome, encode

    welcome = json.loads(encode(Welcome(player="p_x", token="t", name="Anna")))
    assert welcome["bots"] == {"levels": list(LEVELS), "strategies": list(STRATEGIES)}
