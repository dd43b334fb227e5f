"""Where a job's batches run: this process, a pool of local processes, or a Ray cluster.

Every command that works through records (explain, detect, report, bench run) hands its batches
to :func:`run_ordered` with a :class:`Task`: a picklable object whose ``setup()`` loads the models
and whose call turns one batch into its results. Each worker calls ``setup()`` once and then
takes batch after batch; the results come back **in input order**, so the one writer of the run
writes exactly what a single process would (byte for byte), and kill-and-resume works the same.
Only a few batches per worker are in flight at a time: memory stays flat however long the input.

Engines (``ENGINES``):

- ``"local"``: ``workers`` processes on this machine (default: the usable cores), their math
  libraries on their share of the cores. One worker, a
  single batch, or -- when ``workers`` is left to its default -- an input of fewer than
  ``AUTO_MIN_RECORDS_PER_WORKER`` records per worker runs in this very process (a worker's
  start-up, seconds of model loading, would cost more than it saves); ``workers=1`` holds its
  math libraries to one thread there, one core's worth of work. The pool
  starts processes with ``spawn`` (a forked child would inherit the locked output file), so a
  script that calls this needs the usual ``if __name__ == "__main__":`` guard.
- ``"ray"``: Ray actors (``pip install 'halcece[ray]'``), one model load per actor. ``address``
  joins a running cluster (``"auto"``: the one this machine belongs to); without it a local Ray
  starts with ``workers`` CPUs. ``workers`` defaults to the cluster's CPUs.

>>> class Double:
...     def setup(self): pass
...     def __call__(self, batch): return [2 * x for x in batch]
>>> list(run_ordered(Double(), [[1, 2], [3]], workers=1))
[[2, 4], [6]]
"""

from __future__ import annotations

import gc
import multiprocessing
import os
import signal
import sys
import threading
import time
from collections import deque
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass
from itertools import chain, islice
from typing import Any, Callable, Iterable, Iterator, Protocol, TypeVar

B = TypeVar("B")
R = TypeVar("R")

#: Batches handed out per worker before the first result is waited for.
IN_FLIGHT_PER_WORKER = 2
#: With the default number of workers, a local pool starts only for an input of at least this
#: many records (batch items) per worker: a worker takes seconds to load its models, in which
#: this process gets through a few hundred records itself. An explicit ``workers`` always gets its pool.
AUTO_MIN_RECORDS_PER_WORKER = 256
#: How often a worker checks that its parent is still there (seconds).
PARENT_POLL_S = 0.5
#: Allocations between two collections of the youngest generation once the models are loaded
#: (Python's default is 700; see :func:`_set_models_aside`).
GC_YOUNG_THRESHOLD = 5000


class Task(Protocol):
    """A unit of work the engines run: ``setup()`` once per worker, then ``task(batch)``."""

    def setup(self) -> None: ...

    def __call__(self, batch: Any) -> Any: ...


class EngineError(RuntimeError):
    """An engine cannot run (Ray missing, a cluster unreachable, a worker died)."""


@dataclass(frozen=True)
class EngineOptions:
    """What the ``--engine``, ``--workers`` and ``--address`` options of a command asked for.

    >>> EngineOptions(workers=1).parallel
    False
    """

    engine: str = "local"
    workers: int | None = None   # None: every usable core (local) or every cluster CPU (ray)
    address: str | None = None   # ray only: a running cluster to join ("auto" or host:port)

    def __post_init__(self) -> None:
        if self.engine not in ENGINES:
            raise ValueError(f"unknown engine {self.engine!r}: choose from {', '.join(sorted(ENGINES))}")
        if self.workers is not None and self.workers < 1:
            raise ValueError(f"workers must be at least 1, not {self.workers}")
        if self.address is not None and self.engine != "ray":
            raise ValueError("--address only applies to --engine ray")

    @property
    def parallel(self) -> bool:
        """Whether batches may leave this process (then they should be small enough to spread)."""
        return self.engine != "local" or (self.workers or usable_cores()) > 1


