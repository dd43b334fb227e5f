"""FaithScore's first two stages without a model: sub-sentences labelled descriptive or
analytical by rules, and atomic facts read off the caption's scene graph.

Sub-sentences are sentences cut further at ``;`` and at commas that open a new clause ("...,
which", "..., suggesting"). A sub-sentence is *analytical* when it frames, hedges, infers,
interprets, gives a purpose or evaluates (:mod:`.recogniser`), else *descriptive*; only
descriptive ones yield facts. Facts (FaithScore's five kinds) from the graph: every concept ->
an ``entity`` fact ("There is a dog."), its attributes -> ``colour``, ``count`` and ``attribute``
facts, every relation -> a ``relation`` fact. Each fact carries its char span in the caption.
Concepts that name the picture rather than its content ("image", "background") and hedged
mentions ("possibly a cat") give no facts; facts about an abstraction ("There is a sense.",
"There is an entity.": nothing visible, :func:`~detectors.faithscore.grounding.visible_noun`)
are kept but marked never to be judged (``Fact.skip``).

>>> [(s.text, s.label) for s in split_sub_sentences("A dog runs, which suggests it is happy.")]
[('A dog runs', 'descriptive'), ('which suggests it is happy.', 'analytical')]
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from cece.costs import PREPOSITIONS
from detectors.faithscore.grounding import visible_noun
from detectors.faithscore.recogniser import recognise
from knowledge import noun_senses
from parsers import Concept, Relation, SceneGraph
from parsers.attributes import count_value
from parsers.sentences import split_sentences

KINDS = ("entity", "relation", "colour", "count", "attribute")
META_NOUNS = frozenset(
    [
        "image",
        "picture",
        "photo",
        "photograph",
        "snapshot",
        "scene",
        "view",
        "shot",
        "frame",
        "background",
        "foreground",
        "side",
        "left",
        "right",
        "top",
        "bottom",
        "middle",
        "center",
        "centre",
        "corner",
        "atmosphere",
        "setting",
        "moment",
        "composition",
        "detail",
        "details",
        "part",
    ]
)
_CLAUSE = (
    r"which|who|whose|where|while|whereas|as|although|though|because|since|so|suggesting|"
    r"indicating|implying|hinting|creating|adding|making|giving|evoking|reflecting|possibly|"
    r"perhaps|probably|likely"
)
# ", and" / ", but" start a new clause when a new subject follows ("..., and a cat sleeps").
_OPENERS = r"a|an|the|there|it|its|they|their|this|these|those|some|several|two|three|four|one"
_CUT = re.compile(rf";\s*|,\s+(?=(?:{_CLAUSE})\b|(?:and|but)\s+(?:{_OPENERS})\b)", re.I)


@dataclass
class SubSentence:
    start: int
    end: int
    text: str
    label: str = "descriptive"  # "descriptive" | "analytical"


@dataclass
class Fact:
    """One atomic fact: ``kind`` (one of :data:`KINDS`), the statement, its caption span, the
    sub-sentence it came from, and after verification a ``verdict`` (None: cannot be judged)
    with the ``evidence`` for it; ``skip`` says why a fact is never sent to a verifier. The
    other fields hold the graph pieces it was read from."""

    kind: str
    text: str
    start: int
    end: int
    sub: int
    verdict: bool | None = None
    evidence: str = ""
    concept: Concept | None = field(default=None, repr=False)
    value: str | None = None
    attr_kind: str | None = None
    relation: tuple[Concept, Relation, Concept] | None = field(default=None, repr=False)
    graph: SceneGraph | None = field(default=None, repr=False)  # the statement parsed (LLM facts)
    skip: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "text": self.text,
            "start": self.start,
            "end": self.end,
            "sub_sentence": self.sub,
            "verdict": self.verdict,
            "evidence": self.evidence,
            **({"not_judged": self.skip} if self.skip else {}),
        }


def split_sub_sentences(caption: str) -> list[SubSentence]:
    """The caption's sub-sentences with spans, labelled by :func:`recognise`."""
    out = []
    for a, b in split_sentences(caption):
        start = a
        cuts = [(m.start(), m.end()) for m in _CUT.finditer(caption, a, b)] + [(b, b)]
        for cut_start, cut_end in cuts:
            piece = caption[start:cut_start]
            if any(ch.isalnum() for ch in piece):
                lead = len(piece) - len(piece.lstrip())
                s, e = start + lead, start + len(piece.rstrip())
                out.append(SubSentence(s, e, caption[s:e]))
            start = cut_end
    for sub, label in zip(out, recognise([sub.text for sub in out]), strict=True):
        sub.label = "descriptive" if label else "analytical"
    return out


