"""The modifiers of a mention sorted into kinds (colour, size, material, count, other), and
whether two descriptions of one thing clash; the words themselves are in
:mod:`parsers.attribute_words`.

Both sides of a comparison use it (caption adjectives and annotation attributes such as Visual
Genome's ``"attributes": ["wooden", "dark blue"]``), so the same word lands in the same kind.

>>> attribute_kind("wooden"), attribute_kind("Dark Blue"), attribute_kind("tiny"), attribute_kind("wet")
('material', 'colour', 'size', 'other')
>>> count_value("twelve"), count_value("3"), count_value("several"), count_value("red")
('12', '3', 'several', None)
>>> group_attributes(["red", "two", "smiling", "plastic"])
{'colour': ['red'], 'count': ['2'], 'other': ['smiling'], 'material': ['plastic']}
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable
from functools import lru_cache

from parsers.attribute_words import (
    COLOURS,
    COUNT_WORDS,
    MATERIALS,
    MAY_BE_MADE_OF,
    SAME_COLOUR,
    SAME_MATERIAL,
    SIZE_OPPOSITES,
    SIZES,
    TONES,
    VAGUE_COLOURS,
    VAGUE_COUNTS,
)


def attribute_kind(value: str) -> str:
    """The kind of an attribute value: colour, size, material, count or other."""
    v = value.strip().lower()
    words = v.replace("-", " ").split()
    if not words:
        return "other"
    if count_value(v) is not None:
        return "count"
    last = words[-1]
    # "dark blue", "light-green": the last word decides when the rest are tones.
    if last in COLOURS and all(w in TONES or w in COLOURS for w in words):
        return "colour"
    if v in MATERIALS or (len(words) == 1 and last in MATERIALS):
        return "material"
    if v in SIZES or (len(words) == 1 and last in SIZES):
        return "size"
    return "other"


def count_value(word: str) -> str | None:
    """The canonical count for a count word or numeral, else ``None``. Numerals in any script
    come back as ASCII digits; a superscript ("²") is an exponent or footnote, not a count.

    >>> count_value("007"), count_value("١٢"), count_value("²"), count_value("")
    ('7', '12', None, None)
    """
    w = word.strip().lower().replace(",", "")
    if w.isdecimal():  # not isdigit(): "²" is a digit that int() refuses
        # digit by digit, not int(w): a numeral past 4300 digits exceeds int()'s limit
        return "".join(str(unicodedata.decimal(ch)) for ch in w).lstrip("0") or "0"
    return COUNT_WORDS.get(w) or VAGUE_COUNTS.get(w)


def group_attributes(values: Iterable[str]) -> dict[str, list[str]]:
    """Sort attribute values into kinds, keeping first-seen order and dropping repeats."""
    out: dict[str, list[str]] = {}
    for value in values:
        v = " ".join(value.strip().lower().split())
        if not v:
            continue
        kind = attribute_kind(v)
        if kind == "count":
            v = count_value(v) or v
        bucket = out.setdefault(kind, [])
        if v not in bucket:
            bucket.append(v)
    return out


# -- agreement between two descriptions of one thing ----------------------------------------


def base_colour(value: str) -> str:
    """The basic colour a colour value names ("dark blue" -> blue, "reddish" -> red, "navy" -> blue).

    >>> base_colour("Dark Blue"), base_colour("reddish"), base_colour("golden")
    ('blue', 'red', 'yellow')
    """
    words = value.lower().replace("-", " ").split()
    last = words[-1] if words else value.lower()
    if last.endswith("ish") and last[:-3] in COLOURS:
        last = last[:-3]
    elif last.endswith("dish") and last[:-4] in COLOURS:  # reddish
        last = last[:-4]
    return SAME_COLOUR.get(last, last)


def colours_clash(mine: Iterable[str], theirs: Iterable[str]) -> bool:
    """True when both sides give colours, none is vague, and no basic colour is shared.

    >>> colours_clash(["red"], ["blue"]), colours_clash(["dark red"], ["crimson"]), colours_clash(["red"], [])
    (True, False, False)
    """
    a, b = list(mine), list(theirs)
    if not a or not b or any(v in VAGUE_COLOURS for v in a + b):
        return False
    return not ({base_colour(v) for v in a} & {base_colour(v) for v in b})


def colour_distance(a: str, b: str) -> float | None:
    """How far apart two colours are as people see them: the CIEDE2000 difference (about 0 to
    100; 2 is barely seen) of the colours the xkcd colour survey's respondents gave those names
    (matplotlib's ``XKCD_COLORS``), each name else its basic colour (:func:`base_colour`).
    None for a value that names no one colour ("colorful").

    >>> round(colour_distance("gold", "tan")), round(colour_distance("red", "blue"))
    (11, 49)
    """
    x, y = _survey_colour(a), _survey_colour(b)
    return None if x is None or y is None else _delta_e(x, y)


@lru_cache(maxsize=1024)
def _delta_e(x: str, y: str) -> float:
    from coloraide import Color

    return float(Color(x).delta_e(Color(y), method="2000"))


@lru_cache(maxsize=1024)
def _survey_colour(value: str) -> str | None:
    """The hex colour the xkcd survey (or CSS) names ``value``, or its basic colour."""
    v = " ".join(value.lower().replace("-", " ").split())
    if not v or v in VAGUE_COLOURS:
        return None
    xkcd, css = _colour_names()
    for name in dict.fromkeys((v, v.replace("grey", "gray"), v.replace("gray", "grey"), base_colour(v))):
        hex_ = xkcd.get(f"xkcd:{name}") or css.get(name.replace(" ", ""))
        if isinstance(hex_, str):
            return hex_
    return None


@lru_cache(maxsize=1)
def _colour_names() -> tuple[dict[str, str], dict[str, str]]:
    """matplotlib's tables of the xkcd survey's and CSS's colour names, read from its data module
    without importing matplotlib itself: that import leaves some 35,000 objects behind, which the
    garbage collector then walks for the rest of a run (15 % of a reference run's time)."""
    import importlib.util
    import runpy
    from pathlib import Path

    spec = importlib.util.find_spec("matplotlib")
    if spec is None or not spec.submodule_search_locations:
        raise RuntimeError("colour names need matplotlib. Fix: pip install matplotlib")
    table = runpy.run_path(str(Path(list(spec.submodule_search_locations)[0]) / "_color_data.py"))
    return table["XKCD_COLORS"], table["CSS4_COLORS"]


def sizes_clash(mine: Iterable[str], theirs: Iterable[str]) -> bool:
    """True when a caption size is the opposite of every size the image side gives.

    >>> sizes_clash(["small"], ["large", "huge"]), sizes_clash(["small"], ["large", "tiny"])
    (True, False)
    """
    a, b = set(mine), set(theirs)
    if not a or not b:
        return False
    for one, other in SIZE_OPPOSITES:
        for x, y in ((one, other), (other, one)):
            if a & x and b <= y:
                return True
    return False


def materials_clash(mine: Iterable[str], theirs: Iterable[str]) -> bool:
    """True when both sides name materials and share none ("wooden" and "wood" are one, so are
    "cement" and "concrete"), and none may be made of another (a tile of marble:
    :data:`parsers.attribute_words.MAY_BE_MADE_OF`).

    >>> materials_clash(["wooden"], ["metal"]), materials_clash(["wooden"], ["wood"])
    (True, False)
    >>> materials_clash(["tiled"], ["marble"]), materials_clash(["tiled"], ["wooden"])
    (False, True)
    """
    a = {SAME_MATERIAL.get(v, v) for v in mine}
    b = {SAME_MATERIAL.get(v, v) for v in theirs}
    if any(y in MAY_BE_MADE_OF.get(x, ()) or x in MAY_BE_MADE_OF.get(y, ()) for x in a for y in b):
        return False
    return bool(a and b and not a & b)
