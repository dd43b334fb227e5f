"""The samples ``cece detect`` and ``cece bench run`` read: each checked against the Sample
contract (:class:`detectors.base.Sample`), streamed from JSON / JSON list / JSONL files with the
file and line of every bad one (:mod:`detectors.runner` scores them).

>>> import io
>>> samples = list(read_samples(io.StringIO('{"id": 1, "caption": "A dog."}\\n{"caption": "A cat."}\\n'), "s.jsonl"))
>>> samples[0]
{'id': '1', 'caption': 'A dog.'}
>>> str(samples[1])
's.jsonl:2: id: missing'
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

from cece.record_checks import caption_problem, id_problem, references_problem, refused_path, resolve_paths
from cece.records import RecordError
from detectors.base import Sample


def check_sample(record: Any, index: int, refused: str | None = None) -> RecordError | None:
    """The first problem with a sample's own fields (see the Sample contract), or None.

    What a particular detector needs (references, image...) is not checked here: a sample without
    it still gets scored by the detectors that can, and an error line from the others. ``refused``
    is an annotation path :func:`cece.record_checks.resolve_paths` took out of the sample.

    >>> check_sample({"id": 1, "caption": "A dog."}, 0) is None
    True
    >>> str(check_sample({"caption": "A dog."}, 0))
    '<input>:1: id: missing'
    """
    if not isinstance(record, dict):
        return RecordError(index, "record", f"expected a JSON object, got {type(record).__name__}")
    problem = id_problem(record.get("id"))
    if problem:
        return RecordError(index, "id", problem)
    rid = str(record["id"])
    problem = caption_problem(record)
    if problem:
        return RecordError(index, "caption", problem, rid)
    refs = record.get("references")
    if references_problem(refs):
        return RecordError(index, "references", "expected a list of strings", rid)
    if refused is not None:
        return refused_path(index, refused, rid)
    if (
        refs is not None
        and not any(r.strip() for r in refs)
        and record.get("annotation") is None
        and record.get("image") is None
    ):
        return RecordError(
            index, "references", "empty, and no annotation or image: nothing to compare the caption with", rid
        )
    return None


def read_samples(stream: IO | str | Path, name: str, base: Path | None = None) -> Iterator[Sample | RecordError]:
    """Samples of a JSON / JSON list / JSONL file or stream, streamed, or a :class:`RecordError`
    (with file and line) for each bad one (see :func:`read_inputs`, which reads several files)."""
    from cece.inputs import InputFile, Naming

    if isinstance(stream, (str, Path)):
        f = InputFile(str(stream), name, base or Path(stream).resolve().parent, Naming())
    else:
        f = InputFile(name, name, base or Path.cwd(), Naming(), stream)
    return read_inputs([f], resolve=base is not None)


def read_inputs(inputs: list, annotations: Any = None, resolve: bool = True) -> Iterator[Sample | RecordError]:
    """Samples of the input files (:func:`cece.inputs.open_inputs`), in order, or a
    :class:`RecordError` (with file and line) for each bad one; a repeated (model, id) is an error
    (resuming keys on it). Relative ``annotation`` paths are made relative to each file's folder
    and may not leave it; ``image_id`` is resolved against ``annotations``
    (:class:`cece.annotation_sets.AnnotationSet`)."""
    seen: dict[tuple, int] = {}
    k = 0
    for f in inputs:
        for entry, rec in f.records():
            line = entry.line
            refused = None
            if not isinstance(rec, RecordError) and isinstance(rec, dict):
                if resolve:
                    rec, refused = resolve_paths(rec, f.base)
                if annotations:
                    found = annotations.resolve(rec)
                    if isinstance(found, str):
                        unresolved = check_sample(rec, k, refused) or RecordError(
                            k, "image_id", found, rec.get("id"), model=rec.get("model")
                        )
                        unresolved.file, unresolved.line = f.name, line
                        k += 1
                        yield unresolved
                        continue
                    rec = found
            err = rec if isinstance(rec, RecordError) else check_sample(rec, k, refused)
            if err is None:
                key = (rec.get("model"), str(rec["id"]))
                if key in seen:
                    err = RecordError(k, "id", f"duplicate id {key[1]!r} (first on line {seen[key]})", key[1])
                else:
                    seen[key] = line
            if err is not None:
                if err.model is None and isinstance(rec, dict) and rec.get("model") is not None:
                    err.model = str(rec["model"])
                err.file, err.line = f.name, line
                k += 1
                yield err
                continue
            k += 1
            yield {**rec, "id": str(rec["id"])}
