"""Fitted confidences: how likely an edit's words are wrong, and a caption hallucinated.

Against reference captions the confidence of a claim ``e`` (an object, relation, attribute or
count edit) is a logistic model of its evidence features ``x(e)`` (:mod:`cece.edit_features`)::

    confidence(e) = sigmoid(b + sum_f w_f * x_f(e))

and the record's score combines its claims' confidences, the triples the references are silent on
apart (silence is no contradiction, but many silent triples are weak evidence), what a caption
without any claim is worth, and how much the references leave unsaid (fewer references, more
room for a wrong word none of them contradicts, and less weight in what they do contradict)::

    s_claims = 1 - prod_{claims} (1 - confidence)          s_silent = 1 - prod_{silent} (1 - confidence)
    unsaid   = 1 - min(references, 10) / 10
    score    = sigmoid(a_0 + a_1 * logit(s_claims) + a_2 * s_silent + a_3 * [no claim]
                       + a_4 * unsaid + a_5 * [no claim] * unsaid + a_6 * logit(s_claims) * unsaid)

(``logit(s_claims)`` taken as 0 when there is no claim.)

Both are fitted (scikit-learn's ``LogisticRegression``) on labelled captions by
:mod:`benchmarks.calibrate` (``cece calibrate``), so they are probabilities: of the edits given
0.7, about 70 % are wrong on data like the training data. The fitted numbers, the threshold chosen
with them and how they were obtained travel together as one versioned JSON file; the one shipped in
the package is :data:`DEFAULT_MODEL_PATH`.

>>> m = default_model()
>>> 0.0 < m.threshold < 1.0 and set(m.coef) == set(FEATURES)
True
>>> c = m.confidence({"object deleted": 1.0, "dissimilarity": 0.9})
>>> 0.0 < c < 1.0
True
"""

from __future__ import annotations

import json
import math
import os
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from cece.edit_features import ADDED_LATER, FEATURES

#: The fitted model shipped with the package (see the README, "Choosing the threshold").
DEFAULT_MODEL_PATH = Path(__file__).with_name("data") / "confidence.json"
#: The format of the model file; a file of another format is refused.
FORMAT = "halcece-confidence/1"
_CLIP = 1e-4
#: The record model's terms (see the module docstring).
RECORD_TERMS = ("intercept", "claims", "silent", "none", "unsaid", "none x unsaid", "claims x unsaid")
#: Record terms a model file fitted before them lacks: they weigh nothing in it.
RECORD_ADDED_LATER = ("unsaid", "none x unsaid", "claims x unsaid")


def sigmoid(z: float) -> float:
    """1 / (1 + e^-z), without overflow."""
    if z >= 0:
        return 1.0 / (1.0 + math.exp(-z))
    ez = math.exp(z)
    return ez / (1.0 + ez)


def logit(p: float) -> float:
    """log(p / (1 - p)), ``p`` clipped to [1e-4, 1 - 1e-4]."""
    p = min(max(p, _CLIP), 1.0 - _CLIP)
    return math.log(p / (1.0 - p))


def noisy_or(confidences: Iterable[float]) -> float:
    """1 - prod(1 - c): the chance that at least one of independent claims is wrong.

    >>> noisy_or([0.5, 0.5])
    0.75
    """
    keep = 1.0
    for c in confidences:
        keep *= 1.0 - c
    return 1.0 - keep


def record_terms(claims: Sequence[float], silent: Sequence[float], references: int = 10) -> list[float]:
    """The record model's inputs: logit(s_claims) (0 without claims), s_silent, [no claim], unsaid,
    [no claim] x unsaid and logit(s_claims) x unsaid, for a caption judged against ``references``
    reference captions. Only the claims count, not the caption's length: a rewrite that drops a
    wrong word is not scored up for being shorter.

    >>> record_terms([], [], references=5)
    [0.0, 0.0, 1.0, 0.5, 0.5, 0.0]
    """
    none = float(not claims)
    unsaid = 1.0 - min(max(references, 1), 10) / 10
    claimed = logit(noisy_or(claims)) if claims else 0.0
    return [claimed, noisy_or(silent), none, unsaid, none * unsaid, claimed * unsaid]


