"""WordNet distances between synsets (by name), NLTK-exact, cached, on the Hierarchy arrays.

Walks follow hypernyms *and* instance hypernyms, as NLTK's path functions do, and the links the
index adds to WordNet's: a young animal WordNet files by age alone ("kitten": young mammal) under
the animal its gloss names (domestic cat; :mod:`knowledge.young_index`), and a machine's operator
("driver", "racer") under person (:mod:`knowledge.operator_index`); there the two differ from
NLTK. Verbs have no
single root, so verb-verb distances use NLTK's simulated root (``simulate_root=True``): a
virtual ``*ROOT*`` above every verb, placed one step above the synset's farthest ancestor
(NLTK puts it at ``max(shortest distance to each ancestor) + 1``). Nouns and verbs never
connect: their distance is undefined (None / ``inf``).

Unknown synset names raise :class:`UnknownSynsetError` (a ``KeyError``); use
:func:`knowledge.concepts.noun_synset` to turn text into valid names.

>>> path_distance("dog.n.01", "cat.n.01"), root_distance("dog.n.01")
(4, 8)
>>> lowest_common_hypernym("dog.n.01", "cat.n.01"), round(wup_similarity("dog.n.01", "cat.n.01"), 3)
('carnivore.n.01', 0.857)
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

import numpy as np

from knowledge.hierarchy import get_hierarchy

__all__ = [
    "UnknownSynsetError",
    "ancestors",
    "distance_matrix",
    "is_hypernym",
    "lexname",
    "lowest_common_hypernym",
    "num_ancestors",
    "path_distance",
    "root_distance",
    "wup_similarity",
]

ROOT_NAME = "*ROOT*"  # NLTK's name for the simulated root (it sorts before every synset name)


class UnknownSynsetError(KeyError):
    """A synset name that is not a noun or verb synset of the loaded WordNet."""


def _id(name: str) -> int:
    try:
        return get_hierarchy().ids[name]
    except KeyError:
        raise UnknownSynsetError(f"not a WordNet noun/verb synset: {name!r}") from None


@lru_cache(maxsize=1 << 17)  # one entry per synset (~96k); each a few dozen ints
def _ancestor_dists(i: int) -> dict[int, int]:
    """Shortest hypernym distance from synset ``i`` to each ancestor (itself at 0), by BFS in
    NLTK's ``_shortest_hypernym_paths`` order."""
    parents = get_hierarchy().parents_of
    dist = {i: 0}
    frontier = [i]
    d = 0
    while frontier:
        d += 1
        nxt = []
        for s in frontier:
            for p in parents[s]:
                if p not in dist:
                    dist[p] = d
                    nxt.append(p)
        frontier = nxt
    return dist


def _root_id() -> int:
    return len(get_hierarchy())  # the virtual root's id: one past the last synset


@lru_cache(maxsize=1 << 17)  # one entry per synset (~96k)
def _ancestor_arrays(i: int) -> tuple[np.ndarray, np.ndarray]:
    """Ancestor ids and distances as arrays; verbs also reach the simulated root."""
    dist = _ancestor_dists(i)
    ids, ds = list(dist), list(dist.values())
    if get_hierarchy().is_verb[i]:
        ids.append(_root_id())
        ds.append(max(ds) + 1)
    return np.array(ids, dtype=np.int64), np.array(ds, dtype=np.int64)


def _distance(i: int, j: int, simulate_root: bool) -> int | None:
    """NLTK ``shortest_path_distance`` on ids; ``_root_id()`` stands for the simulated root."""
    if i == j:
        return 0
    root = _root_id()
    if j == root or i == root:
        other = i if j == root else j
        return max(_ancestor_dists(other).values()) + 1 if simulate_root else None
    di, dj = _ancestor_dists(i), _ancestor_dists(j)
    if len(dj) < len(di):
        di, dj = dj, di
    best = min((d + dj[a] for a, d in di.items() if a in dj), default=None)
    if simulate_root:
        via_root = max(di.values()) + max(dj.values()) + 2
        best = via_root if best is None else min(best, via_root)
    return best


@lru_cache(maxsize=1 << 18)
def _path_distance_ids(i: int, j: int) -> int | None:
    h = get_hierarchy()
    if h.is_verb[i] != h.is_verb[j]:
        return None
    return _distance(i, j, simulate_root=bool(h.is_verb[i]))


