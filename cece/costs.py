"""Knowledge costs: turn two scene graphs into the node and edge costs that :mod:`cece.ged` solves.

Following HalCECE, replacing concept ``a`` by ``b`` costs the shortest-path distance between their
WordNet synsets in the hypernym hierarchy, deleting ``a`` costs its distance to the root
(``entity.n.01``), and inserting an image concept costs nothing (insertions are suggestions, not
hallucinations). So a caption concept is replaced when some image concept is closer to it than the
root is, and deleted otherwise.

>>> from parsers import Concept, SceneGraph
>>> cap = SceneGraph([Concept("dog", "dog", "dog.n.01")])
>>> img = SceneGraph([Concept("cat", "cat", "cat.n.01")])
>>> sub, dele, ins = CostModel().node_costs(cap, img)
>>> sub[0, 0] < dele[0]   # dog -> cat is a replacement, not a deletion
True
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from cece.ged import Edge, EdgeCosts
from knowledge import distance_matrix, noun_synset, root_distance
from parsers import SceneGraph


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

    def node_costs(self, caption: SceneGraph, image: SceneGraph) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """``(sub, dele, ins)``: substitution matrix (caption x image), deletion and insertion vectors."""
        sub = distance_matrix([c.synset for c in caption.concepts], [c.synset for c in image.concepts])
        image_lemmas = [c.lemma.lower() for c in image.concepts]
        for i, c in enumerate(caption.concepts):
            # "a fork or a knife" is faithful if either is there: take the closest alternative.
            for alt in c.alternatives:
                alt_syn = noun_synset(alt)
                if alt_syn:
                    sub[i] = np.minimum(sub[i], distance_matrix([alt_syn], [x.synset for x in image.concepts])[0])
            lemmas = {c.lemma.lower(), *(a.lower() for a in c.alternatives)}
            for j, lemma in enumerate(image_lemmas):
                if lemma in lemmas:
                    sub[i, j] = 0.0
        dele = np.array([float(root_distance(c.synset)) if c.synset else self.unknown_delete
                         for c in caption.concepts])
        ins = np.full(len(image.concepts), self.insert_object)
        return sub, dele, ins


# Spatial prepositions that decide a relation when present: "sit on" and "on" say the same about
# where things are, and annotations (Visual Genome) mostly give the bare preposition.
PREPOSITIONS = frozenset({
    "on", "in", "at", "under", "above", "behind", "near", "with", "by", "beside", "inside", "over",
    "onto", "into", "through", "across", "along", "against", "around", "between", "among", "below",
    "beneath", "underneath", "outside", "off", "toward", "towards", "past", "beyond", "within", "upon",
    "atop", "next to", "in front of", "on top of", "close to", "out of", "near to", "on the side of",
    "in the middle of", "at the edge of",
})


def relation_key(canonical: str) -> str:
    """What two predicates must share to match: the trailing spatial preposition when there is one
    ("sit on" -> "on", "stand next to" -> "next to"), else the whole canonical predicate.

    >>> relation_key("sit on"), relation_key("hold"), relation_key("park in front of")
    ('on', 'hold', 'in front of')
    """
    words = canonical.split()
    for k in range(min(len(words), 4), 0, -1):
        tail = " ".join(words[-k:])
        if tail in PREPOSITIONS:
            return tail
    return canonical


def edges(graph: SceneGraph) -> list[Edge]:
    """The graph's relations as ``(subject, object, relation key)`` edges."""
    return [(r.subject, r.object, relation_key(r.canonical)) for r in graph.relations]
