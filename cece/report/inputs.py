"""What a report reads: caption records from several models, with the image side resolved by image id.

A record is ``{"id", "model", "caption", "annotation" | "references" | "image_id"}``, or a COCO
result / LLaVA answer (:mod:`cece.inputs`); several files are one model each, and a record that
names no model takes its file's stem. An ``image_id`` is looked up in the ``--annotations`` files
(:class:`cece.annotation_sets.AnnotationSet`: COCO captions or instances, nocaps, Visual Genome
scene graphs or its split files, ``{image id: [references]}``), streamed once.

A record's own ``annotation`` / ``references`` win over the files. Problems become
:class:`cece.records.RecordError` (``FILE:LINE: FIELD: message``), never exceptions.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cece.annotation_sets import AnnotationSet, AnnotationsFileError
from cece.inputs import InputFile, open_inputs
from cece.record_checks import check_own_fields, refused_path, resolve_paths, with_model
from cece.records import RecordError

Key = tuple[str, str]  # (model, id): what identifies a caption in a report and in its resume file

__all__ = ["AnnotationsFileError", "ReportItem", "iter_items", "load_items", "open_captions"]


@dataclass
class ReportItem:
    """One good caption record: ``record`` is what :meth:`cece.Explainer.explain_many` receives."""

    line: int
    record: dict[str, Any]
    references: list[str] | None = None
    source: str = "<input>"  # the captions file it came from
    refused: str | None = None  # an annotation path that leaves its file's folder: the record's error

    def to_explain(self, index: int = 0) -> dict[str, Any] | RecordError:
        """What the explainer receives: the record, or its error when its annotation path was refused
        (its own fields are checked first, as :func:`cece.record_checks.check_record` would)."""
        if self.refused is None:
            return self.record
        return check_own_fields(self.record, index) or with_model(
            refused_path(index, self.refused, self.record.get("id")), self.record
        )

    @property
    def key(self) -> Key:
        return str(self.record["model"]), str(self.record["id"])


def open_captions(paths: str | Path | Iterable[str | Path], model: str | None = None) -> list[InputFile]:
    """The captions files of a report (each one model unless its records name theirs); one that
    cannot be read raises :class:`AnnotationsFileError` naming it."""
    names = [str(paths)] if isinstance(paths, (str, Path)) else [str(p) for p in paths]
    try:
        return open_inputs(names, model=model, every=True)
    except OSError as exc:
        raise AnnotationsFileError(f"{exc.filename}: cannot read: {exc.strerror}") from None


def load_items(
    path: str | Path | Iterable[str | Path], annotations: AnnotationSet | None = None
) -> tuple[list[ReportItem], list[RecordError]]:
    """Read captions files into report items and the errors of the records that cannot be used
    (all of :func:`iter_items`, in two lists).

    >>> import tempfile
    >>> p = Path(tempfile.mkdtemp()) / "modelB.jsonl"
    >>> _ = p.write_text('{"id": "1", "model": "m", "caption": "A dog.", "annotation": ["dog"]}\\n'
    ...                  '{"id": "2", "caption": "A cat.", "annotation": ["cat"]}\\n'
    ...                  '{"model": "m", "caption": "A cat."}\\n')
    >>> items, errors = load_items(p)
    >>> [i.key for i in items], [str(e).split(": ", 1)[1] for e in errors]
    ([('m', '1'), ('modelB', '2')], ['id: missing'])
    """
    items: list[ReportItem] = []
    errors: list[RecordError] = []
    for entry in iter_items(open_captions(path), annotations):
        if isinstance(entry, RecordError):
            errors.append(entry)
        else:
            items.append(entry)
    return items, errors


def iter_items(inputs: list[InputFile], annotations: AnnotationSet | None = None) -> Iterator[ReportItem | RecordError]:
    """The report items of the captions files, or the error of each record that cannot be used,
    in file order, read as a stream through the one reader (:func:`cece.records.iter_records`)."""
    seen: dict[Key, int] = {}  # keys only: a duplicate is an error, and the records are not kept
    index = 0
    for f in inputs:
        for entry, rec in f.records():
            line = entry.line
            if isinstance(rec, RecordError):
                index += 1
                yield rec
                continue
            err = _check(rec, index, seen)
            if err is None:
                rec, refused = resolve_paths(rec, f.base)
                found = annotations.resolve(rec) if annotations else rec
                if isinstance(found, str):
                    err = RecordError(index, "image_id", found, rec["id"], model=str(rec["model"]))
                elif found.get("annotation") is None and found.get("references") is None and "image_id" in found:
                    err = RecordError(
                        index,
                        "image_id",
                        f"{rec['image_id']!r}: no --annotations file given",
                        rec["id"],
                        model=str(rec["model"]),
                    )
                rec = found
            index += 1
            if err is not None:
                err.file, err.line = f.name, line
                yield err
                continue
            item = ReportItem(
                line,
                rec,
                rec.get("references") if _is_refs(rec.get("references")) else None,
                source=f.name,
                refused=refused,
            )
            seen[item.key] = line
            yield item


def _check(rec: Any, index: int, seen: dict[Key, int]) -> RecordError | None:
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


def _is_refs(value: Any) -> bool:
    return isinstance(value, list) and bool(value) and all(isinstance(r, str) for r in value)
