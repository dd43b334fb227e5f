"""Fit the confidence model of :mod:`cece.confidence` on labelled captions.

Labelled captions are HAT files (word labels, ``grounding``), nocaps-FOIL files (a clean and a
foiled caption per record) or what :mod:`benchmarks.generate` writes from reference sets (HAT's
shape). Each caption is explained against its references; every claim it gets becomes one row:
its evidence features (:mod:`cece.edit_features`) and label 1 when its words overlap a labelled
hallucinated word. nocaps-FOIL labels only the swapped object, so of its captions only the
object claims (and noun modifiers, where a foil word may sit) are labelled rows; their other
claims still count in their caption's score. Then:

1. the edit model, a logistic regression of the labels on the features (scikit-learn, L2, its
   strength chosen by grouped cross-validation over records: the strongest whose out-of-fold
   log loss is within one standard error of the best, claim by claim, :func:`strongest_within_se`);
2. the record model, a logistic regression of the caption labels on its terms
   (:func:`cece.confidence.record_terms`) from out-of-fold edit confidences, so that it learns
   how far the edit model's confidences can be trusted on unseen captions;
3. the threshold: the record score that maximises the balanced accuracy of the verdicts on the
   out-of-fold record scores.

Out-of-fold figures (AUROC, expected calibration error, balanced accuracy) go into the model's
``provenance`` with what it was fitted on, so a model file says how it came about.

>>> rows = [Row("r1", dict.fromkeys(FEATURES, 0.0) | {"object deleted": 1.0}, 1)]
>>> rows[0].label
1
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from benchmarks.loaders import foil as foil_loader
from benchmarks.loaders import hat as hat_loader
from benchmarks.loaders.common import CaptionGold, DataError, benchmark_records
from benchmarks.metrics import auroc, expected_calibration_error, spans_overlap
from cece.api import Explainer
from cece.confidence import RECORD_TERMS, ConfidenceModel, record_terms
from cece.edit_features import FEATURES, Context, edit_features
from cece.explanation import Explanation
from cece.judge import undecided
from cece.records import RecordError

#: The L2 strengths tried (scikit-learn's ``C``, the inverse of the penalty).
C_GRID = (0.01, 0.1, 1.0, 10.0)
FOLDS = 5


@dataclass
class Row:
    """One claim: its record, features and label (1 = its words are labelled hallucinated)."""

    record: str
    x: dict[str, float]
    label: int
    silent: bool = False
    labelled: bool = True  # False: the data say nothing of these words (fitted on no such row)


@dataclass
class Record:
    """One labelled caption, the indices of its claim rows, its image (captions of one image
    share their references, so cross-validation keeps them in one fold) and how many references
    it was judged against."""

    id: str
    label: int
    rows: list[int] = field(default_factory=list)
    image: str | None = None
    references: int = 10


#: The claims each format labels (level, or level and op): HAT and generated files label every word.
LABELLED = {"hat": None, "foil": {"object", ("attribute", "delete")}}


def read_labelled(path: str | os.PathLike) -> tuple[list[dict], dict[str, CaptionGold], str]:
    """Samples, gold labels and format (``"hat"`` or ``"foil"``) of a HAT-shaped or
    nocaps-FOIL-shaped file (told apart by the first record's keys: ``grounding`` or
    ``baseline`` / ``foil``)."""
    first = next((rec for _, rec in benchmark_records(path)), None)
    if not isinstance(first, dict):
        raise DataError(path, "record 1", "file", "expected labelled captions (HAT or nocaps-FOIL records)")
    if "grounding" in first:
        kind, (samples, gold) = "hat", hat_loader.load(path)
    elif "baseline" in first and "foil" in first:
        kind, (samples, gold) = "foil", foil_loader.load(path)
    else:
        raise DataError(
            path,
            "record 1",
            "file",
            "expected HAT records (caption, grounding, references) or "
            "nocaps-FOIL records (baseline, foil, replacement, references)",
        )
    prefix = Path(path).stem
    samples = [{**s, "id": f"{prefix}/{s['id']}"} for s in samples]
    gold = {f"{prefix}/{k}": g for k, g in gold.items()}
    return samples, gold, kind


def claims(e: Explanation) -> list:
    """The edits of an explanation that are claims: not insertions, not U suggestions."""
    return [x for x in e.edits if x.op != "insert" and x.cls != "U" and x.status != "suggestion"]


def collect(
    explainer: Explainer,
    samples: Sequence[dict],
    gold: dict[str, CaptionGold],
    *,
    labelled=None,
    progress: Callable[[int], object] | None = None,
) -> tuple[list[Row], list[Record]]:
    """Explain every sample against its references; one :class:`Row` per claim. ``labelled``
    (a value of :data:`LABELLED`) says which claims the gold labels speak of (None: all)."""
    rows: list[Row] = []
    records: list[Record] = []
    for k, e in enumerate(explainer.explain_many(samples)):
        if progress:
            progress(1)
        if isinstance(e, RecordError) or e.mode != "references":
            continue
        g = gold[samples[k]["id"]]
        rec = Record(str(samples[k]["id"]), g.label, image=g.image, references=len(e.image_graph.parts) or 1)
        ctx = Context.of(e.edits, e.caption_graph, e.image_graph)
        for x in claims(e):
            label = int(any(spans_overlap(s, t) for s in x.spans for t in g.spans))
            rec.rows.append(len(rows))
            known = labelled is None or x.level in labelled or (x.level, x.op) in labelled
            rows.append(Row(rec.id, edit_features(x, ctx), label, silent=undecided(x), labelled=known))
        records.append(rec)
    return rows, records


def _matrix(rows: Sequence[Row]) -> np.ndarray:
    return np.array([[r.x[f] for f in FEATURES] for r in rows], dtype=float)


def _record_matrix(records: Sequence[Record], rows: Sequence[Row], conf: np.ndarray) -> np.ndarray:
    out = []
    for rec in records:
        claim = [conf[i] for i in rec.rows if not rows[i].silent]
        silent = [conf[i] for i in rec.rows if rows[i].silent]
        out.append(record_terms(claim, silent, rec.references))
    return np.array(out, dtype=float).reshape(-1, len(RECORD_TERMS) - 1)


def _balanced_accuracy(y: np.ndarray, pred: np.ndarray) -> float:
    pos, neg = y == 1, y == 0
    if not pos.any() or not neg.any():
        return float("nan")
    return float((pred[pos].mean() + (1 - pred[neg]).mean()) / 2)


def best_threshold(y: Sequence[int] | np.ndarray, score: Sequence[float] | np.ndarray) -> float:
    """The score cut in the middle of those whose balanced accuracy is within one standard error
    of the best cut's (each cut the midpoint between two scores it falls between).

    Around its best, balanced accuracy is flat, and which cut is best by a hair moves from one
    refit to the next (0.48 to 0.56 on the same kind of data); the middle of the cuts that are
    as good within the sampling error of the best does not. The standard error is that of a
    balanced accuracy, ``sqrt(TPR (1 - TPR) / n_pos + TNR (1 - TNR) / n_neg) / 2``.

    >>> round(best_threshold([0, 0, 1, 1], [0.1, 0.2, 0.7, 0.8]), 2)
    0.45
    """
    y_, s = np.asarray(y, dtype=int), np.asarray(score, dtype=float)
    cuts = np.unique(s)
    mids = np.concatenate([[0.0], (cuts[1:] + cuts[:-1]) / 2, [1.0]])
    acc = np.array([_balanced_accuracy(y_, (s >= t).astype(int)) for t in mids])
    if np.isnan(acc).all():
        return 0.5
    best = int(np.nanargmax(acc))
    hit = s >= mids[best]
    tpr, tnr = hit[y_ == 1].mean(), 1 - hit[y_ == 0].mean()
    se = np.sqrt(tpr * (1 - tpr) / (y_ == 1).sum() + tnr * (1 - tnr) / (y_ == 0).sum()) / 2
    good = mids[acc >= acc[best] - se]
    return float((good.min() + good.max()) / 2)


def _fit_lr(x: np.ndarray, y: np.ndarray, c: float):
    from sklearn.linear_model import LogisticRegression

    if len(set(y.tolist())) < 2:
        raise ValueError("the labelled data need both wrong and right claims to fit on")
    return LogisticRegression(C=c, max_iter=2000).fit(x, y)


def _group(r: Record) -> str:
    """What keeps records in one fold: their image, else their id's prefix (a FOIL record's clean
    and foiled caption share it)."""
    return r.image or r.id.rsplit(":", 1)[0]


def _folds(records: Sequence[Record], k: int = FOLDS) -> list[np.ndarray]:
    """Record indices of each fold: groups (:func:`_group`) dealt out in a fixed order, so captions
    of one image, from whichever file, are never both fitted on and scored."""
    keys = sorted({_group(r) for r in records})
    fold_of = {key: i % k for i, key in enumerate(keys)}
    return [np.array([j for j, r in enumerate(records) if fold_of[_group(r)] == f]) for f in range(k)]


def _out_of_fold(rows, records, c: float) -> np.ndarray:
    """Each claim's confidence from an edit model fitted on the labelled rows of the other folds."""
    x, y = _matrix(rows), np.array([r.label for r in rows])
    conf = np.zeros(len(rows))
    labelled = {i for i, r in enumerate(rows) if r.labelled}
    for fold in _folds(records):
        test = [i for j in fold for i in records[j].rows]
        train = sorted(labelled - set(test))
        if test and train:
            conf[test] = _fit_lr(x[train], y[train], c).predict_proba(x[test])[:, 1]
    return conf


