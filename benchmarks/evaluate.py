"""Score one detector's Detections against a benchmark's gold labels.

HAT, nocaps-FOIL and AlignBench score every gold sample: a sample the detector has no Detection
for, or one with an ``error``, counts as score 0 with no spans (not flagged) and, for a detector
that gives verdicts, as verdict False -- so detectors are compared on the same samples.
DetailVerifyBench instead leaves such samples out, as its own pipeline does (it scores only the
answers that passed its checks), and counts them in ``dropped``.
Spans count as predicted hallucinations when their score is at least ``threshold`` (0.5); for
span P and gold-word R a span is *marked* when its score is at least its detection's own
``threshold``, or ``threshold`` when the detection gives none.

Each ``evaluate_*`` returns an :class:`Evaluation`: ``summary`` (the leaderboard's columns),
``details`` (everything else, JSON-ready), ``curve`` (labels and scores for a PR plot) and
``counts``: ``valid`` detections, ``errors`` (samples without a valid detection),
``parse_failures`` (model answers that could not be read, summed over the detections'
``details["parse_failures"]``) and ``dropped``. :func:`evaluate` picks the benchmark's function
and reports no figure at all (every summary value None) when no detection is valid: a number
computed from failures alone would only measure the failures.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any, TypeGuard

from benchmarks import dvb_metrics
from benchmarks.alignbench_metrics import auroc_by_group, mean_by, segment_ap, segment_iou
from benchmarks.caption_metrics import (
    balanced_accuracy,
    by_group,
    false_positive_rate,
    gold_word_recall,
    localisation_accuracy,
    pair_accuracy,
    precision,
    precision_recall_f1,
    recall,
    span_precision,
    words_flagged,
)
from benchmarks.chair_metrics import chair_i, chair_s
from benchmarks.loaders.alignbench import AlignBenchGold
from benchmarks.loaders.common import CaptionGold
from benchmarks.loaders.detailverify import DVBGold, to_tagged
from benchmarks.metrics import auroc, average_precision, expected_calibration_error
from benchmarks.registry import BENCHMARKS, Evaluation
from detectors.base import Detection

Detections = Mapping[str, Detection]

SPAN_COLUMNS = ("span P", "gold-word R")  # every detector (spans and scores are enough)
VERDICT_COLUMNS = ("verdict P", "verdict R", "flagged clean", "bal acc")  # None without verdicts


def _ok(d: Detection | None) -> TypeGuard[Detection]:
    """A detection that scored its caption (not missing, failed or not judged)."""
    return d is not None and d.error is None and d.score is not None


def _score(d: Detection | None) -> float:
    return float(d.score or 0.0) if _ok(d) else 0.0


def _spans(d: Detection | None) -> list[tuple[int, int, float]]:
    return [(s.start, s.end, s.score) for s in d.spans] if _ok(d) else []


def _marked(d: Detection | None, threshold: float) -> list[tuple[int, int]]:
    """The spans a detection marks: those it calls hallucinated when it decides span by span,
    else score >= its own ``threshold``, else >= the evaluation's."""
    if not _ok(d):
        return []
    cut = threshold if d.threshold is None else d.threshold
    return [(s.start, s.end) for s in d.spans if (s.score >= cut if s.hallucinated is None else s.hallucinated)]


def _verdict(d: Detection | None) -> int:
    """1 when the detection calls its caption hallucinated (no / a failed detection: 0)."""
    return int(bool(d.hallucinated)) if _ok(d) else 0


def _n_verdicts(ids: list[str], dets: Detections) -> int:
    return sum(_ok(dets.get(i)) and dets[i].hallucinated is not None for i in ids)


def counts(ids: list[str], dets: Detections, dropped: int = 0) -> dict[str, int]:
    """``valid`` detections of ``ids``, ``errors`` (ids without one: missing or failed),
    ``parse_failures`` (the integer ``details["parse_failures"]`` of every detection of ``ids``,
    failed ones included) and ``dropped`` (samples left out of the figures).

    >>> counts(["a", "b"], {"a": Detection("a", "d", score=0.5, details={"parse_failures": 1}),
    ...                     "b": Detection("b", "d", error="timeout", details={"parse_failures": 2})})
    {'valid': 1, 'errors': 1, 'parse_failures': 3, 'dropped': 0}
    """
    valid = sum(_ok(dets.get(i)) for i in ids)
    failures = 0
    for i in ids:
        n = dets[i].details.get("parse_failures") if i in dets and isinstance(dets[i].details, dict) else None
        failures += n if isinstance(n, int) and not isinstance(n, bool) and n > 0 else 0
    return {"valid": valid, "errors": len(ids) - valid, "parse_failures": failures, "dropped": dropped}


