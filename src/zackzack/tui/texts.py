"""Every word the terminal client shows, in German and English; events come from ``describe``.

The words are the ``terminal`` section of the catalogue (``zackzack.words``): the shared
ones in ``words/*.json``, a game's own in ``games/<game>/words/*.json``.

>>> tr("too_late", "de")
'Zu spät – jemand war schneller. Keine Strafe.'
>>> system_lang({"LANG": "de_AT.UTF-8"}), system_lang({"LC_ALL": "C"})
('de', 'en')
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

from zackzack.words import LANGS, catalogue


def tr(key: str, lang: str = "en", **fields: Any) -> str:
    """The text ``key`` in ``lang`` (English if unknown) with ``fields`` filled in."""
    texts = catalogue(lang)["terminal"]
    return texts[key].format(**fields) if fields else texts[key]


def level(spec: str, lang: str) -> str:
    """A bot's level (and strategy) in ``lang``: ``pro`` → ``Profi``, ``normal:random`` →
    ``normal, zufällig`` (the command line and the bots field take the English names).

    >>> level("pro", "de"), level("normal:random", "de"), level("machine", "en")
    ('Profi', 'normal, zufällig', 'machine')
    """
    return ", ".join(tr(part, lang) if known(part) else part for part in spec.split(":"))


def bot_spec(text: str, lang: str) -> str:
    """A bot as typed in ``lang``, with its level and strategy in English (as bots are named).

    >>> bot_spec(" Profi ", "de"), bot_spec("normal:zufällig", "de"), bot_spec("pro:gelernt", "de")
    ('pro', 'normal:random', 'pro:learned')
    """
    words = {tr(word, lang).lower(): word
             for word in ("beginner", "normal", "pro", "machine", "random", "learned")}
    return ":".join(words.get(part.strip().lower(), part.strip()) for part in text.split(":"))


def key_names(keys: str, lang: str) -> str:
    """Key names as the keyboard of ``lang`` labels them: ``Space`` → ``Leertaste``, ``Ctrl``
    → ``Strg``.

    >>> key_names("Esc Ctrl+Q", "de"), key_names("Space", "de")
    ('Esc Strg+Q', 'Leertaste')
    """
    for name in ("Space", "Ctrl", "Backspace"):
        keys = keys.replace(name, tr(f"key_{name.lower()}", lang))
    return keys


def in_s(ms: float) -> int:
    """A countdown's seconds as people say them: whole seconds, rounded up (``in 8 s`` for
    7.2 s, never ``in 0 s`` while it runs).

    >>> in_s(7999), in_s(7001), in_s(120), in_s(0)
    (8, 8, 1, 0)
    """
    return max(0, -int(-ms // 1000))


def cards(n: int, lang: str) -> str:
    """``n`` cards, singular for one."""
    return tr("card", lang) if n == 1 else tr("cards", lang, n=n)


def known(key: str) -> bool:
    """Whether the catalogue has a text ``key`` (a refusal code, say)."""
    return key in catalogue("en")["terminal"]


def system_lang(environ: Mapping[str, str] = os.environ) -> str:
    """The language of the system locale (``LC_ALL``, ``LC_MESSAGES``, ``LANG``): de or en."""
    for name in ("LC_ALL", "LC_MESSAGES", "LANG", "LANGUAGE"):
        value = environ.get(name, "")
        if value:
            lang = value[:2].lower()
            return lang if lang in LANGS else "en"
    return "en"
