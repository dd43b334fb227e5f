"""Several mentions of one thing in one text, merged into one concept.

"A dog and a cello on a sofa. The dog sleeps." speaks of one dog twice; read as two dogs, an image
with one dog would make the second mention a hallucination. :func:`merge_definite_mentions`
folds a definite re-mention ("the dog", "this dog") into the closest earlier concept with the same
lemma and number whose colours do not clash, so every later edit reports the thing once, with a
span on each mention. Indefinite mentions stay apart ("a dog chases a dog" is two dogs), and so
does a "one" that stands for a noun (:mod:`parsers.anaphora`): "the unsliced fruit is in the
bowl, *the sliced one* is out of it".

:func:`pool` is the one way mentions are merged, here and across reference captions
(:mod:`parsers.references`).

>>> g = SceneGraph([Concept("dog", "dog", spans=[(2, 5)], phrase_span=(0, 5)),
...                 Concept("dog", "dog", spans=[(11, 14)], phrase_span=(7, 14))],
...                text="A dog. The dog sleeps.")
>>> [(c.lemma, c.spans) for c in merge_definite_mentions(g).concepts]
[('dog', [(2, 5), (11, 14)])]
"""

from __future__ import annotations

import re
from dataclasses import replace

from parsers.attributes import colours_clash
from parsers.partitives import PARTITIVES
from parsers.scene_graph import Concept, SceneGraph

#: Words that make a noun phrase point back at something already mentioned.
DEFINITE = frozenset({"the", "this", "that", "these", "those"})


def pool(into: Concept, other: Concept, keep_number: bool = True) -> None:
    """Merge mention ``other`` into ``into`` in place: spans, names, attributes, alternatives;
    the number too unless ``keep_number`` is false (a more general mention: "two animals" may be
    a dog and a cat). The result is hedged only if both were."""
    into.spans.extend(other.spans)
    into.uncertain = into.uncertain and other.uncertain
    if other.lemma.lower() not in into.names():
        into.aliases.append(other.lemma.lower())
    for kind, values in other.attributes.items():
        if kind == "count" and not keep_number:
            continue
        bucket = into.attributes.setdefault(kind, [])
        bucket.extend(v for v in values if v not in bucket)
    if keep_number:
        into.plural = into.plural or other.plural
    into.alternatives.extend(a for a in other.alternatives if a not in into.alternatives)


def is_definite(text: str, c: Concept) -> bool:
    """Whether the noun phrase of ``c`` opens with a definite determiner ("the dog"), after a
    partitive ("one of *the* boys": :mod:`parsers.partitives`)."""
    if not c.phrase_span:
        return False
    m = re.match(r"\s*(\w+)(?:\s+of\s+(\w+))?", text[c.phrase_span[0] : c.phrase_span[1]])
    if m is None:
        return False
    first = m.group(1).lower()
    return (m.group(2) or "").lower() in DEFINITE if first in PARTITIVES else first in DEFINITE


def _antecedent(graph: SceneGraph, i: int) -> int | None:
    c = graph.concepts[i]
    if not is_definite(graph.text, c) or c.attributes.get("count") or c.text.lower() in ("one", "ones"):
        return None  # "the sliced one" is set apart from the fruit named before (parsers.anaphora)
    for k in range(i - 1, -1, -1):
        e = graph.concepts[k]
        if (
            e.lemma == c.lemma
            and e.plural == c.plural
            and not colours_clash(e.attributes.get("colour", []), c.attributes.get("colour", []))
        ):
            return k
    return None


def merge_definite_mentions(graph: SceneGraph) -> SceneGraph:
    """``graph`` with each definite re-mention merged into its antecedent (module docstring);
    relations are re-pointed and de-duplicated. The input graph is not changed."""
    antecedents = [_antecedent(graph, i) for i in range(len(graph.concepts))]
    if all(k is None for k in antecedents):  # most captions: nothing to merge, nothing to copy
        return graph
    target: list[int] = []  # old index -> new index
    concepts: list[Concept] = []
    for c, k in zip(graph.concepts, antecedents, strict=True):
        if k is None:
            target.append(len(concepts))
            concepts.append(
                replace(
                    c,
                    spans=list(c.spans),
                    aliases=list(c.aliases),
                    alternatives=list(c.alternatives),
                    attributes={kind: list(v) for kind, v in c.attributes.items()},
                )
            )
        else:
            target.append(target[k])
            pool(concepts[target[k]], c)
    relations, seen = [], set()
    for r in graph.relations:
        s, o = target[r.subject], target[r.object]
        if s != o and (s, r.canonical, o) not in seen:
            seen.add((s, r.canonical, o))
            relations.append(replace(r, subject=s, object=o))
    return replace(graph, concepts=concepts, relations=relations)
