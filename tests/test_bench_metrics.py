"""Benchmark metrics: hand-computed cases, scikit-learn where it has the metric, and the
DetailVerifyBench official mode against figures its own script produced on our fixture."""

from __future__ import annotations

import json
import math
import re
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from benchmarks import alignbench_metrics as am
from benchmarks import caption_metrics as cm
from benchmarks import dvb_metrics as dm
from benchmarks.loaders import detailverify as dv
from benchmarks.metrics import auroc, average_precision, expected_calibration_error

FIXTURES = Path(__file__).parent / "fixtures"
sklearn_metrics = pytest.importorskip("sklearn.metrics")

labels_scores = st.integers(2, 40).flatmap(
    lambda n: st.tuples(
        st.lists(st.integers(0, 1), min_size=n, max_size=n),
        st.lists(st.sampled_from([0.0, 0.1, 0.25, 0.5, 0.75, 0.9, 1.0]), min_size=n, max_size=n),
    )
)


# -- caption metrics -------------------------------------------------------------------------
def test_precision_recall_f1_by_hand_and_zero_division():
    assert cm.precision_recall_f1([1, 1, 1, 0], [1, 0, 0, 1]) == pytest.approx((0.5, 1 / 3, 0.4))
    assert cm.precision_recall_f1([1, 0], [0, 0]) == (0.0, 0.0, 0.0)
    with pytest.raises(ValueError):
        cm.precision_recall_f1([1], [1, 0])


@settings(max_examples=60, deadline=None)
@given(labels_scores)
def test_caption_metrics_match_scikit_learn(case):
    y, s = case
    pred = [int(v >= 0.5) for v in s]
    ours = cm.precision_recall_f1(y, pred)
    theirs = sklearn_metrics.precision_recall_fscore_support(y, pred, average="binary", zero_division=0)[:3]
    assert ours == pytest.approx(theirs)
    if sum(y) > 0:
        assert average_precision(y, s) == pytest.approx(sklearn_metrics.average_precision_score(y, s))
        p, r, t = cm.precision_recall_curve(y, s)
        sp, sr, st_ = sklearn_metrics.precision_recall_curve(y, s)
        # scikit-learn: thresholds increasing and a closing (P=1, R=0) point; ours: decreasing, none.
        assert t.tolist() == pytest.approx(st_[::-1].tolist())
        assert p.tolist() == pytest.approx(sp[:-1][::-1].tolist())
        assert r.tolist() == pytest.approx(sr[:-1][::-1].tolist())
    if 0 < sum(y) < len(y):
        assert auroc(y, s) == pytest.approx(sklearn_metrics.roc_auc_score(y, s))


def test_localisation_accuracy_only_counts_hallucinated_captions():
    spans = [[(0, 3, 0.2), (4, 7, 0.9)], [(0, 3, 0.9)], []]
    truths = [[(4, 7)], [(10, 12)], []]
    assert cm.localisation_accuracy(spans, truths) == 0.5  # hit, miss; the clean one is skipped
    assert math.isnan(cm.localisation_accuracy([[]], [[]]))


def test_words_flagged_and_pair_accuracy():
    assert cm.words_flagged([(0, 3), (4, 8)], [(5, 6, 0.5)], threshold=0.5) == [0, 1]
    assert cm.words_flagged([(0, 3), (4, 8)], [(5, 6, 0.4)], threshold=0.5) == [0, 0]
    assert cm.pair_accuracy([0.2, 0.3, 0.9], [0.8, 0.3, 0.1]) == pytest.approx(0.5)
    assert math.isnan(cm.pair_accuracy([], []))


# -- calibration -----------------------------------------------------------------------------
def test_expected_calibration_error_by_hand():
    ece = expected_calibration_error
    # one bin per item: |0 - .05| + |0 - .35| + |1 - .65| + |1 - .95| over 4
    assert ece([0, 1, 1, 0], [0.05, 0.95, 0.65, 0.35]) == pytest.approx(0.2)
    # scores of .72 and .78 share the bin (.7, .8]: 3 of 4 hallucinated at mean .75 -> 0
    assert ece([1, 1, 1, 0], [0.72, 0.78, 0.72, 0.78]) == pytest.approx(0.0)
    # bins [0, .1] (2 items: 0 of 2 hallucinated, mean .05) and (.8, .9] (2 items: 1 of 2, mean .9):
    # 2/4 |0 - .05| + 2/4 |.5 - .9| = .025 + .2
    assert ece([0, 0, 1, 0], [0.0, 0.1, 0.9, 0.9]) == pytest.approx(0.225)
    # a score on a bin edge goes down a bin, as in calibration_curve: .2 is in (.1, .2] with .15
    assert ece([1, 0], [0.2, 0.15]) == pytest.approx(abs(1 - 0.35) / 2)
    assert ece([1, 0], [0.2, 0.15], n_bins=1) == pytest.approx(abs(1 - 0.35) / 2)
    assert ece([1, 1], [1.0, 1.0]) == 0.0 and math.isnan(ece([], []))
    with pytest.raises(ValueError):
        ece([1], [1.5])
    with pytest.raises(ValueError):
        ece([1, 0], [0.5])


