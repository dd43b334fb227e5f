"""Mentions of the 80 COCO object categories in a text, as CHAIR reads them.

CHAIR (Rohrbach et al., 2018) finds the COCO objects a caption mentions with a published synonym
table (``parsers/data/coco_synonyms.txt``, see the NOTICE beside it) and a few fixed rules, and
this module follows them so its figures compare with published ones:

1. the lower-cased words are singularised with WordNet's morphy (:func:`knowledge.concepts.morphy_forms`):
   of a word's forms -- itself, then its base forms -- the first the table knows is read ("dogs"
   -> dog, "children" -> child, "men" -> man and "cows" -> cow, though WordNet also lists "men"
   and "cows" as words of their own; "people" stays people, a word of the table);
2. two-word phrases are read first, as one word: the COCO compounds ("teddy bear", "hot dog",
   "traffic light"...), an animal qualified by "baby" or "adult" as the animal ("baby elephant" ->
   elephant, not a person), "passenger jet" / "passenger train" as the vehicle, "bow tie" as tie
   and "toilet seat" as toilet;
3. "seat" in a text that also says "toilet" is the toilet's, not a chair;
4. every remaining word in the table is a mention of its category.

>>> [(m.word, m.category, m.span) for m in coco_mentions("Two baby elephants near a hot dog stand.")]
[('elephant', 'elephant', (4, 18)), ('hot dog', 'hot dog', (26, 33))]
>>> sorted(coco_categories(["Two men ride motor bikes.", "Kids on a sofa.", "Wine glasses."]))
['couch', 'motorcycle', 'person', 'wine glass']
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import Any

from knowledge.concepts import morphy_forms

#: COCO compounds read as one word (CHAIR's list).
COMPOUNDS = (
    "motor bike",
    "motor cycle",
    "air plane",
    "traffic light",
    "street light",
    "traffic signal",
    "stop light",
    "fire hydrant",
    "stop sign",
    "parking meter",
    "suit case",
    "sports ball",
    "baseball bat",
    "baseball glove",
    "tennis racket",
    "wine glass",
    "hot dog",
    "cell phone",
    "mobile phone",
    "teddy bear",
    "hair drier",
    "potted plant",
    "bow tie",
    "laptop computer",
    "stove top oven",
    "home plate",
)
#: Animals whose "baby" / "adult" is no person; vehicles whose "passenger" is none.
ANIMALS = ("bird", "cat", "dog", "horse", "sheep", "cow", "elephant", "bear", "zebra", "giraffe", "animal", "cub")
VEHICLES = ("jet", "train")


@dataclass(frozen=True)
class Mention:
    """A COCO object mention: the (singularised) ``word`` read, its ``category`` and its char
    ``span`` in the text."""

    word: str
    category: str
    span: tuple[int, int]

    def to_dict(self) -> dict[str, Any]:
        return {"word": self.word, "category": self.category, "span": list(self.span)}


@lru_cache(maxsize=1)
def synonyms() -> dict[str, str]:
    """Every word of the table -> its COCO category."""
    table = resources.files("parsers").joinpath("data/coco_synonyms.txt").read_text(encoding="utf-8")
    out: dict[str, str] = {}
    for line in table.splitlines():
        words = [w.strip() for w in line.split(",") if w.strip()]
        for w in words:
            out.setdefault(w.lower(), words[0])
    return out


@lru_cache(maxsize=1)
def _phrases() -> dict[str, str]:
    out = {c: c for c in COMPOUNDS}
    out.update({f"{q} {a}": a for a in ANIMALS for q in ("baby", "adult")})
    out.update({f"passenger {v}": v for v in VEHICLES})
    out.update({"bow tie": "tie", "toilet seat": "toilet"})
    return out


def _words(text: str) -> list[tuple[tuple[str, ...], tuple[int, int]]]:
    """Each word with its forms (lower-cased, then its WordNet base forms) and its span in ``text``
    (matched before lower-casing: "İ" lower-cases to two characters)."""
    return [(_forms(m.group().lower()), m.span()) for m in re.finditer(r"[A-Za-z]+", text)]


@lru_cache(maxsize=65536)
def _forms(word: str) -> tuple[str, ...]:
    return tuple(dict.fromkeys([word, *morphy_forms(word)]))


def _known(forms: tuple[str, ...], known: dict[str, str]) -> str | None:
    return next((f for f in forms if f in known), None)


def coco_mentions(text: str) -> list[Mention]:
    """The COCO object mentions of ``text``, in order (see the module docstring)."""
    words, phrases, table = _words(text), _phrases(), synonyms()
    read: list[tuple[str | None, tuple[int, int]]] = []
    i = 0
    while i < len(words):
        (forms, (start, end)), pair = words[i], None
        if i + 1 < len(words):
            pair = _known(tuple(f"{a} {b}" for a in forms for b in words[i + 1][0]), phrases)
        if pair is not None:
            read.append((phrases[pair], (start, words[i + 1][1][1])))
            i += 2
        else:
            read.append((_known(forms, table), (start, end)))
            i += 1
    if any(w == "toilet" for w, _ in read):
        read = [(w, s) for w, s in read if w != "seat"]
    return [Mention(w, table[w], s) for w, s in read if w in table]  # "home plate" is read, but no category


def chair_counts(caption: str, categories: set[str]) -> tuple[int, int]:
    """``(hallucinated mentions, mentions)`` of ``caption`` against the image's ``categories``."""
    mentions = coco_mentions(caption)
    return sum(m.category not in categories for m in mentions), len(mentions)


def coco_categories(texts: Iterable[str]) -> set[str]:
    """The COCO categories any of ``texts`` mentions (object labels or reference captions)."""
    return {m.category for t in texts for m in coco_mentions(t)}