def _log_losses(y: np.ndarray, p: np.ndarray) -> np.ndarray:
    """Each claim's log loss."""
    p = np.clip(p, 1e-6, 1 - 1e-6)
    return -(y * np.log(p) + (1 - y) * np.log(1 - p))


def strongest_within_se(losses: dict[float, np.ndarray]) -> float:
    """The smallest ``C`` (the strongest penalty) whose mean loss is within one standard error of
    the best mean, given each ``C``'s per-claim out-of-fold losses; the standard error is that of
    the mean difference from the best, claim by claim, ``sd(loss - best) / sqrt(n)``.

    Around its best the loss is flat (on the shipped training data 0.41219 at ``C`` = 1, 0.41245
    at 10), and the weakest penalty that wins by a hair leaves the weights of rare, overlapping
    features free to move with any small change to the data: a parser fix that changed the claims
    of 22 of 8,907 training captions moved the HAT dev AUROC of a ``C`` = 10 refit by 0.013 and
    of a ``C`` = 1 refit not at all. The losses are paired -- every ``C`` is scored on the same
    claims, whose losses differ far more from each other than from one ``C`` to the next -- so the
    sampling error of a comparison is that of the differences (0.0004 between 1 and 10, 0.0006
    between 1 and 0.1, which is 0.0046 worse). The standard error of one mean, 0.0046, counted the
    spread of the claims' own losses, which every ``C`` shares: it let 0.1 in or out by 0.00001 as
    the claims of 23 training captions changed.

    >>> strongest_within_se({0.1: np.array([0.52, 0.53, 0.52]), 1.0: np.array([0.49, 0.50, 0.50]),
    ...                      10.0: np.array([0.48, 0.51, 0.50])})
    1.0
    """
    means = {c: float(v.mean()) for c, v in losses.items()}
    best = min(means, key=lambda c: (means[c], -c))

    def within(c: float) -> bool:
        d = losses[c] - losses[best]
        return float(d.mean()) <= float(d.std() / np.sqrt(len(d)))

    return min(c for c in means if within(c))


