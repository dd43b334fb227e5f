"""One interface for every hallucination detector, and the Detection it returns.

A detector names itself, says what a sample must carry (``references``, ``image``,
``annotation``), and implements ``detect``; ``detect_batch`` defaults to a loop and is overridden
where batching pays (parsing, embeddings, model calls). A failure on one sample becomes that
sample's ``error``, never an exception out of ``detect_batch``.

>>> class Always(Detector):
...     name = "always"
...     def detect(self, sample):
...         return Detection(id=sample["id"], detector=self.name, score=1.0)
>>> Always().detect_batch([{"id": "a", "caption": "A dog."}])[0].score
1.0
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any, ClassVar, Literal

Sample = dict[str, Any]  # {"id", "caption", "references"?, "image"?, "annotation"?}
#: What a detector may need a sample to carry besides its caption.
SampleField = Literal["references", "image", "annotation"]


@dataclass
class SpanScore:
    """A scored char span of the caption; ``label`` is e.g. an edit class (D, R, O) or a fact type;
    ``hallucinated``, for detectors that decide span by span, whether the detector calls these
    words hallucinated (the benchmarks then mark the span by it instead of by its score)."""

    start: int
    end: int
    text: str
    score: float
    label: str | None = None
    hallucinated: bool | None = None


@dataclass
class SentenceScore:
    start: int
    end: int
    score: float


@dataclass
class Detection:
    """What every detector returns for one sample (its contract: README.md, "Command line", `cece detect`).

    ``score`` is in [0, 1], higher = more likely hallucinated; offsets index the caption string.
    ``details`` holds detector-specific evidence (facts and verdicts, parse-failure counts...).
    Optional, for detectors that decide: ``hallucinated`` is the detector's verdict on the caption
    and ``threshold`` the score at or above which it calls a caption or span hallucinated (the
    benchmarks mark a span with it, else with their own threshold). ``to_dict`` leaves out
    ``details``, ``hallucinated`` and ``threshold`` when unset, so lines of detectors that do not
    use them are unchanged, and ``from_dict`` reads lines written before these fields existed.

    >>> d = Detection("a", "x", score=0.8, hallucinated=True, threshold=0.6)
    >>> Detection.from_dict(d.to_dict()) == d, sorted(Detection("a", "x", score=0.1).to_dict())
    (True, ['detector', 'error', 'id', 'score', 'sentences', 'spans'])
    """

    id: str | None  # None only on the error line of an input record whose id is bad (missing, a duplicate...)
    detector: str
    score: float | None = None
    spans: list[SpanScore] = field(default_factory=list)
    sentences: list[SentenceScore] = field(default_factory=list)
    error: str | None = None
    details: dict[str, Any] = field(default_factory=dict)
    hallucinated: bool | None = None  # the detector's verdict, when it gives one
    threshold: float | None = None  # the score from which it calls a caption / span hallucinated
    model: str | None = None  # the sample's model, when it names one (one input file per model)

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        if not self.details:
            d.pop("details")
        for span in d["spans"]:  # unset: lines of detectors that do not decide span by span stay as they were
            if span["hallucinated"] is None:
                span.pop("hallucinated")
        for key in ("hallucinated", "threshold", "model"):
            if d[key] is None:
                d.pop(key)
        return d

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Detection:
        verdict, threshold = d.get("hallucinated"), d.get("threshold")
        return cls(
            id=d["id"],
            detector=d["detector"],
            score=d.get("score"),
            spans=[SpanScore(**s) for s in d.get("spans", [])],
            sentences=[SentenceScore(**s) for s in d.get("sentences", [])],
            error=d.get("error"),
            details=d.get("details", {}),
            model=d.get("model"),
            hallucinated=None if verdict is None else bool(verdict),
            threshold=None if threshold is None else float(threshold),
        )

    @classmethod
    def failed(cls, sample: Sample, detector: str, error: str) -> Detection:
        model = sample.get("model")
        return cls(
            id=str(sample.get("id")), detector=detector, error=error, model=None if model is None else str(model)
        )


class Detector:
    """Base class of all detectors. Subclasses set ``name`` and ``requires`` and implement ``detect``."""

    name: ClassVar[str] = ""
    requires: ClassVar[tuple[SampleField, ...]] = ()  # fields a sample must carry, e.g. ("references",)

    def missing(self, sample: Sample) -> str | None:
        """Why this sample cannot be scored by this detector, or None."""
        if not isinstance(sample.get("caption"), str):
            return "sample has no 'caption' string"
        for key in self.requires:
            if not sample.get(key):
                return f"detector {self.name!r} needs '{key}', which this sample lacks"
        return None

    def partition(self, samples: Sequence[Sample]) -> tuple[list[Detection | None], list[int]]:
        """Results pre-filled with an error for each sample this detector cannot score, and the
        indices of the samples it can -- the first step of every batched ``detect_batch``."""
        out: list[Detection | None] = [None] * len(samples)
        ready = []
        for k, s in enumerate(samples):
            reason = self.missing(s)
            if reason:
                out[k] = Detection.failed(s, self.name, reason)
            else:
                ready.append(k)
        return out, ready

    def load(self) -> None:
        """Load the detector's models now rather than inside its first batch (a run's workers
        call it at start-up). Optional: detectors load lazily; the default loads nothing."""

    def detect(self, sample: Sample) -> Detection:
        raise NotImplementedError

    def detect_batch(self, samples: Sequence[Sample]) -> list[Detection]:
        """Score many samples; a sample that fails gets an ``error`` instead of stopping the batch."""
        out = []
        for s in samples:
            reason = self.missing(s)
            if reason:
                out.append(Detection.failed(s, self.name, reason))
                continue
            try:
                out.append(self.detect(s))
            except Exception as exc:  # one bad sample must not take the run down
                out.append(Detection.failed(s, self.name, f"{type(exc).__name__}: {exc}"))
        return out


class BatchDetector(Detector):
    """A detector whose real work is batched (one parse, one embedding or model pass per batch):
    it implements ``detect_batch``, and ``detect`` is a batch of one."""

    def detect(self, sample: Sample) -> Detection:
        return self.detect_batch([sample])[0]

    def detect_batch(self, samples: Sequence[Sample]) -> list[Detection]:
        raise NotImplementedError


def load_or_defer(detector: Detector) -> None:
    """``detector.load()``; if that fails, nothing: the models are tried again in the first
    batch, whose samples then carry the failure as their errors (a run does not stop for it)."""
    with contextlib.suppress(Exception):  # any failure is reported by the first batch instead
        detector.load()


def iter_ok(detections: Iterable[Detection]) -> Iterable[Detection]:
    """Detections that carry a score (no error)."""
    return (d for d in detections if d.error is None and d.score is not None)
