"""The batching shared by detectors that ask a model (VLM or LLM) about each sample.

A :class:`ModelJudgeDetector` turns each sample into a *job* (a generator of model requests, see
:func:`detectors.backends.drive`); samples run in chunks of ``config.batch_size`` whose requests
go to the backend together. A sample the detector cannot take (``missing``) or whose job raised
gets an error detection; a setup failure (no server configured, model folder missing) is every
sample's error, never a crash. Every detection says ``details["parse_failures"]``.

Images (option ``images``): ``"always"`` sends a sample's image whenever the backend takes images
(a server that refuses it gives that sample an error); ``"never"`` judges against the references
only; ``"auto"`` (default) sends the image and, when the server answers that image input is not
supported (a text-only model), says so once on standard error and judges this sample and every
later one against its references (``details["images_refused"]`` keeps the server's words).

Whether a judge looked at its input at all shows across a run: :func:`judge_variation` says when
its answers (each detection's ``details["answers"]``) do not vary.

>>> from dataclasses import dataclass
>>> from detectors.base import Detection
>>> @dataclass
... class Config:
...     batch_size: int = 2
>>> class Length(ModelJudgeDetector):
...     name = "length"
...     config = Config()
...     def prepare(self, samples):
...         def job(s):
...             return Detection(id=s["id"], detector=self.name, score=len(s["caption"]) / 10)
...             yield  # a generator that asks nothing
...         return [job(s) for s in samples], None
>>> [d.score for d in Length().detect_batch([{"id": i, "caption": "A dog."} for i in "abc"])]
[0.6, 0.6, 0.6]
>>> make_config(Config, {"batch": 3})
Traceback (most recent call last):
...
TypeError: unknown option(s) batch; known: batch_size
"""

from __future__ import annotations

import re
import sys
from collections import Counter
from collections.abc import Hashable, Iterable, Sequence
from dataclasses import fields
from typing import Any

from detectors.backends import Backend, BackendError, drive
from detectors.backends.driver import Job
from detectors.backends.images import Evidence, sample_evidence
from detectors.base import BatchDetector, Detection, Sample

IMAGES = ("auto", "always", "never")
# What servers answer to an image sent to a text-only model (llama.cpp: "image input is not
# supported - hint: ... mmproj"; others: "does not support images", "vision is not supported").
IMAGES_REFUSED = re.compile(
    r"image input is not supported|(?:image|vision|multimodal)s?\b[^.]{0,40}\bnot supported"
    r"|does not (?:support|take|accept) images?|mmproj",
    re.I,
)
#: Fewer answers than this say nothing about a judge's variation.
MIN_ANSWERS = 8
#: The share of a run's answers one value may take before the judge is called degenerate.
DEGENERATE_SHARE = 0.9


def judge_variation(answers: Iterable[Hashable]) -> str | None:
    """A note when a judge's answers across a run do not vary -- one value for nearly all of them
    (at least :data:`DEGENERATE_SHARE` of at least :data:`MIN_ANSWERS`): such a judge did not look
    at its input, and scores computed from it say nothing about the captions. None otherwise.

    >>> judge_variation([73] * 30), judge_variation([73] * 29 + [40]), judge_variation(["yes", "no"] * 5)
    ('answers do not vary: 30 of 30 were 73', 'answers do not vary: 29 of 30 were 73', None)
    """
    counts = Counter(answers)
    n = sum(counts.values())
    if n < MIN_ANSWERS:
        return None
    value, top = counts.most_common(1)[0]
    return f"answers do not vary: {top} of {n} were {value}" if top >= DEGENERATE_SHARE * n else None


def detection_answers(d: Detection) -> list[Hashable]:
    """The judge's answers a detection records (``details["answers"]``), as hashable values."""
    found = d.details.get("answers") if isinstance(d.details, dict) else None
    return [a if isinstance(a, (str, int, float)) else str(a) for a in found] if isinstance(found, list) else []


