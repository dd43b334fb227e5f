"""What other images have beside a thing: the co-occurrence counts behind the ``companion``
perturbation of :mod:`benchmarks.perturb`.

Captioning models hallucinate above all the objects that usually go with the scene -- a table
under the pizza, a blanket on the bed (Rohrbach et al., *Object Hallucination in Image
Captioning*, 2018) -- not random ones. So the generator adds, besides co-hyponyms, things that
the reference sets of *other* images name together with a thing the caption names. A thing here
is a noun of a reference whose first familiar sense is a physical thing
(:func:`benchmarks.cohyponyms.thing_sense`), named by its lemma.

>>> sets = [["A dog on a bed.", "A dog sleeping."], ["A cat on a bed with a blanket."], ["A bed, a blanket."]]
>>> c = companions(nouns(refs) for refs in sets)
>>> c["bed"]["blanket"], "dog" in c["bed"]
(2, False)
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from functools import lru_cache
from typing import Any

Companions = dict[str, Counter[str]]

#: A pair of things is a pattern when this many reference sets name them together.
MIN_SETS = 2


def pipeline() -> Any:
    """The generator's spaCy pipeline: the caption parser's."""
    from parsers.spacy_model import load_spacy

    return load_spacy(exclude=("ner",), fast_attributes=True)


@lru_cache(maxsize=1 << 16)
def thing_word(lemma: str) -> str | None:
    """``lemma`` when it names a physical thing as a noun, else None."""
    from benchmarks.cohyponyms import thing_sense

    return lemma if thing_sense(lemma) else None


def nouns(texts: Iterable[str], nlp: Any = None) -> list[tuple[str, bool]]:
    """``(lemma, counted)`` of each thing noun of ``texts``, read with ``nlp`` (the generator's
    spaCy pipeline by default): counted when it has "a" or "an"."""
    out = []
    for doc in (nlp or pipeline()).pipe(texts):
        for t in doc:
            if t.pos_ != "NOUN" or any(c.dep_ == "prep" and c.lower_ == "of" for c in t.children):
                continue  # "a lot of", "a piece of", "in front of": an amount or a place, not a thing
            if w := thing_word(t.lemma_.lower()):
                out.append((w, any(c.dep_ == "det" and c.lower_ in ("a", "an") for c in t.children)))
    return out


def companions(per_set: Iterable[Sequence[tuple[str, bool]]], *, min_sets: int = MIN_SETS) -> Companions:
    """For each thing, in how many reference sets (given by their :func:`nouns`) each other
    thing is named with it: only pairs seen together in at least ``min_sets`` sets (one image's
    oddity is no pattern), and only companions the references count with "a" somewhere ("a
    blanket", never "a grass")."""
    counts: Companions = defaultdict(Counter)
    counted: set[str] = set()
    for found in per_set:
        counted.update(w for w, one in found if one)
        named = {w for w, _ in found}
        for a in named:
            counts[a].update(b for b in named if b != a)
    return {a: Counter({b: n for b, n in c.items() if n >= min_sets and b in counted}) for a, c in counts.items()}


def related(a: str, b: str) -> bool:
    """Whether things ``a`` and ``b`` are one a kind of the other ("car", "vehicle"): adding
    one beside the other says nothing new."""
    from benchmarks.cohyponyms import thing_sense
    from knowledge import is_hypernym

    x, y = thing_sense(a), thing_sense(b)
    return bool(x and y) and (x == y or is_hypernym(x, y) or is_hypernym(y, x))
