"""The HalCECE method as a detector: a thin adapter over :class:`cece.Explainer`.

``cece explain``, ``cece.explain(...)`` and ``cece detect -d halcece`` give the same verdict and
score for the same record: the detector runs the core's explanation (against the sample's
annotation, or its reference captions) and reports the explanation's ``score``, ``hallucinated``
and ``threshold``. Every edit that is a claim -- hallucinated or unverified, not a consequence of
another edit or a suggestion -- becomes a span on the words it marks
(:attr:`cece.edits.Edit.marked`: for a hallucinated object the counterfactual takes out, all the
words that go with it) with the edit's own confidence as score, ``level-class`` as label
(``object-D``, ``count-R``, ``relation-R``...) and the edit's verdict as the span's
``hallucinated``: the words the explanation marks are the words the benchmarks count as marked.
An edit marked hallucinated only because the caption's verdict rests on it with other weak
doubts keeps its weak score (the ranking metrics use scores), but is marked: a caption called
hallucinated always shows the words it is called so for. Sentences get the noisy-OR of their
spans.
``details`` holds the counterfactual caption. Deterministic: same sample, same Detection.

>>> det = HalCECEDetector()
>>> d = det.detect({"id": "a", "caption": "A cat on a sofa.", "annotation": ["dog", "sofa"]})
>>> [(s.text, s.label) for s in d.spans], d.hallucinated, d.score
([('cat', 'object-R')], True, 1.0)
>>> det.detect({"id": "b", "caption": "A dog on a sofa.", "annotation": ["dog", "sofa"]}).score
0.0
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

from cece.api import Explainer, Senses
from cece.confidence import ConfidenceModel
from cece.costs import CostModel
from cece.explanation import Explanation
from cece.records import RecordError
from detectors.base import BatchDetector, Detection, Sample, SpanScore
from detectors.sentence_scores import sentence_scores


def explanation_spans(e: Explanation) -> list[SpanScore]:
    """The claims of an explanation as scored, labelled caption spans (see the module docstring)."""
    spans = []
    for edit in e.edits:
        if edit.status not in ("hallucinated", "unverified") or edit.confidence <= 0:
            continue
        score = edit.confidence
        for a, b in edit.marked:
            spans.append(
                SpanScore(a, b, e.caption[a:b], round(score, 6), f"{edit.level}-{edit.cls}", bool(edit.hallucinated))
            )
    return sorted(spans, key=lambda s: (s.start, s.end))


class HalCECEDetector(BatchDetector):
    """HalCECE against an annotation (preferred) or reference captions.

    Options: ``batch_size`` (captions parsed together), ``threshold`` and ``weights`` (the
    fitted confidence model: a :class:`cece.confidence.ConfidenceModel`, the path of a file
    ``cece calibrate`` wrote, or that file's content) as in :class:`cece.Explainer`,
    ``senses``, ``explain`` (also put the full explanation in ``details``).
    """

    name: ClassVar[str] = "halcece"

    def __init__(
        self,
        batch_size: int = 64,
        threshold: float | None = None,
        weights: ConfidenceModel | str | dict[str, Any] | None = None,
        explain: bool = False,
        costs: CostModel | None = None,
        senses: Senses = "context",
    ) -> None:
        if isinstance(weights, dict):
            weights = ConfidenceModel.from_dict(weights, "option halcece.weights")
        self.explainer = Explainer(
            costs=costs, batch_size=batch_size, senses=senses, threshold=threshold, weights=weights
        )
        self.batch_size = batch_size
        self.explain = explain

    def load(self) -> None:
        self.explainer.load()

    def missing(self, sample: Sample) -> str | None:
        if not isinstance(sample.get("caption"), str):
            return "sample has no 'caption' string"
        if sample.get("annotation") is None and not sample.get("references"):
            return "detector 'halcece' needs 'annotation' or 'references', which this sample lacks"
        return None

    def detect_batch(self, samples: Sequence[Sample]) -> list[Detection]:
        """The samples explained as ``cece explain`` explains a batch of records
        (:meth:`cece.api.Explainer.explain_batch`: captions and references parsed together,
        reference graphs kept for the batches that follow, counterfactuals settled together)."""
        out, ok = self.partition(samples)
        results = self.explainer.explain_batch([(k, {**samples[k], "id": str(samples[k].get("id"))}) for k in ok])
        for k, result in zip(ok, results, strict=True):
            if isinstance(result, RecordError):
                out[k] = Detection.failed(
                    samples[k],
                    self.name,
                    result.message if result.field == "explain" else f"{result.field}: {result.message}",
                )
            else:
                out[k] = self._detection(samples[k], result)
        return out  # type: ignore[return-value]  # every slot was filled above

    def _detection(self, sample: Sample, e: Explanation) -> Detection:
        spans = explanation_spans(e)
        details: dict[str, Any] = {"counterfactual": e.counterfactual, "mode": e.mode}
        if e.counterfactual_note:
            details["counterfactual_note"] = e.counterfactual_note
        if e.warnings:
            details["warnings"] = e.warnings
        if self.explain:
            details["explanation"] = e.to_dict()
        return Detection(
            id=str(sample["id"]),
            detector=self.name,
            score=e.score,
            spans=spans,
            sentences=sentence_scores(e.caption, [(s.start, s.end, s.score) for s in spans], combine="noisy_or"),
            details=details,
            hallucinated=e.hallucinated,
            threshold=e.threshold,
        )
