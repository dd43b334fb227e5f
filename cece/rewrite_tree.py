"""Cuts on the caption's spaCy dependency tree: the building blocks of the counterfactual
(:mod:`cece.rewrite`). Each returns :class:`~cece.rewrite_text.Change` s, or None when no
grammatical cut exists.

- :func:`removal`: what to cut so that a noun phrase disappears with every word that only
  depended on it -- its conjunction, its preposition, the participle or relative clause it was the
  object of, the "while ..." clause it was the subject of, or its whole sentence when the caption
  has others -- keeping the main verb and its other arguments;
- :func:`agreement`: the verb forms that change when a subject changes number.

>>> from cece.rewrite_text import apply
>>> nlp = __import__("parsers").load_spacy()
>>> doc = nlp("A dog and a cat sitting on a couch.")
>>> apply("A dog and a cat sitting on a couch.", removal(doc, doc[4]))
'A dog sitting on a couch.'
"""

from __future__ import annotations

from typing import Any, Sequence

from cece.rewrite_text import Change
from cece.rewrite_words import case_like, verb_form
from knowledge import PREPOSITIONS

_SUBJECTS = ("nsubj", "nsubjpass")
_CLAUSES = ("advcl", "conj", "relcl", "acl", "ccomp", "xcomp")


def token_at(doc: Any, start: int, end: int) -> Any | None:
    """The syntactic head of the tokens inside ``[start, end)`` (the noun of a noun phrase)."""
    inside = [t for t in doc if start <= t.idx and t.idx + len(t) <= end]
    if not inside:
        return None
    return next((t for t in inside if not (start <= t.head.idx < end) or t.head.i == t.i), inside[-1])


def _subtree(t: Any, skip: Sequence[str] = ()) -> tuple[int, int]:
    """Char range of ``t``'s subtree, leaving out children whose dependency is in ``skip`` and
    the sentence's closing punctuation (which the sentence keeps)."""
    toks = [t]
    for c in t.children:
        if c.dep_ not in skip:
            toks += list(c.subtree)
    toks = sorted(toks, key=lambda x: x.i)
    while len(toks) > 1 and toks[-1].is_punct and toks[-1].text in ".!?":
        toks.pop()
    return toks[0].idx, toks[-1].idx + len(toks[-1])


def _with_left(doc: Any, span: tuple[int, int], words: Sequence[str]) -> tuple[int, int]:
    """Extend a span leftwards over punctuation and the connecting ``words`` just before it."""
    a, b = span
    i = next((t.i for t in doc if t.idx >= a), len(doc))
    while i > 0 and (doc[i - 1].is_punct and doc[i - 1].text in ",;" or doc[i - 1].lower_ in words):
        i -= 1
        a = doc[i].idx
    return a, b


def _sentence(doc: Any, t: Any) -> tuple[int, int] | None:
    """The whole sentence of ``t`` when the caption has others, else None."""
    sents = list(doc.sents)
    if len(sents) < 2:
        return None
    k = next(i for i, s in enumerate(sents) if s.start <= t.i < s.end)
    end = sents[k + 1].start_char if k + 1 < len(sents) else len(doc.text)
    return sents[k].start_char, end