@lru_cache(maxsize=1 << 18)  # by name: the hot callers ask about the same few pairs per caption
def path_distance(a: str, b: str) -> int | None:
    """Edges on the shortest hypernym path between two synsets, through a common ancestor
    (NLTK ``shortest_path_distance``; simulated root for verbs). None for noun vs verb.

    >>> path_distance("girl.n.01", "woman.n.01"), path_distance("dog.n.01", "run.v.01")
    (1, None)
    """
    i, j = _id(a), _id(b)
    return _path_distance_ids(min(i, j), max(i, j))  # symmetric: one cache entry per pair


def root_distance(a: str) -> int:
    """Distance to the root: ``entity.n.01`` for nouns (= NLTK ``min_depth()``); for verbs the
    simulated root, i.e. the path distance to it as NLTK places it (= NLTK ``min_depth() + 1``
    for all but 34 of WordNet 3.0's 13,767 verbs, whose hypernym paths differ in length: NLTK
    puts the simulated root one step above the *farthest* ancestor, so deletion and
    replacement costs stay on one scale).

    >>> root_distance("entity.n.01"), root_distance("sit.v.01"), root_distance("walk.v.01")
    (0, 1, 2)
    """
    i = _id(a)
    h = get_hierarchy()
    if h.is_verb[i]:
        return max(_ancestor_dists(i).values()) + 1
    return int(h.min_depth[i])


def ancestors(a: str) -> dict[str, int]:
    """All hypernym ancestors of ``a`` (itself included, at 0) with their shortest distance.

    >>> ancestors("entity.n.01")
    {'entity.n.01': 0}
    """
    names = get_hierarchy().names
    return {names[k]: d for k, d in _ancestor_dists(_id(a)).items()}


def lexname(a: str) -> str:
    """WordNet's lexicographer file of a synset: its broad kind ("noun.artifact", "noun.food",
    "noun.body", "noun.attribute"...); empty when the index predates this field.

    >>> lexname("dog.n.01"), lexname("color.n.01")
    ('noun.animal', 'noun.attribute')
    """
    h = get_hierarchy()
    return h.lexnames[h.lexname_of[_id(a)]] if h.lexnames else ""


@lru_cache(maxsize=1)
def _top_files() -> dict[int, str]:
    """Per synset filed in noun.Tops, the file most of its direct hyponyms are in (ties go to
    the file met first). Top synsets that mostly head other top synsets ("entity.n.01",
    "physical_entity.n.01") stay in noun.Tops."""
    h = get_hierarchy()
    if not h.lexnames or "noun.Tops" not in h.lexnames:
        return {}
    top = h.lexnames.index("noun.Tops")
    votes: dict[int, dict[int, int]] = {}
    for i, parents in enumerate(h.parents_of):
        for p in parents:
            if h.lexname_of[p] == top:
                tally = votes.setdefault(p, {})
                tally[int(h.lexname_of[i])] = tally.get(int(h.lexname_of[i]), 0) + 1
    return {p: h.lexnames[max(tally, key=tally.__getitem__)] for p, tally in votes.items()}


def filed_as(a: str) -> str:
    """The broad kind of a synset: its lexicographer file (:func:`lexname`), except that the top
    synsets WordNet files together in noun.Tops ("person.n.01", "animal.n.01", "food.n.01",
    "artifact.n.01") take the file of most of their direct hyponyms, which is the kind they head.

    >>> filed_as("person.n.01"), filed_as("food.n.01"), filed_as("dog.n.01"), filed_as("entity.n.01")
    ('noun.person', 'noun.food', 'noun.animal', 'noun.Tops')
    """
    kind = lexname(a)
    return _top_files().get(_id(a), kind) if kind == "noun.Tops" else kind


def num_ancestors(a: str) -> int:
    """Number of distinct hypernym ancestors of ``a``, itself excluded.

    >>> num_ancestors("entity.n.01")
    0
    """
    return len(_ancestor_dists(_id(a))) - 1


@lru_cache(maxsize=1 << 18)
def is_hypernym(general: str, specific: str) -> bool:
    """Whether ``general`` is ``specific`` or one of its (instance) hypernym ancestors.
    Reflexive on purpose: an identical concept is neither over- nor under-specialised.

    >>> is_hypernym("woman.n.01", "girl.n.01"), is_hypernym("girl.n.01", "woman.n.01")
    (True, False)
    """
    return _id(general) in _ancestor_dists(_id(specific))


