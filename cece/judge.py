"""The verdict on every edit: how sure, hallucinated or not, on what evidence.

Against an annotation (a complete scene graph, the HalCECE paper's setting) an object or triple
edit of class D, R or O is a hallucination with confidence 1, and so is an attribute or count the
annotation contradicts; a hedged mention ("possibly a cat") is only a doubt (:data:`HEDGED`).
Against reference captions, which are partial and paraphrased, each claim's confidence is the
fitted probability that its words are wrong, from its evidence features
(:mod:`cece.edit_features`, :mod:`cece.confidence`), and its ``evidence`` names the features that
weighed most (``"reasons"``). A triple the references are silent on, and a claim they are split on
(as many say otherwise as agree, :mod:`cece.agreement`), is *unverified*, whatever its confidence:
silence is no contradiction, and a split makes no fact. So is a claim the caption hedges
("possibly a cat", "a cat, possibly looking *at the camera*"; ``evidence["hedged"]``): the caption
offers it as a guess, not as what the image shows, as against an annotation.

An attribute, count or triple of an object that is itself hallucinated is its ``consequence``
(``caused_by``, never hallucinated: one mistake is reported once). The record's score is the
fitted record probability of :meth:`cece.confidence.ConfidenceModel.record_score` over its other
edits (suggestions, U and I, count for nothing), and the record is hallucinated when
``score >= threshold`` and some edit other than a silent triple contributes to it. The edits it
rests on are marked ``hallucinated``: every edit whose own confidence reaches the threshold, then
the most confident others until the record score of the doubts left (``unverified``) stays below
it -- so the caption with its hallucinated edits undone is no longer hallucinated (where the
rewrite, explained again, still finds one of the caption's claims wrong, the counterfactual's
fixed point marks that one too: :mod:`cece.counterfactuals.fixed_point`). So a record is
hallucinated exactly when one of its edits is, and a caption whose only doubts are silent triples
is never called hallucinated (its score still ranks it).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any

from cece.confidence import ConfidenceModel, default_model, noisy_or
from cece.edit_features import Context, edit_features
from cece.edits import Edit, another_name_for, kinship
from cece.evidence import evidence_of, type_support
from cece.ged import Match
from cece.mass import said_name
from knowledge.meronymy import names_a_part_of
from parsers import Concept, SceneGraph

#: The score at or above which a record (and an edit) is called hallucinated: the threshold
#: fitted with the shipped confidence model (README, "Choosing the threshold").
DEFAULT_THRESHOLD = default_model().threshold
#: Against an annotation: the confidence of a hedged mention ("possibly a cat"), and of a triple
#: that is wrong only because an end is -- doubts, below any sensible threshold.
HEDGED = 0.2
DOUBT = 0.05


def settle_by_support(
    caption: SceneGraph, image: SceneGraph, edits: list[Edit], *, classes: dict[int, str | None], match: Match
) -> tuple[list[Edit], dict[int, str | None], Match]:
    """Against references: drop the object edits of caption concepts the references support as a
    set of kinds (the one-to-one match may have paired them elsewhere), re-pointing each to its
    supporting entity when that is free, so that its triples are judged against it. A deleted
    concept the references name only more generally is over-specific (class O) instead: "a boy"
    where they say "a child", whom the match gave to the caption's "girls"."""
    mapping = list(match.mapping)
    out: list[Edit] = []
    classes = dict(classes)
    for e in edits:
        if e.level == "object" and e.cls in ("D", "R", "O"):  # an insertion is of class I
            support = type_support(caption.concepts[e.caption_index], image)
            if support.kind == "same":
                classes[e.caption_index] = None
                if support.index is not None and support.index not in mapping:
                    mapping[e.caption_index] = support.index
                continue
            if support.kind == "over" and e.cls == "D" and support.index is not None:
                e = _over_specific(e, caption, image, support.index)
                classes[e.caption_index] = "O"
                if support.index not in mapping:
                    mapping[e.caption_index] = support.index
        out.append(e)
    taken = set(mapping)
    inserted = [j for j in range(len(image.concepts)) if j not in taken]
    out = [e for e in out if not (e.op == "insert" and e.level == "object" and e.target_index not in inserted)]
    known = {e.target_index for e in out if e.op == "insert" and e.level == "object"}
    out += [
        Edit("insert", "object", "I", target=said_name(image, image.concepts[j]), target_index=j)
        for j in inserted
        if j not in known
    ]
    return out, classes, replace(match, mapping=mapping, inserted=inserted)


