"""Benchmark loaders: ``BENCHMARKS`` names each benchmark, its loader and what it needs.

A loader is ``load(path, images=None) -> (samples, gold)``: samples in the Sample contract
(``id``, ``caption``, ``references``?, ``image``?), gold a ``{sample id: labels}`` dict.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from benchmarks.loaders import alignbench, detailverify, foil, hat
from benchmarks.loaders.common import DataError


@dataclass(frozen=True)
class BenchmarkInfo:
    name: str
    load: Callable[..., tuple[list[dict[str, Any]], dict[str, Any]]]
    data: str      # what --data points at
    images: str    # what --images adds
    unit: str      # what is scored
    provides: str  # what the samples carry for detectors


BENCHMARKS: dict[str, BenchmarkInfo] = {b.name: b for b in (
    BenchmarkInfo("hat", hat.load,
                  "the ALOHa HAT JSON (caption, grounding, contains_hallucination, references, image_path)",
                  "optional: folder of the COCO images named by image_path", "caption; words",
                  "references (+ image with --images)"),
    BenchmarkInfo("foil", foil.load,
                  "the nocaps-FOIL JSON (baseline, foil, replacement, references, domain, image_path)",
                  "optional: folder of the nocaps images named by image_path",
                  "caption (clean and foil of each pair)",
                  "references (+ image with --images)"),
    BenchmarkInfo("alignbench", alignbench.load,
                  "halcap_bench.jsonl of omron-sinicx/AlignBench (one row per sentence)",
                  "needed by image judges: folder with COCO/CC12M images (found by name) and images/... of the repo",
                  "sentence (unknown excluded); error-word segments", "image only (no references)"),
    BenchmarkInfo("detailverify", detailverify.load,
                  "DetailVerifyBench real or synthetic JSONL, or the project page's examples.json",
                  "needed by image judges: folder with CATEGORY/FILENAME images", "token; sentence; caption",
                  "image only (no references)"),
)}

__all__ = ["BENCHMARKS", "BenchmarkInfo", "DataError"]
