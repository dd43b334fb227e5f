"""A caption triple between two faithful ends, judged against reference captions.

References are partial: a triple they do not state is unverified, not wrong. It is wrong where
they contradict it, in either of two ways, each tallied per reference (:mod:`cece.agreement`):

1. *the subject's state* (:mod:`knowledge.states`): "a man *standing* on a skateboard" where the
   references say he sits -- on it, in a car, anywhere: a posture or motion is the subject's,
   whatever the relation's other end. Kind ``exclusive`` when a contradicting reference relates
   the same two things ("sitting on the skateboard"), else ``state``;
2. *the pair's predicate*: the references relate the same two things in a way that excludes the
   caption's -- spatial opposites (kind ``spatial``: on / under, in front of / behind) or verbs
   whose states exclude each other (kind ``exclusive``: riding / walking beside); a holder named
   from its end says where the held thing is ("a plate of pancakes": the pancakes are not under
   the plate, :func:`cece.holders.held_agree`). When the references support the subject's
   state, only spatial opposites count here. Where no reference relates the two directly, a
   thing is where its holder is (:func:`cece.holders.through_holders`):
   "a turkey in a pan on the counter" is on the counter, not under it; and a container where
   what is in it is ("a cocktail in a glass on a table": the glass is on the table).

A plurality against the caption contradicts it (a replace edit, ``R``, to the likeliest
reference triple); a split is an unverified doubt (a ``D`` edit without target, like silence,
with its tally); otherwise the triple stands or is silent.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from cece.agreement import Tally, state_tally
from cece.holders import (
    IN_OR_ON,
    SHARED,
    contents_of,
    held_agree,
    holds,
    in_or_on,
    pair_votes,
    place_in,
    puts_inside_of,
    through_holders,
)
from knowledge import (
    Body,
    aimed,
    body_of,
    canonicals_agree,
    canonicals_contradict,
    inverse_key,
    is_foliage,
    predicates_agree,
    predicates_contradict,
    relation_key,
    state_of_predicate,
    states_exclude,
)
from parsers import Relation, SceneGraph


@dataclass
class Judged:
    """The outcome for one caption triple: image relations that agree with it (``agree``); or the
    image relation that contradicts it (``target``), the tally (``tally``), and for a state
    contradiction the predicate the caption should say instead (``predicate``); a tally without
    target is a split."""

    agree: list[int] = field(default_factory=list)
    target: int | None = None
    tally: Tally | None = None
    predicate: str | None = None
    against_refs: list[int] = field(default_factory=list)
    #: the image entity the subject is in or on (or, ``contains``, that is inside the subject),
    #: when the references relate only it to the object
    holder: int | None = None
    contains: bool = False
    #: the contradicting references name the object as what holds the subject ("a plate of food")
    container: bool = False
    #: the image relations between the two that neither agree nor contradict ("a cat in a box"
    #: where they say it sleeps beside the box)
    said: list[int] = field(default_factory=list)

    def evidence(self, image: SceneGraph) -> dict[str, Any]:
        if self.tally is None:
            return self._otherwise(image) if self.said and not self.agree else {}
        t = self.tally
        words, note = [], ""
        if self.target is not None:
            rel = image.relations[self.target]
            if rel.span:
                words.append(image.text[rel.span[0] : rel.span[1]])
            said = list(rel.triple(image))
            note = f"the references say {said}"
            if self.holder is not None:
                held = image.concepts[self.holder].lemma
                where = f"the {held} in it" if self.contains else f"it in or on the {held}"
                note = f"the references put {where}, and say {said}"
            if self.container:
                held, holder = image.concepts[rel.object].lemma, image.concepts[rel.subject].lemma
                note += f", which puts the {held} in or on the {holder}"
        if t.verdict() == "split":
            note = f"as many references contradict it ({t.against}) as agree ({t.support})"
        else:
            note += f"; {t.against} of {t.of} references mentioning it contradict it, {t.support} agree"
        out = {"references": sorted(self.against_refs), "words": words, "note": note, "agreement": t.to_dict()}
        if self.holder is not None:
            out["through"] = image.concepts[self.holder].lemma
        if self.container and self.target is not None:
            out["container"] = image.concepts[image.relations[self.target].subject].lemma
        return out

    def _otherwise(self, image: SceneGraph) -> dict[str, Any]:
        rels = [image.relations[f] for f in self.said]
        refs = sorted({k for rel in rels if rel.span and (k := image.part_of(rel.span[0])) is not None})
        said = [list(rel.triple(image)) for rel in rels]
        return {
            "references": refs,
            "words": [image.text[rel.span[0] : rel.span[1]] for rel in rels if rel.span],
            "note": f"the references say {said[0] if len(said) == 1 else said}, which neither backs nor excludes it",
        }


def _pair_verdict(
    mine: str,
    forward: list[str],
    backward: list[str],
    verbs: bool,
    body: Body,
    bounded: bool = True,
    held: bool = False,
    plant: bool = False,
) -> tuple[bool | None, str]:
    """Whether one reference's predicates for the pair agree with ``mine`` (True), contradict it
    (False) or neither (None), and the kind of contradiction; ``verbs``: verb states count;
    ``bounded``: the pair's second is a bounded thing (:func:`knowledge.predicates_contradict`);
    ``plant``: it is a plant, where "in" and "on" agree (:func:`knowledge.is_foliage`);
    ``held``: ``mine`` puts the second in or on the first ("a plate of pancakes"), which is
    judged as the second's being in or on the first."""
    if held:
        outs = [_pair_verdict(p, backward, forward, False, body) for p in IN_OR_ON]
        if any(agrees for agrees, _ in outs):
            return True, ""
        return (False, "spatial") if all(agrees is False for agrees, _ in outs) else (None, "")
    key = relation_key(mine)
    inv = inverse_key(key)
    apart = bounded and not plant  # in it and on it are two places
    if any(
        canonicals_agree(mine, c, body, apart) if verbs else predicates_agree(key, relation_key(c), apart)
        for c in forward
    ):
        return True, ""
    if inv is not None and any(predicates_agree(inv, relation_key(c)) for c in backward):
        return True, ""
    if any(_clashes(mine, c, False, body, bounded) for c in forward) or (
        inv not in (None, key) and any(relation_key(c) == key for c in backward)
    ):
        return False, "spatial"
    if verbs and any(_clashes(mine, c, True, body, bounded) for c in forward):
        return False, "exclusive"
    return None, ""