@settings(max_examples=60, deadline=None)
@given(labels_scores)
def test_expected_calibration_error_matches_the_reliability_curve(case):
    """ECE = sum over non-empty bins of (n_b / N) |frac_b - mean_b|, with frac_b and mean_b from
    scikit-learn's calibration_curve and n_b from the same bins."""
    from sklearn.calibration import calibration_curve

    y, s = case
    if len(set(y)) < 2:  # calibration_curve wants both classes
        return
    frac, mean = calibration_curve(y, s, n_bins=10, strategy="uniform")
    counts = np.bincount(np.searchsorted(np.linspace(0, 1, 11)[1:-1], s), minlength=10)
    weights = counts[counts > 0] / len(s)
    assert expected_calibration_error(y, s) == pytest.approx(float(np.sum(weights * np.abs(frac - mean))))


# -- verdicts and marked spans ---------------------------------------------------------------
def test_verdict_metrics_by_hand():
    y, v = [1, 1, 1, 0, 0, 0, 0], [1, 1, 0, 1, 0, 0, 0]
    # TP 2, FN 1, FP 1, TN 3: P = 2/3, R = 2/3, FPR = 1/4, balanced accuracy = (2/3 + 3/4) / 2
    assert cm.precision(y, v) == pytest.approx(2 / 3)
    assert cm.recall(y, v) == pytest.approx(2 / 3)
    assert cm.false_positive_rate(y, v) == pytest.approx(1 / 4)
    assert cm.balanced_accuracy(y, v) == pytest.approx(17 / 24)
    # nothing called hallucinated / nothing hallucinated: 0 (zero_division=0); one class only: NaN
    assert cm.precision([1, 0], [0, 0]) == 0.0 and cm.recall([0, 0], [1, 0]) == 0.0
    assert math.isnan(cm.false_positive_rate([1, 1], [1, 0]))
    assert math.isnan(cm.balanced_accuracy([0, 0], [1, 0]))
    assert cm.precision([], []) == 0.0
    with pytest.raises(ValueError):
        cm.precision([1], [1, 0])


@settings(max_examples=60, deadline=None)
@given(labels_scores)
def test_verdict_metrics_match_scikit_learn(case):
    y, s = case
    v = [int(x >= 0.5) for x in s]
    assert cm.precision(y, v) == pytest.approx(sklearn_metrics.precision_score(y, v, zero_division=0))
    assert cm.recall(y, v) == pytest.approx(sklearn_metrics.recall_score(y, v, zero_division=0))
    if 0 < sum(y) < len(y):
        tn, fp, fn, tp = sklearn_metrics.confusion_matrix(y, v, labels=[0, 1]).ravel()
        assert cm.false_positive_rate(y, v) == pytest.approx(fp / (fp + tn))
        assert cm.balanced_accuracy(y, v) == pytest.approx((tp / (tp + fn) + tn / (tn + fp)) / 2)


def test_span_precision_and_gold_word_recall_by_hand():
    gold = [[(2, 5), (10, 14)], [], [(0, 3)]]
    marked = [[(2, 9), (20, 22)], [(0, 4)], []]
    # marked spans: (2, 9) hits "2-5", (20, 22) misses, (0, 4) is on a clean caption -> P = 1/3
    assert cm.span_precision(gold, marked) == pytest.approx(1 / 3)
    # gold words: (2, 5) covered, (10, 14) and (0, 3) not -> R = 1/3
    assert cm.gold_word_recall(gold, marked) == pytest.approx(1 / 3)
    assert cm.span_precision(gold, [[], [], []]) == 0.0 and cm.gold_word_recall([[]], [[(0, 1)]]) == 0.0
    assert cm.span_precision([[(0, 3)]], [[(3, 5)]]) == 0.0  # touching is not overlapping
    with pytest.raises(ValueError):
        cm.gold_word_recall([[]], [])


