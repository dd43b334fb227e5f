"""Knowledge costs: turn two scene graphs into the node and edge costs that :mod:`cece.ged` solves.

Following HalCECE, replacing concept ``a`` by ``b`` costs the shortest-path distance between their
WordNet synsets in the hypernym hierarchy, deleting ``a`` costs its distance to the root
(``entity.n.01``), and inserting an image concept costs nothing (insertions are suggestions, not
hallucinations). So a caption concept is replaced when some image concept is closer to it than the
root is, and deleted otherwise.

One exception keeps the paper's classes true to their definitions: a caption concept that is a
hypernym of an image concept ("animal" for a horse) is that concept said more generally -- class
U, a suggestion, not a hallucination -- however far apart the two are. By path length alone
"animal" (6 edges below the root) is farther from "horse" (8 edges down) than from the root, so it
would be deleted as if nothing in the image were an animal. Such a pair costs
``d / (d + root distance of the caption concept)`` instead: below 1, so below every deletion of a
known concept and every over-specialisation or replacement (at least 1 edge), and growing with
how much the caption leaves unsaid, so that of several hyponyms the closest is preferred. Likewise
a plain word for a person and another name that may be theirs (:func:`knowledge.another_name`:
"a woman" and "a bride", whom WordNet files six edges apart, under what she does) cost what the
plain word says beyond "person" (2 for "woman"), not a deletion: they may be one person.

>>> from parsers import Concept, SceneGraph
>>> cap = SceneGraph([Concept("dog", "dog", "dog.n.01")])
>>> img = SceneGraph([Concept("cat", "cat", "cat.n.01")])
>>> sub, dele, ins = CostModel().node_costs(cap, img)
>>> bool(sub[0, 0] < dele[0])   # dog -> cat is a replacement, not a deletion
True
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from cece.evidence import same_thing, synsets_of
from cece.ged import Edge, EdgeCosts
from knowledge import (
    PREPOSITIONS,
    another_name,
    distance_matrix,
    is_hypernym,
    only_people,
    path_distance,
    plain_person,
    relation_key,
    root_distance,
)
from parsers import Concept, SceneGraph


@dataclass(frozen=True)
class CostModel:
    """All tunable costs in one place.

    ``relation`` prices relation (triple) edits; ``insert_object`` the insertion of an image concept;
    ``unknown_delete`` the deletion of a caption concept WordNet does not know, which can only
    match an image concept with the same lemma.
    """

    relation: EdgeCosts = field(default_factory=lambda: EdgeCosts(substitute=1.0, delete=1.0, insert=0.0))
    insert_object: float = 0.0
    unknown_delete: float = 1.0

    def node_costs(
        self, caption: SceneGraph, image: SceneGraph, anchors: np.ndarray | None = None
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """``(sub, dele, ins)``: substitution matrix (caption x image), deletion and insertion
        vectors; ``anchors`` (default: :meth:`anchors`) are the pairs that cost nothing."""
        sub = distance_matrix([c.synset for c in caption.concepts], [c.synset for c in image.concepts])
        # "a fork or a knife" is faithful if either is there, and an image thing answers to all
        # its names ("boy", "kid"): take the closest of the synsets each side may stand for.
        extra_c = [synsets_of(c)[1:] for c in caption.concepts]
        extra_g = [synsets_of(g)[1:] for g in image.concepts]
        if any(extra_c) or any(extra_g):
            for i, c in enumerate(caption.concepts):
                for j, g in enumerate(image.concepts):
                    if extra_c[i] or extra_g[j]:
                        sub[i, j] = distance_matrix(synsets_of(c), synsets_of(g)).min(initial=sub[i, j])
        for i, j in zip(*np.nonzero(sub > _PLAIN_PERSON), strict=True):  # "a woman" for their bride
            cc, gc = caption.concepts[i], image.concepts[j]
            if _another_name(cc, gc):
                plain = cc.synset if plain_person(cc.synset) else gc.synset
                sub[i, j] = min(sub[i, j], path_distance(plain, "person.n.01") or 0.0)
        general = under_specialised(caption, image)
        if general.any():
            depth = np.array([float(root_distance(c.synset)) if c.synset else 0.0 for c in caption.concepts])
            rows, cols = np.nonzero(general)
            sub[rows, cols] = sub[rows, cols] / (sub[rows, cols] + depth[rows])
        sub[self.anchors(caption, image) if anchors is None else anchors] = 0.0
        dele = np.array([float(root_distance(c.synset)) if c.synset else self.unknown_delete for c in caption.concepts])
        ins = np.full(len(image.concepts), self.insert_object)
        return sub, dele, ins

    def anchors(self, caption: SceneGraph, image: SceneGraph) -> np.ndarray:
        """Pairs of identical or synonymous concepts (:func:`cece.evidence.same_thing`), which the
        graph edit distance matches before anything else."""
        return np.array([[same_thing(c, g) for g in image.concepts] for c in caption.concepts], dtype=bool).reshape(
            len(caption.concepts), len(image.concepts)
        )


#: What a plain word for a person says beyond "person" at most ("woman", "boy": 2 or 3 edges).
_PLAIN_PERSON = 3.0


def _another_name(cc: Concept, gc: Concept) -> bool:
    """Whether two concepts may name one person by another name (:func:`knowledge.another_name`),
    neither a kind of the other, and the one that is not a plain word names only people ("bride",
    "waitress"; not "joker", also a card)."""
    c, g = cc.synset, gc.synset
    if not (c and g and another_name(c, g)) or is_hypernym(c, g) or is_hypernym(g, c):
        return False
    return only_people((gc if plain_person(c) else cc).lemma)


def under_specialised(caption: SceneGraph, image: SceneGraph) -> np.ndarray:
    """Caption x image booleans: the caption concept's synset is a strict hypernym of the image
    concept's (:func:`cece.edits.object_class` calls the pair U).

    >>> from parsers import Concept, SceneGraph
    >>> cap = SceneGraph([Concept("animal", "animal", "animal.n.01")])
    >>> under_specialised(cap, SceneGraph([Concept("horse", "horse", "horse.n.01")])).tolist()
    [[True]]
    """
    return np.array(
        [
            [
                bool(c.synset and g.synset and c.synset != g.synset and is_hypernym(c.synset, g.synset))
                for g in image.concepts
            ]
            for c in caption.concepts
        ],
        dtype=bool,
    ).reshape(len(caption.concepts), len(image.concepts))


__all__ = ["PREPOSITIONS", "CostModel", "edges", "relation_key", "under_specialised"]


def edges(graph: SceneGraph) -> list[Edge]:
    """The graph's relations as ``(subject, object, relation key)`` edges."""
    return [(r.subject, r.object, relation_key(r.canonical)) for r in graph.relations]
