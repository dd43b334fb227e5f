"""The verb forms that change with the number of their subject: "Three giraffes *are*" -> "A
giraffe *is*" (:func:`agreement`), for the cuts and rewrites of :mod:`cece.counterfactuals`.

>>> doc = __import__("parsers").load_spacy()("Two dogs are on a sofa.")
>>> agreement(doc[1], plural=False)  # "dogs" becomes one dog: "are" becomes "is"
[Change(start=9, end=12, new='is', edit=None)]
"""

from __future__ import annotations

from typing import Any

from cece.counterfactuals.text import Change
from cece.counterfactuals.words import case_like, verb_form

#: The dependencies of a verb's subject.
SUBJECTS = ("nsubj", "nsubjpass")


def agreement(subject: Any, plural: bool) -> list[Change]:
    """Changes that make the finite verb (or auxiliary) of ``subject`` agree with a subject of the
    given number; nothing when ``subject`` is no subject or the verb is not in the present or
    a form of "be"."""
    if subject.dep_ not in SUBJECTS and not (  # "there *is* a dog"
        subject.dep_ == "attr" and any(c.dep_ == "expl" for c in subject.head.children)
    ):
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
    return (
        []
        if new == target.text.lower()
        else [Change(target.idx, target.idx + len(target), case_like(new, target.text))]
    )
