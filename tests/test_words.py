"""The one catalogue of words: complete in both languages, the only place words live.

Every key is in German and English, in the same file, with the same placeholders; the
describer, the terminal and the browser only name keys the catalogue has; and no
user-facing string is written outside it, by these rules:

- **Python** (``describe.py``, ``tui/texts.py``, ``words/``): no string literal but
  docstrings holds a word of two letters or more, except catalogue keys (identifiers,
  ``_`` for spaces), file names, the names :data:`SAME_IN_EVERY_LANGUAGE` and messages for
  developers (``raise``). In the terminal's screens and boards (``tui/*.py``,
  ``games/*/board.py``), no literal with a word goes into a Textual widget or a Rich
  ``Text`` (their first argument; ``label``, ``placeholder``, ``title``, ``tooltip``
  keywords; ``title``, ``border_title``, … attributes). The command line (``--help``, its
  errors) speaks English on purpose and is not scanned.
- **JavaScript** (``web/js/*.js`` and ``games/*/web/*.js``; comments, markup inside
  ``<…>``, paths and ``${…}`` left out): no literal holds two words in a row ("Draw a card")
  unless it is code (lowercase identifiers, selectors, class lists); no literal is a
  capitalised word ("Draw"); no literal with a word is written into ``textContent``,
  ``innerText``, ``title``, ``placeholder``, ``alt``, ``aria-label`` or an element's ``text``.

What these rules cannot see: a lowercase single word or a lowercase phrase that looks like
a class list, outside those places; and a terminal error message built in Python and shown
later (``tests/tui/test_words.py`` checks the start screen's in German).
"""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path

import pytest

import third_game
from zackzack import words
from zackzack.games import entry, register, registered, unregister
from zackzack.games.base import Event
from zackzack.words import LANGS, SECTIONS, catalogue, placeholders

SRC = Path(words.__file__).resolve().parents[1]
JS = SRC / "web" / "js"


def scripts() -> list[Path]:
    """The browser's modules: the client's and each game's (``games/*/web/*.js``)."""
    return [*sorted(JS.glob("*.js")), *sorted(SRC.glob("games/*/web/*.js"))]


def describers() -> list[Path]:
    """The browser's describers: the client's ``describe.js`` and each game's own."""
    return [JS / "describe.js", *sorted(SRC.glob("games/*/web/describe.js"))]


GERMAN_CALLS = ("Nichts geht mehr", "los!")
SAME_IN_EVERY_LANGUAGE = frozenset({
    "zackzack", "Unter Spannung", "Schnelllauf", "Joker", "Bot", "Bearer",
    "Enter", "Esc", "Escape", "Space", "Shift", "Ctrl", "Backspace", "Tab", "ms"})
"""Names, not words: the brand, the games, key labels, units (and HTTP's ``Bearer``)."""
CARD = re.compile(r"(10|[2-9AJQK])[cdhs]")
WORD = re.compile(r"[A-Za-zÄÖÜäöüß]{2,}")
TWO_WORDS = re.compile(r"[A-Za-zÄÖÜäöüß]{2,}[,.:;!?–]? +[A-Za-zÄÖÜäöüß]")
CAPITALISED = re.compile(r"\W*[A-ZÄÖÜ][a-zäöüß]+\W*")
FILE = re.compile(r"[\w*/.-]*\.(?:json|js|py)")
CODE = re.compile(r"[a-z0-9 _.#:>\[\]=\"'(),*~+^$|-]*")
"""Class lists, selectors, ids: lowercase identifiers and their punctuation."""


def files(lang: str) -> list[Path]:
    return [folder / f"{lang}.json" for folder in words.folders()]


def without_names(text: str) -> str:
    for name in sorted(SAME_IN_EVERY_LANGUAGE, key=len, reverse=True):
        text = re.sub(rf"(?<![\w-]){re.escape(name)}(?![\w-])", " ", text)
    return text


