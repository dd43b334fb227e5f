"""Exact expectations for the scoring core that mutation testing (``make mutation``) checks:
each metric on hand-made edits and scores whose values are worked out by hand, the edge cases
(no objects, no image objects, no positives, ties, bin edges) and the errors."""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest

from benchmarks.metrics import (
    auroc,
    average_precision,
    expected_calibration_error,
    localisation_hit,
    spans_overlap,
)
from cece.edits import Edit
from cece.ged import EdgeCosts, induced_cost, match
from cece.metrics import ObjectMetrics, RoleMetrics, aggregate_metrics, chair_i, chair_s, object_metrics, role_metrics


def _obj(cls: str, hallucinated: bool = True, wup: float | None = None, op: str = "replace") -> Edit:
    return Edit(op=op, level="object", cls=cls, wup=wup, hallucinated=hallucinated)


def _rel(cls: str, status: str = "hallucinated") -> Edit:
    return Edit(op="delete", level="relation", cls=cls, status=status, hallucinated=status == "hallucinated")


def test_object_metrics_count_each_class_and_rate():
    edits = [
        _obj("D", op="delete"),
        _obj("D", hallucinated=False, op="delete"),  # doubted: unverified, not a hallucination
        _obj("R", wup=0.5),
        _obj("R"),  # no Wu-Palmer similarity: not in the mean
        _obj("O", wup=0.9),  # O's similarity is not R's
        _obj("U", hallucinated=False),
        _obj("I", hallucinated=False, op="insert"),
        _obj("I", hallucinated=False, op="insert"),
        _rel("D"),  # another level: not counted here
        Edit(op="replace", level="attribute", cls="R", hallucinated=True),
    ]
    m = object_metrics(edits, n_objects=5, n_image_objects=4, ancestors=[8, 10, 9])
    assert m == ObjectMetrics(
        n_objects=5,
        n_ancestors=9.0,
        hal=4,
        hal_rate=0.8,
        granularity=0.5,
        d=1,
        r=2,
        o=1,
        u=1,
        i=2,
        d_rate=0.2,
        r_rate=0.4,
        o_rate=0.2,
        u_rate=0.2,
        r_similarity=0.5,
        unverified=1,
    )
    assert list(m.to_dict()) == list(vars(ObjectMetrics()))


def test_object_metrics_edge_cases():
    empty = object_metrics([], n_objects=0, n_image_objects=0, ancestors=[])
    assert empty == ObjectMetrics()  # rates 0, granularity 1, no similarity
    assert empty.r_similarity is None and empty.granularity == 1.0 and empty.n_ancestors == 0.0
    only_missing = object_metrics([_obj("I", False, op="insert")] * 3, n_objects=0, n_image_objects=3, ancestors=[])
    assert only_missing.granularity == 0.0 and only_missing.i == 3 and only_missing.hal_rate == 0.0
    doubted = object_metrics([_obj("O", hallucinated=False), _obj("R", hallucinated=False, wup=0.3)], 2, 2, [4])
    assert (doubted.hal, doubted.o, doubted.r, doubted.unverified, doubted.r_similarity) == (0, 0, 0, 2, None)
    two = object_metrics([_obj("R", wup=0.2), _obj("R", wup=0.6)], 4, 1, [3, 6])
    assert two.r_similarity == pytest.approx(0.4) and two.n_ancestors == 4.5 and two.r_rate == 0.5


