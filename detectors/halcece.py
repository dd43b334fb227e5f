"""The HalCECE method as a detector: WordNet-costed graph edits -> a hallucination score and spans.

The caption is parsed into a scene graph and matched against the sample's annotation graph or,
when only reference captions are given, against the merged graph of the references
(:func:`parsers.from_references`), with word senses chosen by context (:mod:`cece.senses`). The
edits of :class:`cece.Explainer` are scored by :mod:`detectors.halcece_score`: every edited
caption word becomes a span with its severity and its class as label -- ``D``, ``R``, ``O`` for
objects, ``role-D`` / ``role-R`` for triples, ``count-R`` / ``number-R`` / ``colour-R`` for
contradicted attributes, ``modifier-D`` for a noun modifier naming a thing the image lacks,
``stray-D`` for a thing word the parser lost -- and the caption score is the noisy-OR of the
severities (sentences: the same within each sentence). ``details`` holds the counterfactual
caption. Deterministic: same sample, same Detection.

>>> det = HalCECEDetector()
>>> d = det.detect({"id": "a", "caption": "A cat on a sofa.", "annotation": ["dog", "sofa"]})
>>> [(s.text, s.label) for s in d.spans], d.score > 0.5
([('cat', 'R')], True)
>>> det.detect({"id": "b", "caption": "A dog on a sofa.", "annotation": ["dog", "sofa"]}).score
0.0
"""

from __future__ import annotations

from typing import Any, ClassVar, Sequence

from cece.api import Explainer
from cece.costs import CostModel
from detectors.base import BatchDetector, Detection, Sample
from detectors.halcece_evidence import reference_salience
from detectors.halcece_score import Severity, score_explanation
from detectors.text import sentence_scores
from parsers import AnnotationError


class HalCECEDetector(BatchDetector):
    """HalCECE against an annotation (preferred) or reference captions.

    Options: ``batch_size`` (captions parsed together), ``severity`` (a
    :class:`~detectors.halcece_score.Severity` or a dict of its fields), ``explain`` (also put
    the full explanation in ``details``).
    """

    name: ClassVar[str] = "halcece"

    def __init__(self, batch_size: int = 64, severity: Severity | dict[str, float] | None = None,
                 explain: bool = False, costs: CostModel | None = None, senses: str = "context") -> None:
        self.severity = severity if isinstance(severity, Severity) else Severity(**(severity or {}))
        self.explainer = Explainer(costs=costs, batch_size=batch_size, senses=senses)
        self.batch_size = batch_size
        self.explain = explain

    def missing(self, sample: Sample) -> str | None:
        if not isinstance(sample.get("caption"), str):
            return "sample has no 'caption' string"
        if sample.get("annotation") is None and not sample.get("references"):
            return "detector 'halcece' needs 'annotation' or 'references', which this sample lacks"
        return None

    def detect_batch(self, samples: Sequence[Sample]) -> list[Detection]:
        out, ok = self.partition(samples)
        graphs = self.explainer.parser.parse_many([samples[k]["caption"] for k in ok], self.batch_size)
        for k, graph in zip(ok, graphs):
            try:
                out[k] = self._detect(samples[k], graph)
            except AnnotationError as exc:
                out[k] = Detection.failed(samples[k], self.name, f"{exc.field}: {exc}")
            except Exception as exc:  # one sample's failure is its own
                out[k] = Detection.failed(samples[k], self.name, f"{type(exc).__name__}: {exc}")
        return out  # type: ignore[return-value]

    def _detect(self, sample: Sample, graph: Any) -> Detection:
        image = self.explainer.image_graph(sample.get("annotation"), sample.get("references"))
        e = self.explainer.explain_graphs(graph, image, id=str(sample["id"]))
        refs = sample.get("references") if sample.get("annotation") is None else None
        score, spans = score_explanation(e, self.severity, reference_salience(e.image_graph, refs))
        details: dict[str, Any] = {"counterfactual": e.counterfactual}
        if e.warnings:
            details["warnings"] = e.warnings
        if self.explain:
            details["explanation"] = e.to_dict()
        return Detection(id=str(sample["id"]), detector=self.name, score=score, spans=spans,
                         sentences=sentence_scores(e.caption, [(s.start, s.end, s.score) for s in spans],
                                                   combine="noisy_or"),
                         details=details)
