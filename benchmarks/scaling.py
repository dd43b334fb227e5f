"""Scaling table: records/s at 1 and N workers and on Ray, peak memory at 1k and 50k records.

Each figure comes from the real command line in a child process (``cece explain`` / ``cece
detect`` with ``-o``) on generated records, or on your own records with ``--data FILE``.
Records/s is the steady rate at which rows reach the output file, while the middle 80 % of them
are written (model loading, the start-up of the last worker and the last batches in flight are
left out, so the figures compare engines, not start-up; the seconds to the first row are
reported apart). Every command runs at its own default batch size, as a user would run it
(``cece explain``: 256 records in one process, 64 per worker); ``cece detect`` runs on the
HAT-shaped records of :func:`benchmarks.synthetic.scene_records`. Peak memory is the
largest resident set of the command and its workers (``resource.getrusage`` of the children).
The bound is raw spaCy ``nlp.pipe`` on the same texts in this process: records/s if nothing but
parsing were done. The machine's speed can drift by half within the hour, and the bound drifts
with it: compare the ratio to it ("x raw nlp.pipe") across runs, not the bare rates, and read the
bare rates beside the speed probe printed above the table (:mod:`benchmarks.probe`). Run
it with ``python -m benchmarks.scaling`` (``make perf`` runs it after :mod:`benchmarks.perf`);
``--quick`` uses smaller inputs (1k and 5k records for memory).

>>> rows = [ScalingRow("explain (annotation)", "local", 1, 1000, 120.0, 3.1, 512.0, 0.5)]
>>> print(table(rows).splitlines()[2])
| explain (annotation) | local | 1 | 1000 | 120.0 | 3.1 | 512 | 0.50 |
"""

from __future__ import annotations

import json
import os
import platform
import random
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from benchmarks.probe import speed_probe
from benchmarks.synthetic import NOUNS, make_captions, scene_records

CECE = [sys.executable, "-m", "halcece"]


@dataclass
class ScalingRow:
    """One measured run: what ran, on which engine and how many workers, over how many records."""

    job: str
    engine: str
    workers: int
    records: int
    records_per_s: float
    startup_s: float
    peak_rss_mb: float
    vs_bound: float | None = None


def annotation_records(n: int, seed: int = 0) -> list[dict]:
    """Generated captions, each against a list of object labels."""
    rng = random.Random(seed)
    return [
        {"id": f"a{i}", "model": "gen", "caption": c, "annotation": rng.sample(NOUNS, rng.randint(3, 8))}
        for i, c in enumerate(make_captions(n, seed))
    ]


def reference_records(n: int, seed: int = 0) -> list[dict]:
    """Generated captions, each against five distinct generated reference captions of other
    scenes: nearly every caption is hallucinated and rewritten, so this is the slow case (the
    ``one scene`` row, :func:`benchmarks.synthetic.scene_records`, is shaped like HAT)."""
    refs = make_captions(5 * n, seed + 1)
    return [
        {"id": f"r{i}", "model": "gen", "caption": c, "references": refs[5 * i : 5 * i + 5]}
        for i, c in enumerate(make_captions(n, seed))
    ]


def run_command(args: list[str], output: Path, records: int) -> tuple[float, float, float]:
    """(steady records/s, seconds to the first row, peak RSS in MB) of one run. The steady rate is
    taken while the middle 80 % of the rows are written (from the 10 % mark to the 90 % mark):
    the last worker to load its models, and the last batches in flight, are left out."""
    code = (
        "import resource, subprocess, sys, json; r = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL,"
        " stderr=subprocess.PIPE, text=True); "
        "print(json.dumps([r.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, r.stderr[-2000:]]))"
    )
    output.unlink(missing_ok=True)  # rows of an earlier run would look like this run's first ones
    start = time.perf_counter()
    proc = subprocess.Popen([sys.executable, "-c", code, *args], stdout=subprocess.PIPE, text=True)
    seen: list[tuple[float, int]] = []  # (time, rows written) whenever the count changed
    while proc.poll() is None:
        lines = _lines(output)
        if lines and (not seen or lines != seen[-1][1]):
            seen.append((time.perf_counter(), lines))
        time.sleep(0.05)
    end = time.perf_counter()
    assert proc.stdout is not None  # started with stdout=PIPE
    status, rss_kb, err = json.loads(proc.stdout.read())
    done = _lines(output)
    if status not in (0, 2) or done < records:
        raise RuntimeError(f"{' '.join(args)} failed ({status}, {done}/{records} rows): {err}")
    seen.append((end, done))
    return (steady_rate(seen, done), round(seen[0][0] - start, 1), round(rss_kb / 1024, 1))


