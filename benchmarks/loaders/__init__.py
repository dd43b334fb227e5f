"""Benchmark loaders (one module per benchmark); the registry naming each benchmark, its loader
and its evaluator is :mod:`benchmarks.registry`.

A loader is ``load(path, images=None) -> (samples, gold)``: samples in the Sample contract
(``id``, ``caption``, ``references``?, ``image``?), gold a ``{sample id: labels}`` dict.
"""

from __future__ import annotations

from benchmarks.loaders.common import DataError
from benchmarks.registry import BENCHMARKS, BenchmarkInfo  # the registry, re-exported for loaders' users

__all__ = ["BENCHMARKS", "BenchmarkInfo", "DataError"]