def fit(rows: Sequence[Row], records: Sequence[Record], sources: Sequence[str] = ()) -> ConfidenceModel:
    """The confidence model fitted on ``rows`` / ``records`` (see the module docstring)."""
    if not rows:
        raise ValueError("no claims to fit on: the labelled captions gave no edits")
    y_edit = np.array([r.label for r in rows])
    known = np.array([r.labelled for r in rows])
    losses = {c: _log_losses(y_edit[known], _out_of_fold(rows, records, c)[known]) for c in C_GRID}
    c = strongest_within_se(losses)
    oof = _out_of_fold(rows, records, c)
    y_rec = np.array([r.label for r in records])
    xr = _record_matrix(records, rows, oof)
    rec_oof = np.zeros(len(records))
    for fold in _folds(records):
        train = sorted(set(range(len(records))) - set(fold.tolist()))
        if len(fold) and train:
            rec_oof[fold] = _fit_lr(xr[train], y_rec[train], 1.0).predict_proba(xr[fold])[:, 1]
    threshold = best_threshold(y_rec, rec_oof)
    edit_lr = _fit_lr(_matrix(rows)[known], y_edit[known], c)
    record_lr = _fit_lr(xr, y_rec, 1.0)
    pred = (rec_oof >= threshold).astype(int)
    provenance: dict[str, Any] = {
        "fitted_on": list(sources),
        "claims": int(known.sum()),
        "wrong_claims": int(y_edit[known].sum()),
        "captions": len(records),
        "hallucinated_captions": int(y_rec.sum()),
        "C": c,
        "cross_validated": {
            "folds": FOLDS,
            "edit_auroc": round(auroc(y_edit[known], oof[known]), 4),
            "edit_ece": round(expected_calibration_error(y_edit[known], oof[known]), 4),
            "record_auroc": round(auroc(y_rec, rec_oof), 4),
            "record_ece": round(expected_calibration_error(y_rec, rec_oof), 4),
            "record_balanced_accuracy": round(_balanced_accuracy(y_rec, pred), 4),
        },
    }
    return ConfidenceModel(
        coef={f: round(float(w), 6) for f, w in zip(FEATURES, edit_lr.coef_[0], strict=True)},
        intercept=round(float(edit_lr.intercept_[0]), 6),
        record={"intercept": round(float(record_lr.intercept_[0]), 6)}
        | {k: round(float(w), 6) for k, w in zip(RECORD_TERMS[1:], record_lr.coef_[0], strict=True)},
        threshold=round(threshold, 2),
        provenance=provenance,
    )


