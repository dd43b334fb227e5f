"""From a node map to explained edits: object classes D/R/O/U/I and role (triple) classes D/R/I.

Object classes (caption concept ``c`` matched to image concept ``g``):

- ``D``  ``c`` is deleted: nothing in the image is closer to it than the root of WordNet.
- ``R``  ``c`` is replaced by ``g`` and neither synset is a hypernym of the other.
- ``O``  over-specialisation: ``LCA(c, g) = g``, the caption is more specific ("girl" for "woman").
- ``U``  under-specialisation: ``LCA(c, g) = c``, the caption is more generic ("food" for "pizza");
  a suggestion, not a hallucination.
- ``I``  an image concept the caption does not mention (an insertion suggestion).

Roles are triples. A caption triple is kept when its ends map faithfully (same concept or ``U``) to
the ends of an image triple whose predicate agrees (:func:`knowledge.predicates_agree`: "with" and
"holding" agree). Otherwise it is ``D`` -- including collateral from deleted or replaced ends --
unless a post-hoc step pairs it with an image triple not reached by any caption triple that differs
in exactly one position (subject, predicate or object under the node map): that pair is a role
``R``. Image triples left over are ``I``.

Against reference captions, which are partial, a triple between two faithful ends is only wrong
when the references *contradict* it (:mod:`cece.roles`): the same two entities in a spatially
opposite relation (:func:`knowledge.predicates_contradict`) or one whose verb excludes the
caption's, or the subject in a state that excludes the caption's whatever the other end ("a man
*standing* by his car" where the references see him sitting in it); and only when more references
say so than agree. A triple they do not state either way is ``unverified``.

Every edit carries how sure it is (``confidence``), whether it counts as a hallucination, what it
rests on (``evidence``) and, for a triple wrong only because an end is, the edit of that end
(``caused_by``); :mod:`cece.judge` fills these in.

>>> # see tests/test_core.py for worked examples, e.g. the paper's "dog on a lap"
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from cece.edit_kinds import EditClass, Level, Op, Status
from cece.evidence import same_thing
from cece.ged import Match
from cece.roles import Judged, judge_against_references
from knowledge import (
    canonicals_agree,
    inverse_key,
    is_animate,
    lowest_common_hypernym,
    predicates_agree,
    relation_key,
    wup_similarity,
)
from parsers import Concept, Relation, SceneGraph, Span
from parsers.attribute_words import HEDGE_ADVERBS

HALLUCINATED_OBJECT_CLASSES: frozenset[EditClass] = frozenset({"D", "R", "O"})


@dataclass
class Edit:
    """One edit that moves the caption towards the image.

    ``level`` is ``object``, ``relation``, ``attribute`` (colour, size, material, a noun
    modifier) or ``count``. ``source``/``target`` are a concept lemma or attribute value, or a
    ``[subject, predicate, object]`` triple (relation level); ``None`` on the side that does not
    exist (insert / delete). ``spans`` are char spans of the caption words that are wrong: the
    noun phrase without its determiner, the modifier, or the predicate.

    ``confidence`` (0-1) is how likely the source words are hallucinated; ``hallucinated`` is
    ``confidence >= threshold`` of the record; ``status`` one of :data:`cece.edit_kinds.STATUSES`; ``evidence``
    what the judgement rests on (annotation object ids, or reference indices and the words they
    used, and a ``note``); ``caused_by`` the index (in the explanation's edit list) of the edit
    this one only follows from.
    """

    op: Op
    level: Level
    cls: EditClass
    source: Any = None
    target: Any = None
    cost: float = 0.0
    wup: float | None = None
    lca: str | None = None
    spans: list[Span] = field(default_factory=list)
    source_index: int | None = None  # caption node / relation index
    target_index: int | None = None  # image node / relation index
    confidence: float = 0.0
    hallucinated: bool = False
    status: Status = "unverified"
    evidence: dict[str, Any] = field(default_factory=dict)
    caused_by: int | None = None

    @property
    def caption_index(self) -> int:
        """``source_index``, for an edit with a caption side (every edit but an insertion)."""
        if self.source_index is None:
            raise ValueError(f"a {self.op} edit at {self.level} level has no caption side")
        return self.source_index

    @property
    def image_index(self) -> int:
        """``target_index``, for an edit with an image side (a replacement or an insertion)."""
        if self.target_index is None:
            raise ValueError(f"a {self.op} edit at {self.level} level has no image side")
        return self.target_index

    def to_dict(self) -> dict[str, Any]:
        return {
            "op": self.op,
            "level": self.level,
            "class": self.cls,
            "source": self.source,
            "target": self.target,
            "cost": round(self.cost, 6),
            "wup": None if self.wup is None else round(self.wup, 6),
            "lca": self.lca,
            "spans": [list(s) for s in self.spans],
            "source_index": self.source_index,
            "target_index": self.target_index,
            "confidence": round(self.confidence, 6),
            "hallucinated": self.hallucinated,
            "status": self.status,
            "evidence": self.evidence,
            "caused_by": self.caused_by,
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Edit:
        return cls(
            op=d["op"],
            level=d["level"],
            cls=d["class"],
            source=d.get("source"),
            target=d.get("target"),
            cost=d.get("cost", 0.0),
            wup=d.get("wup"),
            lca=d.get("lca"),
            spans=[tuple(s) for s in d.get("spans", [])],
            source_index=d.get("source_index"),
            target_index=d.get("target_index"),
            confidence=d.get("confidence", 0.0),
            hallucinated=d.get("hallucinated", False),
            status=d.get("status", "unverified"),
            evidence=d.get("evidence") or {},
            caused_by=d.get("caused_by"),
        )


# Words that open a noun phrase without being what it claims: its edit points past them.
_LEADING = (
    frozenset(
        [
            "a",
            "an",
            "the",
            "this",
            "that",
            "these",
            "those",
            "some",
            "any",
            "his",
            "her",
            "its",
            "their",
            "my",
            "your",
            "our",
            "another",
            "each",
            "every",
            "no",
            "one's",
        ]
    )
    | HEDGE_ADVERBS
)


def phrase_span(text: str, c: Concept) -> Span | None:
    """The concept's noun phrase without its leading determiners and hedges ("a small dog" ->
    "small dog", "possibly a cat" -> "cat"), never shorter than its head; None for a concept
    without spans.

    >>> phrase_span("A small dog.", Concept("dog", "dog", spans=[(8, 11)], phrase_span=(0, 11)))
    (2, 11)
    """
    if not c.spans:
        return None
    head = c.spans[0]
    a, b = c.phrase_span or head
    if not (a <= head[0] and head[1] <= b):
        return head
    while a < head[0]:
        m = re.match(r"[\s,]*([\w']+)[\s,]*", text[a : head[0]])
        if not m or m.group(1).lower() not in _LEADING:
            break
        a += m.end()
    return (a, b)


def object_class(a: Concept, b: Concept) -> EditClass | None:
    """Class of matching caption concept ``a`` to image concept ``b``: None (same), O, U or R."""
    if same_thing(a, b):
        return None
    if a.synset and b.synset:
        lca = lowest_common_hypernym(a.synset, b.synset)
        if lca == b.synset:
            return "O"
        if lca == a.synset:
            return "U"
    return "R"


def _spans(text: str, c: Concept) -> list[Span]:
    """The first mention's phrase, then the head of every re-mention ("the dog")."""
    span = phrase_span(text, c)
    return [span, *c.spans[1:]] if span else []


