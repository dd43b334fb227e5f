"""AlignBench metrics: AUROC per captioner, mean score by group, and segment localisation.

Sentence labels are 1 = incorrect (hallucinated), 0 = correct; ``unknown`` sentences are left out
before these functions are called. Segments are char spans ``(start, end)``; a "unit" is one
caption (segments only match within their unit).

>>> span_iou((0, 10), (5, 15))
0.3333333333333333
>>> segment_ap([[(0, 4)]], [[(0, 5, 0.9), (10, 12, 0.8)]])
1.0
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import TypeVar

import numpy as np

from benchmarks.caption_metrics import by_group
from benchmarks.metrics import auroc

Span = tuple[int, int]


K = TypeVar("K", bound=Hashable)


def auroc_by_group(
    y_true: Sequence[int], y_score: Sequence[float], groups: Sequence[Hashable]
) -> dict[Hashable, float]:
    """AUROC (see :func:`benchmarks.metrics.auroc`) within each group, e.g. each captioner;
    NaN for a group lacking one of the classes."""
    return by_group(groups, auroc, y_true, y_score)


def mean_by(values: Sequence[float], keys: Sequence[K]) -> dict[K, dict[str, float]]:
    """Per key: ``mean`` = (1/n_k) sum of the values with that key, and ``n`` = n_k.

    >>> mean_by([0.2, 0.4, 1.0], [0, 0, 1])
    {0: {'mean': 0.30000000000000004, 'n': 2}, 1: {'mean': 1.0, 'n': 1}}
    """
    return by_group(keys, lambda v: {"mean": float(np.mean(v)), "n": len(v)}, values)


def span_iou(a: Span, b: Span) -> float:
    """|a ∩ b| / |a ∪ b| of two half-open char spans (0 when disjoint or both empty)."""
    inter = max(0, min(a[1], b[1]) - max(a[0], b[0]))
    union = (a[1] - a[0]) + (b[1] - b[0]) - inter
    return inter / union if union > 0 else 0.0


def segment_ap(
    gold: Sequence[Sequence[Span]], predicted: Sequence[Sequence[tuple[int, int, float]]], iou_threshold: float = 0.3
) -> float:
    """Segment AP, as in object detection: all predicted segments, highest score first (ties in
    input order), are matched greedily to the unmatched gold segment of their unit with the highest
    IoU; a match with IoU >= ``iou_threshold`` is a true positive, anything else a false positive.
    AP = sum_k (R_k - R_{k-1}) P_k over the ranked predictions, P_k = TP_k / k,
    R_k = TP_k / n_gold. NaN without gold segments; 0 without predictions.
    """
    n_gold = sum(len(g) for g in gold)
    if n_gold == 0:
        return float("nan")
    ranked = sorted(((s, u, (a, b)) for u, preds in enumerate(predicted) for a, b, s in preds), key=lambda x: -x[0])
    used: list[set[int]] = [set() for _ in gold]
    tp = np.zeros(len(ranked))
    for k, (_, u, span) in enumerate(ranked):
        best, best_j = 0.0, None
        for j, g in enumerate(gold[u]):
            if j not in used[u] and (iou := span_iou(span, g)) > best:
                best, best_j = iou, j
        if best_j is not None and best >= iou_threshold:
            used[u].add(best_j)
            tp[k] = 1
    if not len(ranked):
        return 0.0
    ctp = np.cumsum(tp)
    precision = ctp / np.arange(1, len(ranked) + 1)
    recall = ctp / n_gold
    return float(np.sum(np.diff(np.r_[0.0, recall]) * precision))


def segment_iou(
    gold: Sequence[Sequence[Span]],
    predicted: Sequence[Sequence[tuple[int, int, float]]],
    *,
    threshold: float = 0.5,
    iou_threshold: float = 0.3,
) -> dict[str, float]:
    """Localisation quality of the segments predicted with score >= ``threshold``:
    ``miou`` = (1/n_gold) sum over gold segments of max IoU with a predicted segment of its unit
    (0 if none); ``hit_rate`` = share of gold segments whose max IoU >= ``iou_threshold``.
    NaN without gold segments.

    >>> segment_iou([[(0, 4), (10, 14)]], [[(0, 4, 0.9)]])
    {'miou': 0.5, 'hit_rate': 0.5}
    """
    best = [
        max((span_iou(g, (a, b)) for a, b, s in preds if s >= threshold), default=0.0)
        for golds, preds in zip(gold, predicted, strict=True)
        for g in golds
    ]
    if not best:
        return {"miou": float("nan"), "hit_rate": float("nan")}
    return {"miou": float(np.mean(best)), "hit_rate": float(np.mean([b >= iou_threshold for b in best]))}
