"""Role (triple) edits under the node map: D, R and I (the classes are in :mod:`cece.edits`).

A caption triple is kept when its ends map faithfully (same concept or ``U``) to the ends of an
image triple whose predicate agrees (:func:`knowledge.predicates_agree`: "with" and "holding"
agree). Otherwise it is ``D`` -- including collateral from deleted or replaced ends -- unless a
post-hoc step pairs it with an image triple not reached by any caption triple that differs in
exactly one position (subject, predicate or object under the node map): that pair is a role
``R``. Image triples left over are ``I``. A prepositional phrase right after a verb's object may
say where the verb's subject is as well as where the object is, whichever the parser hung it
from ("a dog playing with a ball *on the grass*", "a cat sitting on a chair *in front of a
window*"): a triple of the other one there supports it too (:func:`attached_after`).

Against reference captions, which are partial, a triple between two faithful ends (there, an
end the references name only more generally, ``O``, is faithful too: they still say where it is)
is only wrong when the references *contradict* it (:mod:`cece.roles`): the same two entities in a
spatially opposite relation (:func:`knowledge.predicates_contradict`) or one whose verb excludes the
caption's, or the subject in a state that excludes the caption's whatever the other end ("a man
*standing* by his car" where the references see him sitting in it); and only when more references
say so than agree. A triple they do not state either way is ``unverified``.
"""

from __future__ import annotations

from cece.edits import Edit, another_name_for
from cece.evidence import covers
from cece.ged import Match
from cece.holders import held_agree
from cece.roles import Judged, judge_against_references, judge_state
from knowledge import body_of, canonicals_agree, inverse_key, predicates_agree, relation_key
from parsers import Relation, SceneGraph, Span


def _predicate_span(caption: SceneGraph, r: Relation) -> list[Span]:
    return [r.span] if r.span else []


