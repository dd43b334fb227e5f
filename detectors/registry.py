"""The detector registry: the entry-point group ``cece.detectors`` (see :mod:`cece.plugins`).

Built-in detectors are declared in this package's ``setup.cfg`` under that group exactly like a
third-party package declares its own, so there is one way in:

    [options.entry_points]
    cece.detectors =
        mydetector = mypackage.module:MyDetector

``register`` adds one at run time (tests, notebooks). ``cece doctor`` lists them.

>>> "halcece" in available()
True
"""

from __future__ import annotations

from typing import Any

from cece.plugins import Registry
from detectors.base import Detector

GROUP = "cece.detectors"
DETECTORS: Registry[type[Detector]] = Registry(GROUP, "detector")


def register(cls: type[Detector], name: str | None = None) -> type[Detector]:
    """Register a detector class under ``name`` (default: its ``name``). Usable as a decorator."""
    return DETECTORS.register(name or cls.name, cls)


def unregister(name: str) -> None:
    """Forget a detector added with :func:`register`."""
    DETECTORS.unregister(name)


def available() -> list[str]:
    """Names of all detectors: registered at run time and declared through entry points."""
    return DETECTORS.names()


def get(name: str) -> type[Detector]:
    """The detector class for ``name``; a KeyError lists the names there are."""
    return DETECTORS[name]


def create(name: str, **options: Any) -> Detector:
    """Instantiate detector ``name`` with its options (config over code paths)."""
    return get(name)(**options)
