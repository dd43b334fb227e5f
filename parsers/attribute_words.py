"""The word tables of :mod:`parsers.attributes`: colours, sizes, materials, count and number
words, quantifier nouns, adjective + noun names, hedges, and which values agree or clash.

Both sides of a comparison read them (caption adjectives and annotation attributes such as
Visual Genome's ``"attributes": ["wooden", "dark blue"]``), so the same word lands in the same kind.
"""

from __future__ import annotations

from knowledge import is_thing, lexname, noun_synset
from knowledge.hierarchy import get_hierarchy

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
        "china",
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

# Adjective + noun names that :func:`names_with` would read apart, its adjective being a colour,
# size or tone ("hot dog", "high chair", "full moon"), or WordNet having no such name ("flat
# screen", "stuffed animal"). A colour in a drink's or a cheese's name says its kind, not how it
# looks: "white wine" is yellow, "green tea" and "black tea" are brown, "blue cheese" is mostly
# white. WordNet's own names ("electric guitar", "polar bear") need no entry.
ADJECTIVE_COMPOUNDS = frozenset(
    """hot dog|hot dogs|french fry|green bean|hot air balloon|high chair|traffic light
|stuffed animal|stuffed animals|first aid kit|flat screen|red pepper|green pepper|full moon
|black board|white board|white wine|red wine|green tea|black tea|blue cheese""".replace("\n", "").split("|")
)


def names_with(adjective: str, noun: str) -> bool:
    """Whether ``adjective`` and the noun lemma ``noun`` make one name: a listed one ("hot dog",
    "red wine"), or a WordNet compound naming a visible thing whose adjective is no colour, size,
    material or tone, which the parser reads apart, nor a person, whom age or role words describe
    ("musical instrument", "electric guitar", "fried egg"; not "yellow jacket", the wasp, "cold
    water", a rebuff, or "old man", whom WordNet files apart from men).

    >>> names_with("musical", "instrument"), names_with("yellow", "jacket"), names_with("cold", "water")
    (True, False, False)
    """
    adjective = adjective.lower()
    if f"{adjective} {noun}" in ADJECTIVE_COMPOUNDS:
        return True
    if adjective in COLOURS or adjective in SIZES or adjective in MATERIALS or adjective in TONES:
        return False
    if f"{adjective}_{noun}" not in get_hierarchy().noun_lemmas:
        return False
    synset = noun_synset(f"{adjective} {noun}")
    return synset is not None and is_thing(synset) and lexname(synset) != "noun.person"


# Adverbs that hedge the mention they attach to ("possibly a cat").
HEDGE_ADVERBS = frozenset(
    ["possibly", "perhaps", "maybe", "probably", "likely", "presumably", "apparently", "seemingly", "supposedly"]
)
# Verbs that hedge their complement: "what looks like a kite", "appears to be a dog".
HEDGE_VERBS = frozenset(["look", "seem", "appear", "resemble"])
# Modals that hedge a copula's complement: "it might be a cat".
HEDGE_MODALS = frozenset(["might", "may", "could"])


# -- agreement between two descriptions of one thing (parsers.attributes' clash tests) ---------
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
#: Material words that name the same material as a more basic one ("wooden" and "wood" are one).
SAME_MATERIAL = {
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
    "cement": "concrete",
    "porcelain": "ceramic",  # a china plate is a porcelain one, and porcelain is a ceramic
    "china": "ceramic",
}
#: Materials that may be another: tiles are made of ceramic, porcelain, stone, marble or glass,
#: so a tiled floor is no contradiction of a marble one (of a wooden one it is).
MAY_BE_MADE_OF = {"tile": frozenset({"ceramic", "porcelain", "rock", "marble", "granite", "glass", "clay"})}


#: Determiners that say one of a noun ("a kangaroo", "this dog").
ONE_DETERMINERS = frozenset({"a", "an", "this", "that", "each", "every", "another"})


def counts_several(word: str) -> bool:
    """Whether lower-case ``word`` counts more than one: a number above one, a vague count or a
    quantifying noun ("two", "few", "couple", "group").

    >>> counts_several("few"), counts_several("group"), counts_several("single"), counts_several("red")
    (True, True, False, False)
    """
    return word in VAGUE_COUNTS or bool(QUANTIFIER_NOUNS.get(word)) or COUNT_WORDS.get(word, "1") not in ("0", "1")
