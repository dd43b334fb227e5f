"""Detection metrics on numpy/scipy alone: average precision, AUROC, localisation accuracy,
expected calibration error.

Labels are 1 for hallucinated, 0 for faithful; scores are higher for "more likely hallucinated".

>>> average_precision([1, 0, 1, 0], [0.9, 0.8, 0.7, 0.1])
0.8333333333333333
>>> auroc([1, 0, 1, 0], [0.9, 0.8, 0.7, 0.1])
0.75
>>> expected_calibration_error([0, 1, 1, 0], [0.05, 0.95, 0.65, 0.35])
0.2
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence

import numpy as np
from scipy.stats import rankdata


def _arrays(labels: Iterable[int], scores: Iterable[float]) -> tuple[np.ndarray, np.ndarray]:
    y = np.asarray(list(labels), dtype=int)
    s = np.asarray(list(scores), dtype=float)
    if y.shape != s.shape:
        raise ValueError(f"{len(y)} labels but {len(s)} scores")
    return y, s


def average_precision(labels: Iterable[int], scores: Iterable[float]) -> float:
    """AP = sum_k (R_k - R_{k-1}) P_k over the distinct score thresholds, highest first.

    ``P_k`` and ``R_k`` are precision and recall when everything scoring at least the k-th
    threshold is called hallucinated; tied scores enter together (as scikit-learn does).
    NaN without positives.

    >>> average_precision([1, 1, 0], [0.5, 0.5, 0.5])
    0.6666666666666666
    """
    y, s = _arrays(labels, scores)
    n_pos = int(y.sum())
    if n_pos == 0:
        return math.nan
    order = np.argsort(-s)  # the order within a tied block does not matter: it enters whole
    y, s = y[order], s[order]
    last = np.r_[np.flatnonzero(np.diff(s)), len(s) - 1]  # last index of each tied block
    tp = np.cumsum(y)[last]
    precision = tp / (last + 1)
    recall = tp / n_pos
    return float(np.sum(np.diff(np.r_[0.0, recall]) * precision))


def auroc(labels: Iterable[int], scores: Iterable[float]) -> float:
    """AUROC = U / (n_pos n_neg), U the Mann-Whitney statistic of the positives' scores:
    U = (sum of the positives' ranks) - n_pos (n_pos + 1) / 2, ties given their average rank
    (a tied positive-negative pair counts one half). NaN without both classes.

    >>> auroc([1, 0], [0.5, 0.5])
    0.5
    """
    y, s = _arrays(labels, scores)
    n_pos, n_neg = int(y.sum()), int(len(y) - y.sum())
    if n_pos == 0 or n_neg == 0:
        return math.nan
    ranks = rankdata(s)
    u = ranks[y == 1].sum() - n_pos * (n_pos + 1) / 2
    return float(u / (n_pos * n_neg))


def spans_overlap(a: tuple[int, int], b: tuple[int, int]) -> bool:
    """Whether two half-open char spans share a character.

    >>> spans_overlap((0, 3), (3, 5)), spans_overlap((0, 4), (3, 5))
    (False, True)
    """
    return a[0] < b[1] and b[0] < a[1]


def localisation_hit(spans: Sequence[tuple[int, int, float]], truth: Sequence[tuple[int, int]]) -> bool:
    """Whether the highest-scoring span ``(start, end, score)`` overlaps a hallucinated span
    (the first of tied top spans counts; no span is a miss). Localisation accuracy is the mean
    of this over the hallucinated captions.

    >>> localisation_hit([(0, 3, 0.2), (6, 9, 0.9)], [(6, 12)])
    True
    """
    if not spans:
        return False
    top = max(spans, key=lambda x: x[2])
    return any(spans_overlap((top[0], top[1]), t) for t in truth)


def expected_calibration_error(y_true: Iterable[int], y_prob: Iterable[float], *, n_bins: int = 10) -> float:
    """Expected calibration error of scores read as probabilities of "hallucinated":

        ECE = sum_b (n_b / N) |acc_b - conf_b|

    over ``n_bins`` equal-width bins of [0, 1] (with 10 bins: [0, .1], (.1, .2], ..., (.9, 1], the
    bins of scikit-learn's ``calibration_curve(strategy="uniform")``, which draws the reliability
    diagram; empty bins add nothing), ``n_b`` the items in bin b, ``acc_b`` the share of them
    that are hallucinated and ``conf_b`` their mean score. 0 is perfectly calibrated:
    of the captions scored about 0.7, about 70 % are hallucinated. NaN without items; a score
    outside [0, 1] is a ValueError (it is not a probability).

    >>> expected_calibration_error([1, 1, 0, 0], [0.5, 0.5, 0.5, 0.5])
    0.0
    >>> round(expected_calibration_error([1, 0], [0.9, 0.9]), 10)  # one bin: |0.5 - 0.9|
    0.4
    """
    y, p = _arrays(y_true, y_prob)
    if n_bins < 1:
        raise ValueError(f"n_bins must be at least 1, got {n_bins}")
    if not len(y):
        return math.nan
    if np.any(~np.isfinite(p)) or p.min() < 0 or p.max() > 1:
        raise ValueError("y_prob must lie in [0, 1]")
    bins = np.searchsorted(np.linspace(0.0, 1.0, n_bins + 1)[1:-1], p)  # as calibration_curve bins
    acc = np.bincount(bins, weights=y, minlength=n_bins)
    conf = np.bincount(bins, weights=p, minlength=n_bins)
    # sum_b (n_b / N) |acc_b / n_b - conf_b / n_b| = sum_b |sum of labels - sum of scores| / N
    return float(np.sum(np.abs(acc - conf)) / len(y))
