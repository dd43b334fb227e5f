"""Whether a model-written fact is a fact *of the caption*: the check between decomposing and
verifying that keeps a small model's inventions ("entity", "two cats", "between two objects") and
its copies of the prompt out of the score.

A fact is kept when (1) every content word of it is in the sub-sentence it decomposes -- the same
word, the same WordNet lemma ("dogs" / "dog", "sitting" / "sits") or a WordNet synonym ("sofa" /
"couch"); numbers match as digits or words ("two" / "2"); (2) it names something: one of those
words is a noun for a thing one can see (:func:`names_a_thing`); (3) it is not a placeholder or
example of the prompt (``<object>``). Function words (articles, "there", forms of "be" and "have", pronouns,
prepositions) need no grounding. :func:`ungrounded` says why a fact is refused, or None.

>>> ungrounded("There are two dogs.", "Two brown dogs sit on a couch")
>>> ungrounded("The sofa is red.", "Two brown dogs sit on a couch")
"'red' is not in the text"
>>> ungrounded("There is an entity.", "Two brown dogs sit on a couch")
"'entity' is not in the text"
>>> ungrounded("Brown.", "Two brown dogs sit on a couch")
'names nothing'
"""

from __future__ import annotations

import re
from functools import lru_cache

from detectors.backends.answers import words_to_digits
from parsers.attribute_words import COLOURS, SIZES

# Words a fact may add to the text's own: the frames of the prompt's fact sentences.
FUNCTION_WORDS = frozenset(
    [
        "a",
        "an",
        "the",
        "there",
        "here",
        "is",
        "are",
        "was",
        "were",
        "be",
        "being",
        "been",
        "has",
        "have",
        "had",
        "having",
        "it",
        "its",
        "they",
        "them",
        "their",
        "this",
        "that",
        "these",
        "those",
        "of",
        "on",
        "in",
        "at",
        "to",
        "with",
        "and",
        "or",
        "by",
        "for",
        "from",
        "into",
        "onto",
        "over",
        "under",
        "near",
        "above",
        "below",
        "behind",
        "beside",
        "between",
        "next",
        "some",
        "one",
        "not",
        "no",
        "as",
        "which",
        "who",
        "while",
        "also",
        "other",
        "another",
        "each",
        "both",
    ]
)
_WORD = re.compile(r"[A-Za-z0-9][A-Za-z0-9'-]*")
_PLACEHOLDER = re.compile(r"<[^<>]*>")


def _words(text: str) -> list[str]:
    return [w.lower().strip("'-") for w in _WORD.findall(words_to_digits(text))]


@lru_cache(maxsize=65536)
def _forms(word: str) -> frozenset[str]:
    """The word, its noun and verb lemmas (WordNet base forms)."""
    from knowledge import lemmatize

    return frozenset({word, lemmatize(word, "n"), lemmatize(word, "v")})


@lru_cache(maxsize=65536)
def _synsets(word: str) -> frozenset[int]:
    """Every noun and verb synset of the word's lemmas: two words sharing one are synonyms."""
    from knowledge import get_hierarchy

    h = get_hierarchy()
    return frozenset(i for pos in ("n", "v") for form in _forms(word) for i in h.lemmas(pos).get(form, ()))


# WordNet's kinds of nouns (lexicographer files) for what a picture can show: a noun with one
# common sense of these kinds names something visible ("crowd" is a group, "smoke" a phenomenon,
# "sky" an object); "sense", "calm", "afternoon", "entity" have none. Of a noun's rare senses only
# the concrete kinds count ("racket" the bat; not "calm" the windless weather).
CONCRETE_KINDS = frozenset(
    "noun." + kind for kind in ("animal", "artifact", "body", "food", "object", "person", "plant", "substance")
)
VISIBLE_KINDS = CONCRETE_KINDS | {"noun.group", "noun.location", "noun.phenomenon", "noun.shape"}


@lru_cache(maxsize=65536)
def visible_noun(word: str, rare: bool = False) -> bool:
    """A common noun sense of the word is something one can see: a WordNet physical entity or a
    noun of a visible kind (:data:`VISIBLE_KINDS`); with ``rare``, any sense of a concrete kind
    (:data:`CONCRETE_KINDS`) will do too.

    >>> [visible_noun(w) for w in ("dog", "crowd", "sky", "orange", "sense", "entity", "afternoon")]
    [True, True, True, True, False, False, False]
    >>> visible_noun("racket"), visible_noun("racket", rare=True), visible_noun("calm", rare=True)
    (False, True, False)
    """
    from knowledge import ancestors, lexname, noun_senses

    common = noun_senses(word, min_count=1)
    if any(lexname(s) in VISIBLE_KINDS or "physical_entity.n.01" in ancestors(s) for s in common):
        return True
    return rare and any(lexname(s) in CONCRETE_KINDS for s in noun_senses(word))


def names_a_thing(word: str) -> bool:
    """A word of a fact names something one can see: a :func:`visible_noun` that is not a number
    nor a colour or size word ("white" is also a person in WordNet, "giant" an animal)."""
    return not (word.isdigit() or word in COLOURS or word in SIZES) and visible_noun(word)


def ungrounded(fact: str, text: str) -> str | None:
    """Why ``fact`` is not a statement about ``text`` (see the module docstring), or None."""
    if _PLACEHOLDER.search(fact):
        return "a placeholder of the prompt"
    have = _words(text)
    forms = set().union(*(_forms(w) for w in have)) if have else set()
    synsets = set().union(*(_synsets(w) for w in have if not w.isdigit())) if have else set()
    content = [w for w in _words(fact) if w not in FUNCTION_WORDS]
    for w in content:
        if not (_forms(w) & forms or (not w.isdigit() and _synsets(w) & synsets)):
            return f"{w!r} is not in the text"
    if not any(names_a_thing(w) for w in content):
        return "names nothing"
    return None
