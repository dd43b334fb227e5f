"""Senses read back where the sentence calls for them: people where it has them act, clothes
where it has them worn.

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

What somebody wears, or is in, is clothing where the word can name clothing: "a woman wearing a
red *top*" is no upper part of anything, "a man in a black *outfit*" no military company.

>>> woman, top = Concept("woman", "woman", "woman.n.01"), Concept("top", "top", "top.n.01")
>>> read_worn_as_garments(SceneGraph([woman, top], [Relation(0, "wearing", 1, "wear", "wear.v.01")])).concepts[1].synset
'top.n.10'
"""

from __future__ import annotations

from dataclasses import replace

from knowledge import is_garment, lexname, noun_senses, noun_synset
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
    return _read_as(graph, people)


#: Predicates whose object is worn by their subject, and those whose object is worn when their
#: subject is somebody ("a man *in* a suit"; "a cat *in* a box" is no box worn).
WORN = frozenset(["wear", "dress in", "clothe in", "clad in"])
WORN_BY_SOMEBODY = frozenset(["in"])


def read_worn_as_garments(graph: SceneGraph) -> SceneGraph:
    """``graph`` with each concept worn (:data:`WORN`, :data:`WORN_BY_SOMEBODY`) that is not
    read as something worn, but whose word can name something worn, read as that: its first
    such sense (:func:`knowledge.is_garment`)."""
    worn: dict[int, str] = {}
    for r in graph.relations:
        by = graph.concepts[r.subject].synset
        if not (r.canonical in WORN or r.canonical in WORN_BY_SOMEBODY and by and lexname(by) == "noun.person"):
            continue
        c = graph.concepts[r.object]
        if not c.synset or is_garment(c.synset):
            continue
        sense = next((s for s in noun_senses(c.lemma) if is_garment(s)), None)
        if sense:
            worn[r.object] = sense
    return _read_as(graph, worn)


def _read_as(graph: SceneGraph, senses: dict[int, str]) -> SceneGraph:
    """``graph`` with concept ``i`` read in sense ``senses[i]`` (itself when there is none)."""
    if not senses:
        return graph
    concepts = [replace(c, synset=senses[i]) if i in senses else c for i, c in enumerate(graph.concepts)]
    return replace(graph, concepts=concepts, relations=list(graph.relations))
