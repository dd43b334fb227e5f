"""Run detectors over samples and write Detection JSONL, resumably (what ``cece detect`` does).

One line per (sample, detector), written and flushed as soon as its batch is scored, so a killed
run loses at most a batch; re-running skips the (id, detector) pairs already in the output (a
half-written last line is cut off and redone). Every sample goes through ``detect_batch``; a
sample a detector cannot score becomes an ``error`` line, and a detector that breaks the Detection
contract or raises gets error lines too -- a run never stops on one sample.

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

import json
import math
from dataclasses import dataclass
from itertools import islice
from pathlib import Path
from typing import Any, Iterable, Iterator, Sequence, TextIO

from cece.records import RecordError, done_keys, read_records, resolve_paths
from detectors.base import Detection, Detector, Sample


@dataclass
class RunStats:
    """What a run did: lines ``written`` (``failed`` of them with an error), pairs ``skipped``."""

    written: int = 0
    failed: int = 0
    skipped: int = 0


def check_sample(record: Any, index: int) -> RecordError | None:
    """The first problem with a sample's own fields (see the Sample contract), or None.

    What a particular detector needs (references, image...) is not checked here: a sample without
    it still gets scored by the detectors that can, and an error line from the others.

    >>> check_sample({"id": 1, "caption": "A dog."}, 0) is None
    True
    >>> str(check_sample({"caption": "A dog."}, 0))
    '<input>:1: id: missing'
    """
    if not isinstance(record, dict):
        return RecordError(index, "record", f"expected a JSON object, got {type(record).__name__}")
    rid = record.get("id")
    if rid is None or isinstance(rid, (dict, list, bool)):
        return RecordError(index, "id", "missing" if rid is None else "expected a string or number")
    if not isinstance(record.get("caption"), str):
        what = ("missing" if "caption" not in record
                else f"expected a string, got {type(record['caption']).__name__}")
        return RecordError(index, "caption", what, str(rid))
    refs = record.get("references")
    if refs is not None and not (isinstance(refs, list) and all(isinstance(r, str) for r in refs)):
        return RecordError(index, "references", "expected a list of strings", str(rid))
    return None


def read_samples(stream: TextIO, name: str, base: Path | None = None
                 ) -> Iterator[Sample | RecordError]:
    """Samples of a JSON / JSON list / JSONL stream, or a :class:`RecordError` (with file and line)
    for each bad one; a repeated id is an error (resuming keys on it). Relative ``annotation``
    paths are made relative to ``base``."""
    seen: dict[str, int] = {}
    for k, (line, rec) in enumerate(read_records(stream, name)):
        err = rec if isinstance(rec, RecordError) else check_sample(rec, k)
        if err is None:
            rid = str(rec["id"])
            if rid in seen:
                err = RecordError(k, "id", f"duplicate id {rid!r} (first on line {seen[rid]})", rid)
            else:
                seen[rid] = line
        if err is not None:
            err.file, err.line = name, line
            yield err
            continue
        yield resolve_paths({**rec, "id": str(rec["id"])}, base) if base else {**rec, "id": str(rec["id"])}


def contract_problem(d: Detection, caption: str) -> str | None:
    """What is wrong with a Detection under the contract (DESIGN.md), or None.

    >>> contract_problem(Detection("a", "x", score=1.5), "A dog.")
    'score 1.5 is not in [0, 1]'
    """
    if d.error is not None:
        return None if isinstance(d.error, str) else "error is not a string"
    if not isinstance(d.score, (int, float)) or isinstance(d.score, bool):
        return "no score and no error"
    if not (math.isfinite(d.score) and 0.0 <= d.score <= 1.0):
        return f"score {d.score} is not in [0, 1]"
    for s in [*d.spans, *d.sentences]:
        if not (0 <= s.start <= s.end <= len(caption)):
            return f"span ({s.start}, {s.end}) is outside the caption"
        if not (math.isfinite(s.score) and 0.0 <= s.score <= 1.0):
            return f"span score {s.score} is not in [0, 1]"
    for s in d.spans:
        if s.text != caption[s.start:s.end]:
            return f"span text {s.text!r} is not caption[{s.start}:{s.end}]"
    return None


def _detect(detector: Detector, name: str, batch: Sequence[Sample]) -> list[Detection]:
    """``detect_batch`` with the contract enforced: one valid Detection per sample, in order."""
    try:
        found = detector.detect_batch(batch)
        if len(found) != len(batch):
            raise RuntimeError(f"detect_batch returned {len(found)} detections for {len(batch)} samples")
    except Exception as exc:  # a broken detector costs its lines, not the run
        return [Detection.failed(s, name, f"{type(exc).__name__}: {exc}") for s in batch]
    out = []
    for s, d in zip(batch, found):
        problem = contract_problem(d, s["caption"]) if isinstance(d, Detection) else "not a Detection"
        if problem:
            d = Detection.failed(s, name, f"contract: {problem}")
        d.id, d.detector = s["id"], name  # the sample's id and the name it was run under
        out.append(d)
    return out


def run_detectors(detectors: dict[str, Detector], samples: Iterable[Sample], sink: TextIO,
                  done: set | None = None, batch_size: int = 64, progress: Any = None) -> RunStats:
    """Score ``samples`` with every detector (``{name: detector}``) and write Detection JSONL.

    Pairs ``(id, name)`` in ``done`` are skipped. Each batch of ``batch_size`` samples goes to each
    detector's ``detect_batch``; its lines are written and flushed before the next batch.
    ``progress`` (e.g. a tqdm bar) gets ``update(n)`` per (sample, detector) pair scored.
    """
    done = done or set()
    stats = RunStats()
    it = iter(samples)
    while batch := list(islice(it, batch_size)):
        for name, detector in detectors.items():
            todo = [s for s in batch if (s["id"], name) not in done]
            stats.skipped += len(batch) - len(todo)
            if not todo:
                continue
            for d in _detect(detector, name, todo):
                sink.write(json.dumps(d.to_dict(), ensure_ascii=False) + "\n")
                stats.written += 1
                stats.failed += d.error is not None
            sink.flush()
            if progress is not None:
                progress.update(len(todo))
    return stats


def pending(samples: Sequence[Sample], names: Iterable[str], done: set) -> int:
    """How many (sample, detector) pairs are still to do."""
    return sum((s["id"], n) not in done for s in samples for n in names)


def done_pairs(path: Path) -> set[tuple[str, str]]:
    """(id, detector) pairs already in a Detection JSONL (see :func:`cece.records.done_keys`)."""
    def key(rec: dict[str, Any]) -> tuple[str, str] | None:
        if rec.get("id") is None or not rec.get("detector"):
            return None
        return str(rec["id"]), str(rec["detector"])
    return done_keys(path, key)


def parse_options(items: Iterable[str], names: Iterable[str]) -> dict[str, dict[str, Any]]:
    """``NAME.key=value`` strings -> ``{name: {key: value}}``; values are JSON when they parse
    (numbers, true/false, lists), else plain strings.

    >>> parse_options(["aloha.batch_size=8", "aloha.model_path=/m", "vlm.temps=[0, 1]"], ["aloha", "vlm"])
    {'aloha': {'batch_size': 8, 'model_path': '/m'}, 'vlm': {'temps': [0, 1]}}
    """
    names = list(dict.fromkeys(names))
    out: dict[str, dict[str, Any]] = {n: {} for n in names}
    for item in items:
        target, sep, value = item.partition("=")
        name, dot, key = target.partition(".")
        if not (sep and dot and name and key.isidentifier()):
            raise ValueError(f"--option {item!r}: expected NAME.KEY=VALUE")
        if name not in names:
            raise ValueError(f"--option {item!r}: detector {name!r} is not among -d {', '.join(names)}")
        try:
            out[name][key] = json.loads(value)
        except json.JSONDecodeError:
            out[name][key] = value
    return {n: o for n, o in out.items() if o}


def create_detectors(names: Iterable[str], options: Iterable[str] = ()) -> dict[str, Detector]:
    """``{name: detector}`` for the names given, configured by ``NAME.key=value`` options; any
    problem (unknown name, bad option, a detector that cannot load) is a ValueError saying which.

    >>> sorted(create_detectors(["lexical"], ["lexical.aggregate=max"]))
    ['lexical']
    """
    from detectors import registry

    names = list(dict.fromkeys(names))
    opts = parse_options(options, names)
    out = {}
    for name in names:
        try:
            out[name] = registry.create(name, **opts.get(name, {}))
        except KeyError as exc:
            raise ValueError(exc.args[0]) from None
        except Exception as exc:  # a constructor's complaint, e.g. an unexpected option
            raise ValueError(f"detector {name!r}: {type(exc).__name__}: {exc}") from None
    return out
