"""The engines (cece/engine.py): results in input order from one process, a local pool and Ray;
`cece explain --workers N` and `--engine ray` write the very bytes of `--workers 1`, resume alike;
the calling process works while its workers load; a worker killed mid-run (kill -9, a pool process
or a Ray actor) costs nothing but time, a record that kills every worker becomes its error row;
SIGTERM stops a run like Ctrl-C with status 143. No timings are asserted."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from cece.engine import EngineError, EngineOptions, run_ordered
from halcece import main
from tests.fixtures.tasks import BadSetup, Pid, Poison, Slow, Splittable, Threads

CAPTIONS = [
    "A dog on a sofa.",
    "A girl eating a pizza next to a cat.",
    "A cat sleeping on a bed next to a lamp.",
    "Two men riding horses on a beach.",
    "A red car parked near a tree.",
]
LABELS = ["dog", "sofa", "woman", "pizza", "cat", "bed", "man", "horse", "beach", "car", "tree"]
REFS = ["A woman holds a pizza.", "A cat lies on a bed.", "Two horses on the sand.", "A dog on a couch."]


def records(n: int) -> list[dict]:
    out = []
    for i in range(n):
        r = {"id": f"r{i:03d}", "model": "m", "caption": CAPTIONS[i % len(CAPTIONS)]}
        if i % 3 == 2:
            r["references"] = REFS[i % 4 :] + REFS[: i % 4]
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
    r = CliRunner().invoke(main, ["explain", str(source), "-q", "-o", str(out), "--workers", "1", "--batch-size", "4"])
    assert r.exit_code == 2, r.output  # the bad record
    return out.read_bytes()


def test_in_process_results_keep_their_order():
    assert list(run_ordered(Slow(), [[0, 1], [2], [3, 4]], workers=1)) == [
        ([0, 10], os.getpid()),
        ([20], os.getpid()),
        ([30, 40], os.getpid()),
    ]


def test_a_pool_returns_results_in_input_order_from_this_process_and_its_workers():
    got = list(run_ordered(Slow(), [[i] for i in range(16)], workers=2))
    assert [x for x, _ in got] == [[i * 10] for i in range(16)]
    pids = {pid for _, pid in got}
    assert os.getpid() in pids and len(pids) == 2


def test_this_process_explains_while_its_workers_load():
    """A worker still loading its models (here: 60 s) holds nothing up: the calling process
    does the batches itself, and the run ends without waiting for it."""
    got = list(run_ordered(Pid(load=60), [[i] for i in range(6)], workers=2))
    assert got == [([i * 10], os.getpid()) for i in range(6)]


def test_a_worker_killed_mid_run_costs_nothing_but_time():
    from tests.fixtures.processes import worker_pids

    got, killed = [], []
    for result, pid in run_ordered(Pid(pause=0.1), [[i] for i in range(40)], workers=3):
        got.append(result)
        if pid != os.getpid() and not killed:  # a worker is up and holds more batches: kill it
            os.kill(pid, signal.SIGKILL)
            killed.append(pid)
    assert got == [[i * 10] for i in range(40)] and killed
    assert killed[0] not in worker_pids(os.getpid())


def workers_only(task, batches: list, n: int = 2) -> list:
    """The batches on ``n`` worker processes, none in this one (where the pool would run the
    poisoned record only by chance)."""
    from cece.scheduler import schedule
    from cece.workers import Processes

    backend = Processes(task, 1)
    try:
        return list(schedule(task, iter(batches), backend, workers=n, limit=2 * n))
    finally:
        backend.close()


def test_a_worker_whose_pipe_gave_out_is_lost_not_waited_on():
    import threading

    from cece.workers import Processes

    backend = Processes(Slow(), 1)
    try:
        proc = backend.start()
        assert backend.wait(None) == [("ready", proc)]
        # its reader says the pipe gave out while the worker lives on, idle (seen once under
        # heavy load): the pool must count it lost and go on, not join it for ever
        backend.inbox.put((proc, None))
        events: list = []
        waiting = threading.Thread(target=lambda: events.extend(backend.wait(None)), daemon=True)
        waiting.start()
        waiting.join(timeout=120)  # a guard against hanging the suite, not a speed figure
        assert not waiting.is_alive() and [e[:2] for e in events] == [("lost", proc)]
        assert not proc.is_alive() and proc not in backend.conns
    finally:
        backend.close()


def test_a_record_that_kills_every_worker_is_found_and_becomes_its_failure():
    got = workers_only(Splittable(), [list(range(i, i + 4)) for i in range(0, 24, 4)])
    flat = [x for batch in got for x in batch]
    assert flat[:13] == [x * 10 for x in range(13)] and flat[14:] == [x * 10 for x in range(14, 24)]
    assert flat[13].startswith("lost 13: lost with its worker 2 times (worker process") and "SIGKILL" not in flat[13]
    assert "exit status 3" in flat[13]


def test_a_batch_that_kills_every_worker_stops_a_task_that_cannot_split():
    with pytest.raises(EngineError, match="a batch was lost with its worker 2 times.*exit status 3"):
        workers_only(Poison(), [[i] for i in range(20)])


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


def test_a_worker_that_cannot_set_up_stops_the_run_with_its_traceback():
    with pytest.raises(EngineError, match="(?s)could not set up its task.*FileNotFoundError: no model here"):
        workers_only(BadSetup(), [[i] for i in range(4)])


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


def _cece(*args: str) -> list[str]:
    return [sys.executable, "-m", "halcece", *args]


@pytest.fixture(scope="module")
def longer(tmp_path_factory) -> tuple[Path, bytes]:
    """Enough records for a run to be under way when a test stops part of it, and their output
    from one process."""
    path = tmp_path_factory.mktemp("longer") / "in.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in records(360)))
    out = path.with_name("single.jsonl")
    r = CliRunner().invoke(main, ["explain", str(path), "-q", "-o", str(out), "--workers", "1", "--batch-size", "4"])
    assert r.exit_code == 2, r.output
    return path, out.read_bytes()


def _two_workers_until(source: Path, out: Path, lines: int, act) -> tuple[int, str, list[int]]:
    """Run `cece explain --workers 2` on ``source``; once its worker is up and ``lines`` rows are
    written, ``act(process, worker pids)``; then (exit status, standard error, worker pids)."""
    from tests.fixtures.processes import wait_for_lines, wait_for_workers

    proc = subprocess.Popen(
        _cece("explain", str(source), "-q", "-o", str(out), "--workers", "2", "--batch-size", "4"),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        workers = wait_for_workers(proc.pid, proc)
        wait_for_lines(out, lines, proc, poll=0.002)
        act(proc, workers)
        err = proc.communicate(timeout=120)[1]
    finally:
        proc.kill()
    return proc.returncode, err, workers


def test_kill_9_of_a_pool_worker_mid_run_and_the_run_still_writes_the_bytes_of_one(longer):
    source, single = longer
    out = source.with_name("killed.jsonl")
    code, err, (worker,) = _two_workers_until(source, out, 8, lambda proc, pids: os.kill(pids[0], signal.SIGKILL))
    assert code == 2, err  # the one bad record
    assert f"worker process {worker} was lost (killed by SIGKILL)" in err and "run again on another worker" in err
    assert out.read_bytes() == single


def test_sigterm_stops_a_run_like_ctrl_c_with_status_143(longer):
    source, single = longer
    out = source.with_name("term.jsonl")
    code, err, workers = _two_workers_until(source, out, 4, lambda proc, pids: proc.send_signal(signal.SIGTERM))
    assert code == 143, err
    written = out.read_bytes()
    assert re.search(rf"terminated: \d+ written to {re.escape(str(out))}", err) and "leaked" not in err
    assert single.startswith(written) and len(written) < len(single)
    assert not any(os.path.exists(f"/proc/{pid}") for pid in workers)  # the workers went with it
    r = CliRunner().invoke(main, ["explain", str(source), "-q", "-o", str(out), "--workers", "2", "--batch-size", "4"])
    assert r.exit_code == 2 and out.read_bytes() == single  # and it resumes


@pytest.fixture(scope="module")
def local_ray():
    import ray

    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield ray
    ray.shutdown()


@pytest.mark.xdist_group("ray")  # one Ray at a time (see tests/test_ray_cluster.py)
def test_ray_writes_the_bytes_of_one_process(local_ray, source: Path, single: bytes):
    out = source.with_name("ray.jsonl")
    r = CliRunner().invoke(
        main, ["explain", str(source), "-q", "-o", str(out), "--engine", "ray", "--workers", "2", "--batch-size", "4"]
    )
    assert r.exit_code == 2, r.output
    assert out.read_bytes() == single
    assert local_ray.is_initialized()  # a Ray the caller started is left running


@pytest.mark.xdist_group("ray")  # one Ray at a time (see tests/test_ray_cluster.py)
def test_a_ray_actor_killed_mid_run_costs_nothing_but_time(local_ray):
    got, killed = [], []
    for result, pid in run_ordered(Pid(pause=0.1), [[i] for i in range(30)], engine="ray", workers=2):
        got.append(result)
        if not killed:  # the actor holds more batches: kill its process
            os.kill(pid, signal.SIGKILL)
            killed.append(pid)
    assert got == [[i * 10] for i in range(30)] and killed


def test_detect_with_two_workers_writes_the_lines_of_one(source: Path):
    outs = []
    for w in ("1", "2"):
        out = source.with_name(f"detect{w}.jsonl")
        r = CliRunner().invoke(
            main,
            [
                "detect",
                str(source),
                "-d",
                "lexical",
                "-d",
                "halcece",
                "-o",
                str(out),
                "-q",
                "--workers",
                w,
                "--batch-size",
                "8",
            ],
        )
        assert r.exit_code == 2, r.output  # the bad record, and lexical on records without references
        outs.append(out.read_bytes())
    assert outs[0] == outs[1] and outs[0].count(b"\n") == 72


def test_report_with_two_workers_is_the_report_of_one(source: Path, tmp_path: Path):
    for w in ("1", "2"):
        r = CliRunner().invoke(
            main, ["report", str(source), "-o", str(tmp_path / w), "--workers", w, "--batch-size", "4"]
        )
        assert r.exit_code == 2, r.output
    for name in ("explanations.jsonl", "index.html"):
        assert (tmp_path / "1" / name).read_bytes() == (tmp_path / "2" / name).read_bytes(), name


def test_explain_and_detect_tasks_split_join_and_name_a_lost_record():
    """What the engines use to find the record that kills its workers (cece/scheduler.py)."""
    from cece.api import Explainer
    from cece.pipeline import ExplainTask
    from detectors.configure import create_detectors
    from detectors.runner import DetectTask, DetectWork

    task = ExplainTask(Explainer())
    batch = [(i, r) for i, r in enumerate(records(8)[:5])]
    halves = task.split(batch)
    assert [len(h) for h in halves] == [2, 3] and task.join(halves) == batch and task.split(batch[:1]) == [batch[:1]]
    ((index, err),) = task.lost(batch[:1], "lost with its worker 2 times (worker process 7 was lost)")
    assert index == 0 and err.to_dict() == {
        "id": "r000",
        "model": "m",
        "error": {
            "type": "WorkerLost",
            "field": "worker",
            "message": "lost with its worker 2 times (worker process 7 was lost)",
            "file": None,
            "line": None,
        },
    }
    detect = DetectTask(create_detectors(("lexical",), ()))
    samples = records(8)[:5]
    work = DetectWork([("lexical", samples)], 5)
    parts = detect.split(work)
    assert [p.todo[0][1] for p in parts] == [samples[:2], samples[2:]]
    lost = detect.lost(parts[0], "gone")
    assert [[(d.id, d.error) for d in found] for found in lost] == [[("r000", "gone"), ("r001", "gone")]]
    assert [[d.id for d in found] for found in detect.join([lost, lost])] == [["r000", "r001"] * 2]