def test_every_file_has_its_keys_in_both_languages_with_the_same_placeholders() -> None:
    assert len(words.folders()) >= 3  # the shared words and each game's
    for en_path in files("en"):
        en = words._decode.decode(en_path.read_bytes())
        de = words._decode.decode(en_path.with_name("de.json").read_bytes())
        assert set(en) == set(de), en_path
        for section in en:
            assert list(en[section]) == list(de[section]), (en_path, section)
            for key, template in en[section].items():
                assert template.strip(), (en_path, section, key)
                assert placeholders(template) == placeholders(de[section][key]), \
                    (en_path.parent, section, key)


def test_the_sections_are_known_and_merged_without_a_clash() -> None:
    for lang in LANGS:
        merged = catalogue(lang)
        assert tuple(merged) == SECTIONS
        assert all(merged[section] for section in SECTIONS)
    assert catalogue("fr") is catalogue("en")


def test_a_count_has_its_number_and_a_you_form_its_plain_form() -> None:
    for section, table in catalogue("en").items():
        for key in table:
            if key.endswith("_1") and key[:-2] in table:  # count(): 1 Karte, {n} Karten
                assert "{n}" in table[key[:-2]] and "{n}" not in table[key], (section, key)
            if key.endswith("_you") and section == "events":
                assert key[:-4] in table, (section, key)


def test_the_german_third_person_is_not_the_second() -> None:
    # "{who} ziehst" was once written for "{who} zieht": {who} is somebody else, never du.
    for section, table in catalogue("de").items():
        for key, template in table.items():
            for verb in re.findall(r"\{who\} (\w+)", template):
                assert verb == "ist" or not verb.endswith("st"), (section, key, template)
            if key.endswith("_you"):
                assert "{who}" not in template, (section, key, template)


def test_the_games_calls_stay_german_in_english_too() -> None:
    for lang in LANGS:
        said = catalogue(lang)["events"]
        assert said["rotated"].startswith("Nichts geht mehr!")
        assert said["ann_rotate"].startswith("Nichts geht mehr!")
        assert said["starting"].endswith("los!")
    assert "Ablagestapel" in catalogue("de")["events"]["reshuffled"]
    assert "Ablagestapel" in catalogue("de")["web"]["discard"]


def test_a_game_folder_brings_its_words_and_a_key_lives_in_one_file(tmp_path: Path) -> None:
    folder = tmp_path / "words"
    folder.mkdir()
    (folder / "en.json").write_text('{"terminal": {"g_third": "The third game"}}')
    (folder / "de.json").write_text('{"terminal": {"g_third": "Das dritte Spiel"}}')
    try:
        words.add_folder(folder)
        assert catalogue("de")["terminal"]["g_third"] == "Das dritte Spiel"
        assert b"g_third" not in words.browser_json()[0]  # the terminal's words stay here
        (folder / "en.json").write_text('{"terminal": {"too_late": "again"}}')
        words.reload()
        with pytest.raises(ValueError, match=r"terminal\.too_late is in"):
            catalogue("en")
        (folder / "en.json").write_text('{"chrome": {"x": "y"}}')
        words.reload()
        with pytest.raises(ValueError, match="chrome"):
            catalogue("en")
    finally:
        words._folders.remove(folder)
        words.reload()
    assert "g_third" not in catalogue("de")["terminal"]


def test_a_games_own_event_keys_carry_its_name() -> None:
    """``<game>.<kind>`` (Höher's, ``tests/third_game``): the game is registered, its folder
    holds the key, and one of its events is of that kind."""
    hoeher = register(third_game)
    try:
        for found in registered():
            path = found.folder / "words" / "en.json"
            own = words._decode.decode(path.read_bytes()) if path.exists() else {}
            for key in own.get("events", {}):
                game, dot, _ = key.partition(".")
                assert not dot or game == found.name, (path, key)
        dotted = [key for key in catalogue("en")["events"] if "." in key]
        assert "hoeher.played" in dotted
        for key in dotted:
            game, _, kind = key.removesuffix("_you").partition(".")
            events = vars(entry(game).rules).values()
            assert kind in {event.kind for event in events
                            if isinstance(event, type) and issubclass(event, Event)}, key
    finally:
        unregister(hoeher.name)


def _calls(path: Path, names: set[str]) -> list[tuple[int, str]]:
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Call) and node.args:
            func = node.func
            name = func.id if isinstance(func, ast.Name) else \
                func.attr if isinstance(func, ast.Attribute) else ""
            first = node.args[0]
            if name in names and isinstance(first, ast.Constant) and isinstance(first.value, str):
                found.append((node.lineno, first.value))
    return found


