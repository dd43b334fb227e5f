"""Hallucinations put into a faithful caption, one kind at a time, with the changed words labelled.

Each perturbation reads the caption's spaCy parse and returns word edits (char span -> new
text), or None when it cannot be made cleanly (no colour word to swap, no noun with a
co-hyponym the evidence does not already name, ...). The kinds:

- ``object``: a noun naming a physical thing becomes a WordNet co-hyponym (a sibling under one
  of its hypernyms, FOIL-style: dog -> wolf), in the same number; so may a noun modifying
  another ("a tree branch" -> "a shrub branch");
- ``attribute``: a colour, material or size word becomes a clashing value of its kind;
- ``count``: a number word becomes another, or "a dog" becomes "two dogs" or "some dogs" and
  "two dogs" "a dog", the noun and the verb of which it is the subject agreeing;
- ``state``: the subject's pose or motion (sit / stand / lie, run / walk, parked / driving) in
  the same verb form; a pose or gait only of a person or animal -- a thing that sits, stands or
  lies somewhere rests there (:mod:`knowledge.states`), so "a muffin *stands* on a plate" says
  what "sits" does, and "a stove *kneeling*" is no sentence a captioner writes;
- ``relation``: a spatial preposition becomes its opposite (on / under, in front of / behind,
  above / below, inside / outside) before a thing -- not a side or part of one ("on *its side*")
  nor an idiom ("on display", "on stage") --, or "riding" becomes "walking beside";
- ``added``: a thing the caption does not name is added ("... with a wolf", "... and a wolf");
- ``companion``: so is a thing that other images' references name beside one the caption names,
  as captioning models hallucinate ("a dog on a bed with a blanket"; :mod:`benchmarks.companions`),
  never one a reference of this image names.

A new value is never one the evidence (the other references) uses, so the change is not a
paraphrase of the truth. The labelled words are the caption.split() words holding changed text,
except words changed only to agree with the change (the article a / an, the verb's number):
they are not hallucinations of their own. A perturbation whose result has a grammar problem the
caption did not have (:func:`cece.counterfactuals.grammar.new_grammar_problems`) is not made.
"""

from __future__ import annotations

import random
import re
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from benchmarks.cohyponyms import co_hyponyms, familiar, thing_sense
from benchmarks.companions import pipeline, related
from benchmarks.perturb_roles import swap_relation, swap_state
from benchmarks.perturb_words import (
    NEW_COLOURS,
    NEW_MATERIALS,
    NUMBER_PRONOUNS,
    Change,
    Context,
    agreeing_verbs,
    apply,
    article_fix,
    caption_words,
    replace_token,
)
from cece.counterfactuals.words import article, noun_form
from knowledge import is_hypernym, lemmatize, noun_synset
from parsers.attribute_words import COLOURS, MATERIALS, NUMBER_WORDS, SIZE_OPPOSITES
from parsers.attributes import base_colour, materials_clash

KINDS = ("object", "attribute", "count", "state", "relation", "added", "companion")


@dataclass
class Perturbed:
    """A perturbed caption and its word labels (one per ``caption.split()`` word)."""

    kind: str
    caption: str
    labels: list[bool]
    original: str


# -- object swap and added object -------------------------------------------------------------
def _thing(t: Any) -> str | None:
    """The synset of noun ``t`` when it names a physical thing (and is no compound), else None."""
    if t.pos_ != "NOUN" or t.dep_ == "compound" or any(c.dep_ == "compound" for c in t.children):
        return None
    return thing_sense(t.lower_)


def _modifier_thing(t: Any) -> str | None:
    """The synset of noun ``t`` when it is a one-word modifier of another noun naming a physical
    thing (the *tree* of "a tree branch"), else None."""
    if t.pos_ != "NOUN" or t.dep_ != "compound" or t.head.pos_ not in ("NOUN", "PROPN"):
        return None
    if any(c.dep_ == "compound" for c in t.children) or t.tag_ != "NN":
        return None
    return thing_sense(t.lower_)


def swap_object(doc: Any, ctx: Context) -> list[Change] | None:
    """A noun naming a thing replaced by a co-hyponym the caption and evidence do not name; the
    noun may be a modifier of another ("a *tree* branch" -> "a *shrub* branch"), as FOIL's
    swaps are about one time in twelve, so that a modifier no reference names is seen both
    hallucinated and faithful whatever the number of references."""
    options = []
    for t in doc:
        synset = _thing(t) or _modifier_thing(t)
        if synset:
            new = [w for w in co_hyponyms(synset) if w not in ctx.words]
            if new:
                options.append((t, new))
    if not options:
        return None
    t, new = ctx.rng.choice(options)
    word = noun_form(familiar(new, ctx.rng), t.tag_ == "NNS")
    return [replace_token(t, word), *article_fix(t, word)]


