"""Approximate graph edit distance by bipartite assignment (Riesen & Bunke), solved with lapjv.

The functions here work on plain data: node cost matrices and labelled edge lists. Knowledge
(WordNet) costs are computed elsewhere (:mod:`cece.costs`) and passed in, so the same algorithm
can be checked against :func:`networkx.graph_edit_distance` with identical costs.

Two graphs ``A`` (n nodes, the caption) and ``B`` (m nodes, the image) are matched by solving one
linear sum assignment over the square ``(n+m) x (n+m)`` matrix::

    [ S (n x m)         | D (n x n, diagonal) ]     S[i, j]  substitute a_i by b_j (+ local edges)
    [ I (m x m, diag.)  | 0 (m x n)          ]     D[i, i]  delete a_i (+ its edges)
                                                    I[j, j]  insert b_j (+ its edges)

so deleting a node and inserting another is a real alternative to substituting them, unlike a
rectangular matching that always pairs ``min(n, m)`` nodes. Optional ``anchors`` (n x m booleans:
identical or synonymous concepts) are matched before anything else: the assignment first
maximises the number of anchored pairs it uses, then minimises cost, so a faithful object is
never traded for a cheaper edit path ("a dog and a cat" against a dog: the dog stays the dog).
The assignment gives a node map; the returned cost is the *exact* cost of the edit path that the
map induces (node and edge edits), so it is an upper bound on the true GED, and equal to it when
the map is optimal.

>>> import numpy as np
>>> sub = np.array([[0.0, 5.0], [5.0, 0.0]])
>>> m = match(sub, np.array([3.0, 3.0]), np.zeros(2), edges_a=[(0, 1, "on")], edges_b=[(0, 1, "on")])
>>> m.mapping, m.cost
([0, 1], 0.0)
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np
from lapjv import lapjv

Edge = tuple[int, int, str]  # (subject node, object node, predicate label)

# Forbidden cells get a large finite cost: lapjv needs finite input.
_FORBIDDEN = 1e9
# Local search over swaps is quadratic; beyond this many nodes the assignment alone is used.
_REFINE_MAX_NODES = 60


@dataclass(frozen=True)
class EdgeCosts:
    """Costs of relation edits: substitute a predicate, delete a caption edge, insert an image edge.

    Predicates are compared by label: equal labels cost nothing, different ones ``substitute``.
    """

    substitute: float = 1.0
    delete: float = 1.0
    insert: float = 0.0

    def between(self, p: str, q: str) -> float:
        return 0.0 if p == q else self.substitute


@dataclass
class Match:
    """A node map between graphs A and B and the cost of the edit path it induces.

    ``mapping[i]`` is the B node that A node ``i`` becomes, or -1 when ``i`` is deleted;
    ``inserted`` lists the B nodes nobody maps to.
    """

    mapping: list[int]
    inserted: list[int]
    cost: float
    node_cost: float
    edge_cost: float
    matrix: np.ndarray | None = field(default=None, repr=False)


def _pred_counts(n: int, edges: Sequence[Edge], vocab: dict[str, int], incoming: bool) -> np.ndarray:
    """Per node, how many of its outgoing (or ``incoming``) edges carry each predicate."""
    counts = np.zeros((n, len(vocab)))  # no edges, no columns: every sum over them is 0
    for e in edges:
        counts[e[1] if incoming else e[0], vocab[e[2]]] += 1
    return counts


def local_edge_costs(
    n: int, m: int, edges_a: Sequence[Edge], edges_b: Sequence[Edge], *, edge_costs: EdgeCosts
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Estimate the edge edits implied by each node operation from the nodes' incident edges.

    For a substitution a_i -> b_j, incident edges are paired by predicate (outgoing with outgoing,
    incoming with incoming): equal predicates are free, the rest are substituted or deleted /
    inserted, whichever is cheaper. Each edge touches two nodes, so every estimate is halved.
    Returns ``(sub n x m, delete n, insert m)``.
    """
    vocab = {p: k for k, p in enumerate(sorted({e[2] for e in [*edges_a, *edges_b]}))}
    sub = np.zeros((n, m))
    dele = np.zeros(n)
    ins = np.zeros(m)
    s = min(edge_costs.substitute, edge_costs.delete + edge_costs.insert)
    for incoming in (False, True):
        ca = _pred_counts(n, edges_a, vocab, incoming)
        cb = _pred_counts(m, edges_b, vocab, incoming)
        deg_a, deg_b = ca.sum(1), cb.sum(1)
        dele += 0.5 * edge_costs.delete * deg_a
        ins += 0.5 * edge_costs.insert * deg_b
        # (an empty side gives empty arrays: nothing to add)
        same = np.minimum(ca[:, None, :], cb[None, :, :]).sum(2)
        left_a = deg_a[:, None] - same
        left_b = deg_b[None, :] - same
        paired = np.minimum(left_a, left_b)
        sub += 0.5 * (paired * s + (left_a - paired) * edge_costs.delete + (left_b - paired) * edge_costs.insert)
    return sub, dele, ins


