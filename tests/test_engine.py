"""The engines (cece/engine.py): results in input order from one process, a local pool and Ray;
`cece explain --workers N` and `--engine ray` write the very bytes of `--workers 1`, resume alike,
and a dying worker is a clear error. No timings are asserted."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from cli import main
from cece.engine import EngineError, EngineOptions, run_ordered

CAPTIONS = ["A dog on a sofa.", "A girl eating a pizza next to a cat.", "A cat sleeping on a bed next to a lamp.",
            "Two men riding horses on a beach.", "A red car parked near a tree."]
LABELS = ["dog", "sofa", "woman", "pizza", "cat", "bed", "man", "horse", "beach", "car", "tree"]
REFS = ["A woman holds a pizza.", "A cat lies on a bed.", "Two horses on the sand.", "A dog on a couch."]


class Slow:
    """The first batch of each pair takes longest, so results come back out of order."""

    def setup(self) -> None:
        self.pid = os.getpid()

    def __call__(self, batch: list[int]) -> tuple[list[int], int]:
        time.sleep(0.3 if batch[0] % 2 == 0 else 0.0)
        return [x * 10 for x in batch], self.pid


class Crash:
    """A worker that dies on its first batch."""

    def setup(self) -> None:
        pass

    def __call__(self, batch: list[int]) -> list[int]:
        os._exit(3)


class Threads:
    """What a worker's math libraries may use: torch's threads and the BLAS / OpenMP pools."""

    def setup(self) -> None:
        pass

    def __call__(self, batch: list[int]) -> tuple[int, set[int]]:
        import torch
        from threadpoolctl import threadpool_info

        return torch.get_num_threads(), {p["num_threads"] for p in threadpool_info()}


def records(n: int) -> list[dict]:
    out = []
    for i in range(n):
        r = {"id": f"r{i:03d}", "model": "m", "caption": CAPTIONS[i % len(CAPTIONS)]}
        if i % 3 == 2:
            r["references"] = REFS[i % 4:] + REFS[:i % 4]
        else:
            r["annotation"] = LABELS[: 3 + i % 8]
        out.append(r)
    out[7] = {"id": "r007", "caption": 42, "annotation": ["dog"]}  # a bad record keeps its place
    return out


@pytest.fixture(scope="module")
def source(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("engine") / "in.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in records(36)))
    return path


@pytest.fixture(scope="module")
def single(source: Path) -> bytes:
    out = source.with_name("single.jsonl")
    r = CliRunner().invoke(main, ["explain", str(source), "-q", "-o", str(out), "--workers", "1",
                                  "--batch-size", "4"])
    assert r.exit_code == 2, r.output  # the bad record
    return out.read_bytes()


def test_in_process_results_keep_their_order():
    assert list(run_ordered(Slow(), [[0, 1], [2], [3, 4]], workers=1)) == [
        ([0, 10], os.getpid()), ([20], os.getpid()), ([30, 40], os.getpid())]


def test_a_pool_returns_results_in_input_order_from_other_processes():
    got = list(run_ordered(Slow(), [[i] for i in range(8)], workers=2))
    assert [x for x, _ in got] == [[i * 10] for i in range(8)]
    pids = {pid for _, pid in got}
    assert os.getpid() not in pids and len(pids) == 2


def test_pool_workers_share_the_cores_among_their_math_threads(monkeypatch):
    from cece.engine import usable_cores

    for var in ("OMP_NUM_THREADS", "MKL_NUM_THREADS"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("OPENBLAS_NUM_THREADS", "")  # set but empty is not a thread count
    share = max(1, usable_cores() // 2)
    for torch_threads, pools in run_ordered(Threads(), [[0], [1], [2]], workers=2):
        assert torch_threads == share and pools <= {share}


def test_one_worker_holds_its_math_threads_to_one_core_and_gives_them_back(monkeypatch):
    import torch
    from threadpoolctl import threadpool_info

    for var in ("OMP_NUM_THREADS", "MKL_NUM_THREADS", "OPENBLAS_NUM_THREADS"):
        monkeypatch.delenv(var, raising=False)
    original = torch.get_num_threads()
    torch.set_num_threads(2)  # as on a 2-core machine: the run must hold it to 1, then give it back
    before = {p["filepath"]: p["num_threads"] for p in threadpool_info()}
    try:
        for torch_threads, pools in run_ordered(Threads(), [[0], [1]], workers=1):
            assert torch_threads == 1 and pools == {1}
        assert torch.get_num_threads() == 2
        assert {p["filepath"]: p["num_threads"] for p in threadpool_info()} == before
    finally:
        torch.set_num_threads(original)


def test_the_default_number_of_workers_keeps_a_short_input_in_this_process():
    got = list(run_ordered(Slow(), [[i] for i in range(6)]))
    assert {pid for _, pid in got} == {os.getpid()}


def test_a_dying_worker_is_an_engine_error():
    with pytest.raises(EngineError, match="worker process died"):
        list(run_ordered(Crash(), [[1], [2], [3]], workers=2))


def test_options_are_checked():
    with pytest.raises(ValueError, match="unknown engine"):
        EngineOptions("dask")
    with pytest.raises(ValueError, match="--address only applies"):
        EngineOptions("local", address="auto")
    r = CliRunner().invoke(main, ["explain", "-", "--address", "auto"], input="")
    assert r.exit_code == 2 and "--address only applies to --engine ray" in r.output


def test_two_workers_resume_a_killed_run_and_write_the_bytes_of_one(source: Path, single: bytes):
    out = source.with_name("two.jsonl")
    lines = single.splitlines(keepends=True)
    out.write_bytes(b"".join(lines[:5]) + lines[5][:20])  # a killed run: 5 rows and a torn one
    r = CliRunner().invoke(main, ["explain", str(source), "-q", "-o", str(out), "--workers", "2", "--batch-size", "4"])
    assert r.exit_code == 2 and "cut short" in r.stderr and "31 written" in r.stderr and "5 skipped" in r.stderr
    assert out.read_bytes() == single


def test_the_parent_of_two_workers_never_loads_spacy_or_torch(source: Path, single: bytes):
    """It reads, checks and writes the records; the models load in the workers only (spaCy's
    import alone, with thinc and torch, held every multi-worker run up by 3 s)."""
    import subprocess
    import sys

    out = source.with_name("parent.jsonl")
    code = ("import sys\nfrom cli import main\ntry:\n"
            f"    main(['explain', {str(source)!r}, '-q', '-o', {str(out)!r}, '--workers', '2', '--batch-size', '4'])\n"
            "except SystemExit:\n    pass\n"
            "print(sorted(m for m in ('spacy', 'torch', 'thinc', 'lemminflect') if m in sys.modules))")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert r.stdout.splitlines()[-1:] == ["[]"], r.stdout[-500:] + r.stderr[-2000:]
    assert out.read_bytes() == single


@pytest.fixture(scope="module")
def local_ray():
    import ray

    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield ray
    ray.shutdown()


def test_ray_writes_the_bytes_of_one_process(local_ray, source: Path, single: bytes):
    out = source.with_name("ray.jsonl")
    r = CliRunner().invoke(main, ["explain", str(source), "-q", "-o", str(out), "--engine", "ray",
                                  "--workers", "2", "--batch-size", "4"])
    assert r.exit_code == 2, r.output
    assert out.read_bytes() == single
    assert local_ray.is_initialized()  # a Ray the caller started is left running


def test_detect_with_two_workers_writes_the_lines_of_one(source: Path):
    outs = []
    for w in ("1", "2"):
        out = source.with_name(f"detect{w}.jsonl")
        r = CliRunner().invoke(main, ["detect", str(source), "-d", "lexical", "-d", "halcece", "-o", str(out),
                                      "-q", "--workers", w, "--batch-size", "8"])
        assert r.exit_code == 2, r.output  # the bad record, and lexical on records without references
        outs.append(out.read_bytes())
    assert outs[0] == outs[1] and outs[0].count(b"\n") == 72


def test_report_with_two_workers_is_the_report_of_one(source: Path, tmp_path: Path):
    for w in ("1", "2"):
        r = CliRunner().invoke(main, ["report", str(source), "-o", str(tmp_path / w), "--workers", w,
                                      "--batch-size", "4"])
        assert r.exit_code == 2, r.output
    for name in ("explanations.jsonl", "index.html"):
        assert (tmp_path / "1" / name).read_bytes() == (tmp_path / "2" / name).read_bytes(), name
