"""Detection metrics on numpy/scipy alone: average precision, AUROC, localisation accuracy.

Labels are 1 for hallucinated, 0 for faithful; scores are higher for "more likely hallucinated".

>>> average_precision([1, 0, 1, 0], [0.9, 0.8, 0.7, 0.1])
0.8333333333333333
>>> auroc([1, 0, 1, 0], [0.9, 0.8, 0.7, 0.1])
0.75
"""

from __future__ import annotations

from typing import Iterable, Sequence

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
        return float("nan")
    order = np.argsort(-s, kind="mergesort")
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
        return float("nan")
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
