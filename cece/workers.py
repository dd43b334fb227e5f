"""The two kinds of workers :func:`cece.scheduler.schedule` hands batches to: local processes
(:class:`Processes`) and Ray actors (:class:`Actors`). Each tells the scheduler when a worker is
ready (its models loaded), what it returned, and when it was lost, so its batches can run again.
"""

from __future__ import annotations

import contextlib
import gc
import multiprocessing
import os
import queue
import signal
import sys
import threading
import traceback
from collections import deque
from multiprocessing.connection import Connection
from typing import Any

from cece.scheduler import EngineError, Job

#: Allocations between two collections of the youngest generation once the models are loaded
#: (Python's default is 700; see :func:`set_models_aside`).
GC_YOUNG_THRESHOLD = 5000


def set_models_aside() -> None:
    """Once the models are loaded: hide them from the garbage collector (``gc.freeze``) and
    collect the young generation every ``GC_YOUNG_THRESHOLD`` allocations instead of 700. The
    loaded models are hundreds of thousands of objects that live as long as the process, and
    each full collection walked them all again: 8 % of a references-mode run, 2 % after this."""
    gc.freeze()
    gc.set_threshold(GC_YOUNG_THRESHOLD, *gc.get_threshold()[1:])


THREAD_VARIABLES = ("OMP_NUM_THREADS", "MKL_NUM_THREADS", "OPENBLAS_NUM_THREADS")


def threads_set_by_user() -> bool:
    # An empty variable sets nothing: the libraries would start one thread per core.
    return any(os.environ.get(v, "").strip() for v in THREAD_VARIABLES)


def share_cores(threads: int) -> None:
    """Let this worker's math libraries (torch, BLAS, OpenMP) use ``threads`` threads: its share
    of the cores. Each would otherwise start one thread per core in every worker, and the
    workers' threads would fight over the same cores (ALOHa's embeddings: 1.16 x for two workers
    instead of 1.9 x). Thread counts the user set in the environment are kept."""
    if threads_set_by_user():
        return
    for var in THREAD_VARIABLES:
        os.environ[var] = str(threads)  # for libraries loaded from now on
    from threadpoolctl import threadpool_limits

    threadpool_limits(limits=threads)  # the ones already loaded
    torch = sys.modules.get("torch")  # one loaded later reads OMP_NUM_THREADS
    if torch is not None:
        torch.set_num_threads(threads)


#: Seconds a worker whose pipe gave out has to exit before it is killed.
_EXITING = 5.0


class Processes:
    """Local worker processes, started with ``spawn`` (a forked child would inherit the locked
    output file and the parent's threads), each joined to this process by its own pipe. Only pipes:
    no semaphores or queues that a killed run could leave behind.

    Each pipe is read on a thread of this process, so a worker never waits to hand over a result
    (far more than a pipe's buffer) while this process explains a batch of its own: that wait cost
    a quarter of a two-worker run. A worker still sends each result before it starts its next
    batch, so the batch it held when it died is the oldest it was sent and not yet returned."""

    def __init__(self, task: Any, threads: int) -> None:
        self.task, self.threads = task, threads
        self.context = multiprocessing.get_context("spawn")
        self.conns: dict[Any, Connection] = {}
        self.sent: dict[Any, deque[Job]] = {}
        self.inbox: queue.SimpleQueue[Any] = queue.SimpleQueue()  # (proc, message) as read; None: lost

    def start(self) -> Any:
        mine, theirs = self.context.Pipe()
        proc = self.context.Process(
            target=worker_main, args=(self.task, theirs, self.threads), daemon=True, name="cece-worker"
        )
        proc.start()
        theirs.close()  # the worker's end lives in the worker only: its death is our end's EOF
        self.conns[proc], self.sent[proc] = mine, deque()
        threading.Thread(target=self._read, args=(proc, mine), daemon=True, name="results").start()
        return proc

    def send(self, worker: Any, job: Job) -> None:
        self.sent[worker].append(job)
        with contextlib.suppress(OSError):  # it died: its reader says so at the next wait
            self.conns[worker].send(job.batch)

    def wait(self, timeout: float | None) -> list[tuple[Any, ...]]:
        messages = []
        try:
            messages.append(self.inbox.get(timeout=timeout) if timeout != 0 else self.inbox.get_nowait())
            while True:
                messages.append(self.inbox.get_nowait())
        except queue.Empty:
            pass
        events: list[tuple[Any, ...]] = []
        for proc, message in messages:
            if proc not in self.conns:  # closed, or already given up
                continue
            if message is None:
                # Its end of the pipe is closed: it is exiting, or of no use to anyone (seen once
                # under heavy load, a worker still alive after its pipe gave out): never wait on
                # it for long.
                proc.join(timeout=_EXITING)
                if proc.is_alive():
                    proc.kill()
                    proc.join()
                events.append(("lost", proc, f"worker process {proc.pid} was lost ({_exit_reason(proc.exitcode)})"))
                self.conns.pop(proc).close()
                del self.sent[proc]
                continue
            kind, value = message
            if kind == "ready":
                events.append(("ready", proc))
            elif kind == "failed":  # its set-up raised: no other worker would do better
                raise _SetupFailed(f"a worker could not set up its task:\n{value}")
            elif kind == "unreadable":
                raise EngineError(f"a message from worker process {proc.pid} could not be read: {value}")
            else:
                events.append((kind, proc, self.sent[proc].popleft(), value))
        return events

    def _read(self, proc: Any, conn: Connection) -> None:
        """Everything ``proc`` sends, then ``None`` once it is gone (its end of the pipe closed)."""
        try:
            while True:
                self.inbox.put((proc, conn.recv()))
        except (EOFError, OSError):
            self.inbox.put((proc, None))
        except Exception as exc:  # a message that cannot be unpickled: the worker is of no use
            self.inbox.put((proc, ("unreadable", f"{type(exc).__name__}: {exc}")))

    def close(self) -> None:
        for proc, conn in self.conns.items():
            conn.close()
            proc.kill()  # it holds nothing worth saving; its batches are the parent's
        for proc in self.conns:
            proc.join()
        self.conns.clear()


