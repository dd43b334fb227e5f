"""The one registry idiom: named plugins found through Python entry points.

Detectors, model backends and benchmarks are each a :class:`Registry` over one entry-point group
(:data:`GROUPS`). The built-in ones are declared in this project's ``setup.cfg`` exactly as a
third-party package declares its own, so installing a package is the only way in::

    [options.entry_points]
    cece.detectors =
        mydetector = mypackage.detector:MyDetector
    cece.backends =
        myserver = mypackage.backend:MyBackend
    cece.benchmarks =
        mybench = mypackage.bench:BENCHMARK

``register`` adds a plugin at run time (tests, notebooks); it wins over an entry point of the same
name. A registry is a read-only mapping: ``names()`` / ``list(r)`` never import a plugin,
``r[name]`` loads that one.

>>> r = Registry("example.group", "widget")
>>> r.register("spoon", dict)
<class 'dict'>
>>> r["spoon"], "spoon" in r, r.names()
(<class 'dict'>, True, ['spoon'])
>>> r["fork"]
Traceback (most recent call last):
...
KeyError: "unknown widget 'fork'; available: spoon"
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from importlib.metadata import EntryPoint, entry_points
from typing import Generic, TypeVar

T = TypeVar("T")

# group -> what one entry of it is (the `cece doctor` listing and docs/ARCHITECTURE.md name these).
GROUPS = {
    "cece.detectors": "detector (a Detector subclass)",
    "cece.backends": "model backend (a factory: options -> Backend)",
    "cece.benchmarks": "benchmark (a BenchmarkInfo: loader, evaluator, data help)",
}


@dataclass(frozen=True)
class PluginEntry:
    """One entry point of a group, as ``cece doctor`` lists it: where it points and who declares it."""

    group: str
    name: str
    value: str  # "module:attribute"
    distribution: str

    @property
    def module(self) -> str:
        return self.value.partition(":")[0].strip()


def declared(group: str) -> list[PluginEntry]:
    """The entry points of ``group`` in the installed distributions, by name (nothing imported).

    >>> [e.name for e in declared("cece.detectors")][:2]
    ['aloha', 'chair']
    """
    seen: dict[str, PluginEntry] = {}
    for ep in entry_points(group=group):
        dist = getattr(getattr(ep, "dist", None), "name", None) or "?"
        seen.setdefault(ep.name, PluginEntry(group, ep.name, ep.value, dist))
    return sorted(seen.values(), key=lambda e: e.name)


class Registry(Mapping[str, T], Generic[T]):
    """Plugins of one entry-point group, plus those registered at run time; ``aliases`` map
    other spellings to a name (``"hf"`` -> ``"transformers"``)."""

    def __init__(self, group: str, kind: str, aliases: Mapping[str, str] | None = None) -> None:
        self.group, self.kind = group, kind
        self.aliases = dict(aliases or {})
        self._added: dict[str, T] = {}

    def register(self, name: str, plugin: T) -> T:
        """Add ``plugin`` under ``name`` for this process; returns it (usable in a decorator)."""
        self._added[name] = plugin
        return plugin

    def unregister(self, name: str) -> None:
        """Forget a plugin added with :meth:`register` (entry points stay)."""
        self._added.pop(name, None)

    def _entry_points(self) -> dict[str, EntryPoint]:
        found: dict[str, EntryPoint] = {}
        for ep in entry_points(group=self.group):
            found.setdefault(ep.name, ep)  # the first distribution on sys.path wins, as for imports
        return found

    def names(self) -> list[str]:
        """Every name there is, sorted (aliases left out)."""
        return sorted(set(self._added) | set(self._entry_points()))

    def __getitem__(self, name: str) -> T:
        name = self.aliases.get(name, name)
        if name in self._added:
            return self._added[name]
        ep = self._entry_points().get(name)
        if ep is None:
            raise KeyError(f"unknown {self.kind} {name!r}; available: {', '.join(self.names()) or 'none'}")
        loaded: T = ep.load()  # what the entry point names: trusted to be a T, as registered
        return loaded

    def __contains__(self, name: object) -> bool:
        return isinstance(name, str) and self.aliases.get(name, name) in self.names()

    def __iter__(self) -> Iterator[str]:
        return iter(self.names())

    def __len__(self) -> int:
        return len(self.names())

    def __repr__(self) -> str:
        return f"Registry({self.group!r}: {', '.join(self.names())})"
