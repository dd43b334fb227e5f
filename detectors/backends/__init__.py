"""LLM/VLM backends behind one small interface, chosen by configuration.

``create_backend(kind, **options)`` builds one by name: ``"openai"`` (any OpenAI-compatible
chat-completions server, see :mod:`detectors.backends.openai_compat`) or ``"transformers"``
(a local Hugging Face model, see :mod:`detectors.backends.hf`). Kinds are the entry points of the
group ``cece.backends`` (the built-in two are declared in ``setup.cfg`` like any other package's,
and imported only when used: the transformers backend pulls in torch); ``register_backend`` adds
one at run time. Detectors take
a ``backend`` option that :func:`resolve_backend` reads: a Backend, a dict
``{"kind": ..., **options}``, a kind name, or None (an OpenAI-compatible server from the
``CECE_LLM_*`` environment).

>>> b = create_backend("openai", base_url="http://127.0.0.1:9/v1", model="qwen2-vl")
>>> b.url, b.model
('http://127.0.0.1:9/v1/chat/completions', 'qwen2-vl')
>>> resolve_backend(b) is b
True
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from cece.plugins import Registry
from detectors.backends.base import Backend, BackendError, BackendStats, ChatRequest, Completion
from detectors.backends.driver import drive, text_of, texts_of

GROUP = "cece.backends"
# Other spellings users reach for; the servers they name all speak the OpenAI protocol.
_ALIASES = {
    "openai-compatible": "openai",
    "vllm": "openai",
    "ollama": "openai",
    "hf": "transformers",
    "huggingface": "transformers",
}
BACKENDS: Registry[Callable[..., Backend]] = Registry(GROUP, "backend", aliases=_ALIASES)


def register_backend(kind: str, factory: Callable[..., Backend]) -> None:
    """Make ``create_backend(kind, ...)`` call ``factory(...)`` in this process.

    >>> register_backend("echo-test", lambda **o: o)
    >>> create_backend("echo-test", model="m"), "echo-test" in available_backends()
    ({'model': 'm'}, True)
    >>> BACKENDS.unregister("echo-test")
    """
    BACKENDS.register(kind, factory)


def available_backends() -> list[str]:
    """Every backend kind: the entry points of ``cece.backends`` and those registered at run time."""
    return BACKENDS.names()


def create_backend(kind: str = "openai", **options: Any) -> Backend:
    """A backend of ``kind`` configured by ``options``."""
    return BACKENDS[kind](**options)


def resolve_backend(spec: Any) -> Backend:
    """A Backend from a detector's ``backend`` option (see the module docstring)."""
    if isinstance(spec, Backend):
        return spec
    if spec is None:
        return create_backend("openai")
    if isinstance(spec, str):
        return create_backend(spec)
    if isinstance(spec, dict):
        options = dict(spec)
        return create_backend(options.pop("kind", "openai"), **options)
    raise TypeError(f"backend must be a Backend, a kind name or a dict of options, not {type(spec).__name__}")


__all__ = [
    "BACKENDS",
    "Backend",
    "BackendError",
    "BackendStats",
    "ChatRequest",
    "Completion",
    "available_backends",
    "create_backend",
    "drive",
    "register_backend",
    "resolve_backend",
    "text_of",
    "texts_of",
]