def make_config(cls: type, options: dict[str, Any]) -> Any:
    """``cls(**options)`` with a clear message for an unknown option."""
    known = {f.name for f in fields(cls)}
    unknown = sorted(set(options) - known)
    if unknown:
        raise TypeError(f"unknown option(s) {', '.join(unknown)}; known: {', '.join(sorted(known))}")
    return cls(**options)


class ModelJudgeDetector(BatchDetector):
    """A detector whose samples are jobs against a model backend; subclasses define :meth:`prepare`
    and have a ``config`` with ``batch_size``."""

    config: Any
    _images_off: str | None = None  # the server's refusal of images, once heard ("auto")

    @property
    def backend(self) -> Backend:
        """The model server the jobs go to; each subclass builds its own on first use."""
        raise NotImplementedError

    @property
    def image_mode(self) -> str:
        """The ``images`` option in force: ``"never"`` once the server refused an image."""
        return "never" if self._images_off else self.config.images

    def _evidence(self, sample: Sample, images: str | None = None) -> Evidence:
        c = self.config
        try:
            return sample_evidence(
                sample,
                self.backend,
                image_root=c.image_root,
                use_references=c.use_references,
                allow_urls=c.allow_urls,
                images=images or self.image_mode,
            )
        except ValueError:
            if self._images_off and sample.get("image"):
                raise ValueError(
                    f"the server refused the image ({self._images_off[:200]}) and the sample has no references"
                ) from None
            raise

    def images_refused(self, sample: Sample, evidence: Evidence, answers: Sequence[Any]) -> tuple[Evidence, str] | None:
        """In ``"auto"`` mode, when the server refused the image of these answers' requests: the
        references to judge against instead and the server's words (said once per detector on
        standard error). Else None. No references: the sample's error, naming the refusal."""
        if evidence.kind != "image" or self.config.images != "auto":
            return None
        refusal = next((str(a) for a in answers if isinstance(a, BackendError) and IMAGES_REFUSED.search(str(a))), None)
        if refusal is None:
            return None
        if self._images_off is None:
            self._images_off = refusal
            print(
                f"{getattr(self, 'name', 'judge')}: the model server does not take images ({refusal[:200]}); "
                "judging against the samples' references instead (images=auto)",
                file=sys.stderr,
            )
        return self._evidence(sample, "never"), refusal[:300]

    def prepare(self, samples: Sequence[Sample]) -> tuple[list[Job], Backend | None]:
        """One job per sample (all of which the detector can take) and the backend they ask.
        May raise: the exception becomes each sample's error (see :meth:`setup_error`)."""
        raise NotImplementedError

    def setup_error(self, exc: Exception) -> str:
        """The error written on every sample of a chunk whose :meth:`prepare` raised."""
        return f"{type(exc).__name__}: {exc}"

    def detect_batch(self, samples: Sequence[Sample]) -> list[Detection]:
        out: list[Detection] = []
        size = self.config.batch_size
        for start in range(0, len(samples), size):
            out.extend(self._detect_chunk(samples[start : start + size]))
        return out

    def _detect_chunk(self, samples: Sequence[Sample]) -> list[Detection]:
        out, todo = self.partition(samples)
        try:
            jobs, backend = self.prepare([samples[i] for i in todo])
        except Exception as exc:
            error = self.setup_error(exc)
            return [
                d or Detection(id=str(s.get("id")), detector=self.name, error=error, details={"parse_failures": 0})
                for d, s in zip(out, samples, strict=True)
            ]
        for i, res in zip(todo, drive(jobs, backend), strict=True):
            out[i] = (
                res
                if isinstance(res, Detection)
                else Detection.failed(samples[i], self.name, f"{type(res).__name__}: {res}")
            )
        for d in out:
            d.details.setdefault("parse_failures", 0)  # type: ignore[union-attr]  # filled: a Detection each
        return out  # type: ignore[return-value]  # every slot was filled above
