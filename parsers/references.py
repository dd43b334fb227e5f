"""Reference captions -> one scene graph of *entities*.

Several people describe one image in their own words: "a boy", "a kid", "the child" are one
entity; "a dog" and "two dogs" one entity seen twice. :func:`from_references` parses every
reference and merges their concepts into entities, so that a caption word matches whichever name
a reference used, and counts, attributes and relations are pooled from every reference.

A concept joins an existing entity when

1. it has one of the entity's names or synsets ("dog" / "dog"; "couch" / "sofa"), or
2. it comes from a reference that has not yet mentioned that entity, and the two words can mean
   the same: a sense one of them can take is the other's ("kid" can mean a child), or WordNet
   says they may name one thing (:func:`knowledge.corefer_distance`: "dog" / "animal", "man" /
   "person", "boy" / "kid"; not "man" / "boy"). The closest such entity is taken.

Within one reference, two different words are two entities ("a man and a boy"). A more general
mention adds its name but not its number ("two animals" may be a dog and a cat).

What each reference says of an entity is also kept apart, in its ``votes`` (kind -> value ->
reference indices), so that agreement across references can be counted rather than pooled: two
references saying "two dogs" and two saying "three dogs" are a split, not a fact. Kinds:
``colour``, ``size``, ``material`` (the values), ``count`` (exact or vague counts), ``number``
(``one`` for a singular uncounted mention, ``several`` for a plural one), ``general count``
(the count of a more general mention, "two animals": only for what is said in that word),
``state`` (what the
reference's verbs and participles say of the entity: :mod:`knowledge.states`, "a dog *running*
across the grass", "a *parked* bus") and ``relations`` (``"<object entity> <canonical
predicate>"``: the relations the entity is the subject of, each with every reference that said
it, where the graph keeps one copy).

>>> from parsers.caption import CaptionParser
>>> g = from_references(["A boy flies a kite.", "A kid with a kite.", "A child and his kite."],
...                     CaptionParser())
>>> [(c.lemma, sorted(c.aliases)) for c in g.concepts]
[('boy', ['child', 'kid']), ('kite', [])]
>>> g.kind, g.parts
('references', [(0, 19), (20, 38), (39, 60)])
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import replace
from typing import TYPE_CHECKING

from knowledge import corefer_distance, is_hypernym, lemmatize, noun_senses
from knowledge.states import state_of_modifier, state_of_predicate, state_of_verb
from parsers.annotation_formats import AnnotationError
from parsers.covered import before_covering
from parsers.mentions import pool
from parsers.scene_graph import Concept, SceneGraph

if TYPE_CHECKING:
    from parsers.caption import CaptionParser

#: Senses of a word tried when asking whether it can mean the other word ("kid" -> child).
COREF_SENSES = 4


def from_references(
    references: list[str], parser: CaptionParser | None, graphs: Iterable[SceneGraph] | None = None
) -> SceneGraph:
    """The entity graph of ``references`` (see the module docstring). Its text is the references
    joined by newlines, ``parts`` their char ranges in it, and every span indexes that text.
    Relations are remapped to entities and de-duplicated by (subject, canonical predicate,
    object). An entity is hedged only if every mention was. ``graphs`` are the references'
    graphs when the caller parsed them already (e.g. many records' references in one batch);
    they are read, never changed, so they may be shared and cached."""
    if not isinstance(references, (list, tuple)):
        raise AnnotationError("references", f"expected a list of captions, got {type(references).__name__}")
    for i, ref in enumerate(references):
        if not isinstance(ref, str):
            raise AnnotationError(f"references[{i}]", f"expected a caption string, got {type(ref).__name__}")
    merged = SceneGraph(text="\n".join(references), kind="references")
    synsets: list[set[str]] = []  # per entity, the synsets of all its names
    names: list[set[str]] = []  # per entity, its names (Concept.names), kept up to date
    seen: set[tuple[int, str, int]] = set()
    offset = 0
    if graphs is None:
        if parser is None:
            raise ValueError("from_references needs a parser or the references' graphs")
        graphs = parser.parse_many(references)
    for ref, graph in zip(references, graphs, strict=True):
        merged.parts.append((offset, offset + len(ref)))
        claimed: set[int] = set()  # entities this reference has already named
        local: list[int] = []
        named = Counter[tuple[int, str]]()  # per entity and name, this reference's mentions
        for c in graph.concepts:
            shifted = _shift(c, offset)
            k, general = _entity_for(shifted, merged.concepts, synsets, names, claimed)
            if k is None:
                k = merged.add_concept(shifted)
                synsets.append({c.synset} if c.synset else set())
                names.append(set(shifted.names()))
            else:
                pool(merged.concepts[k], shifted, keep_number=not general)
                merged.concepts[k] = _read_as_said(merged.concepts[k], c)
                names[k] = set(merged.concepts[k].names())
                if c.synset:
                    synsets[k].add(c.synset)
            claimed.add(k)
            local.append(k)
            _vote(merged.concepts[k], shifted, len(merged.parts) - 1, general, merged.text)
            named[k, c.lemma] += not general
        for (k, _), n in named.items():
            if n > 1:
                _named_apart(merged.concepts[k], len(merged.parts) - 1)
        for r in graph.relations:
            s, o = local[r.subject], local[r.object]
            state = state_of_predicate(r.canonical)
            if state is not None:
                _add_vote(merged.concepts[s], "state", state, len(merged.parts) - 1)
            if s != o:
                _add_vote(merged.concepts[s], "relations", f"{o} {r.canonical}", len(merged.parts) - 1)
            if s == o or (s, r.canonical, o) in seen:
                continue
            seen.add((s, r.canonical, o))
            span = (r.span[0] + offset, r.span[1] + offset) if r.span else None
            merged.add_relation(replace(r, subject=s, object=o, span=span))
        offset += len(ref) + 1
    return merged


_VOTED = ("colour", "size", "material")


def _add_vote(e: Concept, kind: str, value: str, ref: int) -> None:
    refs = e.votes.setdefault(kind, {}).setdefault(value, [])
    if ref not in refs:
        refs.append(ref)


def _vote(e: Concept, c: Concept, ref: int, general: bool, text: str) -> None:
    """Record in entity ``e`` what mention ``c`` of reference ``ref`` says of it; a more
    general mention (``general``) says nothing of its number."""
    for kind in _VOTED:
        for v in c.attributes.get(kind, []):
            _add_vote(e, kind, v, ref)
    for v in c.attributes.get("other", []):
        if (state := state_of_modifier(v)) is not None:
            _add_vote(e, "state", state, ref)
    for v in c.attributes.get("state", []):  # "a dog is *running*" (parsers.intransitive)
        if (state := state_of_verb(v)) is not None:
            _add_vote(e, "state", state, ref)
    if general:
        # kept apart: "two branches" says how many branches, not how many tree branches
        for v in c.attributes.get("count", []):
            _add_vote(e, "general count", v, ref)
        return
    for v in c.attributes.get("count", []):
        _add_vote(e, "count", v, ref)
    if c.attributes.get("count"):
        return
    if c.plural:
        _add_vote(e, "number", "several", ref)
    elif (
        c.spans
        and lemmatize(word := text[c.spans[0][0] : c.spans[0][1]].lower().split()[-1]) == word
        and not before_covering(text, c.spans[0][1])  # "a *tree* lined road" has trees
    ):
        _add_vote(e, "number", "one", ref)


def _named_apart(e: Concept, ref: int) -> None:
    """Reference ``ref`` names ``e`` by one word more than once, as things apart -- the parser
    keeps "the girl" with "a girl", so these are "one girl ... another girl", "a gray car next
    to a red one": it says there are several, each mention of one of them, and its "one" says
    which, not how many. (Two words of one entity, "hot chocolate or coffee", may be one thing.)

    >>> e = Concept("girl", "girl", votes={"count": {"1": [0]}, "number": {"one": [0, 1]}})
    >>> _named_apart(e, 0)
    >>> e.votes
    {'number': {'one': [0, 1], 'several': [0]}}
    """
    counts = e.votes.get("count", {})
    if ref in counts.get("1", []):
        counts["1"].remove(ref)
        if not counts["1"]:
            del counts["1"]
        if not counts:
            del e.votes["count"]
    if not any(ref in refs for refs in counts.values()):
        _add_vote(e, "number", "several", ref)


def _entity_for(
    c: Concept, entities: list[Concept], synsets: list[set[str]], names: list[set[str]], claimed: set[int]
) -> tuple[int | None, bool]:
    """(the entity ``c`` names or None, whether ``c`` is the more general word of the two);
    ``synsets`` and ``names`` are each entity's synsets and names."""
    own = c.names()
    for k in range(len(entities)):
        if not names[k].isdisjoint(own) or (c.synset and c.synset in synsets[k]):
            return k, False
    if not c.synset:
        return None, False
    c_senses = noun_senses(c.lemma)[:COREF_SENSES]
    best: tuple[int, int, bool] | None = None  # (distance, entity, c is general)
    for k, e in enumerate(entities):
        if k in claimed or not synsets[k]:
            continue
        e_can_mean_c = c.synset in _senses(e, COREF_SENSES)
        for s in sorted(synsets[k]):  # sorted: ties go the same way in every process
            if e_can_mean_c or s in c_senses:
                found = (0, k, False)
            elif (d := corefer_distance(s, c.synset)) is not None:
                found = (d, k, is_hypernym(c.synset, s))
            else:
                continue
            if best is None or found[:2] < best[:2]:
                best = found
    return (best[1], best[2]) if best else (None, False)


def _read_as_said(e: Concept, c: Concept) -> Concept:
    """Entity ``e`` read in the sense of its word that another word for it, mention ``c``, names
    outright: "a bike" is first a motorcycle in WordNet, but where another reference calls it "a
    bicycle", that is the bike they all saw. A mention of the entity's own word is no evidence of
    its sense (the parser gave it the word's first)."""
    if not c.synset or c.synset == e.synset or c.lemma == e.lemma:
        return e
    return replace(e, synset=c.synset) if c.synset in noun_senses(e.lemma)[:COREF_SENSES] else e


def _senses(e: Concept, limit: int) -> tuple[str, ...]:
    return tuple(s for name in e.names() for s in noun_senses(name)[:limit])


def _shift(c: Concept, offset: int) -> Concept:
    return replace(
        c,
        votes={},
        spans=[(a + offset, b + offset) for a, b in c.spans],
        phrase_span=(c.phrase_span[0] + offset, c.phrase_span[1] + offset) if c.phrase_span else None,
        attributes={k: list(v) for k, v in c.attributes.items()},
        alternatives=list(c.alternatives),
        aliases=list(c.aliases),
    )
