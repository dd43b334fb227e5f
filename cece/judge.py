"""The verdict on every edit: how sure, hallucinated or not, on what evidence.

Against an annotation (a complete scene graph, the HalCECE paper's setting) an object or triple
edit of class D, R or O is a hallucination with confidence 1, and so is an attribute or count the
annotation contradicts. Against reference captions, which are partial and paraphrased, the
confidence is the chance that the words are really wrong, from the evidence:

Objects (D, R, O) on caption concept ``c``, the references taken as a set of kinds
(:func:`cece.evidence.type_support`)::

    supported (they name c, a synonym, or a kind of c)      no edit (faithful)
    c = w_O * r(wup) * k(c) * h(c)                          only something more general: O
    c = w_X * d(c) * k(c) * h(c) * m(c)                     nothing; X = D or R

    r(wup) = clip((1 - wup) / (1 - wup_0), 0, 1)            how far the over-specification goes
    d(c)   = b + (1 - b) * clip((1 - best) / (1 - best_0), 0, 1)
             best = highest Wu-Palmer similarity of c to anything the references name
    k(c)   = objecthood (:func:`knowledge.objecthood`): 1 thing, w_part body part,
             w_stuff substance / place / setting, w_abstract anything else
    h(c)   = w_hedge when hedged ("possibly a cat"), else 1
    m(c)   = f + (1 - f) * salience of the unmentioned reference entity c stands in for
             (:func:`cece.evidence.uncovered_salience`)

Attributes and counts the references contradict: ``w_count`` for an exact count, ``w_number``
for plural against singular, ``w_attribute`` for a colour, size or material (times ``h``);
``w_modifier`` for a noun modifier naming a thing nobody mentions. Triples: ``w_contradict`` when
the references relate the two entities in an opposite way; a triple they are silent on is
*unverified*, with the small ``w_silent``.

An attribute, count or triple of an object that is itself hallucinated is its ``consequence``
(``caused_by``, never hallucinated: one mistake is reported once). The record's score is the
noisy-OR of the confidences of its other edits (suggestions, U and I, count for nothing)::

    score = 1 - prod_e (1 - confidence(e))

and the record is hallucinated when ``score >= threshold`` and some edit other than a silent
triple contributes to it. The edits it rests on are marked ``hallucinated``: every edit whose own
confidence reaches the threshold, then the most confident others until the doubts left
(``unverified``) together stay below it -- so the caption with its hallucinated edits undone is
no longer hallucinated -- and never a triple the image side is silent on, which stays
``unverified`` whatever its weight. So a record is hallucinated exactly when one of its edits is,
and a caption whose only doubts are such silent triples is never called hallucinated (its score
still ranks it).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Sequence

from cece.edits import Edit
from cece.evidence import evidence_of, salience, type_support, uncovered_salience
from cece.ged import Match
from knowledge import objecthood
from parsers import Concept, SceneGraph

#: The score at or above which a record (and an edit) is called hallucinated; see the README
#: ("Choosing the threshold") for how it was chosen on the dev slices.
DEFAULT_THRESHOLD = 0.25


@dataclass(frozen=True)
class Weights:
    """The factors of the formulas in the module docstring (set on the dev slices of HAT and
    nocaps-FOIL; each is a plain probability-like factor)."""

    delete: float = 0.9  # w_D
    replace: float = 0.9  # w_R
    over: float = 0.6  # w_O
    wup0: float = 0.5  # wup_0
    dissim: float = 0.8  # b
    dissim0: float = 0.2  # best_0
    part: float = 0.3  # w_part
    stuff: float = 0.25  # w_stuff
    abstract: float = 0.2  # w_abstract
    hedge: float = 0.2  # w_hedge
    floor: float = 0.7  # f
    count: float = 0.6  # w_count
    number: float = 0.3  # w_number: plural where they only say one ("a" is a weaker claim than "one")
    attribute: float = 0.5  # w_attribute
    modifier: float = 0.2  # w_modifier: below the threshold, as silence is no contradiction
    contradict: float = 0.6  # w_contradict
    silent: float = 0.05  # w_silent
    silence_cap: float = 0.15  # s_max: all the silence of a record together, kept below the threshold


def _objecthood(c: Concept, w: Weights) -> float:
    return {"thing": 1.0, "part": w.part, "stuff": w.stuff}.get(objecthood(c.synset), w.abstract)


def _hedge(c: Concept, w: Weights) -> float:
    return w.hedge if c.uncertain else 1.0


def settle_by_support(caption: SceneGraph, image: SceneGraph, edits: list[Edit],
                      classes: dict[int, str | None], match: Match) -> tuple[list[Edit], dict, Match]:
    """Against references: drop the object edits of caption concepts the references support as a
    set of kinds (the one-to-one match may have paired them elsewhere), re-pointing each to its
    supporting entity when that is free, so that its triples are judged against it."""
    mapping = list(match.mapping)
    out: list[Edit] = []
    classes = dict(classes)
    for e in edits:
        if e.level == "object" and e.op != "insert" and e.cls in ("D", "R", "O"):
            support = type_support(caption.concepts[e.source_index], image)
            if support.kind == "same":
                classes[e.source_index] = None
                if support.index is not None and support.index not in mapping:
                    mapping[e.source_index] = support.index
                continue
        out.append(e)
    taken = set(mapping)
    inserted = [j for j in range(len(image.concepts)) if j not in taken]
    out = [e for e in out if not (e.op == "insert" and e.level == "object" and e.target_index not in inserted)]
    known = {e.target_index for e in out if e.op == "insert" and e.level == "object"}
    out += [Edit("insert", "object", "I", target=image.concepts[j].lemma, target_index=j)
            for j in inserted if j not in known]
    return out, classes, replace(match, mapping=mapping, inserted=inserted)


def _object(e: Edit, caption: SceneGraph, image: SceneGraph, w: Weights) -> tuple[float, dict]:
    """Confidence (before the salience factor) and evidence of an object edit."""
    c = caption.concepts[e.source_index]
    if image.kind != "references":
        if e.op == "delete":
            return 1.0, evidence_of(image, [], f"the image has no {c.lemma!r} and nothing left to stand for it")
        g = image.concepts[e.target_index]
        return 1.0, evidence_of(image, [e.target_index], f"the image has {g.lemma!r} where the caption says {c.lemma!r}")
    support = type_support(c, image)
    near = [support.index] if support.index is not None else []
    if support.kind == "over":
        s = w.over * min(max((1.0 - support.wup) / (1.0 - w.wup0), 0.0), 1.0)
        note = f"the references only say something more general: {image.concepts[support.index].lemma!r}"
    else:
        s = (w.delete if e.cls == "D" else w.replace) * (
            w.dissim + (1.0 - w.dissim) * min((1.0 - support.wup) / (1.0 - w.dissim0), 1.0))
        closest = f"; closest: {image.concepts[near[0]].lemma!r} (Wu-Palmer {support.wup:.2f})" if near else ""
        note = f"no reference mentions {c.lemma!r} or a kind of it{closest}"
    return s * _objecthood(c, w) * _hedge(c, w), evidence_of(image, near, note)


def _relation_evidence(image: SceneGraph, e: Edit, caption: SceneGraph) -> dict:
    if e.target_index is not None:
        t = image.relations[e.target_index]
        if image.kind == "references" and t.span:
            return {"references": [image.part_of(t.span[0])], "words": [image.text[t.span[0]:t.span[1]]],
                    "note": f"the references say {list(t.triple(image))}"}
        return {"objects": [image.concepts[t.subject].source_id or f"#{t.subject}",
                            image.concepts[t.object].source_id or f"#{t.object}"],
                "words": [t.predicate], "note": f"the image has {list(t.triple(image))}"}
    r = caption.relations[e.source_index]
    a, b = caption.concepts[r.subject].lemma, caption.concepts[r.object].lemma
    if image.kind == "references":
        return {"references": [], "words": [], "note": f"no reference says how {a!r} and {b!r} relate"}
    return {"objects": [], "words": [], "note": f"the image has no relation {r.canonical!r} between {a!r} and {b!r}"}


def judge(edits: Sequence[Edit], caption: SceneGraph, image: SceneGraph, classes: dict[int, str | None],
          weights: Weights | None = None, threshold: float = DEFAULT_THRESHOLD) -> float:
    """Fill in ``confidence``, ``hallucinated``, ``status``, ``evidence`` and ``caused_by`` of
    every edit (in place; ``caused_by`` indexes ``edits``) and return the record's score."""
    w = weights or Weights()
    partial = image.kind == "references"
    by_concept: dict[int, int] = {}  # caption concept -> index of its object edit
    raw: dict[int, float] = {}
    for k, e in enumerate(edits):
        if e.level != "object" or e.op == "insert":
            continue
        by_concept[e.source_index] = k
        if e.cls == "U":
            e.status, e.confidence = "suggestion", 0.0
            e.evidence = evidence_of(image, [e.target_index], "the image side is more specific")
            continue
        raw[k], e.evidence = _object(e, caption, image, w)
    if partial and raw:
        bad = sorted(edits[k].source_index for k in raw)
        standing = uncovered_salience(bad, caption.concepts, image, salience(image))
        for k in raw:
            raw[k] *= w.floor + (1.0 - w.floor) * standing[edits[k].source_index]
    for k, s in raw.items():
        edits[k].confidence = s
        edits[k].hallucinated = s >= threshold
        edits[k].status = "hallucinated" if edits[k].hallucinated else "unverified"

    def cause(*concepts: int) -> int | None:
        return next((k for i in concepts if (k := by_concept.get(i)) is not None and edits[k].hallucinated), None)

    for e in edits:
        if e.op == "insert":
            e.status, e.confidence, e.hallucinated = "suggestion", 0.0, False
            continue
        if e.level == "object":
            continue
        silent = False
        if e.level == "relation":
            r = caption.relations[e.source_index]
            e.evidence = e.evidence or _relation_evidence(image, e, caption)
            ends_known = classes.get(r.subject) != "?" and classes.get(r.object) != "?"
            if partial or not ends_known:
                e.confidence = w.contradict if e.cls == "R" else w.silent
                silent = e.target_index is None  # silence is never a hallucination, only a doubt
            else:
                ends_ok = all(classes.get(x) in (None, "U") for x in (r.subject, r.object))
                e.confidence = 1.0 if ends_ok else w.silent
            e.caused_by = cause(r.subject, r.object)
        else:
            c = caption.concepts[e.source_index]
            if e.level == "count":
                base = w.count if e.source != "several" else w.number
            else:
                base = w.modifier if e.op == "delete" else w.attribute
            e.confidence = (1.0 if not partial and e.op == "replace" else base) * _hedge(c, w)
            e.caused_by = cause(e.source_index)
        if e.caused_by is not None:
            e.status, e.hallucinated = "consequence", False
        else:
            e.hallucinated = not silent and e.confidence >= threshold
            e.status = "hallucinated" if e.hallucinated else "unverified"
    open_ = [e for e in edits if e.status in ("hallucinated", "unverified")]
    claims = sorted((e for e in open_ if not _silent(e)), key=lambda e: -e.confidence)
    score = round(1.0 - _silence(_keep([e for e in open_ if _silent(e)]), w) * _keep(claims), 6)
    if score >= threshold and claims:
        # The verdict rests on the most confident claims, as many as it takes for the doubts left
        # to fall below the threshold: the caption with those fixed is no longer hallucinated.
        # A triple of a replaced object outlives the fix (said of the image's object instead) as
        # a doubt as small as silence: counted in what is left. So does one whose deleted subject
        # leaves its object behind ("feathers with a mohawk": the mohawk goes to the parrot).
        kept = [e for e in edits if e.level == "relation" and e.status == "consequence"
                and _outlives(e, edits[e.caused_by], caption, cause)]
        silence = _silence(_keep([e for e in open_ if _silent(e)]) * (1.0 - w.silent) ** len(kept), w)
        rest = [e for e in claims if not e.hallucinated]
        while rest and (1.0 - silence * _keep(rest) >= threshold - 1e-9 or not any(e.hallucinated for e in claims)):
            e = rest.pop(0)
            e.hallucinated, e.status = True, "hallucinated"
            e.evidence = {**e.evidence, "note": (e.evidence.get("note") or "") + _WEAK}
    return score


_WEAK = "; weak on its own, marked because the verdict rests on it with the other doubts"


def _silence(keep: float, w: Weights) -> float:
    """What the silent triples leave of the score (a keep factor), capped: silence nudges the
    score, but however many triples the references are silent on, never up to the threshold."""
    return max(keep, 1.0 - w.silence_cap)


def _outlives(e: Edit, cause_edit: Edit, caption: SceneGraph, cause) -> bool:
    """Whether a consequence triple ``e`` stays in the caption once its cause is fixed."""
    if cause_edit.op == "replace":
        return True
    r = caption.relations[e.source_index]
    return cause_edit.source_index == r.subject and cause(r.object) is None


def _silent(e: Edit) -> bool:
    """A triple the image side says nothing about: unverified, with no image triple as target."""
    return e.level == "relation" and e.target_index is None and e.status == "unverified"


def _keep(edits: Sequence[Edit]) -> float:
    keep = 1.0
    for e in edits:
        keep *= 1.0 - e.confidence
    return keep
