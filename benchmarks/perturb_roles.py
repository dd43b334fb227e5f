"""The perturbations of a subject's state and of a relation (:mod:`benchmarks.perturb`): a pose or
gait of a person or animal swapped for another, "parked" and "driving" for each other, a spatial
preposition made its opposite, "riding" made "walking beside"."""

from __future__ import annotations

import re
from typing import Any

from benchmarks.cohyponyms import thing_sense
from benchmarks.perturb_words import OPPOSITES, STATE_LEMMA, STATES, Change, Context, replace_token, verb_lemma
from cece.counterfactuals.words import verb_form
from knowledge import Body, body_of, noun_synset, states_exclude
from parsers.draft_graph import NOUN_PREPS, verb_subject

#: Pronouns that stand for a person (not "they" or "it", which stand for things as often).
_PERSONS = frozenset(("he", "she", "someone", "somebody", "i", "we", "you"))


def _body(verb: Any) -> Body:
    """What the postures of the one ``verb`` is said of can tell apart (:data:`knowledge.states.Body`):
    a person's or a mammal's ("a *girl* that is kneeling", "a *herd* of cows lying": its members)
    sit, stand, kneel or walk in a pose, a bird's sitting and standing are one; "thing" when the
    subject is a thing or not found.

    >>> from benchmarks.companions import pipeline
    >>> nlp = pipeline()
    >>> _body(nlp("A girl that is sitting.")[4]), _body(nlp("A muffin sits on a plate.")[2])
    ('mammal', 'thing')
    >>> _body(nlp("A herd of cows lying in a field.")[4]), _body(nlp("An owl sits on a branch.")[2])
    ('mammal', 'animal')
    """
    subject = verb_subject(verb)
    if subject is None:
        return "thing"
    if subject.tag_ in ("WDT", "WP") and subject.head.dep_ == "relcl":
        subject = subject.head.head
    if subject.lower_ in _PERSONS:
        return "mammal"
    members = [o for p in subject.children if p.lower_ == "of" for o in p.children if o.dep_ == "pobj"]
    bodies = {body_of(noun_synset(w.lemma_.lower())) for w in (subject, *members)}
    return next((b for b in ("mammal", "animal") if b in bodies), "thing")


def swap_state(doc: Any, ctx: Context) -> list[Change] | None:
    """A pose or motion verb (sitting, stands, lies, running...) of a person or animal swapped
    for another of its group in the same form, or "parked" / "driving" for each other before a
    place."""
    options = []
    for t in doc:
        if not t.tag_.startswith("VB") or t.pos_ not in ("VERB", "AUX"):
            continue
        lemma = STATE_LEMMA.get(verb_lemma(t), verb_lemma(t))
        nxt = doc[t.i + 1].lower_ if t.i + 1 < len(doc) else ""
        if lemma == "park" and t.tag_ == "VBN" and nxt in ("on", "in", "at", "by", "near", "beside", "next"):
            if "driving" not in ctx.words and "drive" not in ctx.words:
                options.append((t, "driving"))
            continue
        if (
            lemma == "drive"
            and t.tag_ == "VBG"
            and nxt in ("on", "in", "at", "by", "near", "beside", "next")
            and not any(c.dep_ == "dobj" for c in t.children)
        ):
            if "parked" not in ctx.words and "park" not in ctx.words:
                options.append((t, "parked"))
            continue
        group = next((g for g in STATES if lemma in g), None)
        if group is None or any(c.dep_ in ("dobj", "prt") for c in t.children):  # "sit down" != "stand down"
            continue
        body = _body(t)
        if body == "thing":
            continue
        # only a state that excludes the one said: a bird "standing" where it sat is no error
        swaps = [g for g in group if states_exclude(lemma, g, body) and g not in ctx.words]
        options += [(t, verb_form(g, t.tag_)) for g in swaps]
    if not options:
        return None
    t, word = ctx.rng.choice(options)
    return [replace_token(t, word)]


def _preposition_phrase(doc: Any, t: Any) -> tuple[str, int]:
    """The spatial preposition phrase starting at token ``t`` ("in front of", "on top of") and
    the index of its last token."""
    for length in (3, 2):
        span = doc[t.i : t.i + length]  # shorter at the end of the caption
        phrase = " ".join(x.lower_ for x in span)
        if len(span) == length and phrase in OPPOSITES:
            return phrase, span.end - 1
    return t.lower_, t.i


#: Nouns that name a side or part of a thing rather than a thing: the inner nouns of the
#: multiword prepositions ("on the side of the road", "lying on its side", "a number on the front";
#: not "surface": "a pizza on a wooden surface" is on a thing).
_REGIONS = frozenset(w for p in NOUN_PREPS for w in p.split()[1:-1] if w not in ("the", "other", "either", "surface"))


def _bare(noun: Any) -> bool:
    """Whether ``noun`` is a singular noun with no determiner, possessive, number or modifier: after
    "on" an idiom more often than a place ("on display", "on stage", "on foot")."""
    return noun.tag_ == "NN" and not any(c.dep_ in ("det", "poss", "nummod", "amod", "compound") for c in noun.children)


def swap_relation(doc: Any, ctx: Context) -> list[Change] | None:
    """A spatial preposition between two things made its opposite (on -> under, in front of ->
    behind), or "riding X" made "walking beside X". "on" is swapped only after a noun or a verb
    of being or posture (where it is spatial: "a cat on a bed", "sitting on a bench")."""
    options = []
    for t in doc:
        if t.dep_ == "prep" and t.lower_ in (
            "on",
            "under",
            "underneath",
            "beneath",
            "in",
            "behind",
            "above",
            "below",
            "over",
            "inside",
            "outside",
        ):
            phrase, last = _preposition_phrase(doc, t)
            if phrase not in OPPOSITES:
                continue
            obj = next((c for c in doc[last].children if c.dep_ == "pobj"), None)
            if obj is None or obj.pos_ != "NOUN" or not thing_sense(obj.lower_):
                continue
            if obj.lower_ in _REGIONS or (phrase == "on" and _bare(obj)):  # "under its side", "under display"
                continue
            head = t.head
            if phrase == "on" and not (
                head.pos_ == "NOUN"
                or verb_lemma(head) in ("be", "sit", "stand", "lie", "lay", "perch", "rest", "sleep")
            ):
                continue
            new = OPPOSITES[phrase]
            if any(re.search(rf"\b{re.escape(new)}\b(\W+\w+){{0,3}}\W+{re.escape(obj.lower_)}", k) for k in ctx.texts):
                continue
            span = doc[t.i : last + 1]
            options.append(Change(span.start_char, span.end_char, replace_token(t, new).text))
        elif (
            verb_lemma(t) == "ride"
            and t.tag_.startswith("VB")
            and any(c.dep_ == "dobj" for c in t.children)
            and "walk" not in ctx.words
            and "beside" not in ctx.words
        ):
            options.append(replace_token(t, verb_form("walk", t.tag_) + " beside"))
    return [ctx.rng.choice(options)] if options else None
