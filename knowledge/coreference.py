"""Can two nouns name the same thing in one picture? Coreference by WordNet, for merging what
several reference captions say into entities.

Two synsets may name one thing when they are the same, when one is a kind of the other within
``max_distance`` hypernym edges and the general one is not too general (``min_depth``: "object",
"thing" name anything), or when both name people whose sex and age do not clash: "boy", "kid",
"child", "skier" can be one person; "man" and "boy", or "man" and "woman", cannot. A plain word
for a person (:func:`plain_person`) may name one with any other name that fits its sex and age
("military men" and "soldiers"), two names of what people do only when WordNet files them
close.

>>> corefer_distance("male_child.n.01", "child.n.01")   # boy / kid: a person, no clash
4
>>> corefer_distance("man.n.01", "male_child.n.01") is None   # adult / young
True
>>> corefer_distance("man.n.01", "soldier.n.01")   # "military men" / "soldiers": a plain word
7
>>> corefer_distance("dog.n.01", "animal.n.01"), corefer_distance("dog.n.01", "cat.n.01")
(2, None)
"""

from __future__ import annotations

from functools import lru_cache

from knowledge.distance import ancestors, is_hypernym, path_distance, root_distance
from knowledge.hierarchy import get_hierarchy

PERSON = "person.n.01"
_MALE, _FEMALE = "male.n.02", "female.n.02"
_YOUNG = ("juvenile.n.01", "male_child.n.01", "female_child.n.01", "baby.n.01")
_ADULT = "adult.n.01"
_PHYSICAL = "physical_entity.n.01"
#: WordNet's first "girl" is a young woman, but captions say it of children as often.
_AGELESS = frozenset({"girl.n.01"})


def _sex(a: dict[str, int]) -> str | None:
    """By the hypernyms (``a``: a synset's ancestors, itself too), else by the nearest of them
    whose gloss says a woman or a man: a "bride" is "a woman who has recently been married"."""
    if _MALE in a or _FEMALE in a:
        return "m" if _MALE in a else "f"
    glossed = get_hierarchy().sexes
    return min(((d, glossed[s]) for s, d in a.items() if s in glossed), default=(0, None))[1]


def _age(name: str, a: dict[str, int]) -> str | None:
    if name in _AGELESS:
        return None
    if any(y in a for y in _YOUNG):
        return "young"
    return "adult" if _ADULT in a else None


def sex_of(a: str | None) -> str | None:
    """``"m"`` or ``"f"`` for a person synset that says its sex ("boy", "woman"), else None.

    >>> sex_of("male_child.n.01"), sex_of("woman.n.01"), sex_of("child.n.01"), sex_of("dog.n.01")
    ('m', 'f', None, None)
    >>> sex_of("bride.n.01"), sex_of("groom.n.01")   # by their glosses
    ('f', 'm')
    """
    if a is None:
        return None
    aa = ancestors(a)
    return _sex(aa) if PERSON in aa else None


#: Plain words for a person: they say only sex or age ("man", "kid", "lady", "teenager").
_PLAIN = frozenset(
    {PERSON, _MALE, _FEMALE, _ADULT, *_YOUNG, *_AGELESS}
    | {"man.n.01", "woman.n.01", "child.n.01", "adolescent.n.01", "guy.n.01", "lady.n.01"}
)


def plain_person(name: str | None) -> bool:
    """Whether synset ``name`` is a plain word for a person, saying only sex or age.

    >>> plain_person("man.n.01"), plain_person("rider.n.01"), plain_person("prostitute.n.01")
    (True, False, False)
    """
    return name in _PLAIN


@lru_cache(maxsize=4096)
def only_people(lemma: str) -> bool:
    """Whether every visible thing noun ``lemma`` can name is a person. A sense WordNet files
    under abstraction is none, though filed with people: "father" and "son" as God.

    >>> only_people("rider"), only_people("toaster"), only_people("bull"), only_people("father")
    (True, False, False, True)
    """
    from knowledge.concepts import noun_senses
    from knowledge.objecthood import is_thing

    things = [s for s in noun_senses(lemma) if is_thing(s) and _PHYSICAL in ancestors(s)]
    return bool(things) and all(PERSON in ancestors(s) for s in things)


@lru_cache(maxsize=4096)
def another_name(a: str, b: str) -> bool:
    """Whether two person synsets may name one person and one of them is a plain word for a
    person (:func:`plain_person`), so the other names them by what they do ("rider", "player"):
    "a rider" where the references see a man is another name for him, "a woman" (another sex),
    "a boy" (another age) or "a skier" beside a snowboarder (two roles) is not.

    >>> another_name("rider.n.01", "man.n.01"), another_name("player.n.01", "male_child.n.01")
    (True, True)
    >>> another_name("woman.n.01", "man.n.01"), another_name("skier.n.01", "snowboarder.n.01")
    (False, False)
    """
    if PERSON not in ancestors(a) or PERSON not in ancestors(b) or people_clash(a, b):
        return False
    return plain_person(a) or plain_person(b)


def people_clash(a: str, b: str) -> bool:
    """Whether two person synsets differ in sex or age group (so cannot be one person)."""
    aa, ab = ancestors(a), ancestors(b)
    sa, sb, ya, yb = _sex(aa), _sex(ab), _age(a, aa), _age(b, ab)
    return bool(sa and sb and sa != sb) or bool(ya and yb and ya != yb)


@lru_cache(maxsize=1 << 16)  # a pure function of two names, asked for every pair of reference mentions
def corefer_distance(
    a: str, b: str, *, max_distance: int = 3, min_depth: int = 3, max_person_distance: int = 6
) -> int | None:
    """How far apart two synsets are if they may name one thing (see the module docstring), else
    None. 0 for the same synset; smaller is the likelier pairing."""
    if a == b:
        return 0
    d = path_distance(a, b)
    if d is None:
        return None
    if is_hypernym(a, b) or is_hypernym(b, a):
        general = a if is_hypernym(a, b) else b
        if d <= max_distance and root_distance(general) >= min_depth:
            return d
    # a plain word for a person ("man") may name anyone who fits its sex and age, however far
    # WordNet files what they do ("soldier", "cowboy": 7 and 9 edges from "man")
    near = d <= max_person_distance or another_name(a, b)
    if near and PERSON in ancestors(a) and PERSON in ancestors(b):
        return None if people_clash(a, b) else d
    return None
