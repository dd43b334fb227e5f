"""The batching shared by detectors that ask a model (VLM or LLM) about each sample.

A :class:`ModelJudgeDetector` turns each sample into a *job* (a generator of model requests, see
:func:`detectors.backends.drive`); samples run in chunks of ``config.batch_size`` whose requests
go to the backend together. A sample the detector cannot take (``missing``) or whose job raised
gets an error detection; a setup failure (no server configured, model folder missing) is every
sample's error, never a crash. Every detection says ``details["parse_failures"]``.

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

from dataclasses import fields
from typing import Any, Sequence

from detectors.backends import Backend, drive
from detectors.backends.driver import Job
from detectors.base import BatchDetector, Detection, Sample


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
            out.extend(self._detect_chunk(samples[start:start + size]))
        return out

    def _detect_chunk(self, samples: Sequence[Sample]) -> list[Detection]:
        out, todo = self.partition(samples)
        try:
            jobs, backend = self.prepare([samples[i] for i in todo])
        except Exception as exc:
            error = self.setup_error(exc)
            return [d or Detection(id=str(s.get("id")), detector=self.name, error=error,
                                   details={"parse_failures": 0}) for d, s in zip(out, samples)]
        for i, res in zip(todo, drive(jobs, backend)):
            out[i] = res if isinstance(res, Detection) else Detection.failed(
                samples[i], self.name, f"{type(res).__name__}: {res}")
        for d in out:
            d.details.setdefault("parse_failures", 0)  # type: ignore[union-attr]
        return out  # type: ignore[return-value]
