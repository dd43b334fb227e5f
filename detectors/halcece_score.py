"""From HalCECE edits to a calibrated hallucination likelihood.

Every hallucination edit ``e`` of the explanation gets a severity ``s(e)`` in [0, 1], the chance
that it marks a real hallucination; the caption score is their noisy-OR::

    score = 1 - prod_e (1 - s(e))

Object edits (D, R, O) on caption concept ``c``, judged against the image side as a set of kinds
(:func:`detectors.halcece_evidence.type_support`)::

    s = 0                                       the image names c or a kind of c (U, synonyms)
    s = w_O * r(wup) * k(c) * h(c)              the image only has something more general (O)
    s = w_X * d(c) * k(c) * h(c) * m(c)         otherwise; X = the edit's class, D or R

    r(wup) = clip((1 - wup) / (1 - wup_0), 0, 1)        closeness of the over-specification
    d(c)   = b + (1 - b) * clip((1 - best) / (1 - best_0), 0, 1)
             best = highest Wu-Palmer similarity of c to any image concept
    k(c)   = objecthood: 1 for things, w_part for body parts, w_stuff for substances / places
             and settings (streets, rooms), w_abstract for abstractions (WordNet lexicographer
             file, :func:`detectors.halcece_evidence.objecthood`)
    h(c)   = w_hedge if c is hedged ("possibly a cat"), else 1
    m(c)   = f + (1 - f) * salience of the unmentioned image concept c stands in for
             (m = 1 against an annotation: what it lacks is surely not there)

Words the parser lost (:mod:`detectors.halcece_stray`: "a large *croissant* full of dirt", where
spaCy reads croissant as an adjective) are judged as deleted objects, ``s = w_stray * s_D`` with
label ``stray-D``, and take part in the salience assignment of ``m`` like any caption concept.

Attribute edits (:mod:`detectors.halcece_attributes`): a contradicted count ``w_count``, number
(plural where the image side only ever says one) ``w_number``, colour ``w_colour`` (times ``h``).
Role edits (D, R triples) between two concepts that are not themselves hallucinated: ``w_role``
(references rarely state every relation, so this is small); role edits touching a hallucinated
concept are its collateral and add nothing. U edits and insertions are suggestions: 0.

>>> from cece.api import Explainer
>>> e = Explainer(senses="context").explain("A dog and a cello on a sofa.", annotation=["dog", "sofa"])
>>> score, spans = score_explanation(e)
>>> [(s.text, s.label) for s in spans], round(score, 2)
([('cello', 'D')], 0.69)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from detectors.base import SpanScore
from detectors.halcece_attributes import attribute_findings, modifier_findings
from detectors.halcece_evidence import objecthood, type_support, uncovered_salience
from detectors.halcece_stray import stray_nouns


@dataclass(frozen=True)
class Severity:
    """The weights of the formula in the module docstring (set on the dev splits of HAT and
    nocaps-FOIL; every one is a plain probability-like factor)."""

    delete: float = 0.9  # w_D
    replace: float = 0.9  # w_R
    over: float = 0.6  # w_O
    wup0: float = 0.5  # wup_0
    dissim: float = 0.5  # b
    dissim0: float = 0.2  # best_0
    part: float = 0.5  # w_part
    stuff: float = 0.4  # w_stuff
    abstract: float = 0.3  # w_abstract
    hedge: float = 0.2  # w_hedge
    floor: float = 0.7  # f
    count: float = 0.6  # w_count
    number: float = 0.3  # w_number (plural against singular: "a" is a weaker claim than "one")
    colour: float = 0.5  # w_colour
    role: float = 0.02  # w_role for R (the image relates the pair otherwise)
    role_delete: float = 0.05  # w_role for D (no counterpart at all)
    modifier: float = 0.3  # w_mod
    stray: float = 1.0  # w_stray (0 turns the recovery off)


def object_severity(c: Any, cls: str, image: Any, w: Severity) -> float:
    """``s(e)`` of an object edit of class ``cls`` on caption concept ``c``, before the salience
    factor ``m``."""
    support, wup = type_support(c, image)
    if support == "same":
        return 0.0
    if support == "over":
        s = w.over * min(max((1.0 - wup) / (1.0 - w.wup0), 0.0), 1.0)
    else:
        s = (w.delete if cls == "D" else w.replace) * (
            w.dissim + (1.0 - w.dissim) * min((1.0 - wup) / (1.0 - w.dissim0), 1.0))
    s *= objecthood(c, w.part, w.stuff, w.abstract)
    return s * (w.hedge if c.uncertain else 1.0)


def score_explanation(e: Any, w: Severity | None = None,
                      salience: list[float] | None = None) -> tuple[float, list[SpanScore]]:
    """``(caption score, spans)`` of an :class:`~cece.explanation.Explanation`; ``salience[j]``
    is the fraction of references naming image concept ``j`` (None: an annotation)."""
    w = w or Severity()
    found: list[tuple[float, int, int, str]] = []  # (severity, start, end, label)
    # Caption concepts, then the words the parser lost (judged like deleted objects).
    concepts = list(e.caption_graph.concepts)
    strays = stray_nouns(e.caption_graph) if w.stray > 0 else []
    objects: dict[int, tuple[float, tuple[int, int], str]] = {}  # concept -> (s, span, class)
    for edit in e.edits:
        if edit.level == "object" and edit.op != "insert" and edit.hallucinated:
            s = object_severity(concepts[edit.source_index], edit.cls, e.image_graph, w)
            if s > 0:
                objects[edit.source_index] = (s, edit.spans[0], edit.cls)
    for c in strays:
        s = w.stray * object_severity(c, "D", e.image_graph, w)
        if s > 0:
            objects[len(concepts)] = (s, c.spans[0], "stray-D")
        concepts.append(c)
    if salience is None:  # an annotation: what it lacks is surely not there
        standing_in = {i: 1.0 for i in objects}
    else:
        standing_in = uncovered_salience(sorted(objects), concepts, e.image_graph, salience)
    for i, (s, span, label) in objects.items():
        found.append((s * (w.floor + (1.0 - w.floor) * standing_in[i]), *span, label))
    for f in attribute_findings(e.caption_graph, e.image_graph, set(objects)):
        s = {"count-R": w.count, "number-R": w.number}.get(f.label, w.colour)
        found.append((s * (w.hedge if e.caption_graph.concepts[f.concept].uncertain else 1.0),
                      f.start, f.end, f.label))
    for f in modifier_findings(e.caption_graph, e.image_graph) if w.modifier > 0 else []:
        found.append((w.modifier * (w.hedge if e.caption_graph.concepts[f.concept].uncertain else 1.0),
                      f.start, f.end, f.label))
    for edit in e.edits:
        if edit.level == "relation" and edit.op != "insert" and edit.hallucinated:
            r = e.caption_graph.relations[edit.source_index]
            s = w.role if edit.cls == "R" else w.role_delete
            if r.subject not in objects and r.object not in objects and s > 0:
                found.append((s, *(r.span or edit.spans[0]), f"role-{edit.cls}"))
    keep = 1.0
    spans = []
    for s, a, b, label in sorted(found, key=lambda x: (x[1], x[2])):
        keep *= 1.0 - s
        spans.append(SpanScore(a, b, e.caption[a:b], round(s, 6), label))
    return round(1.0 - keep, 6), spans
