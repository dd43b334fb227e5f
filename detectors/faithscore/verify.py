"""Fact verification against what describes the image: an annotation or reference captions.

An entity fact holds when some image concept is the same concept (or lemma), a hypernym or a
hyponym of it, or within ``max_path`` steps of it in WordNet. ``max_path`` is 0 by default:
at 2, siblings count, which admits near-synonyms (road/street, ocean/sea) but also real
hallucinations (man/woman, car/truck, sofa/chair). Colour and other attribute
facts are checked on the matching image concepts' attributes -- and cannot be judged (``None``)
when the image side gives no attribute of that kind for them. A count fact is checked on
explicit counts, else (annotations only: one node per object) on the number of matching nodes.
A relation fact needs an image relation between matching concepts with the same relation key
(``"sit on"`` and ``"on"`` agree); it cannot be judged when the image side has no relations.

>>> from parsers import Concept, SceneGraph
>>> v = GraphVerifier(SceneGraph([Concept("couch", "couch", "sofa.n.01", {"colour": ["blue"]})]))
>>> v.entity(Concept("sofa", "sofa", "sofa.n.01"))
(True, "image: 'couch' (same concept)")
>>> v.attribute(Concept("sofa", "sofa", "sofa.n.01"), "colour", "red")
(False, "image: 'couch' is blue")
"""

from __future__ import annotations

from cece.costs import relation_key
from detectors.faithscore.facts import META_NOUNS, Fact
from knowledge import is_hypernym, noun_synset, path_distance
from parsers import Concept, Relation, SceneGraph

Verdict = tuple[bool | None, str]
VAGUE = frozenset({"several", "many", "few", "multiple"})


def _norm(value: str) -> list[str]:
    return value.lower().replace("grey", "gray").replace("-", " ").split()


def same_value(a: str, b: str) -> bool:
    """Attribute values agree: equal, or one names the other's head word ("dark blue" ~ "blue")."""
    x, y = _norm(a), _norm(b)
    return bool(x and y) and (x == y or x[-1] == y[-1] and (len(x) == 1 or len(y) == 1))


def count_agrees(caption: str, image: str) -> bool | None:
    """Whether a caption count fits an image count (digits or vague words); None: cannot say."""
    if caption.isdigit() and image.isdigit():
        return caption == image
    if caption in VAGUE and image.isdigit():
        return int(image) >= 2
    if caption in VAGUE and image in VAGUE:
        return True
    return None


