"""What the image side says about a caption concept, taken as a set of kinds of things.

The graph edit distance pairs caption and image concepts one to one. Reference captions, though,
describe the image partially and in other words, so each caption concept is also judged against
every image concept at once (:func:`type_support`); how many references mention an image concept
is its :func:`salience`; and :func:`evidence_of` says which annotation objects or reference
words an edit rests on.

>>> from parsers import Concept, SceneGraph
>>> img = SceneGraph([Concept("banana", "banana", "banana.n.02"), Concept("food", "food", "food.n.01")])
>>> type_support(Concept("fruit", "fruit", "edible_fruit.n.01"), img).kind
'same'
>>> type_support(Concept("omelette", "omelette", "omelet.n.01"), img).kind
'over'
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any, NamedTuple

from knowledge import filed_as, is_hypernym, lexname, noun_senses, noun_synset, path_distance, wup_similarity
from knowledge.concepts import morphy_forms
from knowledge.having import nouns_had
from parsers import Concept, SceneGraph
from parsers.references import COREF_SENSES

#: Wu-Palmer similarity from which two things are close kin: siblings, as in a swapped object
#: ("cat" where they all see a dog), rather than unrelated things.
NEAR = 0.8


class _Names(NamedTuple):
    """What :func:`synsets_of`, :func:`word_forms`, :func:`same_thing` and :func:`covers` read of
    a concept. The same pairs recur across the passes over a caption and its rewrite, so their
    answers are cached by these."""

    lemma: str
    synset: str | None
    alternatives: tuple[str, ...]
    aliases: tuple[str, ...]
    plural: bool


def _names(c: Concept) -> _Names:
    return _Names(c.lemma, c.synset, tuple(c.alternatives), tuple(c.aliases), c.plural)


def synsets_of(c: Concept) -> list[str]:
    """The synsets a concept may stand for: its own, its alternatives' and its aliases'."""
    if not c.alternatives and not c.aliases:
        return [c.synset] if c.synset else []
    return list(_synsets(_names(c)))


@lru_cache(maxsize=1 << 16)
def _synsets(k: _Names) -> tuple[str, ...]:
    out = [k.synset] if k.synset else []
    out += [s for a in (*k.alternatives, *k.aliases) if (s := _alias_synset(a, k)) and s not in out]
    return tuple(out)


def _alias_synset(alias: str, k: _Names) -> str | None:
    """The synset another name of a concept stands for: the concept's own where the name can mean
    it and one of the concept's names names it first (the references' "bike" beside their
    "bicycle" is the bicycle, not WordNet's first bike, a motorcycle), else the name's first. A
    sense the caption's context chose for the concept leaves its other names as they read: "the
    base ball" they hit, read as the ball beside a caption's ball, still names the game too."""
    named = k.synset and any(noun_synset(n) == k.synset for n in (k.lemma, *k.aliases))
    return k.synset if named and k.synset in noun_senses(alias)[:COREF_SENSES] else noun_synset(alias)


def word_forms(c: Concept) -> frozenset[str]:
    """The concept's names, and for a plural one the singular forms of its lemma: the parser
    keeps "buns" when WordNet reads it as a thing of its own, but a caption's "bun" is the same."""
    return _word_forms(_names(c))


@lru_cache(maxsize=1 << 16)
def _word_forms(k: _Names) -> frozenset[str]:
    names = {x.lower() for x in (k.lemma, *k.alternatives, *k.aliases)}
    if k.plural:
        names.update(morphy_forms(k.lemma.lower(), "n"))
    return frozenset(names)


def same_thing(c: Concept, g: Concept) -> bool:
    """Identical or synonymous: a shared name or a shared synset ("couch" / "sofa")."""
    return _same_thing(_names(c), _names(g))


@lru_cache(maxsize=1 << 16)
def _same_thing(c: _Names, g: _Names) -> bool:
    return bool(_word_forms(c) & _word_forms(g)) or bool(set(_synsets(c)) & set(_synsets(g)))


def covers(c: Concept, g: Concept) -> bool:
    """Whether caption concept ``c`` speaks of image concept ``g``: the same thing, one a kind of
    the other, or at most two hypernym edges apart."""
    return _covers(_names(c), _names(g))


@lru_cache(maxsize=1 << 16)
def _covers(c: _Names, g: _Names) -> bool:
    if _same_thing(c, g):
        return True
    for a in _synsets(c):
        for b in _synsets(g):
            d = path_distance(a, b)
            if d is not None and (d <= 2 or is_hypernym(a, b) or is_hypernym(b, a)):
                return True
    return False


def _named(c: Concept, g: Concept) -> bool:
    """The image side uses the caption's word, as a name or as a modifier of something else
    ("trees" beside the references' "tree branches"), or writes it apart ("wet suit" for the
    caption's "wetsuit", "short cake" for "shortcake"), or says it is there with an adjective
    (the caption's "grass" in a "grassy field": :func:`knowledge.having.nouns_had`)."""
    words = set(c.names()[:1] + [a.lower() for a in c.alternatives])
    if c.plural:
        words.update(morphy_forms(c.lemma.lower(), "n"))
    if words & word_forms(g):
        return True
    lemma = g.lemma.lower()
    if any(m.lower() + lemma in words for k in ("other", "size") for m in g.attributes.get(k, ())):
        return True
    if any(n in words for values in g.attributes.values() for m in values for n in nouns_had(m)):
        return True
    return " " not in c.lemma and (
        c.lemma.lower() in g.lemma.lower().split() or c.lemma.lower() in g.attributes.get("other", [])
    )