@dataclass(frozen=True)
class ConfidenceModel:
    """A fitted confidence model (see the module docstring). ``coef`` maps every feature of
    :data:`cece.edit_features.FEATURES` to its weight; ``record`` holds ``intercept``, ``claims``,
    ``silent`` and ``none`` (a_0 ... a_3); ``threshold`` is the score at which a caption (and an edit) is
    called hallucinated; ``provenance`` says what it was fitted on and how well it did."""

    coef: dict[str, float]
    intercept: float
    record: dict[str, float]
    threshold: float
    provenance: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if any(f not in self.coef for f in ADDED_LATER):  # fitted before they existed: they weigh nothing
            object.__setattr__(self, "coef", self.coef | {f: 0.0 for f in ADDED_LATER if f not in self.coef})
        if any(k not in self.record for k in RECORD_ADDED_LATER):
            object.__setattr__(self, "record", {k: 0.0 for k in RECORD_ADDED_LATER} | self.record)
        missing = [f for f in FEATURES if f not in self.coef]
        unknown = [f for f in self.coef if f not in FEATURES]
        if missing or unknown:
            raise ValueError(f"confidence model: features missing {missing}, unknown {unknown}")
        if not 0.0 <= self.threshold <= 1.0:
            raise ValueError(f"confidence model: threshold must be in [0, 1], not {self.threshold!r}")
        for k in RECORD_TERMS:
            if k not in self.record:
                raise ValueError(f"confidence model: record.{k} missing")

    def logit(self, x: Mapping[str, float]) -> float:
        return self.intercept + sum(w * x.get(f, 0.0) for f, w in self.coef.items())

    def confidence(self, x: Mapping[str, float]) -> float:
        """The probability that the edit with features ``x`` points at wrong words."""
        return sigmoid(self.logit(x))

    def reasons(self, x: Mapping[str, float], top: int = 3) -> list[list[Any]]:
        """The features that move this edit's confidence most, as ``[name, contribution]`` pairs
        (contribution = weight x value, in log-odds; positive: towards "wrong")."""
        parts = [(f, self.coef[f] * v) for f, v in x.items() if f in self.coef and self.coef[f] * v]
        parts.sort(key=lambda p: -abs(p[1]))
        return [[f, round(c, 3)] for f, c in parts[:top]]

    def record_score(self, claims: Sequence[float], silent: Sequence[float] = (), references: int = 10) -> float:
        """The probability that a caption with these claim and silent-triple confidences, judged
        against ``references`` reference captions, is hallucinated."""
        r = self.record
        terms = record_terms(claims, silent, references)
        z = r["intercept"] + sum(r[k] * v for k, v in zip(RECORD_TERMS[1:], terms, strict=True))
        return sigmoid(z)

    def to_dict(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "threshold": self.threshold,
            "intercept": self.intercept,
            "coef": dict(self.coef),
            "record": dict(self.record),
            "provenance": self.provenance,
        }

    @classmethod
    def from_dict(cls, d: Mapping[str, Any], source: str = "model") -> ConfidenceModel:
        if not isinstance(d, Mapping) or d.get("format") != FORMAT:
            raise ValueError(f'{source}: not a halcece confidence model (expected "format": {FORMAT!r})')
        try:
            return cls(
                coef={k: float(v) for k, v in d["coef"].items()},
                intercept=float(d["intercept"]),
                record={k: float(v) for k, v in d["record"].items()},
                threshold=float(d["threshold"]),
                provenance=dict(d.get("provenance") or {}),
            )
        except (KeyError, TypeError, AttributeError, ValueError) as e:
            raise ValueError(f"{source}: {e}") from None

    def save(self, path: str | os.PathLike[str]) -> None:
        Path(path).write_text(json.dumps(self.to_dict(), indent=1) + "\n")


def load_model(path: str | os.PathLike[str]) -> ConfidenceModel:
    """A model file written by ``cece calibrate`` (or :meth:`ConfidenceModel.save`)."""
    try:
        data = json.loads(Path(path).read_text())
    except (OSError, json.JSONDecodeError) as e:
        raise ValueError(f"{path}: cannot read a confidence model: {e}") from None
    return ConfidenceModel.from_dict(data, str(path))


@lru_cache(maxsize=1)
def default_model() -> ConfidenceModel:
    """The model shipped with the package."""
    return load_model(DEFAULT_MODEL_PATH)


def resolve(model: ConfidenceModel | str | os.PathLike[str] | None) -> ConfidenceModel:
    """A model, a path to one, or None for :func:`default_model`."""
    if model is None:
        return default_model()
    if isinstance(model, ConfidenceModel):
        return model
    return load_model(model)
