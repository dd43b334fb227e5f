"""Memory harness: peak RSS of `cece explain`, `cece detect` and `cece report` on 1,000 and 20,000
generated records, each run in a fresh process under ``/usr/bin/time -v``; prints JSON.

``python -m benchmarks.memory [--sizes 1000 20000] [--commands explain detect report]``

The records are short captions (:func:`benchmarks.synthetic.make_captions`) with a four-label
annotation, three models, written as JSONL to a temporary folder. The one reader streams its
input and every command writes each row as it is made, so peak RSS should stay nearly flat
from 1k to 20k records; the ratio ``20k / 1k`` is printed for each command. No figure is
asserted anywhere: this machine's load changes them. ``explain`` runs with ``--workers 1``, so
that one process holds the whole run (``/usr/bin/time`` reports the largest single process).
"""

from __future__ import annotations

import argparse
import json
import random
import re
import subprocess
import sys
import tempfile
from pathlib import Path

from benchmarks.synthetic import NOUNS, make_captions

COMMANDS = {
    "explain": ["explain", "{input}", "-q", "-w", "1", "-o", "{out}/explained.jsonl"],
    "detect": ["detect", "{input}", "-d", "halcece", "-q", "-o", "{out}/detections.jsonl"],
    "report": ["report", "{input}", "-o", "{out}/report"],
}


def write_records(path: Path, n: int, seed: int = 1) -> None:
    """``n`` records ``{"id", "model", "caption", "annotation"}`` as JSONL at ``path``."""
    rng = random.Random(seed)
    with path.open("w", encoding="utf-8") as f:
        for i, caption in enumerate(make_captions(n, seed=seed)):
            f.write(json.dumps({"id": i, "model": f"m{i % 3}", "caption": caption,
                                "annotation": rng.sample(NOUNS, 4)}) + "\n")


def peak_rss_mb(args: list[str]) -> tuple[float, float, int]:
    """(peak RSS in MB, wall seconds, exit status) of ``cece ARGS`` in a fresh process."""
    cece = str(Path(sys.executable).with_name("cece"))
    run = subprocess.run(["/usr/bin/time", "-v", cece, *args], capture_output=True, text=True)
    rss = int(re.search(r"Maximum resident set size \(kbytes\): (\d+)", run.stderr).group(1))
    clock = re.search(r"Elapsed \(wall clock\) time \(h:mm:ss or m:ss\): ([\d:.]+)", run.stderr).group(1)
    seconds = sum(float(x) * 60 ** k for k, x in enumerate(reversed(clock.split(":"))))
    return round(rss / 1024, 1), round(seconds, 1), run.returncode


def run(sizes: list[int], commands: list[str]) -> dict:
    out: dict = {"sizes": sizes, "peak_rss_mb": {}, "seconds": {}, "exit": {}}
    with tempfile.TemporaryDirectory() as tmp:
        for n in sizes:
            src = Path(tmp) / f"in{n}.jsonl"
            write_records(src, n)
            for name in commands:
                work = Path(tmp) / f"{name}{n}"
                work.mkdir()
                args = [a.format(input=src, out=work) for a in COMMANDS[name]]
                rss, seconds, code = peak_rss_mb(args)
                out["peak_rss_mb"].setdefault(name, {})[n] = rss
                out["seconds"].setdefault(name, {})[n] = seconds
                out["exit"].setdefault(name, {})[n] = code
    for name, by_size in out["peak_rss_mb"].items():
        if len(by_size) > 1:
            first, last = by_size[min(by_size)], by_size[max(by_size)]
            out.setdefault("ratio_largest_to_smallest", {})[name] = round(last / first, 3)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 20000])
    parser.add_argument("--commands", nargs="+", choices=sorted(COMMANDS), default=list(COMMANDS))
    a = parser.parse_args()
    print(json.dumps(run(a.sizes, a.commands), indent=2))


if __name__ == "__main__":
    main()
