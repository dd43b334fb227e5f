"""Memory harness: peak RSS of `cece explain`, `cece detect` and `cece report` on 1,000 and 20,000
generated records, each run in a fresh process under ``/usr/bin/time -v``; prints JSON.

``python -m benchmarks.memory [--sizes 1000 20000] [--commands explain detect report]``

The records are short captions (:func:`benchmarks.synthetic.make_captions`) with a four-label
annotation, three models, written as JSONL to a temporary folder. The one reader streams its
input and every command writes each row as it is made, so peak RSS should stay nearly flat
from 1k to 20k records; the ratio ``20k / 1k`` is printed for each command. No figure is
asserted anywhere: this machine's load changes them. ``explain`` runs with ``--workers 1``, so
that one process holds the whole run (``/usr/bin/time`` reports the largest single process).

The ``scene_graphs`` case writes a Visual Genome ``scene_graphs.json``-shaped file of about
``--scene-graphs-mb`` MB (400 by default; the real one is 739 MB) to the temporary folder and a
COCO results file of ``--captions`` captions (300) on images spread over it, then times
``cece explain RESULTS --annotations scene_graphs.json`` (peak RSS, seconds) beside one bare
streaming read of the file (:func:`parsers.annotation_files.read_annotation_file`, the same
images wanted), so the share of the run spent reading the file shows. Nothing is committed: the
file is generated at run time.

``python -m benchmarks.memory --cases scene_graphs [--scene-graphs-mb 400] [--captions 300]``
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
            f.write(
                json.dumps({"id": i, "model": f"m{i % 3}", "caption": caption, "annotation": rng.sample(NOUNS, 4)})
                + "\n"
            )


def _time_field(pattern: str, report: str) -> str:
    """One figure of GNU time's ``-v`` report; a RuntimeError when the report lacks it."""
    m = re.search(pattern, report)
    if m is None:
        raise RuntimeError(f"/usr/bin/time -v printed no {pattern!r}: {report[-300:]!r}")
    return m.group(1)


def peak_rss_mb(args: list[str]) -> tuple[float, float, int]:
    """(peak RSS in MB, wall seconds, exit status) of ``cece ARGS`` in a fresh process."""
    cece = str(Path(sys.executable).with_name("cece"))
    run = subprocess.run(["/usr/bin/time", "-v", cece, *args], capture_output=True, text=True)
    rss = int(_time_field(r"Maximum resident set size \(kbytes\): (\d+)", run.stderr))
    clock = _time_field(r"Elapsed \(wall clock\) time \(h:mm:ss or m:ss\): ([\d:.]+)", run.stderr)
    seconds = sum(float(x) * 60**k for k, x in enumerate(reversed(clock.split(":"))))
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


def write_scene_graphs(path: Path, megabytes: float, seed: int = 1) -> int:
    """A ``scene_graphs.json``-shaped file of about ``megabytes`` MB (images of 25 objects with
    names, synsets, boxes and attributes, and 20 relationships); returns the number of images."""
    rng = random.Random(seed)
    target = megabytes * 1e6
    written, image = 0, 0
    with path.open("w", encoding="utf-8") as f:
        f.write("[")
        while written < target:
            image += 1
            objects = [
                {
                    "object_id": image * 100 + k,
                    "names": [n],
                    "synsets": [f"{n}.n.01"],
                    "x": rng.randrange(500),
                    "y": rng.randrange(500),
                    "w": rng.randrange(1, 200),
                    "h": rng.randrange(1, 200),
                    "attributes": rng.sample(["red", "small", "wooden", "old"], 2),
                }
                for k, n in enumerate(rng.choices(NOUNS, k=25))
            ]
            rels = [
                {
                    "relationship_id": image * 100 + k,
                    "predicate": rng.choice(["on", "near", "holding"]),
                    "synsets": ["along.r.01"],
                    "subject_id": rng.choice(objects)["object_id"],
                    "object_id": rng.choice(objects)["object_id"],
                }
                for k in range(20)
            ]
            text = json.dumps({"relationships": rels, "image_id": image, "objects": objects})
            f.write(("," if image > 1 else "") + text)
            written += len(text) + 1
        f.write("]")
    return image


def scene_graphs_case(tmp: Path, megabytes: float, captions: int) -> dict:
    """Peak RSS and seconds of ``cece explain`` on COCO results with a big ``--annotations`` file."""
    import time

    from parsers.annotation_files import read_annotation_file

    graphs = tmp / "scene_graphs.json"
    images = write_scene_graphs(graphs, megabytes)
    rng = random.Random(2)
    wanted = sorted(rng.sample(range(1, images + 1), captions))
    results = tmp / "results.json"
    results.write_text(
        json.dumps([{"image_id": i, "caption": c} for i, c in zip(wanted, make_captions(captions), strict=True)])
    )
    start = time.perf_counter()
    found = read_annotation_file(graphs, {str(i) for i in wanted})
    read_seconds = time.perf_counter() - start
    assert len(found.by_image) == captions, "the generated results ask for images the file lacks"
    del found
    rss, seconds, code = peak_rss_mb(
        ["explain", str(results), "--annotations", str(graphs), "-q", "-w", "1", "-o", str(tmp / "sg_explained.jsonl")]
    )
    return {
        "file_mb": round(graphs.stat().st_size / 1e6, 1),
        "images": images,
        "captions": captions,
        "peak_rss_mb": rss,
        "seconds": seconds,
        "exit": code,
        "read_once_seconds": round(read_seconds, 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 20000])
    parser.add_argument("--commands", nargs="+", choices=sorted(COMMANDS), default=list(COMMANDS))
    parser.add_argument("--cases", nargs="+", choices=["records", "scene_graphs"], default=["records", "scene_graphs"])
    parser.add_argument("--scene-graphs-mb", type=float, default=400.0)
    parser.add_argument("--captions", type=int, default=300)
    a = parser.parse_args()
    out: dict = {}
    if "records" in a.cases:
        out.update(run(a.sizes, a.commands))
    if "scene_graphs" in a.cases:
        with tempfile.TemporaryDirectory() as tmp:
            out["scene_graphs"] = scene_graphs_case(Path(tmp), a.scene_graphs_mb, a.captions)
    print(json.dumps(out, indent=2))


if __name__ == "__main__":
    main()
