"""The image side of a comparison as a SceneGraph, from whatever describes the image.

``to_scene_graph`` dispatches on the shape of the annotation (Visual Genome record,
``{"objects", "relationships"}``, COCO, labels, a SceneGraph or its dict, a JSON file of any of
these) or parses and merges reference captions. The format loaders live in
:mod:`parsers.annotation_formats` and are re-exported here.

>>> to_scene_graph(["dog", "tennis racket"]).concepts[1].synset
'tennis_racket.n.01'
>>> to_scene_graph({"objects": [{"names": []}]})  # doctest: +NORMALIZE_WHITESPACE
Traceback (most recent call last):
...
parsers.annotation_formats.AnnotationError: annotation.objects[0].names: an object needs a name
('names', 'name' or 'label')
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any

import knowledge
from parsers.annotation_formats import AnnotationError, from_coco, from_labels, from_visual_genome, load_json
from parsers.references import from_references
from parsers.scene_graph import SceneGraph

if TYPE_CHECKING:
    from parsers.caption import CaptionParser

__all__ = ["AnnotationError", "from_coco", "from_labels", "from_references", "from_visual_genome", "to_scene_graph"]

_COCO_KEYS = ("category_id", "category_name", "label", "name", "names", "category")


def to_scene_graph(
    annotation: Any = None,
    references: list[str] | None = None,
    parser: CaptionParser | None = None,
    *,
    base_dir: str | os.PathLike[str] | None = None,
) -> SceneGraph:
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
        if "objects" in value or "relationships" in value or "relations" in value:
            return from_visual_genome(value, field)
        if any(k in value for k in _COCO_KEYS):  # a single COCO-style instance
            return from_coco([value], field)
        raise AnnotationError(
            field,
            "unrecognised annotation dict: expected 'objects' and/or "
            f"'relationships', 'annotations', or 'concepts'; got keys {sorted(value)[:8]}",
        )
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
        bad = next(
            i for i, x in enumerate(items) if not isinstance(x, type(items[0])) or not isinstance(x, (str, dict))
        )
        raise AnnotationError(f"{field}[{bad}]", "a list must hold only labels (strings) or only object dicts")
    raise AnnotationError(field, f"unsupported annotation of type {type(value).__name__}")


def _graph_from_dict(value: dict[str, Any], field: str) -> SceneGraph:
    if not isinstance(value.get("concepts"), list):
        raise AnnotationError(f"{field}.concepts", "expected a list of concepts")
    try:
        graph = SceneGraph.from_dict(value)
        for r in graph.relations:
            if not (0 <= r.subject < len(graph.concepts) and 0 <= r.object < len(graph.concepts)):
                raise IndexError(f"relation {r.predicate!r} refers to a missing node")
    except (TypeError, KeyError, IndexError, ValueError) as exc:
        raise AnnotationError(field, f"not a valid SceneGraph dict: {exc}") from None
    known = knowledge.get_hierarchy().ids
    for i, c in enumerate(graph.concepts):  # every cost is a WordNet distance from these names
        if c.synset is not None and c.synset not in known:
            raise AnnotationError(
                f"{field}.concepts[{i}].synset", f"{c.synset!r} is not a synset of this WordNet (give null for none)"
            )
    return graph