def calibrate(
    paths: Sequence[str | os.PathLike],
    explainer: Explainer | None = None,
    progress: Callable[[int], object] | None = None,
) -> ConfidenceModel:
    """Read the labelled files, explain them, fit: the whole of ``cece calibrate``."""
    explainer = explainer or Explainer(counterfactuals=False)
    rows: list[Row] = []
    records: list[Record] = []
    for path in paths:
        samples, gold, kind = read_labelled(path)
        r, rec = collect(explainer, samples, gold, labelled=LABELLED[kind], progress=progress)
        offset = len(rows)
        for x in rec:
            x.rows = [i + offset for i in x.rows]
        rows += r
        records += rec
    return fit(rows, records, [Path(p).name for p in paths])


def top_features(model: ConfidenceModel, k: int = 8) -> list[tuple[str, float]]:
    """The ``k`` features with the largest weights in absolute value."""
    return sorted(model.coef.items(), key=lambda kv: -abs(kv[1]))[:k]


def describe(model: ConfidenceModel) -> str:
    """A few lines on a fitted model: what it was fitted on, its cross-validated figures, its
    strongest features and its record model's weights."""
    p = model.provenance
    cv = p.get("cross_validated", {})
    lines = [
        f"fitted on {', '.join(p.get('fitted_on', [])) or '?'}: {p.get('captions')} captions "
        f"({p.get('hallucinated_captions')} hallucinated), {p.get('claims')} claims ({p.get('wrong_claims')} wrong)",
        "cross-validated: " + ", ".join(f"{k} {v}" for k, v in cv.items() if k != "folds"),
        f"L2 penalty C = {p.get('C')} (the strongest within one standard error of the best out-of-fold log loss)",
        f"threshold {model.threshold} (the middle of the cuts within one standard error of the best out-of-fold "
        "balanced accuracy)",
        "strongest features: " + ", ".join(f"{f} {w:+.2f}" for f, w in top_features(model)),
        "record model: " + ", ".join(f"{k} {w:+.2f}" for k, w in model.record.items()),
    ]
    return "\n".join(lines)
