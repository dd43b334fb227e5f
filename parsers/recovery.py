"""Nouns the parser lost, found again: a repair applied to every parsed graph.

spaCy sometimes tags a rare noun as something else ("a large *croissant* full of dirt" reads
croissant as an adjective, "a long can *opener*" reads opener as a verb), and the object vanishes
from the scene graph -- so a hallucinated object there could never be found, and a reference that
names it could never support it. :func:`recover_nouns` adds such words back as concepts (with
``recovered=True`` and no relations). A word qualifies when it is no concept's head or modifier
and no predicate, WordNet knows it *only* as a noun (no verb or adjective reading to have been
meant instead), one of its senses names a visible thing (:data:`knowledge.THINGS`), and it is
neither first a material, a group nor a quantifier ("bunches of"), nor a verb's -ing form ("possibly *making*
a turn"). After "possibly" it is hedged. The word before it comes back with it when the two are one
name WordNet knows ("a *can* opener", the modal "can" to the tagger).

>>> from parsers.scene_graph import Concept, SceneGraph
>>> g = SceneGraph([Concept("dirt", "dirt", "soil.n.02", spans=[(24, 28)], phrase_span=(24, 28))],
...                text="A large croissant full of dirt inside of it.")
>>> [(c.lemma, c.spans, c.recovered) for c in lost_nouns(g)]
[('croissant', [(8, 17)], True)]
"""

from __future__ import annotations

import re
from functools import lru_cache

from knowledge import THINGS, filed_as, get_hierarchy, lemmatize, names_portion, noun_senses, noun_synset
from knowledge.concepts import morphy_forms
from parsers.attribute_words import HEDGE_ADVERBS, QUANTIFIER_NOUNS
from parsers.frames import FRAME_NOUNS
from parsers.language import stop_words
from parsers.scene_graph import Concept, SceneGraph, Span
from parsers.verb_words import verb_form

#: Words that say the noun after them is absent.
NEGATIONS = frozenset({"no", "without", "not", "never", "nor", "none"})


def _covered(a: int, b: int, spans: list[Span]) -> bool:
    return any(s < b and a < e for s, e in spans)


def lost_nouns(graph: SceneGraph, no_things: tuple[Span, ...] = ()) -> list[Concept]:
    """Concepts for the noun-only thing words of ``graph.text`` that the graph reads as no
    concept head, modifier or predicate, nor the parser as no thing (``no_things``: "smiling at
    *the camera*", :mod:`parsers.frames`); see the module docstring."""
    taken = [s for c in graph.concepts for s in c.spans] + [r.span for r in graph.relations if r.span] + list(no_things)
    # Inside a concept's phrase its modifiers are read as its attributes; any other word there
    # was swallowed by a misparse ("a *tent* and black sunglasses" as one phrase).
    read = [
        (c.phrase_span, {w for vs in c.attributes.values() for v in vs for w in v.lower().split()})
        for c in graph.concepts
        if c.phrase_span
    ]
    out: list[Concept] = []
    stop = stop_words()
    for m in re.finditer(r"[A-Za-z][A-Za-z-]*", graph.text):
        word = m.group().lower()
        # Function words before WordNet ("may" is also a month and a hawthorn to it), and the
        # cached word test before the span checks: most words are no lost noun.
        if len(word) < 3 or word in stop or (sense := thing_noun(word)) is None:
            continue
        if _covered(m.start(), m.end(), taken):
            continue
        if any(_covered(m.start(), m.end(), [span]) and word in words for span, words in read):
            continue
        lemma, synset = sense
        plural, start = lemma != word, m.start()
        # the word before may be the first of its name, lost with it ("a *can* opener": a modal)
        prev = re.search(r"([A-Za-z]+)\s+$", graph.text[:start])
        if prev and not _covered(prev.start(1), prev.end(1), taken):
            name = f"{prev.group(1).lower()}_{lemma}"
            if name in get_hierarchy().lemmas("n"):
                lemma, synset, start = name.replace("_", " "), noun_synset(name) or synset, prev.start(1)
                # its first word, recovered on its own a moment ago, is part of the name ("a *life* saver")
                out = [c for c in out if c.spans != [(prev.start(1), prev.end(1))]]
        # A hedge reaches to the end of its clause ("possibly other fruits or items").
        before = re.findall(r"[a-z]+", re.split(r"[,;.()]", graph.text[:start].lower())[-1])
        if any(w in NEGATIONS for w in before[-3:]):  # "a street with no cars": said to be absent
            continue
        out.append(
            Concept(
                graph.text[start : m.end()],
                lemma,
                synset,
                spans=[(start, m.end())],
                phrase_span=(start, m.end()),
                plural=plural,
                uncertain=any(w in HEDGE_ADVERBS for w in before),
                recovered=True,
            )
        )
    return out


@lru_cache(maxsize=65536)
def thing_noun(word: str) -> tuple[str, str] | None:
    """``(lemma, synset)`` when lower-case ``word`` can only be a noun and names a visible thing;
    else None.

    >>> thing_noun("cars"), thing_noun("opener"), thing_noun("dog")  # "dog" is a verb too
    (('car', 'car.n.01'), ('opener', 'undoer.n.02'), None)
    """
    h = get_hierarchy()
    forms = {word, *morphy_forms(word, "n")}  # "bunches": bunche (Ralph Bunche) and bunch
    lemma = lemmatize(word)
    if lemma not in h.lemmas("n") or any(
        f in h.lemmas("v") or f in h.adjective_lemmas or f in QUANTIFIER_NOUNS or f in FRAME_NOUNS for f in forms
    ):
        return None
    if names_portion(lemma):  # "a carton of juice", "bits of food": the juice, the food
        return None
    if word.endswith("ing") and verb_form(word, "VBG"):  # "possibly making a turn": a verb, not lost
        return None
    # Its first sense that is a visible thing (the first of "opener" is an event) -- unless
    # the word is first a material, which as a lost word was a modifier ("a wood burning stove"),
    # or a group, which counts what comes after it ("a *family* of ducks": the ducks).
    senses = noun_senses(lemma)
    synset = next((x for x in senses if filed_as(x) in THINGS), None)
    if synset is None or filed_as(senses[0]) in ("noun.substance", "noun.group"):
        return None
    return lemma, synset


def recover_nouns(graph: SceneGraph, no_things: tuple[Span, ...] = ()) -> SceneGraph:
    """Append the :func:`lost_nouns` of ``graph`` to it as concepts (not the words in the
    ``no_things`` spans, which the parser read as no thing); returns the same graph."""
    for c in lost_nouns(graph, no_things):
        graph.add_concept(c)
    return graph
