"""Reading caption records (one JSON object, a JSON list, or JSONL) with errors that name the place.

Every problem becomes a :class:`RecordError` -- file, line, field, message -- instead of an
exception, so one bad record never costs the others.

>>> check_record({"caption": 3}, 0).field
'caption'
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Hashable, Iterator, TextIO


@dataclass
class RecordError:
    """A record that could not be explained. ``index`` counts records from 0; ``line`` is 1-based."""

    index: int
    field: str
    message: str
    id: str | None = None
    file: str | None = None
    line: int | None = None

    error_type: str | None = None  # the exception's class name, for a failure while explaining
    traceback: str | None = None

    def __str__(self) -> str:
        where = f"{self.file or '<input>'}:{self.line if self.line is not None else self.index + 1}"
        return f"{where}: {self.field}: {self.message}"

    @classmethod
    def from_exception(cls, index: int, exc: BaseException, id: Any = None) -> "RecordError":
        """The error row of a record whose explanation raised ``exc``."""
        import traceback

        return cls(index, "explain", f"{type(exc).__name__}: {exc}", None if id is None else str(id),
                   error_type=type(exc).__name__, traceback=traceback.format_exc())

    def to_dict(self, traceback: bool = False) -> dict[str, Any]:
        """The error row written in place of the record's explanation (the traceback only when
        asked for: it is for debugging, not for readers of the output)."""
        error = {"type": self.error_type or "InputError", "field": self.field, "message": self.message,
                 "file": self.file, "line": self.line}
        if traceback and self.traceback:
            error["traceback"] = self.traceback
        return {"id": self.id, "error": error}


def check_record(record: Any, index: int) -> RecordError | None:
    """The first problem with a record's own fields, or None. Annotation shapes are checked later."""
    if not isinstance(record, dict):
        return RecordError(index, "record", f"expected a JSON object, got {type(record).__name__}")
    rid = record.get("id")
    if "caption" not in record:
        return RecordError(index, "caption", "missing", rid)
    if not isinstance(record["caption"], str):
        return RecordError(index, "caption", f"expected a string, got {type(record['caption']).__name__}", rid)
    if record.get("annotation") is None and record.get("references") is None:
        return RecordError(index, "annotation", "missing: give 'annotation' or 'references'", rid)
    refs = record.get("references")
    if refs is not None and not (isinstance(refs, list) and all(isinstance(r, str) for r in refs)):
        return RecordError(index, "references", "expected a list of strings", rid)
    return None


def read_records(stream: TextIO, name: str = "<stdin>") -> Iterator[tuple[int, dict[str, Any] | RecordError]]:
    """Yield ``(line, record)`` pairs, or ``(line, RecordError)`` for text that is not valid JSON.

    A whole-file JSON object is one record and a JSON list is many; otherwise every non-empty line
    is one JSON record (JSONL). A file that is neither is reported once, at the JSON error.
    """
    text = stream.read()
    try:
        whole = json.loads(text) if text.strip() else []
    except json.JSONDecodeError as exc:
        first = next((ln for ln in text.splitlines() if ln.strip()), "")
        if not _is_json(first):
            yield exc.lineno, RecordError(0, "json", f"invalid JSON: {exc.msg} (column {exc.colno})",
                                          file=name, line=exc.lineno)
            return
        yield from _read_jsonl(text, name)
        return
    if isinstance(whole, list):
        # One line per element when the list is laid out that way; else the list's first line.
        for k, rec in enumerate(whole):
            yield 1, rec
    else:
        yield 1, whole


def _is_json(line: str) -> bool:
    try:
        json.loads(line)
        return True
    except json.JSONDecodeError:
        return False


def _read_jsonl(text: str, name: str) -> Iterator[tuple[int, dict[str, Any] | RecordError]]:
    k = 0
    for lineno, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            yield lineno, json.loads(line)
        except json.JSONDecodeError as exc:
            yield lineno, RecordError(k, "json", f"invalid JSON: {exc.msg} (column {exc.colno})",
                                      file=name, line=lineno)
        k += 1


def resolve_paths(record: dict[str, Any], base: Path) -> dict[str, Any]:
    """Make a relative ``annotation`` path relative to the input file's folder."""
    ann = record.get("annotation")
    if isinstance(ann, str) and not Path(ann).is_absolute():
        return {**record, "annotation": str(base / ann)}
    return record


def done_keys(path: Path, key: Callable[[dict[str, Any]], Hashable | None] | None = None) -> set[Hashable]:
    """Keys of the records already written to a JSONL output, for resuming a killed run.

    ``key`` maps a written record to its key (default: ``str(record["id"])``); records it maps to
    None are ignored. The first line that is not complete JSON ending in a newline -- what a run
    killed mid-write leaves -- is cut off together with anything after it, so it is redone and the
    next append starts on a fresh line.

    >>> import tempfile, os
    >>> p = Path(tempfile.mkdtemp()) / "out.jsonl"
    >>> _ = p.write_text('{"id": "a", "detector": "x"}\\n{"id": "b", "det')
    >>> sorted(done_keys(p)), p.read_text()
    (['a'], '{"id": "a", "detector": "x"}\\n')
    """
    key = key or _id_key
    done: set[Hashable] = set()
    if not path.exists():
        return done
    good = 0
    with path.open("rb") as f:
        for raw in f:
            if not raw.endswith(b"\n"):
                break
            try:
                rec = json.loads(raw)
            except json.JSONDecodeError:
                break
            good += len(raw)
            k = key(rec) if isinstance(rec, dict) else None
            if k is not None:
                done.add(k)
    if good < path.stat().st_size:
        with path.open("r+b") as f:  # cut a half-written line left by a killed run
            f.truncate(good)
    return done


def _id_key(record: dict[str, Any]) -> str | None:
    return None if record.get("id") is None else str(record["id"])
