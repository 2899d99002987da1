"""The one catalogue of words, German and English, for the describer, the terminal and the browser.

A catalogue is JSON, one file per language: ``words/de.json`` here holds the shared words,
and each game brings its own in its folder, ``games/<game>/words/de.json`` (found by
looking, not by a list: a new game's folder is enough). Each file has up to three
sections, ``events`` (the sentences ``describe`` makes of events, read by ``describe.py``
and the browser's ``describe.js`` alike), ``terminal`` (``tui/texts.py``) and ``web``
(``web/js/i18n.js``); a key lives in one file only. Templates hold ``{name}`` placeholders
(``str.format`` in Python, the same braces in ``i18n.js``); a word for a count has the
plural under ``key`` and the singular under ``key_1`` (as ``i18n.count`` reads them).

Two games may both have an event ``played``, so a game's own event sentences are keyed by
the game's name: ``<game>.<kind>`` (and ``<game>.<kind>_you``), say ``hoeher.played``;
``describe`` says an event of that game by that key, filling in the event's fields (and
``who`` for its ``seat``), with no code of the game's. Unter Spannung's and Schnelllauf's
keys predate the rule and stay plain (``played``, ``played_on``: ``describe.js`` names
them). A game kept outside ``games/`` (a test's) is read once :func:`add_folder` names its
folder, which :func:`zackzack.games.register` does.

>>> catalogue("de")["events"]["drew_own"]
'{who} zieht {card} (noch {left})'
>>> sorted(placeholders("{who} legt {card} – „{value}!“"))
['card', 'value', 'who']
>>> set(catalogue("en")) == set(SECTIONS)
True
"""

from __future__ import annotations

import functools
import hashlib
import string
from pathlib import Path
from typing import Literal

import msgspec

LANGS = ("de", "en")
SECTIONS = ("events", "terminal", "web")
BROWSER = ("events", "web")
"""The sections the browser is sent (the terminal's words stay on the server)."""

Section = Literal["events", "terminal", "web"]
Catalogue = dict[str, dict[str, str]]
"""Section → key → template."""

HERE = Path(__file__).resolve().parent
GAMES = HERE.parent / "games"
_folders: list[Path] = []
_decode = msgspec.json.Decoder(dict[Section, dict[str, str]])


def folders() -> list[Path]:
    """Every folder of words: the shared one, each game's (by name), then any added."""
    return [HERE, *sorted(path.parent for path in GAMES.glob("*/words/en.json")), *_folders]


def add_folder(folder: Path) -> None:
    """Read words from ``folder`` too (a game kept outside ``games/``, a test's game)."""
    if folder not in _folders:
        _folders.append(folder)
        reload()


def remove_folder(folder: Path) -> None:
    """Stop reading words from ``folder`` (added by :func:`add_folder`; others: nothing)."""
    if folder in _folders:
        _folders.remove(folder)
        reload()


def reload() -> None:
    """Read the files again at the next look-up (they are read once, then kept)."""
    _merged.cache_clear()
    browser_json.cache_clear()


def catalogue(lang: str) -> Catalogue:
    """Every word in ``lang`` (English for a language there is none of), by section."""
    return _merged(lang if lang in LANGS else "en")


@functools.cache
def _merged(lang: str) -> Catalogue:
    merged: Catalogue = {section: {} for section in SECTIONS}
    found_in: dict[tuple[str, str], Path] = {}
    for folder in folders():
        path = folder / f"{lang}.json"
        if not path.exists():
            continue
        try:
            sections = _decode.decode(path.read_bytes())
        except msgspec.ValidationError as error:
            raise ValueError(f"{path}: {error}") from None
        for section, words in sections.items():
            for key, template in words.items():
                if (section, key) in found_in:
                    raise ValueError(f"{section}.{key} is in {found_in[section, key]} and {path}")
                found_in[section, key] = path
                merged[section][key] = template
    return merged


def placeholders(template: str) -> set[str]:
    """The names of the ``{name}`` fields in ``template``."""
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


@functools.cache
def browser_json() -> tuple[bytes, str]:
    """What the browser is sent (``{"de": {"events": …, "web": …}, "en": …}``), and its ETag."""
    body = msgspec.json.encode(
        {lang: {section: catalogue(lang)[section] for section in BROWSER} for lang in LANGS})
    return body, '"' + hashlib.sha256(body).hexdigest()[:16] + '"'
