"""A participle spaCy's small model hangs from a noun as its clausal complement, put back as the
participle modifying the noun.

An open clausal complement (``xcomp``) completes a verb or an adjective ("wants *to eat*", "keeps
*running*"); a noun has none. Yet in a caption that is one noun phrase the parser sometimes makes
the participle after the head noun such a complement of it ("A cute little tabby kitten
*sleeping* on top of a tv.", "A man in a suit and tie *holding* a phone.", "A large Hummer limo
*driving* in a garage."), where it reads the same words in a shorter phrase as the noun's ``acl``
("A limo driving in a garage."). The scene graph reads a noun's participles from ``acl`` only, so
the relation was lost: the kitten slept nowhere, the man held nothing. :func:`repair` (a pipeline
component right after the parser) relabels a present or past participle that is the ``xcomp`` of
the noun heading the caption, one with no subject of its own, as its ``acl``; 23 of the 21,458
captions and references of the nocaps-FOIL training and dev pairs and HAT dev have a participle
that is a noun's complement.

The same parser reads a noun and the participle after it, the object of a preposition, as a
clause the preposition takes (``pcomp``) with the noun its subject ("a boat with 4 *people*
riding", "The bus is near *the person* going along the street", "a fish on the floral *plate*
resting on the table"): the preposition had no object, and the noun no relation. The noun
becomes the preposition's object and the participle its ``acl``, as the parser reads "a dog
with *its tongue* hanging out".

>>> from parsers.spacy_model import load_spacy
>>> doc = load_spacy(tree_repairs=True)("A large Hummer limo driving in a garage.")
>>> [(t.text, t.dep_, t.head.text) for t in doc if t.text == "driving"]
[('driving', 'acl', 'limo')]
"""

from __future__ import annotations

from typing import Any

from spacy.language import Language

from parsers.components import install_after_parser

#: The tags of a participle.
_PARTICIPLES = frozenset(("VBG", "VBN"))
#: The tags of a noun.
_NOUNS = frozenset(("NN", "NNS", "NNP", "NNPS"))


def repair(doc: Any) -> Any:
    """Relabel each participle that is the ``xcomp`` of a noun as its ``acl``, and give a
    preposition back the object a participle clause took from it (module docstring), in place."""
    for t in doc:
        if t.dep_ == "xcomp" and t.tag_ in _PARTICIPLES and _bare_head(t.head) and t.head.i < t.i:
            t.dep_ = "acl"
        elif t.dep_ == "pcomp" and t.tag_ in _PARTICIPLES and t.head.dep_ == "prep":
            _object_back(t)
    return doc


def _object_back(clause: Any) -> None:
    """Make the noun subject of ``clause``, a participle clause a preposition takes, the
    preposition's object, and the participle the noun's ``acl`` (module docstring)."""
    n = next((c for c in clause.children if c.dep_ == "nsubj" and c.i < clause.i), None)
    if n is None or n.tag_ not in _NOUNS:
        return
    prep = clause.head
    n.head, n.dep_ = prep, "pobj"  # first, so that the tree never has a cycle
    clause.head, clause.dep_ = n, "acl"


def _bare_head(n: Any) -> bool:
    """Whether ``n`` is a noun heading the caption with no subject of its own: "A woman
    *bartender* pouring a drink" reads the woman as the bartender's subject, a clause the
    participle completes."""
    # by tag: the attribute ruler, which sets the coarse part of speech, runs later
    return n.tag_ in _NOUNS and n.dep_ == "ROOT" and not any(c.dep_ in ("nsubj", "nsubjpass") for c in n.children)


@Language.component("halcece_noun_complements")
def _component(doc: Any) -> Any:
    return repair(doc)


def install(nlp: Language) -> bool:
    """Add :func:`repair` to the pipeline right after its parser. False when there is no parser."""
    return install_after_parser(nlp, "halcece_noun_complements")
