"""Attribute edits for HalCECE detection: counts and colours the image side contradicts.

The core edits judge objects and triples; a caption can also be wrong about a faithful object's
number ("*two* horses" where every reference sees one) or colour ("an all *white* kitchen" where
the references say red). Only contradictions are reported: an attribute the image side says
nothing about is not evidence either way.

- count: the caption gives an exact number ``n`` for a concept the image side also has; the image
  side gives exact numbers for it and none is ``n``, or (when it gives none) names it only in the
  singular while ``n >= 2``;
- number: the caption speaks of several of a concept without an exact count ("some *donuts*"),
  and the image side names that very word, always in the singular and without a count
  (``number-R`` on the noun, weighed below an exact count);
- colour: the image side gives colours for the concept and none is compatible with any of the
  caption's (same base colour, or a vague "colourful" on either side).

>>> from parsers import Concept, SceneGraph
>>> cap = SceneGraph([Concept("horses", "horse", "horse.n.01", {"count": ["2"]}, [(4, 10)], (0, 10))],
...                  text="Two horses.")
>>> img = SceneGraph([Concept("horse", "horse", "horse.n.01", spans=[(2, 7)])], text="A horse.")
>>> [(f.label, cap.text[f.start:f.end]) for f in attribute_findings(cap, img)]
[('count-R', 'Two')]
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from detectors.halcece_evidence import THINGS, covers, type_support
from knowledge import get_hierarchy, lemmatize, lexname, noun_synset
from parsers import Concept
from parsers.attributes import attribute_kind, count_value

VAGUE_COLOURS = frozenset({"colorful", "colourful", "multicolored", "multicoloured", "multi-colored",
                           "bright"})
SAME_COLOUR = {"grey": "gray", "silver": "gray", "gold": "yellow", "golden": "yellow", "blond": "yellow",
               "blonde": "yellow", "tan": "brown", "beige": "brown", "ivory": "white", "cream": "white",
               "navy": "blue", "crimson": "red", "scarlet": "red", "maroon": "red", "burgundy": "red",
               "violet": "purple"}


@dataclass
class AttributeFinding:
    """A caption attribute the image side contradicts: char span, ``count-R`` / ``number-R`` /
    ``colour-R``, the caption concept's index, and what the image side says instead."""

    start: int
    end: int
    label: str
    concept: int
    image_values: list[str]


def _partners(c: Any, image: Any) -> list[Any]:
    """The image concepts ``c`` speaks of (:func:`detectors.halcece_evidence.covers`)."""
    return [g for g in image.concepts if covers(c, g)]


def _word_span(text: str, span: tuple[int, int] | None, test) -> tuple[int, int] | None:
    if span is None:
        return None
    for m in re.finditer(r"[\w-]+", text[span[0]:span[1]]):
        if test(m.group().lower()):
            return span[0] + m.start(), span[0] + m.end()
    return None


def _base_colour(value: str) -> str:
    last = value.split()[-1].replace("ish", "") if value.split() else value
    return SAME_COLOUR.get(last, last)


def count_conflict(c: Any, partners: list[Any], image_text: str) -> list[str] | None:
    """What the image side says instead of the caption's exact count of ``c``, or None."""
    exact = [v for v in c.attributes.get("count", []) if v.isdigit()]
    if len(exact) != 1 or not partners:
        return None
    n = exact[0]
    said = [v for g in partners for v in g.attributes.get("count", [])]
    numbers = {v for v in said if v.isdigit()}
    if said:
        return sorted(numbers) if numbers and n not in numbers and len(numbers) == len(set(said)) else None
    mentions = [image_text[a:b].lower() for g in partners for a, b in g.spans]
    singular = all(lemmatize(m.split()[-1]) == m.split()[-1] for m in mentions if m.split())
    return ["1"] if mentions and singular and not any(g.plural for g in partners) and int(n) >= 2 else None


def number_conflict(c: Any, partners: list[Any], image_text: str) -> list[str] | None:
    """``["1"]`` when caption concept ``c`` is plural with no exact count while the image side
    names it (same lemma, and no other kind of thing ``c`` could be grouping: "people" over "a
    man" and "a woman" is no contradiction) only in the singular and never with a count."""
    if not c.plural or any(v.isdigit() for v in c.attributes.get("count", [])) or not partners:
        return None
    if any(g.lemma.lower() != c.lemma.lower() or g.plural or g.attributes.get("count") for g in partners):
        return None
    mentions = [image_text[a:b].lower().split() for g in partners for a, b in g.spans]
    if not mentions or not all(m and lemmatize(m[-1]) == m[-1] for m in mentions):
        return None
    return ["1"]


def colour_conflict(c: Any, partners: list[Any]) -> list[str] | None:
    """The image side's colours for ``c`` when none fits the caption's, or None."""
    mine = c.attributes.get("colour", [])
    theirs = [v for g in partners for v in g.attributes.get("colour", [])]
    if not mine or not theirs or any(v in VAGUE_COLOURS for v in mine + theirs):
        return None
    if {_base_colour(v) for v in mine} & {_base_colour(v) for v in theirs}:
        return None
    return sorted(set(theirs))


def modifier_findings(caption: Any, image: Any) -> list[AttributeFinding]:
    """Nouns naming a thing that modify another noun ("a *carrot* window", "a *tower* trunk")
    and that the image side never names: the thing is claimed as much as the head is. The finding
    carries the modifier's own pseudo-concept index (-1) and its WordNet synset as value."""
    out = []
    adjectives = get_hierarchy().adjective_lemmas
    for i, c in enumerate(caption.concepts):
        for word in c.attributes.get("other", []):
            if " " in word or attribute_kind(word) != "other" or word in adjectives:
                continue
            synset = noun_synset(word)
            if synset is None or lexname(synset) not in THINGS:
                continue
            pseudo = Concept(word, word, synset)
            if type_support(pseudo, image)[0] is not None:
                continue
            span = _word_span(caption.text, c.phrase_span, lambda w, word=word: w == word)
            if span:
                out.append(AttributeFinding(*span, "modifier-D", i, [synset]))
    return out


def attribute_findings(caption: Any, image: Any, skip: set[int] = frozenset()) -> list[AttributeFinding]:
    """Count (``count-R``), number (``number-R``) and colour contradictions for the caption
    concepts not in ``skip`` (those already wrong as objects)."""
    out = []
    for i, c in enumerate(caption.concepts):
        if i in skip:
            continue
        partners = _partners(c, image)
        n = count_conflict(c, partners, image.text)
        if n is not None:
            value = [v for v in c.attributes["count"] if v.isdigit()][0]
            span = _word_span(caption.text, c.phrase_span, lambda w: count_value(w) == value)
            if span:
                out.append(AttributeFinding(*span, "count-R", i, n))
        elif (one := number_conflict(c, partners, image.text)) is not None and c.spans:
            out.append(AttributeFinding(*c.spans[0], "number-R", i, one))
        colours = colour_conflict(c, partners)
        if colours is not None:
            mine = {w for v in c.attributes["colour"] for w in v.split()}
            span = _word_span(caption.text, c.phrase_span, lambda w: w in mine)
            if span:
                out.append(AttributeFinding(*span, "colour-R", i, colours))
    return out
