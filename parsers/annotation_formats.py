"""Annotation formats -> SceneGraph: Visual Genome records, simple object/relationship dicts,
COCO instances, label lists. (:mod:`parsers.annotations` dispatches on the shape.)

>>> g = from_visual_genome({"objects": ["man", "dog", "laptop", "lap"],
...                     "relationships": [["laptop", "on", "lap"], ["dog", "next to", "man"]]})
>>> [c.synset for c in g.concepts], g.triples()
(['man.n.01', 'dog.n.01', 'laptop.n.01', 'lap.n.01'], [('laptop', 'on', 'lap'), ('dog', 'next to', 'man')])
>>> from_visual_genome({"objects": [{"names": []}]})  # doctest: +NORMALIZE_WHITESPACE
Traceback (most recent call last):
...
parsers.annotation_formats.AnnotationError: annotation.objects[0].names: an object needs a name
('names', 'name' or 'label')
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import knowledge
from parsers.attributes import group_attributes
from parsers.scene_graph import Concept, Relation, SceneGraph

_NAME_KEYS = ("names", "name", "label", "category_name", "category")


class AnnotationError(ValueError):
    """An annotation that cannot become a scene graph; ``field`` names the offending part, e.g.
    ``"annotation.objects[3].names"``."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}")
        self.field = field
        self.message = message


def concept_from_name(
    name: str, synset: str | None = None, *, attributes: list[str] | None = None, source_id: Any = None
) -> Concept:
    """A concept for an annotated name; ``synset`` as given by the annotation, else WordNet's
    first sense for the name. A synset name as the label ("dog.n.01") is read as that synset.
    A given synset this WordNet lacks ("-", a typo, another version's name) is no synset: the
    name is looked up instead, as if none were given."""
    text = " ".join(name.split())
    if synset is not None and synset not in knowledge.get_hierarchy().ids:
        synset = None
    if synset is None:
        synset = knowledge.noun_synset(text) if text else None
    if text.count(".") == 2 and synset == text.lower():  # "dog.n.01" -> lemma "dog"
        text = text.split(".")[0].replace("_", " ")
    words = text.lower().split()
    lemma = " ".join(words[:-1] + [knowledge.lemmatize(words[-1]).replace("_", " ")]) if words else ""
    return Concept(
        text=text,
        lemma=lemma,
        synset=synset,
        attributes=group_attributes(attributes or []),
        plural=bool(words) and lemma != " ".join(words),
        source_id=None if source_id is None else str(source_id),
    )


def relation(subject: int, predicate: str, obj: int, *, synsets: list[str] | None = None) -> Relation:
    """A relation with a canonical predicate; a verb synset given by the annotation wins."""
    text = " ".join(predicate.split()).lower()
    known = knowledge.get_hierarchy().ids
    verbs = [s for s in synsets or [] if isinstance(s, str) and ".v." in s and s in known]
    return Relation(
        subject=subject,
        predicate=text,
        object=obj,
        canonical=knowledge.canonical_predicate(text),
        verb_synset=verbs[0] if verbs else knowledge.predicate_verb_synset(text),
    )