def add_object(doc: Any, ctx: Context) -> list[Change] | None:
    """ "with a X" or "and a X" at the end of the first sentence when it ends on a noun, X a
    co-hyponym of a thing the caption names (a plausible companion) that neither the caption nor
    the evidence names, nor any reference names a kind of (or a kind of it: "and a man" where
    they see people may be one of them; no reference could tell it is not there)."""
    there = {*(lemmatize(t.lower_, "n") for t in doc if _thing(t)), *ctx.present}
    new = sorted(
        {
            w
            for t in doc
            if (s := _thing(t))
            for w in co_hyponyms(s)
            if w not in ctx.words and not any(related(w, x) for x in there) and not _named_generally(w, ctx.words)
        }
    )
    return _added(doc, ctx, lambda: familiar(new, ctx.rng)) if new else None


def _named_generally(word: str, words: frozenset[str]) -> bool:
    """Whether one of ``words`` names a kind of thing ``word`` is ("people" for a man, "animal"
    for a dog), top concepts included."""
    synset = thing_sense(word)
    return synset is not None and any((s := noun_synset(w)) is not None and is_hypernym(s, synset) for w in words)


def add_companion(doc: Any, ctx: Context) -> list[Change] | None:
    """As :func:`add_object`, X a thing other images' references name beside a thing the caption
    names (:mod:`benchmarks.companions`: "a bed ... with a blanket"), drawn in proportion to how
    often they do, that no reference of this image names (``ctx.present``)."""
    weights: Counter[str] = Counter()
    named = [lemmatize(t.lower_, "n") for t in doc if _thing(t)]
    for lemma in named:
        weights.update(ctx.companions.get(lemma, {}))
    there = {*named, *ctx.present}
    new = sorted(
        w for w in weights if w not in ctx.words and w not in ctx.present and not any(related(w, x) for x in there)
    )
    if not new:
        return None
    return _added(doc, ctx, lambda: ctx.rng.choices(new, weights=[weights[w] for w in new])[0])


def _added(doc: Any, ctx: Context, draw: Callable[[], str]) -> list[Change] | None:
    sent = next(iter(doc.sents))
    words = [t for t in sent if not (t.is_space or t.is_punct)]
    # only after a noun: "sitting on a couch with a wolf", never "while walking and a wolf"
    if not words or words[-1].pos_ != "NOUN":
        return None
    end = words[-1]
    noun = draw()
    joint = ctx.rng.choice(("with", "and"))
    at = end.idx + len(end.text)
    return [Change(at, at, f" {joint} {article(noun)} {noun}")]


# -- attributes -------------------------------------------------------------------------------
def _attribute_value(t: Any) -> str | None:
    """``colour``, ``material`` or ``size`` for a modifier of a noun, else None."""
    if t.dep_ not in ("amod", "compound", "acomp") or (t.dep_ == "compound" and t.lower_ not in MATERIALS):
        return None
    w = t.lower_
    if w in COLOURS and base_colour(w) in NEW_COLOURS:
        return "colour"
    if w in MATERIALS:
        return "material"
    if any(w in side for pair in SIZE_OPPOSITES for side in pair):
        return "size"
    return None


def swap_attribute(doc: Any, ctx: Context) -> list[Change] | None:
    """A colour, material or size word replaced by a clashing value of its kind that the
    evidence does not use."""
    options = []
    for t in doc:
        kind = _attribute_value(t)
        w = t.lower_
        if kind == "colour":
            new = [c for c in NEW_COLOURS if c != base_colour(w) and c not in ctx.words]
        elif kind == "material":
            new = [m for m in NEW_MATERIALS if materials_clash([w], [m]) and m not in ctx.words]
        elif kind == "size":
            side = next(pair[1 - k] for pair in SIZE_OPPOSITES for k in (0, 1) if w in pair[k])
            new = sorted(
                s
                for s in side
                if s not in ctx.words
                and s in ("small", "large", "big", "tiny", "huge", "tall", "short", "thin", "thick", "wide")
            )
        else:
            continue
        if new:
            options.append((t, new))
    if not options:
        return None
    t, new = ctx.rng.choice(options)
    word = ctx.rng.choice(new)
    return [replace_token(t, word), *article_fix(t, word)]


