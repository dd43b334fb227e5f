"""The module-level caches: every one bounded, all listed in one place, and a run after
``cece.clear_caches()`` gives the same output as the run before it."""

from __future__ import annotations

import contextlib
import importlib
import pkgutil

import cece
from cece.api import Explainer
from cece.pipeline import ExplainTask
from knowledge.caches import PACKAGES, caches

RECORDS = [
    {
        "id": "a",
        "caption": "A dog sitting on a lap.",
        "annotation": {
            "objects": ["man", "dog", "laptop", "lap"],
            "relationships": [["laptop", "on", "lap"], ["dog", "next to", "man"]],
        },
    },
    {
        "id": "b",
        "caption": "Two girls eat a pizza on a red couch.",
        "references": ["A woman eating pizza on a sofa.", "A lady has a slice of pizza while sitting on a blue couch."],
    },
    {"id": "c", "caption": "A bike leaning on a fence.", "annotation": ["bicycle", "fence", "grass"]},
]


def _rows() -> list[bytes]:
    return [r.row for _, r in ExplainTask(Explainer())(list(enumerate(RECORDS)))]


def test_every_cache_of_every_module_is_bounded_and_listed():
    for package in PACKAGES:
        try:
            root = importlib.import_module(package)
        except ImportError:
            continue  # halcece or cli, whichever this tree does not have
        for info in pkgutil.walk_packages(root.__path__, f"{package}."):
            if info.name.endswith("__main__"):
                continue  # runs the command line
            with contextlib.suppress(ImportError):  # an optional extra (ray...) that is not installed
                importlib.import_module(info.name)
    listed = caches()
    assert len(listed) >= 40, sorted(listed)
    unbounded = [name for name, c in listed.items() if c.cache_info().maxsize is None]
    assert not unbounded
    assert "knowledge.distance.path_distance" in listed and "cece.api.default_explainer" in listed


def test_a_run_after_clear_caches_gives_the_same_output():
    before = _rows()
    assert any(c.cache_info().currsize for c in caches().values())
    assert cece.clear_caches() == len(caches())
    assert all(c.cache_info().currsize == 0 for c in caches().values())
    assert _rows() == before
    assert cece.explain("A cat on a sofa.", annotation=["dog", "sofa"]).to_dict() == (
        cece.clear_caches() and cece.explain("A cat on a sofa.", annotation=["dog", "sofa"]).to_dict()
    )
