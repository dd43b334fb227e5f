"""A "by" phrase that spaCy's small model reads as a passive agent where it names a place, read
as the place; and the agent of a participle, related to what the participle describes.

Only a passive participle has an agent: "a cake *made by* a woman" is the woman's doing. After an
active verb, "by" says where: "A cow is standing *by* an electric fence", "Kids playing in the
sand *by* the ocean". The parser sometimes labels such a phrase ``agent`` all the same, and
SceneGraphParser takes an agent for the verb's subject, so the ocean was the one "playing in"
the sand and the kids did nothing. :func:`repair` (a pipeline component, last of the tree
repairs, so it reads their tags) relabels an ``agent`` whose verb is not a past participle
(``VBN``) as the preposition it is; so too after a verb of putting a thing somewhere, when the
phrase names no person or animal ("a car *parked by the curb*", "a sink *situated by a window*":
a place; "a car parked *by a man*" stays his doing).

SceneGraphParser reads a finite passive as the agent's doing ("the castle is surrounded by
water": (water, surrounded, castle)) but a participle's agent it leaves unrelated: "a castle
*surrounded by water*", "a cart *pulled by a horse*" (160 of 17,826 training texts).
:func:`relate_agents` adds those relations the same way round.

>>> from parsers.spacy_model import load_spacy
>>> doc = load_spacy(tree_repairs=True)("Kids playing in the sand by the ocean.")
>>> [(t.text, t.dep_, t.head.text) for t in doc if t.text == "by"]
[('by', 'prep', 'playing')]
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from spacy.language import Language

from knowledge import is_hypernym
from knowledge.agents import may_be_somebody
from knowledge.concepts import verb_synset
from parsers.components import install_after_parser
from parsers.draft_graph import Draft, flatten, verb_subject

#: What a verb of putting a thing somewhere is, in its first or second WordNet sense: "put"
#: (park, place, set, stack, arrange, seat, lean) or "locate" (situate, position).
_PUTTING = ("put.v.01", "locate.v.01")


def repair(doc: Any) -> Any:
    """Relabel every passive agent of ``doc`` that names a place (see the module), in place."""
    for t in doc:
        if t.dep_ == "agent" and (t.head.tag_ != "VBN" or _put_beside(t)):
            t.dep_ = "prep"
    return doc


def _put_beside(agent: Any) -> bool:
    """Whether the "by" phrase ``agent`` says where its verb put a thing: the verb is one of
    putting somewhere and the phrase names no person or animal."""
    obj = next((c for c in agent.children if c.dep_ == "pobj"), None)
    return obj is not None and _putting(agent.head.lower_) and not may_be_somebody(obj.lower_)


@lru_cache(maxsize=2048)
def _putting(verb: str) -> bool:
    # the word, not its lemma: the tree repairs run before the lemmatizer, and verb_synset lemmatizes
    senses = (verb_synset(verb, k) for k in (0, 1))
    return any(s is not None and any(is_hypernym(p, s) for p in _PUTTING) for s in senses)


def relate_agents(d: Draft) -> None:
    """Relate the agent of every passive participle without a subject of its own to what the
    participle describes, as the agent's doing: "a castle surrounded by a moat and a bridge" ->
    (moat, surrounded, castle), (bridge, surrounded, castle); "A panda sits, surrounded by
    greenery" -> (greenery, surrounded, panda).

    >>> from parsers.caption import CaptionParser
    >>> CaptionParser().parse("A cart pulled by a horse.").triples()
    [('horse', 'pull', 'cart')]
    """
    doc = d.doc
    linked = {(k.subject, k.object) for k in d.links}
    for a in doc:
        v = a.head
        if a.dep_ != "agent" or v.tag_ != "VBN" or any(c.dep_ in ("nsubj", "nsubjpass") for c in v.children):
            continue  # a finite passive is upstream's
        target, obj = verb_subject(v), next((c for c in a.children if c.dep_ == "pobj"), None)
        if target is None or obj is None:
            continue
        d.relate(flatten(obj), [target], (v.i,), linked)


@Language.component("halcece_passive_agents")
def _component(doc: Any) -> Any:
    return repair(doc)


def install(nlp: Language) -> bool:
    """Add :func:`repair` right after the parser; installed before the other tree repairs, it
    runs after them. False when there is no parser."""
    return install_after_parser(nlp, "halcece_passive_agents")