def sub_of(subs: list[SubSentence], offset: int) -> int | None:
    """Index of the sub-sentence holding char ``offset``."""
    for i, s in enumerate(subs):
        if s.start <= offset < max(s.end, s.start + 1):
            return i
    return None


def _a(word: str) -> str:
    return ("an " if word[:1].lower() in "aeiou" else "a ") + word


def _be(c: Concept) -> str:
    return "are" if c.plural else "is"


def _head(c: Concept) -> tuple[int, int] | None:
    return c.spans[0] if c.spans else c.phrase_span


def _value_span(caption: str, c: Concept, value: str, kind: str) -> tuple[int, int]:
    """Where the attribute word is, inside the noun phrase; else the head noun."""
    a, b = c.phrase_span or _head(c) or (0, 0)
    words = [(a + m.start(), a + m.end(), m.group(0)) for m in re.finditer(r"[\w-]+", caption[a:b])]
    target = value.lower().split()
    for k, (start, end, word) in enumerate(words):
        if kind == "count" and count_value(word) == value:
            return start, end
        got = [w.lower() for _, _, w in words[k : k + len(target)]]
        if got == target:
            return start, words[k + len(target) - 1][1]
    return _head(c) or (a, b)


def _skip(c: Concept) -> bool:
    return c.uncertain or c.lemma.lower() in META_NOUNS or not _head(c)


def _abstraction(*concepts: Concept) -> str | None:
    """Why facts about these concepts cannot be checked against a picture: one of them names
    no visible thing (the parser took it for a thing, so a rare concrete sense, "racket" the bat,
    is enough; a word WordNet does not know is given the benefit of the doubt)."""
    for c in concepts:
        lemma = c.lemma.lower()
        if noun_senses(lemma) and not visible_noun(lemma, rare=True):
            return f"{lemma!r} names no visible thing"
    return None


def facts_from_graph(graph: SceneGraph, subs: list[SubSentence]) -> list[Fact]:
    """Atomic facts of the descriptive sub-sentences, read off the caption's scene graph."""
    caption, facts = graph.text, []
    for c in graph.concepts:
        h = _head(c)
        i = None if _skip(c) or h is None else sub_of(subs, h[0])
        if h is None or i is None or subs[i].label != "descriptive":
            continue
        entity = f"There are {c.text}." if c.plural else f"There is {_a(c.text)}."
        skip = _abstraction(c)
        facts.append(Fact("entity", entity, h[0], h[1], i, concept=c, skip=skip))
        for kind, values in c.attributes.items():
            for v in values:
                a, b = _value_span(caption, c, v, kind)
                if kind == "count":
                    text = f"There is one {c.text}." if v == "1" else f"There are {v} {c.text}."
                else:
                    text = f"The {c.text} {_be(c)} {v}."
                fact_kind = kind if kind in ("count", "colour") else "attribute"
                span = min(a, h[0]), max(b, h[1])
                facts.append(Fact(fact_kind, text, *span, i, concept=c, value=v, attr_kind=kind, skip=skip))
    for r in graph.relations:
        s, o = graph.concepts[r.subject], graph.concepts[r.object]
        if _skip(s) or _skip(o):
            continue
        where = [x for x in (_head(s), r.span, _head(o)) if x]
        i = sub_of(subs, (r.span or _head(s))[0])  # type: ignore[index]  # assumes a span: graphs here come from the caption parser
        if i is None or subs[i].label != "descriptive":
            continue
        facts.append(
            Fact(
                "relation",
                relation_statement(s, r, o),
                min(x[0] for x in where),
                max(x[1] for x in where),
                i,
                relation=(s, r, o),
                skip=_abstraction(s, o),
            )
        )
    facts.sort(key=lambda f: (f.start, KINDS.index(f.kind)))
    return facts


def relation_statement(s: Concept, r: Relation, o: Concept) -> str:
    """A short sentence for a relation: "The dog is sitting on the sofa." """
    pred = r.predicate.strip()
    if r.canonical == "have" or pred.startswith("'"):  # "a man's lap", "a lap with a laptop"
        return f"The {s.text} {'have' if s.plural else 'has'} {_a(o.text)}."
    first = pred.split()[0].lower() if pred else ""
    if first.endswith("ing") or pred.lower() in PREPOSITIONS:
        pred = f"{_be(s)} {pred}"  # a participle or a bare preposition needs a verb
    return f"The {s.text} {pred} the {o.text}."
