"""Objects with their attributes from a spaCy parse, for ALOHa (:mod:`detectors.aloha`).

ALOHa asks an LLM for the objects of a caption; here spaCy stands in for it. Every noun that heads
its phrase is an object, named by its adjective / noun modifiers and its singular lemma ("red
shirt", "soccer field"); quantities and positions ("a group *of*", "on *top* of", "in the
*background*") are not objects. As in the ALOHa paper:

- "X or Y" (a tray *or* bowl) is one object with alternatives: the caption is faithful if either is;
- a hedged object ("possibly a hat", "what looks like a kite") is marked ``hedged``: ALOHa leaves it
  out of the candidate's objects and keeps it (without the hedge) among the references';
- reference objects are also given as bare root nouns ("shirt" beside "red shirt").

>>> from parsers import load_spacy
>>> objs = extract_objects(load_spacy()("A cat on a bed or blanket, possibly near a laptop."))
>>> [(o.names, o.hedged) for o in objs]
[(['cat'], False), (['bed', 'blanket'], False), (['laptop'], True)]
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from parsers.attribute_words import HEDGE_ADVERBS, HEDGE_MODALS, HEDGE_VERBS, QUANTIFIER_NOUNS

# Nouns that locate or frame rather than name a thing: "on top of", "in the background".
POSITION_NOUNS = frozenset(
    [
        "top",
        "front",
        "side",
        "middle",
        "edge",
        "back",
        "bottom",
        "center",
        "centre",
        "corner",
        "end",
        "background",
        "foreground",
        "left",
        "right",
        "distance",
        "view",
        "picture",
        "image",
        "photo",
        "photograph",
        "shot",
    ]
)
_MODIFIER_DEPS = frozenset({"amod", "compound", "nmod"})
_JOINERS = frozenset({",", "or", "and/or", "/", "and"})


@dataclass
class ObjectMention:
    """One object of a text: ``names`` are its phrase and any "or" alternatives' phrases, ``roots``
    their head lemmas, ``spans`` the char spans of each phrase."""

    names: list[str]
    roots: list[str]
    spans: list[tuple[int, int]] = field(default_factory=list)
    hedged: bool = False


def _is_head(t: Any) -> bool:
    if t.pos_ not in ("NOUN", "PROPN") or not t.is_alpha and "-" not in t.text:
        return False
    if t.dep_ in _MODIFIER_DEPS and t.head.pos_ in ("NOUN", "PROPN") and t.head.i > t.i:
        return False  # part of the next noun's name ("laptop computer", "living room")
    nxt = t.doc[t.i + 1] if t.i + 1 < len(t.doc) else None
    low = t.lower_
    if nxt is not None and nxt.lower_ == "of" and (low in QUANTIFIER_NOUNS or low in POSITION_NOUNS):
        return False
    return low not in POSITION_NOUNS or t.dep_ != "pobj"


def _phrase(t: Any) -> tuple[int, str]:
    """(first token index, name) of the object headed by ``t``: the modifiers directly before it
    in its subtree ("flat screen tv", "three-tiered cake") and its lemma."""
    below = {x.i for x in t.subtree}
    mods: list[Any] = []
    j = t.i - 1
    while j >= 0 and j in below and (t.doc[j].dep_ in _MODIFIER_DEPS or t.doc[j].text == "-"):
        mods.insert(0, t.doc[j])
        j -= 1
    words = [m for m in mods if m.is_alpha and m.pos_ in ("ADJ", "NOUN", "PROPN", "VERB")]
    lemma = t.lemma_.lower() if t.pos_ == "NOUN" else t.lower_
    first = words[0].i if words else t.i
    return first, " ".join([m.lower_ for m in words] + [lemma])


def _hedged_tokens(doc: Any) -> set[int]:
    """Indices of tokens under a hedge: after a hedging adverb, in its head's subtree ("possibly
    wearing a hat"); the complement of "looks like", "appears to be", "might be"."""
    out: set[int] = set()
    for t in doc:
        if t.lower_ in HEDGE_ADVERBS:
            out.update(x.i for x in t.head.subtree if x.i > t.i)
        elif t.lemma_ in HEDGE_VERBS and t.pos_ in ("VERB", "AUX"):
            out.update(x.i for c in t.children if c.dep_ in ("prep", "xcomp", "dobj", "attr") for x in c.subtree)
        elif t.lower_ in HEDGE_MODALS and t.dep_ == "aux" and t.head.lemma_ == "be":
            out.update(x.i for x in t.head.subtree if x.i > t.i)
    return out


def extract_objects(doc: Any) -> list[ObjectMention]:
    """The objects of a spaCy Doc, in text order (see the module docstring)."""
    hedged = _hedged_tokens(doc)
    heads = [t for t in doc if _is_head(t)]
    phrases = {t.i: _phrase(t) for t in heads}
    out: list[ObjectMention] = []
    prev = None
    for t in heads:
        first, name = phrases[t.i]
        span = (doc[first].idx, t.idx + len(t.text))
        root = t.lemma_.lower() if t.pos_ == "NOUN" else t.lower_
        between: list[Any] = [x for x in doc[prev.i + 1 : first]] if prev is not None else []
        if (
            between
            and all(x.lower_ in _JOINERS or x.pos_ == "DET" for x in between)
            and any(x.lower_ in ("or", "and/or") for x in between)
        ):
            o = out[-1]  # "a bed or (a) blanket": an alternative of the previous object
            o.names.append(name)
            o.roots.append(root)
            o.spans.append(span)
        else:
            out.append(ObjectMention([name], [root], [span], hedged=t.i in hedged))
        prev = t
    return out