# -- objects + relationships (Visual Genome and simpler forms) -------------------------------
def from_visual_genome(record: dict[str, Any], field: str = "annotation") -> SceneGraph:
    """A Visual Genome scene-graph record, or the simpler ``{"objects": [...],
    "relationships": [...]}``: objects are names or dicts with ``names``/``name``/``label``
    (``object_id``/``id``, ``synsets``, ``attributes`` optional); relationships are dicts with
    ``predicate`` and ``subject_id``/``object_id`` (or ``subject``/``object`` as nested objects,
    names or ids), or ``[subject, predicate, object]`` triples of names; ``relations`` is read as
    ``relationships``."""
    if not isinstance(record, dict):
        raise AnnotationError(field, f"expected a dict, got {type(record).__name__}")
    objects = _list(record.get("objects", []), f"{field}.objects")
    # "relations", as people also call them, is read the same: never dropped unread
    key = "relationships" if "relationships" in record or "relations" not in record else "relations"
    rels = _list(record.get(key, []), f"{field}.{key}")
    g = SceneGraph(kind="annotation")
    by_id: dict[str, int] = {}
    by_name: dict[str, int] = {}
    for i, obj in enumerate(objects):
        _add_object(g, obj, f"{field}.objects[{i}]", by_id, by_name)
    for j, rel in enumerate(rels):
        f = f"{field}.{key}[{j}]"
        if isinstance(rel, (list, tuple)):
            if len(rel) != 3 or not all(isinstance(x, str) for x in rel):
                raise AnnotationError(f, "a triple must be [subject, predicate, object] names")
            s = _end(g, rel[0], f"{f}[0]", by_id, by_name)
            o = _end(g, rel[2], f"{f}[2]", by_id, by_name)
            g.add_relation(relation(s, rel[1], o))
            continue
        if not isinstance(rel, dict):
            raise AnnotationError(f, f"expected a dict or a triple, got {type(rel).__name__}")
        pred = rel.get("predicate", rel.get("relation"))
        if not isinstance(pred, str):
            raise AnnotationError(f"{f}.predicate", "a relationship needs a predicate string")
        s = _end(g, *_pick(rel, "subject", f), by_id, by_name)
        o = _end(g, *_pick(rel, "object", f), by_id, by_name)
        syn = rel.get("synsets") if isinstance(rel.get("synsets"), list) else None
        g.add_relation(relation(s, pred, o, synsets=syn))
    return g


def _pick(rel: dict[str, Any], role: str, field: str) -> tuple[Any, str]:
    """(the reference, its field name): ``subject_id`` or ``subject``."""
    for key in (f"{role}_id", role):
        if key in rel:
            return rel[key], f"{field}.{key}"
    return None, f"{field}.{role}_id"


def _list(value: Any, field: str) -> list[Any]:
    if value is None:
        return []
    if not isinstance(value, list):
        raise AnnotationError(field, f"expected a list, got {type(value).__name__}")
    return value


def _name_of(obj: dict[str, Any], field: str) -> str:
    for key in _NAME_KEYS:
        value = obj.get(key)
        if isinstance(value, list) and value and isinstance(value[0], str) and value[0].strip():
            return value[0]
        if isinstance(value, str) and value.strip():
            return value
    raise AnnotationError(f"{field}.names", "an object needs a name ('names', 'name' or 'label')")


def _add_object(g: SceneGraph, obj: Any, field: str, by_id: dict[str, int], by_name: dict[str, int]) -> int:
    if isinstance(obj, str):
        if not obj.strip():
            raise AnnotationError(field, "an empty object name")
        idx = g.add_concept(concept_from_name(obj))
    elif isinstance(obj, dict):
        name = _name_of(obj, field)
        synsets = obj.get("synsets")
        if synsets is not None and not (isinstance(synsets, list) and all(isinstance(s, str) for s in synsets)):
            raise AnnotationError(f"{field}.synsets", "expected a list of synset names")
        attrs = obj.get("attributes") or []
        attrs = [attrs] if isinstance(attrs, str) else attrs
        if not (isinstance(attrs, list) and all(isinstance(a, str) for a in attrs)):
            raise AnnotationError(f"{field}.attributes", "expected a list of strings")
        oid = obj.get("object_id", obj.get("id"))
        idx = g.add_concept(concept_from_name(name, synsets[0] if synsets else None, attributes=attrs, source_id=oid))
        if oid is not None:
            by_id.setdefault(str(oid), idx)
    else:
        raise AnnotationError(field, f"expected an object name or dict, got {type(obj).__name__}")
    by_name.setdefault(g.concepts[idx].text.lower(), idx)
    by_name.setdefault(g.concepts[idx].lemma, idx)
    return idx


