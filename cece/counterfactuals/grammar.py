"""Broken English, as spaCy's parse shows it: the check every counterfactual passes.

A rewrite that cuts words out of a caption can leave a bare auxiliary ("A woman is."), a verb
without its subject ("while runs behind him"), a sentence opening on "and" or an article with no
noun. :func:`grammar_problems` names such problems in a parsed text; a counterfactual with a
problem its caption did not have is not offered (:func:`cece.counterfactuals.fixed_point.settle`).
"""

from __future__ import annotations

import re
from typing import Any

#: The articles; one before another, or before a possessive, is broken ("a his rifle").
ARTICLES = frozenset({"a", "an", "the"})
#: Tags of a finite verb.
FINITE = ("VBZ", "VBP", "VBD", "MD")
#: Prepositions that may stand without an object ("looking up", "a dog nearby").
PARTICLES = frozenset(
    {
        "up",
        "down",
        "out",
        "off",
        "away",
        "together",
        "nearby",
        "outside",
        "inside",
        "around",
        "behind",
        "along",
        "over",
        "back",
        "by",
        "on",
        "in",
        "above",
        "below",
        "underneath",
        "about",
    }
)


def grammar_problems(doc: Any) -> list[str]:
    """What a reader would call broken English in spaCy ``doc``: a sentence opening on a
    conjunction; one whose root is neither a finite verb (or a participle with its subject) nor
    a noun phrase; an auxiliary without its verb or with a bare one ("is hold"); a subject and
    verb that disagree; a finite adverbial verb without a subject ("while runs"); a preposition
    without its object; an article with no noun or before another determiner ("a his rifle"); a
    sentence ending on a determiner, preposition, conjunction or auxiliary.

    >>> from parsers import load_spacy
    >>> grammar_problems(load_spacy()("A woman is."))
    ["ends on 'is'"]
    >>> grammar_problems(load_spacy()("A woman holding a knife.")), grammar_problems(load_spacy()("Running."))
    ([], ["no finite verb ('Running')"])
    """
    out = []
    for s in doc.sents:
        words = [t for t in s if not t.is_punct and not t.is_space]
        if not words:
            continue
        root = s.root
        if words[0].pos_ == "CCONJ":
            out.append(f"opens on {words[0].text!r}")
        if root.pos_ in ("VERB", "AUX"):
            finite = root.tag_ in FINITE or any(
                c.dep_ in ("aux", "auxpass") and c.tag_ in FINITE for c in root.children
            )
            # spaCy may read the subject of a caption's participle as its compound ("A black
            # bear standing.": "bear" a compound of "standing"), a noun all the same
            subject = any(
                c.dep_.startswith("nsubj") or c.dep_ == "expl" or c.dep_ == "compound" and c.pos_ in ("NOUN", "PROPN")
                for c in root.children
            )
            if not finite and not (subject and root.tag_ in ("VBG", "VBN")) and root.tag_ != "VB":
                out.append(f"no finite verb ({root.text!r})")
        elif root.pos_ not in ("NOUN", "PROPN", "PRON", "NUM", "ADJ"):
            out.append(f"root {root.text!r} is no verb or noun")
        for t in s:
            out += _token_problems(t)
        if re.search(r"\b(a|an|the)\W*$", s.text.lower()):  # spaCy reads "on a." as a noun "a."
            out.append("article without its noun")
        elif len(words) > 1 and words[-1].pos_ in ("DET", "ADP", "CCONJ", "AUX") and words[-1].lower_ not in PARTICLES:
            out.append(f"ends on {words[-1].text!r}")
    return out


def _token_problems(t: Any) -> list[str]:
    out = []
    if t.dep_ in ("aux", "auxpass") and (t.head.i == t.i or t.head.pos_ not in ("VERB", "AUX", "ADJ", "NOUN")):
        out.append(f"auxiliary {t.text!r} without its verb")
    if t.dep_ in ("aux", "auxpass") and t.lemma_ == "be" and t.head.tag_ == "VB":
        out.append(f"{t.text!r} with a bare verb {t.head.text!r}")
    if t.dep_ == "prep" and not any(c.dep_ in ("pobj", "pcomp") for c in t.children) and t.lower_ not in PARTICLES:
        out.append(f"preposition {t.text!r} without its object")
    if t.dep_.startswith("nsubj") and not any(c.dep_ == "conj" for c in t.children):
        v = next((c for c in t.head.children if c.dep_ in ("aux", "auxpass") and c.tag_ in ("VBZ", "VBP")), t.head)
        if (t.tag_, v.tag_) in (("NNS", "VBZ"), ("NN", "VBP")):
            out.append(f"agreement {t.text!r} {v.text!r}")
    if (
        t.dep_ == "advcl"
        and t.tag_ in ("VBZ", "VBP", "VBD")
        and not any(c.dep_.startswith("nsubj") or c.dep_ == "expl" for c in t.children)
    ):
        out.append(f"finite verb {t.text!r} without a subject")
    nxt = t.doc[t.i + 1] if t.i + 1 < len(t.doc) else None
    if t.lower_ in ("a", "an") and (nxt is None or nxt.is_punct):
        out.append(f"article {t.text!r} without its noun")
    elif t.lower_ in ARTICLES and nxt is not None and (nxt.tag_ in ("PRP$", "WP$") or nxt.lower_ in ARTICLES):
        out.append(f"two determiners {t.text!r} {nxt.text!r}")
    return out


def new_grammar_problems(nlp: Any, caption: str, rewrite: str) -> list[str]:
    """The problems of ``rewrite`` that ``caption`` did not already have (a caption that was
    never a sentence is not the rewrite's fault); ``nlp`` is a spaCy pipeline.

    >>> from parsers import load_spacy
    >>> new_grammar_problems(load_spacy(), "A woman is holding a knife.", "A woman is.")
    ["ends on 'is'"]
    """
    before = set(grammar_problems(nlp(caption)))
    return [p for p in grammar_problems(nlp(rewrite)) if p not in before]
