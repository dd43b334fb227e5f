"""Explain report items as a resumable stream into ``REPORTDIR/explanations.jsonl``.

Explanations, and the error rows of records that fail, are appended as they are made through the
one resumable writer (:class:`cece.output.JsonlWriter`): a re-run skips the (model, id) pairs
already explained in the file and retries the error rows. The report is then built from the file,
so a resumed run and a fresh one give the same numbers.

Speed: many captions share one image (one per model), so each distinct image side is turned into a
scene graph once and handed to :meth:`cece.Explainer.explain_many` ready-made -- the same call the
explainer would make itself, just not repeated per model.

>>> key_of({"model": "m", "id": 3})
('m', '3')
"""

from __future__ import annotations

import hashlib
import json
import sys
from collections import OrderedDict, deque
from collections.abc import Callable, Iterable, Iterator, Sequence, Sized
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any, overload

from cece.api import Explainer
from cece.engine import EngineOptions
from cece.explanation import Explanation
from cece.output import JsonlWriter
from cece.records import RecordError
from cece.report.inputs import Key, ReportItem
from parsers import AnnotationError, SceneGraph

EXPLANATIONS = "explanations.jsonl"
# Image sides kept ready; captions of one image usually come close together (per image, or per model
# over the same image list), and a bound keeps memory flat on very large inputs.
GRAPH_CACHE_SIZE = 20_000


def key_of(record: dict[str, Any]) -> Key | None:
    """The resume key of a written explanation (or of an input record)."""
    if record.get("id") is None:
        return None
    return str(record.get("model")), str(record["id"])


@dataclass
class ExplainStats:
    explained: int = 0  # made by this run
    resumed: int = 0  # already in the file
    failed: int = 0  # error rows written by this run


def explain_items(
    items: Iterable[ReportItem],
    out_path: Path,
    explainer: Explainer,
    *,
    source: str | Sequence[str] = "<input>",
    overwrite: bool = False,
    on_error: Callable[[RecordError], None] | None = None,
    progress: bool | None = None,
    engine: EngineOptions | None = None,
) -> tuple[ExplanationsFile, list[RecordError], ExplainStats]:
    """Explain what is not yet in ``out_path`` and return the explanations of all ``items``, in
    order (an :class:`ExplanationsFile`: read from ``out_path`` as they are used, never all held).

    ``items`` may be a stream: each is explained and written as it comes, and only its key is
    kept. ``out_path`` is written through :class:`cece.output.JsonlWriter` (locked; error rows
    of a previous run are retried; raises its :class:`cece.output.OutputBusy` / ``OutputError``).
    ``source`` names the captions file(s), which may not be ``out_path``; ``progress``: True
    shows a tqdm bar, None shows one only on a terminal, False never. ``engine`` says where
    batches are explained (:mod:`cece.engine`; default this process): workers get a copy of
    ``explainer``'s settings and build the image sides themselves; rows are written here, in order.
    """
    from tqdm import tqdm

    from cece.engine import run_ordered
    from cece.pipeline import PARALLEL_BATCH, ExplainTask, batches

    errors: list[RecordError] = []
    stats = ExplainStats()
    keys: list[Key] = []
    in_flight: deque[ReportItem] = deque()  # items handed to the explainer, not yet answered

    sources = [source] if isinstance(source, str) else list(source)
    with JsonlWriter(
        out_path,
        key=key_of,
        inputs=[s for s in sources if s not in ("<input>", "-")],
        overwrite=overwrite,
        warn=lambda m: print(m, file=sys.stderr),
    ) as sink:

        def todo() -> Iterator[ReportItem]:
            for it in items:
                keys.append(it.key)
                if it.key in sink.done:
                    stats.resumed += 1
                    continue
                in_flight.append(it)
                yield it

        bar = tqdm(
            total=len(items) if isinstance(items, Sized) else None,
            initial=0,
            unit="caption",
            file=sys.stderr,
            disable=None if progress is None else not progress,
        )
        where = engine or EngineOptions(workers=1)
        records: Iterator[dict[str, Any] | RecordError]
        if where.parallel:
            records, size = (it.to_explain() for it in todo()), min(explainer.batch_size, PARALLEL_BATCH)
        else:
            records, size = _with_image_graphs(todo(), explainer), explainer.batch_size
        try:
            for done in run_ordered(
                ExplainTask(explainer),
                batches(records, size),
                engine=where.engine,
                workers=where.workers,
                address=where.address,
            ):
                for _, result in done:
                    item = in_flight.popleft()  # one result per record, in order
                    bar.update(1)
                    if isinstance(result, RecordError):
                        result.file, result.line, result.model = item.source, item.line, item.record.get("model")
                        errors.append(result)
                        sink.write(result.to_dict())
                        stats.failed += 1
                        if on_error:
                            on_error(result)
                        continue
                    sink.write(result.row)
                    stats.explained += 1
        finally:
            bar.close()
    return ExplanationsFile(out_path, keys), errors, stats