def steady_rate(seen: list[tuple[float, int]], total: int, *, low: float = 0.1, high: float = 0.9) -> float:
    """Rows/s between the first moment ``low`` of ``total`` rows were written and the first
    moment ``high`` were (``seen``: (time, rows written) samples, in time order); over the whole
    of ``seen`` when the rows came in too few steps to tell.

    >>> steady_rate([(0.0, 10), (1.0, 20), (2.0, 80), (3.0, 90), (9.0, 100)], 100)
    26.7
    """
    a = next(((t, n) for t, n in seen if n >= low * total), seen[0])
    b = next(((t, n) for t, n in seen if n >= high * total), seen[-1])
    if b[0] <= a[0]:
        a, b = seen[0], seen[-1]
    return round((b[1] - a[1]) / max(b[0] - a[0], 1e-9), 1)


def _lines(path: Path) -> int:
    try:
        with open(path, "rb") as f:
            return sum(chunk.count(b"\n") for chunk in iter(lambda: f.read(1 << 20), b""))
    except OSError:
        return 0


def raw_pipe_records_per_s(records: list[dict]) -> float:
    """Records/s if each record cost only its texts' raw spaCy parse (caption + references)."""
    from parsers import load_spacy

    texts = [t for r in records for t in [r["caption"], *r.get("references", [])]]
    nlp = load_spacy(exclude=("ner",), fast_attributes=True)
    list(nlp.pipe(texts[:100]))
    t = time.perf_counter()
    list(nlp.pipe(texts, batch_size=256))
    return len(records) / (time.perf_counter() - t)


def _supports(command: str, option: str) -> bool:
    out = subprocess.run([*CECE, command, "--help"], capture_output=True, text=True).stdout
    return option in out


def _engines(workers: int, ray: str | None) -> list[tuple[list[str], str, int]]:
    """(options, engine, workers) of each configuration measured; ``ray``: the cluster's address."""
    out = [(["--workers", "1"], "local", 1)]
    if workers > 1:
        out.append((["--workers", str(workers)], "local", workers))
    if ray:
        out.append((["--engine", "ray", "--address", ray, "--workers", str(workers)], "ray", workers))
    return out


def scaling(
    quick: bool = False, *, workers: int | None = None, ray: bool = True, data: Path | None = None
) -> list[ScalingRow]:
    """Measure every row of the table (module docstring); ``data``: a JSONL file of records to
    explain and detect on instead of the generated ones."""
    from cece.engine import usable_cores

    workers = workers or usable_cores()
    address = None
    if ray:
        try:
            import ray as ray_module
        except ImportError:
            ray_module = None  # type: ignore[assignment]  # no Ray installed: its rows are left out
        if ray_module is not None:  # one local cluster for every Ray row (its start-up is not the engine's)
            ray_module.init(num_cpus=workers, include_dashboard=False, log_to_driver=False)
            address = ray_module.get_runtime_context().gcs_address
    try:
        return _measure(quick, workers, address, data)
    finally:
        if address:
            ray_module.shutdown()


