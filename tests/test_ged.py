"""The bipartite GED against exact networkx.graph_edit_distance, with the same WordNet costs."""

from __future__ import annotations

import itertools
import random
import statistics

import networkx as nx
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cece.ged import EdgeCosts, induced_cost, match
from knowledge import distance_matrix, root_distance

POOL = [
    "dog.n.01",
    "cat.n.01",
    "man.n.01",
    "woman.n.01",
    "sofa.n.01",
    "laptop.n.01",
    "pizza.n.01",
    "food.n.01",
    "guitar.n.01",
    "horse.n.01",
]
PREDICATES = ["on", "next to", "hold"]
EDGE = EdgeCosts(substitute=1.0, delete=1.0, insert=0.0)


@st.composite
def graphs(draw, max_nodes=6):
    n = draw(st.integers(0, max_nodes))
    labels = [draw(st.sampled_from(POOL)) for _ in range(n)]
    pairs = [(u, v) for u in range(n) for v in range(n) if u != v]
    chosen = draw(st.lists(st.sampled_from(pairs), unique=True, max_size=min(len(pairs), 6))) if pairs else []
    edges = [(u, v, draw(st.sampled_from(PREDICATES))) for u, v in chosen]
    return labels, edges


def approx(a, b):
    (la, ea), (lb, eb) = a, b
    sub = distance_matrix(la, lb)
    dele = np.array([float(root_distance(s)) for s in la])
    ins = np.zeros(len(lb))
    return match(sub, dele, ins, edges_a=ea, edges_b=eb, edge_costs=EDGE)


def exact(a, b) -> float:
    def to_nx(labels, edges):
        g = nx.DiGraph()
        for i, s in enumerate(labels):
            g.add_node(i, synset=s)
        for u, v, p in edges:
            g.add_edge(u, v, p=p)
        return g

    return nx.graph_edit_distance(
        to_nx(*a),
        to_nx(*b),
        node_subst_cost=lambda x, y: float(distance_matrix([x["synset"]], [y["synset"]])[0, 0]),
        node_del_cost=lambda x: float(root_distance(x["synset"])),
        node_ins_cost=lambda x: 0.0,
        edge_subst_cost=lambda x, y: EDGE.between(x["p"], y["p"]),
        edge_del_cost=lambda x: EDGE.delete,
        edge_ins_cost=lambda x: EDGE.insert,
        timeout=20,
    )


def path_cost(a, b, mapping) -> float:
    """Cost of the edit path given by a node map, written independently of cece.ged: node
    substitutions/deletions/insertions, then every edge substituted, deleted or inserted."""
    (la, ea), (lb, eb) = a, b
    cost = 0.0
    for i, j in enumerate(mapping):
        cost += float(distance_matrix([la[i]], [lb[j]])[0, 0]) if j is not None else float(root_distance(la[i]))
    b_edges = {(u, v): p for u, v, p in eb}
    used = set()
    for u, v, p in ea:
        fu, fv = mapping[u], mapping[v]
        if fu is not None and fv is not None and (fu, fv) in b_edges:
            cost += EDGE.between(p, b_edges[(fu, fv)])
            used.add((fu, fv))
        else:
            cost += EDGE.delete
    cost += EDGE.insert * sum(1 for e in b_edges if e not in used)
    return cost


def brute_force_ged(a, b) -> float:
    """The true GED by enumerating every partial injection of A's nodes into B's."""
    n, m = len(a[0]), len(b[0])
    best = float("inf")
    for targets in itertools.product([None, *range(m)], repeat=n):
        used = [t for t in targets if t is not None]
        if len(used) == len(set(used)):
            best = min(best, path_cost(a, b, list(targets)))
    return best if n else path_cost(a, b, [])


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(graphs(), graphs())
def test_approximation_is_an_upper_bound(a, b):
    m = approx(a, b)
    # The reported cost is that of a real edit path, priced independently of cece.ged.
    assert m.cost == pytest.approx(path_cost(a, b, [j if j >= 0 else None for j in m.mapping]))
    nx_cost = exact(a, b)
    if m.cost < nx_cost - 1e-9:
        # networkx's search can miss the optimum when assignments tie (networkx issue #8099);
        # then the enumerated optimum decides, and networkx must not beat it either.
        true = brute_force_ged(a, b)
        assert true <= nx_cost + 1e-9
        assert m.cost >= true - 1e-9


@settings(max_examples=60, deadline=None)
@given(graphs())
def test_identical_graphs_cost_nothing(a):
    m = approx(a, a)
    assert m.cost == 0.0
    assert m.inserted == []


@settings(max_examples=60, deadline=None)
@given(graphs(), graphs())
def test_reported_cost_is_the_induced_edit_path(a, b):
    m = approx(a, b)
    sub = distance_matrix(a[0], b[0])
    dele = np.array([float(root_distance(s)) for s in a[0]])
    node, edge = induced_cost(m.mapping, sub, dele, np.zeros(len(b[0])), edges_a=a[1], edges_b=b[1], edge_costs=EDGE)
    assert m.cost == pytest.approx(node + edge)
    assert sorted([j for j in m.mapping if j >= 0] + m.inserted) == list(range(len(b[0])))


def test_deletion_is_a_real_choice():
    # guitar is closer to the root than to dog: delete it rather than force a substitution.
    m = approx((["guitar.n.01", "sofa.n.01"], []), (["dog.n.01", "sofa.n.01"], []))
    assert m.mapping == [-1, 1]
    assert m.inserted == [0]


def mean_ratio(seed: int = 0, pairs: int = 40) -> float:
    """Mean approx / exact over random graph pairs with exact > 0."""
    rng = random.Random(seed)

    def rand_graph():
        n = rng.randint(1, 6)
        labels = [rng.choice(POOL) for _ in range(n)]
        es = {(u, v) for u in range(n) for v in range(n) if u != v and rng.random() < 0.25}
        return labels, [(u, v, rng.choice(PREDICATES)) for u, v in sorted(es)]

    ratios = []
    while len(ratios) < pairs:
        a, b = rand_graph(), rand_graph()
        ex = exact(a, b)
        if ex > 0:
            ratios.append(approx(a, b).cost / ex)
    return statistics.mean(ratios)


def test_mean_ratio_on_fixed_seeds_is_close_to_one():
    r = mean_ratio(seed=0, pairs=30)
    print(f"mean approx/exact ratio: {r:.4f}")
    # Slightly below 1 is possible only where networkx itself misses the optimum (networkx issue #8099).
    assert 0.95 <= r < 1.2
