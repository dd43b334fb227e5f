"""What every LLM/VLM backend shares: the request, the completion, errors, caching, batching.

A backend turns a :class:`ChatRequest` (a prompt, optional images, sampling options) into a
:class:`Completion` (one text per requested sample). Subclasses only say what the full request is
(``payload``: everything that decides the answer, used as the cache key) and how to send it
(``_send``); caching, statistics and bounded concurrent batches live here.

>>> class Echo(Backend):
...     kind = "echo"
...     def payload(self, request):
...         return {"prompt": request.prompt}
...     def _send(self, payload, request):
...         return [payload["prompt"].upper()]
>>> b = Echo(cache="memory")
>>> b.complete(ChatRequest("hi")).text, b.complete(ChatRequest("hi")).cached
('HI', True)
"""

from __future__ import annotations

import hashlib
import json
import re
import threading
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass, field
from typing import Any, ClassVar

from detectors.backends.cache import Cache, make_cache

_URL_USERINFO = re.compile(r"(\b[a-zA-Z][\w+.-]*://)[^/\s@]*@")
_BEARER = re.compile(r"(\bBearer\s+)\S+", re.I)
_SECRET_PARAM = re.compile(r"([?&](?:api[-_]?key|key|token|access_token|password)=)[^&\s]*", re.I)


def scrub(text: str, secrets: tuple[str, ...] | list[str] = ()) -> str:
    """``text`` with credentials removed: the user and password of any URL, bearer tokens,
    secret-looking query parameters and each of ``secrets`` (API keys, passwords).

    >>> scrub("HTTP 401 from http://ann:hunter2@h/v1?api_key=k1 (bad key sk-123)", ["sk-123"])
    'HTTP 401 from http://***@h/v1?api_key=*** (bad key ***)'
    """
    for secret in secrets:
        if secret and len(secret) >= 3:
            text = text.replace(secret, "***")
    text = _URL_USERINFO.sub(r"\1***@", text)
    text = _SECRET_PARAM.sub(r"\1***", text)
    return _BEARER.sub(r"\1***", text)


class BackendError(RuntimeError):
    """A request that failed for good (after retries), or a backend that cannot be used.

    ``retryable`` says whether trying again may help (429, 502-504, timeouts, broken
    connections, malformed answers); ``status`` is the HTTP status when there was one;
    ``retry_after`` the server's requested wait in seconds. Messages never hold credentials
    (see :func:`scrub`).
    """

    def __init__(
        self, message: str, *, retryable: bool = False, status: int | None = None, retry_after: float | None = None
    ) -> None:
        super().__init__(message)
        self.retryable = retryable
        self.status = status
        self.retry_after = retry_after


@dataclass(frozen=True)
class ChatRequest:
    """One chat turn. ``images`` are data URLs, http(s) URLs or file paths (see
    :func:`detectors.backends.images.to_data_url`). ``None`` options take the backend's defaults;
    ``n`` asks for that many sampled answers in one call. ``schema`` is a JSON schema the answer
    should follow: servers that support structured output are held to it (see
    :mod:`detectors.backends.openai_compat`); the others get the prompt alone."""

    prompt: str
    images: tuple[str, ...] = ()
    system: str | None = None
    temperature: float | None = None
    seed: int | None = None
    n: int = 1
    max_tokens: int | None = None
    schema: dict[str, Any] | None = field(default=None, hash=False)


@dataclass
class Completion:
    """The answers to one request (``texts``, one per sample) and whether they came from the cache."""

    texts: list[str]
    cached: bool = False

    @property
    def text(self) -> str:
        return self.texts[0] if self.texts else ""


@dataclass
class BackendStats:
    """Counters since the backend was made: calls sent (attempts), retries, cache hits, failures."""

    requests: int = 0
    retries: int = 0
    cache_hits: int = 0
    failures: int = 0
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False, compare=False)

    def add(self, **counts: int) -> None:
        with self._lock:  # batches run in threads
            for k, v in counts.items():
                setattr(self, k, getattr(self, k) + v)

    def as_dict(self) -> dict[str, int]:
        d = asdict(self)
        d.pop("_lock", None)
        return d


