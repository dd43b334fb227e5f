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
    """The first problem with a record's own fields, or None. Annotation shapes are checked later.

    The same as :func:`check_own_fields`, then :func:`check_image_side` (a reader that resolves
    paths or ``image_id`` between the two calls them itself, so each record is checked once)."""
    return check_own_fields(record, index) or check_image_side(record, index)


def check_own_fields(record: Any, index: int) -> RecordError | None:
    """The first problem with a record's id and caption, or None."""
    if not isinstance(record, dict):
        return RecordError(index, "record", f"expected a JSON object, got {type(record).__name__}")
    problem = id_problem(record.get("id"))
    if problem is not None:
        return with_model(RecordError(index, "id", problem), record)
    problem = caption_problem(record)
    if problem is None and (not_english := looks_english(record["caption"])):
        # its words would match nothing on the image side: "clean" would be a lie
        problem = f"{not_english}; only English captions are explained"
    return None if problem is None else with_model(RecordError(index, "caption", problem, record["id"]), record)


def check_image_side(record: dict[str, Any], index: int) -> RecordError | None:
    """The first problem with what a record's caption is compared with (an annotation or
    non-empty references), or None."""
    rid, refs = record.get("id"), record.get("references")
    if record.get("annotation") is None and refs is None:
        err = RecordError(index, "annotation", "missing: give 'annotation' or 'references'", rid)
    elif references_problem(refs):
        err = RecordError(index, "references", "expected a list of strings", rid)
    elif record.get("annotation") is None and not any(r.strip() for r in refs or ()):
        err = RecordError(index, "references", "empty and no annotation: nothing to compare the caption with", rid)
    else:
        return None
    return with_model(err, record)


def refused_path(index: int, path: str, id: Any = None) -> RecordError:
    """The error of a record whose annotation ``path`` leaves its input file's folder."""
    return RecordError(index, "annotation", f"path {path!r} leaves the input file's folder: give a path inside it", id)


def caption_problem(record: dict[str, Any]) -> str | None:
    """What is wrong with a record's caption as text (missing, not a string, too long), or None.

    >>> caption_problem({"caption": None}), caption_problem({"caption": "A dog."})
    ('expected a string, got NoneType', None)
    """
    if "caption" not in record:
        return "missing"
    caption = record["caption"]
    if not isinstance(caption, str):
        return f"expected a string, got {type(caption).__name__}"
    if len(caption) > MAX_CAPTION_CHARS:
        return f"{len(caption):,} characters: longer than the {MAX_CAPTION_CHARS:,} the parser takes"
    return None


def references_problem(refs: Any) -> bool:
    """Whether ``references`` is given but not a list of strings."""
    return refs is not None and not (isinstance(refs, list) and all(isinstance(r, str) for r in refs))


def with_model(err: RecordError, record: dict[str, Any]) -> RecordError:
    """``err`` naming the record's model (when it names one as a string or integer)."""
    model = record.get("model")
    err.model = model if isinstance(model, (str, int)) and not isinstance(model, bool) else None
    return err


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


def resolve_paths(record: dict[str, Any], base: Path) -> tuple[dict[str, Any], str | None]:
    """The record with a relative ``annotation`` path made relative to the input file's folder,
    and the path refused (None when none was): one that leaves that folder (``..``, absolute, a
    symlink out) is taken out of the record and returned as given, for the record's error
    (:func:`refused_path`).

    >>> resolve_paths({"id": 1, "annotation": "../x.json"}, Path("/data"))
    ({'id': 1, 'annotation': None}, '../x.json')
    """
    ann = record.get("annotation")
    if isinstance(ann, str):
        target = inside(base, ann)
        if target is None:
            return {**record, "annotation": None}, ann
        return {**record, "annotation": str(target)}, None
    return record, None
