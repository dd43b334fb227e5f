"""Stand-ins: what a caption word the references do not support most likely took the place of.

Reference captions name what most of their writers see; a wrong word in a caption usually took
the place of one of those things that the caption leaves unnamed ("eraser" where nine references
out of nine see a rifle the caption never names). :func:`stand_ins` shares the image concepts no
caption concept speaks of out among the unsupported caption concepts, by salience, each to one
that can play the role the sentence gives it (:func:`roles_of`: a place, a worn thing, a doer);
:func:`uncovered_salience` is the salience of each one's stand-in (a feature of the judge) and
:func:`prefer_stand_ins` re-pairs the graph edit distance's match with them, first with what the
references relate to the same partner the same way (:func:`related_alike`).

>>> from parsers import Concept, SceneGraph
>>> image = SceneGraph([Concept("horse", "horse"), Concept("carriage", "carriage")])
>>> stand_ins([0], [Concept("hot dog", "hot dog"), Concept("carriage", "carriage")], image, [1.0, 1.0])
{0: 0}
"""

from __future__ import annotations

from collections.abc import Collection, Iterator, Mapping
from dataclasses import replace
from typing import TYPE_CHECKING

import numpy as np

from cece.edits import another_name_for
from cece.evidence import NEAR, covers, salience, same_thing, type_support
from knowledge import (
    is_animate,
    is_garment,
    is_hypernym,
    noun_senses,
    objecthood,
    relation_key,
    wup_similarity,
)
from knowledge.agents import can_act, does_as_somebody
from knowledge.meronymy import names_a_part_of
from parsers import Concept, SceneGraph

if TYPE_CHECKING:
    from cece.ged import Match


def uncovered_salience(
    bad: list[int],
    concepts: list[Concept],
    image: SceneGraph,
    sal: list[float],
    roles: Mapping[int, str] | None = None,
) -> dict[int, float]:
    """For each unsupported caption concept (``bad`` indexes ``concepts``), the salience of the
    image concept it most likely stands in for: the image concepts no caption concept speaks of
    are shared out among the unsupported ones by a 1-1 assignment that maximises salience
    ("eraser" where nine references out of nine see a rifle the caption never names), each to one
    that can play its ``roles`` (:func:`roles_of`)."""
    return {i: 0.0 if j is None else sal[j] for i, j in stand_ins(bad, concepts, image, sal, roles).items()}


def stand_ins(
    bad: list[int],
    concepts: list[Concept],
    image: SceneGraph,
    sal: list[float],
    roles: Mapping[int, str] | None = None,
) -> dict[int, int | None]:
    """For each unsupported caption concept (``bad`` indexes ``concepts``), the image concept it
    most likely stands in for (or None): the image concepts no caption concept speaks of (nor
    names by a general word in another of its senses: "food" for the meat), shared out among the
    unsupported ones by a 1-1 assignment that maximises salience ``sal``, each to one that can
    play its role (``roles``, :func:`roles_of`; :func:`_fit`). Between shares as salient, the one
    the caption names first takes the one the references name most ("The *fruit* is laying on the
    black *grill*" where they see meat on a black tray: the fruit is the meat, not the tray).

    >>> from parsers import Concept, SceneGraph
    >>> image = SceneGraph([Concept("horse", "horse"), Concept("carriage", "carriage")])
    >>> stand_ins([0], [Concept("hot dog", "hot dog"), Concept("carriage", "carriage")], image, [1.0, 1.0])
    {0: 0}
    """
    free = [
        j for j, g in enumerate(image.concepts) if not any(covers(c, g) or _general_word_of(c, g) for c in concepts)
    ]
    out: dict[int, int | None] = {i: None for i in bad}
    if bad and free:
        from scipy.optimize import linear_sum_assignment  # here: scipy.optimize takes 0.3 s to import

        # A place stands in for a place: "in a garage" where they see a street is the street,
        # never the teenager who stands in it. -1 marks a pair that cannot be.
        roles, where = roles or {}, where_of(image)
        m = np.array(
            [[_fit(concepts[i], roles.get(i), image.concepts[j], sal[j], where.get(j, 0)) for j in free] for i in bad]
        )
        # Between shares as salient, the thing the caption names first takes the thing the
        # references name most: captions, like references, name what the picture is of first.
        first = np.outer(np.arange(len(bad), 0, -1) / len(bad), [sal[j] for j in free])
        m = np.where(m >= 0, m + 1e-3 * first, m)
        for r, k in zip(*linear_sum_assignment(m, maximize=True), strict=True):
            if m[r, k] >= 0:
                out[bad[r]] = free[k]
    return out


