"""Evidence about caption concepts that the HalCECE score weighs (:mod:`detectors.halcece_score`).

The graph edit distance pairs caption and image concepts one to one. A graph merged from
reference captions is a set of *kinds* of things, though, so a caption concept is also judged
against every image concept at once (:func:`type_support`); how object-like a concept is comes
from its WordNet lexicographer file (:func:`objecthood`); and how sure we are that an image
concept is really there comes from how many references mention it (:func:`reference_salience`).

>>> from parsers import Concept, SceneGraph
>>> img = SceneGraph([Concept("banana", "banana", "banana.n.02"), Concept("food", "food", "food.n.01")])
>>> type_support(Concept("fruit", "fruit", "edible_fruit.n.01"), img)[0]
'same'
>>> type_support(Concept("omelette", "omelette", "omelet.n.01"), img)[0]
'over'
"""

from __future__ import annotations

from typing import Any

import numpy as np

from knowledge import is_hypernym, lexname, path_distance, wup_similarity

# WordNet lexicographer files by how surely a caption noun of that kind names a visible object.
THINGS = frozenset({"noun.artifact", "noun.food", "noun.person", "noun.animal", "noun.plant"})
PARTS = frozenset({"noun.body"})  # body parts: there whenever their owner is, rarely mentioned
# Materials, places, weather and scenery (sky, hill, rock: noun.object), which references omit.
STUFF = frozenset({"noun.substance", "noun.location", "noun.phenomenon", "noun.object"})
# Settings filed as artifacts -- roads and paths, rooms, areas: where a scene happens rather than
# a thing in it; references name the setting loosely ("street" / "road") or not at all.
SETTINGS = ("way.n.06", "room.n.01", "area.n.05", "location.n.01")


def objecthood(c: Any, part: float, stuff: float, abstract: float) -> float:
    """1 for things (artifacts, food, people, animals, plants), ``part`` for body parts,
    ``stuff`` for substances, places, phenomena and scenery, ``abstract`` for the rest (acts,
    attributes, groups, shapes...) -- words a reference has no reason to repeat. A setting
    (:data:`SETTINGS`: a street, a room) counts as ``stuff`` whatever its file.

    >>> from parsers import Concept
    >>> objecthood(Concept("cello", "cello", "cello.n.01"), 0.5, 0.4, 0.3)
    1.0
    >>> objecthood(Concept("shape", "shape", "shape.n.01"), 0.5, 0.4, 0.3)
    0.3
    >>> objecthood(Concept("street", "street", "street.n.01"), 0.5, 0.4, 0.3)
    0.4
    """
    if not c.synset:
        return abstract
    kind = lexname(c.synset)
    if kind in THINGS:
        return stuff if any(is_hypernym(s, c.synset) for s in SETTINGS) else 1.0
    if kind in PARTS:
        return part
    return stuff if kind in STUFF else abstract


def covers(c: Any, g: Any) -> bool:
    """Whether caption concept ``c`` speaks of image concept ``g``: the same word or synset, one a
    kind of the other, or at most two hypernym edges apart."""
    if c.lemma.lower() == g.lemma.lower() or g.lemma.lower() in (a.lower() for a in c.alternatives):
        return True
    if not (c.synset and g.synset):
        return False
    d = path_distance(c.synset, g.synset)
    return d is not None and (d <= 2 or is_hypernym(c.synset, g.synset) or is_hypernym(g.synset, c.synset))


def _named(c: Any, g: Any) -> bool:
    """The image side uses the caption's word, as the name or as a modifier of something else
    ("trees" beside the references' "tree branches")."""
    words = {c.lemma.lower(), *(a.lower() for a in c.alternatives)}
    if g.lemma.lower() in words:
        return True
    return " " not in c.lemma and (c.lemma.lower() in g.lemma.lower().split()
                                   or c.lemma.lower() in g.attributes.get("other", []))


def type_support(c: Any, image: Any) -> tuple[str | None, float | None]:
    """How the image side, taken as a set of kinds, supports caption concept ``c``:

    - ``("same", None)``: it names ``c`` (word, alternative, modifier or synset) or something
      more specific ("fruit" where a banana is);
    - ``("over", wup)``: only something more general ("omelette" where the references say
      "food"): ``c`` over-specifies, by the Wu-Palmer similarity given;
    - ``(None, wup)``: nothing; ``wup`` is the best similarity to any image concept (0 if none).
    """
    over = None
    best = 0.0
    for g in image.concepts:
        if _named(c, g):
            return "same", None
        if not (c.synset and g.synset):
            continue
        if is_hypernym(c.synset, g.synset):
            return "same", None
        sim = wup_similarity(c.synset, g.synset)
        best = max(best, sim)
        if is_hypernym(g.synset, c.synset):
            over = max(over or 0.0, sim)
    return ("over", over) if over is not None else (None, best)


def reference_salience(image: Any, references: list[str] | None) -> list[float] | None:
    """Per image concept, the fraction of reference captions that mention it (None for an
    annotation, whose objects are all certainly there). The merged graph's spans index the
    references joined by newlines (:func:`parsers.from_references`).

    >>> from parsers import Concept, SceneGraph
    >>> g = SceneGraph([Concept("dog", "dog", spans=[(2, 5), (8, 11)])], text="A dog.\\nA dog.")
    >>> reference_salience(g, ["A dog.", "A dog.", "A cat."])
    [0.6666666666666666]
    """
    if not references:
        return None
    starts = np.cumsum([0] + [len(r) + 1 for r in references])
    out = []
    for c in image.concepts:
        refs = {int(np.searchsorted(starts, a, side="right")) - 1 for a, _ in c.spans}
        out.append(len(refs) / len(references))
    return out


def uncovered_salience(bad: list[int], concepts: list[Any], image: Any,
                       salience: list[float]) -> dict[int, float]:
    """For each unsupported caption concept (``bad`` indexes ``concepts``), the salience of the
    image concept it most likely stands in for: the image concepts no caption concept speaks of
    are shared out among the unsupported ones by a 1-1 assignment that maximises salience
    ("eraser" where nine references out of nine see a rifle the caption never names)."""
    from scipy.optimize import linear_sum_assignment

    free = [j for j, g in enumerate(image.concepts) if not any(covers(c, g) for c in concepts)]
    out = {i: 0.0 for i in bad}
    if bad and free:
        m = np.array([[salience[j] for j in free] for _ in bad])
        for r, k in zip(*linear_sum_assignment(m, maximize=True)):
            out[bad[r]] = float(m[r, k])
    return out