def removal(doc: Any, noun: Any) -> list[Change] | None:
    """The cuts that remove noun phrase ``noun`` and the words that only depended on it (module
    docstring); None when the noun carries the sentence and nothing else can."""
    dep, head = noun.dep_, noun.head
    conjuncts = [c for c in noun.children if c.dep_ == "conj"]
    if dep == "conj":  # its own words only: what follows may speak of every conjunct
        span = _with_left(doc, _own(noun), ("and", "or", "as", "well"))
        first = head
        rest = [first] + [c for c in first.children if c.dep_ == "conj" and c.i != noun.i]
        out = [Change(*span, "")]
        before = head.left_edge.i - 1  # "a stove, a sink and a toaster": the comma becomes "and"
        joined = any(t.lower_ in ("and", "or") for t in doc if span[0] <= t.idx < span[1])
        if joined and before >= 0 and doc[before].text == ",":
            out.append(Change(doc[before].idx, doc[before].idx + 1, " and"))
        return out + agreement(first, plural=len(rest) > 1 or _plural(first))
    if dep == "appos" and conjuncts:  # a middle item of "a cat, a dog and a bird"
        return [Change(*_with_left(doc, _own(noun), ()), "")]
    if conjuncts:  # the first of "a dog and a cat": the next conjunct takes its place
        a = _subtree(noun, ("conj", "cc", "punct"))[0]
        return [Change(a, min(x.idx for x in conjuncts[0].subtree), "")] + agreement(noun, plural=_plural(conjuncts[0]) or len(conjuncts) > 1)
    if dep == "pobj" and head.dep_ in ("prep", "agent"):
        a, b = _with_left(doc, _subtree(head), ())
        verb = head.head
        rest = [c for c in verb.children if c.i != head.i and c.dep_ not in ("punct", "cc", "aux", "auxpass", "advmod", "neg")]
        if verb.pos_ in ("VERB", "AUX") and not [c for c in rest if not c.dep_.startswith("nsubj")]:
            # the phrase was all the verb had: "... and is on a tea", "possibly accompanied by X"
            if verb.lemma_ == "be" and verb.dep_ == "conj":
                return [Change(*_with_left(doc, _subtree(verb), ("and", "but", "or")), "")]
            if verb.dep_ in ("acl", "advcl", "relcl", "conj") and not rest:
                return [Change(*_with_left(doc, _subtree(verb), ("and", "but", "or", "that", "which", "who")), "")]
            if verb.lemma_ == "be":
                return _whole(doc, noun)
        return [Change(min(a, _preposition_start(doc, head)), b, "")]
    if dep in ("dobj", "attr", "oprd", "dative"):
        if head.dep_ in ("acl", "relcl", "advcl", "xcomp") and head.head.i != head.i:
            return [Change(*_with_left(doc, _subtree(head), ("that", "which", "who", "and")), "")]
        # The object of a main verb: whether the verb can do without it ("walks a dog" -> "walks",
        # "has a toaster" -> "has") is not in the tree, so only its whole sentence can go.
        return _whole(doc, noun)
    if dep in _SUBJECTS:
        if head.dep_ in _CLAUSES and head.head.i != head.i:
            return [Change(*_with_left(doc, _subtree(head), ("and", "but", "while", "as", "when", "whereas")), "")]
        return _whole(doc, noun)
    if dep == "poss":  # "a building's ledge" -> "the ledge"
        owner_det = any(c.dep_ == "det" for c in head.children)
        return [Change(*_subtree(noun), "" if owner_det else "the")]
    if dep in ("compound", "npadvmod", "appos", "nmod", "amod"):
        return [Change(*_subtree(noun), "")]
    if dep == "ROOT" and (kept := _prep_object(noun)) is not None and not _sentence(doc, noun):
        # a caption that is one noun phrase: "A guitar on a sofa." -> "A sofa."
        return [Change(noun.left_edge.idx, kept.left_edge.idx, "")]
    return _whole(doc, noun)


def _prep_object(noun: Any) -> Any | None:
    """The object of the first preposition after ``noun`` ("on a *sofa*"), if any."""
    for c in noun.rights:
        if c.dep_ == "prep":
            return next((o for o in c.children if o.dep_ == "pobj"), None)
    return None


def _preposition_start(doc: Any, prep: Any) -> int:
    """Where the multiword preposition ending in ``prep`` starts ("next to", "in front of")."""
    start = prep.idx
    for k in (1, 2, 3):
        if prep.i - k >= 0 and doc[prep.i - k: prep.i + 1].text.lower() in PREPOSITIONS:
            start = doc[prep.i - k].idx
    return start


def _own(noun: Any) -> tuple[int, int]:
    """The noun phrase's own words: its left dependents, the noun, and an "of" phrase after it
    ("a glass of wine"); not the clauses after it, which may speak of a whole coordination."""
    end = noun.idx + len(noun)
    for c in noun.rights:
        if c.dep_ == "prep" and c.lower_ == "of":
            end = max(end, _subtree(c)[1])
    return noun.left_edge.idx, end


def _whole(doc: Any, t: Any) -> list[Change] | None:
    span = _sentence(doc, t)
    return [Change(*span, "")] if span else None


def _plural(t: Any) -> bool:
    return t.tag_ in ("NNS", "NNPS")


def agreement(subject: Any, plural: bool) -> list[Change]:
    """Changes that make the finite verb (or auxiliary) of ``subject`` agree with a subject of the
    given number; nothing when ``subject`` is no subject or the verb is not in the present or
    a form of "be"."""
    if subject.dep_ not in _SUBJECTS:
        return []
    verb = subject.head
    finite = next((c for c in verb.children if c.dep_ in ("aux", "auxpass") and c.tag_ in ("VBZ", "VBP", "VBD")), None)
    target = finite or verb
    tag = target.tag_
    if tag not in ("VBZ", "VBP") and not (target.lemma_ == "be" and tag == "VBD"):
        return []
    if target.lemma_ == "be":
        new = ("were" if plural else "was") if tag == "VBD" else ("are" if plural else "is")
    else:
        new = verb_form(target.lemma_, "VBP" if plural else "VBZ")
    return [] if new == target.text.lower() else [Change(target.idx, target.idx + len(target), case_like(new, target.text))]
