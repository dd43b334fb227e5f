"""The input side of ``cece explain``: records streamed from the one reader, checked, and the ones
already done skipped -- nothing is read ahead beyond the explainer's batch.

>>> import io
>>> from cece.output import Summary
>>> s, lines = Summary(), {}
>>> src = io.BytesIO(b'{"id": 1, "caption": "A dog.", "annotation": ["dog"]}\\n'
...                  b'{"id": 1, "caption": "A cat.", "annotation": ["cat"]}\\n'
...                  b'{"id": 2, "caption": "A cat.", "annotation": ["cat"]}\\n')
>>> [getattr(r, "field", None) or r["id"] for r in explain_inputs(src, "in.jsonl", Path("."), {"2"}, s, lines)]
[1, 'id']
>>> lines, s.skipped
({0: 1, 1: 2}, 1)
"""

from __future__ import annotations

from pathlib import Path
from typing import IO, Any, Container, Iterator

from cece.output import Summary
from cece.records import RecordError, check_record, iter_records, resolve_paths


def explain_inputs(source: IO[bytes] | str | Path, name: str, base: Path, done: Container[str], summary: Summary,
                   lines: dict[int, int]) -> Iterator[dict[str, Any] | RecordError]:
    """The records of ``source`` to explain, in order, each a record or its :class:`RecordError`
    (file and line set). A record whose id is in ``done`` is skipped (counted in
    ``summary.skipped``); a repeated id is an error. ``lines`` maps each yielded position to its
    input line (the caller pops them as results come back, so it stays small). Relative annotation
    paths are resolved under ``base`` and may not leave it.
    """
    seen: dict[str, int] = {}
    k = 0
    for entry in iter_records(source, name):
        rec = entry.value
        if not isinstance(rec, RecordError):
            if isinstance(rec, dict):
                rec = resolve_paths(rec, base)
            err = check_record(rec, k)
            if err is None:
                rid = str(rec["id"])
                if rid in seen:
                    err = RecordError(k, "id", f"duplicate of the record on line {seen[rid]}", rec["id"])
                else:
                    seen[rid] = entry.line
                    if rid in done:
                        summary.skipped += 1
                        continue
            if err is not None:
                if err.field != "id" and err.id is not None and str(err.id) in done:
                    summary.skipped += 1  # its error row is kept (--keep-errors)
                    continue
                err.file, err.line = name, entry.line
                rec = err
        lines[k] = entry.line
        k += 1
        yield rec
