"""A noun "one" that stands for a thing named before it: "a small elephant is standing by *a
large one*", "a red umbrella and *a blue one*", "a bowl of donuts, *chocolate ones* ...".

spaCy's small model tags such a "one" as a number, so it heads no noun phrase and the thing it
names is lost (with its size, colour or pose); where it is tagged a noun, WordNet reads it as the
number one. :func:`repair` (a pipeline component, right after the parser) tags it a noun, and
:func:`antecedent` names the noun it stands for: the subject of a clause before it for a "one"
that is a subject or a further member ("a truck on the road and *another one* behind it"), else
the nearest noun before it. A "one" is such a noun only when English marks it as one: an article
or an adjective before it ("a large one", "another one"; a noun only before "ones": "chocolate
ones"), and no "of" after it ("one of the dogs" is a part of a group). A "one" that describes a
member of a group named just before ("two dogs, *a black one* and *a white one*") is left alone:
it is no further thing, and reading it as one would count the dogs twice. Nor is "the sliced
one" merged into the fruit named before it (:func:`parsers.mentions.merge_definite_mentions`).

>>> from parsers.spacy_model import load_spacy
>>> doc = load_spacy(tree_repairs=True)("A small elephant standing by a large one.")
>>> doc[7].tag_, stands_for(doc[7]).text
('NN', 'elephant')
"""

from __future__ import annotations

from typing import Any

from spacy.language import Language

from parsers.components import install_after_parser

#: Determiners that make "one" a noun; "no one", "each one", "any one" are no thing seen.
_ARTICLES = frozenset(("a", "an", "the", "another", "this", "that", "these", "those"))
#: Adjectives that count a further member of a set named before ("a third one").
_ORDINALS = frozenset(("second", "third", "fourth", "fifth", "other", "last", "next", "extra"))
_NOUN_TAGS = frozenset(("NN", "NNS"))
_SUBJECTS = frozenset(("nsubj", "nsubjpass"))


def stands_for(t: Any) -> Any | None:
    """The noun said before it that token ``t`` stands for, when ``t`` is such a "one" (module
    docstring), else None."""
    if t.lower_ not in ("one", "ones") or t.tag_ not in ("CD", "NN", "NNS") or t.dep_ in ("nummod", "quantmod"):
        return None
    marked = False
    for c in t.children:
        if c.dep_ == "prep" and c.lower_ == "of":
            return None
        if c.dep_ == "det" and c.i < t.i:
            if c.lower_ not in _ARTICLES:
                return None
            marked = True
        # a noun before "ones" is a kind ("chocolate ones"); before "one" it may be a lost
        # place ("surfers in ocean one fell off")
        marked = marked or c.i < t.i and (c.dep_ == "amod" or c.dep_ == "compound" and t.lower_ == "ones")
    return antecedent(t) if marked and not _member(t) else None


def _member(t: Any) -> bool:
    """Whether ``t`` describes a member of a group named just before it ("two dogs, a black
    one and a white one"): an apposition to a plural, or a conjunct of one."""
    while t.dep_ == "conj" and t.head.lower_ in ("one", "ones"):
        t = t.head
    return bool(t.dep_ == "appos" and t.head.tag_ == "NNS")


def antecedent(t: Any) -> Any | None:
    """The noun before ``t`` that ``t`` ("one") stands for, or None.

    A "one" that is the subject of its clause, or that counts a further member ("another one",
    "a third one", "other ones"), stands for the subject of a clause before it, as English
    parallels them: in "a truck moving on the road and *another one* coming behind it" the one
    is a truck, not a road; an ordinal's is a plural one where there is one ("two goats under a
    tree while a third one climbs it"). Any other "one" stands for the nearest noun before it
    ("a gray car parked next to *a red one*"). "The other one" is the other of a thing counted
    as "one" before it, where there is one ("one foot on the block and *the other one*
    hanging"). A noun whose "of" holds ``t`` ("a pile of other
    ones") is never what ``t`` stands for.
    """
    words = {c.lower_ for c in t.children if c.dep_ in ("amod", "det")}
    further = bool(words & _ORDINALS) or "another" in words
    nouns = [
        n
        for n in reversed(t.doc[: t.i])
        if n.tag_ in _NOUN_TAGS
        and n.lower_ not in ("one", "ones")
        and n.dep_ != "compound"
        and n.head.i != t.i  # its own modifier is no antecedent ("a *gold* one", "gold" tagged a noun)
        and not _of(n, t)
    ]
    if "other" in words and (counted := [n for n in nouns if any(c.lower_ == "one" for c in n.children)]):
        return counted[0]  # "one foot on the block and the other one hanging"
    if further or t.dep_ in _SUBJECTS:
        nouns = [n for n in nouns if n.dep_ in _SUBJECTS or n.dep_ == "ROOT"]
        if further and words & _ORDINALS:
            nouns = [n for n in nouns if n.tag_ == "NNS"] or nouns
    return nouns[0] if nouns else None


def _of(n: Any, t: Any) -> bool:
    """Whether ``t`` is the object of an "of" that ``n`` governs ("a pile *of* other ones")."""
    return bool(t.head.lower_ == "of" and t.head.head.i == n.i)


def repair(doc: Any) -> Any:
    """Tag every "one" that stands for a noun said before it as a noun, in place, and make a
    "one" joined to that noun by "and" its conjunct: in "a man holding a red umbrella and a blue
    one" the parse joins "one" to the man, as a second holder."""
    for t in doc:
        if t.tag_ == "CD" and (named := stands_for(t)) is not None:
            t.tag_ = "NNS" if t.lower_ == "ones" else "NN"
            if t.dep_ == "conj" and t.head.i < named.i and _joined(named, t):
                t.head = named
    return doc


def _joined(named: Any, t: Any) -> bool:
    """Whether only "and"/"or" and ``t``'s own article and modifiers stand between ``named``
    and ``t``."""
    between = t.doc[named.i + 1 : t.i]
    return any(w.dep_ == "cc" for w in between) and all(
        w.dep_ == "cc" or w.is_punct or w.head.i == t.i and w.dep_ in ("det", "amod", "compound") for w in between
    )


@Language.component("halcece_anaphora")
def _component(doc: Any) -> Any:
    return repair(doc)


def install(nlp: Language) -> bool:
    """Add :func:`repair` to the pipeline right after its parser (so the attribute ruler reads
    the new tag as a noun). False when there is no parser."""
    return install_after_parser(nlp, "halcece_anaphora")
