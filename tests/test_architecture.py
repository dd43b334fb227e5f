"""The import structure of the project, read with ``ast`` (nothing is imported).

Layers, lowest first: knowledge < parsers < cece < detectors < benchmarks < CLI. A module may
import its own layer and the ones below it, never one above, and no set of project modules may
import each other in a cycle. And no module is over 400 lines.

What counts as an import: every ``import`` / ``from ... import`` statement anywhere in a module,
function-local ones included (a lazy import still ties the two modules together, and a cycle
through one is only safe until someone moves it to the top). Two exceptions, on purpose:

- imports under ``if TYPE_CHECKING:`` never run, so they are left out;
- a module's implicit import of its parent packages (Python runs ``parsers/__init__`` before
  ``parsers.caption``) is not an edge; an explicit ``from parsers import X`` inside ``parsers/``
  is, since ``parsers/__init__`` usually imports that very module back.

``from pkg import name`` points at ``pkg.name`` when that is a module, else at ``pkg``.
"""

from __future__ import annotations

import ast
from pathlib import Path

import networkx as nx
import pytest

ROOT = Path(__file__).resolve().parents[1]
LAYERS = ("knowledge", "parsers", "cece", "detectors", "benchmarks", "halcece")


def project_modules(root: Path, packages: tuple[str, ...]) -> dict[str, Path]:
    """Dotted module name -> file, for every ``.py`` under the given top-level packages."""
    mods = {}
    for pkg in packages:
        for f in sorted((root / pkg).rglob("*.py")):
            parts = list(f.relative_to(root).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            mods[".".join(parts)] = f
    return mods


def _type_checking_nodes(tree: ast.AST) -> set[int]:
    skip: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If):
            t = node.test
            if (isinstance(t, ast.Name) and t.id == "TYPE_CHECKING") or (
                isinstance(t, ast.Attribute) and t.attr == "TYPE_CHECKING"
            ):
                skip.update(id(x) for stmt in node.body for x in ast.walk(stmt))
    return skip


def import_graph(root: Path, packages: tuple[str, ...]) -> dict[str, dict[str, int]]:
    """module -> {imported project module: line of the first such import}."""
    mods = project_modules(root, packages)

    def resolve(name: str) -> str | None:
        while name and name not in mods:
            name = name.rpartition(".")[0]
        return name or None

    graph: dict[str, dict[str, int]] = {}
    for mod, path in mods.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        skip = _type_checking_nodes(tree)
        package = mod.split(".") if path.name == "__init__.py" else mod.split(".")[:-1]
        out: dict[str, int] = {}
        for node in ast.walk(tree):
            if id(node) in skip:
                continue
            targets: list[str | None] = []
            if isinstance(node, ast.Import):
                targets = [resolve(a.name) for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    base = package[: len(package) - node.level + 1]
                    source = ".".join(base + ([node.module] if node.module else []))
                else:
                    source = node.module or ""
                targets = [
                    f"{source}.{a.name}" if f"{source}.{a.name}" in mods else resolve(source) for a in node.names
                ]
            for t in targets:
                if t and t != mod:
                    out.setdefault(t, node.lineno)
        graph[mod] = out
    return graph


def layer(module: str) -> int:
    return LAYERS.index(module.split(".")[0])


def cycles(graph: dict[str, dict[str, int]]) -> list[list[str]]:
    g = nx.DiGraph((a, b) for a, targets in graph.items() for b in targets)
    return sorted(sorted(c) for c in nx.strongly_connected_components(g) if len(c) > 1)


def upward(graph: dict[str, dict[str, int]], root: Path) -> list[str]:
    return sorted(
        f"{a.replace('.', '/')}.py:{line}: {a} imports {b}"
        for a, targets in graph.items()
        for b, line in targets.items()
        if layer(b) > layer(a)
    )


@pytest.fixture(scope="module")
def graph() -> dict[str, dict[str, int]]:
    packages = tuple(p for p in LAYERS if (ROOT / p).is_dir())
    return import_graph(ROOT, packages)


def test_the_walk_sees_every_package(graph):
    assert {m.split(".")[0] for m in graph} >= {"knowledge", "parsers", "cece", "detectors", "benchmarks", "halcece"}
    assert len(graph) > 100
    assert "knowledge.hierarchy" in graph["knowledge.distance"]


def test_no_import_cycle_among_project_modules(graph):
    found = cycles(graph)
    detail = "\n".join(
        " <-> ".join(c)
        + ": "
        + "; ".join(f"{a} imports {b} (line {graph[a][b]})" for a in c for b in graph[a] if b in c)
        for c in found
    )
    assert not found, f"import cycles:\n{detail}"


def test_no_import_from_a_lower_layer_to_a_higher_one(graph):
    bad = upward(graph, ROOT)
    assert not bad, "imports pointing up (" + " < ".join(LAYERS) + "):\n" + "\n".join(bad)


#: Modules stay small (the design's layout rule): one idea each, readable in one sitting.
MAX_MODULE_LINES = 400


def test_no_module_is_over_400_lines():
    packages = tuple(p for p in LAYERS if (ROOT / p).is_dir())
    sizes = {
        name: len(f.read_text(encoding="utf-8").splitlines()) for name, f in project_modules(ROOT, packages).items()
    }
    long = {name: n for name, n in sizes.items() if n > MAX_MODULE_LINES}
    assert not long, f"modules over {MAX_MODULE_LINES} lines (split them by topic): {long}"


# -- the checker itself finds what it must -----------------------------------------------------
def _write(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)


def test_checker_finds_cycles_lazy_ones_included_but_not_type_checking(tmp_path):
    _write(
        tmp_path,
        {
            "knowledge/__init__.py": "",
            "knowledge/a.py": "from knowledge.b import f\n",
            "knowledge/b.py": "def f():\n    from knowledge import a\n    return a\n",
            "knowledge/c.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from knowledge.d import X\n",
            "knowledge/d.py": "from . import c\n",
            "parsers/__init__.py": "from parsers.p import P\nfrom parsers.r import R\n",
            "parsers/r.py": "from parsers import P\nR = P\n",
            "parsers/p.py": "from parsers import q\nP = 1\n",
            "parsers/q.py": "from .p import P\n",
        },
    )
    g = import_graph(tmp_path, ("knowledge", "parsers"))
    assert g["knowledge.d"] == {"knowledge.c": 1}
    assert cycles(g) == [["knowledge.a", "knowledge.b"], ["parsers", "parsers.r"], ["parsers.p", "parsers.q"]]


def test_checker_finds_upward_imports(tmp_path):
    _write(
        tmp_path,
        {
            "knowledge/__init__.py": "",
            "knowledge/k.py": "import os\n\ndef g():\n    import cece.core\n",
            "cece/__init__.py": "",
            "cece/core.py": "import knowledge\n",
            "halcece/__init__.py": "import detectors.d\n",
            "detectors/__init__.py": "",
            "detectors/d.py": "from cece.core import x\n",
        },
    )
    g = import_graph(tmp_path, ("knowledge", "cece", "detectors", "halcece"))
    assert upward(g, tmp_path) == ["knowledge/k.py:4: knowledge.k imports cece.core"]
    assert cycles(g) == []
