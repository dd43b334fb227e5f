"""End-to-end figures, start-up included, as a user meets them: the wall time of whole commands.

- **One record:** ``cece explain`` of one caption in a fresh process, beside a bare ``import
  spacy; spacy.load(model)`` in the same environment (the floor any spaCy tool pays); each is
  run ``repeat`` times, alternately, and the medians compared (target: within 1.3 x).
- **Workers:** ``cece explain -o`` of 3,040 and of 300 HAT-shaped records
  (:func:`benchmarks.synthetic.scene_records`) with ``--workers 1`` and ``--workers 2``, wall
  seconds from start to exit (targets: 3,040 records 1.7 x faster with two workers on two
  cores; 300 records no slower, the median of five runs), the outputs compared byte for byte.

The scaling table (:mod:`benchmarks.scaling`) gives the steady rates, start-up left out; ``make
perf`` prints both. A shared machine changes speed within minutes, so the speed probe
(:mod:`benchmarks.probe`) is printed with the figures. Run it with ``python -m benchmarks.endtoend``
(``--quick``: 300 records only, 3 repeats).
"""

from __future__ import annotations

import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from benchmarks.probe import speed_probe
from benchmarks.synthetic import scene_records

CECE = [sys.executable, "-m", "halcece"]
ONE = {
    "id": "one",
    "caption": "A dog sitting on a lap.",
    "annotation": {
        "objects": ["man", "dog", "laptop", "lap"],
        "relationships": [["laptop", "on", "lap"], ["dog", "next to", "man"]],
    },
}


def _wall(cmd: list[str], ok: tuple[int, ...] = (0,)) -> float:
    t = time.perf_counter()
    r = subprocess.run(cmd, capture_output=True, text=True)
    seconds = time.perf_counter() - t
    if r.returncode not in ok:
        raise RuntimeError(f"{' '.join(cmd)} failed ({r.returncode}): {r.stderr[-2000:]}")
    return seconds


def one_record(repeat: int = 5) -> dict[str, float]:
    """Median seconds of ``cece explain`` on one record and of a bare spaCy import + load."""
    from parsers import find_spacy_model

    model = find_spacy_model().name
    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / "one.json"
        path.write_text(json.dumps(ONE))
        explain = [*CECE, "explain", str(path), "--format", "json"]
        bare = [sys.executable, "-c", f"import spacy; spacy.load({model!r})"]
        _wall(explain), _wall(bare)  # the OS file cache warmed once
        ours, floor = [], []
        for _ in range(repeat):
            ours.append(_wall(explain))
            floor.append(_wall(bare))
    a, b = statistics.median(ours), statistics.median(floor)
    return {
        "explain_one_record_s": round(a, 2),
        "bare_spacy_import_and_load_s": round(b, 2),
        "one_record_vs_bare_spacy": round(a / b, 2),
    }


def workers(n: int, repeat: int = 1) -> dict[str, float | bool]:
    """Median wall seconds of ``cece explain -o`` on ``n`` HAT-shaped records with 1 and 2
    workers, run ``repeat`` times alternately."""
    with tempfile.TemporaryDirectory() as d:
        src = Path(d) / "in.jsonl"
        src.write_text("".join(json.dumps(r) + "\n" for r in scene_records(n, seed=3)))
        runs: dict[str, list[float]] = {"1": [], "2": []}
        outputs = {}
        for _ in range(repeat):
            for w in ("1", "2"):
                out = Path(d) / f"out{w}.jsonl"
                out.unlink(missing_ok=True)
                runs[w].append(_wall([*CECE, "explain", str(src), "-q", "-o", str(out), "--workers", w], ok=(0, 2)))
                outputs[w] = out.read_bytes()
        seconds = {w: statistics.median(t) for w, t in runs.items()}
    return {
        f"{n}_records_workers_1_s": round(seconds["1"], 2),
        f"{n}_records_workers_2_s": round(seconds["2"], 2),
        f"{n}_records_speed_up": round(seconds["1"] / seconds["2"], 2),
        f"{n}_records_identical_outputs": outputs["1"] == outputs["2"],
    }


def run(quick: bool = False) -> dict:
    figures: dict = {"machine_speed_probe_ms_before": speed_probe()}
    figures.update(one_record(3 if quick else 5))
    # A short run's figure is within the machine's noise: the median of five.
    for n, repeat in ((300, 3),) if quick else ((3040, 1), (300, 5)):
        figures.update(workers(n, repeat))
    figures["machine_speed_probe_ms_after"] = speed_probe()
    return figures


if __name__ == "__main__":
    print(json.dumps(run("--quick" in sys.argv[1:]), indent=1))
