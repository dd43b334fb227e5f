"""A small lexicon for the modifiers of a mention: colour, size, material, count, hedges.

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

COLOURS = frozenset(
    [
        "red",
        "orange",
        "yellow",
        "green",
        "blue",
        "purple",
        "violet",
        "pink",
        "brown",
        "black",
        "white",
        "gray",
        "grey",
        "silver",
        "gold",
        "golden",
        "beige",
        "tan",
        "navy",
        "maroon",
        "teal",
        "turquoise",
        "cyan",
        "magenta",
        "lavender",
        "crimson",
        "scarlet",
        "khaki",
        "olive",
        "ivory",
        "cream",
        "bronze",
        "copper",
        "burgundy",
        "indigo",
        "aqua",
        "lime",
        "peach",
        "blond",
        "blonde",
        "brunette",
        "multicolored",
        "multicoloured",
        "colorful",
        "colourful",
        "reddish",
        "bluish",
        "greenish",
        "yellowish",
        "brownish",
        "grayish",
        "greyish",
        "pinkish",
        "whitish",
        "blackish",
    ]
)
# Modifiers that combine with a following colour into one colour value ("dark blue").
TONES = frozenset(
    ["dark", "light", "pale", "bright", "deep", "navy", "hot", "baby", "sky", "royal", "lime", "olive", "forest"]
)

SIZES = frozenset(
    [
        "small",
        "large",
        "big",
        "tiny",
        "huge",
        "little",
        "tall",
        "short",
        "long",
        "giant",
        "massive",
        "enormous",
        "miniature",
        "mini",
        "wide",
        "narrow",
        "thin",
        "thick",
        "fat",
        "medium",
        "gigantic",
        "immense",
        "petite",
        "oversized",
        "large-sized",
        "small-sized",
        "full-sized",
        "full-size",
        "high",
        "low",
    ]
)

MATERIALS = frozenset(
    [
        "wooden",
        "wood",
        "metal",
        "metallic",
        "steel",
        "iron",
        "glass",
        "plastic",
        "stone",
        "brick",
        "concrete",
        "leather",
        "paper",
        "cardboard",
        "ceramic",
        "porcelain",
        "cotton",
        "wool",
        "woolen",
        "woollen",
        "silk",
        "rubber",
        "marble",
        "granite",
        "straw",
        "wicker",
        "bamboo",
        "denim",
        "fur",
        "furry",
        "aluminum",
        "aluminium",
        "tin",
        "chrome",
        "cloth",
        "fabric",
        "plush",
        "velvet",
        "tile",
        "tiled",
        "clay",
        "cement",
        "rock",
        "rocky",
        "lace",
        "linen",
        "nylon",
        "polyester",
        "vinyl",
        "foam",
        "steel-framed",
    ]
)

# Count words -> canonical count value (digits for exact counts, a word for vague ones).
#: The number words from zero to twenty, each at its value.
NUMBER_WORDS = [
    "zero",
    "one",
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "eleven",
    "twelve",
    "thirteen",
    "fourteen",
    "fifteen",
    "sixteen",
    "seventeen",
    "eighteen",
    "nineteen",
    "twenty",
]
COUNT_WORDS: dict[str, str] = {w: str(i) for i, w in enumerate(NUMBER_WORDS)}
COUNT_WORDS.update(
    {
        "thirty": "30",
        "forty": "40",
        "fifty": "50",
        "hundred": "100",
        "dozen": "12",
        "both": "2",
        "couple": "2",
        "pair": "2",
        "single": "1",
        "lone": "1",
        "twin": "2",
        "twins": "2",
    }
)
VAGUE_COUNTS: dict[str, str] = {
    "several": "several",
    "few": "few",
    "various": "several",
    "multiple": "many",
    "many": "many",
    "numerous": "many",
    "lots": "many",
    "lot": "many",
    "dozens": "many",
    "hundreds": "many",
    "countless": "many",
    "plenty": "many",
}
# Nouns that only quantify the noun after "of" ("a group of people" counts people); "" adds no count.
QUANTIFIER_NOUNS: dict[str, str] = {
    "couple": "2",
    "pair": "2",
    "dozen": "12",
    "group": "many",
    "lot": "many",
    "lots": "many",
    "number": "many",
    "bunch": "many",
    "herd": "many",
    "flock": "many",
    "crowd": "many",
    "team": "many",
    "pack": "many",
    "swarm": "many",
    "school": "many",
    "variety": "",
    "assortment": "many",
    "collection": "many",
    "set": "many",
    "row": "many",
    "line": "many",
    "stack": "many",
    "pile": "many",
    "handful": "few",
    "few": "few",
    "several": "several",
    "plenty": "many",
    "dozens": "many",
    "hundreds": "many",
    "series": "many",
    "fleet": "many",
    # transparent: "different kinds of donuts" names donuts, and says nothing about how many
    "kind": "",
    "kinds": "",
    "type": "",
    "types": "",
    "sort": "",
    "sorts": "",
}

# Adjective + noun names of their own. Only these: WordNet also lists "young woman" (girl.n.01),
# "old man" and "white house", where the adjective is an attribute, not part of the name.
ADJECTIVE_COMPOUNDS = frozenset(
    """hot dog|hot dogs|polar bear|teddy bear|french fries|french fry
