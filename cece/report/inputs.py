"""What a report reads: caption records from several models, with the image side resolved by image id.

A record is ``{"id", "model", "caption", "annotation" | "references" | "image_id"}``. An ``image_id``
is looked up in the ``--annotations`` files, each one of:

- a Visual Genome scene-graph file: a JSON list of VG records, each with ``image_id``;
- COCO instances: ``{"images", "annotations", "categories"}``, annotations grouped by ``image_id``
  (COCO *captions* files -- annotations with a ``caption`` -- are read as references);
- references: a JSON object mapping image id -> list of reference captions.

A record's own ``annotation`` / ``references`` win over the files. Problems become
:class:`cece.records.RecordError` (``FILE:LINE: FIELD: message``), never exceptions.

>>> idx = AnnotationIndex.from_value([{"image_id": 7, "objects": ["dog"]}], "vg.json")
>>> idx.kind, idx.by_image["7"]["objects"]
('visual_genome', ['dog'])
>>> AnnotationIndex.from_value({"7": ["A dog."]}, "refs.json").kind
'references'
"""

from __future__ import annotations

import json
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any, Iterable, Iterator

from cece.record_checks import resolve_paths
from cece.records import RecordError, iter_records

Key = tuple[str, str]  # (model, id): what identifies a caption in a report and in its resume file


class AnnotationsFileError(ValueError):
    """An ``--annotations`` file that cannot be read or whose shape is not one of the three."""


