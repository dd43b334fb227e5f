"""The benchmark runner behind ``cece bench run``: detect, resumably, then score and write tables.

A run directory holds::

    run.json                     what was run: benchmark, data, images, detectors and options
    predictions/NAME.jsonl       one Detection per sample, appended and flushed as made
    metrics.json                 per detector: summary (leaderboard columns) and details
    leaderboard.md, *.png        the tables and plots (see benchmarks.leaderboard)

Detection goes through :func:`detectors.runner.run_detectors`: a killed run loses at most the
batch in flight, a half-written line is cut off on the next start, and the (id, detector) pairs
already written are skipped -- so an interrupted run and its re-run write exactly the lines of
an uninterrupted one. A re-run with a different benchmark, data file, image folder or detector
options is refused (``overwrite=True`` starts afresh) instead of mixing predictions.
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from benchmarks.loaders import BENCHMARKS
from detectors.base import Detection, Detector
from detectors.runner import RunStats, done_pairs, pending, run_detectors


class RunError(ValueError):
    """A run directory that holds another run."""


def _evaluator(benchmark: str) -> Callable[..., Any]:
    from benchmarks import evaluate

    return {"hat": evaluate.evaluate_captions, "foil": evaluate.evaluate_captions,
            "alignbench": evaluate.evaluate_alignbench, "detailverify": evaluate.evaluate_detailverify}[benchmark]


def prediction_path(rundir: Path, name: str) -> Path:
    """Where detector ``name``'s predictions go (its name made safe for a file name)."""
    return Path(rundir) / "predictions" / (re.sub(r"[^A-Za-z0-9_.-]", "_", name) + ".jsonl")


def read_predictions(path: Path) -> dict[str, Detection]:
    """``{sample id: Detection}`` of a predictions file (first line per id; a torn last line is ignored)."""
    out: dict[str, Detection] = {}
    if not path.exists():
        return out
    with path.open(encoding="utf-8") as f:
        for line in f:
            try:
                d = Detection.from_dict(json.loads(line))
            except (json.JSONDecodeError, KeyError, TypeError):
                continue
            out.setdefault(d.id, d)
    return out


def _write_json(path: Path, data: Any) -> None:
    tmp = path.with_suffix(path.suffix + ".tmp")
    tmp.write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    os.replace(tmp, path)  # a killed run never leaves half a manifest or metrics file


def _manifest(rundir: Path, benchmark: str, data: Path, images: str | None,
              options: dict[str, dict[str, Any]], overwrite: bool) -> dict[str, Any]:
    path = rundir / "run.json"
    new = {"benchmark": benchmark, "data": str(data.resolve()),
           "images": str(Path(images).resolve()) if images else None, "detectors": {}}
    if path.exists() and not overwrite:
        old = json.loads(path.read_text(encoding="utf-8"))
        for key in ("benchmark", "data", "images"):
            if old.get(key) != new[key]:
                raise RunError(f"{rundir} holds a run of {key} {old.get(key)!r}, not {new[key]!r}; "
                               "use another directory or --overwrite")
        for name, opts in options.items():
            if name in old.get("detectors", {}) and old["detectors"][name] != opts:
                raise RunError(f"{rundir}: detector {name!r} ran with options {old['detectors'][name]}, now "
                               f"{opts}; use another directory or --overwrite")
        new["detectors"] = dict(old.get("detectors", {}))
    new["detectors"].update(options)
    return new


@dataclass
class RunResult:
    rundir: Path
    stats: dict[str, RunStats] = field(default_factory=dict)
    metrics: dict[str, Any] = field(default_factory=dict)
    missing_images: int = 0


def run_benchmark(benchmark: str, data: str | os.PathLike, rundir: str | os.PathLike,
                  detectors: dict[str, Detector], options: dict[str, dict[str, Any]] | None = None, *,
                  images: str | None = None, batch_size: int = 64, threshold: float = 0.5,
                  limit: int | None = None, overwrite: bool = False,
                  progress: Callable[[int], Any] | None = None) -> RunResult:
    """Run ``detectors`` (``{name: detector}``, configured with ``options``) on a benchmark and
    write predictions, ``metrics.json``, ``leaderboard.md`` and plots into ``rundir``.
    ``progress(total)`` may return a bar (``update(n)``, ``close()``) for the pairs to do."""
    from benchmarks.evaluate import clean
    from benchmarks.leaderboard import write_run_outputs

    if benchmark not in BENCHMARKS:
        raise KeyError(f"unknown benchmark {benchmark!r}; available: {', '.join(BENCHMARKS)}")
    data, rundir = Path(data), Path(rundir)
    samples, gold = BENCHMARKS[benchmark].load(data, images)
    if limit is not None:
        samples = samples[:limit]
        gold = {s["id"]: gold[s["id"]] for s in samples}
    options = {n: (options or {}).get(n, {}) for n in detectors}
    (rundir / "predictions").mkdir(parents=True, exist_ok=True)
    if overwrite:
        for old in (rundir / "predictions").glob("*.jsonl"):
            old.unlink()
    manifest = _manifest(rundir, benchmark, data, images, options, overwrite)
    _write_json(rundir / "run.json", manifest)
    result = RunResult(rundir, missing_images=sum("image" not in s for s in samples) if images else 0)
    for name, detector in detectors.items():
        path = prediction_path(rundir, name)
        done = done_pairs(path)  # also cuts a line torn by a kill
        bar = progress(pending(samples, [name], done)) if progress else None
        with path.open("a", encoding="utf-8") as sink:
            try:
                result.stats[name] = run_detectors({name: detector}, samples, sink, done, batch_size, bar)
            finally:
                if bar is not None:
                    bar.close()
    evaluate = _evaluator(benchmark)
    evaluations = {}
    for name in manifest["detectors"]:
        found = read_predictions(prediction_path(rundir, name))
        if found:
            evaluations[name] = evaluate(gold, found, threshold)
    scored = {n: {"summary": e.summary, "details": e.details} for n, e in evaluations.items()}
    result.metrics = clean({"benchmark": benchmark, "data": manifest["data"], "n_samples": len(samples),
                            "threshold": threshold, "limit": limit, "detectors": scored})
    _write_json(rundir / "metrics.json", result.metrics)
    write_run_outputs(rundir, result.metrics, evaluations)
    return result
