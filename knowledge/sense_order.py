"""The order in which a noun's WordNet senses are read.

WordNet orders senses by how often each was tagged in its corpus; where a noun was never tagged,
that order says nothing of frequency, and a caption names the visible thing a word names (a
"mug" is the cup before it is a chump). :func:`senses_in_order` gives the order the rest of
:mod:`knowledge` reads (:func:`knowledge.noun_synset` takes the first).

>>> from knowledge.hierarchy import get_hierarchy
>>> [get_hierarchy().names[i] for i in senses_in_order("mug", "n")][:2]
['mug.n.04', 'mug.n.01']
>>> [get_hierarchy().names[i] for i in senses_in_order("broccoli", "n")]
['broccoli.n.02', 'broccoli.n.01']
>>> [get_hierarchy().names[i] for i in senses_in_order("bikini", "n")]
['bikini.n.02', 'bikini.n.01']
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
    again (:mod:`parsers.person_readings`: "a racer *riding* a bike"). A never-tagged noun whose
    first sense is a plant and which also names a food ("broccoli", "peach", "cucumber": first
    the plant) is read as the food, the produce a caption sees on a plate or a stall, which
    "vegetables" and "fruit" then cover -- not a fungus: "mushrooms" grow on trees in captions as
    often as they lie on pizzas.

    Before all that, a noun that names a kind as well as a particular place, person or ship
    (WordNet's instances: "bikini" first Bikini Atoll, "polo" Marco Polo, "china" the country,
    "monitor" an ironclad) is read as a kind, as a word written in lower case is; the instances
    come last. Not the sun, the moon or the earth (:data:`_ONE_OF_A_KIND`), which captions name
    in lower case."""
    h = get_hierarchy()
    ids = tuple(h.lemmas(pos)[lemma])
    if pos != "n" or len(ids) < 2:
        return ids
    counts = h.noun_sense_counts.get(lemma)
    named = [_proper_name(h.names[i]) for i in ids]
    if any(named) and not all(named):
        kinds = [n for n, p in enumerate(named) if not p]
        rest = tuple(i for i, p in zip(ids, named, strict=True) if p)
        known = [counts[n] for n in kinds] if counts else None
        return _kinds_in_order(tuple(ids[n] for n in kinds), known, lemma) + rest
    return _kinds_in_order(ids, counts, lemma)


#: Instances a caption names in lower case: the sun, the moon, the earth.
_ONE_OF_A_KIND = "celestial_body.n.01"


def _proper_name(name: str) -> bool:
    """Whether synset ``name`` is an instance (a particular place, person, ship) that is no
    :data:`_ONE_OF_A_KIND`."""
    return name in get_hierarchy().instances and not is_hypernym(_ONE_OF_A_KIND, name)


def _kinds_in_order(ids: tuple[int, ...], counts: list[int] | None, lemma: str) -> tuple[int, ...]:
    """The order of :func:`senses_in_order` of senses ``ids`` of ``lemma`` with tag counts
    ``counts`` (None: never tagged)."""
    h = get_hierarchy()
    if len(ids) < 2:
        return ids
    if any(is_hypernym(m, h.names[ids[0]]) for m in _ANIMAL_MATERIALS):
        animals = [n for n, i in enumerate(ids) if is_hypernym("animal.n.01", h.names[i])]
        if animals:
            return _first(ids, animals[0])
    kinds = [h.lexnames[h.lexname_of[i]] for i in ids]
    if not h.noun_sense_counts:
        return ids
    if counts and any(counts):
        return _tagged_in_order(ids, kinds, counts)
    if kinds[0] == "noun.plant" and "noun.food" in kinds and not is_hypernym("fungus.n.01", h.names[ids[0]]):
        # a caption names the produce it sees: "broccoli" on a plate is the vegetable (but
        # "mushrooms" grow on a tree as often as they lie on a pizza)
        return _first(ids, kinds.index("noun.food"))
    if kinds[0] == "noun.person":
        things = sorted((_READ_AS.index(k), n) for n, k in enumerate(kinds) if k in _READ_AS and k != kinds[0])
        return _first(ids, things[0][1]) if things else ids
    own = _own_name(ids, kinds, lemma)
    if own is not None:
        return _first(ids, own)
    if kinds[0] in _READ_AS or objecthood(h.names[ids[0]]) != "abstract":
        return ids
    things = sorted((_READ_AS.index(k), n) for n, k in enumerate(kinds) if k in _READ_AS)
    if not things:
        return ids
    return _first(ids, things[0][1])


#: How often a visible sense of a tagged noun must have been tagged against its first sense to be
#: read first: at least once in :data:`_OFTEN_AS` as often, and more than once.
_OFTEN_AS = 4
#: First senses that prose needs and pictures do not show: a body of people or of information, a
#: thought, a measure, a span of time. Not an act, a state or a quality: "a shot of a city", "in
#: the shade", "a patch of grass" mean in captions what they mean in prose.
_PROSE_KINDS = frozenset(("noun.group", "noun.communication", "noun.cognition", "noun.quantity", "noun.time"))


def _tagged_in_order(ids: tuple[int, ...], kinds: list[str], counts: list[int]) -> tuple[int, ...]:
    """The order of a tagged noun's senses: WordNet's, unless its first sense is one prose needs
    and pictures do not show (:data:`_PROSE_KINDS`) and a thing it also names was tagged not much
    less often (:data:`_OFTEN_AS`) -- WordNet's corpus is prose, where "table" is a table of
    figures twice as often as the furniture that captions see (52 to 25 times), "item" a news
    item, "church" the body of believers as often as the building, "stage" a phase. Not a person
    it names: "nature", "self" and a "party" to a lawsuit are ways of speaking, not what a caption
    sees."""
    if kinds[0] not in _PROSE_KINDS:
        return ids
    things = [
        (-counts[n], n)
        for n, k in enumerate(kinds)
        if k in _READ_AS and k != "noun.person" and counts[n] > 1 and _OFTEN_AS * counts[n] >= counts[0]
    ]
    return _first(ids, min(things)[1]) if things else ids


def _own_name(ids: tuple[int, ...], kinds: list[str], lemma: str) -> int | None:
    """Where a never-tagged noun's first sense is filed under another word ("turtle" first the
    turtleneck, "lime" slaked lime): the sense named after it, of another kind, that captions
    name most (:data:`_READ_AS`; not a person: a "burger" is no jurist), or None. WordNet names a
    synset after its usual word, so a word filed first as another's synonym names first what it
    is the usual word for. Not where the first sense is a food: a caption's food word names what
    is eaten ("cob" no horse). Nor between senses of one kind, which the references' context
    tells apart better (:mod:`cece.senses`): a "runway" is first the airstrip, its own name
    second a chute for logs."""
    h = get_hierarchy()
    word = lemma.replace(" ", "_").lower()
    if kinds[0] == "noun.food" or h.names[ids[0]].split(".")[0] == word:
        return None
    own = [
        (_READ_AS.index(k), n)
        for n, (i, k) in enumerate(zip(ids, kinds, strict=True))
        if h.names[i].split(".")[0] == word and k in _READ_AS and k not in ("noun.person", kinds[0])
    ]
    return min(own)[1] if own else None


def _first(ids: tuple[int, ...], n: int) -> tuple[int, ...]:
    return (ids[n], *ids[:n], *ids[n + 1 :])
