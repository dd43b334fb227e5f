"""Labelled hallucinations generated from reference sets, written in HAT's schema.

Several human captions of one image are a reference set. One of them becomes the caption and the
others its evidence; the caption is left as it is (clean) or given one hallucination of a kind
from :mod:`benchmarks.perturb` (object, attribute, count, state, relation, added, companion), with its
changed words labelled. About half the records are clean; the perturbed half spreads over the
kinds (each record tries the kinds made least so far first, and skips those its caption does
not allow). Deterministic for a seed::

    python -m benchmarks.generate nocaps-foil-train.json -o generated.json --seed 0
    cece bench run hat --data generated.json -d halcece -o runs/gen
    python -m benchmarks.by_kind generated.json runs/gen      # figures per perturbation kind

Input: any JSON list or JSONL of records with a ``references`` list (HAT, nocaps-FOIL, or
``{"references": [...]}`` lines); a nocaps-FOIL record's ``baseline`` is one more human caption
of its image and joins the set. A record: ``sample_id``, ``caption``, ``grounding``
(``[word, hallucinated]`` per ``caption.split()`` word), ``contains_hallucination``,
``references`` (the evidence), ``image_path`` (the source's, or ""), ``perturbation`` (the
kind, or "clean"), ``original`` (the caption before it) and ``source`` (the input record's
position).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from benchmarks.companions import Companions, companions, nouns
from benchmarks.loaders.common import Checker, DataError, benchmark_records
from benchmarks.perturb import KINDS, Perturbed, perturb

CLEAN_SHARE = 0.5


def reference_sets(path: str | os.PathLike) -> Iterator[tuple[int, list[str], str]]:
    """``(position, references, image_path)`` of each record of a reference-set file; a record
    without a ``references`` list of strings is a :class:`DataError` naming file, record and field."""
    for k, (where, rec) in enumerate(benchmark_records(path)):
        c = Checker(path, where, rec)
        refs = list(c.strings("references"))
        base = c.string("baseline", optional=True)
        if base and base.strip() not in {r.strip() for r in refs}:
            refs.append(base)
        yield k, [" ".join(r.split()) for r in refs if r.strip()], c.string("image_path", optional=True) or ""


def generate(
    sets: Iterable[tuple[int, Sequence[str], str]],
    *,
    seed: int = 0,
    n: int | None = None,
    evidence: int | tuple[int, int] | None = None,
    per_set: int = 1,
    kinds: Sequence[str] = KINDS,
    warn: Callable[[str], None] | None = None,
) -> list[dict[str, Any]]:
    """HAT-schema records from ``sets`` (``(source position, references, image path)``):
    ``per_set`` captions per set (different references), each with at most ``evidence`` of the
    others as its evidence (all by default; ``(lo, hi)``: a number drawn from lo to hi for each
    caption, so that how many references there are is not a property of one training source),
    at most ``n`` records in all. A set with fewer
    than two references is passed over; one that fails is reported to ``warn`` and passed over."""
    rng = random.Random(seed)
    made: Counter[str] = Counter()
    out: list[dict[str, Any]] = []
    sets = list(sets)
    # each set read once: for what other images have beside a thing, and what this one names
    read = [nouns(refs) if "companion" in kinds else [] for _, refs, _ in sets]
    seen = companions(read)
    for (source, refs, image), named in zip(sets, read, strict=True):
        if len(refs) < 2:
            continue
        scene = Scene(seen, frozenset(w for w, _ in named))
        used: set[int] = set()
        for pick in rng.sample(range(len(refs)), min(per_set, len(refs))):
            if pick in used:
                continue
            if n is not None and len(out) >= n:
                return out
            try:
                found = _one(refs, pick, used, evidence, kinds, made, rng, scene)
            except Exception as exc:  # noqa: BLE001 -- one set's failure never ends the run
                if warn:
                    warn(f"reference set {source}: {type(exc).__name__}: {exc}")
                break
            if found is None:
                continue
            pick, others, result = found
            made[result.kind] += 1
            used.add(pick)
            out.append(
                {
                    "sample_id": f"{source}:{pick}:{result.kind}",
                    "caption": result.caption,
                    "grounding": [[w, y] for w, y in zip(result.caption.split(), result.labels, strict=True)],
                    "contains_hallucination": any(result.labels),
                    "references": others,
                    "image_path": image,
                    "perturbation": result.kind,
                    "original": result.original,
                    "source": source,
                }
            )
    return out


def _one(
    refs: Sequence[str],
    pick: int,
    used: set[int],
    evidence: int | tuple[int, int] | None,
    kinds: Sequence[str],
    made: Counter[str],
    rng: random.Random,
    scene: Scene,
) -> tuple[int, list[str], Perturbed] | None:
    """``(caption index, evidence, result)`` for the caption ``refs[pick]``: clean or, as often,
    perturbed -- the least-made kinds tried first, ties in random order, so the kinds stay
    balanced. A caption that allows none hands over to the set's next unused reference (were it
    made clean instead, clean records would outnumber the perturbed ones); None when none does."""
    others = _evidence(refs, pick, evidence, rng)
    if rng.random() < CLEAN_SHARE:
        clean = perturb(refs[pick], others, "clean", rng=rng)
        assert clean is not None  # a clean copy can always be made
        return pick, others, clean
    order = sorted(kinds, key=lambda k: (made[k], rng.random()))
    for i in [pick, *(i for i in range(len(refs)) if i != pick and i not in used)]:
        others = _evidence(refs, i, evidence, rng) if i != pick else others
        result = next((p for k in order if (p := scene.perturb(refs[i], others, k, rng))), None)
        if result is not None:
            return i, others, result
    return None


@dataclass(frozen=True)
class Scene:
    """What the ``companion`` kind needs of the whole input: what other images have beside each
    thing, and the things this image's references name."""

    companions: Companions
    present: frozenset[str]

    def perturb(self, caption: str, others: Sequence[str], kind: str, rng: random.Random) -> Perturbed | None:
        return perturb(caption, others, kind, rng=rng, companions=self.companions, present=self.present)


