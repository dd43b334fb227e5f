"""A partitive's noun put in its place: "standing on one of *the logs*" stands on the logs.

A partitive ("one of the logs", "each of the boys", "some of the dogs") heads its phrase with a
number or a quantifier that names no thing, and the parse hangs what the sentence says of the
phrase from that word ("standing on *one*", "*one* of the boys blows out the candles"). The scene
graph relates nouns, so the relation was lost: the leopard stood on nothing, the boy blew out
nothing. :func:`repair` (a pipeline component right after the parser) gives the noun after "of"
the partitive word's place in the tree, with the word hanging from it as an unlabelled ``dep``:
it says which of them, not how many there are, so "one of the logs" does not count the logs.
30 of the 17,826 captions and references of the nocaps-FOIL training pairs have a partitive.

>>> from parsers.spacy_model import load_spacy
>>> doc = load_spacy(tree_repairs=True)("A leopard is standing on one of the logs.")
>>> [(t.text, t.dep_, t.head.text) for t in doc if t.text in ("one", "logs")]
[('one', 'dep', 'logs'), ('logs', 'pobj', 'on')]
"""

from __future__ import annotations

from typing import Any

from spacy.language import Language

from parsers.components import install_after_parser

#: Words that pick some of the things after "of" ("none of" denies them, and is left).
PARTITIVES = frozenset(
    ("one", "two", "three", "four", "each", "some", "all", "both", "several", "many", "most", "either", "any")
)
#: The tags of a noun.
_NOUNS = frozenset(("NN", "NNS", "NNP", "NNPS"))


def repair(doc: Any) -> Any:
    """Put the noun of each partitive in the partitive word's place (module docstring), in place."""
    for t in doc:
        noun = _partitive_noun(t)
        if noun is not None:
            noun.head, noun.dep_ = (t.head if t.head.i != t.i else noun), t.dep_
            t.head, t.dep_ = noun, "dep"
    return doc


def _partitive_noun(t: Any) -> Any | None:
    """The noun after "of" when ``t`` heads a partitive ("*one* of the logs"), else None."""
    if t.lower_ not in PARTITIVES or t.i + 1 >= len(t.doc):
        return None
    of = t.doc[t.i + 1]
    if of.lower_ != "of" or of.head.i != t.i or of.dep_ != "prep":
        return None
    return next((g for g in of.children if g.dep_ == "pobj" and g.tag_ in _NOUNS), None)


@Language.component("halcece_partitives")
def _component(doc: Any) -> Any:
    return repair(doc)


def install(nlp: Language) -> bool:
    """Add :func:`repair` to the pipeline right after its parser. False when there is no parser."""
    return install_after_parser(nlp, "halcece_partitives")
