"""HalCECE metrics per caption, and their means per model.

Object metrics (caption objects ``C`` = caption concepts WordNet knows or the image names; image
objects ``G``; edit classes as in :mod:`cece.edits`; D, R and O count the edits judged
hallucinated -- all of them against an annotation -- and ``unverified`` the others)::

    n_objects     = |C|
    n_ancestors   = mean over C of the number of WordNet hypernym ancestors
    hal           = |D| + |R| + |O|
    hal_rate      = hal / |C|                       (0 when |C| = 0)
    granularity   = 1 - |I| / |G|                   (1 when |G| = 0)
    d_rate, r_rate, o_rate, u_rate = |X| / |C|
    r_similarity  = mean Wu-Palmer similarity over R replacements (None without any)

Role metrics (caption triples ``T``, image triples ``T_img``; D and R count the triples that are
wrong, as hallucinations or as consequences of a wrong end, as in the paper; ``unverified`` the
triples the image side neither supports nor contradicts)::

    n_roles       = |T|
    hal_rate      = (|D| + |R|) / |T|               (0 when |T| = 0)
    granularity   = 1 - |I| / |T_img|               (1 when |T_img| = 0)

>>> m = ObjectMetrics(n_objects=2, n_ancestors=9.0, hal=1, hal_rate=0.5, granularity=1.0)
>>> aggregate_metrics([m.to_dict(), m.to_dict()])["hal_rate"]
0.5
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from cece.edits import Edit


@dataclass
class ObjectMetrics:
    n_objects: int = 0
    n_ancestors: float = 0.0
    hal: int = 0
    hal_rate: float = 0.0
    granularity: float = 1.0
    d: int = 0
    r: int = 0
    o: int = 0
    u: int = 0
    i: int = 0
    d_rate: float = 0.0
    r_rate: float = 0.0
    o_rate: float = 0.0
    u_rate: float = 0.0
    r_similarity: float | None = None
    unverified: int = 0

    def to_dict(self) -> dict[str, Any]:
        return dict(vars(self))  # flat scalar fields, in declaration order: a shallow copy is whole


@dataclass
class RoleMetrics:
    n_roles: int = 0
    d: int = 0
    r: int = 0
    i: int = 0
    hal_rate: float = 0.0
    granularity: float = 1.0
    judged: bool = True  # False when the image side has no relations to judge roles against
    unverified: int = 0

    def to_dict(self) -> dict[str, Any]:
        return dict(vars(self))  # flat scalar fields, in declaration order: a shallow copy is whole


def _rate(count: int, total: int) -> float:
    return count / total if total else 0.0


def object_metrics(
    edits: Iterable[Edit], n_objects: int, n_image_objects: int, ancestors: Iterable[int]
) -> ObjectMetrics:
    """Object metrics of one caption from its object-level edits."""
    counts: Counter[str] = Counter()
    wups = []
    unverified = 0
    for e in edits:
        if e.level != "object":
            continue
        if e.cls in ("D", "R", "O") and not e.hallucinated:
            unverified += 1
            continue
        counts[e.cls] += 1
        if e.cls == "R" and e.wup is not None:
            wups.append(e.wup)
    anc = list(ancestors)
    hal = counts["D"] + counts["R"] + counts["O"]
    return ObjectMetrics(
        n_objects=n_objects,
        n_ancestors=sum(anc) / len(anc) if anc else 0.0,
        hal=hal,
        hal_rate=_rate(hal, n_objects),
        granularity=1.0 - _rate(counts["I"], n_image_objects),  # 1 without image objects
        d=counts["D"],
        r=counts["R"],
        o=counts["O"],
        u=counts["U"],
        i=counts["I"],
        d_rate=_rate(counts["D"], n_objects),
        r_rate=_rate(counts["R"], n_objects),
        o_rate=_rate(counts["O"], n_objects),
        u_rate=_rate(counts["U"], n_objects),
        r_similarity=sum(wups) / len(wups) if wups else None,
        unverified=unverified,
    )


def role_metrics(edits: Iterable[Edit], n_roles: int, n_image_roles: int, judged: bool = True) -> RoleMetrics:
    """Role (triple) metrics of one caption from its relation-level edits."""
    counts: Counter[str] = Counter()
    unverified = 0
    for e in edits:
        if e.level != "relation":
            continue
        if e.cls in ("D", "R") and e.status == "unverified":
            unverified += 1
        else:
            counts[e.cls] += 1
    return RoleMetrics(
        n_roles=n_roles,
        d=counts["D"],
        r=counts["R"],
        i=counts["I"],
        hal_rate=_rate(counts["D"] + counts["R"], n_roles),
        granularity=1.0 - _rate(counts["I"], n_image_roles),  # 1 without image triples
        judged=judged,
        unverified=unverified,
    )


def aggregate_metrics(rows: Iterable[dict[str, Any]]) -> dict[str, Any]:
    """Mean of each numeric field over captions; ``None`` values are left out of their mean.

    ``n_captions`` is added. Used for per-model aggregation of object or role metrics.
    """
    rows = list(rows)
    out: dict[str, Any] = {"n_captions": len(rows)}
    keys = list(rows[0]) if rows else []
    for k in keys:
        vals = [r[k] for r in rows if r.get(k) is not None]
        out[k] = sum(vals) / len(vals) if vals else None
    return out


def chair_s(hallucinated: Iterable[bool]) -> float:
    """CHAIRs (Rohrbach et al., 2018): the share of captions that mention at least one COCO
    object the image does not have, ``CHAIRs = |{captions with a hallucinated object}| /
    |captions|``; 0 without captions.

    >>> chair_s([True, False, False, True])
    0.5
    """
    flags = [bool(h) for h in hallucinated]
    return sum(flags) / len(flags) if flags else 0.0


def chair_i(n_hallucinated: Iterable[int], n_mentions: Iterable[int]) -> float:
    """CHAIRi: the share of COCO object mentions that are hallucinated, pooled over captions,
    ``CHAIRi = sum_c |hallucinated mentions of c| / sum_c |mentions of c|``; 0 without mentions.

    >>> chair_i([1, 0, 2], [2, 1, 3])
    0.5
    """
    hal, total = sum(n_hallucinated), sum(n_mentions)
    return hal / total if total else 0.0
