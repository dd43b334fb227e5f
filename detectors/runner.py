"""Run detectors over samples and write Detection JSONL, resumably (what ``cece detect`` and
``cece bench run`` do).

One line per (sample, detector), written through :class:`cece.output.JsonlWriter` as soon as it is
scored: the output is locked against a second run, and re-running skips the (id, detector) pairs
already in it and retries its error lines (``keep_errors`` keeps them). Every sample goes through
``detect_batch``; when a batch raises, each of its samples is tried alone, so one sample a detector
chokes on costs only its own line. A sample a detector cannot score, a bad input record, and a
detector that breaks the Detection contract all become ``error`` lines -- a run never stops on one
sample. Parse failures that model detectors report in ``details["parse_failures"]`` are counted,
and so are detections that judged nothing (score null, ``details["not_judged"]`` says why). The
answers of model judges (``details["answers"]``) are tallied per detector: when they do not vary
across the run, the summary line says so (:func:`detectors.model_judge.judge_variation`).

>>> import io
>>> from detectors.base import Detection, Detector
>>> class Yes(Detector):
...     name = "yes"
...     def detect(self, s): return Detection(s["id"], self.name, score=1.0)
>>> sink = io.StringIO()
>>> run_detectors({"yes": Yes()}, [{"id": "a", "caption": "A dog."}], sink).written
1
>>> sink.getvalue()
'{"id": "a", "detector": "yes", "score": 1.0, "spans": [], "sentences": [], "error": null}\\n'
"""

from __future__ import annotations

import fcntl
import json
import math
import os
from collections import Counter, deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from itertools import islice
from pathlib import Path
from typing import Any, TextIO

from cece.engine import EngineOptions
from cece.output import JsonlWriter, OutputBusy, Summary
from cece.records import RecordError
from detectors.base import Detection, Detector, Sample, SentenceScore, SpanScore, load_or_defer
from detectors.configure import keep_answers
from detectors.model_judge import detection_answers, judge_variation


@dataclass
class RunStats:
    """What a run did: lines ``written`` (``failed`` of them with an error, ``not_judged`` of them
    without a score for want of anything to judge), pairs ``skipped``, the ``parse_failures`` the
    detectors reported and, per detector, a tally of its judge's ``answers``."""

    written: int = 0
    failed: int = 0
    skipped: int = 0
    parse_failures: int = 0
    not_judged: int = 0
    answers: dict[str, Counter] = field(default_factory=dict)

    def add(self, d: Detection) -> None:
        """Count one written detection."""
        self.written += 1
        self.failed += d.error is not None
        details = d.details if isinstance(d.details, dict) else {}
        failures = details.get("parse_failures")
        self.parse_failures += failures if isinstance(failures, int) and failures > 0 else 0
        self.not_judged += d.error is None and d.score is None
        found = detection_answers(d)
        if found:
            self.answers.setdefault(d.detector, Counter()).update(found)

    def warnings(self) -> list[str]:
        """A line for each detector whose judge's answers did not vary over this run."""
        notes = [(name, judge_variation(counts.elements())) for name, counts in self.answers.items()]
        return [
            f"{name}: the judge's {note} -- its scores say nothing about the captions" for name, note in notes if note
        ]

    def summary(self) -> Summary:
        return Summary(
            self.written,
            self.failed,
            self.parse_failures,
            self.skipped,
            not_judged=self.not_judged,
            warnings=self.warnings(),
        )


def contract_problem(d: Detection, caption: str) -> str | None:
    """What is wrong with a Detection under its contract (:class:`detectors.base.Detection`), or None.

    >>> contract_problem(Detection("a", "x", score=1.5), "A dog.")
    'score 1.5 is not in [0, 1]'
    """
    if d.error is not None:
        return None if isinstance(d.error, str) else "error is not a string"
    if d.score is None and isinstance(d.details, dict) and isinstance(d.details.get("not_judged"), str):
        return None  # nothing to judge, and it says why
    if not isinstance(d.score, (int, float)) or isinstance(d.score, bool):
        return "no score and no error"
    if not (math.isfinite(d.score) and 0.0 <= d.score <= 1.0):
        return f"score {d.score} is not in [0, 1]"
    scored: list[SpanScore | SentenceScore] = [*d.spans, *d.sentences]
    for s in scored:
        if not (0 <= s.start <= s.end <= len(caption)):
            return f"span ({s.start}, {s.end}) is outside the caption"
        if not (math.isfinite(s.score) and 0.0 <= s.score <= 1.0):
            return f"span score {s.score} is not in [0, 1]"
    for s in d.spans:
        if s.text != caption[s.start : s.end]:
            return f"span text {s.text!r} is not caption[{s.start}:{s.end}]"
    return None


