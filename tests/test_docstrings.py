"""The docstring examples of every module run with the suite (setup.cfg: ``--doctest-modules`` over
every package), instead of a hand-kept list of modules that falls behind."""

from __future__ import annotations

import configparser
import doctest
import importlib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("halcece", "cece", "parsers", "knowledge", "detectors", "benchmarks")


def test_the_suite_collects_the_doctests_of_every_package():
    cfg = configparser.ConfigParser()
    cfg.read(ROOT / "setup.cfg")
    pytest_cfg = cfg["tool:pytest"]
    assert "--doctest-modules" in pytest_cfg["addopts"].split()
    paths = pytest_cfg["testpaths"].split()
    assert "tests" in paths and set(PACKAGES) <= set(paths)


def test_public_modules_with_examples_are_many():
    # A module whose examples were all removed would pass silently; keep the count honest. The
    # examples are counted as doctest finds them (a ">>> " in a comment or a string is none).
    finder = doctest.DocTestFinder()
    with_examples = []
    for pkg in PACKAGES:
        if not (ROOT / pkg).is_dir():
            continue
        for path in (ROOT / pkg).rglob("*.py"):
            name = ".".join(path.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__")
            if name.endswith("__main__"):
                continue  # runs the command line
            try:
                module = importlib.import_module(name)
            except ImportError:
                continue  # an optional extra that is not installed
            if any(t.examples for t in finder.find(module, name)):
                with_examples.append(name)
    assert len(with_examples) >= 80, len(with_examples)
