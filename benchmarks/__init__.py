"""Benchmark loaders, metrics and runners; `python -m benchmarks.perf` is the speed harness."""