def _text_keys(path: Path) -> list[tuple[int, str]]:
    """The terminal text keys a keys module names as plain strings (``k_…``, ``bar_…``)."""
    return [(node.lineno, node.value) for node in ast.walk(ast.parse(path.read_text("utf-8")))
            if isinstance(node, ast.Constant) and isinstance(node.value, str)
            and re.fullmatch(r"(k|bar)_\w+", node.value)]


def test_the_keys_modules_are_scanned_for_their_text_keys() -> None:
    keys = {key for path in SRC.glob("games/*/keys.py") for _, key in _text_keys(path)}
    assert {"k_pile1", "bar_sl", "k_spread", "bar_us"} <= keys


def test_every_key_the_clients_name_is_in_the_catalogue() -> None:
    events, terminal, web = (catalogue("en")[section] for section in SECTIONS)
    missing = []
    for path in [*sorted((SRC / "tui").glob("*.py")), *sorted(SRC.glob("games/*/board.py"))]:
        missing += [(path.name, line, key) for line, key in _calls(path, {"tr", "_t", "t"})
                    if key not in terminal]
    for path in [SRC / "tui" / "keys.py", *sorted(SRC.glob("games/*/keys.py"))]:
        named = _text_keys(path)  # HelpRow(..., "k_pile1"), the bars' "bar_sl"
        missing += [(f"{path.parent.name}/{path.name}", line, key) for line, key in named
                    if key not in terminal]
    missing += [("words/describe.py", line, key) for line, key
                in _calls(SRC / "words" / "describe.py", {"t", "text"}) if key not in events]
    browser = set(web) | {f"ev_{key}" for key in events}
    for path in scripts():
        source = path.read_text(encoding="utf-8")
        for match in re.finditer(r"""\b(?:t|parts|count|has)\(\s*["']([\w-]+)["']""", source):
            if match.group(1) not in browser:
                missing.append((path.name, source.count("\n", 0, match.start()) + 1,
                                match.group(1)))
    said = "".join(path.read_text(encoding="utf-8") for path in describers())
    keys = re.findall(r"""\bsay\(\s*["'](\w+)["']""", said)
    assert len(keys) > 15
    missing += [("describe.js", 0, key) for key in keys if key not in events]
    html = (SRC / "web" / "index.html").read_text(encoding="utf-8")
    missing += [("index.html", 0, key) for key in re.findall(r'data-i18n="([\w-]+)"', html)
                if key not in web]
    assert not missing


def test_describe_js_does_not_copy_the_sentences() -> None:
    said = "".join(path.read_text(encoding="utf-8") for path in describers())
    for template in catalogue("en")["events"].values():
        for piece in re.split(r"\{\w+\}", template):
            assert len(piece.strip()) < 8 or piece.strip() not in said, piece


STRING = re.compile(r"""//[^\n]*|/\*.*?\*/|"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'"""
                    r"""|`(?:[^`\\]|\\.)*`""", re.S)
SINK = re.compile(r"""(?:\.(?:textContent|innerText|title|placeholder|ariaLabel|alt)\s*="""
                  r"""|setAttribute\(\s*["'](?:aria-label|aria-description|title|placeholder"""
                  r"""|alt)["']\s*,|[{,]\s*["']?(?:text|title|placeholder|alt|aria-label|ariaLabel"""
                  r"""|aria-description)["']?\s*:)\s*$""")


def stray_js(source: str) -> list[tuple[int, str]]:
    """The literals of a module that are words outside the catalogue (the rules above).

    >>> stray_js('el.textContent = "Draw"; h("p", {class: "feed head"}, `${t("x")} · 3`);')
    [(1, '"Draw"')]
    >>> stray_js('x = "Draw a card"; y = "Esc"; // "a comment is fine"')
    [(1, '"Draw a card"')]
    """
    found = []
    for match in STRING.finditer(source):
        literal = match.group(0)
        if literal.startswith("/"):
            continue
        body = re.sub(r"\$\{(?:[^{}]|\{[^{}]*\})*\}", " ", literal[1:-1])
        if "<" in body or body.startswith(("/", "./")) or CARD.fullmatch(body):
            continue
        body = without_names(body)
        into_a_sink = SINK.search(source[max(0, match.start() - 60):match.start()])
        prose = TWO_WORDS.search(body) and not CODE.fullmatch(body)
        if prose or CAPITALISED.fullmatch(body) or (into_a_sink and WORD.search(body)):
            found.append((source.count("\n", 0, match.start()) + 1, literal[:80]))
    return found


