"""When two relation predicates say the same about a pair of things, and when they cannot both
be true.

Predicates arrive canonical (:func:`knowledge.canonical_predicate`: "is sitting beside" -> "sit
next to", "with" -> "have"). Matching compares their :func:`relation_key`: the trailing spatial
preposition when there is one ("sit on" -> "on"), since that decides where things are and
annotations mostly give the bare preposition; else the whole predicate. Keys then *agree* when
equal or in one group of :data:`AGREE` ("with a knife" and "holding a knife"), and *contradict*
when they are spatial opposites (:data:`OPPOSITES`: on / under, in front of / behind). Anything
else is neither: a different thing said, which a partial description leaves unverified.

>>> relation_key("sit on"), relation_key("hold"), relation_key("park in front of")
('on', 'hold', 'in front of')
>>> predicates_agree("have", "hold"), predicates_contradict("on", "under"), predicates_contradict("on", "hold")
(True, True, False)

Whole canonical predicates also carry what their verb says of the subject
(:mod:`knowledge.states`): "sit on" and "stand on" share the key "on" but put the subject in two
postures that exclude each other, so :func:`canonicals_agree` is false and
:func:`canonicals_contradict` true for them.

>>> canonicals_agree("sit on", "on"), canonicals_agree("sit on", "stand on")
(True, False)
>>> canonicals_contradict("ride", "walk next to"), predicates_contradict("ride", "under")
(True, True)
"""

from __future__ import annotations

from functools import lru_cache

from knowledge.distance import lexname
from knowledge.predicates import predicate_verb_synset
from knowledge.states import Body, state_of_predicate, states_exclude

#: Spatial prepositions that decide a relation when present.
PREPOSITIONS = frozenset(
    {
        "on",
        "in",
        "at",
        "under",
        "above",
        "behind",
        "near",
        "with",
        "by",
        "beside",
        "inside",
        "over",
        "onto",
        "into",
        "through",
        "across",
        "along",
        "against",
        "around",
        "between",
        "among",
        "below",
        "beneath",
        "underneath",
        "outside",
        "off",
        "toward",
        "towards",
        "past",
        "beyond",
        "within",
        "upon",
        "atop",
        "next to",
        "in front of",
        "on top of",
        "close to",
        "out of",
        "near to",
    }
)
#: Parts of a place: "in the middle of a field" is in it, "on the surface of a stove" on it.
PLACE_PARTS = frozenset(
    {"middle", "center", "centre", "side", "edge", "top", "bottom", "surface", "corner", "end", "back"}
)

#: Keys that say the same about a pair ("a man with a knife" / "a man holding a knife").
AGREE: tuple[frozenset[str], ...] = (
    frozenset({"have", "hold", "carry", "wear", "in", "use", "grab", "own"}),
    frozenset({"on", "ride", "atop", "upon", "onto", "at"}),
    frozenset({"next to", "near", "by", "beside", "with", "around", "at", "close to", "along", "against"}),
    frozenset({"in", "inside", "into", "within", "at"}),
    frozenset({"above", "over", "on"}),
    frozenset({"under", "below", "beneath", "underneath"}),
)

#: Keys that place a thing alike at a place or in stuff, which has no inside to tell from its top:
#: "in the water" and "on the water", "in a field" and "on a field".
AT_A_PLACE = frozenset({"in", "on", "at", "upon", "into", "onto"})

#: Keys that cannot both hold of one ordered pair. One rides on what one rides: "a man under a
#: bike" where they see him riding it is wrong.
OPPOSITES: tuple[tuple[frozenset[str], frozenset[str]], ...] = (
    (
        frozenset({"on", "above", "over", "atop", "upon", "onto", "ride"}),
        frozenset({"under", "below", "beneath", "underneath"}),
    ),
    (frozenset({"in front of"}), frozenset({"behind"})),
    (frozenset({"in", "inside", "within", "into"}), frozenset({"outside", "out of"})),
)

#: Keys that cannot both hold of one ordered pair when the second is a bounded thing: resting on or
#: inside a table is not standing beside it, but "on the bank" and "by the bank", "in the grass"
#: and "next to the grass" are two ways of placing a thing at a place with no edge to speak of.
BOUNDED_OPPOSITES: tuple[tuple[frozenset[str], frozenset[str]], ...] = (
    (
        frozenset({"on", "atop", "upon", "onto", "in", "inside", "within", "into", "ride"}),
        frozenset({"next to", "near", "beside", "by", "close to"}),
    ),
    # in a boat is not under it; in the water and under the water are one
    (frozenset({"in", "inside", "within", "into"}), frozenset({"under", "below", "beneath", "underneath"})),
)

#: The key of the reversed pair: "a cat on a table" is "a table under a cat".
INVERSE = {
    "on": "under",
    "under": "on",
    "above": "under",
    "below": "above",
    "over": "under",
    "in front of": "behind",
    "behind": "in front of",
    "next to": "next to",
    "near": "near",
    "beside": "beside",
    "by": "by",
}


def place_part(words: list[str], k: int) -> bool:
    """Whether ``words[k]`` names a part of a place between "on", "in" or "at" and "of" ("in
    *middle* of", "on *surface* of"; :data:`PLACE_PARTS`).

    >>> place_part(["sit", "in", "middle", "of"], 2), place_part(["in", "front", "of"], 1)
    (True, False)
    """
    return (
        0 < k < len(words) - 1
        and words[k] in PLACE_PARTS
        and words[k - 1] in ("on", "in", "at")
        and words[k + 1] == "of"
    )