def _over_specific(e: Edit, caption: SceneGraph, image: SceneGraph, j: int) -> Edit:
    """Deletion ``e`` as the over-specific replacement by image concept ``j``, which names it more
    generally."""
    g = image.concepts[j]
    wup, lca = kinship(caption.concepts[e.caption_index], g)
    return replace(e, op="replace", cls="O", target=said_name(image, g), target_index=j, wup=wup, lca=lca)


def _object_evidence(e: Edit, caption: SceneGraph, image: SceneGraph) -> dict[str, Any]:
    """What an object edit rests on, in words."""
    c = caption.concepts[e.caption_index]
    if image.kind != "references":
        if e.op == "delete":
            return evidence_of(image, [], f"the image has no {c.lemma!r} and nothing left to stand for it")
        g = image.concepts[e.image_index]
        return evidence_of(image, [e.image_index], f"the image has {g.lemma!r} where the caption says {c.lemma!r}")
    support = type_support(c, image)
    near = [support.index] if support.index is not None else []
    if support.kind == "over" and e.cls == "R" and e.image_index not in (None, support.index):
        # paired with what they relate alike (cece.stand_ins.prefer_stand_ins), not the general word
        name = said_name(image, image.concepts[e.image_index])
        note = f"in its place the references name {name!r}; more generally they say {support.word!r}"
        return evidence_of(image, [e.image_index], note)
    if support.kind == "over":
        note = f"the references only say something more general: {support.word!r}"
    elif e.op == "delete" and (whole := _whole_of(c, image)) is not None:  # "the floor" where they see a room
        note = f"no reference mentions {c.lemma!r}, a part of the {said_name(image, image.concepts[whole])!r} they name"
        near = [whole]
    else:
        closest = f"; closest: {support.word!r} (Wu-Palmer {support.wup:.2f})" if near else ""
        note = f"no reference mentions {c.lemma!r} or a kind of it{closest}"
    if e.op == "replace" and e.image_index is not None and image.concepts[e.image_index].lemma != support.word:
        # the rewrite puts the matched thing in its place, not the closest kind: say both
        note += f"; in its place: {said_name(image, image.concepts[e.image_index])!r}"
        near = [e.image_index, *(j for j in near if j != e.image_index)]
    return evidence_of(image, near, note)


def _whole_of(c: Concept, image: SceneGraph) -> int | None:
    """The first image concept ``c`` names a part of (:func:`knowledge.meronymy.names_a_part_of`)."""
    return next((j for j, g in enumerate(image.concepts) if names_a_part_of(c.synset, g.synset, c.lemma)), None)


def _relation_evidence(image: SceneGraph, e: Edit, caption: SceneGraph) -> dict[str, Any]:
    if e.target_index is not None:
        t = image.relations[e.target_index]
        if image.kind == "references" and t.span:
            return {
                "references": [image.part_of(t.span[0])],
                "words": [image.text[t.span[0] : t.span[1]]],
                "note": f"the references say {list(t.triple(image))}",
            }
        return {
            "objects": [
                image.concepts[t.subject].source_id or f"#{t.subject}",
                image.concepts[t.object].source_id or f"#{t.object}",
            ],
            "words": [t.predicate],
            "note": f"the image has {list(t.triple(image))}",
        }
    r = caption.relations[e.caption_index]
    a, b = caption.concepts[r.subject].lemma, caption.concepts[r.object].lemma
    if image.kind == "references":
        return {"references": [], "words": [], "note": f"no reference says how {a!r} and {b!r} relate"}
    return {"objects": [], "words": [], "note": f"the image has no relation {r.canonical!r} between {a!r} and {b!r}"}


