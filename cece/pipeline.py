"""The input side of ``cece explain``: records streamed from the one reader, checked, and the ones
already done skipped -- nothing is read ahead beyond the batches in flight -- and the
:class:`ExplainTask` the engines (:mod:`cece.engine`) run on batches of them.

>>> import tempfile
>>> from pathlib import Path
>>> from cece.inputs import open_inputs
>>> src = Path(tempfile.mkdtemp()) / "in.jsonl"
>>> _ = src.write_text('{"id": 1, "caption": "A dog.", "annotation": ["dog"]}\\n'
...                    '{"id": 1, "caption": "A cat.", "annotation": ["cat"]}\\n'
...                    '{"id": 2, "caption": "A cat.", "annotation": ["cat"]}\\n')
>>> found = list(explain_inputs(open_inputs([str(src)]), {(None, "2")}))
>>> [(type(f).__name__, f.line) for f in found]
[('Found', 1), ('Found', 2), ('Skipped', 3)]
>>> found[0].record["id"], found[1].record.field
(1, 'id')
"""

from __future__ import annotations

import contextlib
from collections.abc import Container, Iterable, Iterator
from dataclasses import dataclass
from itertools import islice
from typing import Any

from cece.annotation_sets import AnnotationSet
from cece.inputs import InputFile
from cece.output import encode_row
from cece.record_checks import check_image_side, check_own_fields, refused_path, resolve_paths, with_model
from cece.records import RecordError


@dataclass
class Found:
    """A record to explain -- checked, its paths and ``image_id`` resolved -- or its
    :class:`RecordError` (file and line set), with the input file and line it was read from."""

    record: dict[str, Any] | RecordError
    file: str
    line: int


@dataclass
class Skipped:
    """A record of the input already done in the output (a resumed run), where it was read."""

    file: str
    line: int


def explain_inputs(
    inputs: list[InputFile], done: Container[Key], *, annotations: AnnotationSet | None = None
) -> Iterator[Found | Skipped]:
    """What the records of ``inputs`` (:func:`cece.inputs.open_inputs`) are, in order: a
    :class:`Found` record to explain (or its error), or :class:`Skipped` when its key
    (:func:`record_key`: model and id) is in ``done``; a repeated key is an error. Relative
    annotation paths are resolved under each file's folder and may not leave it; ``image_id`` is
    resolved against ``annotations``. Each record is checked here, once
    (:class:`ExplainTask` is told so).
    """
    seen: dict[Key, int] = {}
    k = 0
    for f in inputs:
        for entry, rec in f.records():
            if not isinstance(rec, RecordError):
                rec, err = checked(rec, k, f, annotations=annotations)
                if err is None:
                    key = record_key(rec)
                    if key in seen:
                        err = RecordError(k, "id", f"duplicate of the record on line {seen[key]}", rec["id"])
                    else:
                        seen[key] = entry.line
                        if key in done:
                            yield Skipped(f.name, entry.line)
                            continue
                if err is not None:
                    if err.field != "id" and err.id is not None and (_model(err.model), str(err.id)) in done:
                        yield Skipped(f.name, entry.line)  # its error row is kept (--keep-errors)
                        continue
                    err.file, err.line = f.name, entry.line
                    rec = err
            k += 1
            yield Found(rec, f.name, entry.line)


Key = tuple[str | None, str]


def record_key(row: dict[str, Any]) -> Key:
    """What identifies a record, and its output row, when resuming: (model, id).

    >>> record_key({"id": 3, "model": "m"}), record_key({"id": "a"})
    (('m', '3'), (None, 'a'))
    """
    return _model(row.get("model")), str(row["id"])


def _model(value: Any) -> str | None:
    return None if value is None else str(value)


def checked(rec: Any, index: int, f: InputFile, *, annotations: AnnotationSet | None) -> tuple[Any, RecordError | None]:
    """A record with its paths and ``image_id`` resolved, and its first problem (or None): its own
    fields, then an annotation path that leaves its folder, then its ``image_id``, then its image side."""
    err = check_own_fields(rec, index)
    if err is not None or not isinstance(rec, dict):
        return rec, err
    rec, refused = resolve_paths(rec, f.base)
    if refused is not None:
        return rec, with_model(refused_path(index, refused, rec.get("id")), rec)
    if annotations:
        found = annotations.resolve(rec)
        if isinstance(found, str):
            return rec, RecordError(index, "image_id", found, rec.get("id"), model=rec.get("model"))
        rec = found
    return rec, check_image_side(rec, index)