def role_edits(
    caption: SceneGraph,
    image: SceneGraph,
    match: Match,
    *,
    classes: dict[int, str | None],
    substitute_cost: float = 1.0,
    delete_cost: float = 1.0,
) -> list[Edit]:
    """Triple-level edits under the node map (see the module docstring). Predicates are compared
    whole (:func:`knowledge.canonicals_agree`: "sit on" is not "stand on"), and "X with Y" / "X
    has Y" is supported by any relation between the two, either way round ("a desk with a
    computer" by "a computer on a desk"). Against references (:mod:`cece.roles`), a triple whose
    ends both map is kept when the references' tally agrees with it, replaced (``R``) when more
    of them contradict it -- the pair's predicate, or the subject's state whatever the other end
    -- and else left for the judge to call unverified (a ``D`` edit without target)."""
    mapping = match.mapping
    partial = image.kind == "references"
    # References that name a thing only more generally ("a bench" for the caption's "park
    # bench", class O) still say where it is: its triples are judged like a faithful one's.
    faithful = {i for i, cls in classes.items() if cls in ((None, "U", "O") if partial else (None, "U"))}
    if partial:  # "a kid" where they see a boy is he, by another name: where he is still counts
        faithful |= {
            i
            for i, cls in classes.items()
            if cls == "R" and mapping[i] >= 0 and another_name_for(caption.concepts[i], image.concepts[mapping[i]])
        }
    by_pair: dict[tuple[int, int], list[int]] = {}
    for k, t in enumerate(image.relations):
        by_pair.setdefault((t.subject, t.object), []).append(k)
    reached: set[int] = set()
    unmatched: list[int] = []
    decided: dict[int, Judged] = {}
    for k, r in enumerate(caption.relations):
        s, o = mapping[r.subject], mapping[r.object]
        if (
            s < 0
            or o < 0
            or r.subject not in faithful
            or r.object not in faithful
            or partial
            and not _spoken_of(caption, image, r, s, o)
        ):
            if partial and s >= 0 and classes.get(r.subject) in (None, "U", "O"):
                # The subject's state is its own, whatever the other end ("a vehicle *driving* on
                # a road" where the references see the car parked by the sidewalk), and the
                # references speak of the subject, in its words or more general or specific ones.
                judged = judge_state(caption, image, r, s=s)
                if judged is not None:
                    decided[k] = judged
            unmatched.append(k)
            continue
        forward = by_pair.get((s, o), [])
        backward = by_pair.get((o, s), [])
        if relation_key(r.canonical) == "have" and (forward or backward):
            # "with" / "has" says only that the two go together: any relation says as much
            reached.add(next((f for f in forward + backward if f not in reached), (forward + backward)[0]))
            continue
        if partial:
            judged = judge_against_references(caption, image, r, s=s, o=o, forward=forward, backward=backward)
            if judged.target is None and judged.tally is None and not judged.agree:
                judged = _as_attached_after(caption, image, r, mapping, faithful, o, by_pair) or judged
            if judged.target is None and judged.tally is None:
                reached.update(judged.agree[:1])
                if judged.agree:
                    continue
                if judged.said:  # no verdict; its note says how the references relate the two
                    decided[k] = judged
            else:
                decided[k] = judged
            unmatched.append(k)
            continue
        agree = _agreeing(caption, image, r, forward, backward)
        x = _attached_image_end(caption, r, mapping, faithful)  # "dogs playing with a ball *on the grass*"
        if x is not None:
            agree += _agreeing(caption, image, r, by_pair.get((x, o), []), by_pair.get((o, x), []))
        hit = next((f for f in agree if f not in reached), None)
        if hit is not None:
            reached.add(hit)
            continue
        unmatched.append(k)

    edits: list[Edit] = []
    free = [k for k in range(len(image.relations)) if k not in reached]
    for k in unmatched:
        r = caption.relations[k]
        decision = decided.get(k)
        best = (
            (decision.target if decision else None)
            if partial
            else _pair_post_hoc(caption, image, r, mapping, faithful, free)
        )
        spans = _predicate_span(caption, r)
        if best is None:
            edits.append(
                Edit(
                    "delete",
                    "relation",
                    "D",
                    source=list(r.triple(caption)),
                    cost=delete_cost,
                    spans=spans,
                    source_index=k,
                    evidence=decision.evidence(image) if decision else {},
                )
            )
        else:
            if best in free:
                free.remove(best)
            target = list(image.relations[best].triple(image))
            if decision and decision.predicate:
                o = mapping[r.object]
                target = [
                    image.concepts[mapping[r.subject]].lemma,
                    decision.predicate,
                    image.concepts[o].lemma if o >= 0 and r.object in faithful else caption.concepts[r.object].lemma,
                ]
            edits.append(
                Edit(
                    "replace",
                    "relation",
                    "R",
                    source=list(r.triple(caption)),
                    target=target,
                    cost=substitute_cost,
                    spans=spans,
                    source_index=k,
                    target_index=best,
                    evidence=decision.evidence(image) if decision else {},
                )
            )
    for f in free:
        edits.append(Edit("insert", "relation", "I", target=list(image.relations[f].triple(image)), target_index=f))
    return edits


def _agreeing(
    caption: SceneGraph, image: SceneGraph, r: Relation, forward: list[int], backward: list[int]
) -> list[int]:
    """The image triples that say what caption triple ``r`` says, of the image ends its ends map
    to (``forward``) or the other way round (``backward``)."""
    body = body_of(caption.concepts[r.subject].synset)
    agree = [f for f in forward if canonicals_agree(r.canonical, image.relations[f].canonical, body)]
    inv = inverse_key(relation_key(r.canonical))
    agree += [
        b for b in backward if inv is not None and predicates_agree(inv, relation_key(image.relations[b].canonical))
    ]
    return agree + held_agree(caption, image, r, forward, backward)


