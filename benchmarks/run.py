"""The benchmark runner behind ``cece bench run``: detect, resumably, then score and write tables.

A run directory holds::

    run.json                     what was run: benchmark, data, images, detectors and options
    predictions/NAME.jsonl       one Detection per sample, appended and flushed as made
    metrics.json                 per detector: summary (leaderboard columns) and details
    leaderboard.md, *.png        the tables and plots (see benchmarks.leaderboard)

Detection goes through :func:`detectors.runner.detect_to_file`, the writer and loop of ``cece
detect`` (one predictions file per detector, locked; each line written whole as soon as it is
scored): a killed run loses at most the batch in flight, a half-written line is cut off on the
next start, error lines are retried, and the (id, detector) pairs already written are skipped --
so an interrupted run and its re-run write exactly the lines of an uninterrupted one. A re-run
with a different benchmark, data file, image folder or detector options is refused
(``overwrite=True`` starts afresh) instead of mixing predictions.

Secrets are never written: in ``run.json`` (and in the messages that name options) the value of
any option whose name holds ``key``, ``token``, ``secret``, ``password`` or ``credential`` (at any
depth, e.g. ``vlm.api_key`` or ``vlm.backend={"api_key": ...}``) is ``"***"``, and credentials
inside strings (``https://user:pass@host``, ``?api_key=...``, bearer tokens, and those secret
values wherever else they recur) are scrubbed. Options that differ only in a secret are the same
run.

A run without its data (no file, a missing or empty one) is a :class:`NoDataError` naming the
file ``--data`` expects and the README section on getting it -- never a leaderboard of failures.
Each detector's entry in ``metrics.json`` carries ``valid``, ``errors``, ``parse_failures`` and
``dropped`` beside its figures; with no valid prediction its figures are all null (``n/a`` on
the leaderboard), see :func:`benchmarks.evaluate.evaluate`. ``judge`` says when a model judge's
answers over all its predictions did not vary (:func:`detectors.model_judge.judge_variation`):
the leaderboard marks that detector's figures.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from benchmarks.loaders import BENCHMARKS, DataError
from cece.engine import EngineOptions
from detectors.backends.base import scrub
from detectors.base import Detection, Detector
from detectors.model_judge import detection_answers, judge_variation
from detectors.runner import RunStats, detect_to_file

DATA_HELP = 'README.md, section "Benchmarks", "Getting the data"'
REDACTED = "***"
_SECRET_NAME = re.compile(r"key|token|secret|passw|credential", re.IGNORECASE)


class RunError(ValueError):
    """A run that cannot go ahead: its directory holds another run, or it has no data."""


class NoDataError(RunError):
    """A benchmark run without its data file; the message names the file and where to get it."""


def _secrets(value: Any, named: bool = False) -> list[str]:
    """The string values under secret-looking names, at any depth."""
    if isinstance(value, dict):
        return [s for k, v in value.items() for s in _secrets(v, named or bool(_SECRET_NAME.search(str(k))))]
    if isinstance(value, (list, tuple)):
        return [s for v in value for s in _secrets(v, named)]
    return [str(value)] if named and value not in (None, "") else []


def redact(value: Any, secrets: list[str] | None = None) -> Any:
    """A copy of ``value`` (detector options: dicts, lists, strings, numbers) that is safe to write
    down: the value of every key whose name holds key / token / secret / password / credential is
    ``"***"``, and strings are scrubbed of URL credentials, secret query parameters, bearer
    tokens and those secret values (:func:`detectors.backends.base.scrub`).

    >>> redact({"api_key": "sk-1", "backend": {"base_url": "http://ann:pw@h/v1", "model": "m"}, "n": 2})
    {'api_key': '***', 'backend': {'base_url': 'http://***@h/v1', 'model': 'm'}, 'n': 2}
    """
    secrets = _secrets(value) if secrets is None else secrets
    if isinstance(value, dict):
        return {
            k: REDACTED if _SECRET_NAME.search(str(k)) and v not in (None, "") else redact(v, secrets)
            for k, v in value.items()
        }
    if isinstance(value, (list, tuple)):
        return [redact(v, secrets) for v in value]
    return scrub(value, secrets) if isinstance(value, str) else value


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
            if d.id is not None:  # a line without an id (a bad input record's) answers no sample
                out.setdefault(d.id, d)
    return out


def _write_json(path: Path, data: Any) -> None:
    tmp = path.with_suffix(path.suffix + ".tmp")
    tmp.write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    os.replace(tmp, path)  # a killed run never leaves half a manifest or metrics file


def _manifest(
    rundir: Path, benchmark: str, data: Path, images: str | None, options: dict[str, dict[str, Any]], overwrite: bool
) -> dict[str, Any]:
    path = rundir / "run.json"
    options = {name: redact(opts) for name, opts in options.items()}
    new: dict[str, Any] = {
        "benchmark": benchmark,
        "data": str(data.resolve()),
        "images": str(Path(images).resolve()) if images else None,
        "detectors": {},
    }
    if path.exists() and not overwrite:
        old = json.loads(path.read_text(encoding="utf-8"))
        for key in ("benchmark", "data", "images"):
            if old.get(key) != new[key]:
                raise RunError(
                    f"{rundir} holds a run of {key} {old.get(key)!r}, not {new[key]!r}; "
                    "use another directory or --overwrite"
                )
        before = {n: redact(o) for n, o in old.get("detectors", {}).items()}  # older manifests held secrets
        for name, opts in options.items():
            if name in before and before[name] != opts:
                raise RunError(
                    f"{rundir}: detector {name!r} ran with options {before[name]}, now "
                    f"{opts}; use another directory or --overwrite"
                )
        new["detectors"] = before
    new["detectors"].update(options)
    return new


def load_data(
    benchmark: str, data: str | os.PathLike | None, images: str | None = None
) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """The benchmark's samples and gold from ``data``; no file, a missing, unreadable or empty
    one (no records) is a :class:`NoDataError` that says what ``--data`` expects and where the
    README tells how to get it. Any other problem stays a :class:`DataError` at file:line:field."""
    info = BENCHMARKS[benchmark]
    where = f"--data expects {info.data}; see {DATA_HELP}"
    if data is None:
        raise NoDataError(f"{benchmark}: no data file given. {where}")
    path = Path(data)
    if not path.is_file():
        raise NoDataError(f"{benchmark}: {path} {'is not a file' if path.exists() else 'does not exist'}. {where}")
    try:
        return info.load(path, images)
    except DataError as exc:
        if exc.field == "file" and exc.where == "-" and exc.file == str(path):
            raise NoDataError(f"{benchmark}: {path}: {exc.message}. {where}") from None
        raise


@dataclass
class RunResult:
    rundir: Path
    stats: dict[str, RunStats] = field(default_factory=dict)
    metrics: dict[str, Any] = field(default_factory=dict)
    missing_images: int = 0


def run_benchmark(
    benchmark: str,
    data: str | os.PathLike | None,
    rundir: str | os.PathLike,
    *,
    detectors: dict[str, Detector],
    options: dict[str, dict[str, Any]] | None = None,
    images: str | None = None,
    batch_size: int = 64,
    threshold: float = 0.5,
    limit: int | None = None,
    overwrite: bool = False,
    progress: Callable[[int | None], Any] | None = None,
    warn: Callable[[str], None] | None = None,
    engine: EngineOptions | None = None,
) -> RunResult:
    """Run ``detectors`` (``{name: detector}``, configured with ``options``) on a benchmark and
    write predictions, ``metrics.json``, ``leaderboard.md`` and plots into ``rundir``. ``engine``
    says where batches are scored (:mod:`cece.engine`; default this process).
    ``progress(total)`` may return a bar (``update(n)``, ``close()``) for the pairs to do;
    ``warn`` hears what resuming a predictions file found (torn or unreadable lines)."""
    from benchmarks.evaluate import clean, evaluate
    from benchmarks.leaderboard import write_run_outputs

    if benchmark not in BENCHMARKS:
        raise KeyError(f"unknown benchmark {benchmark!r}; available: {', '.join(BENCHMARKS)}")
    samples, gold = load_data(benchmark, data, images)
    data, rundir = Path(data), Path(rundir)  # type: ignore[arg-type]  # load_data refused None
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
    for name, detector in detectors.items():  # the same resumable writer and loop as `cece detect`
        result.stats[name] = RunStats()
        detect_to_file(
            {name: detector},
            samples,
            prediction_path(rundir, name),
            inputs=[data],
            batch_size=batch_size,
            progress=progress,
            warn=warn,
            stats=result.stats[name],
            engine=engine,
        )
    evaluations, judges = {}, {}
    for name in manifest["detectors"]:
        found = read_predictions(prediction_path(rundir, name))
        if found:
            evaluations[name] = evaluate(benchmark, gold, found, threshold=threshold)
            judges[name] = judge_variation(a for d in found.values() for a in detection_answers(d))
    scored = {
        n: {"summary": e.summary, "details": e.details, **e.counts, "judge": judges[n]} for n, e in evaluations.items()
    }
    result.metrics = clean(
        {
            "benchmark": benchmark,
            "data": manifest["data"],
            "n_samples": len(samples),
            "threshold": threshold,
            "limit": limit,
            "detectors": scored,
        }
    )
    _write_json(rundir / "metrics.json", result.metrics)
    write_run_outputs(rundir, result.metrics, evaluations)
    return result