#: Records per batch when batches go to several workers: small enough to spread a short input
#: over the workers, large enough for spaCy to batch well (about 400 texts in references mode;
#: batches of 16 records, about 100 texts, explained HAT 7 % slower).
PARALLEL_BATCH = 64


def batches(records: Iterable[Any], size: int) -> Iterator[list[tuple[int, Any]]]:
    """``(index, record)`` pairs, ``size`` at a time (the index numbers records from 0).

    >>> list(batches("abc", 2))
    [[(0, 'a'), (1, 'b')], [(2, 'c')]]
    """
    it = iter(enumerate(records))
    while batch := list(islice(it, size)):
        yield batch


@dataclass
class Explained:
    """One record's explanation as it leaves a worker: its output ``row`` -- already encoded as
    its output line (:func:`cece.output.encode_row`, ASCII), or the dict itself when it is not
    JSON (NaN...: the writer turns it into an error row) --, whether it is hallucinated, and the
    :class:`~cece.explanation.Explanation` itself when the caller prints tables (``ExplainTask.keep``).
    The worker encodes, so the one process that writes a parallel run's rows does little else."""

    row: bytes | dict[str, Any]
    hallucinated: bool
    explanation: Any = None


@dataclass
class ExplainTask:
    """What a worker does with a batch of ``(index, record)`` pairs: explain them with
    ``explainer`` (:meth:`cece.api.Explainer.explain_batch`; it travels as its settings, see
    ``Explainer.__getstate__``) and return ``(index, Explained | RecordError)`` pairs in order.
    ``setup()`` loads the models once per worker. ``checked``: the records were checked already
    (:func:`explain_inputs`), so the explainer does not check them again.

    >>> from cece.api import Explainer
    >>> task = ExplainTask(Explainer(batch_size=8))
    >>> task.setup()
    >>> task([(0, {"id": 1, "caption": "A cat.", "annotation": ["dog"]})])[0][1].hallucinated
    True
    """

    explainer: Any
    keep: bool = False
    checked: bool = False

    def setup(self) -> None:
        self.explainer.load()  # spaCy, WordNet, inflections: now, not inside the first batch

    def setup_here(self) -> None:
        """Nothing: in the calling process the first batch loads what it uses (the inflection
        tables only once a counterfactual is written), so one record costs no more than it needs."""

    def __call__(self, batch: list[tuple[int, Any]]) -> list[tuple[int, Any]]:
        from cece.explanation import Explanation

        out = []
        for (index, _), result in zip(batch, self.explainer.explain_batch(batch, checked=self.checked), strict=True):
            if isinstance(result, Explanation):
                fields = result.to_dict()
                row: dict[str, Any] | bytes = fields
                # A row that does not encode is left to the writer, which reports it as the record's error.
                with contextlib.suppress(ValueError, TypeError, RecursionError):
                    row = encode_row(fields)
                result = Explained(row, bool(result.hallucinated), result if self.keep else None)
            out.append((index, result))
        return out

    # For the engines (cece.scheduler): a batch whose worker is lost again and again is halved
    # until the record at fault is found; that record gets an error row naming the loss.
    def split(self, batch: list[tuple[int, Any]]) -> list[list[tuple[int, Any]]]:
        return [batch[: len(batch) // 2], batch[len(batch) // 2 :]] if len(batch) > 1 else [batch]

    def join(self, results: list[list[tuple[int, Any]]]) -> list[tuple[int, Any]]:
        return [pair for part in results for pair in part]

    def lost(self, batch: list[tuple[int, Any]], reason: str) -> list[tuple[int, Any]]:
        return [
            (
                index,
                rec
                if isinstance(rec, RecordError)
                else RecordError(
                    index, "worker", reason, rec.get("id"), error_type="WorkerLost", model=rec.get("model")
                ),
            )
            for index, rec in batch
        ]
