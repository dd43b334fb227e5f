"""An ensemble of detectors: a weighted mean of member scores, with their spans merged.

``members`` lists detectors as ``{"name": <registered detector>, **its options}`` (or Detector
instances); ``weights`` (default: equal) weighs them. A member that fails on a sample is recorded
in ``details["members"]`` and the ensemble scores from the others; only when every member fails
does the sample get an ``error``.

Spans that overlap are merged into one span whose score is the weighted mean, over the members
that scored the sample, of each member's highest overlapping span score (a member that marked
nothing there counts 0). Sentences are the caption's (:func:`parsers.sentences.split_sentences`),
each averaged over the members that scored a sentence overlapping it, so the ensemble never
reports overlapping sentences.

>>> from detectors.base import Detection, Detector
>>> class Fixed(Detector):
...     name = "fixed"
...     def __init__(self, value): self.value = value
...     def detect(self, s): return Detection(id=s["id"], detector=self.name, score=self.value)
>>> EnsembleDetector(members=[Fixed(0.2), Fixed(1.0)], weights=[3, 1]).detect(
...     {"id": "a", "caption": "A dog."}).score
0.4
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from detectors import registry
from detectors.base import BatchDetector, Detection, Detector, Sample, SentenceScore, SpanScore, load_or_defer
from parsers.sentences import split_sentences


class EnsembleDetector(BatchDetector):
    """Options: ``members`` (list of ``{"name": ..., **options}`` or Detectors), ``weights``."""

    name = "ensemble"

    def __init__(self, members: Sequence[Any] = (), weights: Sequence[float] | None = None) -> None:
        if not members:
            raise ValueError("an ensemble needs members, e.g. members=[{'name': 'halcece'}, {'name': 'vlm'}]")
        self.members: list[Detector] = [self._member(m) for m in members]
        if weights is None:
            weights = [1.0] * len(self.members)
        if len(weights) != len(self.members) or any(w < 0 for w in weights) or not sum(weights):
            raise ValueError("weights must be one non-negative number per member, not all zero")
        self.weights = [float(w) for w in weights]
        names = [m.name for m in self.members]
        # Two members of one kind (two VLM configs) stay apart in the details.
        self.labels = [n if names.count(n) == 1 else f"{n}#{names[: i + 1].count(n)}" for i, n in enumerate(names)]

    @staticmethod
    def _member(spec: Any) -> Detector:
        if isinstance(spec, Detector):
            return spec
        if isinstance(spec, dict) and "name" in spec:
            options = {k: v for k, v in spec.items() if k != "name"}
            return registry.create(spec["name"], **options)
        raise TypeError(f"an ensemble member must be a Detector or {{'name': ..., **options}}, not {spec!r}")

    def load(self) -> None:
        for m in self.members:
            load_or_defer(m)

    def detect_batch(self, samples: Sequence[Sample]) -> list[Detection]:
        per_member = []
        for m in self.members:  # each member batches its own way
            try:
                per_member.append(m.detect_batch(samples))
            except Exception as exc:  # a broken member must not take the ensemble down
                per_member.append([Detection.failed(s, m.name, f"{type(exc).__name__}: {exc}") for s in samples])
        out = []
        for i, s in enumerate(samples):
            reason = Detector.missing(self, s)
            out.append(
                Detection.failed(s, self.name, reason) if reason else self._combine(s, [dets[i] for dets in per_member])
            )
        return out

    def _combine(self, sample: Sample, dets: list[Detection]) -> Detection:
        caption = sample["caption"]
        report = [
            {"member": lab, "weight": w, "score": d.score, "error": d.error}
            for lab, w, d in zip(self.labels, self.weights, dets, strict=True)
        ]
        ok = [(w, d) for w, d in zip(self.weights, dets, strict=True) if d.error is None and d.score is not None]
        details: dict[str, Any] = {"members": report}
        failures = [d.details.get("parse_failures") for d in dets if isinstance(d.details.get("parse_failures"), int)]
        if failures:
            details["parse_failures"] = sum(failures)
        total = sum(w for w, _ in ok)
        if not ok or total == 0:
            errors = "; ".join(f"{r['member']}: {r['error']}" for r in report)
            return Detection(
                id=str(sample.get("id")), detector=self.name, details=details, error=f"every member failed: {errors}"
            )
        score = sum((w * (d.score or 0.0) for w, d in ok), 0.0) / total  # every d in ok has a score
        return Detection(
            id=str(sample.get("id")),
            detector=self.name,
            score=score,
            spans=_merge_spans(caption, ok, total),
            sentences=_merge_sentences(caption, ok),
            details=details,
        )


def _merge_spans(caption: str, ok: list[tuple[float, Detection]], total: float) -> list[SpanScore]:
    ranges = sorted((s.start, s.end) for _, d in ok for s in d.spans)
    groups: list[list[int]] = []
    for a, b in ranges:
        if groups and a < groups[-1][1]:
            groups[-1][1] = max(groups[-1][1], b)
        else:
            groups.append([a, b])
    out = []
    for a, b in groups:
        score, labels = 0.0, list[str]()
        for w, d in ok:
            hits = [s for s in d.spans if s.start < b and s.end > a]
            if hits:
                score += w * max(s.score for s in hits)
                labels.extend(s.label for s in hits if s.label and s.label not in labels)
        out.append(SpanScore(a, b, caption[a:b], score / total, ",".join(labels) or None))
    return out


def _merge_sentences(caption: str, ok: list[tuple[float, Detection]]) -> list[SentenceScore]:
    """The caption's sentences (the one splitter's), each the weighted mean over the members that
    scored it of the member's highest score on a sentence overlapping it: members that cut
    sentences their own way still give one score per sentence, never overlapping ones."""
    out = []
    for a, b in split_sentences(caption):
        value = weight = 0.0
        for w, d in ok:
            hits = [s.score for s in d.sentences if s.start < b and s.end > a]
            if hits:
                value += w * max(hits)
                weight += w
        if weight > 0:
            out.append(SentenceScore(a, b, value / weight))
    return out