def _verdict_gold():
    from benchmarks.loaders.common import CaptionGold, whitespace_spans

    def gold(i, caption, labels, group):
        words = whitespace_spans(caption)
        return CaptionGold(
            id=i,
            caption=caption,
            label=int(any(labels)),
            spans=[w for w, y in zip(words, labels, strict=True) if y],
            words=words,
            word_labels=labels,
            group=group,
        )

    return {
        "a": gold("a", "A red dog.", [0, 1, 0], "x"),
        "b": gold("b", "A cat sits.", [0, 0, 0], "x"),
        "c": gold("c", "Two big birds.", [1, 0, 0], "y"),
    }


def test_evaluate_captions_marks_spans_by_the_detections_threshold_and_scores_verdicts():
    from benchmarks.evaluate import evaluate_captions
    from detectors.base import Detection, SpanScore

    gold = _verdict_gold()
    dets = {  # a: own threshold 0.3 marks "red" (0.4) but not "dog." (0.2); b: no own threshold, 0.5
        "a": Detection(
            "a",
            "v",
            score=0.4,
            hallucinated=True,
            threshold=0.3,
            spans=[SpanScore(2, 5, "red", 0.4), SpanScore(6, 10, "dog.", 0.2)],
        ),
        "b": Detection("b", "v", score=0.45, hallucinated=False, spans=[SpanScore(2, 5, "cat", 0.45)]),
        "c": Detection("c", "v", error="boom"),
    }  # failed: verdict False, no spans
    e = evaluate_captions(gold, dets)
    # marked: red (hit) -> span P = 1; gold words red, Two -> gold-word R = 1/2
    # verdicts 1 0 0 on labels 1 0 1: P = 1, R = 1/2, flagged clean = 0, bal acc = (1/2 + 1) / 2
    assert {
        k: e.summary[k] for k in ("span P", "gold-word R", "verdict P", "verdict R", "flagged clean", "bal acc")
    } == pytest.approx(
        {"span P": 1.0, "gold-word R": 0.5, "verdict P": 1.0, "verdict R": 0.5, "flagged clean": 0.0, "bal acc": 0.75}
    )
    # word P/R keep the evaluation's threshold: red (0.4) is not a predicted word there
    assert e.summary["word R"] == 0.0
    assert e.counts["errors"] == 1 and e.counts["valid"] == 2 and e.details["verdicts"] == 2
    x, y = e.details["by_domain"]["x"], e.details["by_domain"]["y"]
    assert (x["verdict P"], x["verdict R"], x["flagged clean"], x["bal acc"], x["span P"]) == (1.0, 1.0, 0.0, 1.0, 1.0)
    assert y["verdict R"] == 0.0 and math.isnan(y["flagged clean"]) and y["gold-word R"] == 0.0
    # the same detections without verdicts: verdict columns None, span columns unchanged
    for d in dets.values():
        d.hallucinated = None
    e = evaluate_captions(gold, dets)
    assert all(e.summary[k] is None for k in ("verdict P", "verdict R", "flagged clean", "bal acc"))
    assert e.summary["span P"] == 1.0 and e.details["verdicts"] == 0
    assert e.details["by_domain"]["x"]["bal acc"] is None


def test_spans_a_detector_decides_are_marked_by_its_decision_not_their_score():
    from benchmarks.evaluate import evaluate_captions
    from detectors.base import Detection, SpanScore

    gold = _verdict_gold()
    dets = {  # "red" weak (0.2) but called hallucinated; "dog." strong (0.9) but not
        "a": Detection(
            "a",
            "v",
            score=0.6,
            hallucinated=True,
            threshold=0.5,
            spans=[SpanScore(2, 5, "red", 0.2, hallucinated=True), SpanScore(6, 10, "dog.", 0.9, hallucinated=False)],
        ),
    }
    e = evaluate_captions({"a": gold["a"]}, dets)
    assert (e.summary["span P"], e.summary["gold-word R"]) == (1.0, 1.0)
    undecided = {"a": Detection("a", "v", score=0.6, threshold=0.5, spans=[SpanScore(2, 5, "red", 0.2)])}
    assert evaluate_captions({"a": gold["a"]}, undecided).summary["gold-word R"] == 0.0


