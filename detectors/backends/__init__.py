"""LLM/VLM backends behind one small interface, chosen by configuration.

``create_backend(kind, **options)`` builds one by name: ``"openai"`` (any OpenAI-compatible
chat-completions server, see :mod:`detectors.backends.openai_compat`) or ``"transformers"``
(a local Hugging Face model, see :mod:`detectors.backends.hf`). Other packages add kinds through
the entry-point group ``cece.backends``; ``register_backend`` adds one at run time. Detectors take
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

from importlib.metadata import entry_points
from typing import Any, Callable

from detectors.backends.base import Backend, BackendError, BackendStats, ChatRequest, Completion
from detectors.backends.driver import drive, text_of, texts_of

GROUP = "cece.backends"
_KINDS: dict[str, Callable[..., Backend]] = {}
_ALIASES = {"openai-compatible": "openai", "vllm": "openai", "ollama": "openai", "hf": "transformers",
            "huggingface": "transformers"}


def register_backend(kind: str, factory: Callable[..., Backend]) -> None:
    """Make ``create_backend(kind, ...)`` call ``factory(...)``."""
    _KINDS[kind] = factory


def _factory(kind: str) -> Callable[..., Backend]:
    kind = _ALIASES.get(kind, kind)
    if kind in _KINDS:
        return _KINDS[kind]
    if kind == "openai":  # imported lazily: the transformers backend pulls in torch
        from detectors.backends.openai_compat import OpenAIBackend

        return OpenAIBackend
    if kind == "transformers":
        from detectors.backends.hf import TransformersBackend

        return TransformersBackend
    for ep in entry_points(group=GROUP):
        if ep.name == kind:
            return ep.load()
    known = sorted({"openai", "transformers", *_KINDS, *_ALIASES, *(ep.name for ep in entry_points(group=GROUP))})
    raise KeyError(f"unknown backend {kind!r}; available: {', '.join(known)}")


def create_backend(kind: str = "openai", **options: Any) -> Backend:
    """A backend of ``kind`` configured by ``options``."""
    return _factory(kind)(**options)


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


__all__ = ["Backend", "BackendError", "BackendStats", "ChatRequest", "Completion", "create_backend",
           "drive", "register_backend", "resolve_backend", "text_of", "texts_of"]
