"""How sure the report's per-model figures are: a 95 % bootstrap interval for each model's HalRate,
CHAIRs and verdict rate over its captions, and for each two models with captions of the same
images a paired test of their difference, so a reader sees which differences are real.

All three figures are means over captions of a per-caption value (object HalRate; 1 when the
caption names a COCO object the image lacks, else 0; 1 when the caption is judged hallucinated),
so one resampling scheme serves them: captions are resampled with replacement
(:func:`scipy.stats.bootstrap`, percentile intervals: BCa fails on the all-equal samples small
models give). Two models' captions are paired by id -- a COCO results file's id is the image id
-- and their difference gets a paired bootstrap interval and a two-sided sign-flip permutation
p-value (:func:`scipy.stats.permutation_test`, exact for up to 11 pairs). Resampling is seeded:
a report is the same on every run.

>>> rows = [Row("a", str(i), h, h, h) for i, h in enumerate([0, 1] * 20)] + \\
...        [Row("b", str(i), 1.0, 1, 1) for i in range(40)]
>>> iv = model_intervals(rows)["a"]["hal_rate"]
>>> (iv.value, iv.low < 0.5 < iv.high)
(0.5, True)
>>> p = paired_tests(rows)[0]
>>> (p.a, p.b, p.metric, p.n, p.diff, p.p_value < 0.01)
('a', 'b', 'hal_rate', 40, -0.5, True)
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import asdict, dataclass
from itertools import combinations
from typing import Any

import numpy as np

from cece.report.tables import Table

METRICS = {"hal_rate": "HalRate", "chair_s": "CHAIRs", "verdict": "Verdict rate"}
RESAMPLES = 2000
SEED = 20180901  # any fixed number: the intervals must not move between runs of one report
LEVEL = 0.95


@dataclass
class Row:
    """One caption's values: its model, id (pairs captions of two models) and the three figures."""

    model: str
    id: str
    hal_rate: float
    chair_s: float
    verdict: float


@dataclass
class Interval:
    value: float
    low: float
    high: float
    n: int


@dataclass
class Paired:
    a: str
    b: str
    metric: str
    n: int  # captions of the same images
    diff: float  # mean of a - b
    low: float
    high: float
    p_value: float


def _mean(x: np.ndarray, axis: int = -1) -> Any:  # the means along axis: an array, or one number
    return np.mean(x, axis=axis)


def _interval(values: list[float]) -> Interval:
    from scipy.stats import bootstrap

    x = np.asarray(values, dtype=float)
    if len(x) < 2 or np.all(x == x[0]):  # nothing to resample: the interval is the value
        v = float(x.mean()) if len(x) else float("nan")
        return Interval(round(v, 4), round(v, 4), round(v, 4), len(x))
    res = bootstrap(
        (x,),
        _mean,
        n_resamples=RESAMPLES,
        confidence_level=LEVEL,
        method="percentile",
        vectorized=True,
        random_state=np.random.default_rng(SEED),
    )
    ci = res.confidence_interval
    return Interval(round(float(x.mean()), 4), round(float(ci.low), 4), round(float(ci.high), 4), len(x))


def model_intervals(rows: Iterable[Row]) -> dict[str, dict[str, Interval]]:
    """Per model, per figure, its value and 95 % bootstrap interval over the model's captions."""
    by_model: dict[str, list[Row]] = {}
    for r in rows:
        by_model.setdefault(r.model, []).append(r)
    return {m: {k: _interval([getattr(r, k) for r in rs]) for k in METRICS} for m, rs in by_model.items()}


def _diff(a: np.ndarray, b: np.ndarray, axis: int = -1) -> Any:  # as _mean
    return np.mean(a - b, axis=axis)