def _another_name(caption: SceneGraph, image: SceneGraph, e: Edit) -> bool:
    """Whether object edit ``e`` names a person the image side names too, by another name
    (:func:`cece.edits.another_name_for`)."""
    if e.caption_index is None or e.target_index is None:
        return False
    return another_name_for(caption.concepts[e.caption_index], image.concepts[e.target_index])


def judge(
    edits: Sequence[Edit],
    caption: SceneGraph,
    image: SceneGraph,
    *,
    classes: dict[int, str | None],
    model: ConfidenceModel | None = None,
    threshold: float | None = None,
) -> float:
    """Fill in ``confidence``, ``hallucinated``, ``status``, ``evidence`` and ``caused_by`` of
    every edit (in place; ``caused_by`` indexes ``edits``) and return the record's score.
    ``model`` defaults to the shipped one, ``threshold`` to its threshold."""
    model = model or default_model()
    threshold = model.threshold if threshold is None else threshold
    partial = image.kind == "references"
    ctx = Context.of(list(edits), caption, image) if partial else None
    by_concept: dict[int, int] = {}  # caption concept -> index of its object edit
    for k, e in enumerate(edits):
        if e.level != "object" or e.op == "insert":
            continue
        by_concept[e.caption_index] = k
        if e.cls == "U":
            e.status, e.confidence = "suggestion", 0.0
            e.evidence = evidence_of(image, [e.image_index], "the image side is more specific")
            continue
        if partial and e.cls == "R" and _another_name(caption, image, e):
            # references name people partially: "a rider" where they see a man is not wrong
            e.status, e.confidence = "suggestion", 0.0
            e.evidence = evidence_of(image, [e.image_index], "another name for whom the references see")
            continue
        e.evidence = _object_evidence(e, caption, image)
        if ctx is not None:
            e.confidence = _fitted(e, ctx, model)
            if _caption_hedges(e, caption):
                e.evidence = _hedged(e.evidence)
                e.status = "unverified"
                continue
        else:
            e.confidence = HEDGED if caption.concepts[e.caption_index].uncertain else 1.0
        e.hallucinated = e.confidence >= threshold
        e.status = "hallucinated" if e.hallucinated else "unverified"

    def cause(*concepts: int) -> int | None:
        return next((k for i in concepts if (k := by_concept.get(i)) is not None and edits[k].hallucinated), None)

    for e in edits:
        if e.op == "insert":
            e.status, e.confidence, e.hallucinated = "suggestion", 0.0, False
            continue
        if e.level == "object":
            continue
        # silence is never a hallucination, only a doubt
        if e.level == "relation":
            r = caption.relations[e.caption_index]
            e.evidence = e.evidence or _relation_evidence(image, e, caption)
            if ctx is not None:
                if _caption_hedges(e, caption):
                    e.evidence = _hedged(e.evidence)
                silent = undecided(e)
                e.confidence = _fitted(e, ctx, model)
            else:
                ends_known = classes.get(r.subject) != "?" and classes.get(r.object) != "?"
                ends_ok = all(classes.get(x) in (None, "U") for x in (r.subject, r.object))
                e.confidence = 1.0 if ends_known and ends_ok else DOUBT
                silent = not ends_known and e.target_index is None
            # a state is the subject's own: wrong whatever becomes of the other end
            state = (e.evidence.get("agreement") or {}).get("kind") == "state"
            e.caused_by = cause(r.subject) if state else cause(r.subject, r.object)
        else:
            if ctx is not None:
                if _caption_hedges(e, caption):
                    e.evidence = _hedged(e.evidence)
                silent = undecided(e)
                e.confidence = _fitted(e, ctx, model)
            else:
                hedged = caption.concepts[e.caption_index].uncertain
                e.confidence = HEDGED if hedged else (1.0 if e.op == "replace" else DOUBT)
                silent = False
            e.caused_by = cause(e.caption_index)
        if e.caused_by is not None:
            e.status, e.hallucinated = "consequence", False
        else:
            e.hallucinated = not silent and e.confidence >= threshold
            e.status = "hallucinated" if e.hallucinated else "unverified"
    open_ = [e for e in edits if e.status in ("hallucinated", "unverified")]
    claims = sorted((e for e in open_ if not _silent(e)), key=lambda e: -e.confidence)
    silent_ = [e.confidence for e in open_ if _silent(e)]
    references = len(image.parts) or 1
    if partial:
        score = round(model.record_score([e.confidence for e in claims], silent_, references), 6)
    else:
        # The paper's setting: every D/R/O edit is certain, so the score is their noisy-OR.
        score = round(noisy_or([e.confidence for e in claims] + silent_), 6)
    if score >= threshold and claims:
        # The verdict rests on the most confident claims, as many as it takes for the doubts left
        # to fall below the threshold: the caption with those fixed is no longer hallucinated.
        # A triple of a replaced object outlives the fix (said of the image's object instead) as
        # a doubt as small as silence: counted in what is left. So does one whose deleted subject
        # leaves its object behind ("feathers with a mohawk": the mohawk goes to the parrot).
        kept = [
            e.confidence
            for e in edits
            if e.level == "relation"
            and e.status == "consequence"
            and e.caused_by is not None
            and _outlives(e, edits[e.caused_by], caption=caption, cause=cause)
        ]

        def left_over(rest: list[Edit]) -> float:
            doubts = [e.confidence for e in rest]
            if partial:
                return model.record_score(doubts, silent_ + kept, references)
            return noisy_or(doubts + silent_ + [DOUBT] * len(kept))

        rest = [e for e in claims if not e.hallucinated]
        while rest and (left_over(rest) >= threshold - 1e-9 or not any(e.hallucinated for e in claims)):
            e = rest.pop(0)
            e.hallucinated, e.status = True, "hallucinated"
            e.evidence = {**e.evidence, "note": (e.evidence.get("note") or "") + _WEAK}
    return score


