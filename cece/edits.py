"""From a node map to explained edits: object classes D/R/O/U/I and role (triple) classes D/R/I.

Object classes (caption concept ``c`` matched to image concept ``g``):

- ``D``  ``c`` is deleted: nothing in the image is closer to it than the root of WordNet.
- ``R``  ``c`` is replaced by ``g`` and neither synset is a hypernym of the other.
- ``O``  over-specialisation: ``LCA(c, g) = g``, the caption is more specific ("girl" for "woman").
- ``U``  under-specialisation: ``LCA(c, g) = c``, the caption is more generic ("food" for "pizza");
  a suggestion, not a hallucination.
- ``I``  an image concept the caption does not mention (an insertion suggestion).

Roles are triples. A caption triple is kept when its ends map faithfully (same concept or ``U``) to
the ends of an image triple with the same predicate. Otherwise it is ``D`` -- including collateral
from deleted or replaced ends -- unless a post-hoc step pairs it with an image triple not reached by
any caption triple that differs in exactly one position (subject, predicate or object under the node
map): that pair is a role ``R``. Image triples left over are ``I``.

>>> # see tests/test_core.py for worked examples, e.g. the paper's "dog on a lap"
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from cece.costs import relation_key
from cece.ged import Match
from knowledge import lowest_common_hypernym, wup_similarity
from parsers import Concept, SceneGraph, Span

HALLUCINATED_OBJECT_CLASSES = frozenset({"D", "R", "O"})


@dataclass
class Edit:
    """One edit that moves the caption towards the image.

    ``source``/``target`` are a concept lemma (object level) or a ``[subject, predicate, object]``
    triple (relation level); ``None`` on the side that does not exist (insert / delete).
    ``spans`` are char spans in the caption of the words the edit touches.
    """

    op: str  # "replace" | "delete" | "insert"
    level: str  # "object" | "relation" | "attribute"
    cls: str  # "D" | "R" | "O" | "U" | "I"
    source: Any = None
    target: Any = None
    cost: float = 0.0
    wup: float | None = None
    lca: str | None = None
    spans: list[Span] = field(default_factory=list)
    source_index: int | None = None  # caption node / relation index
    target_index: int | None = None  # image node / relation index

    @property
    def hallucinated(self) -> bool:
        """Whether the edit counts towards the hallucination rate of its level."""
        if self.level == "object":
            return self.cls in HALLUCINATED_OBJECT_CLASSES
        return self.cls in ("D", "R")

    def to_dict(self) -> dict[str, Any]:
        return {
            "op": self.op, "level": self.level, "class": self.cls,
            "source": self.source, "target": self.target, "cost": round(self.cost, 6),
            "wup": None if self.wup is None else round(self.wup, 6), "lca": self.lca,
            "spans": [list(s) for s in self.spans],
            "source_index": self.source_index, "target_index": self.target_index,
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> "Edit":
        return cls(op=d["op"], level=d["level"], cls=d["class"], source=d.get("source"),
                   target=d.get("target"), cost=d.get("cost", 0.0), wup=d.get("wup"), lca=d.get("lca"),
                   spans=[tuple(s) for s in d.get("spans", [])],
                   source_index=d.get("source_index"), target_index=d.get("target_index"))


def _same_concept(a: Concept, b: Concept) -> bool:
    if a.lemma.lower() == b.lemma.lower() or b.lemma.lower() in (x.lower() for x in a.alternatives):
        return True
    return a.synset is not None and a.synset == b.synset


def object_class(a: Concept, b: Concept) -> str | None:
    """Class of matching caption concept ``a`` to image concept ``b``: None (same), O, U or R."""
    if _same_concept(a, b):
        return None
    if a.synset and b.synset:
        lca = lowest_common_hypernym(a.synset, b.synset)
        if lca == b.synset:
            return "O"
        if lca == a.synset:
            return "U"
    return "R"


def object_edits(caption: SceneGraph, image: SceneGraph, match: Match,
                 sub, dele) -> tuple[list[Edit], dict[int, str | None]]:
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
            edits.append(Edit("delete", "object", "D", source=c.lemma, cost=float(dele[i]),
                              spans=list(c.spans), source_index=i))
            continue
        g = image.concepts[j]
        cls = object_class(c, g)
        classes[i] = cls
        if cls is None:
            continue
        wup = wup_similarity(c.synset, g.synset) if c.synset and g.synset else None
        lca = lowest_common_hypernym(c.synset, g.synset) if c.synset and g.synset else None
        edits.append(Edit("replace", "object", cls, source=c.lemma, target=g.lemma, cost=float(sub[i, j]),
                          wup=wup, lca=lca, spans=list(c.spans), source_index=i, target_index=j))
    for j in match.inserted:
        edits.append(Edit("insert", "object", "I", target=image.concepts[j].lemma, target_index=j))
    return edits, classes


def role_edits(caption: SceneGraph, image: SceneGraph, match: Match,
               classes: dict[int, str | None], substitute_cost: float = 1.0,
               delete_cost: float = 1.0) -> list[Edit]:
    """Triple-level edits under the node map (see the module docstring)."""
    mapping = match.mapping
    faithful = {i for i, cls in classes.items() if cls in (None, "U")}
    image_index = {}
    for k, r in enumerate(image.relations):
        image_index.setdefault((r.subject, relation_key(r.canonical), r.object), k)
    reached: set[int] = set()
    unmatched: list[int] = []
    for k, r in enumerate(caption.relations):
        key = (mapping[r.subject], relation_key(r.canonical), mapping[r.object])
        hit = image_index.get(key) if key[0] >= 0 and key[2] >= 0 else None
        if hit is not None and hit not in reached and r.subject in faithful and r.object in faithful:
            reached.add(hit)
        else:
            unmatched.append(k)

    edits: list[Edit] = []
    free = [k for k in range(len(image.relations)) if k not in reached]
    for k in unmatched:
        r = caption.relations[k]
        mapped = (mapping[r.subject], relation_key(r.canonical), mapping[r.object])
        best, best_diffs = None, 2
        for f in free:
            t = image.relations[f]
            diffs = (mapped[0] != t.subject) + (mapped[1] != relation_key(t.canonical)) + (mapped[2] != t.object)
            # An end that maps to its image node but is itself hallucinated still differs in words.
            if mapped[0] == t.subject and r.subject not in faithful:
                diffs += 1
            if mapped[2] == t.object and r.object not in faithful:
                diffs += 1
            if diffs < best_diffs:
                best, best_diffs = f, diffs
        spans = [s for s in (r.span,) if s] + caption.concepts[r.subject].spans + caption.concepts[r.object].spans
        if best is None:
            edits.append(Edit("delete", "relation", "D", source=list(r.triple(caption)), cost=delete_cost,
                              spans=spans, source_index=k))
        else:
            free.remove(best)
            edits.append(Edit("replace", "relation", "R", source=list(r.triple(caption)),
                              target=list(image.relations[best].triple(image)), cost=substitute_cost,
                              spans=spans, source_index=k, target_index=best))
    for f in free:
        edits.append(Edit("insert", "relation", "I", target=list(image.relations[f].triple(image)),
                          target_index=f))
    return edits