def assignment_matrix(sub: np.ndarray, dele: np.ndarray, ins: np.ndarray) -> np.ndarray:
    """The square Riesen-Bunke matrix for substitution, deletion and insertion costs."""
    n, m = sub.shape
    c = np.zeros((n + m, n + m))
    c[:n, :m] = np.minimum(sub, _FORBIDDEN)
    c[:n, m:] = _FORBIDDEN
    c[n:, :m] = _FORBIDDEN
    c[np.arange(n), m + np.arange(n)] = np.minimum(dele, _FORBIDDEN)
    c[n + np.arange(m), np.arange(m)] = np.minimum(ins, _FORBIDDEN)
    return c


def _match_edges(pa: list[str], pb: list[str], edge_costs: EdgeCosts) -> float:
    """Cost of turning the predicates on one node pair of A into those on the mapped pair of B."""
    if not pb:
        same = 0
    elif len(pa) == 1 and len(pb) == 1:  # the common case, without building Counters
        same = int(pa[0] == pb[0])
    else:
        same = sum((Counter(pa) & Counter(pb)).values())
    left_a, left_b = len(pa) - same, len(pb) - same
    paired = min(left_a, left_b)
    s = min(edge_costs.substitute, edge_costs.delete + edge_costs.insert)
    return paired * s + (left_a - paired) * edge_costs.delete + (left_b - paired) * edge_costs.insert


def _by_pair(edges: Sequence[Edge]) -> dict[tuple[int, int], list[str]]:
    out: dict[tuple[int, int], list[str]] = defaultdict(list)
    for u, v, p in edges:
        out[(u, v)].append(p)
    return out


def induced_cost(
    mapping: Sequence[int],
    sub: np.ndarray,
    dele: np.ndarray,
    ins: np.ndarray,
    *,
    edges_a: Sequence[Edge] = (),
    edges_b: Sequence[Edge] = (),
    edge_costs: EdgeCosts = EdgeCosts(),
) -> tuple[float, float]:
    """Exact ``(node cost, edge cost)`` of the edit path induced by a node map.

    An A edge survives when both ends are substituted and B has an edge between their images;
    predicates between one pair are matched as multisets. Every other A edge is deleted and every
    B edge not reached is inserted.
    """
    return _induced(mapping, *_as_lists(sub, dele, ins), _by_pair(edges_a), _by_pair(edges_b), edge_costs)


def _as_lists(sub: np.ndarray, dele: np.ndarray, ins: np.ndarray) -> tuple[list[list[float]], list[float], list[float]]:
    """The node costs as Python lists: :func:`_induced` reads single cells, which lists serve
    several times faster than numpy (the same doubles, so the same sums)."""
    return np.asarray(sub).tolist(), np.asarray(dele).tolist(), np.asarray(ins).tolist()


def _induced(
    mapping: Sequence[int],
    sub: list[list[float]],
    dele: list[float],
    ins: list[float],
    pairs_a: dict[tuple[int, int], list[str]],
    pairs_b: dict[tuple[int, int], list[str]],
    edge_costs: EdgeCosts,
) -> tuple[float, float]:
    mapped = {j for j in mapping if j >= 0}
    node = sum(sub[i][j] if j >= 0 else dele[i] for i, j in enumerate(mapping))
    node += sum(ins[j] for j in range(len(ins)) if j not in mapped)
    edge = 0.0
    reached: set[tuple[int, int]] = set()
    for (u, v), preds in pairs_a.items():
        fu, fv = mapping[u], mapping[v]
        target = pairs_b.get((fu, fv), []) if fu >= 0 and fv >= 0 else []
        if target:
            reached.add((fu, fv))
        edge += _match_edges(preds, target, edge_costs)
    for pair, preds in pairs_b.items():
        if pair not in reached:
            edge += len(preds) * edge_costs.insert
    return float(node), float(edge)


def _anchor_bonus(anchors: np.ndarray | None, base: np.ndarray) -> float:
    """A cost larger than any difference between two assignments' finite costs."""
    if anchors is None or not anchors.any():
        return 0.0
    finite = base[base < _FORBIDDEN]
    return float(finite.max(initial=0.0)) * int(base.shape[0]) + 1.0