def object_edits(
    caption: SceneGraph, image: SceneGraph, match: Match, *, sub: np.ndarray, dele: np.ndarray
) -> tuple[list[Edit], dict[int, str | None]]:
    """Object-level edits, and the class of every caption node (None when faithful)."""
    edits: list[Edit] = []
    classes: dict[int, str | None] = {}
    for i, j in enumerate(match.mapping):
        c = caption.concepts[i]
        if j < 0:
            if c.synset is None:
                # WordNet does not know the word: it cannot be judged, so it is not a claim of ours.
                classes[i] = "?"
                continue
            classes[i] = "D"
            edits.append(
                Edit(
                    "delete",
                    "object",
                    "D",
                    source=c.lemma,
                    cost=float(dele[i]),
                    spans=_spans(caption.text, c),
                    source_index=i,
                )
            )
            continue
        g = image.concepts[j]
        cls = object_class(c, g)
        classes[i] = cls
        if cls is None:
            continue
        wup = wup_similarity(c.synset, g.synset) if c.synset and g.synset else None
        lca = lowest_common_hypernym(c.synset, g.synset) if c.synset and g.synset else None
        edits.append(
            Edit(
                "replace",
                "object",
                cls,
                source=c.lemma,
                target=g.lemma,
                cost=float(sub[i, j]),
                wup=wup,
                lca=lca,
                spans=_spans(caption.text, c),
                source_index=i,
                target_index=j,
            )
        )
    for j in match.inserted:
        edits.append(Edit("insert", "object", "I", target=image.concepts[j].lemma, target_index=j))
    return edits, classes


def _predicate_span(caption: SceneGraph, r: Relation) -> list[Span]:
    return [r.span] if r.span else []


