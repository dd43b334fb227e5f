"""The pieces of the graph edit distance worked out by hand: the local edge estimates that guide
the assignment, the exact edge cost of a node map with unequal edit costs, and the local search
that repairs a map (moves a node to deletion; keeps refining below a cost of 1)."""

from __future__ import annotations

import numpy as np
import pytest

from cece.ged import EdgeCosts, _refine, assignment_matrix, induced_cost, local_edge_costs, match

UNEQUAL = EdgeCosts(substitute=1.0, delete=2.0, insert=0.5)


def test_local_edge_costs_split_each_edge_between_its_two_ends():
    # A: 0 -on-> 1; B: 0 -near-> 1. Substituting the predicate costs 1, half at each end; the
    # ends whose edges point the other way pay a deletion (2) and an insertion (0.5), halved.
    sub, dele, ins = local_edge_costs(2, 2, [(0, 1, "on")], [(0, 1, "near")], edge_costs=UNEQUAL)
    assert sub.tolist() == [[0.5, 1.25], [1.25, 0.5]]
    assert dele.tolist() == [1.0, 1.0] and ins.tolist() == [0.25, 0.25]
    # Reversed in B: the same predicate, but outgoing at the other node.
    sub, dele, ins = local_edge_costs(2, 2, [(0, 1, "on")], [(1, 0, "on")], edge_costs=UNEQUAL)
    assert sub.tolist() == [[1.25, 0.0], [0.0, 1.25]]
    assert dele.tolist() == [1.0, 1.0] and ins.tolist() == [0.25, 0.25]
    # Two parallel edges against one: one pairs for free, the other is deleted (2, halved at each end).
    sub, _, _ = local_edge_costs(2, 2, [(0, 1, "on"), (0, 1, "on")], [(0, 1, "on")], edge_costs=UNEQUAL)
    assert sub.tolist() == [[1.0, 2.25], [2.25, 1.0]]
    sub, dele, ins = local_edge_costs(2, 0, [(0, 1, "on")], [], edge_costs=UNEQUAL)
    assert sub.shape == (2, 0) and dele.tolist() == [1.0, 1.0] and ins.tolist() == []


@pytest.mark.parametrize(
    ("on_a", "on_b", "edge"),
    [
        (["on", "on"], [], 4.0),  # two deletions at 2
        ([], ["on", "on"], 1.0),  # two insertions at 0.5
        (["on", "on"], ["near"], 3.0),  # one substitution (1 < 2 + 0.5), one deletion
        (["on"], ["near", "on"], 0.5),  # one kept, one inserted
    ],
)
def test_induced_edge_cost_with_unequal_costs(on_a, on_b, edge):
    a, b, zero = [(0, 1, p) for p in on_a], [(0, 1, p) for p in on_b], np.zeros(2)
    assert induced_cost([0, 1], np.zeros((2, 2)), zero, zero, edges_a=a, edges_b=b, edge_costs=UNEQUAL) == (0.0, edge)


def test_refinement_goes_on_below_a_cost_of_one():
    # Two dogs on two cats each side, paired the other way round: 1.0 unrefined (two edges at 0.5).
    sub = np.array([[0.0 if (a < 2) == (b < 2) else 5.0 for b in range(4)] for a in range(4)])
    half = EdgeCosts(substitute=0.5, delete=0.5, insert=0.0)
    ea, eb = [(0, 2, "on"), (1, 3, "on")], [(0, 3, "on"), (1, 2, "on")]
    plain = match(sub, np.full(4, 4.0), np.zeros(4), edges_a=ea, edges_b=eb, edge_costs=half, refine=False)
    refined = match(sub, np.full(4, 4.0), np.zeros(4), edges_a=ea, edges_b=eb, edge_costs=half)
    assert plain.cost == 1.0 and (refined.mapping, refined.cost) == ([0, 1, 3, 2], 0.0)


def test_refinement_moves_a_node_to_deletion():
    # Substituting costs 5, deleting 1: the search deletes the node (-1) and frees the image node.
    assert _refine([0], np.array([[5.0]]), np.array([1.0]), np.array([0.0]), [], [], EdgeCosts()) == [-1]
    # ... or moves it to a free image node when that is cheaper.
    sub = np.array([[5.0, 0.0]])
    assert _refine([0], sub, np.array([1.0]), np.zeros(2), [], [], EdgeCosts()) == [1]


def test_local_edge_costs_substitute_no_dearer_than_delete_and_insert():
    # Substituting (3) costs more than deleting and inserting (1 + 0.5): a pair is charged 1.5.
    dear = EdgeCosts(substitute=3.0, delete=1.0, insert=0.5)
    sub, _, _ = local_edge_costs(1, 1, [(0, 0, "on")], [(0, 0, "near")], edge_costs=dear)
    assert sub.tolist() == [[1.5]]  # 0.5 x 1.5 as the subject, again as the object


def test_assignment_matrix_layout():
    c = assignment_matrix(np.array([[1.0, 2.0], [3.0, 4.0]]), np.array([5.0, 6.0]), np.array([7.0, 8.0]))
    big = 1e9
    assert c.tolist() == [
        [1.0, 2.0, 5.0, big],
        [3.0, 4.0, big, 6.0],
        [7.0, big, 0.0, 0.0],
        [big, 8.0, 0.0, 0.0],
    ]


def test_the_assignment_counts_the_edges_a_deletion_takes_along():
    # Deleting a node (0.2) looks cheaper than substituting it (1) until its edge is counted
    # (0.5 at each end); unrefined, so the assignment alone decides.
    sub = np.array([[1.0, 9.0], [9.0, 1.0]])
    kept = match(sub, np.full(2, 0.2), np.full(2, 1.2), edges_a=[(0, 1, "on")], refine=False)
    assert kept.mapping == [0, 1]
    assert (kept.node_cost, kept.edge_cost, kept.cost) == (2.0, 1.0, 3.0)
    assert kept.matrix is not None and kept.matrix.shape == (4, 4) and kept.matrix[0, 2] == pytest.approx(0.7)
    # The same on the image side: inserting a node takes its edges along.
    inserted = match(sub, np.full(2, 1.2), np.full(2, 0.2), edges_b=[(0, 1, "on")], edge_costs=UNEQUAL, refine=False)
    assert inserted.mapping == [0, 1] and inserted.edge_cost == 0.5


def test_empty_graphs_and_anchors():
    empty = match(np.zeros((0, 0)), np.zeros(0), np.zeros(0))
    assert (empty.mapping, empty.inserted, empty.cost, empty.node_cost, empty.edge_cost) == ([], [], 0.0, 0.0, 0.0)
    # Without anchors, deleting and inserting (0.5 + 0.5) beats substituting (1.5).
    apart = match(np.array([[1.5]]), np.array([0.5]), np.array([0.5]))
    assert (apart.mapping, apart.inserted, apart.node_cost) == ([-1], [0], 1.0)
    # An anchored pair is used even when everything costs nothing ...
    anchors = np.array([[False, True], [True, False]])
    assert match(np.zeros((2, 2)), np.zeros(2), np.zeros(2), anchors=anchors).mapping == [1, 0]
    # ... and however much cheaper the other pairing is.
    sub = np.array([[0.0, 3.0], [3.0, 0.0]])
    one = np.array([[False, True], [False, False]])
    anchored = match(sub, np.full(2, 10.0), np.full(2, 10.0), anchors=one)
    assert (anchored.mapping, anchored.cost) == ([1, 0], 6.0)
