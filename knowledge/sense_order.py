"""The order in which a noun's WordNet senses are read in a caption: WordNet's own, by how
often each sense was tagged in its corpus, except where that corpus says nothing or names what
no picture shows (:func:`senses_in_order`).

>>> from knowledge.hierarchy import get_hierarchy
>>> h = get_hierarchy()
>>> [h.names[i] for i in senses_in_order("table", "n")[:2]], h.names[senses_in_order("mug", "n")[0]]
(['table.n.02', 'table.n.01'], 'mug.n.04')
"""

from __future__ import annotations

from functools import lru_cache

from knowledge.distance import is_hypernym
from knowledge.hierarchy import get_hierarchy
from knowledge.objecthood import objecthood

#: The kinds of visible thing captions name, the most often named first: of the nouns with a
#: tagged sense in the nocaps-FOIL training references, 42 % are artifacts, 15 % people, 6 %
#: food, 5 % animals and 4 % plants (:func:`senses_in_order`).
_READ_AS = ("noun.artifact", "noun.person", "noun.food", "noun.animal", "noun.plant")

#: What is made of an animal: its skin, fur, leather, horn, ivory (animal_material.n.01) and its
#: wool (animal_fiber.n.01) -- first senses of "leopard", "otter", "mink", "alligator", "alpaca".
_ANIMAL_MATERIALS = ("animal_material.n.01", "animal_fiber.n.01")


@lru_cache(maxsize=65536)
def senses_in_order(lemma: str, pos: str) -> tuple[int, ...]:
    """The synset ids of ``lemma`` in the order they are read: WordNet's sense order, which is
    by how often each sense was tagged in its corpus -- except for a noun none of whose senses
    was ever tagged, whose order then says nothing of frequency. Such a noun whose first sense
    is an abstraction ("saucer" first a round shape, "van" an avant-garde, "mug" a mugful,
    "lettuce" money) is read as the visible thing it also names, as captions do, of the kind
    captions name most often (:data:`_READ_AS`: a "mug" is the cup before it is a chump).
    And a noun whose first sense is what is made of an animal ("leopard" and "mink" first the
    pelt, "alligator" the leather, "alpaca" the wool) is read as the animal it also names: a
    caption calls the pelt "leopard skin" or "fur". A never-tagged noun whose first sense is a
    person -- the one who does what the thing is for ("toaster", "stroller": a saunterer,
    "monitor": a proctor) or slang ("shrimp", "taco") -- is read as the thing it also names;
    where its sentence has it do what only somebody does, the parser reads it as the person
    again (:mod:`parsers.person_readings`: "a racer *riding* a bike"). A noun whose first sense
    is a group -- most often an institution or an arrangement no picture shows: a table of
    figures, a court of law, a church's faithful, a branch office, a military outfit -- is read
    as the first visible thing its other senses name that the corpus tagged at least once: the
    table, the courtyard, the church building, the tree's branch, the clothes. A group noun with
    no such sense stays the group ("crowd", "team", "herd")."""
    h = get_hierarchy()
    ids = tuple(h.lemmas(pos)[lemma])
    if pos != "n" or len(ids) < 2:
        return ids
    if any(is_hypernym(m, h.names[ids[0]]) for m in _ANIMAL_MATERIALS):
        animals = [n for n, i in enumerate(ids) if is_hypernym("animal.n.01", h.names[i])]
        if animals:
            return _first(ids, animals[0])
    kinds = [h.lexnames[h.lexname_of[i]] for i in ids]
    if kinds[0] == "noun.group" and lemma in h.noun_sense_counts:
        counts = h.noun_sense_counts[lemma]
        seen = [n for n in range(1, len(ids)) if counts[n] > 0 and _visible(h.names[ids[n]], kinds[n])]
        if seen:
            return _first(ids, seen[0])
    if not h.noun_sense_counts or lemma in h.noun_sense_counts:
        return ids
    if kinds[0] == "noun.person":
        things = sorted((_READ_AS.index(k), n) for n, k in enumerate(kinds) if k in _READ_AS and k != kinds[0])
        return _first(ids, things[0][1]) if things else ids
    if kinds[0] in _READ_AS or objecthood(h.names[ids[0]]) != "abstract":
        return ids
    things = sorted((_READ_AS.index(k), n) for n, k in enumerate(kinds) if k in _READ_AS)
    if not things:
        return ids
    return _first(ids, things[0][1])


def _visible(synset: str, kind: str) -> bool:
    """Whether a group noun's other sense is something a picture shows: a thing, part or stuff,
    but no person ("family" is not read as one of kin, nor "party" as one side of a lawsuit)."""
    return kind != "noun.person" and objecthood(synset) != "abstract"


def _first(ids: tuple[int, ...], n: int) -> tuple[int, ...]:
    return (ids[n], *ids[:n], *ids[n + 1 :])
