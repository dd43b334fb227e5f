"""Word forms for the counterfactual (:mod:`cece.counterfactuals.rewrite`): nouns in a number, verbs in a
Penn tag's form, numbers as words, "a" / "an". Forms come from lemminflect, never from suffix
rules.

>>> noun_form("giraffe", True), verb_form("sit", "VBG"), number_word("2"), article("hour")
('giraffes', 'sitting', 'two', 'an')
"""

from __future__ import annotations

import re
from functools import lru_cache

from parsers.attribute_words import NUMBER_WORDS

# Plurals lemminflect also reads as singular nouns of their own ("a people").
_SINGULAR = {"people": "person", "men": "man", "women": "woman", "children": "child"}


@lru_cache(maxsize=65536)
def noun_form(lemma: str, plural: bool) -> str:
    """``lemma`` (WordNet style, "hot_dog") as a noun in the caption's number.

    >>> noun_form("giraffe", True), noun_form("hot_dog", True), noun_form("bicycle", False)
    ('giraffes', 'hot dogs', 'bicycle')
    """
    from lemminflect import getInflection, getLemma  # on first use: it imports spaCy (and torch)

    words = lemma.replace("_", " ").split()
    if words:
        base = _SINGULAR.get(words[-1]) or (getLemma(words[-1], "NOUN") or (words[-1],))[0]
        if base != words[-1] and not plural:
            words[-1] = base
        elif plural and base == words[-1]:  # "stairs" is plural already
            words[-1] = (getInflection(words[-1], "NNS") or (words[-1] + "s",))[0]
    return " ".join(words)


@lru_cache(maxsize=65536)
def verb_form(lemma: str, tag: str) -> str:
    """A verb lemma in a Penn tag's form ("sit", "VBG" -> "sitting"); the lemma for other tags."""
    from lemminflect import getInflection, getLemma

    lemma = (getLemma(lemma, "VERB") or (lemma,))[0]
    if not tag.startswith("VB") or tag == "VB":
        return lemma
    return (getInflection(lemma, tag) or (lemma,))[0]


def number_word(n: str) -> str:
    """ "2" -> "two" (up to twenty), other strings unchanged."""
    return NUMBER_WORDS[int(n)] if n.isdigit() and int(n) < len(NUMBER_WORDS) else n


def article(word: str) -> str:
    """ "a" or "an" before ``word``, by its first sound as spelt (vowel letters, silent h, "one",
    "uni-", "eu-", "use-")."""
    w = word.lower()
    if re.match(r"(hour|honest|honou?r|heir)", w):
        return "an"
    if re.match(r"(one|once|uni|use|usu|eu|ewe|u[bcfgklmrst][aeiou])", w):
        return "a"
    return "an" if w[:1] in "aeiou" else "a"


def case_like(new: str, old: str) -> str:
    """``new`` in capitals when ``old`` is a word of four or more letters in capitals ("A MAN ON
    THE *CHAIR*"; "a *TV*", "an *SUV*" are names said so), else with the first letter capitalised
    when ``old``'s is.

    >>> case_like("dinner table", "CHAIR"), case_like("dinner table", "Chair"), case_like("an", "A")
    ('DINNER TABLE', 'Dinner table', 'An')
    """
    if len(old) >= 4 and old.isupper():
        return new.upper()
    return new[:1].upper() + new[1:] if old[:1].isupper() else new