@lru_cache(maxsize=1 << 16)
def _lch_ids(i: int, j: int) -> int | None:
    h = get_hierarchy()
    di, dj = _ancestor_dists(i), _ancestor_dists(j)
    common = [a for a in di if a in dj]
    if not common:
        return None
    deepest = max(int(h.max_depth[a]) for a in common)
    return min((a for a in common if h.max_depth[a] == deepest), key=h.names.__getitem__)


def lowest_common_hypernym(a: str, b: str) -> str | None:
    """The deepest (by ``max_depth``) common hypernym, ties broken by name: the first of NLTK's
    ``a.lowest_common_hypernyms(b)``. None when there is none (verbs in different trees).

    >>> lowest_common_hypernym("pizza.n.01", "food.n.01")
    'food.n.01'
    """
    i, j = _id(a), _id(b)
    k = _lch_ids(min(i, j), max(i, j))
    return None if k is None else get_hierarchy().names[k]


@lru_cache(maxsize=1 << 16)
def _wup_ids(i: int, j: int) -> float:
    h = get_hierarchy()
    need_root = bool(h.is_verb[i] or h.is_verb[j])
    di, dj = _ancestor_dists(i), _ancestor_dists(j)
    # NLTK: subsumers by *min* depth (use_min_depth=True), the simulated root at depth 0,
    # ties sorted by name, and the first synset itself preferred when it is a subsumer.
    candidates = [(int(h.min_depth[a]), h.names[a], a) for a in di if a in dj]
    if need_root:
        candidates.append((0, ROOT_NAME, _root_id()))
    top = max(c[0] for c in candidates)
    tied = sorted((name, a) for depth, name, a in candidates if depth == top)
    subsumer = i if any(a == i for _, a in tied) else tied[0][1]
    depth = (0 if subsumer == _root_id() else int(h.max_depth[subsumer])) + 1
    len1 = _distance(i, subsumer, need_root)
    len2 = _distance(j, subsumer, need_root)
    assert len1 is not None and len2 is not None  # the subsumer is an ancestor of both
    return 2.0 * depth / (len1 + len2 + 2 * depth)


@lru_cache(maxsize=1 << 18)
def wup_similarity(a: str, b: str) -> float:
    """Wu-Palmer similarity, equal to NLTK's ``a.wup_similarity(b)`` (simulated root whenever a
    verb is involved, so noun vs verb gets NLTK's small positive score, not None).

    NLTK picks the subsumer by *min* depth, so a synset with a deeper-rooted parent is not its
    own subsumer and identical synsets can score below 1 ("dog": 0.929). Kept for parity.

    >>> round(wup_similarity("dog.n.01", "dog.n.01"), 3)
    0.929
    >>> round(wup_similarity("girl.n.01", "woman.n.01"), 3)
    0.632
    """
    return _wup_ids(_id(a), _id(b))  # not symmetrised: NLTK's tie-break prefers ``a``


def _unique_ids(names: Sequence[str | None]) -> tuple[np.ndarray, np.ndarray]:
    """Unique synset ids (-1 for None) and the inverse index into them."""
    raw = np.array([-1 if n is None else _id(n) for n in names], dtype=np.int64)
    return np.unique(raw, return_inverse=True)