def _measure(quick: bool, workers: int, ray: str | None, data: Path | None = None) -> list[ScalingRow]:
    n_ann, n_ref, n_det = (400, 150, 200) if quick else (3000, 2000, 1000)
    small, big = (1000, 5000) if quick else (1000, 50000)
    rows: list[ScalingRow] = []
    with tempfile.TemporaryDirectory() as d:
        tmp = Path(d)
        if data is not None:
            own = [json.loads(line) for line in data.read_text(encoding="utf-8").splitlines() if line.strip()]
            jobs, det_recs = [(f"explain ({data.name})", own)], own
        else:
            jobs = [
                ("explain (annotation)", annotation_records(n_ann)),
                ("explain (references)", reference_records(n_ref)),
                ("explain (references, one scene)", scene_records(n_ref)),
            ]
            det_recs = scene_records(n_det, seed=5)  # HAT's shape: a caption and five references of its scene
        for job, recs in jobs:
            src = _write(tmp / "in.jsonl", recs)
            bound = raw_pipe_records_per_s(recs)
            for opts, engine, w in _engines(workers, ray):
                out = tmp / "out.jsonl"
                rate, startup, rss = run_command(
                    [*CECE, "explain", str(src), "-q", "-o", str(out), "--overwrite", *opts], out, len(recs)
                )
                rows.append(ScalingRow(job, engine, w, len(recs), rate, startup, rss, round(rate / bound, 2)))
        src = _write(tmp / "det.jsonl", det_recs)
        bound = raw_pipe_records_per_s(det_recs)
        parallel = _supports("detect", "--workers")
        for name in ("halcece", "lexical", "aloha"):
            for opts, engine, w in _engines(workers, ray) if parallel else [([], "local", 1)]:
                out = tmp / "det_out.jsonl"
                rate, startup, rss = run_command(
                    [*CECE, "detect", str(src), "-d", name, "-q", "-o", str(out), "--overwrite", *opts],
                    out,
                    len(det_recs),
                )
                rows.append(
                    ScalingRow(f"detect {name}", engine, w, len(det_recs), rate, startup, rss, round(rate / bound, 2))
                )
        for n in (small, big):  # memory: the same command, 50x the records
            src = _write(tmp / "mem.jsonl", annotation_records(n, seed=9))
            out = tmp / "mem_out.jsonl"
            rate, startup, rss = run_command(
                [*CECE, "explain", str(src), "-q", "-o", str(out), "--overwrite", "--workers", str(workers)], out, n
            )
            rows.append(ScalingRow("explain (annotation), memory", "local", workers, n, rate, startup, rss))
    return rows


def _write(path: Path, records: list[dict]) -> Path:
    with open(path, "w") as f:
        for r in records:
            f.write(json.dumps(r) + "\n")
    return path


def table(rows: list[ScalingRow]) -> str:
    """The rows as a Markdown table."""
    head = (
        "| job | engine | workers | records | records/s | start-up s | peak RSS MB | x raw nlp.pipe |\n"
        "|---|---|---|---|---|---|---|---|"
    )
    body = [
        f"| {r.job} | {r.engine} | {r.workers} | {r.records} | {r.records_per_s} | {r.startup_s} | "
        f"{r.peak_rss_mb:.0f} | {'' if r.vs_bound is None else f'{r.vs_bound:.2f}'} |"
        for r in rows
    ]
    return "\n".join([head, *body])


def summary(rows: list[ScalingRow]) -> dict[str, float]:
    """The ratios the targets speak of: N workers / 1 worker per job, RSS 50k / 1k."""
    out: dict[str, float] = {}
    by = {(r.job, r.engine, r.workers): r for r in rows}
    for (job, engine, w), r in by.items():
        one = by.get((job, "local", 1))
        if one and (engine, w) != ("local", 1) and one.records_per_s:
            out[f"{job}: {engine} x{w} / 1 worker"] = round(r.records_per_s / one.records_per_s, 2)
    mem = [r for r in rows if r.job.endswith("memory")]
    if len(mem) == 2 and mem[0].peak_rss_mb:
        out[f"peak RSS {mem[1].records} / {mem[0].records} records"] = round(mem[1].peak_rss_mb / mem[0].peak_rss_mb, 2)
    return out


def main(argv: list[str] | None = None) -> None:
    import argparse

    ap = argparse.ArgumentParser(prog="python -m benchmarks.scaling", description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="smaller inputs (1k and 5k records for memory)")
    ap.add_argument("--no-ray", action="store_true", help="leave out the Ray rows (also HALCECE_PERF_RAY=0)")
    ap.add_argument(
        "--data",
        type=Path,
        metavar="FILE",
        help="explain and detect these records (JSONL, with ids) instead of generated ones",
    )
    args = ap.parse_args(argv)
    before = speed_probe()
    result = scaling(
        quick=args.quick, ray=not args.no_ray and os.environ.get("HALCECE_PERF_RAY", "1") != "0", data=args.data
    )
    from cece.engine import usable_cores

    print(f"Python {platform.python_version()} ({sys.executable}), {usable_cores()} usable cores")
    print(f"machine speed probe (benchmarks.probe, lower is faster): {before} ms before, {speed_probe()} ms after\n")
    print(table(result))
    print(json.dumps(summary(result), indent=1))


if __name__ == "__main__":
    main()