def _detect(detector: Detector, name: str, batch: Sequence[Sample]) -> list[Detection]:
    """``detect_batch`` with the contract enforced: one valid Detection per sample, in order. A
    batch that raises is tried sample by sample, so only the sample at fault gets an error line."""
    try:
        found = detector.detect_batch(batch)
        if len(found) != len(batch):
            raise RuntimeError(f"detect_batch returned {len(found)} detections for {len(batch)} samples")
    except Exception as exc:  # a broken detector costs its lines, not the run
        if len(batch) > 1:
            return [d for s in batch for d in _detect(detector, name, [s])]
        return [Detection.failed(s, name, f"{type(exc).__name__}: {exc}") for s in batch]
    out = []
    for s, d in zip(batch, found, strict=True):
        problem = contract_problem(d, s["caption"]) if isinstance(d, Detection) else "not a Detection"
        if problem:
            d = Detection.failed(s, name, f"contract: {problem}")
        d.id, d.detector = s["id"], name  # the sample's id and the name it was run under
        d.model = None if s.get("model") is None else str(s["model"])
        out.append(d)
    return out


def run_detectors(
    detectors: dict[str, Detector],
    samples: Iterable[Sample | RecordError],
    sink: TextIO | JsonlWriter,
    *,
    done: set | None = None,
    batch_size: int = 64,
    progress: Any = None,
    stats: RunStats | None = None,
    engine: EngineOptions | None = None,
) -> RunStats:
    """Score ``samples`` with every detector (``{name: detector}``) and write Detection JSONL.

    Pairs ``(id, name)`` in ``done`` are skipped. Each batch of ``batch_size`` samples goes to each
    detector's ``detect_batch``; each line is written (and flushed) as soon as its batch is scored.
    A :class:`RecordError` among the samples (a bad input record) gets an error line per detector.
    ``progress`` (e.g. a tqdm bar) gets ``update(n)`` per (sample, detector) pair scored; ``stats``
    is filled in as the run goes (so a caller still has it after an interrupt). ``engine`` says
    where batches are scored (:mod:`cece.engine`: this process by default here, local worker
    processes or Ray actors, each with its own copy of the detectors); the lines are written
    here, in the same order whatever the engine.
    """
    from cece.engine import run_ordered

    if batch_size < 1:
        raise ValueError(f"batch_size must be at least 1, not {batch_size!r}")
    done = done if done is not None else set()
    stats = stats if stats is not None else RunStats()
    engine = engine or EngineOptions(workers=1)
    write = sink.write if isinstance(sink, JsonlWriter) else _text_writer(sink)
    ahead: deque[list[list[Detection]]] = deque()  # per batch in flight: its error lines per detector

    def work() -> Iterator[DetectWork]:
        it = iter(samples)
        while batch := list(islice(it, batch_size)):
            errors, todo = [], []
            for name in detectors:
                lines, mine = [], []
                for s in batch:
                    if _pair(s, name) in done:
                        stats.skipped += 1
                    elif isinstance(s, RecordError):  # a bad id (a duplicate...) is no key for its line
                        lines.append(
                            Detection(
                                # a bad id is left out of its error line; a good one is a string, as on every line
                                id=None if s.field == "id" or s.id is None else str(s.id),
                                detector=name,
                                error=str(s),
                                model=None if s.model is None else str(s.model),
                            )
                        )
                    else:
                        mine.append(s)
                errors.append(lines)
                todo.append((name, mine))
            ahead.append(errors)
            yield DetectWork(todo, len(batch))

    for found in run_ordered(
        DetectTask(detectors),
        work(),
        engine=engine.engine,
        workers=engine.workers,
        address=engine.address,
        size=lambda w: w.samples,
    ):
        for lines, more in zip(ahead.popleft(), found, strict=True):
            for d in lines + more:
                write(d.to_dict())
                stats.add(d)
                if progress is not None:
                    progress.update(1)
    return stats


@dataclass
class DetectWork:
    """One batch for :class:`DetectTask`: ``(detector name, samples to score)`` pairs, and how
    many samples the batch held (what the engines count)."""

    todo: list[tuple[str, list[Sample]]]
    samples: int


