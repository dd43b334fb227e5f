"""The image side of a comparison as a SceneGraph, from whatever describes the image.

``to_scene_graph`` dispatches on the shape of the annotation (Visual Genome record,
``{"objects", "relationships"}``, COCO, labels, a SceneGraph or its dict, a JSON file of any of
these) or parses and merges reference captions. The format loaders live in
:mod:`parsers.annotation_formats` and are re-exported here.

>>> to_scene_graph(["dog", "tennis racket"]).concepts[1].synset
'tennis_racket.n.01'
>>> to_scene_graph({"objects": [{"names": []}]})
Traceback (most recent call last):
...
parsers.annotation_formats.AnnotationError: annotation.objects[0].names: an object needs a name ('names', 'name' or 'label')
"""

from __future__ import annotations

import os
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from parsers.annotation_formats import (AnnotationError, from_coco, from_labels, from_visual_genome,
                                        load_json)
from parsers.scene_graph import Concept, SceneGraph

if TYPE_CHECKING:
    from parsers.caption import CaptionParser

__all__ = ["AnnotationError", "from_coco", "from_labels", "from_references", "from_visual_genome",
           "to_scene_graph"]

_COCO_KEYS = ("category_id", "category_name", "label", "name", "names", "category")


def to_scene_graph(annotation: Any = None, references: list[str] | None = None,
                   parser: "CaptionParser | None" = None, *,
                   base_dir: str | os.PathLike | None = None) -> SceneGraph:
    """The image-side graph. When both are given, the ``annotation`` is used and the
    ``references`` are ignored: an annotation states what is in the image, references only
    describe it. A relative annotation path is looked up in ``base_dir`` first, then the working
    directory. Raises :class:`AnnotationError` (with ``field``) for anything unusable."""
    if annotation is not None:
        return _dispatch(annotation, "annotation", base_dir)
    if references is not None:
        if parser is None:
            from parsers.caption import CaptionParser

            parser = CaptionParser()
        return from_references(references, parser)
    raise AnnotationError("annotation", "give an annotation or reference captions")


def _dispatch(value: Any, field: str, base_dir: Any, depth: int = 0) -> SceneGraph:
    if isinstance(value, SceneGraph):
        return value
    if isinstance(value, (str, os.PathLike)) and depth == 0:
        return _dispatch(load_json(value, field, base_dir), field, base_dir, depth + 1)
    if isinstance(value, dict):
        if "concepts" in value:
            return _graph_from_dict(value, field)
        if "annotations" in value:
            return from_coco(value, field)
        if "objects" in value or "relationships" in value:
            return from_visual_genome(value, field)
        if any(k in value for k in _COCO_KEYS):  # a single COCO-style instance
            return from_coco([value], field)
        raise AnnotationError(field, "unrecognised annotation dict: expected 'objects' and/or "
                                     f"'relationships', 'annotations', or 'concepts'; got keys {sorted(value)[:8]}")
    if isinstance(value, (list, tuple)):
        items = list(value)
        if all(isinstance(x, str) for x in items):
            return from_labels(items, field)
        if all(isinstance(x, dict) for x in items):
            if any("objects" in x or "relationships" in x for x in items):
                if len(items) == 1:
                    return from_visual_genome(items[0], f"{field}[0]")
                raise AnnotationError(field, f"a list of {len(items)} scene graphs; give one image's record")
            return from_coco(items, field)
        bad = next(i for i, x in enumerate(items) if not isinstance(x, type(items[0])) or
                   not isinstance(x, (str, dict)))
        raise AnnotationError(f"{field}[{bad}]", "a list must hold only labels (strings) or only object dicts")
    raise AnnotationError(field, f"unsupported annotation of type {type(value).__name__}")


def _graph_from_dict(value: dict, field: str) -> SceneGraph:
    if not isinstance(value.get("concepts"), list):
        raise AnnotationError(f"{field}.concepts", "expected a list of concepts")
    try:
        graph = SceneGraph.from_dict(value)
        for r in graph.relations:
            if not (0 <= r.subject < len(graph.concepts) and 0 <= r.object < len(graph.concepts)):
                raise IndexError(f"relation {r.predicate!r} refers to a missing node")
    except (TypeError, KeyError, IndexError, ValueError) as exc:
        raise AnnotationError(field, f"not a valid SceneGraph dict: {exc}") from None
    return graph


def from_references(references: list[str], parser: "CaptionParser") -> SceneGraph:
    """Parse each reference caption and merge: concepts with the same synset (the same lemma when
    there is none) become one node; relations are remapped and de-duplicated by (subject,
    canonical predicate, object). The merged graph's text is the references joined by newlines,
    and every span is shifted to index it. A merged concept is uncertain only if every mention
    was hedged; attributes, alternatives and the plural flag are pooled."""
    if not isinstance(references, (list, tuple)):
        raise AnnotationError("references", f"expected a list of captions, got {type(references).__name__}")
    for i, ref in enumerate(references):
        if not isinstance(ref, str):
            raise AnnotationError(f"references[{i}]", f"expected a caption string, got {type(ref).__name__}")
    merged = SceneGraph(text="\n".join(references))
    keys: dict[tuple[str, str], int] = {}
    seen: set[tuple[int, str, int]] = set()
    offset = 0
    for ref, graph in zip(references, parser.parse_many(references)):
        local: list[int] = []
        for c in graph.concepts:
            key = ("s", c.synset) if c.synset else ("l", c.lemma)
            shifted = _shift_concept(c, offset)
            if key in keys:
                _pool(merged.concepts[keys[key]], shifted)
            else:
                keys[key] = merged.add_concept(shifted)
            local.append(keys[key])
        for r in graph.relations:
            s, o = local[r.subject], local[r.object]
            if s == o or (s, r.canonical, o) in seen:
                continue
            seen.add((s, r.canonical, o))
            span = (r.span[0] + offset, r.span[1] + offset) if r.span else None
            merged.add_relation(replace(r, subject=s, object=o, span=span))
        offset += len(ref) + 1
    return merged


def _shift_concept(c: Concept, offset: int) -> Concept:
    return replace(c, spans=[(a + offset, b + offset) for a, b in c.spans],
                   phrase_span=(c.phrase_span[0] + offset, c.phrase_span[1] + offset) if c.phrase_span else None,
                   attributes={k: list(v) for k, v in c.attributes.items()}, alternatives=list(c.alternatives))


def _pool(into: Concept, other: Concept) -> None:
    into.spans.extend(other.spans)
    into.uncertain = into.uncertain and other.uncertain
    into.plural = into.plural or other.plural
    for kind, values in other.attributes.items():
        bucket = into.attributes.setdefault(kind, [])
        bucket.extend(v for v in values if v not in bucket)
    into.alternatives.extend(a for a in other.alternatives if a not in into.alternatives)
