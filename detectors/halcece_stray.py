"""Things the caption names that the parser lost: parser failures recovered for HalCECE scoring.

spaCy sometimes tags a rare noun as something else ("a large *croissant* full of dirt" reads
croissant as an adjective, "a long can *opener*" reads opener as a verb), and the object vanishes
from the caption graph -- so a hallucinated object there could never be found. This module finds
such words again: a word that is no concept's head or modifier and no predicate, that WordNet
knows *only* as a noun (no verb or adjective reading to have been meant instead), that has a
sense naming a visible thing (:data:`detectors.halcece_evidence.THINGS`), and that is neither
first a material nor a quantifier ("bunches of"). Each becomes a pseudo-concept (hedged after
"possibly") that :mod:`detectors.halcece_score` judges like a deleted object.

>>> from parsers import Concept, SceneGraph
>>> g = SceneGraph([Concept("dirt", "dirt", "soil.n.02", spans=[(24, 28)], phrase_span=(24, 28))],
...                text="A large croissant full of dirt inside of it.")
>>> [(c.lemma, c.spans) for c in stray_nouns(g)]
[('croissant', [(8, 17)])]
"""

from __future__ import annotations

import re
from typing import Any

from spacy.lang.en.stop_words import STOP_WORDS

from detectors.halcece_evidence import THINGS
from knowledge import get_hierarchy, lemmatize, lexname, noun_senses
from knowledge.concepts import morphy_forms
from parsers import Concept
from parsers.attributes import HEDGE_ADVERBS, QUANTIFIER_NOUNS


def _covered(a: int, b: int, spans: list[tuple[int, int]]) -> bool:
    return any(s < b and a < e for s, e in spans)


def stray_nouns(caption: Any) -> list[Concept]:
    """Pseudo-concepts for the noun-only thing words of ``caption.text`` that the graph reads as
    no concept head, modifier or predicate (with char ``spans``; ``plural`` from the surface
    form; ``uncertain`` when hedged)."""
    h = get_hierarchy()
    nouns, verbs, adjectives = h.lemmas("n"), h.lemmas("v"), h.adjective_lemmas
    taken = [s for c in caption.concepts for s in c.spans] + [r.span for r in caption.relations if r.span]
    # Inside a concept's phrase, its modifiers are read (and judged) as its attributes; any other
    # word there was swallowed by a misparse ("a *tent* and black sunglasses" as one phrase).
    read = [(c.phrase_span, {w for vs in c.attributes.values() for v in vs for w in v.lower().split()})
            for c in caption.concepts if c.phrase_span]
    out = []
    for m in re.finditer(r"[A-Za-z][A-Za-z-]*", caption.text):
        word = m.group().lower()
        # Function words first: "may" is also a month and a hawthorn to WordNet.
        if len(word) < 3 or word in STOP_WORDS or _covered(m.start(), m.end(), taken):
            continue
        if any(_covered(m.start(), m.end(), [span]) and word in words for span, words in read):
            continue
        forms = {word, *morphy_forms(word, "n")}  # "bunches": bunche (Ralph Bunche) and bunch
        lemma = lemmatize(word)
        # Noun only: a word with a verb or adjective reading may well have been meant as one; and
        # no quantifier ("bunches of").
        if lemma not in nouns or any(f in verbs or f in adjectives or f in QUANTIFIER_NOUNS for f in forms):
            continue
        # Its first sense that is a visible thing (the first of "opener" is an event) -- unless
        # the word is first a material, which as a lost word was a modifier ("a wood burning stove").
        senses = noun_senses(lemma)
        synset = next((x for x in senses if lexname(x) in THINGS), None)
        if synset is None or lexname(senses[0]) == "noun.substance":
            continue
        # A hedge reaches to the end of its clause ("possibly other fruits or items").
        before = re.findall(r"[a-z]+", re.split(r"[,;.()]", caption.text[:m.start()].lower())[-1])
        out.append(Concept(m.group(), lemma, synset, spans=[(m.start(), m.end())],
                           phrase_span=(m.start(), m.end()), plural=lemma != word,
                           uncertain=any(w in HEDGE_ADVERBS for w in before)))
    return out