def test_detection_verdict_fields_round_trip_and_old_lines_load():
    from detectors.base import Detection

    old = {"id": "a", "detector": "lexical", "score": 0.5, "spans": [], "sentences": [], "error": None}
    d = Detection.from_dict(old)
    assert d.hallucinated is None and d.threshold is None
    assert d.to_dict() == old  # unchanged output for detectors that do not decide
    new = Detection("a", "x", score=0.7, hallucinated=False, threshold=0.8)
    assert new.to_dict()["hallucinated"] is False and new.to_dict()["threshold"] == 0.8
    assert Detection.from_dict(json.loads(json.dumps(new.to_dict()))) == new
    from detectors.base import SpanScore

    decided = Detection("a", "x", score=0.7, spans=[SpanScore(0, 1, "A", 0.2, "object-D", True)])
    assert decided.to_dict()["spans"][0]["hallucinated"] is True
    assert Detection.from_dict(json.loads(json.dumps(decided.to_dict()))) == decided


# -- AlignBench ------------------------------------------------------------------------------
def test_auroc_by_group_matches_scikit_learn():
    y = [1, 0, 1, 0, 1, 0, 0]
    s = [0.9, 0.2, 0.4, 0.6, 0.7, 0.1, 0.3]
    g = ["a", "a", "a", "a", "b", "b", "b"]
    got = am.auroc_by_group(y, s, g)
    assert got["a"] == pytest.approx(sklearn_metrics.roc_auc_score(y[:4], s[:4]))
    assert got["b"] == 1.0
    assert math.isnan(am.auroc_by_group([1, 1], [0.2, 0.3], ["x", "x"])["x"])


def test_span_iou_and_segment_localisation_by_hand():
    assert am.span_iou((0, 4), (2, 6)) == pytest.approx(2 / 6)
    assert am.span_iou((0, 2), (5, 6)) == 0.0
    gold = [[(0, 10)], [(0, 4), (20, 24)]]
    pred = [[(0, 3, 0.9)], [(0, 4, 0.8), (1, 3, 0.7), (30, 34, 0.6)]]
    # ranked: 0.9 (IoU .3 -> TP), 0.8 (IoU 1 -> TP), 0.7 (its gold is taken -> FP), 0.6 (FP)
    # P = 1, 1, 2/3, 1/2; R = 1/3, 2/3, 2/3, 2/3 -> AP = 1/3 + 1/3
    assert am.segment_ap(gold, pred, iou_threshold=0.3) == pytest.approx(2 / 3)
    # At 0.31 the first is a miss: P = 0, 1/2, ...; R rises once, at rank 2 -> AP = 1/3 * 1/2
    assert am.segment_ap(gold, pred, iou_threshold=0.31) == pytest.approx(1 / 6)
    assert am.segment_ap(gold, [[], []]) == 0.0
    assert math.isnan(am.segment_ap([[]], [[(0, 1, 1.0)]]))
    assert am.segment_iou(gold, pred, threshold=0.5) == pytest.approx({"miou": (0.3 + 1 + 0) / 3, "hit_rate": 2 / 3})


def test_mean_by_groups_values():
    got = am.mean_by([0.2, 0.4, 0.9, 0.1], [(0, "correct"), (0, "correct"), (1, "incorrect"), (1, "correct")])
    assert got[(0, "correct")] == {"mean": pytest.approx(0.3), "n": 2}
    assert got[(1, "incorrect")]["mean"] == 0.9


# -- DetailVerifyBench -----------------------------------------------------------------------
def _fixture(split: str) -> tuple[dict, dict]:
    _, gold = dv.load(FIXTURES / f"bench_dvb_{split}.jsonl")
    return gold, dv.read_tagged_predictions(FIXTURES / f"bench_dvb_pred_{split}.json")


@pytest.mark.parametrize("split", ["real", "synthetic"])
def test_dvb_official_mode_reproduces_the_benchmark_script(split):
    """Expected figures: DetailVerifyBench's own calculate_metrics.py on these fixtures (see the
    fixture's "source"); the fixtures hit its quirks: a reflowed answer (truncation), NO
    HALLUCINATION, an empty answer, lower-case tags in an answer, decimals that cut sentences,
    label records matched by text (repeated texts, punctuation, empty ``labels``), a gold caption
    without an answer (left out)."""
    expected = json.loads((FIXTURES / "bench_dvb_official_expected.json").read_text())[split]
    gold, pred = _fixture(split)
    ids = [i for i in gold if i in pred]
    got = dm.official_scores(
        [gold[i].tagged for i in ids], [pred[i] for i in ids], [gold[i].label_records for i in ids]
    )
    for level in ("token", "sentence", "response"):
        assert got[level] == pytest.approx(expected[level], abs=1e-12), level
    assert got["types"] == expected["types"]
    assert got["n"] == expected["n"]


