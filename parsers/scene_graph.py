"""The scene graph: concepts (nodes) and relations (edges), with char spans into the source text.

Both sides of a comparison use this one type: the graph parsed from a caption and the graph built
from what is really in the image (an annotation, object labels or reference captions).

>>> g = SceneGraph(text="A dog on a sofa.")
>>> dog = g.add_concept(Concept(text="dog", lemma="dog", synset="dog.n.01", spans=[(2, 5)]))
>>> sofa = g.add_concept(Concept(text="sofa", lemma="sofa", synset="sofa.n.01", spans=[(11, 15)]))
>>> _ = g.add_relation(Relation(subject=dog, predicate="on", canonical="on", object=sofa))
>>> [r.triple(g) for r in g.relations]
[('dog', 'on', 'sofa')]
>>> SceneGraph.from_dict(g.to_dict()) == g
True
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import networkx as nx

Span = tuple[int, int]


@dataclass
class Concept:
    """One object in a scene.

    ``text`` is the surface form (``"dogs"``), ``lemma`` the normalised head (``"dog"``), ``synset``
    the WordNet synset name or ``None`` when WordNet has no noun for it. ``spans`` are char offsets
    of the head noun in the source text; ``phrase_span`` covers the whole noun phrase ("two small
    dogs"), which is what a deletion removes. ``attributes`` maps a kind (colour, size, material,
    count, other) to values. ``uncertain`` marks hedged mentions ("possibly a cat");
    ``alternatives`` holds the other lemmas of an "X or Y" mention. ``aliases`` are other names
    of the same thing on the image side (a Visual Genome object's further ``names``; the words
    other references use for one entity: "boy", "kid", "child"), each as good as ``lemma``.
    ``recovered`` marks a noun the parser had lost and a repair found again. ``votes`` (image
    side, reference captions only) says which references said what of the entity: kind (colour,
    size, material, count, number, state) -> value -> reference indices, so that agreement
    across references can be counted (:mod:`parsers.references`).
    """

    text: str
    lemma: str
    synset: str | None = None
    attributes: dict[str, list[str]] = field(default_factory=dict)
    spans: list[Span] = field(default_factory=list)
    phrase_span: Span | None = None
    uncertain: bool = False
    alternatives: list[str] = field(default_factory=list)
    plural: bool = False
    source_id: str | None = None  # id in the annotation (e.g. a Visual Genome object_id)
    aliases: list[str] = field(default_factory=list)
    recovered: bool = False
    votes: dict[str, dict[str, list[int]]] = field(default_factory=dict)

    def names(self) -> list[str]:
        """Every name this concept answers to, lowercased: lemma, alternatives, aliases."""
        if not self.alternatives and not self.aliases:  # most concepts: called for every pair of nodes
            return [self.lemma.lower()]
        return list(dict.fromkeys(x.lower() for x in (self.lemma, *self.alternatives, *self.aliases)))

    def to_dict(self) -> dict[str, Any]:
        # Spelled out rather than dataclasses.asdict: this runs for every node of every output
        # row, and asdict's generic deep copy was ~3 % of a references-mode run.
        return {
            "text": self.text,
            "lemma": self.lemma,
            "synset": self.synset,
            "attributes": {k: list(v) for k, v in self.attributes.items()},
            "spans": [list(s) for s in self.spans],
            "phrase_span": list(self.phrase_span) if self.phrase_span else None,
            "uncertain": self.uncertain,
            "alternatives": list(self.alternatives),
            "plural": self.plural,
            "source_id": self.source_id,
            "aliases": list(self.aliases),
            "recovered": self.recovered,
            "votes": {k: {v: list(r) for v, r in d.items()} for k, d in self.votes.items()},
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Concept:
        d = dict(d)
        d["spans"] = [tuple(s) for s in d.get("spans", [])]
        d["phrase_span"] = tuple(d["phrase_span"]) if d.get("phrase_span") else None
        return cls(**d)


@dataclass
class Relation:
    """A directed (subject, predicate, object) triple between two concepts of one graph.

    ``subject`` and ``object`` are node indices into ``SceneGraph.concepts``. ``predicate`` is the
    surface text ("sitting on"), ``canonical`` the normalised form used for matching ("on"),
    ``verb_synset`` the WordNet verb synset when the predicate is a verb. ``span`` is the char span
    of the predicate in the source text, when known.
    """

    subject: int
    predicate: str
    object: int
    canonical: str = ""
    verb_synset: str | None = None
    span: Span | None = None

    def __post_init__(self) -> None:
        if not self.canonical:
            self.canonical = self.predicate.lower().strip()

    def triple(self, graph: SceneGraph) -> tuple[str, str, str]:
        """The readable triple ``(subject lemma, canonical predicate, object lemma)``."""
        return (graph.concepts[self.subject].lemma, self.canonical, graph.concepts[self.object].lemma)

    def to_dict(self) -> dict[str, Any]:
        return {
            "subject": self.subject,
            "predicate": self.predicate,
            "object": self.object,
            "canonical": self.canonical,
            "verb_synset": self.verb_synset,
            "span": list(self.span) if self.span else None,
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Relation:
        d = dict(d)
        d["span"] = tuple(d["span"]) if d.get("span") else None
        return cls(**d)


@dataclass
class SceneGraph:
    """Concepts and the relations between them, plus the text they came from (if any).

    ``kind`` says what the graph describes and so how complete it is: ``"caption"``,
    ``"annotation"`` (a scene graph or object list: what it lacks is not there) or
    ``"references"`` (merged reference captions: partial, what they do not say is unknown).
    ``parts`` are the char ranges of the texts joined into ``text`` (one per reference).
    """

    concepts: list[Concept] = field(default_factory=list)
    relations: list[Relation] = field(default_factory=list)
    text: str = ""
    kind: str = ""
    parts: list[Span] = field(default_factory=list)

    def part_of(self, offset: int) -> int | None:
        """Index of the part (reference) that char ``offset`` of ``text`` falls in, if any."""
        for k, (a, b) in enumerate(self.parts):
            if a <= offset <= b:
                return k
        return None

    def add_concept(self, concept: Concept) -> int:
        """Append a concept and return its node index."""
        self.concepts.append(concept)
        return len(self.concepts) - 1

    def add_relation(self, relation: Relation) -> int:
        """Append a relation (both ends must exist) and return its index."""
        n = len(self.concepts)
        if not (0 <= relation.subject < n and 0 <= relation.object < n):
            raise IndexError(f"relation {relation.predicate!r} refers to a missing node")
        self.relations.append(relation)
        return len(self.relations) - 1

    def __len__(self) -> int:
        return len(self.concepts)

    def __iter__(self) -> Iterator[Concept]:
        return iter(self.concepts)

    def triples(self) -> list[tuple[str, str, str]]:
        return [r.triple(self) for r in self.relations]

    def to_dict(self) -> dict[str, Any]:
        return {
            "text": self.text,
            "kind": self.kind,
            "parts": [list(p) for p in self.parts],
            "concepts": [c.to_dict() for c in self.concepts],
            "relations": [r.to_dict() for r in self.relations],
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> SceneGraph:
        return cls(
            concepts=[Concept.from_dict(c) for c in d.get("concepts", [])],
            relations=[Relation.from_dict(r) for r in d.get("relations", [])],
            text=d.get("text", ""),
            kind=d.get("kind", ""),
            parts=[tuple(p) for p in d.get("parts", [])],
        )

    def to_networkx(self) -> nx.MultiDiGraph[int]:
        """A networkx view: node attributes are the concept fields, edge attributes the relation's."""
        g: nx.MultiDiGraph[int] = nx.MultiDiGraph()
        for i, c in enumerate(self.concepts):
            g.add_node(i, **c.to_dict())
        for r in self.relations:
            g.add_edge(
                r.subject,
                r.object,
                predicate=r.predicate,
                canonical=r.canonical,
                verb_synset=r.verb_synset,
                span=r.span,
            )
        return g
