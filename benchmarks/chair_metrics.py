"""CHAIR (Rohrbach et al., 2018): how many of a set of captions' COCO object mentions are not in
their images, as two scikit-learn style ``metric(y_true, y_pred)`` functions.

``y_true[c]`` holds the COCO categories of caption ``c``'s image, ``y_pred[c]`` the category of
each COCO object mention of the caption, repeats included (as the ``chair`` detector lists them
in ``details``; :func:`parsers.coco_objects.coco_mentions` reads them). The pooled forms from
per-caption counts are :func:`cece.metrics.chair_s` and :func:`cece.metrics.chair_i`, which these
call and which the per-model reports use.

>>> truth = [{"dog", "couch"}, {"person"}, {"cat"}]
>>> mentions = [["dog", "cat", "couch"], ["person", "person"], []]
>>> chair_s(truth, mentions), chair_i(truth, mentions)
(0.3333333333333333, 0.2)
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from cece import metrics


def hallucinated_counts(y_true: Sequence[Collection[str]], y_pred: Sequence[Sequence[str]]) -> list[int]:
    """Per caption, how many of its mentions name a category its image does not have."""
    if len(y_true) != len(y_pred):
        raise ValueError(f"{len(y_true)} images but {len(y_pred)} captions")
    return [sum(m not in set(truth) for m in pred) for truth, pred in zip(y_true, y_pred, strict=True)]


def chair_s(y_true: Sequence[Collection[str]], y_pred: Sequence[Sequence[str]]) -> float:
    """CHAIRs = |{c : some m in y_pred[c] is not in y_true[c]}| / |captions| -- the share of
    captions with a hallucinated object; 0 without captions."""
    return metrics.chair_s(n > 0 for n in hallucinated_counts(y_true, y_pred))


def chair_i(y_true: Sequence[Collection[str]], y_pred: Sequence[Sequence[str]]) -> float:
    """CHAIRi = sum_c |{m in y_pred[c] : m not in y_true[c]}| / sum_c |y_pred[c]| -- the share of
    object mentions that are hallucinated, pooled over captions; 0 without mentions."""
    return metrics.chair_i(hallucinated_counts(y_true, y_pred), [len(p) for p in y_pred])