def usable_cores() -> int:
    """The CPUs this process may run on (its affinity mask, not the machine's core count)."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):  # not Linux
        return os.cpu_count() or 1


def run_ordered(task: Task, batches: Iterable[B], *, engine: str = "local", workers: int | None = None,
                address: str | None = None, size: Callable[[B], int] = len) -> Iterator[R]:
    """``task(batch)`` for every batch, yielded in the order of ``batches`` (see the module).
    ``size(batch)`` is how many records a batch holds (for the local engine's start-up rule)."""
    options = EngineOptions(engine, workers, address)
    return ENGINES[options.engine](task, iter(batches), options, size)


def _local(task: Task, batches: Iterator[B], options: EngineOptions, size_of: Callable[[B], int]) -> Iterator[R]:
    n = options.workers or usable_cores()
    head, size = [], 0
    # Before a pool pays: two batches for an explicit number of workers, else enough records.
    need = 2 if options.workers else n * AUTO_MIN_RECORDS_PER_WORKER
    if n > 1:
        for batch in batches:
            head.append(batch)
            size += 1 if options.workers else size_of(batch)
            if size >= need:
                break
    if size < need or n == 1:  # a short input is done before workers would be up
        task.setup()
        # One worker asked for is one core's worth: idle BLAS threads spin on the other cores
        # (171 % CPU for the rate of one), slowing whatever else runs there.
        with _models_set_aside(), _threads_held(1) if options.workers == 1 else nullcontext():
            for batch in chain(head, batches):
                yield task(batch)
        return
    # spawn, not fork: a forked child would inherit the locked output file (and threads).
    pool = ProcessPoolExecutor(max_workers=n,
                               mp_context=multiprocessing.get_context("spawn"),
                               initializer=_worker_setup, initargs=(task, os.getpid(), max(1, usable_cores() // n)))
    try:
        yield from _in_order(lambda b: pool.submit(_worker_run, b), lambda f: f.result(),
                             chain(head, batches), n * IN_FLIGHT_PER_WORKER)
    except BrokenProcessPool as exc:
        raise EngineError(f"a worker process died ({exc}); the rows written so far are kept: "
                          "re-run the command to resume") from None
    finally:
        pool.shutdown(wait=False, cancel_futures=True)


def _in_order(submit: Callable[[B], Any], result: Callable[[Any], R], batches: Iterator[B],
              limit: int) -> Iterator[R]:
    """Keep up to ``limit`` batches submitted; yield their results oldest first."""
    pending: deque = deque()
    for batch in batches:
        pending.append(submit(batch))
        if len(pending) >= limit:
            yield result(pending.popleft())
    while pending:
        yield result(pending.popleft())


_TASK: Any = None  # the task of this worker process


def _worker_setup(task: Task, parent: int, threads: int) -> None:
    global _TASK
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle
    _share_cores(threads)
    # A worker holds both ends of the pool's queues, so it never sees its parent go: when the
    # parent is killed (kill -9), the worker would wait for work forever, models in memory.
    threading.Thread(target=_exit_with, args=(parent,), daemon=True, name="parent-watch").start()
    task.setup()
    _set_models_aside()
    _TASK = task


_THREAD_VARIABLES = ("OMP_NUM_THREADS", "MKL_NUM_THREADS", "OPENBLAS_NUM_THREADS")


def _threads_set_by_user() -> bool:
    # An empty variable sets nothing: the libraries would start one thread per core.
    return any(os.environ.get(v, "").strip() for v in _THREAD_VARIABLES)


def _share_cores(threads: int) -> None:
    """Let this worker's math libraries (torch, BLAS, OpenMP) use ``threads`` threads: its share
    of the cores. Each would otherwise start one thread per core in every worker, and the
    workers' threads would fight over the same cores (ALOHa's embeddings: 1.16 x for two workers
    instead of 1.9 x). Thread counts the user set in the environment are kept."""
    if _threads_set_by_user():
        return
    for var in _THREAD_VARIABLES:
        os.environ[var] = str(threads)  # for libraries loaded from now on
    from threadpoolctl import threadpool_limits

    threadpool_limits(limits=threads)  # the ones already loaded
    try:
        import torch
    except ImportError:
        return
    torch.set_num_threads(threads)


@contextmanager
def _threads_held(threads: int) -> Iterator[None]:
    """:func:`_share_cores` for the length of a run in the caller's own process: the math
    libraries already loaded use ``threads`` threads until the block ends, then what they had.
    Thread counts the user set in the environment are kept."""
    if _threads_set_by_user():
        yield
        return
    from threadpoolctl import threadpool_limits

    torch = sys.modules.get("torch")  # only if the task's models brought it in
    before = torch.get_num_threads() if torch is not None else 0
    try:
        with threadpool_limits(limits=threads):
            if torch is not None:
                torch.set_num_threads(threads)
            yield
    finally:
        if torch is not None:
            torch.set_num_threads(before)


def _set_models_aside() -> None:
    """Once the models are loaded: hide them from the garbage collector (``gc.freeze``) and
    collect the young generation every ``GC_YOUNG_THRESHOLD`` allocations instead of 700. The
    loaded models are hundreds of thousands of objects that live as long as the process, and
    each full collection walked them all again: 8 % of a references-mode run, 2 % after this."""
    gc.freeze()
    gc.set_threshold(GC_YOUNG_THRESHOLD, *gc.get_threshold()[1:])


@contextmanager
def _models_set_aside() -> Iterator[None]:
    """:func:`_set_models_aside` for the length of a run in the caller's own process; the
    collector's settings are restored afterwards."""
    threshold = gc.get_threshold()
    _set_models_aside()
    try:
        yield
    finally:
        gc.set_threshold(*threshold)
        gc.unfreeze()


def _exit_with(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(PARENT_POLL_S)
    os._exit(1)


def _worker_run(batch: Any) -> Any:
    return _TASK(batch)


def _ray(task: Task, batches: Iterator[B], options: EngineOptions, size_of: Callable[[B], int]) -> Iterator[R]:
    try:
        import ray
    except ImportError:
        raise EngineError("--engine ray needs Ray: pip install 'halcece[ray]'") from None
    started = not ray.is_initialized()
    if started:
        try:
            if options.address:
                ray.init(address=options.address, include_dashboard=False, log_to_driver=False)
            else:
                ray.init(num_cpus=options.workers or usable_cores(), include_dashboard=False, log_to_driver=False)
        except (ConnectionError, RuntimeError, ValueError) as exc:
            raise EngineError(f"cannot start or join Ray{f' at {options.address}' if options.address else ''}: "
                              f"{exc}") from None
    try:
        n = options.workers or max(1, int(ray.cluster_resources().get("CPU", 1)))
        actor = ray.remote(num_cpus=1)(_RayWorker)
        actors = [actor.remote(task) for _ in range(n)]
        turn = iter(range(1 << 62))

        def submit(batch: B) -> Any:
            return actors[next(turn) % n].run.remote(batch)

        try:
            yield from _in_order(submit, ray.get, batches, n * IN_FLIGHT_PER_WORKER)
        except ray.exceptions.RayActorError as exc:
            raise EngineError(f"a Ray worker died ({exc}); the rows written so far are kept: "
                              "re-run the command to resume") from None
        finally:
            for a in actors:
                ray.kill(a)
    finally:
        if started:
            ray.shutdown()


class _RayWorker:
    """One Ray actor: the task set up once, then batches (the class is wrapped by ``ray.remote``)."""

    def __init__(self, task: Task) -> None:
        task.setup()
        _set_models_aside()
        self.task = task

    def run(self, batch: Any) -> Any:
        return self.task(batch)


def click_options(command: Callable) -> Callable:
    """The ``--workers``, ``--engine`` and ``--address`` options shared by the commands that work
    through records; the command gets them as ``workers``, ``engine``, ``address`` (make them
    :class:`EngineOptions`)."""
    import click

    command = click.option(
        "--address", metavar="ADDR", default=None,
        help="With --engine ray: the Ray cluster to join ('auto': the one this machine is part of; "
             "default: start a local Ray).")(command)
    command = click.option(
        "--engine", type=click.Choice(sorted(ENGINES)), default="local", show_default=True,
        help="Where batches run: local processes, or Ray actors (pip install 'halcece[ray]').")(command)
    return click.option(
        "-w", "--workers", type=click.IntRange(min=1), default=None, metavar="N",
        help="Worker processes (or Ray actors), each loading the models once and using its share of "
             "the cores (1: this process, on one core); the output is the same for any N. "
             "[default: the usable cores; with --engine ray, the cluster's CPUs]")(command)


ENGINES: dict[str, Callable[[Task, Iterator[Any], EngineOptions, Callable[[Any], int]], Iterator[Any]]] = {
    "local": _local,
    "ray": _ray,
}
