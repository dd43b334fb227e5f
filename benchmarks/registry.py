"""The benchmark registry: the entry-point group ``cece.benchmarks`` (see :mod:`cece.plugins`).

Each entry point names a :class:`BenchmarkInfo`: the benchmark's loader, its evaluator (which
returns an :class:`Evaluation`) and the help ``cece bench`` prints. The built-in four are declared
in ``setup.cfg`` (objects in :mod:`benchmarks.builtin`) exactly as another package declares its
own::

    [options.entry_points]
    cece.benchmarks =
        mybench = mypackage.bench:BENCHMARK

``cece bench list`` and ``cece doctor`` list them.

>>> sorted(BENCHMARKS)[:2], BENCHMARKS["hat"].unit
(['alignbench', 'detailverify'], 'caption; words')
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from cece.plugins import Registry

Loader = Callable[..., tuple[list[dict[str, Any]], dict[str, Any]]]


@dataclass
class Evaluation:
    """What an evaluator returns (:mod:`benchmarks.evaluate` says what each part holds): the
    leaderboard's ``summary`` columns, JSON-ready ``details``, the ``curve`` (labels, scores) of a
    PR plot, plot data that is not saved (``extra``) and the ``counts`` of the run."""

    summary: dict[str, float | None]
    details: dict[str, Any] = field(default_factory=dict)
    curve: tuple[list[int], list[float]] | None = None
    extra: dict[str, Any] = field(default_factory=dict)  # plot data that is not saved
    counts: dict[str, int] = field(default_factory=dict)  # valid, errors, parse_failures, dropped


Evaluator = Callable[[Mapping[str, Any], Mapping[str, Any], float], Evaluation]


@dataclass(frozen=True)
class BenchmarkInfo:
    """One benchmark: how to load it and how to score a detector on it.

    ``load(path, images=None) -> (samples, gold)``: samples in the Sample contract (``id``,
    ``caption``, ``references``?, ``image``?), gold a ``{sample id: labels}`` dict.
    ``evaluate(gold, detections, threshold) -> Evaluation`` (:mod:`benchmarks.evaluate`), with
    ``detections`` a ``{sample id: Detection}`` dict.
    """

    name: str
    load: Loader
    evaluate: Evaluator
    data: str  # what --data points at
    images: str  # what --images adds
    unit: str  # what is scored
    provides: str  # what the samples carry for detectors


BENCHMARKS: Registry[BenchmarkInfo] = Registry("cece.benchmarks", "benchmark")


def register_benchmark(info: BenchmarkInfo) -> BenchmarkInfo:
    """Add a benchmark for this process (tests, notebooks); installed packages use the entry point."""
    return BENCHMARKS.register(info.name, info)