# -- counts ---------------------------------------------------------------------------------
def change_count(doc: Any, ctx: Context) -> list[Change] | None:
    """A number word made another (two -> three or -> a), or "a dog" made "two dogs" or "some
    dogs"; the noun and its verb agree. Not made when the caption has number-bearing pronouns."""
    from knowledge import lemmatize

    if any(t.lower_ in NUMBER_PRONOUNS for t in doc):
        return None
    options: list[tuple[Any, Any, str, str | None, bool]] = []
    for t in doc:
        if t.pos_ != "NOUN" or not _thing(t):
            continue
        det = next((c for c in t.children if c.dep_ in ("det", "nummod") and c.i < t.i), None)
        if det is None or any(x.head.i != t.i or x.dep_ not in ("amod", "compound") for x in doc[det.i + 1 : t.i]):
            continue  # only "a (big) dog": a parse that hangs the article on a later noun is not trusted
        w = det.lower_
        if w in ("a", "an") and t.tag_ == "NN":
            # an exact number the evidence does not use, or an uncounted many ("some donuts")
            targets = [n for n in ("two", "three") if n not in ctx.words] + ["some"]
            many = noun_form(lemmatize(t.lower_), True)
            if many in ctx.said:
                continue
            options += [(t, det, n, many, True) for n in targets]
        elif w in NUMBER_WORDS[2:11] and t.tag_ == "NNS":
            k = NUMBER_WORDS.index(w)
            options += [
                (t, det, n, None, True)
                for n in (NUMBER_WORDS[k - 1], NUMBER_WORDS[k + 1])
                if n != "one" and n not in ctx.words
            ]
            single = noun_form(lemmatize(t.lower_), False)
            if single not in ctx.said and not any(c.dep_ in ("amod", "compound") for c in t.children):
                options.append((t, det, article(single), single, False))
    ctx.rng.shuffle(options)
    for t, det, number, noun, plural in options:
        verbs = agreeing_verbs(t, plural) if noun else []
        if verbs is None:
            continue
        changes = [replace_token(det, number)]
        if noun:
            changes.append(replace_token(t, noun))
        return changes + verbs
    return None


PERTURBATIONS: dict[str, Callable[[Any, Context], list[Change] | None]] = {
    "object": swap_object,
    "attribute": swap_attribute,
    "count": change_count,
    "state": swap_state,
    "relation": swap_relation,
    "added": add_object,
    "companion": add_companion,
}


def perturb(
    caption: str,
    evidence: Sequence[str],
    kind: str,
    *,
    rng: random.Random,
    nlp: Any = None,
    companions: Mapping[str, Counter[str]] | None = None,
    present: frozenset[str] = frozenset(),
) -> Perturbed | None:
    """``caption`` with a hallucination of ``kind`` (one of :data:`KINDS`, or ``"clean"`` for
    none), or None when that kind cannot be made cleanly on it. ``evidence``: the references
    the caption will be judged against (a new value they use is never chosen); ``companions``
    and ``present``: see :class:`Context` (without companions there is no ``companion`` kind).

    >>> p = perturb("A dog sitting on a red couch.", [], "attribute", rng=random.Random(0))
    >>> p.caption != p.original, sum(p.labels)
    (True, 1)
    """
    from cece.counterfactuals.grammar import grammar_problems

    caption = " ".join(caption.split())
    if kind == "clean":
        return Perturbed(kind, caption, [False] * len(caption.split()), caption)
    if kind not in PERTURBATIONS:
        raise ValueError(f"unknown perturbation {kind!r}; one of clean, {', '.join(KINDS)}")
    nlp = nlp or pipeline()
    doc, problems = _parsed(nlp, caption)
    texts = tuple(e.lower() for e in evidence)
    said = frozenset(re.findall(r"[a-z]+", " ".join(texts)))
    ctx = Context(caption_words([caption, *evidence]), texts, rng, said, companions or {}, present)
    changes = PERTURBATIONS[kind](doc, ctx)
    if not changes:
        return None
    text, labels = apply(caption, changes)
    if text == caption or not any(labels) or set(grammar_problems(nlp(text))) - problems:
        return None
    return Perturbed(kind, text, labels, caption)


@lru_cache(maxsize=64)
def _parsed(nlp: Any, caption: str) -> tuple[Any, frozenset[str]]:
    """The parse of ``caption`` and its grammar problems (each kind tried on a caption reads it)."""
    from cece.counterfactuals.grammar import grammar_problems

    doc = nlp(caption)
    return doc, frozenset(grammar_problems(doc))
