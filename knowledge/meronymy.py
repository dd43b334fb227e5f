"""What a thing is a part of, by WordNet's part meronymy: a wheel of a wheeled vehicle, a roof of
a building, the trunk of a tree, the wall of a room.

A part is there whenever its whole is, and is rarely said: references that name a car seldom
name its wheels. WordNet files parts against a general whole ("wheel" against "wheeled
vehicle"), and often files the general word of a part ("door" against "doorway", but a kind of
door, a "car door", against nothing), so a synset's wholes are those of it and of its hypernyms
a few levels up, and anything that is a kind of one of them (a car, a bus) has the part.

>>> sorted(wholes("trunk.n.01"))
['tree.n.01']
>>> part_of_any("wheel.n.01", ["car.n.01"]), part_of_any("wheel.n.01", ["dog.n.01"])
(True, False)
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache

from knowledge.concepts import noun_senses
from knowledge.distance import ancestors, is_hypernym
from knowledge.hierarchy import get_hierarchy

#: How many hypernym levels up a part's wholes are looked for ("sedan door" -> "car door" -> "door").
LEVELS = 2


@lru_cache(maxsize=8192)
def wholes(synset: str, levels: int = LEVELS) -> frozenset[str]:
    """The synsets WordNet files ``synset``, or a hypernym of it up to ``levels`` levels above,
    as a part of."""
    h = get_hierarchy()
    if synset not in h.ids:
        return frozenset()
    found: set[str] = set()
    level = {h.ids[synset]}
    for _ in range(levels + 1):
        found.update(w for i in level for w in h.part_of.get(h.names[i], ()))
        level = {p for i in level for p in h.parents(i)}
    return frozenset(found)


def part_of_any(synset: str | None, others: Iterable[str | None], levels: int = LEVELS) -> bool:
    """Whether ``synset`` names a part of a thing one of ``others`` names (a kind of one of its
    :func:`wholes` up to ``levels`` above). ``levels=0`` takes only what WordNet files the synset
    itself a part of: a fork is no part of a desk, though tableware is filed a part of a table.

    >>> part_of_any("fork.n.01", ["desk.n.01"]), part_of_any("fork.n.01", ["desk.n.01"], levels=0)
    (True, False)
    """
    ws = wholes(synset, levels) if synset is not None else frozenset()
    return bool(ws) and any(o is not None and not ws.isdisjoint(_kinds(o)) for o in others)


@lru_cache(maxsize=16384)
def _kinds(synset: str) -> frozenset[str]:
    """``synset`` and every hypernym above it: what it is a kind of."""
    return frozenset(ancestors(synset)) if synset in get_hierarchy().ids else frozenset()


def names_a_part_of(synset: str | None, whole: str | None, word: str) -> bool:
    """Whether ``synset`` (a sense of ``word``) names a part of ``whole`` as WordNet files that
    sense itself (:func:`part_of_any` at ``levels=0``: a floor of a room), and ``word``, in no
    other of its first two senses, a kind of that whole: WordNet's first "skirt" is the part of a
    garment, its second a garment, as jeans are.

    >>> names_a_part_of("floor.n.01", "living_room.n.01", "floor")
    True
    >>> names_a_part_of("skirt.n.01", "jean.n.01", "skirt"), names_a_part_of("fork.n.01", "desk.n.01", "fork")
    (False, False)
    """
    if synset is None or whole is None or not part_of_any(synset, [whole], levels=0):
        return False
    others = [s for s in noun_senses(word)[:2] if s != synset]
    return not any(is_hypernym(w, s) for w in wholes(synset, 0) for s in others)