def _end(g: SceneGraph, ref: Any, field: str, by_id: dict[str, int], by_name: dict[str, int]) -> int:
    """The node a relationship end refers to: an id, a nested object, or a name. A nested object
    or a name not listed among the objects is added (the relationship shows it is there)."""
    if isinstance(ref, bool) or ref is None:
        raise AnnotationError(field, "a relationship needs a subject and an object")
    if isinstance(ref, int):
        if str(ref) in by_id:
            return by_id[str(ref)]
        if not by_id and 0 <= ref < len(g.concepts):  # no ids anywhere: an index into objects
            return ref
        raise AnnotationError(field, f"no object with object_id {ref}")
    if isinstance(ref, dict):
        oid = ref.get("object_id", ref.get("id"))
        if oid is not None and str(oid) in by_id:
            return by_id[str(oid)]
        return _add_object(g, ref, field, by_id, by_name)
    if isinstance(ref, str):
        if ref in by_id:
            return by_id[ref]
        key = " ".join(ref.split()).lower()
        if key in by_name:
            return by_name[key]
        return _add_object(g, ref, field, by_id, by_name)
    raise AnnotationError(field, f"expected an id, a name or an object, got {type(ref).__name__}")


# -- COCO, labels ----------------------------------------------------------------------------
def from_coco(objects: Any, field: str = "annotation") -> SceneGraph:
    """COCO instances: a list of ``{"category_id", "category_name" | "name" | "label", ...}`` or a
    COCO dict with ``annotations`` and ``categories``. One concept per instance."""
    categories: dict[str, str] = {}
    if isinstance(objects, dict):
        for i, cat in enumerate(_list(objects.get("categories", []), f"{field}.categories")):
            if not isinstance(cat, dict) or "id" not in cat:
                raise AnnotationError(f"{field}.categories[{i}]", "a category needs an id and a name")
            categories[str(cat["id"])] = _name_of(cat, f"{field}.categories[{i}]")
        field = f"{field}.annotations"
        objects = _list(objects.get("annotations"), field)
    g = SceneGraph(kind="annotation")
    for i, ann in enumerate(_list(objects, field)):
        f = f"{field}[{i}]"
        if not isinstance(ann, dict):
            raise AnnotationError(f, f"expected a dict, got {type(ann).__name__}")
        if any(isinstance(ann.get(k), (str, list)) for k in _NAME_KEYS):
            name = _name_of(ann, f)
        elif str(ann.get("category_id")) in categories:
            name = categories[str(ann["category_id"])]
        else:
            raise AnnotationError(f"{f}.category_id", f"unknown category {ann.get('category_id')!r} and no name")
        g.add_concept(concept_from_name(name, source_id=ann.get("id")))
    return g


def from_labels(labels: list[str], field: str = "annotation") -> SceneGraph:
    """One concept per object label ("dog", "tennis racket", or a synset name "dog.n.01")."""
    g = SceneGraph(kind="annotation")
    for i, label in enumerate(_list(labels, field)):
        if not isinstance(label, str) or not label.strip():
            raise AnnotationError(f"{field}[{i}]", "expected a non-empty label string")
        if _looks_like_sentence(label):
            # Read as one label, a sentence becomes a nonsense object and every edit is wrong.
            raise AnnotationError(
                f"{field}[{i}]",
                f"{label[:40]!r} reads as a sentence, not an object label; give reference captions as "
                'references (explain(caption, references=[...]); a record\'s "references" field)',
            )
        g.add_concept(concept_from_name(label))
    return g


def _looks_like_sentence(label: str) -> bool:
    """A label of four or more words that ends like a sentence ("A dog on a sofa.")."""
    text = label.strip()
    return len(text.split()) >= 4 and text[-1] in ".!?"


def load_json(
    path: str | os.PathLike[str], field: str = "annotation", base_dir: str | os.PathLike[str] | None = None
) -> Any:
    """The JSON value in a file; a relative path is looked up in ``base_dir`` first."""
    p = Path(path)
    if not p.is_absolute() and base_dir is not None and (Path(base_dir) / p).exists():
        p = Path(base_dir) / p
    try:
        return json.loads(p.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise AnnotationError(field, f"no such annotation file: {str(path)!r}") from None
    except (OSError, ValueError) as exc:  # ValueError: undecodable or invalid JSON, a NUL in the path
        raise AnnotationError(field, f"cannot read {str(path)!r} as JSON: {exc}") from None
