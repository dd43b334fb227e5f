"""Caption-level metrics beyond :mod:`benchmarks.metrics` (which gives AP, AUROC and
``localisation_hit``): localisation accuracy, word-level P/R/F1, pair accuracy, PR curves,
grouped metrics, the metrics of a detector's verdicts (precision, recall, false positive rate,
balanced accuracy) and of the spans it marks (span precision, gold-word recall). Labels are
1 = hallucinated; scores are higher for "more likely hallucinated".

>>> precision_recall_f1([1, 1, 0, 0], [1, 0, 1, 0])
(0.5, 0.5, 0.5)
>>> pair_accuracy([0.1, 0.5], [0.9, 0.5])
0.75
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Sequence
from typing import Any, TypeVar

import numpy as np

from benchmarks.metrics import localisation_hit, spans_overlap

Span = tuple[int, int]


K = TypeVar("K", bound=Hashable)


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


def _binary(y_true: Iterable[int], y_pred: Iterable[int]) -> tuple[np.ndarray, np.ndarray]:
    y, p = np.asarray(list(y_true), dtype=int), np.asarray(list(y_pred), dtype=int)
    if y.shape != p.shape:
        raise ValueError(f"{len(y)} labels but {len(p)} predictions")
    return y, p


def precision(y_true: Iterable[int], y_pred: Iterable[int]) -> float:
    """P = TP / (TP + FP) of binary predictions (a verdict: 1 = called hallucinated); 0 when
    nothing is predicted positive (scikit-learn's ``precision_score``, ``zero_division=0``).

    >>> precision([1, 1, 0, 0], [1, 0, 1, 1])
    0.3333333333333333
    """
    from sklearn.metrics import precision_score

    y, p = _binary(y_true, y_pred)
    return float(precision_score(y, p, zero_division=0.0)) if len(y) else 0.0


def recall(y_true: Iterable[int], y_pred: Iterable[int]) -> float:
    """R = TP / (TP + FN), the share of hallucinated items called hallucinated (true positive
    rate); 0 without hallucinated items (``recall_score``, ``zero_division=0``).

    >>> recall([1, 1, 0, 0], [1, 0, 1, 1])
    0.5
    """
    from sklearn.metrics import recall_score

    y, p = _binary(y_true, y_pred)
    return float(recall_score(y, p, zero_division=0.0)) if len(y) else 0.0


def false_positive_rate(y_true: Iterable[int], y_pred: Iterable[int]) -> float:
    """FPR = FP / (FP + TN), the share of clean items called hallucinated (the leaderboard's
    "flagged clean"); NaN without clean items.

    >>> false_positive_rate([1, 1, 0, 0], [1, 0, 1, 1])
    1.0
    """
    y, p = _binary(y_true, y_pred)
    n_neg = int(np.sum(y == 0))
    return float(np.sum((y == 0) & (p == 1)) / n_neg) if n_neg else float("nan")


def balanced_accuracy(y_true: Iterable[int], y_pred: Iterable[int]) -> float:
    """Balanced accuracy = (TPR + TNR) / 2 = (R + 1 - FPR) / 2 (scikit-learn's
    ``balanced_accuracy_score``); NaN unless both classes occur in ``y_true``.

    >>> balanced_accuracy([1, 1, 0, 0], [1, 0, 1, 1])
    0.25
    """
    from sklearn.metrics import balanced_accuracy_score

    y, p = _binary(y_true, y_pred)
    if not (np.any(y == 1) and np.any(y == 0)):
        return float("nan")
    return float(balanced_accuracy_score(y, p))


def span_precision(y_true: Sequence[Sequence[Span]], y_pred: Sequence[Sequence[Span]]) -> float:
    """Span P = (marked spans overlapping at least one gold hallucinated word) / (marked spans),
    pooled over captions (micro): ``y_true[i]`` holds caption i's gold hallucinated words
    ``(start, end)``, ``y_pred[i]`` the spans a detector marks on it. A marked span on a caption
    without gold words is a false positive; 0 when nothing is marked (``zero_division=0``).

    >>> span_precision([[(2, 5)], []], [[(0, 1), (2, 9)], [(0, 3)]])
    0.3333333333333333
    """
    if len(y_true) != len(y_pred):
        raise ValueError(f"{len(y_true)} gold captions but {len(y_pred)} predicted")
    hits = [any(spans_overlap(p, g) for g in gold) for gold, pred in zip(y_true, y_pred, strict=True) for p in pred]
    return float(np.mean(hits)) if hits else 0.0


def gold_word_recall(y_true: Sequence[Sequence[Span]], y_pred: Sequence[Sequence[Span]]) -> float:
    """Gold-word R = (gold hallucinated words overlapped by a marked span) / (gold hallucinated
    words), pooled over captions (micro), arguments as in :func:`span_precision`; 0 without gold
    words (``zero_division=0``).

    >>> gold_word_recall([[(2, 5), (6, 9)], [(0, 3)]], [[(0, 1), (2, 9)], []])
    0.6666666666666666
    """
    if len(y_true) != len(y_pred):
        raise ValueError(f"{len(y_true)} gold captions but {len(y_pred)} predicted")
    covered = [
        c
        for gold, pred in zip(y_true, y_pred, strict=True)
        for c in words_flagged(gold, [(a, b, 1.0) for a, b in pred])
    ]
    return float(np.mean(covered)) if covered else 0.0


def localisation_accuracy(
    spans: Sequence[Sequence[tuple[int, int, float]]], truths: Sequence[Sequence[tuple[int, int]]]
) -> float:
    """LA = (1/N) sum_i hit_i over the N captions that have gold spans, hit_i = 1 when caption i's
    top-scored span ``(start, end, score)`` overlaps one of its hallucinated spans; NaN if N = 0.

    >>> localisation_accuracy([[(0, 3, 0.9)], [(4, 7, 0.2), (0, 3, 0.8)]], [[(0, 3)], [(4, 7)]])
    0.5
    """
    hits = [localisation_hit(s, t) for s, t in zip(spans, truths, strict=True) if t]
    return float(np.mean(hits)) if hits else float("nan")


def words_flagged(
    words: Sequence[tuple[int, int]], spans: Iterable[tuple[int, int, float]], threshold: float = 0.5
) -> list[int]:
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


def precision_recall_curve(
    y_true: Iterable[int], y_score: Iterable[float]
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


def by_group(groups: Sequence[K], metric: Callable[..., Any], *columns: Sequence[Any]) -> dict[K, Any]:
    """``{g: metric(*columns restricted to the rows of group g)}``, groups in sorted order.

    >>> by_group(["a", "b", "a"], lambda x: sum(x), [1, 2, 3])
    {'a': 4, 'b': 2}
    """
    rows: dict[K, list[int]] = {}
    for i, g in enumerate(groups):
        rows.setdefault(g, []).append(i)
    return {g: metric(*[[col[i] for i in rows[g]] for col in columns]) for g in sorted(rows, key=str)}
