"""A memo in front of spaCy's rule lemmatizer, so that each word form is lemmatized once.

spaCy's rule lemmatizer caches only the forms its rules rewrite ("dogs" -> "dog"); a form it finds
already in base form -- most tokens of a caption: singular nouns, base verbs, plain adjectives --
is examined again at every occurrence (its morphology turned into a dict each time). The memo keys
every answer on all that the answer depends on -- the form, its part of speech and its
morphology -- so the lemmas are exactly spaCy's, each computed once.

A form seen for the first time still pays for the rules, and each rule asks whether its result is
a known word of the part of speech: spaCy's tables hold those words as lists (57,528 nouns), so
every question was a scan of the list. :func:`install` turns them into sets; membership is all
the rules ask of them.

>>> from parsers.spacy_model import load_spacy
>>> nlp = load_spacy(exclude=("ner",), fast_attributes=True)
>>> [t.lemma_ for t in nlp("Two dogs were sitting on the benches.")]
['two', 'dog', 'be', 'sit', 'on', 'the', 'bench', '.']
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

#: Distinct (form, part of speech, morphology) triples kept before the memo starts afresh.
MEMO_LIMIT = 200_000


def install(nlp: Any) -> bool:
    """Put the memo in front of the pipeline's rule lemmatizer, in place. Returns False (and
    changes nothing) when the pipeline has no lemmatizer in rule mode."""
    if "lemmatizer" not in nlp.pipe_names:
        return False
    lemmatizer = nlp.get_pipe("lemmatizer")
    if getattr(lemmatizer, "mode", None) != "rule" or not hasattr(lemmatizer, "rule_lemmatize"):
        return False
    lemmatizer.lemmatize = memoized(lemmatizer.rule_lemmatize)
    if lemmatizer.lookups.has_table("lemma_index"):
        index = lemmatizer.lookups.get_table("lemma_index")
        for pos, words in list(index.items()):
            if isinstance(words, list):
                index[pos] = frozenset(words)
    return True


def memoized(lemmatize: Callable[[Any], list[str]]) -> Callable[[Any], list[str]]:
    """``lemmatize`` (token -> lemmas) answering each (form, POS, morphology) from a memo."""
    memo: dict[tuple[int, int, int], list[str]] = {}

    def lemmas(token: Any) -> list[str]:
        key = (token.orth, token.pos, token.morph.key)
        try:
            return memo[key]
        except KeyError:
            if len(memo) >= MEMO_LIMIT:
                memo.clear()
            found = memo[key] = lemmatize(token)
            return found

    return lemmas