class Backend:
    """Base class. Options common to all backends:

    ``cache``: ``None``/``False`` (off), ``"memory"``/``True``, or a directory for an on-disk cache
    (see :mod:`detectors.backends.cache`); ``max_workers``: how many requests of a batch run at
    once; ``temperature``, ``seed``, ``max_tokens``: defaults for requests that leave them unset.
    ``supports_images`` says whether image inputs are understood.
    """

    kind: ClassVar[str] = ""
    supports_images: ClassVar[bool] = False

    def __init__(
        self,
        *,
        cache: Any = "memory",
        max_workers: int = 1,
        temperature: float = 0.0,
        seed: int | None = None,
        max_tokens: int | None = None,
    ) -> None:
        if max_workers < 1:
            raise ValueError("max_workers must be at least 1")
        self.cache: Cache | None = make_cache(cache)
        self.max_workers = max_workers
        self.temperature = temperature
        self.seed = seed
        self.max_tokens = max_tokens
        self.stats = BackendStats()
        # Set when a batch is interrupted (Ctrl-C, SIGTERM): requests still in flight then give up
        # at their next retry instead of keeping the process alive through their backoffs.
        self.stopping = threading.Event()

    # -- what subclasses provide -------------------------------------------------------------
    def identity(self) -> dict[str, Any]:
        """What, besides the payload, decides the answer (server URL, model path...)."""
        return {"kind": self.kind}

    def payload(self, request: ChatRequest) -> dict[str, Any]:
        """The full, JSON-serialisable request as it will be sent."""
        raise NotImplementedError

    def _send(self, payload: dict[str, Any], request: ChatRequest) -> list[str]:
        """Send ``payload``; return one text per sample or raise :class:`BackendError`."""
        raise NotImplementedError

    def secrets(self) -> tuple[str, ...]:
        """Strings that must never appear in an error (API keys, passwords)."""
        return ()

    # -- shared behaviour --------------------------------------------------------------------
    def options(self, request: ChatRequest) -> tuple[float, int | None, int | None]:
        """``(temperature, seed, max_tokens)`` after applying the backend defaults."""
        temperature = self.temperature if request.temperature is None else request.temperature
        seed = self.seed if request.seed is None else request.seed
        max_tokens = self.max_tokens if request.max_tokens is None else request.max_tokens
        return temperature, seed, max_tokens

    def cache_key(self, payload: dict[str, Any]) -> str:
        blob = json.dumps(
            {"backend": self.identity(), "payload": payload}, sort_keys=True, ensure_ascii=False, separators=(",", ":")
        )
        return hashlib.sha256(blob.encode("utf-8")).hexdigest()

    def complete(self, request: ChatRequest) -> Completion:
        """Answer one request, from the cache when the same full request was answered before."""
        if request.images and not self.supports_images:
            raise BackendError(f"the {self.kind!r} backend does not take images")
        payload = self.payload(request)
        key = self.cache_key(payload) if self.cache is not None else ""
        if self.cache is not None:
            hit = self.cache.get(key)
            if hit is not None:
                self.stats.add(cache_hits=1)
                return Completion(list(hit), cached=True)
        try:
            texts = self._send(payload, request)
        except BackendError as exc:
            self.stats.add(failures=1)
            exc.args = (scrub(str(exc), self.secrets()),)
            raise
        if self.cache is not None:
            self.cache.put(key, texts)
        return Completion(texts)

    def complete_many(self, requests: Sequence[ChatRequest]) -> list[Completion | BackendError]:
        """Answer many requests, at most ``max_workers`` at a time, in order. A request that
        fails comes back as its :class:`BackendError` instead of stopping the others."""

        def one(request: ChatRequest) -> Completion | BackendError:
            try:
                return self.complete(request)
            except BackendError as exc:
                return exc
            except Exception as exc:  # a bug in one request must not lose the batch
                return BackendError(scrub(f"{type(exc).__name__}: {exc}", self.secrets()))

        if self.max_workers == 1 or len(requests) <= 1:
            return [one(r) for r in requests]
        pool = ThreadPoolExecutor(max_workers=min(self.max_workers, len(requests)))
        try:
            answers = list(pool.map(one, requests))
        except BaseException:
            # Interrupted: the queued requests are dropped rather than sent (a ``with`` block would
            # wait for every one of them), and those in flight stop retrying.
            self.stopping.set()
            pool.shutdown(wait=False, cancel_futures=True)
            raise
        pool.shutdown()
        return answers

    def close(self) -> None:
        """Release resources (connections, models). The default has nothing to release."""

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.identity()})"
