"""Nouns English has only in the plural ("scissors", "sunglasses", "jeans"): one of them is one
thing, so "a pair of scissors" counts one, and a rewrite says them without "a".

>>> plural_only("sunglasses", "sunglasses.n.01"), plural_only("dog", "dog.n.01")
(True, False)
>>> one_pair("jeans", "jean.n.01"), one_pair("shoes", "shoe.n.01")
(True, False)
"""

from __future__ import annotations

from functools import lru_cache

from knowledge.concepts import noun_senses, noun_synset
from knowledge.distance import lexname
from knowledge.hierarchy import get_hierarchy


@lru_cache(maxsize=65536)
def plural_only(lemma: str, synset: str | None) -> bool:
    """Whether ``lemma`` is a noun WordNet only has in the plural ("sunglasses", "pants"): plural in
    form and a name of its synset, whose singular is not; or one WordNet also names "a pair of"
    ("scissors", "tongs").

    >>> plural_only("pants", "bloomers.n.01"), plural_only("scissors", "scissors.n.01")
    (True, True)
    """
    from lemminflect import getLemma  # on first use: it imports spaCy

    words = lemma.replace("_", " ").split()
    if not synset or not words:
        return False
    h = get_hierarchy()
    if synset in (h.names[i] for i in h.lemmas("n").get("pair_of_" + "_".join(words), ())):
        return True  # WordNet names it "pair of scissors" too
    singulars = [s for s in getLemma(words[-1], "NOUN") if s != words[-1]]  # "leaves": leave, leaf
    return (
        bool(singulars)
        and synset in noun_senses(" ".join(words))
        and not any(synset in noun_senses(" ".join(words[:-1] + [s])) for s in singulars)
    )


@lru_cache(maxsize=8192)
def one_pair(word: str, synset: str | None) -> bool:
    """Whether a plural ``word`` as written after "a pair of" names one thing ("a pair of jeans",
    "of glasses", "of scissors"), not two ("a pair of shoes", "of giraffes"): a noun only ever
    plural (:func:`plural_only`), in ``synset`` or in the word's first sense ("pants" read as
    the trousers it also names is women's underpants first, a word only ever plural), or a made
    thing whose plural word lemminflect reads as a lemma of its own ("jeans", "goggles",
    "trousers"; not "shoes", whose lemma is "shoe").

    >>> one_pair("pants", "trouser.n.01"), one_pair("dogs", "dog.n.01")
    (True, False)
    """
    from lemminflect import getLemma

    if not synset:
        return False
    if plural_only(word, synset) or plural_only(word, noun_synset(word)):
        return True
    return lexname(synset) == "noun.artifact" and word in getLemma(word, "NOUN")
