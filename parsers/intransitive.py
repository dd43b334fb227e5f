"""The state an intransitive verb puts its subject in, kept as the subject's ``state`` attribute.

SceneGraphParser reads relations, and a verb without an object ("A man *walking* and holding a
ball", "people dressed as zombies are *kneeling* together", "A dog is *running*.") relates
nothing: the posture or motion it states was lost, so a caption could not be contradicted on it.
:func:`add_states` keeps the verb's word in its subject's ``attributes["state"]`` when the verb
states a posture or motion (:func:`knowledge.states.state_of_verb`), acts on nothing (no
object or particle: "moving the water", "falling off") and is no relation's predicate (those
are judged as relations). A verb whose phrases relate nothing the parser keeps ("two women
*lying* next to each other", "a rider *sitting* on it") still states its subject's.

The subject is the noun the verb modifies ("a man walking") or its ``nsubj`` ("a dog is
running"); a verb coordinated with another ("walking and holding") has the first one's; "he" or
"she" is the person or animal last named ("a player clutches the ball as *he* runs"); a group's
is its members' ("a group of people who are *standing*").

>>> from parsers.caption import CaptionParser
>>> [(c.text, c.attributes.get("state")) for c in CaptionParser().parse("A dog is running.").concepts]
[('dog', ['running'])]
"""

from __future__ import annotations

from typing import Any

from knowledge import is_animate
from knowledge.agents import may_be_somebody
from knowledge.states import state_of_verb
from parsers.draft_graph import keeps_posture
from parsers.scene_graph import SceneGraph

#: What a verb governs when it acts on something ("moving the water", "falling off"): then what
#: it says is no state of its subject's -- but for a particle that keeps its posture ("lying
#: *down*", :func:`parsers.draft_graph.keeps_posture`). A prepositional phrase is not among them: where it
#: relates the subject, the verb is a relation's predicate and judged as one; where it relates
#: nothing the parser keeps ("lying next to each other"), the verb still says how the subject is.
_ACTS_ON = frozenset(("dobj", "agent", "dative", "attr", "acomp", "xcomp", "ccomp", "prt", "oprd"))


def _subject(verb: Any) -> Any | None:
    """The noun token ``verb`` says something of, or None. A posture or motion the parser hangs
    from a thing coordinated with a person or animal is theirs ("a woman in sunglasses and a
    jacket *standing*": the woman stands, not the jacket)."""
    v = verb
    while v.dep_ == "conj" and v.head.pos_ in ("VERB", "AUX"):
        v = v.head
    if v.dep_ in ("acl", "relcl") and v.head.pos_ in ("NOUN", "PROPN"):
        noun = v.head
    else:
        noun = next((c for c in v.children if c.dep_ in ("nsubj", "nsubjpass")), None)
    while noun is not None and noun.dep_ == "conj" and not _animate(noun) and noun.head.pos_ in ("NOUN", "PROPN"):
        noun = noun.head
    return noun


#: Pronouns that stand for the person or animal last named ("a player clutches the ball as
#: *he* runs").
_PERSONAL = frozenset(("he", "she"))


def _antecedent(graph: SceneGraph, at: int) -> int | None:
    """The concept a personal pronoun at offset ``at`` stands for: the last person or animal
    named before it, or None."""
    before = [(c.spans[0][0], i) for i, c in enumerate(graph.concepts) if c.spans and c.spans[0][0] < at]
    return next((i for _, i in sorted(before, reverse=True) if is_animate(graph.concepts[i].synset)), None)


def _animate(token: Any) -> bool:
    return may_be_somebody(token.lower_)


def add_states(graph: SceneGraph, doc: Any) -> SceneGraph:
    """``graph`` (of ``doc``'s text) with the state of every intransitive posture or motion verb
    added to its subject's attributes (module docstring), in place; returns ``graph``."""
    heads = {a: i for i, c in enumerate(graph.concepts) for a, _ in c.spans}
    said = [r.span for r in graph.relations if r.span]
    for t in doc:
        if t.pos_ != "VERB" or any(c.dep_ in _ACTS_ON and not keeps_posture(c, t) for c in t.children):
            continue
        if any(a <= t.idx < b for a, b in said):  # "stands next to a sign": a relation's verb
            continue
        if state_of_verb(t.lower_) is None:
            continue
        subject = _subject(t)
        i = heads.get(subject.idx) if subject is not None else None
        if i is None and subject is not None and subject.lower_ in _PERSONAL:
            i = _antecedent(graph, subject.idx)
        if i is None and subject is not None:  # "a group of people who are standing": the people
            i = next(
                (heads[o.idx] for p in subject.children if p.lower_ == "of" for o in p.children if o.idx in heads), None
            )
        if i is None:
            continue
        states = graph.concepts[i].attributes.setdefault("state", [])
        if t.lower_ not in states:
            states.append(t.lower_)
    return graph
