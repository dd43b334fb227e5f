"""The explained edit (:class:`Edit`), and object edits from a node map: classes D/R/O/U/I.

Object classes (caption concept ``c`` matched to image concept ``g``):

- ``D``  ``c`` is deleted: nothing in the image is closer to it than the root of WordNet.
- ``R``  ``c`` is replaced by ``g`` and neither synset is a hypernym of the other.
- ``O``  over-specialisation: ``LCA(c, g) = g``, the caption is more specific ("girl" for "woman").
- ``U``  under-specialisation: ``LCA(c, g) = c``, the caption is more generic ("food" for "pizza");
  a suggestion, not a hallucination.
- ``I``  an image concept the caption does not mention (an insertion suggestion).

Roles are triples: a caption triple is kept, deleted (``D``) or replaced (``R``), an image triple
left over is inserted (``I``); :mod:`cece.role_edits` says when.

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
from cece.mass import said_name
from knowledge import another_name, lowest_common_hypernym, noun_synset, only_people, plain_person, wup_similarity
from parsers import Concept, SceneGraph, Span
from parsers.attribute_words import HEDGE_ADVERBS

HALLUCINATED_OBJECT_CLASSES: frozenset[EditClass] = frozenset({"D", "R", "O"})


@dataclass
class Edit:
    """One edit that moves the caption towards the image.

    ``level`` is ``object``, ``relation``, ``attribute`` (colour, size, material, a noun
    modifier) or ``count``. ``source``/``target`` are a concept lemma or attribute value, or a
    ``[subject, predicate, object]`` triple (relation level); ``None`` on the side that does not
    exist (insert / delete). ``spans`` are char spans of the caption words that are wrong: the
    noun phrase without its determiner, the modifier, or the predicate. ``extent`` is wider, for
    a hallucinated object the counterfactual takes out: the words that go with it ("the umpire
    behind him is watching him"); :attr:`marked` is what an explanation marks.

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
    extent: list[Span] = field(default_factory=list)

    @property
    def marked(self) -> list[Span]:
        """The caption words an explanation marks for this edit: its ``extent`` when it has one,
        else its ``spans``."""
        return self.extent or self.spans

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
            "extent": [list(s) for s in self.extent],
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
            extent=[tuple(s) for s in d.get("extent", [])],
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


def kinship(c: Concept, g: Concept) -> tuple[float | None, str | None]:
    """The Wu-Palmer similarity and lowest common hypernym of two concepts' synsets (None, None
    when either has none): what a replacement edit records of how close the pair is."""
    if not (c.synset and g.synset):
        return None, None
    return wup_similarity(c.synset, g.synset), lowest_common_hypernym(c.synset, g.synset)


def another_name_for(c: Concept, g: Concept) -> bool:
    """Whether concept ``c`` names a person concept ``g`` names too, by another name that can be
    theirs (:func:`knowledge.another_name`: "a kid" for a boy), with a word that names nothing but
    people (or is a plain word for one: "man", whatever else "man" can be): a word that is a
    person only in one of its senses ("a *bull*", "a *toaster*" beside a man) is no other name
    for them, whichever sense the context gave it."""
    if c.synset is None or g.synset is None or not another_name(c.synset, g.synset):
        return False
    return plain_person(noun_synset(c.lemma)) or only_people(c.lemma)


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
        wup, lca = kinship(c, g)
        edits.append(
            Edit(
                "replace",
                "object",
                cls,
                source=c.lemma,
                target=said_name(image, g),
                cost=float(sub[i, j]),
                wup=wup,
                lca=lca,
                spans=_spans(caption.text, c),
                source_index=i,
                target_index=j,
            )
        )
    for j in match.inserted:
        edits.append(Edit("insert", "object", "I", target=said_name(image, image.concepts[j]), target_index=j))
    return edits, classes
