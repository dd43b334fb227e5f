"""FaithScore stage 1 without a model: which sub-sentences *describe* the image.

FaithScore checks only descriptive sub-sentences -- what is in the image, checkable by looking:
objects, attributes, counts, positions, actions ("a young girl is standing on a sidewalk",
"holding a red umbrella", "white"). Analytical ones are skipped -- they cannot be checked by
looking, so a checker would count them against a faithful answer:

- framing and connectives: "In the image", "From the image", "Additionally", "On the other hand";
- inference and hedging: "it can be inferred that ...", "suggesting that ...", "the cart can make
  it difficult ...", "as it seems to have found a cozy spot", "giraffes are known to ...";
- interpretation added by a participle or relative clause: "adding a touch of color", "making it
  a memorable moment", "which shields her from the rain", "creating a lively atmosphere";
- purpose, advice and benefit: "to stay dry", "for the cat to rest on", "serves as a storage
  solution", "One of the main challenges is ...";
- evaluation: "The image captures the beauty and grace of ...", "a cozy and inviting
  atmosphere", "visually appealing", "comfortable for the cat";
- guesses and statements about kinds: "The enclosure appears to be part of a zoo", "It looks
  like they are celebrating", "Cats are curious creatures", "Cooking at home is a healthy choice".

:func:`recognise` reads each sub-sentence with spaCy (the project's pipeline) and decides by the
clause's shape and a small lexicon of inference, purpose and evaluation words
(:mod:`detectors.faithscore.analytical_words`). The lexicon is read in context, since many of its
words also describe: a productive verb ("make", "create", "give", "serve") interprets only with a
clause or an abstract object ("making it difficult", "creating a lively atmosphere"), not with a
thing in view ("making a sandwich", "giving a thumbs up"; WordNet says which nouns are physical
entities); a mild evaluative ("warm", "calm", "safety") evaluates only when it is not said of a
visible thing ("a warm cup of coffee", "a safety vest", "the lake is calm"); "appears to be smiling"
puts a visible state mildly. A fragment without a verb that continues the previous sub-sentence
("..., white", "and orange fur"; "such as reading") takes its label: a list goes on saying what it
was saying (a connective or frame before it passes on nothing).

>>> recognise(["In the image", " a dog is lying on a red couch", " white", " adding a cozy touch to the room"])
[0, 1, 1, 0]
>>> recognise(["A man is making a sandwich", " making the kitchen a lively place"])
[1, 0]
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from detectors.faithscore.analytical_words import (
    ABSTRACT_SUBJECTS,
    CONNECTIVES,
    EFFECT_VERBS,
    EVALUATIVE,
    FRAME_NOUNS,
    HEDGES,
    INFERENCE_VERBS,
    MILD_EVALUATIVE,
    MODALS,
    PRODUCTIVE_VERBS,
)

DESCRIPTIVE, ANALYTICAL = 1, 0


def recognise(sub_sentences: Sequence[str]) -> list[int]:
    """1 (descriptive) or 0 (analytical) for each sub-sentence of one answer, in order (see the
    module docstring). The order matters: a verbless continuation takes its predecessor's label.

    >>> recognise(["The cat is lying on its side", " which suggests it is relaxed"])
    [1, 0]
    """
    labels: list[int] = []
    context: int | None = None  # the label a verbless continuation takes (framing starts afresh)
    for text in sub_sentences:
        words = [t for t in _parse(text.strip()) if not t.is_punct and not t.is_space]
        if _framing(words):
            labels.append(ANALYTICAL)
            context = None
        else:
            labels.append(_label(words, context))
            context = labels[-1]
    return labels


@lru_cache(maxsize=1)
def _nlp() -> Any:
    from parsers.spacy_model import load_spacy

    return load_spacy(exclude=("ner",))


@lru_cache(maxsize=4096)
def _parse(text: str) -> Any:
    return _nlp()(text)


def _framing(words: list[Any]) -> bool:
    """A connective ("Additionally", "On the other hand") or a frame ("In the image", "From the
    picture", "In the background"; not "On the left of the image"): about the answer, not the image."""
    if not words:
        return False
    lower = [t.lower_ for t in words]
    if len(words) <= 4 and (
        lower[0] in CONNECTIVES
        or " ".join(lower) in ("on the other hand", "in addition", "in conclusion", "in summary")
    ):
        return True
    return (
        words[0].pos_ == "ADP"
        and not any(t.pos_ in ("VERB", "AUX") for t in words)
        and any(c.dep_ == "pobj" and c.lower_ in FRAME_NOUNS for c in words[0].children)
    )


def _label(words: list[Any], previous: int | None) -> int:
    if not words:
        return ANALYTICAL
    lower = [t.lower_ for t in words]
    lemmas = {t.lemma_.lower() for t in words} | set(lower)
    verbs = [t for t in words if t.pos_ in ("VERB", "AUX")]
    first = words[0]
    if not verbs:
        if EVALUATIVE & lemmas or ABSTRACT_SUBJECTS & lemmas:
            return ANALYTICAL
        continuation = first.is_lower or lower[0] in ("and", "or", "such", "including", "like", "as")
        if continuation and previous is not None:
            return previous  # a list goes on saying what it was saying
        return DESCRIPTIVE
    if (
        len(words) <= 2
        and first.is_lower
        and previous is not None
        and not any(t.dep_.startswith("nsubj") for t in words)
    ):
        return previous  # "rowing", "or hiking": one more item of the list before
    if _infers(words, lower, lemmas):
        return ANALYTICAL
    return DESCRIPTIVE


def _infers(words: list[Any], lower: list[str], lemmas: set[str]) -> bool:
    """Whether a clause hedges, infers, interprets, gives a purpose or evaluates."""
    first = words[0]
    if (MODALS & set(lower) and not _can_be_seen(words)) or HEDGES & set(lower):
        return True
    if first.tag_ == "VBG" and _interprets(first):
        return True  # "adding a touch of color", "providing a place to rest"
    if INFERENCE_VERBS & lemmas and not _plain_appearance(words) or _guesses(words):
        return True  # "appears to be smiling" puts a visible state mildly; "seems" alone infers
    if any(t.dep_ == "csubj" for t in words) or _generic(words):
        return True  # "Cooking at home is a healthy choice", "Cats are curious creatures": about kinds
    heads = [t for t in words if t.dep_ in ("ROOT", "relcl", "advcl", "conj", "xcomp", "ccomp")]
    if any(t.pos_ == "VERB" and _interprets(t) for t in heads):
        return True
    if lower[0] in ("as", "because", "since", "so", "by", "especially") and len(words) > 3:
        return True  # a reason, a manner or a concession: the answer explains
    if any(
        t.lower_ == "to"
        and t.head.pos_ == "VERB"
        and t.dep_ == "aux"
        and t.head.dep_ in ("advcl", "acl", "xcomp")
        and t.head.lemma_.lower() not in ("be",)
        for t in words
    ) and _purpose(words):
        return True
    if any(
        t.dep_ == "mark" and t.lower_ == "for" and any(c.dep_ == "aux" and c.lower_ == "to" for c in t.head.children)
        for t in words
    ):
        return True  # "a soft surface for the cat to rest on": what it is for
    if EVALUATIVE & lemmas or any(_evaluates(t) for t in words if t.lower_ in MILD_EVALUATIVE):
        return True
    subject = next((t for t in words if t.dep_ in ("nsubj", "nsubjpass")), None)
    return bool(subject is not None and subject.lemma_.lower() in ABSTRACT_SUBJECTS)


def _interprets(verb: Any) -> bool:
    """A verb of effect or benefit ("providing", "helps"), or a productive verb
    used for an effect: with a clause ("making it difficult", "leading them to stop") or an
    abstract object ("adds a pop of color", "creating a lively atmosphere"), or none ("serves as
    a focal point", "adding to the charm"). "making a sandwich", "giving a thumbs up", "the bench
    is made of wood" say what is there."""
    lemma = verb.lemma_.lower()
    if lemma in EFFECT_VERBS:
        return True
    if lemma not in PRODUCTIVE_VERBS:
        return False
    if any(c.dep_ in ("ccomp", "xcomp", "oprd", "acomp") for c in verb.children):
        return True
    objects = [c for c in verb.children if c.dep_ in ("dobj", "nsubjpass")]
    objects += [c for o in objects for c in o.conjuncts]
    return not objects or not all(_concrete(o) for o in objects)


#: Pronouns that stand for people or things in view ("leading them", "holding her hand").
_VISIBLE_PRONOUNS = frozenset(["he", "she", "they", "him", "her", "them", "we", "us", "you", "i", "me"])


def _concrete(noun: Any) -> bool:
    """Whether a noun (or pronoun) names something one can see: a WordNet physical entity. In
    "a slice of pizza" / "a pop of color" the "of" object decides."""
    of = [g for c in noun.children if c.dep_ == "prep" and c.lower_ == "of" for g in c.children if g.dep_ == "pobj"]
    if of:
        noun = of[0]
    if noun.pos_ == "PRON":  # "which are partially drawn": the antecedent is in view, so benefit of the doubt
        return noun.lower_ in _VISIBLE_PRONOUNS or noun.dep_ == "nsubjpass" and noun.tag_ in ("WDT", "WP")
    phrase = " ".join([c.text for c in noun.children if c.dep_ == "compound"] + [noun.text])
    return any(_physical(p) for p in (phrase, noun.lemma_))


@lru_cache(maxsize=4096)
def _physical(phrase: str) -> bool:
    from knowledge import ancestors, noun_synset

    synset = noun_synset(phrase.lower())
    return synset is not None and "physical_entity.n.01" in ancestors(synset)


def _evaluates(word: Any) -> bool:
    """A :data:`MILD_EVALUATIVE` word evaluates unless it qualifies or is said of a visible thing
    ("a warm cup", "a safety vest", "the lake is calm"); "comfortable for the cat" judges a fit."""
    if word.dep_ in ("amod", "compound") and word.head.pos_ in ("NOUN", "PROPN"):
        return not _concrete(word.head)
    if any(c.dep_ == "prep" and c.lower_ == "for" for c in word.children):
        return True  # "comfortable for the cat": fit for a purpose
    if word.dep_ in ("acomp", "conj"):
        verb = word.head if word.dep_ == "acomp" else word.head.head
        subject = next((c for c in verb.children if c.dep_ in ("nsubj", "nsubjpass")), None)
        while subject is None and verb.dep_ in ("xcomp", "conj") and verb.head is not verb:
            verb = verb.head  # "The cat appears to be comfortable": the subject of "appears"
            subject = next((c for c in verb.children if c.dep_ in ("nsubj", "nsubjpass")), None)
        return subject is None or not _concrete(subject)
    return True


def _can_be_seen(words: list[Any]) -> bool:
    """ "can be seen" / "is visible": a modal that reports what is in view, not a possibility."""
    return any(t.lemma_.lower() in ("see", "spot", "notice", "observe") and t.tag_ == "VBN" for t in words)


def _purpose(words: list[Any]) -> bool:
    """A to-infinitive that says what for ("to stay dry"), not what is seen ("seems to hold")."""
    return any(t.lower_ == "to" and t.dep_ == "aux" and t.head.dep_ in ("advcl", "acl") for t in words) or any(
        t.lower_ in ("for", "in") and t.nbor(1).lower_ == "order" for t in words[:-1] if t.i + 1 < len(t.doc)
    )


def _generic(words: list[Any]) -> bool:
    """A statement about a kind: a bare plural subject said to be something ("Cats are curious
    creatures", "Bananas are a good source of potassium"); not "Two cats are on the sofa"."""
    for t in words:
        if (
            t.dep_ == "nsubj"
            and t.tag_ == "NNS"
            and t.head.lemma_ == "be"
            and t.head.tag_ == "VBP"
            and not any(c.dep_ in ("det", "nummod", "poss", "amod", "compound") for c in t.children)
            and any(c.dep_ == "attr" and c.pos_ == "NOUN" for c in t.head.children)
        ):
            return True
    return False


def _guesses(words: list[Any]) -> bool:
    """What a thing or scene is, guessed from its looks: "appears to be part of a zoo", "It
    looks like they are celebrating", "seems as if ...". (A visible state put mildly, "appears to
    be smiling", "looks happy", "looks like a castle", is description.)"""
    for t in words:
        if t.lemma_.lower() not in ("appear", "seem", "look"):
            continue
        kids = list(t.children)
        if any(
            c.dep_ == "xcomp" and c.lemma_.lower() == "be" and any(g.dep_ == "attr" for g in c.children) for c in kids
        ):
            return True
        if any(
            c.dep_ == "advcl" and any(m.dep_ == "mark" and m.lower_ in ("like", "if", "though") for m in c.children)
            for c in kids
        ):
            return True
        if any(c.dep_ == "nsubj" and c.lower_ == "it" for c in kids) and any(c.lower_ == "like" for c in kids):
            return True
    return False


def _plain_appearance(words: list[Any]) -> bool:
    """ "appears to be smiling" / "seems to be sitting": a visible state put mildly."""
    for t in words:
        if t.lemma_.lower() in ("appear", "seem") and any(
            c.tag_ == "VBG" or c.dep_ == "xcomp" and c.tag_ == "VBG" for c in t.subtree
        ):
            return True
    return False