def _clashes(mine: str, theirs: str, verbs: bool, body: Body, bounded: bool) -> bool:
    """Whether canonical predicate ``theirs`` excludes ``mine`` for one ordered pair: as places
    (``bounded``: the second is a bounded thing, and ``theirs`` is no look, utterance or making:
    :func:`knowledge.aimed`), or, with ``verbs``, as
    the subject's states too."""
    bounded = bounded and not aimed(theirs)
    if verbs:
        return canonicals_contradict(mine, theirs, body, bounded)
    return predicates_contradict(relation_key(mine), relation_key(theirs), bounded)


def _state(caption: SceneGraph, image: SceneGraph, r: Relation, s: int, forward: list[int]) -> Judged | None:
    """The subject's state against the references (way 1 of the module docstring); None when
    the caption states none or the references do not decide."""
    mine = state_of_predicate(r.canonical)
    if mine is None:
        return None
    body = body_of(caption.concepts[r.subject].synset)
    t, others = state_tally(image, [s], mine, caption.concepts[r.subject])
    verdict = t.verdict()
    if verdict is None:
        return None
    against = sorted({k for v in others for k in image.concepts[s].votes["state"].get(v, [])})
    excluding = [
        x
        for x, rel in enumerate(image.relations)
        if rel.subject == s and states_exclude(mine, state_of_predicate(rel.canonical), body)
    ]
    same = [x for x in excluding if x in forward]
    if same:
        t.kind = "exclusive"
        # one that keeps the caption's preposition, if any does ("standing in a room", not "in
        # middle of a room")
        key, words = relation_key(r.canonical), r.canonical.split()[1:]
        keeps = [x for x in same if image.relations[x].canonical.split()[1:] == words]
        pick = next((x for x in keeps + same if relation_key(image.relations[x].canonical) == key), same[0])
        predicate = image.relations[pick].canonical
    elif excluding and len(r.canonical.split()) > 1:
        # the other end differs: the caption's verb changes to theirs ("crawling", not the class
        # "travel"), its preposition and object stay
        best = others.most_common(1)[0][0]
        pick = next((x for x in excluding if state_of_predicate(image.relations[x].canonical) == best), excluding[0])
        predicate = " ".join([image.relations[pick].canonical.split()[0], *r.canonical.split()[1:]])
    else:
        return None  # said only by participles, or a verb with an object: no rewrite to make
    if verdict == "split":
        return Judged(tally=t, against_refs=against)
    return Judged(target=pick, tally=t, predicate=predicate, against_refs=against)


def judge_state(caption: SceneGraph, image: SceneGraph, r: Relation, *, s: int) -> Judged | None:
    """The subject's state alone (way 1 of the module docstring), for a triple whose other end
    the references do not speak of: None when the caption states none or the references do not
    decide."""
    return _state(caption, image, r, s, [])


