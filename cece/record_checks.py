"""What a caption record must hold, checked field by field: an id (a non-empty string or an
integer), a caption (a string no longer than the parser takes, that looks like English:
:func:`parsers.language.looks_english`), an image side (an annotation or
non-empty references) and paths that stay inside their folder. Each problem is a
:class:`cece.records.RecordError` naming the field, so that record alone is refused.

The reading of lines into records is :mod:`cece.records`; this module holds the checks.

>>> check_record({"caption": 3, "id": "a", "annotation": ["dog"]}, 0).field
'caption'
>>> check_record({"id": "a", "caption": "A dog.", "references": []}, 0).message
'empty and no annotation: nothing to compare the caption with'
"""

from __future__ import annotations

import math
import os
from pathlib import Path
from typing import Any

from cece.records import RecordError
from parsers.language import looks_english

# Longest caption the parser takes, in characters: spaCy refuses texts over ~1M (E088) and the
# edit distance grows with the cube of the objects found, so a longer text is refused per record.
MAX_CAPTION_CHARS = 20_000


def id_problem(value: Any) -> str | None:
    """What is wrong with a record id (a non-empty string or an integer), or None.

    >>> [id_problem(v) for v in ("a", 7, None, "", float("inf"), {"a": 1}, True)]
    ... # doctest: +NORMALIZE_WHITESPACE
    [None, None, 'missing', 'empty', 'inf is not a finite number', 'expected a string or integer, got dict',
     'expected a string or integer, got bool']
    """
    if value is None:
        return "missing"
    if isinstance(value, bool) or not isinstance(value, (str, int, float)):
        return f"expected a string or integer, got {type(value).__name__}"
    if isinstance(value, float):
        return (
            f"{value} is not a finite number"
            if not math.isfinite(value)
            else "expected a string or integer, got a fractional number"
        )
    if isinstance(value, str) and not value.strip():
        return "empty"
    return None


def check_record(record: Any, index: int) -> RecordError | None:
    """The first problem with a record's own fields, or None. Annotation shapes are checked later."""
    if not isinstance(record, dict):
        return RecordError(index, "record", f"expected a JSON object, got {type(record).__name__}")
    problem = id_problem(record.get("id"))
    rid = record.get("id") if problem is None else None
    given = record.get("model")
    model = given if isinstance(given, (str, int)) and not isinstance(given, bool) else None
    err = _field_problem(record, index, rid, problem)
    if err is not None:
        err.model = model
    return err


def _field_problem(record: dict[str, Any], index: int, rid: Any, id_problem: str | None) -> RecordError | None:
    if id_problem is not None:
        return RecordError(index, "id", id_problem)
    if "caption" not in record:
        return RecordError(index, "caption", "missing", rid)
    caption = record["caption"]
    if not isinstance(caption, str):
        return RecordError(index, "caption", f"expected a string, got {type(caption).__name__}", rid)
    if len(caption) > MAX_CAPTION_CHARS:
        return RecordError(
            index,
            "caption",
            f"{len(caption):,} characters: longer than the {MAX_CAPTION_CHARS:,} the parser takes",
            rid,
        )
    not_english = looks_english(caption)
    if not_english:  # its words would match nothing on the image side: "clean" would be a lie
        return RecordError(index, "caption", f"{not_english}; only English captions are explained", rid)
    refs = record.get("references")
    if "annotation_refused" in record:
        return RecordError(
            index,
            "annotation",
            f"path {record['annotation_refused']!r} leaves the input file's folder: give a path inside it",
            rid,
        )
    if record.get("annotation") is None and refs is None:
        return RecordError(index, "annotation", "missing: give 'annotation' or 'references'", rid)
    if refs is not None and not (isinstance(refs, list) and all(isinstance(r, str) for r in refs)):
        return RecordError(index, "references", "expected a list of strings", rid)
    if record.get("annotation") is None and not any(r.strip() for r in refs or ()):
        return RecordError(index, "references", "empty and no annotation: nothing to compare the caption with", rid)
    return None


def inside(root: str | os.PathLike[str], relative: str | os.PathLike[str]) -> Path | None:
    """``root / relative`` resolved (symlinks followed), or None when that leaves ``root``.

    An absolute ``relative``, ``..`` components or a symlink pointing elsewhere all land
    outside the root and are refused: a data file must not make us read arbitrary files.

    >>> inside("/data/images", "../etc/passwd") is None, inside("/data/images", "/etc/passwd") is None
    (True, True)
    """
    base = Path(root).resolve()
    target = (base / relative).resolve()
    return target if target == base or target.is_relative_to(base) else None


def resolve_paths(record: dict[str, Any], base: Path) -> dict[str, Any]:
    """Make a relative ``annotation`` path relative to the input file's folder.

    A path that leaves that folder (``..``, absolute, a symlink out) is kept as given, as
    ``record["annotation_refused"]``, which :func:`check_record` turns into the record's error.
    """
    ann = record.get("annotation")
    if isinstance(ann, str):
        target = inside(base, ann)
        if target is None:
            return {**record, "annotation": None, "annotation_refused": ann}
        return {**record, "annotation": str(target)}
    return record
