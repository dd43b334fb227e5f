"""Where a job's batches run: this process, a pool of local processes, or a Ray cluster.

Every command that works through records (explain, detect, report, bench run) hands its batches
to :func:`run_ordered` with a :class:`Task`: a picklable object whose ``setup()`` loads the models
and whose call turns one batch into its results. Each worker calls ``setup()`` once and then
takes batch after batch; the results come back **in input order**, so the one writer of the run
writes exactly what a single process would (byte for byte), and kill-and-resume works the same.
Only a few batches per worker are in flight at a time: memory stays flat however long the input.

Engines (``ENGINES``):

- ``"local"``: ``workers`` processes on this machine (default: the usable cores), their math
  libraries on their share of the cores. This process is one of them: it starts the other
  ``workers - 1`` and explains batches itself while they load their models (seconds) and
  whenever they hold all the batches they may, so a run never waits idle for its workers. One
  worker, a single batch, or -- when ``workers`` is left to its default -- an input of fewer
  than ``AUTO_MIN_RECORDS_PER_WORKER`` records per worker runs in this process alone;
  ``workers=1`` holds its math libraries to one thread there, one core's worth of work. Workers
  are started with ``spawn`` (a forked child would inherit the locked output file), so a script
  that calls this needs the usual ``if __name__ == "__main__":`` guard.
- ``"ray"``: Ray actors (``pip install 'halcece[ray]'``), one model load per actor. ``address``
  joins a running cluster (``"auto"``: the one this machine belongs to); without it a local Ray
  starts with ``workers`` CPUs. ``workers`` defaults to the cluster's CPUs.

A worker lost mid-run (killed, out of memory, its node gone) is replaced and its batches run
again elsewhere; a batch that takes its worker down every time is split until the one record
at fault is found, which gets the task's failure result (:mod:`cece.scheduler`). A task may
define ``split(batch)``, ``join(results)`` and ``lost(batch, reason)`` for this; without them
such a batch stops the run with an :class:`EngineError`.

>>> class Double:
...     def setup(self): pass
...     def __call__(self, batch): return [2 * x for x in batch]
>>> list(run_ordered(Double(), [[1, 2], [3]], workers=1))
[[2, 4], [6]]
"""

from __future__ import annotations

import gc
import os
import sys
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass
from itertools import chain
from typing import Any, Literal, Protocol, TypeVar

from cece.scheduler import IN_FLIGHT_PER_WORKER, schedule
from cece.scheduler import EngineError as EngineError  # raised by the engines: callers import it from here
from cece.workers import THREAD_VARIABLES, Actors, Processes, set_models_aside, threads_set_by_user

#: Where batches run (the keys of :data:`ENGINES`).
EngineName = Literal["local", "ray"]

B = TypeVar("B")

#: With the default number of workers, a local pool starts only for an input of at least this
#: many records (batch items) per worker: a worker takes seconds to load its models, in which
#: this process gets through a few hundred records itself. An explicit ``workers`` always gets its pool.
AUTO_MIN_RECORDS_PER_WORKER = 256


class Task(Protocol):
    """A unit of work the engines run: ``setup()`` once per worker, then ``task(batch)``. In the
    calling process the engines call ``setup_here()`` instead when the task has it: what must
    load before the first batch there (the first batch loads the rest, and only what it needs:
    a one-record run pays for nothing it does not use)."""

    def setup(self) -> None: ...

    def __call__(self, batch: Any, /) -> Any: ...


@dataclass(frozen=True)
class EngineOptions:
    """What the ``--engine``, ``--workers`` and ``--address`` options of a command asked for.

    >>> EngineOptions(workers=1).parallel
    False
    """

    engine: EngineName = "local"
    workers: int | None = None  # None: every usable core (local) or every cluster CPU (ray)
    address: str | None = None  # ray only: a running cluster to join ("auto" or host:port)

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


def run_ordered(
    task: Task,
    batches: Iterable[B],
    *,
    engine: EngineName = "local",
    workers: int | None = None,
    address: str | None = None,
    size: Callable[[B], int] | None = None,
) -> Iterator[Any]:  # what the task returns, batch by batch
    """``task(batch)`` for every batch, yielded in the order of ``batches`` (see the module).
    ``size(batch)`` is how many records a batch holds (for the local engine's start-up rule)."""
    options = EngineOptions(engine, workers, address)
    return ENGINES[options.engine](task, iter(batches), options, size or len)


