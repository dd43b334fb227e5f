"""A detector's figures on generated data (:mod:`benchmarks.generate`), one row per perturbation kind.

After ``cece bench run hat --data generated.json -d halcece -o RUNDIR``::

    python -m benchmarks.by_kind generated.json RUNDIR [-d halcece]

prints, per kind, the records made, the share flagged (verdict recall; for clean records the
share wrongly flagged), the mean score, AUROC of the kind's records against the clean ones, LA
(the top span hits a changed word) and gold-word recall (changed words a marked span covers),
as :func:`benchmarks.evaluate.evaluate_captions` computes them on that kind and the clean records.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from benchmarks.evaluate import evaluate_captions
from benchmarks.leaderboard import markdown_table
from benchmarks.loaders.common import CaptionGold, benchmark_records
from benchmarks.loaders.hat import load
from benchmarks.run import prediction_path, read_predictions
from detectors.base import Detection

HEADER = ["kind", "records", "flagged", "mean score", "AUROC vs clean", "LA", "gold-word R"]


def kind_rows(
    kinds: Mapping[str, str], gold: Mapping[str, CaptionGold], dets: Mapping[str, Detection], *, threshold: float = 0.5
) -> list[list[Any]]:
    """One row per kind (clean first) in :data:`HEADER`'s columns; ``kinds`` maps sample id to
    its perturbation."""
    clean = [i for i in gold if kinds.get(i) == "clean"]
    rows = []
    for kind in ["clean", *sorted({k for k in kinds.values() if k != "clean"})]:
        ids = [i for i in gold if kinds.get(i) == kind]
        if not ids:
            continue
        scores = [float(dets[i].score or 0.0) if i in dets and dets[i].error is None else 0.0 for i in ids]
        sub = {i: gold[i] for i in (ids if kind == "clean" else clean + ids)}
        s = evaluate_captions(sub, dets, threshold).summary
        flagged = s["flagged clean"] if kind == "clean" else s["verdict R"]
        rows.append(
            [
                kind,
                len(ids),
                flagged,
                sum(scores) / len(scores),
                *((None,) * 3 if kind == "clean" else (s["AUROC"], s["LA"], s["gold-word R"])),
            ]
        )
    return rows


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.by_kind",
        description="Per-perturbation figures of a `cece bench run hat` on generated data.",
    )
    parser.add_argument("generated", help="the generated JSON (python -m benchmarks.generate)")
    parser.add_argument("rundir", help="the run directory of `cece bench run hat --data GENERATED`")
    parser.add_argument("-d", "--detector", default="halcece", help="whose predictions (default halcece)")
    parser.add_argument("--threshold", type=float, default=0.5)
    args = parser.parse_args(argv)
    _, gold = load(args.generated)
    kinds = {}
    for k, (_, rec) in enumerate(benchmark_records(args.generated)):
        rid = str(rec["sample_id"]) if rec.get("sample_id") is not None else str(k)
        kinds[rid] = str(rec.get("perturbation", "clean" if not rec.get("contains_hallucination") else "unknown"))
    dets = read_predictions(prediction_path(Path(args.rundir), args.detector))
    if not dets:
        print(f"error: no predictions of {args.detector!r} in {args.rundir}", file=sys.stderr)
        return 1
    print(markdown_table(HEADER, kind_rows(kinds, gold, dets, threshold=args.threshold)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