def _with_image_graphs(items: Iterable[ReportItem], explainer: Explainer) -> Iterator[dict[str, Any] | RecordError]:
    """The items' records with each distinct image side built once into a SceneGraph.

    A side that fails to build is left as it was, so the explainer reports it in its usual words.
    """
    cache: OrderedDict[str, SceneGraph | None] = OrderedDict()
    for item in items:
        rec = item.to_explain()
        key = None if isinstance(rec, RecordError) else _image_key(rec)
        if isinstance(rec, RecordError) or key is None:
            yield rec
            continue
        if key in cache:
            cache.move_to_end(key)
        else:
            try:
                cache[key] = explainer.image_graph(rec.get("annotation"), rec.get("references"))
            except AnnotationError:
                cache[key] = None
            if len(cache) > GRAPH_CACHE_SIZE:
                cache.popitem(last=False)
        graph = cache[key]
        yield rec if graph is None else {**rec, "annotation": graph}


def _image_key(rec: dict[str, Any]) -> str | None:
    """A key for the image side of a record (what ``Explainer.image_graph`` would receive)."""
    side = {"a": rec.get("annotation")} if rec.get("annotation") is not None else {"r": rec.get("references")}
    try:
        text = json.dumps(side, sort_keys=True)
    except (TypeError, ValueError):  # e.g. a SceneGraph object given through the library
        return None
    return hashlib.blake2b(text.encode(), digest_size=16).hexdigest()  # a VG record can be large


def read_explanations(path: Path, keys: Iterable[Key]) -> list[Explanation]:
    """The explanations of ``keys`` from a JSONL file, in the order of ``keys`` (missing ones left out)."""
    return list(ExplanationsFile(path, keys))


class ExplanationsFile(Sequence[Explanation]):
    """The explanations of ``keys`` in a JSONL file, in the order of ``keys`` (missing ones and
    error rows left out; the last row of a key wins), read from the file when used: only each
    row's place in the file is held, so a report over many captions stays small in memory."""

    def __init__(self, path: Path, keys: Iterable[Key]) -> None:
        self.path = Path(path)
        wanted = list(keys)
        want = set(wanted)
        found: dict[Key, int] = {}
        if self.path.exists():
            with self.path.open("rb") as f:
                offset = 0
                for raw in f:
                    try:
                        data = json.loads(raw)
                    except (json.JSONDecodeError, UnicodeDecodeError):
                        data = None
                    key = key_of(data) if isinstance(data, dict) and data.get("error") is None else None
                    if key in want:
                        found[key] = offset
                    offset += len(raw)
        self.offsets = [found[k] for k in dict.fromkeys(wanted) if k in found]

    def __len__(self) -> int:
        return len(self.offsets)

    @overload
    def __getitem__(self, index: int) -> Explanation: ...

    @overload
    def __getitem__(self, index: slice) -> list[Explanation]: ...

    def __getitem__(self, index: int | slice) -> Explanation | list[Explanation]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        with self.path.open("rb") as f:
            return self._read(f, self.offsets[index])

    def __iter__(self) -> Iterator[Explanation]:
        with self.path.open("rb") as f:
            for offset in self.offsets:
                yield self._read(f, offset)

    @staticmethod
    def _read(f: IO[bytes], offset: int) -> Explanation:
        f.seek(offset)
        return Explanation.from_dict(json.loads(f.readline()))
