"""Any OpenAI-compatible chat-completions server: vLLM, Ollama, llama.cpp server, LM Studio,
hosted APIs. Standard library HTTP only (``urllib``), so nothing beyond Python is needed.

Configuration comes from options, else the environment:

=================  ======================  ============================================
option             environment             meaning
=================  ======================  ============================================
``base_url``       ``CECE_LLM_BASE_URL``   e.g. ``http://localhost:8000/v1`` (vLLM),
                                           ``http://localhost:11434/v1`` (Ollama)
``model``          ``CECE_LLM_MODEL``      the served model's name
``api_key``        ``CECE_LLM_API_KEY``    sent as ``Authorization: Bearer``; optional
=================  ======================  ============================================

Credentials inside ``base_url`` (``http://user:pass@host/v1``) are taken out of the URL and sent
as HTTP basic authentication (unless there is an API key); neither they nor the key ever appear in
an error message, ``repr`` or cache key.

Only failures that may pass are retried, ``max_retries`` times with exponential backoff
(``backoff * 2**attempt`` seconds): HTTP 408, 429, 502, 503, 504, a 500 that does not say why,
timeouts, refused or reset connections, answers that are not a chat completion. A
``Retry-After`` header (seconds or an HTTP date) sets the wait instead; every wait is capped at
``max_backoff``; a batch interrupted (Ctrl-C, SIGTERM) retries nothing more. Permanent failures
fail at once with the server's message: other 4xx (400, 401, 404...), 501 and 505+, and any
answer whose message says the request itself cannot work
("context size exceeded", "image input is not supported", "insufficient quota"...).

A request with a ``schema`` is sent with ``response_format`` (``json_schema``) unless
``structured_output`` is ``False``. With ``"auto"`` (default), a server that rejects it (a
permanent error naming ``response_format``, the schema or a grammar) is asked again without it,
and never again by this backend: the prompts ask for the same JSON in words, and the parsers
read prose too. With ``True`` the rejection is the request's error.

>>> b = OpenAIBackend(base_url="http://127.0.0.1:9/v1", model="m")
>>> b.payload(ChatRequest("Is there a dog?", temperature=0.7, seed=3))["messages"]
[{'role': 'user', 'content': 'Is there a dog?'}]
"""

from __future__ import annotations

import base64
import email.utils
import http.client
import json
import os
import re
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from typing import Any

from detectors.backends.base import Backend, BackendError, ChatRequest, scrub
from detectors.backends.images import to_data_url

RETRY_STATUS = frozenset({408, 429, 500, 502, 503, 504})
# What servers say when a request can never succeed, whatever its status (llama.cpp answers a
# context overflow with a 500; OpenAI an exhausted quota with a 429).
PERMANENT = re.compile(
    r"context (?:size|length|window)|maximum context|too many tokens|exceeds? the (?:available )?context"
    r"|prompt is too long|n_ctx|not supported|unsupported|does not support|insufficient[_ ]quota"
    r"|invalid[_ ](?:request|api[_ ]key|model)|model .{0,40}not found|no such model",
    re.I,
)
_SCHEMA_WORDS = re.compile(r"response_format|json_schema|schema|grammar|structured|guided", re.I)