def _general_word_of(c: Concept, g: Concept) -> bool:
    """Whether caption concept ``c``'s word, in its second or third sense, names a kind of ``g``
    ("food" for the references' meat: food.n.02, where the caption's first sense is food.n.01)."""
    return bool(c.synset and g.synset) and any(is_hypernym(s, g.synset) for s in noun_senses(c.lemma)[1:3])


#: Relation keys whose object is where the subject is ("in a garage"). Not "at", which is also a
#: look's ("looking at a woman"), nor "on" ("a man on a horse"): such objects may be anything.
PLACE_KEYS = frozenset({"in", "inside", "within", "into"})
#: The same, said of the references' things: where they place something ("at the beach", "on the
#: street", the horse one rides) is a place whatever else it is.
WHERE_KEYS = PLACE_KEYS | {"at", "on", "onto", "atop", "upon", "ride"}
#: Relation keys whose object is what the subject rests on ("on a table", "on top of a counter").
SURFACE_KEYS = frozenset({"on", "onto", "atop", "upon"})


def places_of(graph: SceneGraph, keys: frozenset[str] = PLACE_KEYS) -> set[int]:
    """The concepts of ``graph`` that are where something is: the object of a relation whose key
    is in ``keys``, unless it is worn ("a woman in a dress") or no thing ("cut in half").

    >>> from parsers import Concept, Relation, SceneGraph
    >>> boy, garage = Concept("boy", "boy"), Concept("garage", "garage", "garage.n.01")
    >>> g = SceneGraph([boy, garage], [Relation(0, "in", 1, "in")])
    >>> places_of(g)
    {1}
    """
    return {
        r.object
        for r in graph.relations
        if relation_key(r.canonical or r.predicate) in keys
        and objecthood(synset := graph.concepts[r.object].synset) in ("thing", "stuff")
        and not is_garment(synset)
    }


def where_of(image: SceneGraph) -> dict[int, int]:
    """How surely each image concept is a place: 2 where the references put something in it, 1
    where only at or on it ("on the street"), else 0 (absent)."""
    return {j: 1 for j in places_of(image, WHERE_KEYS)} | {j: 2 for j in places_of(image)}


def roles_of(caption: SceneGraph) -> dict[int, str]:
    """The caption concepts whose role says what can stand in for them: ``"place"`` (something is
    in it, :func:`places_of`), ``"surface"`` (something is on it: "on a *table*"), ``"worn"``
    (what someone wears: "a man wearing a *curtain*", or is in, of a garment: "a woman in a black
    *dress*") or ``"doer"`` (it does what only somebody does, :func:`knowledge.agents.needs_somebody`:
    "a *human mouth* wearing a coat"). The role comes from the sentence, not from what the word
    names, which may be the very mistake -- but for what one is *in*, where only a garment word
    says it is worn (a wrong garment is still worn).

    >>> from parsers import Concept, Relation, SceneGraph
    >>> man, curtain = Concept("man", "man", "man.n.01"), Concept("curtain", "curtain", "curtain.n.01")
    >>> roles_of(SceneGraph([man, curtain], [Relation(0, "wearing", 1, "wear", "wear.v.01")]))
    {0: 'doer', 1: 'worn'}
    """
    # "laying on the grill" (a preposition after the verb) has no object: it is lying
    doers = {r.subject: "doer" for r in caption.relations if does_as_somebody(r.predicate, r.canonical, r.verb_synset)}
    worn = {
        r.object: "worn"
        for r in caption.relations
        if (key := relation_key(r.canonical or r.predicate)) == "wear"
        or key in PLACE_KEYS
        and is_garment(caption.concepts[r.object].synset)  # "a woman in a *dress*"
    }
    surfaces = {i: "surface" for i in places_of(caption, SURFACE_KEYS)}
    return doers | surfaces | {i: "place" for i in places_of(caption)} | worn


