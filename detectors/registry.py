"""The detector registry, fed by Python entry points (group ``cece.detectors``).

Built-in detectors are declared in this package's ``setup.cfg`` under that group exactly like a
third-party package would declare its own, so there is one way in:

    [options.entry_points]
    cece.detectors =
        mydetector = mypackage.module:MyDetector

``register`` adds one at run time (tests, notebooks).

>>> "halcece" in available()   # doctest: +SKIP
True
"""

from __future__ import annotations

from importlib.metadata import entry_points
from typing import Any

from detectors.base import Detector

GROUP = "cece.detectors"
_registered: dict[str, type[Detector]] = {}


def register(cls: type[Detector], name: str | None = None) -> type[Detector]:
    """Register a detector class under ``name`` (default: its ``name``). Usable as a decorator."""
    _registered[name or cls.name] = cls
    return cls


def _entry_points() -> dict[str, Any]:
    return {ep.name: ep for ep in entry_points(group=GROUP)}


def available() -> list[str]:
    """Names of all detectors: registered at run time and declared through entry points."""
    return sorted(set(_registered) | set(_entry_points()))


def get(name: str) -> type[Detector]:
    """The detector class for ``name``; a KeyError lists the names there are."""
    if name in _registered:
        return _registered[name]
    eps = _entry_points()
    if name not in eps:
        raise KeyError(f"unknown detector {name!r}; available: {', '.join(available()) or 'none'}")
    return eps[name].load()


def create(name: str, **options: Any) -> Detector:
    """Instantiate detector ``name`` with its options (config over code paths)."""
    return get(name)(**options)