def test_no_words_in_the_browser_outside_the_catalogue() -> None:
    stray = {path.name: found for path in scripts()
             if (found := stray_js(path.read_text(encoding="utf-8")))}
    assert not stray


def _docstrings(tree: ast.AST) -> set[int]:
    found = set()
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if isinstance(body, list):
            found.update(id(item.value) for item in body
                         if isinstance(item, ast.Expr) and isinstance(item.value, ast.Constant))
    return found


def _raised(tree: ast.AST) -> set[int]:
    return {id(inner) for node in ast.walk(tree) if isinstance(node, ast.Raise)
            for inner in ast.walk(node)}


def test_no_words_in_the_describer_and_the_terminals_texts_outside_the_catalogue() -> None:
    stray = []
    for path in (SRC / "words" / "describe.py", SRC / "tui" / "texts.py",
                 SRC / "words" / "__init__.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        skip = _docstrings(tree) | _raised(tree)
        for node in ast.walk(tree):
            if (isinstance(node, ast.Constant) and isinstance(node.value, str)
                    and id(node) not in skip and not node.value.isidentifier()
                    and not FILE.fullmatch(node.value)
                    and WORD.search(without_names(node.value))):
                stray.append((path.name, node.lineno, node.value))
    assert not stray


WIDGETS = {"Static", "Label", "Button", "Checkbox", "RadioButton", "Choice", "Tick", "Text",
           "Option", "Switch", "ListItem", "Link", "Rule", "Collapsible", "notify", "update",
           "write"}
LABELS = {"label", "placeholder", "title", "tooltip", "sub_title", "text"}
TITLES = {"title", "sub_title", "tooltip", "placeholder", "label", "border_title",
          "border_subtitle"}


def test_no_words_into_the_terminals_widgets_outside_the_catalogue() -> None:
    stray = []
    for path in [*sorted((SRC / "tui").glob("*.py")), *sorted(SRC.glob("games/*/board.py"))]:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            given: list[ast.expr] = []
            if isinstance(node, ast.Call):
                func = node.func
                name = func.id if isinstance(func, ast.Name) else \
                    func.attr if isinstance(func, ast.Attribute) else ""
                given = node.args[:1] if name in WIDGETS else []
                given += [k.value for k in node.keywords if k.arg in LABELS]
            elif isinstance(node, ast.Assign) and any(
                    isinstance(t, ast.Attribute) and t.attr in TITLES for t in node.targets):
                given = [node.value]
            for value in given:
                pieces = value.values if isinstance(value, ast.JoinedStr) else [value]
                stray += [(path.name, piece.lineno, piece.value) for piece in pieces
                          if isinstance(piece, ast.Constant) and isinstance(piece.value, str)
                          and WORD.search(without_names(piece.value))]
    assert not stray


def test_the_browser_is_sent_the_events_and_its_own_words(tmp_path: Path) -> None:
    from starlette.testclient import TestClient

    from zackzack.server.app import Config, create_app

    with TestClient(create_app(Config(db=str(tmp_path / "z.db")))) as client:
        response = client.get("/words.json")
        assert response.status_code == 200 and response.headers["cache-control"] == "no-cache"
        sent = response.json()
        assert set(sent) == set(LANGS)
        for lang in LANGS:
            assert sent[lang] == {section: catalogue(lang)[section] for section in words.BROWSER}
        again = client.get("/words.json", headers={"if-none-match": response.headers["etag"]})
        assert again.status_code == 304
        page = client.get("/").text  # carries the same words: the first page waits for none
        block = re.search(r'<script type="application/json" id="zz-words">(.*?)</script>', page)
        assert block is not None and json.loads(block.group(1)) == sent