def test_role_metrics_count_wrong_and_unverified_triples():
    edits = [
        _rel("D"),
        _rel("D", status="unverified"),
        _rel("R", status="consequence"),  # wrong because an end is: still wrong
        _rel("R", status="unverified"),
        Edit(op="insert", level="relation", cls="I", status="suggestion"),
        _obj("D"),
    ]
    m = role_metrics(edits, n_roles=4, n_image_roles=2, judged=True)
    assert m == RoleMetrics(n_roles=4, d=1, r=1, i=1, hal_rate=0.5, granularity=0.5, judged=True, unverified=2)
    assert list(m.to_dict()) == list(vars(RoleMetrics()))
    none = role_metrics([], n_roles=0, n_image_roles=0, judged=False)
    assert none == RoleMetrics(judged=False) and none.granularity == 1.0 and none.hal_rate == 0.0
    assert role_metrics([], 3, 2).judged is True
    missing = role_metrics([Edit(op="insert", level="relation", cls="I", status="suggestion")], 0, 4)
    assert missing.granularity == 0.75 and missing.i == 1


def test_aggregate_metrics_means_leave_out_missing_values():
    rows = [{"hal_rate": 0.5, "r_similarity": None, "n": 1}, {"hal_rate": 0.0, "r_similarity": 0.8, "n": 3}]
    assert aggregate_metrics(rows) == {"n_captions": 2, "hal_rate": 0.25, "r_similarity": 0.8, "n": 2.0}
    assert aggregate_metrics([{"x": None}]) == {"n_captions": 1, "x": None}
    assert aggregate_metrics([]) == {"n_captions": 0}


def test_chair():
    assert chair_s([True, False, False, True]) == 0.5 and chair_s([]) == 0.0 and chair_s([1, 0, 0]) == 1 / 3
    assert chair_i([1, 0, 2], [2, 1, 3]) == 0.5 and chair_i([], []) == 0.0 and chair_i([0], [0]) == 0.0
    assert chair_i([3], [4]) == 0.75


def test_average_precision_and_auroc_by_hand():
    assert average_precision([1, 0, 1, 0], [0.9, 0.8, 0.7, 0.1]) == pytest.approx((1 + 2 / 3) / 2)
    assert average_precision([0, 1], [0.9, 0.1]) == 0.5
    assert average_precision([1, 1, 0], [0.5, 0.5, 0.5]) == pytest.approx(2 / 3)  # ties enter together
    assert average_precision([0, 1, 1], [0.2, 0.9, 0.9]) == 1.0
    assert math.isnan(average_precision([0, 0], [0.3, 0.4]))
    assert auroc([1, 0, 1, 0], [0.9, 0.8, 0.7, 0.1]) == 0.75 and auroc([1, 0], [0.5, 0.5]) == 0.5
    assert auroc([0, 1], [0.9, 0.1]) == 0.0 and auroc([1, 1, 0], [0.4, 0.6, 0.5]) == 0.5
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no 0/0 on the way to NaN
        assert math.isnan(auroc([1, 1], [0.2, 0.3])) and math.isnan(auroc([0, 0], [0.2, 0.3]))
    with pytest.raises(ValueError, match="2 labels but 3 scores"):
        auroc([1, 0], [0.1, 0.2, 0.3])
    with pytest.raises(ValueError, match="1 labels but 2 scores"):
        average_precision([1], [0.1, 0.2])


def test_spans_and_localisation():
    assert not spans_overlap((0, 3), (3, 5)) and not spans_overlap((3, 5), (0, 3))
    assert spans_overlap((0, 4), (3, 5)) and spans_overlap((3, 5), (0, 4)) and spans_overlap((1, 2), (0, 9))
    assert localisation_hit([], [(0, 5)]) is False
    assert localisation_hit([(0, 3, 0.9), (6, 9, 0.2)], [(6, 9)]) is False  # the top span misses
    assert localisation_hit([(6, 9, 0.9), (0, 3, 0.2)], [(6, 9)]) is True
    assert localisation_hit([(0, 3, 0.5), (6, 9, 0.5)], [(6, 9)]) is False  # the first of tied top spans