@lru_cache(maxsize=8192)
def relation_key(canonical: str) -> str:
    """What two predicates must share to match: the trailing spatial preposition when there is
    one ("sit on" -> "on", "stand next to" -> "next to"; "in the middle of" a place is in it,
    "on the surface of" a thing on it, "outside of" outside), else the whole canonical predicate.

    >>> relation_key("sit in middle of"), relation_key("on surface of"), relation_key("park outside of")
    ('in', 'on', 'outside')
    """
    words = canonical.split()
    if place_part(words, len(words) - 2):
        return words[-3]
    if len(words) >= 2 and words[-1] == "of" and words[-2] in ("outside", "inside", "atop", "off"):
        return words[-2]
    for k in range(min(len(words), 4), 0, -1):
        tail = " ".join(words[-k:])
        if tail in PREPOSITIONS:
            return tail
    return canonical


def predicates_agree(p: str, q: str, bounded: bool = True) -> bool:
    """Whether relation keys ``p`` and ``q`` say the same about one ordered pair; ``bounded``: the
    pair's second is a bounded thing -- else "in" and "on" place a thing alike
    (:data:`AT_A_PLACE`: "in the street" and "on the street", "in the snow" and "on the snow").

    >>> predicates_agree("in", "on"), predicates_agree("in", "on", bounded=False)
    (False, True)
    """
    return p == q or any(p in g and q in g for g in AGREE) or (not bounded and p in AT_A_PLACE and q in AT_A_PLACE)


def is_foliage(synset: str | None) -> bool:
    """Whether noun ``synset`` is a plant (WordNet's noun.plant): its leaves have no inside to tell
    from their top, so "in" and "on" it agree as at a place (not ``bounded`` in
    :func:`predicates_agree`), though beside it is elsewhere: "in the grass" and "on the grass",
    "in a tree" and "on a tree", not "next to a tree". Of the reference sets of the nocaps-FOIL
    training and dev pairs and of HAT dev that put something in or on grass, 47 of 101 say both;
    of a tree 23 of 61, of a table 5 of 231.

    >>> is_foliage("grass.n.01"), is_foliage("tree.n.01"), is_foliage("table.n.02"), is_foliage(None)
    (True, True, False, False)
    """
    return synset is not None and lexname(synset) == "noun.plant"


def predicates_contradict(p: str, q: str, bounded: bool = True) -> bool:
    """Whether relation keys ``p`` and ``q`` cannot both hold of one ordered pair; ``bounded``:
    the pair's second is a bounded thing, not a place or stuff (:data:`BOUNDED_OPPOSITES`).

    >>> predicates_contradict("on", "next to"), predicates_contradict("on", "next to", bounded=False)
    (True, False)
    >>> predicates_contradict("on", "under", bounded=False)
    True
    """
    pairs = OPPOSITES + BOUNDED_OPPOSITES if bounded else OPPOSITES
    return any((p in a and q in b) or (p in b and q in a) for a, b in pairs)


#: WordNet's verb files of an act aimed at its object: a look, an utterance, a making.
_AIMED = frozenset(("verb.perception", "verb.communication", "verb.creation"))


@lru_cache(maxsize=4096)
def aimed(canonical: str) -> bool:
    """Whether canonical predicate ``canonical`` is an act aimed at its object -- a look ("look
    in", "stare at"), an utterance ("sing into", "talk on") or a making ("cook on", "paint on"):
    its verb is filed under perception, communication or creation in WordNet, so its preposition
    says where the look, the voice or the work goes, not where the one doing it is ("looking
    *inside* a hood" and "looking *under* the hood" are one look; "singing *into* a microphone"
    is standing next to it).

    >>> aimed("look in"), aimed("sing in"), aimed("cook on"), aimed("sit in"), aimed("in")
    (True, True, True, False, False)
    """
    synset = predicate_verb_synset(canonical)
    return synset is not None and lexname(synset) in _AIMED


def inverse_key(p: str) -> str | None:
    """The key of the reversed pair, for the spatial keys that have one."""
    return INVERSE.get(p)


def canonicals_agree(p: str, q: str, body: Body = "mammal", bounded: bool = True) -> bool:
    """Whether canonical predicates ``p`` and ``q`` say the same about one ordered pair: their
    keys agree (``bounded`` as in :func:`predicates_agree`) and their verbs do not put the
    subject (of ``body``, :data:`knowledge.states.Body`) in states that exclude each other."""
    return predicates_agree(relation_key(p), relation_key(q), bounded) and not verbs_exclude(p, q, body)


def canonicals_contradict(p: str, q: str, body: Body = "mammal", bounded: bool = True) -> bool:
    """Whether canonical predicates ``p`` and ``q`` cannot both hold of one ordered pair: their
    keys are spatial opposites (``bounded`` as in :func:`predicates_contradict`) or their verbs'
    states exclude each other."""
    return predicates_contradict(relation_key(p), relation_key(q), bounded) or verbs_exclude(p, q, body)


def verbs_exclude(p: str, q: str, body: Body = "mammal") -> bool:
    """Whether the subject states of canonical predicates ``p`` and ``q`` exclude each other."""
    return states_exclude(state_of_predicate(p), state_of_predicate(q), body)
