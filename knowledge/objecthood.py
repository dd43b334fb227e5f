"""How surely a noun names a visible object, from its WordNet lexicographer file.

Captions and references name things (a cello, a dog), but also body parts, materials, places,
settings and abstractions, which references often leave unsaid even when they are there. The
judgement of a caption noun that no reference names weighs it by its kind.

>>> objecthood("cello.n.01"), objecthood("street.n.01"), objecthood("shape.n.01"), objecthood(None)
('thing', 'stuff', 'abstract', 'abstract')
"""

from __future__ import annotations

from functools import lru_cache

from knowledge.distance import filed_as, is_hypernym, lexname
from knowledge.hierarchy import get_hierarchy

#: Lexicographer files of visible things.
THINGS = frozenset({"noun.artifact", "noun.food", "noun.person", "noun.animal", "noun.plant"})
#: Body parts: there whenever their owner is, and rarely mentioned.
PARTS = frozenset({"noun.body"})
#: Materials, places, weather and scenery (sky, hill, rock are noun.object).
STUFF = frozenset({"noun.substance", "noun.location", "noun.phenomenon", "noun.object"})
#: Settings filed as artifacts -- roads and paths, rooms, areas: where a scene happens rather
#: than a thing in it; references name the setting loosely ("street" / "road") or not at all.
SETTINGS = ("way.n.06", "room.n.01", "area.n.05", "location.n.01")


#: A signal made to be seen is a thing seen, though WordNet files it with communication: a
#: traffic light, a flag, a windsock, a beacon, a barber's pole.
VISUAL_SIGNAL = "visual_signal.n.01"
#: A design on a thing (a pattern, a stripe, polka dots, a tattoo) is how its owner's surface
#: looks: there whenever the owner is, and said by the references as an adjective ("a
#: *checkered* paper", "a *floral* couch") or not at all. An emblem (a flag, a cross, a badge)
#: is a thing of its own, though WordNet files it as a design.
DESIGN, EMBLEM = "design.n.04", "emblem.n.01"
#: A stand of plants (a forest, the woods, brush) is scenery, though WordNet files it as a group.
VEGETATION = "vegetation.n.01"


@lru_cache(maxsize=16384)
def objecthood(synset: str | None) -> str:
    """``"thing"``, ``"part"`` (body parts, and designs on a thing: :data:`DESIGN`), ``"stuff"``
    (substances, places, phenomena, scenery, :data:`VEGETATION` and settings) or ``"abstract"``
    (acts, attributes, other groups, shapes, and words WordNet lacks).

    A signal made to be seen is a thing, though WordNet files it with communication
    (:data:`VISUAL_SIGNAL`).

    >>> objecthood("traffic_light.n.01"), objecthood("movie.n.01")
    ('thing', 'abstract')
    >>> objecthood("design.n.04"), objecthood("stripe.n.05"), objecthood("flag.n.01")
    ('part', 'part', 'thing')
    >>> objecthood("forest.n.01"), objecthood("crowd.n.01")
    ('stuff', 'abstract')
    """
    if not synset:
        return "abstract"
    if is_hypernym(DESIGN, synset) and not is_hypernym(EMBLEM, synset):
        return "part"
    kind = filed_as(synset)
    if kind in THINGS:
        return "stuff" if any(is_hypernym(s, synset) for s in SETTINGS) else "thing"
    if kind in PARTS:
        return "part"
    if kind in STUFF:
        return "stuff"
    if is_hypernym(VEGETATION, synset):
        return "stuff"
    return "thing" if is_hypernym(VISUAL_SIGNAL, synset) else "abstract"


def is_thing(synset: str | None) -> bool:
    """Whether ``synset`` is filed as a visible thing (:data:`THINGS`), setting or not.

    >>> is_thing("dog.n.01"), is_thing("sky.n.01")
    (True, False)
    """
    return synset is not None and synset != "" and filed_as(synset) in THINGS


#: What is worn: its wearer is "in" it ("a man in a suit") without its being a place.
GARMENTS = ("clothing.n.01", "footwear.n.01", "headdress.n.01")


@lru_cache(maxsize=8192)
def is_garment(synset: str | None) -> bool:
    """Whether ``synset`` is something worn (:data:`GARMENTS`).

    >>> is_garment("dress.n.01"), is_garment("garage.n.01")
    (True, False)
    """
    return bool(synset) and any(is_hypernym(kind, synset) for kind in GARMENTS)


#: What names a piece or an amount of something else ("a *piece* of cake", "a *scoop* of ice
#: cream", "*bits* of paper", "a *serving* of rice"): the phrase names the something.
PORTIONS = ("piece.n.01", "bit.n.02", "fragment.n.01", "helping.n.01", "indefinite_quantity.n.01")


@lru_cache(maxsize=8192)
def is_portion(synset: str | None) -> bool:
    """Whether ``synset`` is a piece or an amount of something (:data:`PORTIONS`); not a thing
    made as a piece of something ("a towel", a piece of cloth, is a towel: "the towel of
    Bangladesh" names the towel).

    >>> is_portion("piece.n.01"), is_portion("scoop.n.01"), is_portion("cup.n.01"), is_portion("towel.n.01")
    (True, True, False, False)
    """
    if not synset:
        return False
    if synset in PORTIONS:
        return True
    return lexname(synset) != "noun.artifact" and any(is_hypernym(kind, synset) for kind in PORTIONS)


@lru_cache(maxsize=8192)
def ball_of_game(synset: str | None) -> str | None:
    """The thing a game's name also names, when ``synset`` is a game ("baseball" is first the
    game, then its ball); None otherwise. A caption that counts a game ("throwing *a* baseball",
    "two footballs") means the thing: the game is never counted ("playing baseball").

    >>> ball_of_game("baseball.n.01"), ball_of_game("tennis.n.01"), ball_of_game("game.n.01")
    ('baseball.n.02', None, None)
    """
    if not synset or synset == "game.n.01" or not is_hypernym("game.n.01", synset):
        return None
    h = get_hierarchy()
    word = synset.split(".")[0]
    return next((n for i in h.lemmas("n").get(word, ()) if is_hypernym("game_equipment.n.01", n := h.names[i])), None)