@dataclass
class AnnotationIndex:
    """One ``--annotations`` file, as image id (a string) -> annotation or list of references."""

    path: str
    kind: str  # "visual_genome" | "coco" | "references"
    by_image: dict[str, Any]

    @classmethod
    def load(cls, path: str | Path) -> "AnnotationIndex":
        """Read and index a file; raises :class:`AnnotationsFileError` naming the file."""
        try:
            value = json.loads(Path(path).read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise AnnotationsFileError(f"{path}: cannot read as JSON: {exc}") from None
        return cls.from_value(value, str(path))

    @classmethod
    def from_value(cls, value: Any, path: str = "<annotations>") -> "AnnotationIndex":
        if isinstance(value, list):
            if value and all(isinstance(r, dict) and "image_id" in r for r in value):
                return cls(path, "visual_genome", {str(r["image_id"]): r for r in value})
            raise AnnotationsFileError(f"{path}: a list must hold Visual Genome records, each with an image_id")
        if isinstance(value, dict) and isinstance(value.get("annotations"), list):
            return cls._from_coco(value, path)
        if isinstance(value, dict) and all(isinstance(v, list) and all(isinstance(c, str) for c in v)
                                           for v in value.values()):
            return cls(path, "references", {str(k): v for k, v in value.items()})
        raise AnnotationsFileError(
            f"{path}: not an annotations file: expected a JSON list of Visual Genome records, COCO "
            "instances ({images, annotations, categories}) or {image id: [reference captions]}")

    @classmethod
    def _from_coco(cls, value: dict[str, Any], path: str) -> "AnnotationIndex":
        anns = value["annotations"]
        if not all(isinstance(a, dict) and "image_id" in a for a in anns):
            raise AnnotationsFileError(f"{path}: every COCO annotation needs an image_id")
        grouped: dict[str, list[dict]] = defaultdict(list)
        for a in anns:
            grouped[str(a["image_id"])].append(a)
        if anns and all(isinstance(a.get("caption"), str) for a in anns):
            return cls(path, "references", {k: [a["caption"] for a in v] for k, v in grouped.items()})
        # Images listed without any instance are known to hold none of the categories.
        for img in value.get("images") or []:
            if isinstance(img, dict) and "id" in img:
                grouped.setdefault(str(img["id"]), [])
        cats = value.get("categories") or []
        return cls(path, "coco", {k: {"annotations": v, "categories": cats} for k, v in grouped.items()})


@dataclass
class ReportItem:
    """One good caption record: ``record`` is what :meth:`cece.Explainer.explain_many` receives."""

    line: int
    record: dict[str, Any]
    references: list[str] | None = None

    @property
    def key(self) -> Key:
        return str(self.record["model"]), str(self.record["id"])


def load_items(path: str | Path, annotations: Iterable[AnnotationIndex] = ()) -> tuple[list[ReportItem], list[RecordError]]:
    """Read a captions file into report items and the errors of the records that cannot be used
    (all of :func:`iter_items`, in two lists).

    >>> import tempfile
    >>> p = Path(tempfile.mkdtemp()) / "c.jsonl"
    >>> _ = p.write_text('{"id": "1", "model": "m", "caption": "A dog.", "annotation": ["dog"]}\\n'
    ...                  '{"id": "2", "caption": "A cat.", "annotation": ["cat"]}\\n')
    >>> items, errors = load_items(p)
    >>> [i.key for i in items], [str(e).split(": ", 1)[1] for e in errors]
    ([('m', '1')], ['model: missing'])
    """
    items: list[ReportItem] = []
    errors: list[RecordError] = []
    for entry in iter_items(path, annotations):
        (errors if isinstance(entry, RecordError) else items).append(entry)
    return items, errors


def iter_items(path: str | Path, annotations: Iterable[AnnotationIndex] = ()) -> Iterator[ReportItem | RecordError]:
    """The report items of a captions file, or the error of each record that cannot be used, in
    file order, read as a stream through the one reader (:func:`cece.records.iter_records`).
    The file is opened at once: one that cannot be read raises :class:`AnnotationsFileError`."""
    name = str(path)
    try:
        stream = open(path, "rb")
    except OSError as exc:
        raise AnnotationsFileError(f"{name}: cannot read: {exc.strerror}") from None
    return _items(stream, name, Path(path).resolve().parent, list(annotations))


def _items(stream: IO[bytes], name: str, base: Path, indexes: list[AnnotationIndex]) -> Iterator[ReportItem | RecordError]:
    seen: dict[Key, int] = {}  # keys only: a duplicate is an error, and the records are not kept
    with stream:
        for index, (line, rec) in enumerate((r.line, r.value) for r in iter_records(stream, name)):
            if isinstance(rec, RecordError):
                yield rec
                continue
            err = _check(rec, index, line, name, seen)
            if err is None:
                rec = _resolve(resolve_paths(rec, base), indexes)
                if rec.get("annotation") is None and rec.get("references") is None and "image_id" in rec:
                    where = ", ".join(i.path for i in indexes) or "no --annotations file given"
                    err = RecordError(index, "image_id", f"{rec['image_id']!r} not found ({where})", rec["id"])
            if err is not None:
                err.file, err.line = name, line
                yield err
                continue
            item = ReportItem(line, rec, rec.get("references") if _is_refs(rec.get("references")) else None)
            seen[item.key] = line
            yield item


def _check(rec: Any, index: int, line: int, name: str, seen: dict[Key, int]) -> RecordError | None:
    """The report's own needs; caption and annotation shapes are checked by the explainer."""
    if not isinstance(rec, dict):
        return RecordError(index, "record", f"expected a JSON object, got {type(rec).__name__}")
    for field in ("id", "model"):
        value = rec.get(field)
        if value is None:
            return RecordError(index, field, "missing")
        if not isinstance(value, (str, int)) or isinstance(value, bool):
            return RecordError(index, field, f"expected a string, got {type(value).__name__}", rec.get("id"))
    key = (str(rec["model"]), str(rec["id"]))
    if key in seen:
        return RecordError(index, "id", f"duplicate of line {seen[key]} for model {key[0]!r}", rec["id"])
    return None


def _resolve(rec: dict[str, Any], indexes: list[AnnotationIndex]) -> dict[str, Any]:
    """Fill a missing annotation / references from the files, by ``image_id``; the first file wins."""
    if "image_id" not in rec or not indexes:
        return rec
    image = str(rec["image_id"])
    out = dict(rec)
    for idx in indexes:
        if image not in idx.by_image:
            continue
        field = "references" if idx.kind == "references" else "annotation"
        if out.get(field) is None:
            out[field] = idx.by_image[image]
    return out


def _is_refs(value: Any) -> bool:
    return isinstance(value, list) and bool(value) and all(isinstance(r, str) for r in value)