def _local(
    task: Task, batches: Iterator[B], options: EngineOptions, size_of: Callable[[B], int]
) -> Iterator[Any]:  # what the task returns, batch by batch
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
        here = _Here(task)
        # One worker asked for is one core's worth: idle BLAS threads spin on the other cores
        # (171 % CPU for the rate of one), slowing whatever else runs there.
        with _gc_restored(), _threads_held(1) if options.workers == 1 else nullcontext():
            for batch in chain(head, batches):
                yield here(batch)
        return
    # This process is one of the n: it starts n - 1 workers, then explains batches itself while
    # they load their models and whenever they hold all the batches they may.
    share = max(1, usable_cores() // n)
    backend = Processes(task, share)
    here = _Here(task)
    try:
        with _threads_held(share), _gc_restored():
            yield from schedule(
                task,
                chain(head, batches),
                backend,
                workers=n - 1,
                here=here,
                limit=n * IN_FLIGHT_PER_WORKER + 2,
                warn=_warn,
            )
    finally:
        backend.close()


class _Here:
    """Batches run in the calling process: the task set up at the first one (``setup_here()``
    when it has one; after any workers were started, so that they load their models meanwhile)
    and its models set aside from the collector once that first batch loaded them."""

    def __init__(self, task: Task) -> None:
        self.task, self.batches = task, 0

    def __call__(self, batch: Any) -> Any:
        if self.batches == 0:
            getattr(self.task, "setup_here", self.task.setup)()
        result = self.task(batch)
        self.batches += 1
        if self.batches == 1:
            set_models_aside()
        return result


def _warn(message: str) -> None:
    print(f"warning: {message}", file=sys.stderr, flush=True)


@contextmanager
def _threads_held(threads: int) -> Iterator[None]:
    """:func:`cece.workers.share_cores` for the length of a run in the caller's own process: the math
    libraries loaded use ``threads`` threads until the block ends, then what they had (libraries
    loaded during the run read the variables). Thread counts the user set in the environment are kept."""
    if threads_set_by_user():
        yield
        return
    from threadpoolctl import threadpool_limits

    saved = {v: os.environ.get(v) for v in THREAD_VARIABLES}
    torch = sys.modules.get("torch")  # only if the task's models brought it in
    before = torch.get_num_threads() if torch is not None else 0
    try:
        os.environ.update({v: str(threads) for v in THREAD_VARIABLES})
        with threadpool_limits(limits=threads):
            if torch is not None:
                torch.set_num_threads(threads)
            yield
    finally:
        for var, value in saved.items():
            if value is None:
                os.environ.pop(var, None)
            else:
                os.environ[var] = value
        if torch is not None:
            torch.set_num_threads(before)


@contextmanager
def _gc_restored() -> Iterator[None]:
    """The collector's settings as they were once the block ends (:func:`set_models_aside`
    changes them for the length of a run)."""
    threshold = gc.get_threshold()
    try:
        yield
    finally:
        gc.set_threshold(*threshold)
        gc.unfreeze()


def _ray(
    task: Task, batches: Iterator[B], options: EngineOptions, size_of: Callable[[B], int]
) -> Iterator[Any]:  # what the task returns, batch by batch
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
            raise EngineError(
                f"cannot start or join Ray{f' at {options.address}' if options.address else ''}: {exc}"
            ) from None
    try:
        cpus = ray.cluster_resources().get("CPU", 1)  # type: ignore[no-untyped-call]  # Ray leaves it unannotated
        n = options.workers or max(1, int(cpus))
        backend = Actors(ray, task)
        try:
            yield from schedule(task, batches, backend, workers=n, limit=n * IN_FLIGHT_PER_WORKER, warn=_warn)
        finally:
            backend.close()
    finally:
        if started:
            ray.shutdown()


ENGINES: dict[str, Callable[[Task, Iterator[Any], EngineOptions, Callable[[Any], int]], Iterator[Any]]] = {
    "local": _local,
    "ray": _ray,
}
