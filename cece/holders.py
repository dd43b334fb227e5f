"""Where a thing is through what holds it, and a holder named from either end.

References place a thing by its holder as often as directly: "a turkey in a pan on the counter"
puts the turkey on the counter (:func:`through_holders`), and "a plate of pancakes" says what
"pancakes on a plate" says (:func:`held_agree`; :func:`knowledge.puts_inside`). The judgment of
a caption triple against the references (:mod:`cece.roles`) reads both.
"""

from __future__ import annotations

from knowledge import (
    is_hypernym,
    noun_senses,
    objecthood,
    predicates_agree,
    predicates_contradict,
    puts_inside,
    relation_key,
)
from parsers import Concept, Relation, SceneGraph

#: What a thing put in or on its holder ("a plate of pancakes") is, read from the thing's end.
IN_OR_ON = ("in", "on")


def pair_votes(image: SceneGraph, s: int, o: int) -> dict[int, tuple[list[str], list[str]]]:
    """Per reference, the canonical predicates it relates ``s`` to ``o`` with, and ``o`` to ``s``;
    one that puts its object in or on its subject says so of the pair read the other way round
    ("a plate of pancakes": the pancakes are in or on the plate, :func:`knowledge.puts_inside`)."""
    out: dict[int, tuple[list[str], list[str]]] = {}
    for subject, obj, side in ((s, o, 0), (o, s, 1)):
        holder = image.concepts[subject].lemma
        for value, refs in image.concepts[subject].votes.get("relations", {}).items():
            end, _, canonical = value.partition(" ")
            if end == str(obj):
                for k in refs:
                    out.setdefault(k, ([], []))[side].append(canonical)
                    if puts_inside(canonical, holder):
                        out[k][1 - side].extend(IN_OR_ON)
    return out


def puts_inside_of(graph: SceneGraph, rel: Relation) -> bool:
    """Whether ``rel`` puts its object in or on its subject (:func:`knowledge.puts_inside`)."""
    return puts_inside(rel.canonical, graph.concepts[rel.subject].lemma)


def in_or_on(key: str, bounded: bool) -> bool | None:
    """Whether relation key ``key`` agrees (True) with a thing's being in or on its holder, clashes
    with it (False: "under", "outside", "next to" a bounded thing) or neither (None)."""
    if any(predicates_agree(key, p, bounded) for p in IN_OR_ON):
        return True
    return False if any(predicates_contradict(key, p, bounded) for p in IN_OR_ON) else None


def held_agree(
    caption: SceneGraph, image: SceneGraph, r: Relation, forward: list[int], backward: list[int], bounded: bool = True
) -> list[int]:
    """The image relations (of ``forward`` from ``r``'s subject to its object, ``backward`` the
    other way) that agree with caption triple ``r`` on a thing's being in or on its holder, said
    from either end: "pancakes on a plate" and "a plate of pancakes" (:func:`knowledge.puts_inside`);
    ``bounded``: the object is a bounded thing (:func:`knowledge.predicates_agree`)."""
    rels = image.relations
    if puts_inside_of(caption, r):
        return [f for f in forward if puts_inside_of(image, rels[f])] + [
            b for b in backward if in_or_on(relation_key(rels[b].canonical), True)
        ]
    if in_or_on(relation_key(r.canonical), bounded):
        return [b for b in backward if puts_inside_of(image, rels[b])]
    return []


def place_in(image: SceneGraph, holder: int) -> str:
    """The preposition that puts a thing in its holder ``holder``: the one the references use
    most for it ("on" a plate, "in" a bowl), else "on" of flat tableware, else "in"."""
    said = [relation_key(r.canonical) for r in image.relations if r.object == holder]
    ons, ins = said.count("on"), said.count("in")
    if ons != ins:
        return "on" if ons > ins else "in"
    lemma = image.concepts[holder].lemma.replace(" ", "_")
    return "on" if any(is_hypernym("flatware.n.01", x) for x in noun_senses(lemma)) else "in"


#: Keys that put a thing in or on another (its holder).
HELD = frozenset({"in", "inside", "within", "on", "atop", "upon"})
#: Keys that put a thing inside another (so that the container is where the thing is).
INSIDE = frozenset({"in", "inside", "within"})
#: Keys a held thing shares with its holder: where the pan is, above or below, before or behind
#: something, the turkey in it is too.
SHARED = frozenset(
    {"on", "atop", "upon", "above", "over", "under", "below", "beneath", "underneath", "in front of", "behind"}
)


def through_holders(image: SceneGraph, s: int, o: int) -> tuple[dict[int, tuple[list[str], list[str]]], dict[int, int]]:
    """What the references say of ``s`` and ``o`` through the things they put ``s`` in or on
    (``s``'s holders, :func:`holds`), and the things they put inside ``s`` (``s`` holds them:
    the glass is where the cocktail in it is): per reference, the predicates relating a holder to ``o``,
    as :func:`pair_votes` gives them for a direct pair (only keys in :data:`SHARED`; the other
    way round says nothing: a pan on the counter and an owl on the pan are both on it); and the
    image relations from holders to ``o``, each with its holder.

    >>> from parsers import Concept, Relation
    >>> names = [("turkey", "turkey.n.04"), ("pan", "pan.n.01"), ("counter", "counter.n.01")]
    >>> g = SceneGraph([Concept(w, w, syn) for w, syn in names], text="x", kind="references", parts=[(0, 1)])
    >>> g.concepts[0].votes = {"relations": {"1 in": [0]}}
    >>> g.concepts[1].votes = {"relations": {"2 sit on": [0]}}
    >>> g.relations = [Relation(0, "in", 1, "in"), Relation(1, "sitting on", 2, "sit on")]
    >>> through_holders(g, 0, 2)
    ({0: (['sit on'], [])}, {1: 1})
    """
    holders = []
    for value in image.concepts[s].votes.get("relations", {}):
        end, _, canonical = value.partition(" ")
        m = int(end)
        if m not in (s, o) and relation_key(canonical) in HELD and m not in holders and holds(image.concepts[m]):
            holders.append(m)
    if holds(image.concepts[s]):
        holders += [c for c in contents_of(image, s) if c not in (o, *holders)]
    votes: dict[int, tuple[list[str], list[str]]] = {}
    for m in holders:
        for k, (fw, _) in pair_votes(image, m, o).items():
            if shared := [c for c in fw if relation_key(c) in SHARED]:
                votes.setdefault(k, ([], []))[0].extend(shared)
    by = {
        x: rel.subject
        for x, rel in enumerate(image.relations)
        if rel.subject in holders and rel.object == o and relation_key(rel.canonical) in SHARED
    }
    return votes, by


def contents_of(image: SceneGraph, s: int) -> list[int]:
    """The things the references put inside ``s``: its container is where they are ("a
    cocktail in a glass on a table": the glass is on the table too)."""
    inside = f"{s} "
    return [
        c
        for c, g in enumerate(image.concepts)
        if c != s
        and any(v.startswith(inside) and relation_key(v[len(inside) :]) in INSIDE for v in g.votes.get("relations", {}))
    ]


def holds(g: Concept) -> bool:
    """Whether ``g`` can hold another thing in or on it: a thing in its sense or one of its
    lemma's first two (a "glass" is first the material, a "table" first a table of data), not
    a region of one ("the front", "the top"), a substance or a setting."""
    senses = [g.synset, *noun_senses(g.lemma, 1)[:2]] if g.synset else []
    return any(objecthood(x) == "thing" for x in senses)