@dataclass
class Support:
    """How the image side supports a caption concept: ``kind`` is ``"same"`` (it names the
    concept, a synonym, or something more specific: "fruit" where a banana is), ``"over"`` (only
    something more general: the caption over-specifies) or None (nothing); ``wup`` is the
    Wu-Palmer similarity of that closest support (for None: of the most similar image concept,
    0 without any); ``index`` the image concept it rests on (or the most similar one), and
    ``word`` that concept's name that does (an alias: "garment" for the references' trousers)."""

    kind: str | None
    wup: float
    index: int | None
    word: str | None = None


def type_support(c: Concept, image: SceneGraph) -> Support:
    """:class:`Support` of caption concept ``c`` by the image concepts taken as a set of kinds."""
    over: tuple[float, int, str] | None = None
    best: tuple[float, int | None, str | None] = (0.0, None, None)
    mine = synsets_of(c)
    for j, g in enumerate(image.concepts):
        if _named(c, g):
            return Support("same", 1.0, j, g.lemma)
        for b in synsets_of(g):
            for a in mine:
                if a == b or is_hypernym(a, b):
                    return Support("same", 1.0, j, _word_for(g, b))
                sim = wup_similarity(a, b)
                if sim > best[0]:
                    best = (sim, j, b)
                if is_hypernym(b, a) and (over is None or sim > over[0]):
                    over = (sim, j, b)
    if over is None:  # a general word also says what its other senses of the same kind do
        for j, g in enumerate(image.concepts):
            for b in _kindred_senses(_names(g)):
                for a in (a for a in mine if is_hypernym(b, a)):
                    sim = wup_similarity(a, b)
                    if over is None or sim > over[0]:
                        over = (sim, j, b)
    if over is not None:
        return Support("over", over[0], over[1], _word_for(image.concepts[over[1]], over[2]))
    word = _word_for(image.concepts[best[1]], best[2]) if best[1] is not None and best[2] else None
    return Support(None, best[0], best[1], word)


@lru_cache(maxsize=1 << 16)
def _kindred_senses(k: _Names) -> tuple[str, ...]:
    """A top concept's word (WordNet's noun.Tops: "food", "animal", "person") in its other senses
    among its first three (as a caption's general word is read in :func:`cece.stand_ins.stand_ins`),
    filed as the sense it is read in (:func:`knowledge.filed_as`): the references' "food", read as
    the nutrient an omelette is, still says "solid food", which the meat and the vegetables beside
    the omelette are. A general word is said loosely; a thing's word is not: their "bike", read as
    the bicycle they also name, says no motorcycle, nor their "crane", the machine, a whooping crane."""
    if not k.synset or lexname(k.synset) != "noun.Tops":
        return ()
    kind = filed_as(k.synset)
    return tuple(s for s in noun_senses(k.lemma)[:3] if s != k.synset and filed_as(s) == kind)


def _word_for(g: Concept, synset: str) -> str:
    """The name of ``g`` that stands for ``synset`` (its lemma unless an alternative or alias does)."""
    if g.synset == synset:
        return g.lemma
    return next((a for a in (*g.alternatives, *g.aliases) if _alias_synset(a, _names(g)) == synset), g.lemma)


def salience(image: SceneGraph) -> list[float]:
    """Per image concept, the share of the graph's parts (reference captions) that mention it;
    all 1.0 for a graph without parts (an annotation: all its objects are surely there).

    >>> g = SceneGraph([Concept("dog", "dog", spans=[(2, 5), (9, 12)])], text="A dog.\\nA dog.\\nA cat.",
    ...                parts=[(0, 6), (7, 13), (14, 20)])
    >>> salience(g)
    [0.6666666666666666]
    """
    if not image.parts:
        return [1.0] * len(image.concepts)
    return [len(mentioned_in(image, g)) / len(image.parts) for g in image.concepts]


def mentioned_in(image: SceneGraph, g: Concept) -> list[int]:
    """The parts (reference indices) whose text mentions image concept ``g``."""
    return sorted({k for a, _ in g.spans if (k := image.part_of(a)) is not None})


def evidence_of(image: SceneGraph, indices: list[int], note: str | None = None) -> dict[str, Any]:
    """The evidence record of an edit resting on image concepts ``indices``: annotation object
    ids, or reference indices with the words they used; ``note`` says why in a sentence."""
    ev: dict[str, Any] = {}
    if image.kind == "references":
        refs: set[int] = set()
        words: list[str] = []
        for j in indices:
            g = image.concepts[j]
            refs.update(mentioned_in(image, g))
            for a, b in g.spans:
                w = image.text[a:b]
                if w not in words:
                    words.append(w)
        ev = {"references": sorted(refs), "words": words}
    else:
        ev = {
            "objects": [image.concepts[j].source_id or f"#{j}" for j in indices],
            "words": list(dict.fromkeys(image.concepts[j].text for j in indices)),
        }
    if note:
        ev["note"] = note
    return ev