@dataclass
class DetectTask:
    """What a worker does with a :class:`DetectWork`: each detector's Detections, in order. The
    detectors travel to each worker as they are before their first use, and load their models
    there (:meth:`Detector.load`)."""

    detectors: dict[str, Detector]

    def setup(self) -> None:
        for detector in self.detectors.values():
            load_or_defer(detector)

    def __call__(self, todo: DetectWork) -> list[list[Detection]]:
        return [_detect(self.detectors[name], name, samples) if samples else [] for name, samples in todo.todo]

    # For the engines (cece.scheduler): a batch whose worker is lost again and again is halved
    # until the sample at fault is found; its lines name the loss.
    def split(self, work: DetectWork) -> list[DetectWork]:
        if work.samples < 2:
            return [work]
        halves = [
            [(name, samples[: len(samples) // 2]) for name, samples in work.todo],
            [(name, samples[len(samples) // 2 :]) for name, samples in work.todo],
        ]
        return [DetectWork(todo, max(1, max(len(s) for _, s in todo))) for todo in halves]

    def join(self, results: list[list[list[Detection]]]) -> list[list[Detection]]:
        return [[d for part in parts for d in part] for parts in zip(*results, strict=True)]

    def lost(self, work: DetectWork, reason: str) -> list[list[Detection]]:
        return [[Detection.failed(s, name, reason) for s in samples] for name, samples in work.todo]


def _pair(sample: Sample | RecordError, name: str) -> tuple[str, ...] | None:
    """The resume key of a (sample, detector) line: (id, detector), and the model when the sample
    names one (several input files: one model each, ids repeat across them)."""
    if isinstance(sample, RecordError):
        rid, model = (None if sample.field == "id" else sample.id), sample.model
    else:
        rid, model = sample["id"], sample.get("model")
    if rid is None:
        return None
    return (str(rid), name) if model is None else (str(rid), name, str(model))


def _text_writer(sink: TextIO) -> Callable[[dict], None]:
    """Rows into an open text file, one flushed line each; a real file is locked like a
    :class:`cece.output.JsonlWriter` (a second run on it is refused)."""
    try:
        fd = sink.fileno()
    except (AttributeError, OSError, ValueError):  # io.StringIO and the like
        fd = None
    if fd is not None:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise OutputBusy(
                f"{getattr(sink, 'name', 'the output')}: another run is writing to this file; "
                "wait for it to finish or write to another file"
            ) from None

    def write(row: dict) -> None:
        sink.write(json.dumps(row, ensure_ascii=False) + "\n")
        sink.flush()

    return write


def detect_to_file(
    detectors: dict[str, Detector],
    samples: Iterable[Sample | RecordError],
    path: str | os.PathLike,
    *,
    inputs: Iterable[str | os.PathLike | None] = (),
    overwrite: bool = False,
    keep_errors: bool = False,
    batch_size: int = 64,
    progress: Callable[[int | None], Any] | None = None,
    warn: Callable[[str], None] | None = None,
    stats: RunStats | None = None,
    engine: EngineOptions | None = None,
) -> RunStats:
    """:func:`run_detectors` into the Detection JSONL at ``path``, locked and resumed (see
    :class:`cece.output.JsonlWriter`; ``inputs`` may not be the output). ``progress(total)`` may
    return a bar for the pairs to do (total None when ``samples`` is a stream). Raises
    :class:`cece.output.OutputBusy` / :class:`cece.output.OutputError` for an output that cannot
    be used or written. ``engine``: where batches are scored (see :func:`run_detectors`)."""
    with JsonlWriter(
        path, key=_row_pair, inputs=inputs, overwrite=overwrite, keep_errors=keep_errors, warn=warn, ascii=False
    ) as writer:
        keep_answers(detectors, Path(path))
        total = pending(samples, detectors, writer.done) if isinstance(samples, Sequence) else None
        bar = progress(total) if progress else None
        try:
            return run_detectors(
                detectors,
                samples,
                writer,
                done=writer.done,
                batch_size=batch_size,
                progress=bar,
                stats=stats,
                engine=engine,
            )
        finally:
            if bar is not None:
                bar.close()


def _row_pair(row: dict[str, Any]) -> tuple[str, ...] | None:
    if row.get("id") is None or not row.get("detector"):
        return None
    pair = str(row["id"]), str(row["detector"])
    return pair if row.get("model") is None else (*pair, str(row["model"]))


def pending(samples: Sequence[Sample | RecordError], names: Iterable[str], done: set) -> int:
    """How many (sample, detector) pairs are still to do."""
    names = list(names)
    return sum(_pair(s, n) not in done for s in samples for n in names)


def done_pairs(path: Path) -> set[tuple[str, str]]:
    """(id, detector) pairs already scored in a Detection JSONL. Its error lines, a torn last line
    and unreadable lines are dropped from the file (see :class:`cece.output.JsonlWriter`), so
    appending to it afterwards retries them without duplicates."""
    if not Path(path).exists():
        return set()
    with JsonlWriter(path, key=_row_pair) as writer:
        return {key for key in writer.done if isinstance(key, tuple)}  # _row_pair's keys
