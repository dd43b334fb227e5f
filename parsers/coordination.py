"""Two coordinated objects that spaCy's small model reads as one noun phrase, put back as two.

In "a man wearing a tall black tent and black sunglasses" the small English model makes "tent" a
modifier (``nmod``) of "sunglasses", with "and black" hanging from "tent": one object, the
sunglasses, and the tent is lost, so a wrong tent is never judged and a rewrite cannot touch it.
:func:`repair` (a pipeline component, after the parser) re-reads such a phrase as a reader does:
"tent" is the head of the first conjunct and "sunglasses" its ``conj``, each with its own
adjectives.

A noun ``n`` is re-read when all of these hold (English syntax only, nothing tuned to a caption):

- ``n`` is a noun modifier (``nmod`` or ``compound``) of a noun ``h`` to its right;
- ``n`` has a coordinating conjunction of its own, and only adjectives (or nothing) stand between
  it and ``h``: "black tent and *black* sunglasses", "a purple dress and purple shoes". Where a
  noun stands there the phrase is one object after all ("a strawberry and passion fruit
  meringue", "a pasta and veggie meal").

>>> from parsers.spacy_model import load_spacy
>>> nlp = load_spacy(exclude=("ner",), fast_attributes=True, tree_repairs=True)
>>> doc = nlp("A man wearing a black tent and black sunglasses.")
>>> [(t.text, t.dep_, t.head.text) for t in doc][5:9]
[('tent', 'dobj', 'wearing'), ('and', 'cc', 'tent'), ('black', 'amod', 'sunglasses'), ('sunglasses', 'conj', 'tent')]
"""

from __future__ import annotations

from typing import Any

from spacy.language import Language

_NOUNS = frozenset(("NN", "NNS"))


def _candidate(n: Any) -> Any | None:
    """The head noun when ``n`` is the first of two objects the tagger joined into one noun
    phrase (module docstring), else None."""
    h = n.head
    if n.dep_ not in ("nmod", "compound") or n.tag_ not in _NOUNS or h.i <= n.i or h.tag_ not in _NOUNS:
        return None
    cc = next((c for c in n.children if c.dep_ == "cc" and n.i < c.i < h.i), None)
    if cc is None or any(t.tag_ != "JJ" for t in n.doc[cc.i + 1 : h.i]):
        return None
    return h


def _relink(n: Any, h: Any) -> None:
    """Make ``n`` stand where ``h`` stood and ``h`` its ``conj``; the words before ``n`` that hung
    from ``h`` hang from ``n``, the adjectives after the conjunction from ``h``."""
    doc = n.doc
    movers = [t for t in doc[: n.i] if t.head.i == h.i]
    if h.head.i == h.i:  # the phrase is the sentence
        n.head, n.dep_ = n, h.dep_
        for t in doc:
            if t.head.i == h.i and t.i > h.i and t.is_punct:
                t.head = n
    else:
        n.head, n.dep_ = h.head, h.dep_
    h.head, h.dep_ = n, "conj"
    for t in doc[n.i + 1 : h.i]:
        if t.tag_ == "JJ":
            t.head, t.dep_ = h, "amod"
    for t in movers:
        t.head = n


def repair(doc: Any) -> Any:
    """Re-read every pair of objects misread as one noun phrase in ``doc`` (module docstring), in place."""
    for t in doc:
        head = _candidate(t)
        if head is not None:
            _relink(t, head)
    return doc


@Language.component("halcece_coordination")
def _component(doc: Any) -> Any:
    return repair(doc)


def install(nlp: Language) -> bool:
    """Add :func:`repair` to the pipeline right after its parser (before the participle repair,
    which reads the coordination it leaves). False when there is no parser."""
    if "parser" not in nlp.pipe_names or "halcece_coordination" in nlp.pipe_names:
        return False
    nlp.add_pipe("halcece_coordination", after="parser")
    return True
