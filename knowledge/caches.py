"""The memo caches of the packages, listed in one place, bounded and clearable.

Hot lookups (WordNet distances, lemmas, inflections, the loaded spaCy model...) are memoised at
module level with :func:`functools.lru_cache`, each with a ``maxsize`` so that memory stays flat
on any input. :func:`caches` lists them all: every ``lru_cache`` defined at the top level of a
loaded module of :data:`PACKAGES` (a module not yet imported has nothing cached). It finds them
rather than having each module register, so this lowest layer imports nothing above it and a new
cache cannot be left out. :func:`clear_caches` empties them (``cece.clear_caches``): results do
not change, only the time the next calls take. The WordNet index itself
(:func:`knowledge.get_hierarchy`) is the data, not a cache, and stays.

>>> from knowledge import path_distance
>>> path_distance("dog.n.01", "cat.n.01")
4
>>> name = "knowledge.distance.path_distance"
>>> caches()[name].cache_info().currsize > 0, all(c.cache_info().maxsize for c in caches().values())
(True, True)
>>> clear_caches() > 0, caches()[name].cache_info().currsize
(True, 0)
"""

from __future__ import annotations

import sys
from typing import Any

#: The top-level packages whose module-level caches are listed.
PACKAGES = ("knowledge", "parsers", "cece", "detectors", "benchmarks", "halcece", "cli")


def caches() -> dict[str, Any]:
    """``{"module.function": cache}`` for every ``functools.lru_cache`` defined at the top level
    of a loaded module of :data:`PACKAGES` (an imported alias is listed under its own module)."""
    found = {}
    for name, module in list(sys.modules.items()):
        if module is None or name.partition(".")[0] not in PACKAGES:
            continue
        for attr, value in list(vars(module).items()):
            if callable(getattr(value, "cache_clear", None)) and getattr(value, "__module__", None) == name:
                found[f"{name}.{attr}"] = value
    return dict(sorted(found.items()))


def clear_caches() -> int:
    """Empty every cache of :func:`caches`; how many there were."""
    listed = caches()
    for cache in listed.values():
        cache.cache_clear()
    return len(listed)