def _fitted(e: Edit, ctx: Context, model: ConfidenceModel) -> float:
    """The model's confidence in claim ``e``; its main reasons go into its evidence."""
    x = edit_features(e, ctx)
    e.evidence = {**e.evidence, "reasons": model.reasons(x)}
    return model.confidence(x)


_WEAK = "; weak on its own, marked because the verdict rests on it with the other doubts"


def _caption_hedges(e: Edit, caption: SceneGraph) -> bool:
    """Whether the caption hedges what claim ``e`` is about: its concept, or an end of its triple."""
    if e.level == "relation":
        r = caption.relations[e.caption_index]
        return caption.concepts[r.subject].uncertain or caption.concepts[r.object].uncertain
    return caption.concepts[e.caption_index].uncertain


def _hedged(evidence: dict[str, Any]) -> dict[str, Any]:
    """``evidence`` of a claim the caption hedges: a doubt, never a hallucination of its own."""
    note = (evidence.get("note") or "") + "; the caption hedges it: a guess, not a claim"
    return {**evidence, "hedged": True, "note": note.lstrip("; ")}


def _outlives(e: Edit, cause_edit: Edit, *, caption: SceneGraph, cause: Callable[..., int | None]) -> bool:
    """Whether a consequence triple ``e`` stays in the caption once its cause is fixed."""
    if cause_edit.op == "replace":
        return True
    r = caption.relations[e.caption_index]
    return cause_edit.source_index == r.subject and cause(r.object) is None


def undecided(e: Edit) -> bool:
    """Whether claim ``e`` is left open: a triple the image side says nothing about (no image
    triple as target), a claim the references are split on, or one the caption hedges."""
    agreement = e.evidence.get("agreement")
    split = isinstance(agreement, dict) and agreement.get("verdict") == "split"
    return split or bool(e.evidence.get("hedged")) or (e.level == "relation" and e.target_index is None)


def _silent(e: Edit) -> bool:
    """A claim the image side leaves open (:func:`undecided`), judged unverified."""
    return undecided(e) and e.status == "unverified"
