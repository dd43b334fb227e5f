"""CHAIR (Rohrbach et al., 2018) as a detector: COCO objects the caption mentions but the image
does not have.

The image's COCO categories come from the sample's annotation when it has one (its object labels,
read with the same synonym table), else from its reference captions
(:func:`parsers.coco_objects.coco_categories`); ``ground_truth="union"`` takes both, as the
published CHAIR does on COCO (segmentation labels and the five reference captions). A caption
mention is hallucinated when its category is not among them. Per sample: ``score`` = the
caption's CHAIRi (hallucinated mentions / mentions, 0 without mentions), ``hallucinated`` = any
mention is, a span (score 1, label ``object``) on each hallucinated mention, and in ``details``
the ``mentions`` and ``hallucinated_objects`` (lists of ``{word, category, span}``), the image's
``categories`` and which ``ground_truth`` gave them. The benchmark layer pools these into CHAIRs
and CHAIRi (:mod:`benchmarks.chair_metrics`).

>>> d = CHAIRDetector().detect({"id": "a", "caption": "A dog and two cats on a sofa.",
...                             "references": ["A puppy on a couch."]})
>>> d.score, d.hallucinated, [s.text for s in d.spans]
(0.333333, True, ['cats'])
>>> CHAIRDetector(ground_truth="union").detect({"id": "b", "caption": "A man and a dog.",
...     "annotation": ["dog"], "references": ["A man walks his dog."]}).details["categories"]
['dog', 'person']
"""

from __future__ import annotations

from typing import Any, ClassVar

from detectors.base import Detection, Detector, Sample, SpanScore
from detectors.sentence_scores import sentence_scores
from parsers import to_scene_graph
from parsers.coco_objects import coco_categories, coco_mentions, synonyms

GROUND_TRUTHS = ("auto", "union")


class CHAIRDetector(Detector):
    """CHAIR against the sample's annotation (preferred) or reference captions, or both
    (``ground_truth="union"``)."""

    name: ClassVar[str] = "chair"

    def __init__(self, ground_truth: str = "auto") -> None:
        if ground_truth not in GROUND_TRUTHS:
            raise ValueError(f"ground_truth must be one of {', '.join(GROUND_TRUTHS)}, not {ground_truth!r}")
        self.ground_truth = ground_truth

    def missing(self, sample: Sample) -> str | None:
        why = super().missing(sample)
        if why is None and sample.get("annotation") is None and not sample.get("references"):
            why = f"detector {self.name!r} needs 'annotation' or 'references', which this sample lacks"
        return why

    def detect(self, sample: Sample) -> Detection:
        if (why := self.missing(sample)) is not None:
            return Detection.failed(sample, self.name, why)
        caption = sample["caption"]
        image, sources = self._image_categories(sample)
        mentions = coco_mentions(caption)
        wrong = [m for m in mentions if m.category not in image]
        spans = [SpanScore(a, b, caption[a:b], 1.0, "object") for a, b in (m.span for m in wrong)]
        return Detection(
            id=str(sample["id"]),
            detector=self.name,
            score=round(len(wrong) / len(mentions), 6) if mentions else 0.0,
            spans=spans,
            sentences=sentence_scores(caption, [(s.start, s.end, s.score) for s in spans]),
            details={
                "mentions": [m.to_dict() for m in mentions],
                "hallucinated_objects": [m.to_dict() for m in wrong],
                "categories": sorted(image),
                "ground_truth": "+".join(sources),
            },
            hallucinated=bool(wrong),
        )

    def _image_categories(self, sample: Sample) -> tuple[set[str], list[str]]:
        """The image's COCO categories and the sources they came from."""
        found: set[str] = set()
        sources: list[str] = []
        if sample.get("annotation") is not None:
            found |= instance_categories(sample["annotation"])
            sources.append("annotation")
        if sample.get("references") and (not sources or self.ground_truth == "union"):
            found |= coco_categories(_strings(sample["references"]))
            sources.append("references")
        return found, sources


def instance_categories(annotation: Any) -> set[str]:
    """The COCO categories of an image's annotation. COCO instances (``{"annotations",
    "categories"}``) are read as the published CHAIR reads them: each instance's category name
    through the synonym table, without parsing it; other annotations by their objects' names."""
    if (
        isinstance(annotation, dict)
        and isinstance(annotation.get("categories"), list)
        and isinstance(annotation.get("annotations"), list)
    ):
        names = {c.get("id"): c.get("name") for c in annotation["categories"] if isinstance(c, dict)}
        table = synonyms()
        found = set()
        for ann in annotation["annotations"]:
            name = names.get(ann.get("category_id")) if isinstance(ann, dict) else None
            if isinstance(name, str):
                found |= {table[name.lower()]} if name.lower() in table else coco_categories([name])
        return found
    graph = to_scene_graph(annotation=annotation)
    return coco_categories(name for c in graph.concepts for name in (c.text, *c.names()))


def _strings(references: Any) -> list[str]:
    if isinstance(references, str) or not all(isinstance(r, str) for r in references):
        raise ValueError("'references' must be a list of strings")
    return list(references)