def _fit(c: Concept, role: str | None, g: Concept, sal: float, where: int) -> float:
    """How well image concept ``g`` (salience ``sal``; ``where`` of :func:`where_of`) stands in
    for caption concept ``c`` of ``role`` (:func:`roles_of`): its salience; -1 when it cannot play
    the role. Only a place of the references stands in for a place (one things are in ahead of
    one they are on), only a garment for what is worn, only what can act for a doer
    (:func:`knowledge.agents.can_act`), only what they put something on, in or at, or ride,
    for what something rests on ("on a *table*" is not the cucumbers on their plate); the likest
    first among those named as often (the tie-break, under 0.05, never outweighs one more
    reference of ten). A whole never stands in for its part: the floor is there where the room is."""
    if _part_of(c, g):
        return -1.0
    if role is None:
        return sal
    if role == "doer":
        if not can_act(g.synset):
            return -1.0
    elif role == "surface":
        if not where:
            return -1.0
    elif is_animate(g.synset) or not (where if role == "place" else _can_be_worn(g)):
        return -1.0
    like = wup_similarity(c.synset, g.synset) if c.synset and g.synset else 0.0
    return sal + (where if role == "place" else 0) + 0.05 * like


def _part_of(c: Concept, g: Concept) -> bool:
    """Whether ``c`` names a part of ``g`` (:func:`knowledge.meronymy.names_a_part_of`)."""
    return names_a_part_of(c.synset, g.synset, c.lemma)


def _kin(c: Concept, g: Concept) -> bool:
    """Whether ``c`` and ``g`` are close kin (Wu-Palmer at least ``NEAR``: "cat" and "dog"), or
    may name one person (:func:`cece.edits.another_name_for`: "a woman" for the references'
    waitress, whatever the references put in the same restaurant)."""
    return bool(c.synset and g.synset and wup_similarity(c.synset, g.synset) >= NEAR) or another_name_for(c, g)


def _same_kind(c: Concept, g: Concept, role: str | None) -> bool:
    """Whether ``g`` is of the kind of ``c`` (a thing, a part, stuff ...: :func:`knowledge.objecthood`);
    with a role, the stand-in plays it (:func:`_fit`) whatever its kind."""
    return role is not None or objecthood(c.synset) == objecthood(g.synset)


#: Relation keys that tie anything to anything ("with", "has": a bathroom with a stove, a plate
#: with broccoli; "covered with" and "served with"): only the same verb with them says alike.
VAGUE = frozenset({"have", "with", "of"})


def _alike(p: str, q: str) -> bool:
    """Whether canonical predicates ``p`` and ``q`` relate two things alike: the same place
    ("lean against", "against"), or, for a :data:`VAGUE` key, the same verb ("hit with")."""
    key = relation_key(p)
    if key != relation_key(q):
        return False
    return key not in VAGUE or (p.split()[0] == q.split()[0] and p.split()[0] not in VAGUE)


def _alike_ends(
    caption: SceneGraph, image: SceneGraph, mapping: list[int], bad: Collection[int]
) -> Iterator[tuple[int, int, bool]]:
    """Each ``(mine, far, verb)``: caption concept ``mine`` of ``bad``, tied by a caption relation
    to a caption concept not in ``bad`` and paired, and image concept ``far``, which the
    references tie to that one's partner alike (:func:`_alike`); ``verb``: a verb ties them."""
    for r in caption.relations:
        for mine, other, forward in ((r.object, r.subject, True), (r.subject, r.object, False)):
            if mine not in bad or other in bad or mapping[other] < 0:
                continue
            for g in image.relations:
                near, far = (g.subject, g.object) if forward else (g.object, g.subject)
                if near == mapping[other] and _alike(r.canonical or r.predicate, g.canonical or g.predicate):
                    yield mine, far, r.verb_synset is not None


