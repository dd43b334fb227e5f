"""Caption-level metrics beyond :mod:`benchmarks.metrics` (which gives AP, AUROC and
``localisation_hit``): localisation accuracy, word-level P/R/F1, pair accuracy, PR curves and
grouped metrics. Labels are 1 = hallucinated; scores are higher for "more likely hallucinated".

>>> precision_recall_f1([1, 1, 0, 0], [1, 0, 1, 0])
(0.5, 0.5, 0.5)
>>> pair_accuracy([0.1, 0.5], [0.9, 0.5])
0.75
"""

from __future__ import annotations

from typing import Any, Callable, Hashable, Iterable, Sequence

import numpy as np

from benchmarks.metrics import localisation_hit


def precision_recall_f1(y_true: Iterable[int], y_pred: Iterable[int]) -> tuple[float, float, float]:
    """P = TP / (TP + FP), R = TP / (TP + FN), F1 = 2PR / (P + R), pooled over all items;
    a zero denominator gives 0 (scikit-learn's ``zero_division=0``)."""
    y, p = np.asarray(list(y_true), dtype=bool), np.asarray(list(y_pred), dtype=bool)
    if y.shape != p.shape:
        raise ValueError(f"{len(y)} labels but {len(p)} predictions")
    tp, fp, fn = int(np.sum(y & p)), int(np.sum(~y & p)), int(np.sum(y & ~p))
    precision = tp / (tp + fp) if tp + fp else 0.0
    recall = tp / (tp + fn) if tp + fn else 0.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    return precision, recall, f1


def localisation_accuracy(spans: Sequence[Sequence[tuple[int, int, float]]],
                          truths: Sequence[Sequence[tuple[int, int]]]) -> float:
    """LA = (1/N) sum_i hit_i over the N captions that have gold spans, hit_i = 1 when caption i's
    top-scored span ``(start, end, score)`` overlaps one of its hallucinated spans; NaN if N = 0.

    >>> localisation_accuracy([[(0, 3, 0.9)], [(4, 7, 0.2), (0, 3, 0.8)]], [[(0, 3)], [(4, 7)]])
    0.5
    """
    hits = [localisation_hit(s, t) for s, t in zip(spans, truths, strict=True) if t]
    return float(np.mean(hits)) if hits else float("nan")


def words_flagged(words: Sequence[tuple[int, int]], spans: Iterable[tuple[int, int, float]],
                  threshold: float = 0.5) -> list[int]:
    """1 for each word ``(start, end)`` that a span scoring at least ``threshold`` overlaps.

    >>> words_flagged([(0, 1), (2, 5), (6, 9)], [(2, 4, 0.9), (6, 9, 0.1)])
    [0, 1, 0]
    """
    kept = [(a, b) for a, b, s in spans if s >= threshold]
    return [int(any(a < e and s < b for a, b in kept)) for s, e in words]


def pair_accuracy(clean_scores: Sequence[float], foil_scores: Sequence[float]) -> float:
    """Share of pairs whose foil scores above its clean caption, ties counting 1/2:
    (1/N) sum_i [s_foil > s_clean] + 0.5 [s_foil = s_clean]; NaN without pairs."""
    a, b = np.asarray(clean_scores, dtype=float), np.asarray(foil_scores, dtype=float)
    if a.shape != b.shape:
        raise ValueError(f"{len(a)} clean scores but {len(b)} foil scores")
    if not len(a):
        return float("nan")
    return float(np.mean((b > a) + 0.5 * (b == a)))


def precision_recall_curve(y_true: Iterable[int], y_score: Iterable[float]
                           ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Precision and recall at each distinct score threshold t (predict 1 when score >= t),
    thresholds decreasing: P(t) = TP(t) / (TP(t) + FP(t)), R(t) = TP(t) / n_pos.
    The same points as scikit-learn's ``precision_recall_curve``, in the opposite order and
    without its closing (P=1, R=0) point.

    >>> p, r, t = precision_recall_curve([1, 0, 1], [0.9, 0.5, 0.5])
    >>> p.tolist(), r.tolist(), t.tolist()
    ([1.0, 0.6666666666666666], [0.5, 1.0], [0.9, 0.5])
    """
    y, s = np.asarray(list(y_true), dtype=int), np.asarray(list(y_score), dtype=float)
    order = np.argsort(-s, kind="mergesort")
    y, s = y[order], s[order]
    if not len(y):
        return np.array([]), np.array([]), np.array([])
    last = np.r_[np.flatnonzero(np.diff(s)), len(s) - 1]
    tp = np.cumsum(y)[last]
    n_pos = max(int(y.sum()), 1)
    return tp / (last + 1), tp / n_pos, s[last]


def by_group(groups: Sequence[Hashable], metric: Callable[..., Any], *columns: Sequence[Any]) -> dict[Hashable, Any]:
    """``{g: metric(*columns restricted to the rows of group g)}``, groups in sorted order.

    >>> by_group(["a", "b", "a"], lambda x: sum(x), [1, 2, 3])
    {'a': 4, 'b': 2}
    """
    rows: dict[Hashable, list[int]] = {}
    for i, g in enumerate(groups):
        rows.setdefault(g, []).append(i)
    return {g: metric(*[[col[i] for i in rows[g]] for col in columns]) for g in sorted(rows, key=str)}
