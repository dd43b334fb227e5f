"""The word-level edits the perturbations of :mod:`benchmarks.perturb` are made of: a
:class:`Change` of the caption's characters, applying changes with a label per word, and the
agreement they bring along (an article that fits the new word, verbs in the new number), and the
:class:`Context` every perturbation reads."""

from __future__ import annotations

import random
import re
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from cece.counterfactuals.words import article, case_like, verb_form

#: Verbs of agreement, to the plural and to the singular.
PLURAL_VERB = {"is": "are", "was": "were", "has": "have"}
SINGULAR_VERB = {v: k for k, v in PLURAL_VERB.items()}
#: Pronouns that refer back by number: a count change would leave them disagreeing.
NUMBER_PRONOUNS = frozenset(
    ["he", "she", "it", "his", "her", "its", "him", "himself", "herself", "itself"]
    + ["they", "their", "them", "themselves"]
)
#: Basic colours a colour word may become (a clash: another basic colour, see base_colour).
NEW_COLOURS = ("white", "black", "red", "blue", "green", "yellow", "orange", "brown", "pink", "purple", "gray")
#: Materials that stand as adjectives or noun modifiers ("a wooden table", "a glass vase").
NEW_MATERIALS = ("wooden", "metal", "plastic", "glass", "stone", "brick", "leather", "paper")
#: Pose and motion verbs: a state swaps within its group (a pose for a pose, a motion for a motion).
STATES = (("sit", "stand", "lie", "kneel"), ("run", "walk"))
#: "laying" in captions is nearly always "lying".
STATE_LEMMA = {"lay": "lie"}
#: Opposite spatial relations (multi-word ones as phrases).
OPPOSITES = {
    "on": "under",
    "on top of": "under",
    "under": "on",
    "underneath": "on top of",
    "beneath": "on top of",
    "in front of": "behind",
    "behind": "in front of",
    "above": "below",
    "below": "above",
    "over": "under",
    "inside": "outside",
    "outside": "inside",
    "outside of": "inside",
}


@dataclass(frozen=True)
class Change:
    """Replace ``caption[start:end]`` by ``text``; ``labelled``: the new words are hallucinated
    (False for a word changed only to agree)."""

    start: int
    end: int
    text: str
    labelled: bool = True


def apply(caption: str, changes: Sequence[Change]) -> tuple[str, list[bool]]:
    """The caption with ``changes`` made (non-overlapping) and a label per ``split()`` word:
    True when the word holds text of a labelled change.

    >>> apply("A dog runs.", [Change(0, 1, "Two"), Change(2, 5, "dogs"), Change(6, 10, "run", False)])
    ('Two dogs run.', [True, True, False])
    >>> apply("A man on a bench.", [Change(16, 16, " with a cat")])
    ('A man on a bench with a cat.', [False, False, False, False, False, True, True, True])
    """
    out, marked, pos = [], [], 0
    for c in sorted(changes, key=lambda c: (c.start, c.end)):
        if c.start < pos:
            raise ValueError(f"overlapping changes at {c.start}")
        out.append(caption[pos : c.start])
        start = sum(map(len, out))
        out.append(c.text)
        if c.labelled:
            # the new text's words, without the spaces it brings along
            marked += [(start + m.start(), start + m.end()) for m in re.finditer(r"\S+", c.text)]
        pos = c.end
    out.append(caption[pos:])
    text = "".join(out)
    words = [m.span() for m in re.finditer(r"\S+", text)]
    return text, [any(a < e and s < b for s, e in marked) for a, b in words]


def caption_words(texts: Sequence[str]) -> frozenset[str]:
    """The lowercase words of ``texts`` and their noun and verb lemmas."""
    from lemminflect import getLemma

    words = {w for t in texts for w in re.findall(r"[a-z]+(?:-[a-z]+)*", t.lower())}
    return frozenset(words | {lem for w in words for pos in ("NOUN", "VERB") for lem in getLemma(w, pos)})


def verb_lemma(t: Any) -> str:
    """The verb lemma of token ``t`` by lemminflect (the pipeline's lemma memo reads "riding" as "rid")."""
    from lemminflect import getLemma

    return (getLemma(t.lower_, "VERB") or (t.lower_,))[0]


def replace_token(t: Any, text: str, labelled: bool = True) -> Change:
    """``t`` replaced by ``text`` in its case ("A" -> "Two", "SITTING" -> "STANDING")."""
    text = text.upper() if t.text.isupper() and len(t.text) > 1 else case_like(text, t.text)
    return Change(t.idx, t.idx + len(t.text), text, labelled)


def article_fix(t: Any, new_word: str) -> list[Change]:
    """The article right before token ``t`` made to fit ``new_word``, ``t``'s replacement
    ("an apple" -> "a pear"); not labelled: it changes only to agree."""
    if t.i == 0:
        return []
    det = t.doc[t.i - 1]
    if det.lower_ not in ("a", "an"):
        return []
    want = article(new_word)
    return [] if want == det.lower_ else [replace_token(det, want, labelled=False)]


def agreeing_verbs(noun: Any, plural: bool) -> list[Change] | None:
    """The finite verbs whose subject ``noun`` is, put in the new number (not labelled); None
    when the noun's number reaches further than can be followed (relative clauses, pronouns)."""
    if any(c.dep_ in ("relcl", "conj", "appos") for c in noun.children):
        return None
    verb = None
    if noun.dep_ in ("nsubj", "nsubjpass") or noun.dep_ == "attr" and any(c.dep_ == "expl" for c in noun.head.children):
        verb = noun.head
    if verb is None:
        return []
    out = []
    for v in [verb, *(c for c in verb.children if c.dep_ in ("aux", "auxpass")), *verb.conjuncts]:
        if v.lower_ in PLURAL_VERB or v.lower_ in SINGULAR_VERB:
            new = PLURAL_VERB if plural else SINGULAR_VERB
            if v.lower_ in new:
                out.append(replace_token(v, new[v.lower_], labelled=False))
        elif v.tag_ in ("VBZ", "VBP") and v.pos_ == "VERB":
            out.append(replace_token(v, verb_form(verb_lemma(v), "VBP" if plural else "VBZ"), labelled=False))
    return out


@dataclass(frozen=True)
class Context:
    """What a perturbation may not say: ``words``, the words (and lemmas) of the caption and
    the evidence; ``texts``, the evidence lowercased; ``said``, the evidence's words as written
    (a count must not turn "two zebras" into the "a zebra" one of them says, though "zebras"
    lemmatises to "zebra"); the ``rng`` it draws with; ``companions``, what other images have
    beside each thing (:func:`benchmarks.companions.companions`), and ``present``, the things
    any reference of this image names (a companion must be none of them)."""

    words: frozenset[str]
    texts: tuple[str, ...]
    rng: random.Random
    said: frozenset[str] = frozenset()
    companions: Mapping[str, Counter[str]] = field(default_factory=dict)
    present: frozenset[str] = frozenset()