def related_alike(
    caption: SceneGraph, image: SceneGraph, mapping: list[int], bad: list[int], sal: list[float]
) -> dict[int, tuple[int, bool]]:
    """For each caption concept of ``bad`` (unsupported) that a caption relation ties to a
    supported one, the most salient image concept (``sal``) the references tie to that one's
    partner alike (:func:`_alike`: "drinking a *juice*" where they say he drinks wine: the wine),
    when it is free (paired with no other caption concept) or already its partner;
    and whether a verb ties them (not only a preposition: "on", "with").

    >>> from parsers import Relation
    >>> cap = SceneGraph([Concept("man", "man"), Concept("juice", "juice")],
    ...                  [Relation(0, "drinking", 1, "drink", "drink.v.01")])
    >>> img = SceneGraph([Concept("man", "man"), Concept("bread", "bread"), Concept("wine", "wine")],
    ...                  [Relation(0, "drinks", 2, "drink", "drink.v.01")])
    >>> related_alike(cap, img, [0, 1], [1], [1.0, 1.0, 1.0])
    {1: (2, True)}
    """
    out: dict[int, tuple[float, int, bool]] = {}
    for mine, far, verb in _alike_ends(caption, image, mapping, bad):
        free = far not in mapping or far == mapping[mine]
        if free and (sal[far], -far) > out.get(mine, (-1.0, 0))[:2]:
            out[mine] = (sal[far], -far, verb)
    return {i: (-j, verb) for i, (_, j, verb) in out.items()}


def _misnamed_as(c: Concept, g: Concept) -> bool:
    """Whether caption concept ``c`` can be image concept ``g`` misnamed: not a thing its own
    words name ("ambulance vans" where they see ambulances), nor one thing for several ("trucks"
    on the tarmac where they see an airplane there and other vehicles around it)."""
    if same_thing(c, g) or g.lemma.lower() in {*c.lemma.lower().split(), *c.attributes.get("other", [])}:
        return False
    return not (c.plural and not g.plural)


def _can_be_worn(g: Concept) -> bool:
    """Whether ``g`` names a garment in its sense or in its word's next: WordNet's first "skirt"
    is the cloth covering of a machine, its second the garment."""
    return is_garment(g.synset) or any(is_garment(s) for s in noun_senses(g.lemma)[1:2])


