"""Answer caches keyed by a hash of the full request (see :meth:`Backend.cache_key`).

``make_cache`` reads the ``cache`` option: ``None``/``False`` -> no cache, ``"memory"``/``True``
-> a dict in this process, any other string or path -> a directory of small JSON files that
survives restarts (re-running an evaluation then costs no model calls).

>>> c = make_cache("memory")
>>> c.put("k", ["yes"]); c.get("k"), c.get("other")
(['yes'], None)
"""

from __future__ import annotations

import json
import os
import tempfile
import threading
from pathlib import Path
from typing import Any, Protocol


class Cache(Protocol):
    def get(self, key: str) -> list[str] | None: ...

    def put(self, key: str, texts: list[str]) -> None: ...


class MemoryCache:
    """A thread-safe dict from request hash to answers."""

    def __init__(self) -> None:
        self._data: dict[str, list[str]] = {}
        self._lock = threading.Lock()

    def get(self, key: str) -> list[str] | None:
        with self._lock:
            hit = self._data.get(key)
            return list(hit) if hit is not None else None

    def put(self, key: str, texts: list[str]) -> None:
        with self._lock:
            self._data[key] = list(texts)

    def __len__(self) -> int:
        return len(self._data)


class DiskCache:
    """One JSON file per request hash under ``root/<first two hex digits>/``; writes are atomic
    (temporary file + rename), so parallel workers and interrupted runs never leave half files."""

    def __init__(self, root: str | os.PathLike) -> None:
        self.root = Path(root).expanduser()
        self.root.mkdir(parents=True, exist_ok=True)

    def _path(self, key: str) -> Path:
        return self.root / key[:2] / f"{key}.json"

    def get(self, key: str) -> list[str] | None:
        try:
            texts = json.loads(self._path(key).read_text(encoding="utf-8"))["texts"]
        except (OSError, ValueError, KeyError, TypeError):
            return None  # absent or damaged: ask the model again
        return [str(t) for t in texts] if isinstance(texts, list) else None

    def put(self, key: str, texts: list[str]) -> None:
        path = self._path(key)
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            json.dump({"texts": list(texts)}, f, ensure_ascii=False)
        os.replace(tmp, path)


def make_cache(spec: Any) -> Cache | None:
    """A cache from the ``cache`` option (see the module docstring), or ``spec`` itself when it
    already has ``get`` and ``put``."""
    if spec is None or spec is False:
        return None
    if spec is True or spec == "memory":
        return MemoryCache()
    if isinstance(spec, (str, os.PathLike)):
        return DiskCache(spec)
    if hasattr(spec, "get") and hasattr(spec, "put"):
        return spec
    raise ValueError(f"cache must be None, 'memory' or a directory, not {spec!r}")