def test_expected_calibration_error_bins_and_errors():
    assert expected_calibration_error([0, 1], [0.05, 0.15]) == pytest.approx((0.05 + 0.85) / 2)  # two bins
    assert expected_calibration_error([0, 1], [0.1, 0.1]) == pytest.approx(0.4)  # 0.1 closes the first bin
    assert expected_calibration_error([1, 0], [0.85, 0.95]) == pytest.approx((0.15 + 0.95) / 2)  # the last two bins
    assert expected_calibration_error([1, 0, 1], [1.0, 0.0, 0.95]) == pytest.approx(0.05 / 3)
    assert expected_calibration_error([1, 0], [0.9, 0.9], n_bins=1) == pytest.approx(0.4)
    assert expected_calibration_error([1, 0], [0.3, 0.3], n_bins=2) == pytest.approx(0.2)
    assert math.isnan(expected_calibration_error([], []))
    with pytest.raises(ValueError, match="n_bins must be at least 1, got 0"):
        expected_calibration_error([1], [0.5], n_bins=0)
    for bad in ([-0.1], [1.1], [float("nan")]):
        with pytest.raises(ValueError, match=r"^y_prob must lie in \[0, 1\]$"):
            expected_calibration_error([1], bad)


EDGES = EdgeCosts(substitute=2.0, delete=1.0, insert=0.5)


@pytest.mark.parametrize(
    ("on_a", "on_b", "cost"),
    [
        (["on", "hold"], ["on"], 1.0),  # one equal, one deleted
        (["on"], ["hold", "on"], 0.5),  # one equal, one inserted
        (["on", "on"], ["hold"], 2.5),  # one replaced (delete + insert 1.5 < substitute 2), one deleted
        (["on"], ["hold"], 1.5),
        (["on", "hold"], ["hold", "on"], 0.0),
        (["on", "on"], ["on"], 1.0),
        (["on"], [], 1.0),
        ([], ["on", "on"], 1.0),
    ],
)
def test_induced_edge_cost_of_parallel_predicates(on_a, on_b, cost):
    zero = np.zeros((2, 2))
    node, edge = induced_cost(
        [0, 1],
        zero,
        np.zeros(2),
        np.zeros(2),
        edges_a=[(0, 1, p) for p in on_a],
        edges_b=[(0, 1, p) for p in on_b],
        edge_costs=EDGES,
    )
    assert (node, edge) == (0.0, cost)
    cheap = EdgeCosts(substitute=1.0, delete=1.0, insert=0.5)
    if (on_a, on_b) == (["on"], ["hold"]):
        assert induced_cost(
            [0, 1], zero, np.zeros(2), np.zeros(2), edges_a=[(0, 1, "on")], edges_b=[(0, 1, "hold")], edge_costs=cheap
        ) == (0.0, 1.0)


# Two dogs (0, 1) and two cats (2, 3) on each side: which dog is on which cat only the edges say.
TWINS_SUB = np.array([[0.0 if (a < 2) == (b < 2) else 5.0 for b in range(4)] for a in range(4)])


def _twins(edges_a, edges_b, **kw):
    return match(
        TWINS_SUB,
        np.full(4, 4.0),
        np.zeros(4),
        edges_a=edges_a,
        edges_b=edges_b,
        edge_costs=EdgeCosts(substitute=1.0, delete=1.0, insert=0.0),
        **kw,
    )


def test_refinement_finds_the_twins_the_assignment_cannot_tell_apart():
    ea, eb = [(0, 2, "on"), (1, 3, "on")], [(0, 3, "on"), (1, 2, "on")]
    assert _twins(ea, eb, refine=False).cost == 2.0
    refined = _twins(ea, eb)
    assert (refined.mapping, refined.cost) == ([0, 1, 3, 2], 0.0)