def prefer_stand_ins(caption: SceneGraph, image: SceneGraph, match: Match) -> Match:
    """Against references: the match with each caption concept the references do not support
    re-paired to the image concept it most likely stands in for (:func:`stand_ins`), when the
    match paired it with a thing that is no close kin of it (Wu-Palmer below ``NEAR``), the
    stand-in is a thing no one is paired with, of the same kind (a thing, a part, stuff ...), and
    the references name it at least as often. A place or a worn thing (:func:`roles_of`) is
    said as a place or a garment of theirs, whatever its kind; paired with something that
    cannot be one ("in a teenager", "wearing a stove"), it is left unpaired: silence. Between
    distant pairs the edit distance's costs hardly differ, so its choice is near arbitrary; what
    the caption leaves unnamed of what most references see is what its wrong word took the place
    of ("A little cookie is holding on to an adult" where the references see a girl: cookie ->
    girl, not -> the references' "ice" of ice skating). Ahead of these, what the references
    relate to the same partner the same way (:func:`related_alike`) is the stand-in, and where a
    verb relates them even over close kin: "drinking a juice" where they say he drinks wine is
    the wine, not the bread on the table.

    >>> from cece.ged import Match
    >>> cap = SceneGraph([Concept("cookie", "cookie", "cookie.n.01")])
    >>> img = SceneGraph([Concept("ice", "ice", "ice.n.01", spans=[(0, 3)]),
    ...                   Concept("girl", "girl", "girl.n.01", spans=[(4, 8), (9, 13)])],
    ...                  text="ice girl girl", kind="references", parts=[(0, 8), (9, 13)])
    >>> prefer_stand_ins(cap, img, Match([0], [1], 1.0, 1.0, 0.0)).mapping
    [1]
    """
    if image.kind != "references":
        return match
    mapping = list(match.mapping)
    supports = {
        i: type_support(c, image)
        for i, c in enumerate(caption.concepts)
        if mapping[i] < 0 or not same_thing(c, image.concepts[mapping[i]])  # most pairs: no need to look further
    }
    bad = [i for i, s in supports.items() if mapping[i] >= 0 and s.kind is None]
    over = {i: s.index for i, s in supports.items() if s.kind == "over" and s.index is not None}  # -> general word
    # A part paired with its whole ("standing on the floor" where they see a room) is no other
    # word for it: a part is there where its whole is, and left unsaid. Silence, not a swap.
    parts = [i for i in bad if _part_of(caption.concepts[i], image.concepts[mapping[i]])]
    for i in parts:
        mapping[i] = -1
        bad.remove(i)
    moved = bool(parts)
    if not bad and not moved and not over:
        return match
    sal = salience(image)
    roles, where = roles_of(caption), where_of(image)
    for i, (partner, verb) in related_alike(caption, image, mapping, bad, sal).items():
        # What the references relate the same way is its stand-in, and by a verb even over kin:
        # "drinking a juice" is not the bread (kin) where they say he drinks wine; "on a cabinet"
        # stays the table (kin) rather than the counter they put the plates on.
        c, g, role = caption.concepts[i], image.concepts[partner], roles.get(i)
        kept = _kin(c, image.concepts[mapping[i]]) and not verb
        fits = _fit(c, role, g, sal[partner], where.get(partner, 0)) >= 0 and _same_kind(c, g, role)
        if partner != mapping[i] and (kept or not fits):
            continue
        mapping[i], moved = partner, moved or partner != mapping[i]
        bad.remove(i)
    for i, j in stand_ins(bad, caption.concepts, image, sal, roles).items():
        c, t = caption.concepts[i], mapping[i]
        was = image.concepts[t]
        role = roles.get(i)
        kin = _kin(c, was)
        now = _fit(c, role, was, sal[t], where.get(t, 0))
        if role is not None and not kin and now < 0:
            mapping[i], moved = -1, True  # "in a garage" is not "in a teenager": silence instead
        if j is None or j in mapping:
            continue
        g = image.concepts[j]
        if not _same_kind(c, g, role):
            continue
        if mapping[i] >= 0 and _fit(c, role, g, sal[j], where.get(j, 0)) < now:
            continue  # without a role, _fit is the salience
        if kin:
            continue
        mapping[i] = j
        moved = True
    # A thing the references name only more generally is what they relate to the same partner
    # the same way, where they name that more often than the general word and never relate the
    # general word so: "a *shark* on display" where all of them see a skunk on display, and two
    # speak of "another animal", is the skunk misnamed; "a *poodle* sitting on a couch" where a
    # dog sits there too stays the dog, however many more see a cat there.
    said_alike = {(i, far) for i, far, _ in _alike_ends(caption, image, mapping, over)}
    for i, (partner, _) in related_alike(caption, image, mapping, list(over), sal).items():
        c, g, general, role = caption.concepts[i], image.concepts[partner], over[i], roles.get(i)
        if partner == mapping[i] or sal[partner] <= sal[general] or (i, general) in said_alike:
            continue
        if _misnamed_as(c, g) and _same_kind(c, g, role) and _fit(c, role, g, sal[partner], where.get(partner, 0)) >= 0:
            mapping[i], moved = partner, True
    if not moved:
        return match
    inserted = [j for j in range(len(image.concepts)) if j not in mapping]
    return replace(match, mapping=mapping, inserted=inserted)
