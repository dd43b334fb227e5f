"""Batches in input order over workers that may be lost: the bookkeeping both engines share.

A :class:`Backend` (local processes, Ray actors) starts workers and reports what they did;
:func:`schedule` hands each ready worker a few batches, runs fresh batches in this very process
too when the caller allows it (``here``: so a run never waits idle while its workers load their
models), and yields the results in input order.

When a worker is lost (killed, out of memory, a crash in a native library, its node gone), every
batch it held goes back to the front of the queue for another worker and a new worker is started
in its place. Only the batch it was running (the oldest it held: a worker takes its batches in
turn) is charged a try; a batch charged ``MAX_TRIES`` times is split in two (``task.split``) and
each half tried again, down to single records, so a record that kills its worker every time is
found, and a single record charged ``MAX_TRIES`` times becomes the task's failure result for it
(``task.lost(batch, reason)``: the record's error row). A charged batch never runs in this process:
what killed a worker would kill the run. Results do not depend on where or how often a batch ran,
so the output is the one of an uninterrupted run.

>>> class Echo:
...     def __call__(self, batch): return batch
>>> class Nowhere:  # no workers at all: everything runs here
...     def start(self): return None
...     def send(self, worker, job): raise AssertionError
...     def wait(self, timeout): return []
>>> list(schedule(Echo(), iter([[1], [2]]), Nowhere(), workers=0, here=Echo(), limit=2))
[[1], [2]]
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any, Protocol

#: Workers a batch may take down with it before it is split (or, one record, becomes an error row).
MAX_TRIES = 2
#: Batches a worker holds at a time (one running, the next ready for it).
IN_FLIGHT_PER_WORKER = 2
#: Workers that may die before they are ready (while loading their models) before the run stops:
#: then something is wrong with the set-up, not with a record.
MAX_LOST_LOADING = 3


class EngineError(RuntimeError):
    """An engine cannot run (Ray missing, a cluster unreachable, workers that cannot start)."""


@dataclass(eq=False)
class Job:
    """One batch on its way: its result once done, or the jobs of its halves once split."""

    batch: Any
    tries: int = 0
    done: bool = False
    value: Any = None
    parts: list[Job] | None = None

    def finished(self) -> bool:
        return all(p.finished() for p in self.parts) if self.parts is not None else self.done

    def result(self, task: Any) -> Any:
        if self.parts is not None:
            return task.join([p.result(task) for p in self.parts])
        return self.value


class Backend(Protocol):
    """Where workers run. ``wait`` returns events: ``("ready", worker)``, ``("done", worker,
    job, value)``, ``("raised", worker, job, exception)`` (the task itself failed: the run
    stops with it) and ``("lost", worker, reason)``."""

    def start(self) -> Any: ...

    def send(self, worker: Any, job: Job) -> None: ...

    def wait(self, timeout: float | None) -> list[tuple[Any, ...]]: ...


@dataclass
class _State:
    held: dict[Any, list[Job]] = field(default_factory=dict)  # worker -> its jobs, oldest first
    ready: set[Any] = field(default_factory=set)
    todo: deque[Any] = field(default_factory=deque)  # jobs waiting for a worker
    lost_loading: int = 0


def schedule(
    task: Any,
    batches: Iterator[Any],
    backend: Backend,
    *,
    workers: int,
    here: Callable[[Any], Any] | None = None,
    limit: int = 8,
    warn: Callable[[str], None] | None = None,
) -> Iterator[Any]:
    """``task(batch)`` of every batch, in order, on ``workers`` workers of ``backend`` and, for
    batches never charged, on ``here`` (see the module). At most ``limit`` batches are under way."""
    s = _State()
    for _ in range(workers):
        s.held[backend.start()] = []
    order: deque[Job] = deque()
    exhausted = False
    while True:
        while order and order[0].finished():
            yield order.popleft().result(task)
        while not exhausted and len(order) < limit:
            batch = next(batches, _END)
            if batch is _END:
                exhausted = True
            else:
                order.append(Job(batch))
                s.todo.append(order[-1])
        if exhausted and not order:
            return
        for worker in s.ready:
            while s.todo and len(s.held[worker]) < IN_FLIGHT_PER_WORKER:
                job = s.todo.popleft()
                s.held[worker].append(job)
                backend.send(worker, job)
        fresh = next((j for j in s.todo if j.tries == 0), None) if here is not None else None
        if fresh is not None and here is not None:
            s.todo.remove(fresh)
            fresh.value, fresh.done = here(fresh.batch), True
            events = backend.wait(0)
        else:
            events = backend.wait(None)
        for event in events:
            _handle(event, s, task, backend, warn)


_END = object()


def _handle(event: tuple[Any, ...], s: _State, task: Any, backend: Backend, warn: Callable[[str], None] | None) -> None:
    kind, worker = event[0], event[1]
    if worker not in s.held:  # an event of a worker already given up
        return
    if kind == "ready":
        s.ready.add(worker)
    elif kind == "done":
        job = event[2]
        s.held[worker].remove(job)
        job.value, job.done = event[3], True
    elif kind == "raised":
        raise event[3]
    elif kind == "lost":
        reason = event[2]
        jobs = s.held.pop(worker)
        if worker not in s.ready:
            s.lost_loading += 1
            if s.lost_loading >= MAX_LOST_LOADING:
                raise EngineError(f"{s.lost_loading} workers were lost while loading their models; the last: {reason}")
        s.ready.discard(worker)
        if jobs:
            jobs[0].tries += 1  # the one it was running
        if warn is not None:
            warn(f"{reason}; its {len(jobs)} batch{'es' if len(jobs) != 1 else ''} run again on another worker")
        for job in reversed(jobs):
            if job.tries >= MAX_TRIES:
                _charge(job, s, task, reason)
            else:
                s.todo.appendleft(job)
        s.held[backend.start()] = []


def _charge(job: Job, s: _State, task: Any, reason: str) -> None:
    """A batch that took ``MAX_TRIES`` workers down: its halves are tried apart, or, one record
    (or a task that cannot split), it gets the task's failure result."""
    split = getattr(task, "split", None)
    halves = split(job.batch) if split is not None else None
    if halves is not None and len(halves) > 1 and all(halves):  # an empty half would be no split
        job.parts = [Job(h, tries=MAX_TRIES - 1) for h in halves]  # suspects: one more loss splits again
        s.todo.extendleft(reversed(job.parts))
        return
    lost = getattr(task, "lost", None)
    if lost is None:
        raise EngineError(f"a batch was lost with its worker {MAX_TRIES} times: {reason}")
    job.value, job.done = lost(job.batch, f"lost with its worker {MAX_TRIES} times ({reason})"), True