def evaluate(benchmark: str, gold: Mapping[str, Any], dets: Detections, *, threshold: float = 0.5) -> Evaluation:
    """The benchmark's evaluation of one detector, by the evaluator the benchmark names in its
    registry entry (:mod:`benchmarks.registry`); with no valid detection, every summary value is None, details and curve
    are empty and only ``counts`` says what happened."""
    found = BENCHMARKS[benchmark].evaluate(gold, dets, threshold)
    if found.counts["valid"] == 0:
        return Evaluation({k: None for k in found.summary}, {}, None, counts=found.counts)
    return found


def clean(value: Any) -> Any:
    """NaN -> None (JSON has no NaN), numpy numbers -> floats, recursively."""
    if isinstance(value, dict):
        return {str(k): clean(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [clean(v) for v in value]
    if hasattr(value, "item") and not isinstance(value, (str, bytes)):
        value = value.item()
    if isinstance(value, float) and math.isnan(value):
        return None
    return value


def calibration_error(y: list[int], s: list[float]) -> float:
    """The expected calibration error (10 bins) of the scores read as probabilities; NaN when a
    score lies outside [0, 1] (a detector that breaks the Detection contract has no ECE).

    >>> calibration_error([1, 0], [1.0, 0.0]), calibration_error([1, 0], [0.0, 1.0]), calibration_error([1], [3.0])
    (0.0, 1.0, nan)
    """
    try:
        return expected_calibration_error(y, s)
    except ValueError:
        return float("nan")


def _caption_block(
    ids: list[str], gold: Mapping[str, CaptionGold], dets: Detections, threshold: float, verdicts: bool = False
) -> dict[str, float | None]:
    y, s = [gold[i].label for i in ids], [_score(dets.get(i)) for i in ids]
    gold_words = [[w for w, lab in zip(gold[i].words, gold[i].word_labels, strict=True) if lab] for i in ids]
    marked = [_marked(dets.get(i), threshold) for i in ids]
    v = [_verdict(dets.get(i)) for i in ids]
    verdict_cols = dict(
        zip(
            VERDICT_COLUMNS,
            (precision(y, v), recall(y, v), false_positive_rate(y, v), balanced_accuracy(y, v))
            if verdicts
            else (None,) * 4,
            strict=True,
        )
    )
    hal = [i for i in ids if gold[i].label and gold[i].spans]
    y_words, p_words = [], []
    for i in ids:
        y_words += gold[i].word_labels
        p_words += words_flagged(gold[i].words, _spans(dets.get(i)), threshold)
    p, r, f1 = precision_recall_f1(y_words, p_words)
    return {
        "AP": average_precision(y, s),
        "AUROC": auroc(y, s),
        "ECE": calibration_error(y, s),
        "LA": localisation_accuracy([_spans(dets.get(i)) for i in hal], [gold[i].spans for i in hal]),
        "word P": p,
        "word R": r,
        "word F1": f1,
        "span P": span_precision(gold_words, marked),
        "gold-word R": gold_word_recall(gold_words, marked),
        **verdict_cols,
        "n": len(ids),
        "hallucinated": sum(y),
    }


def evaluate_captions(gold: Mapping[str, CaptionGold], dets: Detections, threshold: float = 0.5) -> Evaluation:
    """HAT and nocaps-FOIL: AP, AUROC, ECE (the caption score read as a probability, see
    :func:`benchmarks.metrics.expected_calibration_error`), LA, word P/R/F1, span P and gold-word R (of the marked
    spans), CHAIRs and CHAIRi for a detector that lists COCO mentions (``chair``), and -- when
    the detector gives verdicts (``hallucinated`` on any of its detections) -- verdict P/R,
    flagged clean (false positive rate) and balanced accuracy, else None there; the same by
    group and pair accuracy when the gold has groups (FOIL domains) and pairs."""
    ids = list(gold)
    n_verdicts = _n_verdicts(ids, dets)
    block = _caption_block(ids, gold, dets, threshold, n_verdicts > 0)
    summary = {
        k: block[k]
        for k in ("AP", "AUROC", "ECE", "LA", "word P", "word R", "word F1", *SPAN_COLUMNS, *VERDICT_COLUMNS)
    }
    details: dict[str, Any] = {"n": block["n"], "hallucinated": block["hallucinated"], "verdicts": n_verdicts}
    summary.update(_chair(ids, dets))
    pairs: dict[str, dict[int, str]] = {}
    for i in ids:
        if (pair := gold[i].pair) is not None:
            pairs.setdefault(pair, {})[gold[i].label] = i
    full = [(v[0], v[1], gold[v[1]].group) for v in pairs.values() if 0 in v and 1 in v]
    if full:
        summary["pair acc"] = pair_accuracy(
            [_score(dets.get(c)) for c, _, _ in full], [_score(dets.get(f)) for _, f, _ in full]
        )
    if any(gold[i].group is not None for i in ids):
        by_domain = by_group(
            [gold[i].group or "" for i in ids],
            lambda sub: _caption_block(sub, gold, dets, threshold, n_verdicts > 0),
            ids,
        )
        for dom, row in by_domain.items():
            sub = [(c, f) for c, f, g in full if g == dom]
            row["pair acc"] = pair_accuracy(
                [_score(dets.get(c)) for c, _ in sub], [_score(dets.get(f)) for _, f in sub]
            )
            summary[f"AUROC {dom}"] = row["AUROC"]
        details["by_domain"] = by_domain
    return Evaluation(
        summary, details, ([gold[i].label for i in ids], [_score(dets.get(i)) for i in ids]), counts=counts(ids, dets)
    )


def _chair(ids: list[str], dets: Detections) -> dict[str, float]:
    """CHAIRs and CHAIRi over the detections that list their COCO ``mentions`` and the image's
    ``categories`` (the ``chair`` detector); nothing for detectors that do not."""
    found = [d.details for i in ids if _ok(d := dets.get(i)) and "mentions" in d.details and "categories" in d.details]
    if not found:
        return {}
    truth, mentions = [x["categories"] for x in found], [[m["category"] for m in x["mentions"]] for x in found]
    return {"CHAIRs": chair_s(truth, mentions), "CHAIRi": chair_i(truth, mentions)}


def sentence_score(d: Detection | None, start: int, end: int) -> float:
    """A detection's score for the sentence at ``[start, end)``: the highest of its sentence
    scores overlapping it (0 when it scores sentences but not this one: a sentence its judge
    could not score counts as a failed one, never as its neighbours' score); else of its spans
    overlapping it (0 if none); else its caption score."""
    if not _ok(d):
        return 0.0
    over = [s.score for s in d.sentences if s.start < end and start < s.end]
    if over or d.sentences:
        return max(over, default=0.0)
    if d.spans:
        return max((s.score for s in d.spans if s.start < end and start < s.end), default=0.0)
    return float(d.score or 0.0)


def evaluate_alignbench(gold: Mapping[str, AlignBenchGold], dets: Detections, threshold: float = 0.5) -> Evaluation:
    """AUROC (all sentences and per captioner), AP, ECE of the sentence scores, mean score by
    sentence position and by error type, segment AP at IoU >= 0.3 and segment mIoU; ``unknown``
    sentences are excluded."""
    y, s, models, positions, gold_seg, pred_seg = [], [], [], [], [], []
    typed: list[tuple[str, float]] = []
    for i, g in gold.items():
        d = dets.get(i)
        scored = [x for x in g.sentences if x.label != "unknown"]
        for x in scored:
            value = sentence_score(d, x.start, x.end)
            y.append(int(x.label == "incorrect"))
            s.append(value)
            models.append(g.model)
            positions.append((x.position, x.label))
            typed += [(t, value) for t in (x.error_types or ["(none)"]) if x.label == "incorrect"]
        gold_seg.append([sp for x in scored if x.label == "incorrect" for sp in x.error_spans])
        pred_seg.append([sp for sp in _spans(d) if any(x.start <= sp[0] < x.end for x in scored)])
    per_model = auroc_by_group(y, s, models)
    by_pos = mean_by(s, positions)
    position_means: dict[int, dict[str, Any]] = {}
    for (pos, label), v in by_pos.items():
        position_means.setdefault(pos, {})[label] = v
    seg_ap = segment_ap(gold_seg, pred_seg, 0.3)
    seg = segment_iou(gold_seg, pred_seg, threshold=threshold, iou_threshold=0.3)
    valid = [v for v in per_model.values() if not math.isnan(v)]
    summary: dict[str, float | None] = {
        "AUROC": auroc(y, s),
        "AUROC captioner mean": sum(valid) / len(valid) if valid else float("nan"),
        "AP": average_precision(y, s),
        "ECE": calibration_error(y, s),
        "seg AP@0.3": seg_ap,
        "seg mIoU": seg["miou"],
    }
    details = {
        "n_sentences": len(y),
        "incorrect": sum(y),
        "auroc_by_captioner": per_model,
        "mean_score_by_position": position_means,
        "mean_score_by_error_type": mean_by([v for _, v in typed], [t for t, _ in typed]) if typed else {},
        "segments": {
            "gold": sum(map(len, gold_seg)),
            "hit_rate@0.3": seg["hit_rate"],
            "unlocated_error_words": sum(g.unlocated for g in gold.values()),
        },
    }
    return Evaluation(summary, details, (y, s), {"positions": position_means}, counts(list(gold), dets))


def evaluate_detailverify(gold: Mapping[str, DVBGold], dets: Detections, threshold: float = 0.5) -> Evaluation:
    """Per split: the official and aligned DetailVerifyBench figures (see :mod:`benchmarks.dvb_metrics`)
    over the samples with a valid detection. A missing or failed detection is dropped, as the
    benchmark's pipeline drops answers that failed (it scores its ``*_filtered.json``, the answers
    that passed its checks, against the gold ids they share); ``counts["dropped"]`` says how many,
    and each split's ``n`` how many were scored. A detection that marks nothing is handed to the
    official script as the bare ``NO HALLUCINATION`` its prompt asks for (the same figures as
    the untagged caption; ``no_hallucination_expanded`` counts them)."""
    splits: dict[str, list[str]] = {}
    dropped: dict[str, int] = {}
    for i, g in gold.items():
        splits.setdefault(g.split, [])
        dropped[g.split] = dropped.get(g.split, 0)
        if _ok(dets.get(i)):
            splits[g.split].append(i)
        else:
            dropped[g.split] += 1
    summary: dict[str, float | None] = {}
    details: dict[str, Any] = {}
    labels, scores = [], []
    for split, ids in splits.items():
        columns = (f"{split} tok F1", f"{split} tok IoU", f"{split} sent F1", f"{split} tok F1 aligned")
        if not ids:  # nothing valid to score in this split: no figure, only the count
            details[split] = {"official": None, "aligned": None, "dropped": dropped[split]}
            summary.update(dict.fromkeys(columns, None))
            continue
        pred = [[sp for sp in _spans(dets.get(i)) if sp[2] >= threshold] for i in ids]
        tagged = [
            to_tagged(gold[i].caption, [(a, b) for a, b, _ in p]) if p else "NO HALLUCINATION"
            for i, p in zip(ids, pred, strict=True)
        ]
        official = dvb_metrics.official_scores(
            [gold[i].tagged for i in ids], tagged, [gold[i].label_records for i in ids]
        )
        aligned = dvb_metrics.aligned_scores([gold[i].caption for i in ids], [gold[i].spans for i in ids], pred)
        details[split] = {"official": official, "aligned": aligned, "dropped": dropped[split]}
        summary.update(
            zip(
                columns,
                (official["token"]["f1"], official["token"]["iou"], official["sentence"]["f1"], aligned["token"]["f1"]),
                strict=True,
            )
        )
        for i in ids:  # token-level PR curve: a token scores its best overlapping span
            spans = _spans(dets.get(i))
            for m in dvb_metrics.WORD.finditer(gold[i].caption):
                a, b = m.span()
                labels.append(int(any(a < e and s < b for s, e, _ in gold[i].spans)))
                scores.append(max((sc for s, e, sc in spans if a < e and s < b), default=0.0))
    found = counts(list(gold), dets)
    found["dropped"] = found["errors"]
    return Evaluation(summary, details, (labels, scores), counts=found)