|green bean|sweet potato|hot air balloon|grand piano|electric guitar|acoustic guitar|high chair
|remote control|personal computer|mobile phone|cellular phone|traffic light|hard drive
|stuffed animal|stuffed animals|public toilet|first aid kit|flat screen|red pepper|green pepper
|bell pepper|brussels sprout|wild flower|full moon|black board|white board|dining table""".replace("\n", "").split("|")
)

# Adverbs that hedge the mention they attach to ("possibly a cat").
HEDGE_ADVERBS = frozenset(
    ["possibly", "perhaps", "maybe", "probably", "likely", "presumably", "apparently", "seemingly", "supposedly"]
)
# Verbs that hedge their complement: "what looks like a kite", "appears to be a dog".
HEDGE_VERBS = frozenset(["look", "seem", "appear", "resemble"])
# Modals that hedge a copula's complement: "it might be a cat".
HEDGE_MODALS = frozenset(["might", "may", "could"])


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
#: Colour words that agree with any colour ("a colourful kite").
VAGUE_COLOURS = frozenset({"colorful", "colourful", "multicolored", "multicoloured", "multi-colored", "bright"})
#: Colour words that name the same colour as a more basic one.
SAME_COLOUR = {
    "grey": "gray",
    "silver": "gray",
    "gold": "yellow",
    "golden": "yellow",
    "blond": "yellow",
    "blonde": "yellow",
    "tan": "brown",
    "beige": "brown",
    "ivory": "white",
    "cream": "white",
    "navy": "blue",
    "crimson": "red",
    "scarlet": "red",
    "maroon": "red",
    "burgundy": "red",
    "violet": "purple",
    "brunette": "brown",
    "teal": "blue",
    "turquoise": "blue",
    "cyan": "blue",
    "aqua": "blue",
    "lime": "green",
    "olive": "green",
    "khaki": "brown",
    "bronze": "brown",
    "copper": "brown",
    "lavender": "purple",
    "magenta": "pink",
    "indigo": "blue",
    "peach": "orange",
}
#: Sizes that contradict each other (a value in one set against all values in the other).
SIZE_OPPOSITES = (
    (
        frozenset(["small", "little", "tiny", "miniature", "mini", "petite"]),
        frozenset(["large", "big", "huge", "giant", "massive", "enormous", "gigantic", "immense", "oversized"]),
    ),
    (frozenset(["tall", "high"]), frozenset(["short", "low"])),
    (frozenset(["thin", "narrow"]), frozenset(["thick", "wide", "fat"])),
)


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
    """True when both sides name materials and share none ("wooden" and "wood" are one).

    >>> materials_clash(["wooden"], ["metal"]), materials_clash(["wooden"], ["wood"])
    (True, False)
    """
    norm = {
        "wooden": "wood",
        "metallic": "metal",
        "woolen": "wool",
        "woollen": "wool",
        "rocky": "rock",
        "stone": "rock",
        "furry": "fur",
        "tiled": "tile",
        "aluminium": "aluminum",
        "steel": "metal",
        "iron": "metal",
        "aluminum": "metal",
        "tin": "metal",
        "chrome": "metal",
    }
    a = {norm.get(v, v) for v in mine}
    b = {norm.get(v, v) for v in theirs}
    return bool(a and b and not a & b)
