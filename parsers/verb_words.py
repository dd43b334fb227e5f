"""Words the parser's repairs weigh (:mod:`parsers.participles`, :mod:`parsers.modifiers`):
whether a word is a verb form (and more often a verb than a noun), a visible thing that can do
something, a thing or place seen, a garment, its own plural, or one thing WordNet names with the
word before it. Each answer depends on the word alone, so each is cached.

>>> verb_participle("playing"), doer("puppy", False), garment("suit")
(True, True, True)
"""

from __future__ import annotations

from functools import lru_cache


@lru_cache(maxsize=8192)
def verb_participle(word: str, tag: str = "VBG") -> bool:
    """Whether lower-case ``word`` is the present participle (``tag`` "VBZ": the third person
    present) of a verb WordNet knows and names no visible thing as a noun. A third person that
    also names a thing is the verb when WordNet's sense-tagged corpus (SemCor) has the verb more
    often than the noun: "clings" (a clingstone peach 0 times, to cling 16), "flies", "lounges"
    and "perches" are what animals do, "trees" and "plants" are things.

    >>> verb_participle("playing"), verb_participle("building"), verb_participle("ring")
    (True, False, False)
    >>> verb_participle("crouches", "VBZ"), verb_participle("trees", "VBZ"), verb_participle("clings", "VBZ")
    (True, False, True)
    """
    from knowledge import is_thing
    from knowledge.concepts import wordnet_first_sense

    if tag == "VBG" and not word.endswith("ing"):
        return False
    if not verb_form(word, tag):
        return False
    return not is_thing(wordnet_first_sense(word)) or (tag in ("VBZ", "VBP") and more_often_a_verb(word))


@lru_cache(maxsize=8192)
def more_often_a_verb(word: str) -> bool:
    """Whether SemCor tags ``word``'s verb more often than its noun (never when it has no counts)."""
    from lemminflect import getAllLemmas

    from knowledge import get_hierarchy
    from knowledge.concepts import morphy_forms

    h = get_hierarchy()
    verb = max((h.verb_counts.get(v, 0) for v in getAllLemmas(word, "VERB").get("VERB", ())), default=0)
    noun = max((sum(h.noun_sense_counts.get(n, ())) for n in morphy_forms(word, "n")), default=0)
    return verb > noun


@lru_cache(maxsize=8192)
def verb_form(word: str, tag: str) -> bool:
    """Whether lower-case ``word`` is the ``tag`` form of a verb WordNet knows."""
    from lemminflect import getAllLemmas, getInflection

    from knowledge import get_hierarchy

    verbs = get_hierarchy().lemmas("v")
    return any(word in getInflection(v, tag) for v in getAllLemmas(word, "VERB").get("VERB", ()) if v in verbs)


@lru_cache(maxsize=8192)
def doer(word: str, adjective_tag: bool) -> bool:
    """Whether lower-case ``word`` is a noun whose first sense is a visible thing, in WordNet's
    order or as concepts are read ("leopard" the animal, not its pelt; :func:`knowledge.noun_synset`)
    (and, when the tagger called it an adjective, not also an adjective to WordNet).

    >>> doer("puppy", True), doer("black", True), doer("city", False)
    (True, False, False)
    """
    from knowledge import get_hierarchy, is_thing, lemmatize, noun_synset
    from knowledge.concepts import wordnet_first_sense

    h = get_hierarchy()
    if adjective_tag and word in h.adjective_lemmas:
        return False
    return lemmatize(word) in h.lemmas("n") and (is_thing(wordnet_first_sense(word)) or is_thing(noun_synset(word)))


@lru_cache(maxsize=8192)
def seen(word: str) -> bool:
    """Whether lower-case ``word`` is a noun whose first sense is seen: a thing, or a place,
    scenery or material ("pasture", "snow"), what a participle's doer can be in or on. A compound
    WordNet lists is read as concepts are ("golf club" is the club one swings, whose first sense
    is a society of golfers).

    >>> seen("pasture"), seen("helmet"), seen("idea"), seen("club"), seen("golf club")
    (True, True, False, False, True)
    """
    from knowledge import get_hierarchy, lemmatize, noun_synset, objecthood
    from knowledge.concepts import wordnet_first_sense

    if lemmatize(word) not in get_hierarchy().lemmas("n"):
        return False
    # a compound is read as concepts are ("golf club" the club one swings), a word by its first sense
    sense = noun_synset(word) if " " in word else wordnet_first_sense(word)
    return objecthood(sense) in ("thing", "stuff")


@lru_cache(maxsize=8192)
def listed_name(first: str, second: str) -> bool:
    """Whether "``first`` ``second``" is a noun WordNet lists ("french fries", "teddy bear").

    >>> listed_name("teddy", "bear"), listed_name("bathroom", "sink")
    (True, False)
    """
    from knowledge import get_hierarchy, lemmatize

    return lemmatize(f"{first} {second}") in get_hierarchy().lemmas("n")


def names_one_thing(first: str, second: str) -> bool:
    """Whether "``first`` ``second``" is a thing WordNet names apart from what ``second`` names
    ("swimming pool"; "deer walk" is none).

    >>> names_one_thing("swimming", "pool"), names_one_thing("deer", "walk")
    (True, False)
    """
    from knowledge import noun_synset

    s = noun_synset(f"{first} {second}")
    return s is not None and s != noun_synset(second)


@lru_cache(maxsize=8192)
def garment(word: str) -> bool:
    """Whether noun ``word`` can name something worn: then an ``-ing`` word before it says what
    for ("a man in a bicycle *racing suit*", "*running* shoes"), not what someone does."""
    from knowledge import is_garment, noun_senses

    return any(is_garment(s) for s in noun_senses(word))


@lru_cache(maxsize=8192)
def own_plural(word: str) -> bool | None:
    """Whether noun ``word``'s usual plural is itself ("deer", "sheep", and stuff: "pork"); None
    when lemminflect knows no plural of it.

    >>> own_plural("deer"), own_plural("house"), own_plural("cake")
    (True, False, False)
    """
    from lemminflect import getInflection

    plural = getInflection(word, "NNS")
    return plural[0] == word if plural else None