class GraphVerifier:
    """Verifies facts against an image-side scene graph. ``count_nodes``: the graph has one node
    per object (an annotation), so matching nodes can be counted; reference graphs merge them."""

    def __init__(self, image: SceneGraph, count_nodes: bool = False, max_path: int = 0) -> None:
        self.image = image
        self.count_nodes = count_nodes
        self.max_path = max_path

    def matches(self, c: Concept) -> list[tuple[int, str]]:
        """Image concepts that can stand for ``c``, with how they relate to it."""
        lemmas = {c.lemma.lower(), *(a.lower() for a in c.alternatives)}
        synsets = [s for s in [c.synset, *(noun_synset(a) for a in c.alternatives)] if s]
        out = []
        for j, x in enumerate(self.image.concepts):
            how = "same concept" if x.lemma.lower() in lemmas or (x.synset and x.synset in synsets) else None
            for s in synsets if x.synset and how is None else []:
                try:
                    if is_hypernym(s, x.synset):
                        how = "a kind of it"
                    elif is_hypernym(x.synset, s):
                        how = "more general"
                    elif (d := path_distance(s, x.synset)) is not None and d <= self.max_path:
                        how = f"{d} steps away"
                except KeyError:  # a synset the hierarchy does not hold: lemma match only
                    continue
                if how:
                    break
            if how:
                out.append((j, how))
        return out

    def _name(self, j: int) -> str:
        return repr(self.image.concepts[j].text)

    def entity(self, c: Concept) -> Verdict:
        found = self.matches(c)
        if not found:
            return False, f"nothing like {c.lemma!r} in the image"
        j, how = found[0]
        return True, f"image: {self._name(j)} ({how})"

    def attribute(self, c: Concept, kind: str, value: str) -> Verdict:
        found = [j for j, _ in self.matches(c)]
        if not found:
            return False, f"nothing like {c.lemma!r} in the image"
        values = [v for j in found for v in self.image.concepts[j].attributes.get(kind, [])]
        if not values:
            return None, f"the image side gives no {kind} for {c.lemma!r}"
        for j in found:
            if any(same_value(value, v) for v in self.image.concepts[j].attributes.get(kind, [])):
                return True, f"image: {self._name(j)} is {value}"
        return False, f"image: {self._name(found[0])} is {', '.join(dict.fromkeys(values))}"

    def count(self, c: Concept, value: str) -> Verdict:
        found = self.matches(c)
        if not found:
            return False, f"nothing like {c.lemma!r} in the image"
        explicit = [v for j, _ in found for v in self.image.concepts[j].attributes.get("count", [])]
        if explicit:
            verdicts = [count_agrees(value, v) for v in explicit]
            verdict = True if True in verdicts else (False if False in verdicts else None)
            return verdict, f"image count: {', '.join(explicit)}"
        if not self.count_nodes:
            return None, f"the image side gives no count for {c.lemma!r}"
        n = sum(how in ("same concept", "a kind of it") for _, how in found)
        return count_agrees(value, str(n)), f"{n} in the image"

    def relation(self, s: Concept, r: Relation, o: Concept) -> Verdict:
        if not self.image.relations:
            return None, "the image side has no relations"
        subj, obj = {j for j, _ in self.matches(s)}, {j for j, _ in self.matches(o)}
        for c, ends in ((s, subj), (o, obj)):
            if not ends:
                return False, f"nothing like {c.lemma!r} in the image"
        key = relation_key(r.canonical)
        between = []
        for x in self.image.relations:
            forward = x.subject in subj and x.object in obj
            backward = x.subject in obj and x.object in subj and key == "next to"  # symmetric
            if not (forward or backward):
                continue
            if relation_key(x.canonical) == key or (r.verb_synset and x.verb_synset == r.verb_synset):
                return True, f"image: {x.triple(self.image)}"
            between.append(x.triple(self.image))
        if between:
            return False, f"image: {'; '.join(map(str, between))}"
        return False, f"no relation between {s.lemma!r} and {o.lemma!r} in the image"

    def verify(self, fact: Fact) -> Verdict:
        """The verdict on one fact, read from its graph pieces or from its parsed statement."""
        if fact.graph is not None:
            return self._parsed(fact)
        if fact.kind == "relation" and fact.relation:
            return self.relation(*fact.relation)
        assert fact.concept is not None
        if fact.kind == "entity":
            return self.entity(fact.concept)
        if fact.kind == "count":
            return self.count(fact.concept, fact.value or "")
        return self.attribute(fact.concept, fact.attr_kind or "other", fact.value or "")

    def _parsed(self, fact: Fact) -> Verdict:
        g = fact.graph
        assert g is not None
        concepts = [c for c in g.concepts if c.lemma.lower() not in META_NOUNS]
        checks: list[Verdict] = []
        if fact.kind == "relation":
            checks = [self.relation(g.concepts[r.subject], r, g.concepts[r.object]) for r in g.relations]
        elif fact.kind in ("colour", "count", "attribute"):
            for c in concepts:
                for kind, values in c.attributes.items():
                    if (kind == "colour") == (fact.kind == "colour") and (kind == "count") == (fact.kind == "count"):
                        checks += [self.count(c, v) if kind == "count" else self.attribute(c, kind, v) for v in values]
        if not checks:  # entity facts, and facts whose structure the parser missed
            checks = [self.entity(c) for c in concepts]
        if not checks:
            return None, "could not read the statement"
        for verdict, why in checks:
            if verdict is False:
                return False, why
        if all(v is True for v, _ in checks):
            return True, "; ".join(why for _, why in checks)
        return None, next(why for v, why in checks if v is None)