def _anchored(mapping: Sequence[int], anchors: list[list[bool]] | None) -> int:
    if anchors is None:
        return 0
    return sum(anchors[i][j] for i, j in enumerate(mapping) if j >= 0)


def _refine(
    mapping: list[int],
    sub: np.ndarray,
    dele: np.ndarray,
    ins: np.ndarray,
    edges_a: Sequence[Edge],
    edges_b: Sequence[Edge],
    edge_costs: EdgeCosts,
    anchors: np.ndarray | None = None,
) -> list[int]:
    """Steepest-descent local search: take the swap of the targets of two A nodes (or the move of
    an A node to a free B node) that lowers the induced cost most, while one does. Repairs ties
    the assignment cannot see, e.g. two nodes with the same label whose neighbours differ. (The
    best move, not the first found: a first improvement can lead into a local optimum that a
    better swap avoids -- identical graphs whose assignment swapped two pairs of twins.)"""
    m = sub.shape[1]
    anchored = None if anchors is None else anchors.tolist()
    keep = _anchored(mapping, anchored)
    pairs_a, pairs_b = _by_pair(edges_a), _by_pair(edges_b)
    cells = _as_lists(sub, dele, ins)
    best = sum(_induced(mapping, *cells, pairs_a, pairs_b, edge_costs))
    while best > 0:
        free = [j for j in range(m) if j not in set(mapping)] + [-1]
        step, step_cost = None, best - 1e-9
        for i in range(len(mapping)):
            # (True, k): swap the targets of i and k; (False, j): move i to j.
            options = [(True, k) for k in range(i + 1, len(mapping))] + [(False, j) for j in free]
            for swap, k in options:
                trial = list(mapping)
                if swap:
                    trial[i], trial[k] = trial[k], trial[i]
                else:
                    trial[i] = k
                if trial == mapping or _anchored(trial, anchored) < keep:
                    continue
                cost = sum(_induced(trial, *cells, pairs_a, pairs_b, edge_costs))
                if cost < step_cost:
                    step, step_cost = trial, cost
        if step is None:
            break
        mapping, best = step, step_cost
    return mapping


def match(
    sub: np.ndarray,
    dele: np.ndarray,
    ins: np.ndarray,
    *,
    edges_a: Sequence[Edge] = (),
    edges_b: Sequence[Edge] = (),
    edge_costs: EdgeCosts = EdgeCosts(),
    refine: bool = True,
    anchors: np.ndarray | None = None,
) -> Match:
    """Match graph A onto graph B; see the module docstring.

    ``sub[i, j]``, ``dele[i]``, ``ins[j]`` are node costs (``inf`` forbids a substitution);
    edges are ``(u, v, predicate)`` triples over node indices of their own graph; ``anchors[i, j]``
    marks pairs to match first (the reported cost is the edit path's, without any bonus).
    """
    sub = np.asarray(sub, dtype=float)
    n, m = sub.shape
    if n == 0 and m == 0:
        return Match([], [], 0.0, 0.0, 0.0)
    e_sub, e_del, e_ins = local_edge_costs(n, m, edges_a, edges_b, edge_costs=edge_costs)
    matrix = assignment_matrix(sub + e_sub, np.asarray(dele) + e_del, np.asarray(ins) + e_ins)
    anchors = None if anchors is None else np.asarray(anchors, dtype=bool).reshape(n, m)
    bonus = _anchor_bonus(anchors, matrix)
    solve = matrix
    if bonus:
        # Lexicographic: every assignment uses n + m cells, so charging each cell that is not an
        # anchored pair the same bonus ranks assignments by anchored pairs first, then by cost.
        solve = np.minimum(matrix + bonus, _FORBIDDEN)
        solve[:n, :m][anchors] -= bonus
    rows, _, _ = lapjv(solve)
    mapping = [int(j) if j < m else -1 for j in rows[:n]]
    if refine and n + m <= _REFINE_MAX_NODES and (edges_a or edges_b):
        mapping = _refine(mapping, sub, dele, ins, edges_a, edges_b, edge_costs, anchors)
    node_cost, edge_cost = induced_cost(
        mapping, sub, dele, ins, edges_a=edges_a, edges_b=edges_b, edge_costs=edge_costs
    )
    taken = set(mapping)
    return Match(
        mapping=mapping,
        inserted=[j for j in range(m) if j not in taken],
        cost=node_cost + edge_cost,
        node_cost=node_cost,
        edge_cost=edge_cost,
        matrix=matrix,
    )
