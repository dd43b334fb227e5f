"""When a relation puts its object in or on its subject, read from the holder's end: "a *plate of*
pancakes", "a bowl *containing* fruit", "a cake *topped with* candles", "a room *full of* people".

References say where food is by naming its dish ("a plate of pancakes") as often as by placing
it ("pancakes on a plate"); both say the pancakes are on the plate, so "pancakes *under* a
plate" is contradicted by either. Some predicates put their object in or on whatever their
subject is (:data:`FILLING`: filled, topped, covered, piled, loaded, stacked, packed, stuffed
with; full of); "of", "containing" and "holding" do so only of a container (:func:`is_container`:
"a plate of pancakes", but "a picture of a dog", "a man holding a cup").

>>> puts_inside("top with", "cake"), puts_inside("of", "plate"), puts_inside("of", "picture")
(True, True, False)
"""

from __future__ import annotations

from functools import lru_cache

from knowledge.concepts import noun_synset
from knowledge.distance import is_hypernym
from knowledge.hierarchy import get_hierarchy

#: Verbs that, before "with" or "in", put their object in or on their subject, whatever it is.
FILLING = frozenset({"fill", "top", "cover", "pile", "load", "stack", "lade", "pack", "stuff", "heap"})
#: Predicates that put their object in their subject only when the subject is a container.
CONTAINING = frozenset({"of", "contain", "hold"})
#: What a container is first: a container, or tableware ("a dish", "a platter").
_CONTAINERS = ("container.n.01", "tableware.n.01")


@lru_cache(maxsize=8192)
def is_container(word: str) -> bool:
    """Whether noun ``word`` names a container whose "of" says what is in it: one of its senses is
    the quantity it holds (WordNet's containerful: "a plate" of pancakes, "a cup" of tea), or its
    first sense is a container or tableware ("a tray", "a vase").

    >>> [is_container(w) for w in ("plate", "tray", "vase", "picture", "side", "man")]
    [True, True, True, False, False, False]
    """
    h = get_hierarchy()
    lemma = word.lower().replace(" ", "_")
    if any(is_hypernym("containerful.n.01", h.names[i]) for i in h.lemmas("n").get(lemma, ())):
        return True
    first = noun_synset(word)
    return first is not None and any(is_hypernym(kind, first) for kind in _CONTAINERS)


#: A device made to hold something in place ("a toothbrush *holder*", "a candlestick").
HOLDING_DEVICE = "holding_device.n.01"


@lru_cache(maxsize=8192)
def made_to_hold(word: str) -> bool:
    """Whether noun ``word`` first names a holding device, whose noun modifier says what it is
    made to hold, not what it holds: "a *cupcake* holder" may hold a muffin, "a *toothbrush*
    holder" may stand empty. Not any container: a "toy kettle" is a toy, a "bus racer" no bus.

    >>> [made_to_hold(w) for w in ("holder", "candlestick", "box", "bus", "man")]
    [True, True, False, False, False]
    """
    first = noun_synset(word)
    return first is not None and is_hypernym(HOLDING_DEVICE, first)


def puts_inside(canonical: str, holder: str) -> bool:
    """Whether canonical predicate ``canonical``, said of subject noun ``holder``, puts its object
    in or on the subject (see the module docstring).

    >>> puts_inside("fill with", "room"), puts_inside("cover in", "car"), puts_inside("hold", "man")
    (True, True, False)
    >>> puts_inside("line with", "street"), puts_inside("contain", "bowl")
    (False, True)
    """
    words = canonical.split()
    if not words:
        return False
    if canonical == "full of" or (len(words) >= 2 and words[0] in FILLING and words[-1] in ("with", "in")):
        return True
    return canonical in CONTAINING and is_container(holder)
