"""Run many per-sample judging procedures against one backend, batching their model calls.

A *job* is a generator written as straight-line code for one sample: it ``yield``s a list of
requests, receives the list of answers (a :class:`Completion` or a :class:`BackendError` each),
and finally ``return``s its result. :func:`drive` advances all jobs in rounds, sending every
request of a round to the backend in one ``complete_many`` call, so that retries and multi-step
protocols of many samples still share the backend's concurrency.

>>> from detectors.backends.base import Backend, ChatRequest
>>> class Upper(Backend):
...     kind = "upper"
...     def payload(self, request): return {"p": request.prompt}
...     def _send(self, payload, request): return [payload["p"].upper()]
>>> def job(word):
...     answers = yield [ChatRequest(word)]
...     return text_of(answers[0]) + "!"
>>> drive([job("a"), job("b")], Upper())
['A!', 'B!']
"""

from __future__ import annotations

from collections.abc import Generator, Sequence
from typing import Any, TypeVar

from detectors.backends.base import Backend, BackendError, ChatRequest, Completion

T = TypeVar("T")
Answer = Completion | BackendError
Job = Generator[list[ChatRequest], list[Answer], T]


def drive(jobs: Sequence[Job], backend: Backend | None) -> list[Any]:
    """Each job's return value, in order; a job that raised gives its exception instead.
    ``backend`` may be None when no job asks anything (a job that does then fails)."""
    results: list[Any] = [None] * len(jobs)
    waiting: dict[int, list[ChatRequest]] = {}

    def advance(i: int, answers: list[Answer] | None) -> None:
        try:
            requests = jobs[i].send(answers)  # type: ignore[arg-type]  # None starts a generator
        except StopIteration as stop:
            results[i] = stop.value
        except Exception as exc:  # the job's failure is its sample's error, not the batch's
            results[i] = exc
        else:
            waiting[i] = list(requests)

    for i in range(len(jobs)):
        advance(i, None)
    while waiting:
        round_ = list(waiting.items())
        waiting.clear()
        requests = [r for _, reqs in round_ for r in reqs]
        if backend is None:
            answers: list[Answer] = [BackendError("no backend configured") for _ in requests]
        else:
            answers = backend.complete_many(requests)
        pos = 0
        for i, reqs in round_:
            advance(i, answers[pos : pos + len(reqs)])
            pos += len(reqs)
    return results


def text_of(answer: Answer) -> str:
    """The (first) text of an answer; re-raises the answer's error."""
    if isinstance(answer, BaseException):
        raise answer
    return answer.text


def texts_of(answer: Answer) -> list[str]:
    """All sampled texts of an answer; re-raises the answer's error."""
    if isinstance(answer, BaseException):
        raise answer
    return answer.texts