def _paired(a: np.ndarray, b: np.ndarray) -> tuple[float, float, float]:
    """(low, high, p) of the mean paired difference a - b."""
    from scipy.stats import bootstrap, permutation_test

    d = a - b
    if np.all(d == 0):
        return 0.0, 0.0, 1.0
    rng = np.random.default_rng(SEED)
    p = permutation_test(
        (a, b), _diff, permutation_type="samples", n_resamples=RESAMPLES, vectorized=True, random_state=rng
    ).pvalue
    if np.all(d == d[0]):  # every pair differs alike: no resample moves the mean
        return float(d[0]), float(d[0]), float(p)
    ci = bootstrap(
        (a, b),
        _diff,
        paired=True,
        n_resamples=RESAMPLES,
        confidence_level=LEVEL,
        method="percentile",
        vectorized=True,
        random_state=rng,
    ).confidence_interval
    return float(ci.low), float(ci.high), float(p)


def paired_tests(rows: Iterable[Row]) -> list[Paired]:
    """For each two models with captions of the same ids (at least two), each figure's mean
    difference on those captions, its 95 % paired bootstrap interval and permutation p-value."""
    by_model: dict[str, dict[str, Row]] = {}
    for r in rows:
        by_model.setdefault(r.model, {})[r.id] = r
    out = []
    for a, b in combinations(by_model, 2):
        common = [i for i in by_model[a] if i in by_model[b]]
        if len(common) < 2:
            continue
        for k in METRICS:
            x = np.array([getattr(by_model[a][i], k) for i in common], dtype=float)
            y = np.array([getattr(by_model[b][i], k) for i in common], dtype=float)
            low, high, p = _paired(x, y)
            out.append(
                Paired(
                    a, b, k, len(common), round(float((x - y).mean()), 4), round(low, 4), round(high, 4), round(p, 4)
                )
            )
    return out


def _fmt(iv: Interval) -> str:
    return f"{iv.value:.3f} [{iv.low:.3f}, {iv.high:.3f}]"


def interval_tables(rows: list[Row]) -> list[Table]:
    """The two report tables: per-model intervals, and the paired tests (when any two models
    share images)."""
    intervals = model_intervals(rows)
    headers = ["Model", "Captions"] + [f"{v} [95 % CI]" for v in METRICS.values()]
    records: list[dict[str, Any]] = []
    table_rows = []
    for m, ivs in intervals.items():
        n = next(iter(ivs.values())).n
        table_rows.append([m, str(n)] + [_fmt(ivs[k]) for k in METRICS])
        rec: dict[str, Any] = {"model": m, "n_captions": n}
        for k in METRICS:
            rec.update({k: ivs[k].value, f"{k}_low": ivs[k].low, f"{k}_high": ivs[k].high})
        records.append(rec)
    fields = list(records[0]) if records else ["model"]
    out = [
        Table(
            "intervals",
            "Per-model figures with 95 % bootstrap intervals",
            headers,
            table_rows,
            fields,
            records,
            f"Bootstrap over each model's captions ({RESAMPLES} resamples, percentile "
            "intervals). HalRate = mean object HalRate per caption; CHAIRs = share of captions naming a "
            "COCO object the image lacks; Verdict rate = share of captions judged hallucinated.",
        )
    ]
    tests = paired_tests(rows)
    if tests:
        out.append(
            Table(
                "paired",
                "Paired differences between models (same images)",
                ["Model A", "Model B", "Figure", "Pairs", "A - B [95 % CI]", "p"],
                [
                    [
                        t.a,
                        t.b,
                        METRICS[t.metric],
                        str(t.n),
                        f"{t.diff:+.3f} [{t.low:+.3f}, {t.high:+.3f}]",
                        f"{t.p_value:.4f}",
                    ]
                    for t in tests
                ],
                list(asdict(tests[0])),
                [asdict(t) for t in tests],
                "Captions of two models paired by id (a COCO results file's id is its image id). Interval: "
                "paired bootstrap of the mean difference; p: two-sided sign-flip permutation test. An "
                "interval that holds 0 (p >= 0.05) is a difference these captions do not show to be real.",
            )
        )
    return out