def test_refinement_keeps_every_anchored_pair():
    ea, eb = [(0, 2, "on"), (1, 3, "on"), (0, 1, "x")], [(1, 2, "on"), (0, 3, "on"), (1, 0, "x")]
    free = _twins(ea, eb)
    assert (free.mapping, free.cost) == ([1, 0, 2, 3], 0.0)
    for i, j in ((0, 0), (1, 1), (2, 3), (3, 2)):
        anchors = np.zeros((4, 4), dtype=bool)
        anchors[i, j] = True
        kept = _twins(ea, eb, anchors=anchors)
        assert kept.mapping[i] == j and (kept.mapping, kept.cost) == ([0, 1, 3, 2], 1.0)
    anchors = np.zeros((4, 4), dtype=bool)
    anchors[0, 0] = True
    same = _twins([(0, 2, "on"), (1, 3, "on")], [(0, 2, "on"), (1, 3, "on")], anchors=anchors)
    assert (same.mapping, same.cost) == ([0, 1, 2, 3], 0.0)


# -- the judge, through its public behaviour (its fitted numbers change with each refit) ---------


def _explain(caption, **side):
    from cece import explain

    return explain(caption, **side)


def test_judge_against_an_annotation_is_certain_and_reports_one_mistake_once():
    from cece.judge import DOUBT, HEDGED

    e = _explain(
        "A guitar on a sofa.", annotation={"objects": ["dog", "sofa"], "relationships": [["dog", "on", "sofa"]]}
    )
    deleted, missing, triple = e.edits
    assert (deleted.cls, deleted.confidence, deleted.hallucinated, deleted.status) == ("D", 1.0, True, "hallucinated")
    assert (missing.cls, missing.confidence, missing.hallucinated, missing.status) == ("I", 0.0, False, "suggestion")
    # The triple is wrong only because its subject is: a consequence, caused by edit 0, a doubt.
    assert (triple.status, triple.caused_by, triple.confidence, triple.hallucinated) == ("consequence", 0, DOUBT, False)
    assert e.hallucinated and e.score == 1.0
    hedged = _explain("Possibly a cat on a sofa.", annotation=["dog", "sofa"])
    (cat,) = hedged.edits
    assert (cat.confidence, cat.status, cat.hallucinated) == (HEDGED, "unverified", False)
    assert not hedged.hallucinated and hedged.score == pytest.approx(HEDGED)
    colour = _explain("A red car.", annotation={"objects": [{"names": ["car"], "attributes": ["blue"]}]})
    assert [(x.level, x.cls, x.confidence, x.status) for x in colour.edits] == [("attribute", "R", 1.0, "hallucinated")]
    clean = _explain(
        "A dog on a sofa.", annotation={"objects": ["dog", "sofa"], "relationships": [["dog", "on", "sofa"]]}
    )
    assert clean.edits == [] and clean.score == 0.0 and not clean.hallucinated


def test_judge_against_references_marks_what_the_verdict_rests_on():
    e = _explain(
        "A cat sleeping on a sofa.",
        references=["A dog sleeping on a sofa.", "A brown dog lying on a couch.", "A dog on a sofa."],
    )
    flagged = [x for x in e.edits if x.hallucinated]
    assert e.hallucinated == bool(flagged) and e.score >= e.threshold
    (cat,) = flagged
    assert (cat.level, cat.source, cat.status) == ("object", "cat", "hallucinated") and 0 < cat.confidence <= 1
    assert cat.evidence["reasons"] and all(isinstance(name, str) for name, _ in cat.evidence["reasons"])
    triple = next(x for x in e.edits if x.level == "relation" and x.op != "insert")
    assert (triple.status, triple.caused_by, triple.hallucinated) == ("consequence", e.edits.index(cat), False)
    assert all(x.status == "suggestion" and x.confidence == 0.0 for x in e.edits if x.op == "insert")
    # Undo the flagged edits and nothing is left to call the caption hallucinated.
    cf = _explain(
        e.counterfactual, references=["A dog sleeping on a sofa.", "A brown dog lying on a couch.", "A dog on a sofa."]
    )
    assert not cf.hallucinated and e.fixed_point is True
    supported = _explain("A dog on a couch.", references=["A dog sleeping on a sofa.", "A dog on a sofa."])
    assert not supported.hallucinated and not any(x.level == "object" and x.op != "insert" for x in supported.edits)