def role_edits(
    caption: SceneGraph,
    image: SceneGraph,
    match: Match,
    *,
    classes: dict[int, str | None],
    substitute_cost: float = 1.0,
    delete_cost: float = 1.0,
) -> list[Edit]:
    """Triple-level edits under the node map (see the module docstring). Predicates are compared
    whole (:func:`knowledge.canonicals_agree`: "sit on" is not "stand on"), and "X with Y" / "X
    has Y" is supported by any relation between the two, either way round ("a desk with a
    computer" by "a computer on a desk"). Against references (:mod:`cece.roles`), a triple whose
    ends both map is kept when the references' tally agrees with it, replaced (``R``) when more
    of them contradict it -- the pair's predicate, or the subject's state whatever the other end
    -- and else left for the judge to call unverified (a ``D`` edit without target)."""
    mapping = match.mapping
    faithful = {i for i, cls in classes.items() if cls in (None, "U")}
    partial = image.kind == "references"
    by_pair: dict[tuple[int, int], list[int]] = {}
    for k, t in enumerate(image.relations):
        by_pair.setdefault((t.subject, t.object), []).append(k)
    reached: set[int] = set()
    unmatched: list[int] = []
    decided: dict[int, Judged] = {}
    for k, r in enumerate(caption.relations):
        s, o = mapping[r.subject], mapping[r.object]
        if s < 0 or o < 0 or r.subject not in faithful or r.object not in faithful:
            unmatched.append(k)
            continue
        forward = by_pair.get((s, o), [])
        backward = by_pair.get((o, s), [])
        if relation_key(r.canonical) == "have" and (forward or backward):
            # "with" / "has" says only that the two go together: any relation says as much
            reached.add(next((f for f in forward + backward if f not in reached), (forward + backward)[0]))
            continue
        if partial:
            judged = judge_against_references(caption, image, r, s=s, o=o, forward=forward, backward=backward)
            if judged.target is None and judged.tally is None:
                reached.update(judged.agree[:1])
                if judged.agree:
                    continue
            else:
                decided[k] = judged
            unmatched.append(k)
            continue
        animate = is_animate(caption.concepts[r.subject].synset)
        agree = [f for f in forward if canonicals_agree(r.canonical, image.relations[f].canonical, animate)]
        inv = inverse_key(relation_key(r.canonical))
        agree += [
            b for b in backward if inv is not None and predicates_agree(inv, relation_key(image.relations[b].canonical))
        ]
        hit = next((f for f in agree if f not in reached), None)
        if hit is not None:
            reached.add(hit)
            continue
        unmatched.append(k)

    edits: list[Edit] = []
    free = [k for k in range(len(image.relations)) if k not in reached]
    for k in unmatched:
        r = caption.relations[k]
        decision = decided.get(k)
        best = (
            (decision.target if decision else None)
            if partial
            else _pair_post_hoc(caption, image, r, mapping, faithful, free)
        )
        spans = _predicate_span(caption, r)
        if best is None:
            edits.append(
                Edit(
                    "delete",
                    "relation",
                    "D",
                    source=list(r.triple(caption)),
                    cost=delete_cost,
                    spans=spans,
                    source_index=k,
                    evidence=decision.evidence(image) if decision else {},
                )
            )
        else:
            if best in free:
                free.remove(best)
            target = list(image.relations[best].triple(image))
            if decision and decision.predicate:
                target = [
                    image.concepts[mapping[r.subject]].lemma,
                    decision.predicate,
                    image.concepts[mapping[r.object]].lemma,
                ]
            edits.append(
                Edit(
                    "replace",
                    "relation",
                    "R",
                    source=list(r.triple(caption)),
                    target=target,
                    cost=substitute_cost,
                    spans=spans,
                    source_index=k,
                    target_index=best,
                    evidence=decision.evidence(image) if decision else {},
                )
            )
    for f in free:
        edits.append(Edit("insert", "relation", "I", target=list(image.relations[f].triple(image)), target_index=f))
    return edits


def _pair_post_hoc(
    caption: SceneGraph, image: SceneGraph, r: Relation, mapping: list[int], faithful: set[int], free: list[int]
) -> int | None:
    """The free image triple differing from caption triple ``r`` in exactly one position under the
    node map (an end that maps to its image node but is itself wrong still differs in words)."""
    mapped = (mapping[r.subject], relation_key(r.canonical), mapping[r.object])
    best, best_diffs = None, 2
    for f in free:
        t = image.relations[f]
        animate = is_animate(caption.concepts[r.subject].synset)
        diffs = (
            (mapped[0] != t.subject)
            + (not canonicals_agree(r.canonical, t.canonical, animate))
            + (mapped[2] != t.object)
        )
        if mapped[0] == t.subject and r.subject not in faithful:
            diffs += 1
        if mapped[2] == t.object and r.object not in faithful:
            diffs += 1
        if diffs < best_diffs:
            best, best_diffs = f, diffs
    return best