def _evidence(refs: Sequence[str], pick: int, k: int | tuple[int, int] | None, rng: random.Random) -> list[str]:
    """The references other than ``refs[pick]``, at most ``k`` of them (drawn, in order; ``k`` a
    range ``(lo, hi)``: at most a number drawn from it)."""
    others = [r for i, r in enumerate(refs) if i != pick]
    if isinstance(k, tuple):
        k = rng.randint(*k)
    if k is not None and k < len(others):
        others = [others[i] for i in sorted(rng.sample(range(len(others)), k))]
    return others


def _count(text: str) -> int:
    if not text.isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"expected a whole number from 1, got {text!r}")
    return int(text)


def _count_or_range(text: str) -> int | tuple[int, int]:
    """``K`` or ``LO-HI`` (whole numbers from 1, LO <= HI)."""
    lo, dash, hi = text.partition("-")
    if not dash:
        return _count(text)
    a, b = _count(lo), _count(hi)
    if a > b:
        raise argparse.ArgumentTypeError(f"expected LO-HI with LO <= HI, got {text!r}")
    return a, b


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.generate",
        description=(
            "Generate labelled hallucinations from reference sets (HAT / nocaps-FOIL JSON, or JSONL of "
            '{"references": [...]}) into a HAT-schema JSON file that `cece bench run hat` reads.'
        ),
    )
    parser.add_argument("refsets", help="file of records with a references list")
    parser.add_argument("-o", "--output", required=True, help="where the generated JSON list goes")
    parser.add_argument("--seed", type=int, default=0, help="random seed (same seed, same file)")
    parser.add_argument("--n", type=_count, help="at most N records")
    parser.add_argument(
        "--evidence",
        type=_count_or_range,
        metavar="K|LO-HI",
        help="at most K references as evidence (LO-HI: a number drawn for each caption)",
    )
    parser.add_argument(
        "--per-set", type=_count, default=1, metavar="M", help="captions taken from each reference set (default 1)"
    )
    args = parser.parse_args(argv)
    try:
        records = generate(
            reference_sets(args.refsets),
            seed=args.seed,
            n=args.n,
            evidence=args.evidence,
            per_set=args.per_set,
            warn=lambda m: print(f"warning: {m}", file=sys.stderr),
        )
    except DataError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    tmp = args.output + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        json.dump(records, f, ensure_ascii=False, indent=1)
    os.replace(tmp, args.output)
    counts = Counter(r["perturbation"] for r in records)
    print(f"{len(records)} records -> {args.output}")
    for kind in ("clean", *KINDS):
        print(f"  {kind:<10} {counts.get(kind, 0)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
