"""People read back where the sentence has them act.

A noun none of whose WordNet senses was ever tagged has its senses in no telling order, and
many such nouns come first as a person -- the one who does what the thing is for ("toaster",
"stroller": a saunterer, "monitor": a proctor) or slang ("shrimp", "taco") -- and then as the
thing a caption names. :mod:`knowledge.concepts` reads them as the thing. A sentence that has
the word do what only somebody does (:func:`knowledge.agents.does_as_somebody`) means the person:
"a bicycle *racer* riding past a pasture" is the one who races, not an animal that does.

>>> from parsers import Concept, Relation, SceneGraph
>>> racer = Concept("racer", "racer", "racer.n.02")
>>> g = SceneGraph([racer, Concept("bike", "bike", "bicycle.n.01")], [Relation(0, "riding", 1, "ride", "ride.v.02")])
>>> read_doers_as_people(g).concepts[0].synset
'racer.n.01'
"""

from __future__ import annotations

from dataclasses import replace

from knowledge import lexname, noun_synset
from knowledge.agents import does_as_somebody
from knowledge.concepts import wordnet_first_sense
from knowledge.states import is_animate
from parsers.scene_graph import SceneGraph


def read_doers_as_people(graph: SceneGraph) -> SceneGraph:
    """``graph`` with each concept that does what only somebody does, and is read as a thing
    where WordNet's own first sense of its word is a person, read as that person."""
    doers = {r.subject for r in graph.relations if does_as_somebody(r.predicate, r.canonical, r.verb_synset)}
    people: dict[int, str] = {}
    for i in doers:
        c = graph.concepts[i]
        if not c.synset or is_animate(c.synset) or c.synset != noun_synset(c.lemma):
            continue
        first = wordnet_first_sense(c.lemma)
        if first and first != c.synset and lexname(first) == "noun.person":
            people[i] = first
    if not people:
        return graph
    concepts = [replace(c, synset=people[i]) if i in people else c for i, c in enumerate(graph.concepts)]
    return replace(graph, concepts=concepts, relations=list(graph.relations))
