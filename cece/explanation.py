"""The Explanation: what a caption gets wrong about an image and what would fix it.

Round-trips to JSON (``to_dict`` / ``from_dict``); this is what ``cece explain --format json``
writes, one object per caption.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from cece.edit_kinds import EditClass, Level, Status
from cece.edits import Edit
from cece.judge import DEFAULT_THRESHOLD
from cece.metrics import ObjectMetrics, RoleMetrics
from parsers import SceneGraph

#: What the image side is: an annotation (objects, a scene graph) or reference captions.
Mode = Literal["annotation", "references"]


@dataclass
class Explanation:
    """Edits, metrics and the counterfactual caption for one caption against one image graph.

    ``cost`` is the (approximate) graph edit distance of the chosen edit path: the summed cost of
    the node and relation edits. ``score`` (0-1) is how likely the caption hallucinates (the
    noisy-OR of its edits' confidences, :mod:`cece.judge`); ``hallucinated`` is whether any edit
    is a hallucination (confidence >= ``threshold``). ``mode`` is ``"annotation"`` or
    ``"references"``: what the image side is. ``warnings`` says what could not be judged (e.g.
    words WordNet does not know). ``counterfactual`` is the caption made faithful
    (:mod:`cece.counterfactuals.rewrite`), None when no grammatical rewrite exists (``counterfactual_note``
    says why); ``fixed_point`` whether explaining it against the same image finds no hallucination
    (None when nothing was rewritten).
    """

    caption: str
    caption_graph: SceneGraph
    image_graph: SceneGraph
    edits: list[Edit]
    objects: ObjectMetrics
    roles: RoleMetrics
    counterfactual: str | None
    cost: float = 0.0
    id: str | None = None
    model: str | None = None
    warnings: list[str] = field(default_factory=list)
    score: float = 0.0
    hallucinated: bool = False
    threshold: float = DEFAULT_THRESHOLD
    mode: Mode = "annotation"
    counterfactual_note: str | None = None
    fixed_point: bool | None = None

    def edits_of(
        self, level: Level | None = None, cls: EditClass | None = None, status: Status | None = None
    ) -> list[Edit]:
        """Edits filtered by level ("object", "relation", "attribute", "count"), class and/or
        status ("hallucinated", "unverified", "consequence", "suggestion")."""
        return [
            e
            for e in self.edits
            if (level is None or e.level == level)
            and (cls is None or e.cls == cls)
            and (status is None or e.status == status)
        ]

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "model": self.model,
            "caption": self.caption,
            "mode": self.mode,
            "score": self.score,
            "hallucinated": self.hallucinated,
            "threshold": self.threshold,
            "cost": round(self.cost, 6),
            "counterfactual": self.counterfactual,
            "counterfactual_note": self.counterfactual_note,
            "fixed_point": self.fixed_point,
            "edits": [e.to_dict() for e in self.edits],
            "metrics": {"objects": self.objects.to_dict(), "roles": self.roles.to_dict()},
            "caption_graph": self.caption_graph.to_dict(),
            "image_graph": self.image_graph.to_dict(),
            "warnings": list(self.warnings),
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Explanation:
        return cls(
            caption=d["caption"],
            caption_graph=SceneGraph.from_dict(d["caption_graph"]),
            image_graph=SceneGraph.from_dict(d["image_graph"]),
            edits=[Edit.from_dict(e) for e in d.get("edits", [])],
            objects=ObjectMetrics(**d["metrics"]["objects"]),
            roles=RoleMetrics(**d["metrics"]["roles"]),
            counterfactual=d.get("counterfactual", d["caption"]),
            cost=d.get("cost", 0.0),
            id=d.get("id"),
            model=d.get("model"),
            warnings=list(d.get("warnings", [])),
            score=d.get("score", 0.0),
            hallucinated=d.get("hallucinated", False),
            threshold=d.get("threshold", DEFAULT_THRESHOLD),
            mode=d.get("mode", "annotation"),
            counterfactual_note=d.get("counterfactual_note"),
            fixed_point=d.get("fixed_point"),
        )