def _flags(tagged: str) -> list[bool]:
    """Per token of a tagged text, inside a tag or not: read piece by piece between the tags
    (an independent reading: the module maps char offsets instead)."""
    out, inside = [], False
    for piece in re.split(r"(</?HALLUCINATION>)", tagged):
        if piece in ("<HALLUCINATION>", "</HALLUCINATION>"):
            inside = piece == "<HALLUCINATION>"
        else:
            out += [inside] * len(dm.WORD.findall(piece))
    return out


def _split_half_by_hand(gold_tagged: list[str], pred_tagged: list[str]) -> dict:
    """The official script's split-half figures from its description: truncate to the shorter,
    cut at n // 2, per-caption P/R/F1/IoU (0 without gold tokens; IoU 1 when neither side
    flags anything), averaged; mean hallucinated tokens per half."""
    rows = {"first_half": [], "second_half": []}
    for g_text, p_text in zip(gold_tagged, pred_tagged, strict=True):
        g = _flags(g_text)
        p = [False] * len(g) if p_text.strip().upper() == "NO HALLUCINATION" else _flags(p_text)
        n = min(len(g), len(p))
        g, p = g[:n], p[:n]
        for half, (a, b) in (("first_half", (0, n // 2)), ("second_half", (n // 2, n))):
            gs, ps = g[a:b], p[a:b]
            tp = sum(x and y for x, y in zip(gs, ps, strict=True))
            fp = sum(y and not x for x, y in zip(gs, ps, strict=True))
            fn = sum(x and not y for x, y in zip(gs, ps, strict=True))
            prec = tp / (tp + fp) if tp + fp else 0.0
            rec = tp / (tp + fn) if tp + fn else 0.0
            f1 = 2 * prec * rec / (prec + rec) if prec + rec else 0.0
            iou = (tp / (tp + fp + fn) if tp + fp + fn else 1.0) if gs else 0.0
            rows[half].append((prec, rec, f1, iou, sum(gs), sum(ps)))
    n = len(gold_tagged)
    return {
        half: {
            "precision": sum(r[0] for r in v) / n,
            "recall": sum(r[1] for r in v) / n,
            "f1": sum(r[2] for r in v) / n,
            "iou": sum(r[3] for r in v) / n,
            "count": n,
            "avg_gt_hal_count": sum(r[4] for r in v) / n,
            "avg_test_hal_count": sum(r[5] for r in v) / n,
        }
        for half, v in rows.items()
    }


@pytest.mark.parametrize("split", ["real", "synthetic"])
def test_dvb_split_half_and_no_hallucination_on_the_fixture(split):
    gold, pred = _fixture(split)
    ids = [i for i in gold if i in pred]
    got = dm.official_scores(
        [gold[i].tagged for i in ids], [pred[i] for i in ids], [gold[i].label_records for i in ids]
    )
    by_hand = _split_half_by_hand([gold[i].tagged for i in ids], [pred[i] for i in ids])
    for half in ("first_half", "second_half"):
        assert got["split_half"][half] == pytest.approx(by_hand[half], abs=1e-12), half
    # one bare NO HALLUCINATION answer in the real predictions, none in the synthetic ones
    assert got["no_hallucination_expanded"] == {"real": 1, "synthetic": 0}[split]


def test_dvb_split_half_by_hand():
    # "A red car and two dogs." has 6 word tokens (the full stop is none): halves [0, 3), [3, 6)
    tag = dv.to_tagged
    caption = "A red car and two dogs."
    got = dm.official_scores([tag(caption, [(2, 5), (14, 17)])], [tag(caption, [(2, 5), (18, 22)])])
    first, second = got["split_half"]["first_half"], got["split_half"]["second_half"]
    assert first == {
        "precision": 1.0,
        "recall": 1.0,
        "f1": 1.0,
        "iou": 1.0,
        "count": 1,
        "avg_gt_hal_count": 1.0,
        "avg_test_hal_count": 1.0,
    }
    # second half: gold {two}, predicted {dogs}: all 0
    assert (second["precision"], second["recall"], second["iou"], second["avg_test_hal_count"]) == (0, 0, 0, 1)
    # a one-token caption: the first half is empty (all 0), NO HALLUCINATION on a clean one gives IoU 1
    tiny = dm.official_scores(["Dogs."], ["NO HALLUCINATION"])
    assert tiny["split_half"]["first_half"]["iou"] == 0.0 and tiny["split_half"]["second_half"]["iou"] == 1.0
    assert tiny["no_hallucination_expanded"] == 1 and dm.no_hallucination_expanded(["no hallucination", ""]) == 1


def test_dvb_official_quirks_by_hand():
    gold = "A <HALLUCINATION>red</HALLUCINATION> car. A dog."
    # The same answer, re-spaced with a word inserted: official truncates and compares by position.
    r = dm.official_scores([gold], ["A very <HALLUCINATION>red</HALLUCINATION> car. A dog."])
    assert r["token"]["f1"] == 0.0 and r["length_mismatches"] == 1
    # NO HALLUCINATION on a clean caption: P = R = F1 = 0 but IoU = 1 (nothing on either side).
    clean = dm.official_scores(["A dog."], ["no hallucination "])
    assert clean["token"] == {"precision": 0.0, "recall": 0.0, "f1": 0.0, "iou": 1.0}
    # Lower-case tags are words to the official tokeniser; aligned mode reads them.
    low = "A <hallucination>red</hallucination> car. A dog."
    assert dm.official_scores([gold], [low])["token"]["recall"] == 0.0
    caption = "A red car. A dog."
    spans = dm.spans_from_tagged(caption, low)
    assert dm.aligned_scores([caption], [[(2, 5)]], [spans])["token"]["f1"] == 1.0


def test_dvb_aligned_mode_survives_reflowing_by_hand():
    caption = "The line chart shows sales. The highest bar is red."
    answer = "The line chart clearly shows sales. The highest bar is <HALLUCINATION>red</HALLUCINATION>."
    gold_spans = [(4, 8, "Type A"), (47, 50, "Type B")]
    spans = dm.spans_from_tagged(caption, answer)
    assert spans == [(47, 50)]
    got = dm.aligned_scores([caption], [gold_spans], [spans])
    # tokens: 10; gold {line, red}; predicted {red}: P = 1, R = 1/2, F1 = 2/3, IoU = 1/2
    assert got["token"] == pytest.approx({"precision": 1.0, "recall": 0.5, "f1": 2 / 3, "iou": 0.5})
    # sentences: both gold-positive, the second predicted: P = 1, R = 1/2
    assert got["sentence"] == pytest.approx({"precision": 1.0, "recall": 0.5, "f1": 2 / 3})
    assert got["types"] == {
        "Type A": {"recall": 0.0, "hits": 0, "total": 1},
        "Type B": {"recall": 1.0, "hits": 1, "total": 1},
    }
    official = dm.official_scores([dv.to_tagged(caption, [(4, 8), (47, 50)])], [answer])
    assert official["token"]["f1"] == 0.0  # shifted by one token after "clearly": nothing lines up


def test_dvb_aligned_equals_official_when_the_text_is_unchanged():
    gold, pred = _fixture("synthetic")
    ids = list(pred)
    spans = [dm.spans_from_tagged(gold[i].caption, pred[i]) for i in ids]
    a = dm.aligned_scores([gold[i].caption for i in ids], [gold[i].spans for i in ids], spans)
    o = dm.official_scores([gold[i].tagged for i in ids], [pred[i] for i in ids], [gold[i].label_records for i in ids])
    assert a["token"] == pytest.approx(o["token"]) and a["sentence"] == pytest.approx(o["sentence"])


def test_dvb_sentence_spans_cut_like_the_benchmark():
    from parsers.sentences import split_sentences

    text = "The average is 67.21%. Next one!  Last"
    assert [text[a:b] for a, b in split_sentences(text, rule="punctuation")] == [
        "The average is 67.",
        "21%.",
        "Next one!",
        "Last",
    ]


def test_no_nan_in_json_output():
    from benchmarks.evaluate import clean

    got = clean({"a": float("nan"), "b": [np.float64(0.5)], 3: {"c": np.int64(2)}})
    assert got == {"a": None, "b": [0.5], "3": {"c": 2}}