class OpenAIBackend(Backend):
    """Chat completions over HTTP. Options (besides :class:`Backend`'s ``cache``,
    ``max_workers``, ``temperature``, ``seed``, ``max_tokens``): ``base_url``, ``model``,
    ``api_key`` (see the module docstring), ``timeout`` per attempt in seconds, ``max_retries``,
    ``backoff``, ``max_backoff`` (also the cap on ``Retry-After``), ``extra_body`` (merged into
    every request body, e.g. ``{"top_p": 0.9}``), ``headers`` (extra HTTP headers),
    ``structured_output`` (``"auto"``, ``True`` or ``False``; see the module docstring)."""

    kind = "openai"
    supports_images = True

    def __init__(
        self,
        base_url: str | None = None,
        model: str | None = None,
        api_key: str | None = None,
        *,
        timeout: float = 120.0,
        max_retries: int = 4,
        backoff: float = 1.0,
        max_backoff: float = 60.0,
        extra_body: dict[str, Any] | None = None,
        headers: dict[str, str] | None = None,
        max_workers: int = 8,
        structured_output: bool | str = "auto",
        **common: Any,
    ) -> None:
        super().__init__(max_workers=max_workers, **common)
        base_url = base_url or os.environ.get("CECE_LLM_BASE_URL")
        model = model or os.environ.get("CECE_LLM_MODEL")
        if not base_url:
            raise BackendError("no server: pass base_url or set CECE_LLM_BASE_URL (e.g. http://localhost:8000/v1)")
        if not model:
            raise BackendError("no model: pass model or set CECE_LLM_MODEL")
        if structured_output not in ("auto", True, False):
            raise ValueError(f"structured_output must be 'auto', true or false, not {structured_output!r}")
        url, self._basic = _split_credentials(base_url.rstrip("/"))
        self.url = url if url.endswith("/chat/completions") else url + "/chat/completions"
        self.model = model
        self._api_key = api_key if api_key is not None else os.environ.get("CECE_LLM_API_KEY")
        self.structured_output = structured_output
        self._schema_rejected = False
        # The wait between attempts (tests record it instead); it ends early when a batch is interrupted.
        self._sleep = self.stopping.wait
        self.timeout = timeout
        self.max_retries = max_retries
        self.backoff = backoff
        self.max_backoff = max_backoff
        self.extra_body = dict(extra_body or {})
        self.headers = dict(headers or {})
        # Bounds the calls in flight across every batch and thread using this backend.
        self._slots = threading.BoundedSemaphore(max_workers)

    def identity(self) -> dict[str, Any]:
        return {"kind": self.kind, "url": self.url}  # the model is in the payload; never the key

    def secrets(self) -> tuple[str, ...]:
        found = [self._api_key or "", *(self._basic or ())]
        found += [v for k, v in self.headers.items() if k.lower() in ("authorization", "api-key", "x-api-key")]
        return tuple(s for s in found if s)

    def payload(self, request: ChatRequest) -> dict[str, Any]:
        temperature, seed, max_tokens = self.options(request)
        messages: list[dict[str, Any]] = []
        if request.system:
            messages.append({"role": "system", "content": request.system})
        if request.images:
            # Images first: most open VLM chat templates expect the image before the question.
            parts: list[dict[str, Any]] = [
                {"type": "image_url", "image_url": {"url": to_data_url(i)}} for i in request.images
            ]
            parts.append({"type": "text", "text": request.prompt})
            messages.append({"role": "user", "content": parts})
        else:
            messages.append({"role": "user", "content": request.prompt})  # text-only servers too
        body: dict[str, Any] = {"model": self.model, "messages": messages, "temperature": temperature}
        if request.n != 1:
            body["n"] = request.n
        if seed is not None:
            body["seed"] = seed
        if max_tokens is not None:
            body["max_tokens"] = max_tokens
        if request.schema is not None and self.structured_output and not self._schema_rejected:
            body["response_format"] = {
                "type": "json_schema",
                "json_schema": {"name": "answer", "strict": True, "schema": request.schema},
            }
        body.update(self.extra_body)
        return body

    def _send(self, payload: dict[str, Any], request: ChatRequest) -> list[str]:
        if "response_format" in payload and not self._schema_rejected:
            try:
                return self._send_retrying(payload, request)
            except BackendError as exc:
                if exc.retryable or self.structured_output is True or not _SCHEMA_WORDS.search(str(exc)):
                    raise
            # Rejected: the server (or this model) has no structured output. Ask in prose.
            payload = {k: v for k, v in payload.items() if k != "response_format"}
            texts = self._send_retrying(payload, request)
            self._schema_rejected = True
            return texts
        if self._schema_rejected:
            payload = {k: v for k, v in payload.items() if k != "response_format"}
        return self._send_retrying(payload, request)

    def _send_retrying(self, payload: dict[str, Any], request: ChatRequest) -> list[str]:
        data = json.dumps(payload, ensure_ascii=False).encode("utf-8")
        for attempt in range(self.max_retries + 1):
            try:
                texts = self._post(data)
            except BackendError as exc:
                if not exc.retryable or attempt == self.max_retries or self.stopping.is_set():
                    if exc.retryable:
                        raise BackendError(
                            f"{exc} (gave up after {attempt + 1} attempt{'s' * (attempt > 0)})", status=exc.status
                        ) from None
                    raise
                wait = exc.retry_after if exc.retry_after is not None else self.backoff * 2**attempt
                self.stats.add(retries=1)
                self._sleep(max(0.0, min(wait, self.max_backoff)))
                continue
            if len(texts) < request.n:
                # Some servers (Ollama, llama.cpp) ignore "n": ask again, one answer at a time,
                # with shifted seeds so that seeded servers do not repeat themselves.
                single = {k: v for k, v in payload.items() if k != "n"}
                for i in range(len(texts), request.n):
                    if single.get("seed") is not None:
                        single["seed"] = payload["seed"] + i
                    texts += self._send_retrying(single, ChatRequest(""))[:1]
            return texts
        raise AssertionError("unreachable")

    def _post(self, data: bytes) -> list[str]:
        headers = {"Content-Type": "application/json", "Accept": "application/json", **self.headers}
        if self._api_key:
            headers["Authorization"] = f"Bearer {self._api_key}"
        elif self._basic:
            token = base64.b64encode(":".join(self._basic).encode("utf-8")).decode("ascii")
            headers["Authorization"] = f"Basic {token}"
        req = urllib.request.Request(self.url, data=data, headers=headers, method="POST")
        with self._slots:
            self.stats.add(requests=1)
            try:
                with urllib.request.urlopen(req, timeout=self.timeout) as resp:
                    raw = resp.read()
            except urllib.error.HTTPError as exc:
                raise _http_error(exc, self.url) from None
            except (urllib.error.URLError, TimeoutError, ConnectionError, http.client.HTTPException, OSError) as exc:
                reason = getattr(exc, "reason", exc)
                raise BackendError(
                    scrub(f"{self.url}: {type(reason).__name__}: {reason}", self.secrets()), retryable=True
                ) from None
        return parse_completion(raw)