class _SetupFailed(EngineError):
    """A worker's ``setup()`` raised (its traceback is the message)."""


def _exit_reason(code: int | None) -> str:
    if code is not None and code < 0:
        try:
            return f"killed by {signal.Signals(-code).name}"
        except ValueError:
            return f"killed by signal {-code}"
    return f"exit status {code}"


def worker_main(task: Any, conn: Connection, threads: int) -> None:
    """A worker process: set the task up, say so, then run batches as they come until the pipe
    closes. Batches are read on a thread of their own, so the parent never blocks sending one
    while this process is busy sending a result."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle
    share_cores(threads)
    inbox: queue.SimpleQueue[Any] = queue.SimpleQueue()
    threading.Thread(target=_receive, args=(conn, inbox), daemon=True, name="batches").start()
    try:
        task.setup()
    except BaseException:
        conn.send(("failed", traceback.format_exc()))
        return
    set_models_aside()
    conn.send(("ready", None))
    while True:
        batch = inbox.get()
        try:
            out = ("done", task(batch))
        except Exception as exc:
            out = ("raised", exc)
        try:
            conn.send(out)
        except (OSError, ValueError):
            os._exit(1)  # the parent is gone
        except Exception as exc:  # a result or exception that cannot be pickled
            conn.send(("raised", RuntimeError(f"{type(exc).__name__}: {exc}")))


def _receive(conn: Connection, inbox: queue.SimpleQueue[Any]) -> None:
    # The parent holds the other end only: EOF is its death (a kill -9 included), and a worker
    # with no parent must not stay, models in memory.
    try:
        while True:
            inbox.put(conn.recv())
    except (EOFError, OSError):
        os._exit(1)


class Actors:
    """Ray actors, one CPU each. Ray does not restart them (``max_restarts=0``): a lost actor is
    replaced by a new one, which Ray places on any node with a free CPU, while the others go on."""

    def __init__(self, ray: Any, task: Any) -> None:
        self.ray, self.task = ray, task
        self.actor = ray.remote(num_cpus=1, max_restarts=0)(RayWorker)
        self.refs: dict[Any, tuple[Any, Job | None]] = {}  # object ref -> (actor, its job or None: ready)
        self.gone: set[Any] = set()
        self.actors: list[Any] = []
        e = ray.exceptions
        # The actor's process or node is gone, or a result with it (results of more than 100 kB
        # stay in the object store of the node that made them until they are fetched).
        self.lost_errors = (
            e.RayActorError,
            e.ObjectLostError,
            e.NodeDiedError,
            e.WorkerCrashedError,
            e.LocalRayletDiedError,
            e.OutOfMemoryError,
        )

    def start(self) -> Any:
        actor = self.actor.remote(self.task)
        self.actors.append(actor)
        self.refs[actor.ready.remote()] = (actor, None)
        return actor

    def send(self, worker: Any, job: Job) -> None:
        self.refs[worker.run.remote(job.batch)] = (worker, job)

    def wait(self, timeout: float | None) -> list[tuple[Any, ...]]:
        ray = self.ray
        done, _ = ray.wait(list(self.refs), num_returns=1, timeout=timeout)
        if done:  # and whatever else is done by now, results before losses
            done, _ = ray.wait(list(self.refs), num_returns=len(self.refs), timeout=0)
        events: list[tuple[Any, ...]] = []
        losses: list[tuple[Any, BaseException]] = []
        for ref in done:
            actor, job = self.refs.pop(ref)
            if actor in self.gone:
                continue
            try:
                value = ray.get(ref)
            except self.lost_errors as exc:
                losses.append((actor, exc))
                continue
            except ray.exceptions.RayTaskError as exc:
                if job is None:
                    raise _SetupFailed(str(exc)) from None
                events.append(("raised", actor, job, exc))
                continue
            events.append(("ready", actor) if job is None else ("done", actor, job, value))
        for actor, why in losses:
            if actor not in self.gone:
                self.gone.add(actor)
                ray.kill(actor)
                first = str(why).strip().splitlines()[0] if str(why).strip() else type(why).__name__
                events.append(("lost", actor, f"Ray actor lost ({type(why).__name__}: {first})"))
        return events

    def close(self) -> None:
        for actor in self.actors:
            with contextlib.suppress(Exception):  # already gone with its node
                self.ray.kill(actor)


class RayWorker:
    """One Ray actor: the task set up once, then batches (the class is wrapped by ``ray.remote``)."""

    def __init__(self, task: Any) -> None:
        task.setup()
        set_models_aside()
        self.task = task

    def ready(self) -> bool:
        return True

    def run(self, batch: Any) -> Any:
        return self.task(batch)