def _inverted(uids: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(ancestor, owner position, distance) triples of all unique synsets, sorted by ancestor."""
    anc: list[np.ndarray] = []
    own: list[np.ndarray] = []
    dist: list[np.ndarray] = []
    for k, u in enumerate(uids.tolist()):
        if u < 0:  # None: no ancestors, so its row/column stays inf
            continue
        ids, ds = _ancestor_arrays(u)
        anc.append(ids)
        dist.append(ds)
        own.append(np.full(len(ids), k, dtype=np.int64))
    if not anc:
        empty = np.zeros(0, dtype=np.int64)
        return empty, empty, empty
    a, o, d = np.concatenate(anc), np.concatenate(own), np.concatenate(dist)
    order = np.argsort(a, kind="stable")
    return a[order], o[order], d[order]


#: Up to this many pairs, :func:`distance_matrix` reads the pair cache instead of vectorising.
_SMALL = 400


def distance_matrix(a: Sequence[str | None], b: Sequence[str | None], max_distance: int | None = None) -> np.ndarray:
    """All pairwise :func:`path_distance` values, float64, shape ``(len(a), len(b))``; ``inf``
    where undefined (noun vs verb) or either side is None. With ``max_distance``, only the
    distances up to it are wanted (the others are ``inf``): then only the ancestors that near
    each synset are looked at (:func:`_near_matrix`), far cheaper for many senses at once.

    Vectorised: each unique synset's ancestor->distance map is inverted into
    ancestor -> (rows, distances) and (columns, distances); for every ancestor shared by both
    sides one numpy update ``M[rows, cols] = min(M, d_rows + d_cols)`` covers all pairs meeting
    there. Verbs share the simulated root, so verb-verb distances come out as NLTK's.

    >>> distance_matrix(["dog.n.01", None], ["cat.n.01", "dog.n.01"]).tolist()
    [[4.0, 0.0], [inf, inf]]
    >>> distance_matrix(["dog.n.01", None], ["cat.n.01", "dog.n.01", "puppy.n.01"], max_distance=2).tolist()
    [[inf, 0.0, 1.0], [inf, inf, inf]]
    """
    if max_distance is not None:
        return _near_matrix(a, b, max_distance)
    if len(a) * len(b) <= _SMALL:
        # Captions are small and their words recur: cached pairs beat the vectorised set-up.
        ids_a = [None if n is None else _id(n) for n in a]
        ids_b = [None if n is None else _id(n) for n in b]
        return np.array(
            [
                [
                    np.inf
                    if i is None or j is None or (d := _path_distance_ids(min(i, j), max(i, j))) is None
                    else float(d)
                    for j in ids_b
                ]
                for i in ids_a
            ],
            dtype=np.float64,
        ).reshape(len(a), len(b))
    ua, inv_a = _unique_ids(a)
    ub, inv_b = _unique_ids(b)
    m = np.full((len(ua), len(ub)), np.inf)
    anc_a, own_a, dist_a = _inverted(ua)
    anc_b, own_b, dist_b = _inverted(ub)
    common = np.intersect1d(anc_a, anc_b, assume_unique=False)
    if len(common):
        # Slice bounds of each common ancestor's run in both sorted triples.
        lo_a, hi_a = np.searchsorted(anc_a, common), np.searchsorted(anc_a, common, "right")
        lo_b, hi_b = np.searchsorted(anc_b, common, "left"), np.searchsorted(anc_b, common, "right")
        fa, fb = dist_a.astype(np.float64), dist_b.astype(np.float64)
        for s_a, e_a, s_b, e_b in zip(lo_a.tolist(), hi_a.tolist(), lo_b.tolist(), hi_b.tolist(), strict=True):
            rows, cols = own_a[s_a:e_a], own_b[s_b:e_b]
            block = np.ix_(rows, cols)
            m[block] = np.minimum(m[block], fa[s_a:e_a, None] + fb[None, s_b:e_b])
    out: np.ndarray = m[np.ix_(inv_a.ravel(), inv_b.ravel())]
    return out


@lru_cache(maxsize=1 << 16)
def _near(i: int, k: int) -> tuple[tuple[int, int], ...]:
    """(ancestor, distance) of synset ``i``'s ancestors at most ``k`` edges up (itself at 0)."""
    return tuple((a, d) for a, d in _ancestor_dists(i).items() if d <= k)


def _near_matrix(a: Sequence[str | None], b: Sequence[str | None], k: int) -> np.ndarray:
    """:func:`distance_matrix` where it is at most ``k``, ``inf`` elsewhere. Two nouns are
    within ``k`` edges exactly when they share an ancestor whose distances from both add up to
    at most ``k``; verbs (whose simulated root makes any two top verbs 2 apart) take the full
    matrix, capped."""
    h = get_hierarchy()
    ids_a = [None if n is None else _id(n) for n in a]
    ids_b = [None if n is None else _id(n) for n in b]
    if any(i is not None and h.is_verb[i] for i in ids_a + ids_b):
        m = distance_matrix(a, b)
        m[m > k] = np.inf
        return m
    below: dict[int, list[tuple[int, int]]] = {}  # ancestor -> (column, distance) of b's synsets
    for col, j in enumerate(ids_b):
        if j is not None:
            for anc, d in _near(j, k):
                below.setdefault(anc, []).append((col, d))
    m = np.full((len(a), len(b)), np.inf)
    for row, i in enumerate(ids_a):
        if i is None:
            continue
        for anc, d in _near(i, k):
            for col, e in below.get(anc, ()):
                if d + e <= k and d + e < m[row, col]:
                    m[row, col] = d + e
    return m