def parse_completion(raw: bytes) -> list[str]:
    """The answer texts of a chat-completions response body; a :class:`BackendError`
    (retryable: a proxy or an overloaded server may garble one answer) when it is not one.

    >>> parse_completion(b'{"choices": [{"message": {"content": "yes"}}]}')
    ['yes']
    """
    try:
        body = json.loads(raw)
    except ValueError:
        raise BackendError(f"malformed answer (not JSON): {raw[:200]!r}", retryable=True) from None
    choices = body.get("choices") if isinstance(body, dict) else None
    if not isinstance(choices, list) or not choices:
        detail = body.get("error") if isinstance(body, dict) and body.get("error") else str(body)[:200]
        raise BackendError(f"malformed answer (no choices): {detail}", retryable=True)
    texts = []
    for choice in choices:
        message = choice.get("message") if isinstance(choice, dict) else None
        if not isinstance(message, dict):
            raise BackendError(f"malformed answer (choice without message): {str(choice)[:200]}", retryable=True)
        content = message.get("content")
        if isinstance(content, list):  # some servers answer in content parts
            content = "".join(p.get("text", "") for p in content if isinstance(p, dict))
        texts.append(content if isinstance(content, str) else "")
    return texts


def _split_credentials(url: str) -> tuple[str, tuple[str, str] | None]:
    """``url`` without its ``user:password@`` part, and that part (unquoted), if any.

    >>> _split_credentials("http://ann:p%40ss@host:8/v1")
    ('http://host:8/v1', ('ann', 'p@ss'))
    """
    parts = urllib.parse.urlsplit(url)
    if "@" not in parts.netloc:
        return url, None
    userinfo, _, host = parts.netloc.rpartition("@")
    user, _, password = userinfo.partition(":")
    clean = urllib.parse.urlunsplit(parts._replace(netloc=host))
    return clean, (urllib.parse.unquote(user), urllib.parse.unquote(password))


def permanent(status: int, message: str) -> bool:
    """Whether an HTTP failure can never pass by trying again (see the module docstring).

    >>> permanent(503, "loading model"), permanent(500, "context size exceeded"), permanent(404, "")
    (False, True, True)
    """
    return status not in RETRY_STATUS or bool(PERMANENT.search(message))


def _http_error(exc: urllib.error.HTTPError, url: str) -> BackendError:
    try:
        detail = exc.read()[:500].decode("utf-8", "replace")
    except Exception:
        detail = ""
    detail = _server_message(detail) or str(exc.reason)
    return BackendError(
        f"HTTP {exc.code} from {url}: {detail}",
        retryable=not permanent(exc.code, detail),
        status=exc.code,
        retry_after=retry_after(exc.headers.get("Retry-After")),
    )


def _server_message(body: str) -> str:
    """The message of an OpenAI-style error body (``{"error": {"message": ...}}``), else the body."""
    try:
        obj = json.loads(body)
    except ValueError:
        return body.strip()
    error = obj.get("error", obj) if isinstance(obj, dict) else obj
    if isinstance(error, dict):
        return str(error.get("message") or error.get("detail") or obj)
    return str(error)


def retry_after(value: str | None) -> float | None:
    """Seconds to wait from a ``Retry-After`` header (delta-seconds or an HTTP date).

    >>> retry_after("2"), retry_after(None), retry_after("soon")
    (2.0, None, None)
    """
    if not value:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(0.0, when.timestamp() - time.time())