def judge_against_references(
    caption: SceneGraph,
    image: SceneGraph,
    r: Relation,
    *,
    s: int,
    o: int,
    forward: list[int],
    backward: list[int],
) -> Judged:
    """The outcome (:class:`Judged`) for caption triple ``r`` whose ends map to image entities
    ``s`` and ``o``; ``forward`` / ``backward`` are the image relations from ``s`` to ``o`` and
    back."""
    state = _state(caption, image, r, s, forward)
    if state is not None and (state.target is not None or not (forward or backward)):
        return state
    # a split on the subject's state leaves it to how the references relate the two things
    judged = _judge_pair(caption, image, r, s=s, o=o, forward=forward, backward=backward)
    return state if state is not None and judged.target is None and judged.tally is None else judged


def _judge_pair(
    caption: SceneGraph,
    image: SceneGraph,
    r: Relation,
    *,
    s: int,
    o: int,
    forward: list[int],
    backward: list[int],
) -> Judged:
    """The outcome for caption triple ``r`` by the pair's predicates (way 2 of the module
    docstring)."""
    mine = state_of_predicate(r.canonical)
    body = body_of(caption.concepts[r.subject].synset)
    verbs = True
    if mine is not None:
        st, _ = state_tally(image, [s], mine, caption.concepts[r.subject])
        verbs = not st.support  # the references back the subject's state: only places can clash
    # a look's (an utterance's, a making's) preposition places the look, not the one looking: no
    # bounded place to clash with
    bounded = holds(image.concepts[o]) and not aimed(r.canonical)
    # in a plant and on it are one place (but beside it is not)
    plant = is_foliage(image.concepts[o].synset)
    apart = bounded and not plant
    votes, holder_of = pair_votes(image, s, o), dict[int, int]()
    if not votes and not forward and not backward and relation_key(r.canonical) in SHARED:
        # no reference relates the two: where they put the thing's holder, the thing is too,
        # and only the place counts (the holder's verb is its own)
        votes, holder_of = through_holders(image, s, o)
        forward, verbs = list(holder_of), False
    support = against = 0
    kinds, against_refs = set(), []
    held = puts_inside_of(caption, r)
    for ref, (fw, bw) in votes.items():
        agrees, why = _pair_verdict(r.canonical, fw, bw, verbs, body, bounded, held, plant=plant)
        if agrees:
            support += 1
        elif agrees is False:
            against += 1
            against_refs.append(ref)
            kinds.add(why)
    kind = "exclusive" if kinds == {"exclusive"} else "spatial"
    rels = image.relations
    key, inv = relation_key(r.canonical), inverse_key(relation_key(r.canonical))
    agree = [
        f
        for f in forward
        if (
            canonicals_agree(r.canonical, rels[f].canonical, body, apart)
            if verbs
            else predicates_agree(key, relation_key(rels[f].canonical), apart)
        )
    ]
    agree += [b for b in backward if inv is not None and predicates_agree(inv, relation_key(rels[b].canonical))]
    agree += held_agree(caption, image, r, forward, backward, apart)
    mentioning = len(
        set.intersection(
            *({k for a, _ in image.concepts[j].spans if (k := image.part_of(a)) is not None} for j in (s, o))
        )
    )
    t = Tally(kind, support, against, mentioning, len(image.parts))
    verdict = t.verdict()
    if verdict is None:
        return Judged(agree=agree, said=[] if holder_of else [*forward, *backward])
    if verdict == "split":
        return Judged(tally=t, against_refs=against_refs)
    contra = [f for f in forward if _clashes(r.canonical, rels[f].canonical, verbs, body, bounded)]
    contra += [b for b in backward if key == relation_key(rels[b].canonical) and inv not in (None, key)]
    if not held and in_or_on(key, bounded) is False:
        contra += [b for b in backward if puts_inside_of(image, rels[b])]
    if not contra:
        return Judged(agree=agree)
    # the rewrite takes the relation whose verb puts the subject in the state most references
    # say ("standing on" of two, not "sitting in" of one); the first of those named as often
    states = image.concepts[s].votes.get("state", {})
    contra.sort(key=lambda f: -len(states.get(state_of_predicate(rels[f].canonical) or "", ())))
    if holder_of:  # the caption's two things stay; only the place changes
        place, holder = relation_key(rels[contra[0]].canonical), holder_of[contra[0]]
        contains = holder in contents_of(image, s)
        return Judged(
            target=contra[0], tally=t, predicate=place, against_refs=against_refs, holder=holder, contains=contains
        )
    if contra[0] in backward and puts_inside_of(image, rels[contra[0]]):  # "a plate of pancakes"
        place = place_in(image, o)
        return Judged(target=contra[0], tally=t, predicate=place, against_refs=against_refs, container=True)
    if contra[0] in backward:  # "a table on the cat" says the cat is under it
        return Judged(target=contra[0], tally=t, predicate=inv, against_refs=against_refs)
    return Judged(target=contra[0], tally=t, against_refs=against_refs)