def attached_after(caption: SceneGraph, r: Relation) -> int | None:
    """The other reading of ``r``'s prepositional phrase when it follows a verb's object, else
    None. The parser hangs such a phrase from the noun before it or from the verb; a reader may
    hang it either way, and an image that has the other end there says what the caption says.
    Hung from the object ("two dogs playing with a ball *on the grass*"), the other end is the
    verb's subject (the dogs); hung from the verb, so from its subject ("a cat sitting on a chair
    *in front of a window*"), it is the verb's object (the chair)."""
    if r.span is None or relation_key(r.canonical) == "have":
        return None
    for q in caption.relations:
        if q.span is None or q.object == r.object or q.subject == q.object:
            continue
        if q.object == r.subject and q.subject != r.object and _right_before(caption, q.object, r, q.span[1]):
            return q.subject
        if q.subject == r.subject and q.object != r.object and _right_before(caption, q.object, r, q.span[1]):
            return q.object
    return None


def _right_before(caption: SceneGraph, i: int, r: Relation, after: int) -> bool:
    """Whether concept ``i``'s phrase, starting at or after ``after``, ends right where ``r``'s
    predicate begins."""
    end = caption.concepts[i].phrase_span
    if end is None or r.span is None or not after <= end[0] <= end[1] <= r.span[0]:
        return False
    return not caption.text[end[1] : r.span[0]].strip()


def _attached_image_end(caption: SceneGraph, r: Relation, mapping: list[int], faithful: set[int]) -> int | None:
    """The image concept the other end of :func:`attached_after` maps to, when it is faithful."""
    x = attached_after(caption, r)
    return mapping[x] if x is not None and x in faithful and mapping[x] >= 0 else None


def _as_attached_after(
    caption: SceneGraph,
    image: SceneGraph,
    r: Relation,
    mapping: list[int],
    faithful: set[int],
    o: int,
    by_pair: dict[tuple[int, int], list[int]],
) -> Judged | None:
    """The references' agreement with caption triple ``r`` read as said of the verb's subject
    or object (:func:`attached_after`), when they agree with it so read, else None."""
    s = _attached_image_end(caption, r, mapping, faithful)
    if s is None:
        return None
    forward, backward = by_pair.get((s, o), []), by_pair.get((o, s), [])
    judged = judge_against_references(caption, image, r, s=s, o=o, forward=forward, backward=backward)
    return judged if judged.agree and judged.target is None else None


def _pair_post_hoc(
    caption: SceneGraph, image: SceneGraph, r: Relation, mapping: list[int], faithful: set[int], free: list[int]
) -> int | None:
    """The free image triple differing from caption triple ``r`` in exactly one position under the
    node map (an end that maps to its image node but is itself wrong still differs in words)."""
    mapped = (mapping[r.subject], relation_key(r.canonical), mapping[r.object])
    best, best_diffs = None, 2
    for f in free:
        t = image.relations[f]
        body = body_of(caption.concepts[r.subject].synset)
        diffs = (
            (mapped[0] != t.subject) + (not canonicals_agree(r.canonical, t.canonical, body)) + (mapped[2] != t.object)
        )
        if mapped[0] == t.subject and r.subject not in faithful:
            diffs += 1
        if mapped[2] == t.object and r.object not in faithful:
            diffs += 1
        if diffs < best_diffs:
            best, best_diffs = f, diffs
    return best


def _spoken_of(caption: SceneGraph, image: SceneGraph, r: Relation, s: int, o: int) -> bool:
    """Whether both ends of caption triple ``r`` speak of the image entities the match paired
    them with (``s``, ``o``; :func:`cece.evidence.covers`). The second of "a white bowl beside a
    green bowl", where the references merged both bowls into one entity, is paired with what is
    left, their tray; how they relate a bowl and the tray says nothing of the two bowls. A person
    named by another name that can be theirs is spoken of ("a kid" for their boy)."""
    return all(
        covers(c, g) or another_name_for(c, g)
        for c, g in ((caption.concepts[r.subject], image.concepts[s]), (caption.concepts[r.object], image.concepts[o]))
    )
