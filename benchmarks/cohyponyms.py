"""Nouns for the object swap and the added object of :mod:`benchmarks.perturb`, from WordNet:
the physical sense of a noun, its co-hyponyms (FOIL-style substitutes), and a draw that favours
familiar words.

>>> thing_sense("table"), "wolf" in co_hyponyms("dog.n.01")
('table.n.02', True)
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from functools import lru_cache


@lru_cache(maxsize=1)
def _children() -> dict[int, list[int]]:
    from knowledge import get_hierarchy

    h = get_hierarchy()
    kids: dict[int, list[int]] = {}
    for i, parents in enumerate(h.parents_of):
        for p in parents:
            kids.setdefault(p, []).append(i)
    return kids


def co_hyponyms(synset: str) -> list[str]:
    """Familiar single-word names of the synsets that share a hypernym with ``synset`` and are
    filed as things of the same kind (WordNet's lexicographer file); each must be the first
    sense of its word, tagged at least once in SemCor (so "wolf", never "dhole") and not also an
    adjective. Sorted.

    >>> "cat" in co_hyponyms("dog.n.01") or "wolf" in co_hyponyms("dog.n.01")
    True
    """
    from knowledge import get_hierarchy, lexname

    h = get_hierarchy()
    me = h.ids.get(synset)
    if me is None:
        return []
    kind = lexname(synset)
    out = set()
    for parent in h.parents(me):
        for sib in _children().get(parent, ()):
            word = h.names[sib].rsplit(".", 2)[0]
            if sib == me or "_" in word or "-" in word or h.is_verb[sib] or lexname(h.names[sib]) != kind:
                continue
            senses = h.noun_lemmas.get(word, [])
            if (
                senses
                and senses[0] == sib
                and any(h.noun_sense_counts.get(word, []))
                and word not in h.adjective_lemmas
            ):  # "a professional", "a local": adjectives first
                out.add(word)
    return sorted(out)


def familiar(words: Sequence[str], rng: random.Random) -> str:
    """One of ``words`` drawn in proportion to how often its first sense is tagged in SemCor:
    a familiar word ("woman") more often than a rare one ("oldster"), as a captioner would."""
    from knowledge import get_hierarchy

    counts = get_hierarchy().noun_sense_counts
    return rng.choices(list(words), weights=[(counts.get(w) or [0])[0] + 1 for w in words])[0]


def thing_sense(word: str) -> str | None:
    """The first familiar sense of noun ``word`` that names a particular physical thing ("table"
    the furniture, not the table of figures), else None. A top concept ("person", "food") is no
    particular thing: a caption naming one says too little to swap or add.

    >>> thing_sense("person"), thing_sense("food"), thing_sense("man")
    (None, None, 'man.n.01')
    """
    from knowledge import lexname, noun_senses, objecthood

    senses = noun_senses(word, min_count=1)
    return next((s for s in senses if objecthood(s) == "thing" and lexname(s) != "noun.Tops"), None)
