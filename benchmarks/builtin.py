"""The built-in benchmarks, each with its loader and its evaluator (entry points in ``setup.cfg``).

>>> HAT.evaluate is FOIL.evaluate, DETAILVERIFY.load is detailverify.load
(True, True)
"""

from __future__ import annotations

from benchmarks.evaluate import evaluate_alignbench, evaluate_captions, evaluate_detailverify
from benchmarks.loaders import alignbench, detailverify, foil, hat
from benchmarks.registry import BenchmarkInfo

HAT = BenchmarkInfo(
    "hat",
    hat.load,
    evaluate_captions,
    "the ALOHa HAT JSON (caption, grounding, contains_hallucination, references, image_path)",
    "optional: folder of the COCO images named by image_path",
    "caption; words",
    "references (+ image with --images)",
)
FOIL = BenchmarkInfo(
    "foil",
    foil.load,
    evaluate_captions,
    "the nocaps-FOIL JSON (baseline, foil, replacement, references, domain, image_path)",
    "optional: folder of the nocaps images named by image_path",
    "caption (clean and foil of each pair)",
    "references (+ image with --images)",
)
ALIGNBENCH = BenchmarkInfo(
    "alignbench",
    alignbench.load,
    evaluate_alignbench,
    "halcap_bench.jsonl of omron-sinicx/AlignBench (one row per sentence)",
    "needed by image judges: folder with COCO/CC12M images (found by name) and images/... of the repo",
    "sentence (unknown excluded); error-word segments",
    "image only (no references)",
)
DETAILVERIFY = BenchmarkInfo(
    "detailverify",
    detailverify.load,
    evaluate_detailverify,
    "DetailVerifyBench real or synthetic JSONL, or the project page's examples.json",
    "needed by image judges: folder with CATEGORY/FILENAME images",
    "token; sentence; caption",
    "image only (no references)",
)
