"""A third-party package adds a detector, a model backend and a benchmark without touching this repo.

The package is written into tmp_path with a pyproject.toml that declares one entry point in each
of ``cece.detectors``, ``cece.backends`` and ``cece.benchmarks``; pip installs it (offline: no
index, no build isolation, no dependencies) into a folder of its own put on the path, the
registries find it through real entry-point discovery, each plugin is used through the project's
own API and CLI, and the folder leaves the path again. The test environment itself is never
changed: tests running beside these (``make test`` runs them in parallel) see no stray plugin.
"""

from __future__ import annotations

import importlib
import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from click.testing import CliRunner

DIST = "cece-plugin-demo"
MODULE = "cece_plugin_demo"

PYPROJECT = f"""
[build-system]
requires = ["setuptools>=61"]
build-backend = "setuptools.build_meta"

[project]
name = "{DIST}"
version = "0.1"

[tool.setuptools]
py-modules = ["{MODULE}"]

[project.entry-points."cece.detectors"]
shouty = "{MODULE}:ShoutyDetector"

[project.entry-points."cece.backends"]
upper = "{MODULE}:UpperBackend"

[project.entry-points."cece.benchmarks"]
shouts = "{MODULE}:BENCHMARK"
"""

SOURCE = '''
"""A detector, a backend and a benchmark, from outside halcece."""
import json

from benchmarks.registry import BenchmarkInfo, Evaluation
from detectors.backends import Backend
from detectors.base import Detection, Detector


class ShoutyDetector(Detector):
    """A caption that shouts (has a '!') is called hallucinated."""
    name = "shouty"

    def __init__(self, mark="!"):
        self.mark = mark

    def detect(self, sample):
        caption = sample["caption"]
        return Detection(id=str(sample["id"]), detector=self.name, score=float(self.mark in caption))


class UpperBackend(Backend):
    """A 'model' that answers the prompt in capitals."""
    kind = "upper"

    def __init__(self, suffix=""):
        self.suffix = suffix
        super().__init__()

    def payload(self, request):
        return {"p": request.prompt}

    def _send(self, payload, request):
        return [payload["p"].upper() + self.suffix]


def load(path, images=None):
    rows = json.loads(open(path).read())
    samples = [{"id": r["id"], "caption": r["caption"]} for r in rows]
    return samples, {r["id"]: r["hallucinated"] for r in rows}


def evaluate(gold, dets, threshold=0.5):
    hits = [(dets[i].score >= threshold) == g for i, g in gold.items() if i in dets]
    valid = len(hits)
    return Evaluation({"accuracy": sum(hits) / valid if valid else None},
                      counts={"valid": valid, "errors": len(gold) - valid, "parse_failures": 0, "dropped": 0})


BENCHMARK = BenchmarkInfo("shouts", load, evaluate, "a JSON list of {id, caption, hallucinated}",
                          "no images", "caption", "captions only")
'''


def _pip(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "pip", "--disable-pip-version-check", "--no-input", *args],
        capture_output=True,
        text=True,
        timeout=300,
    )


@pytest.fixture(scope="module")
def plugin_installed(tmp_path_factory):
    src = tmp_path_factory.mktemp("plugin")
    site = tmp_path_factory.mktemp("site")  # the plugin's own folder on the path (see the module docstring)
    (src / "pyproject.toml").write_text(textwrap.dedent(PYPROJECT))
    (src / f"{MODULE}.py").write_text(SOURCE)
    r = _pip("install", "--no-index", "--no-deps", "--no-build-isolation", "--quiet", "--target", str(site), str(src))
    assert r.returncode == 0, r.stdout + r.stderr
    sys.path.insert(0, str(site))
    importlib.invalidate_caches()  # the new dist-info and module on sys.path
    try:
        assert _plugin_names(site) == {"built-in": True, "ours": True}
        yield src
    finally:
        sys.path.remove(str(site))
        sys.modules.pop(MODULE, None)
        importlib.invalidate_caches()
        assert _plugin_names() == {"built-in": True, "ours": False}  # gone again; nothing else lost


def _plugin_names(site: Path | None = None) -> dict[str, bool]:
    """In a fresh process (it sees exactly what is installed, and ``site`` when given): are the
    built-in plugins there, and ours?"""
    code = (
        "from detectors import registry; from detectors.backends import available_backends; "
        "from benchmarks.registry import BENCHMARKS; "
        "print(' '.join(sorted(set(registry.available()) | set(available_backends()) | set(BENCHMARKS))))"
    )
    env = dict(os.environ)
    if site is not None:
        env["PYTHONPATH"] = os.pathsep.join([str(site), *filter(None, [env.get("PYTHONPATH")])])
    r = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=Path(__file__).resolve().parents[1],
        env=env,
    )
    assert r.returncode == 0, r.stderr
    names = set(r.stdout.split())
    return {
        "built-in": {"halcece", "openai", "transformers", "hat"} <= names,
        "ours": bool({"shouty", "upper", "shouts"} & names),
    }


def test_a_third_party_detector_is_found_and_used(plugin_installed):
    from detectors import registry

    assert "shouty" in registry.available()
    det = registry.create("shouty")
    assert det.__module__ == MODULE
    out = det.detect_batch([{"id": "a", "caption": "A dog!"}, {"id": "b", "caption": "A dog."}])
    assert [d.score for d in out] == [1.0, 0.0]


def test_a_third_party_detector_runs_from_cece_detect(plugin_installed, tmp_path):
    from halcece import main

    samples = tmp_path / "s.jsonl"
    samples.write_text('{"id": "a", "caption": "Stop!"}\n{"id": "b", "caption": "A dog."}\n')
    out = tmp_path / "d.jsonl"
    r = CliRunner().invoke(
        main, ["detect", str(samples), "-o", str(out), "-d", "shouty", "-q", "--option", "shouty.mark=."]
    )
    assert r.exit_code == 0, r.output
    rows = [json.loads(x) for x in out.read_text().splitlines()]
    assert {(x["id"], x["score"]) for x in rows} == {("a", 0.0), ("b", 1.0)}


def test_a_third_party_backend_is_found_and_used(plugin_installed):
    from detectors.backends import ChatRequest, available_backends, create_backend, drive, resolve_backend, text_of

    assert "upper" in available_backends()
    backend = resolve_backend({"kind": "upper", "suffix": "?"})
    assert type(backend).__module__ == MODULE and create_backend("upper").kind == "upper"

    def job(word):
        answers = yield [ChatRequest(word)]
        return text_of(answers[0])

    assert drive([job("is it a dog"), job("a cat")], backend) == ["IS IT A DOG?", "A CAT?"]


def test_a_third_party_benchmark_is_found_loaded_and_scored(plugin_installed, tmp_path):
    from benchmarks.evaluate import evaluate
    from benchmarks.registry import BENCHMARKS
    from detectors import registry

    assert "shouts" in BENCHMARKS and {"hat", "foil", "alignbench", "detailverify"} <= set(BENCHMARKS)
    info = BENCHMARKS["shouts"]
    data = tmp_path / "shouts.json"
    data.write_text(
        json.dumps(
            [
                {"id": "1", "caption": "A dog!", "hallucinated": True},
                {"id": "2", "caption": "A cat.", "hallucinated": False},
                {"id": "3", "caption": "A bird.", "hallucinated": True},
            ]
        )
    )
    samples, gold = info.load(data)
    dets = {d.id: d for d in registry.create("shouty").detect_batch(samples)}
    result = evaluate("shouts", gold, dets)
    assert result.summary == {"accuracy": pytest.approx(2 / 3)} and result.counts["valid"] == 3


def test_cece_lists_every_plugin(plugin_installed):
    from halcece import main

    r = CliRunner().invoke(main, ["bench", "list"])
    assert r.exit_code == 0 and "shouts\n  --data    a JSON list of {id, caption, hallucinated}" in r.output
    r = CliRunner().invoke(main, ["doctor"])
    assert r.exit_code == 0, r.output
    for line in ("detectors (cece.detectors): ", "backends (cece.backends): ", "benchmarks (cece.benchmarks): "):
        assert line in r.output
    assert f"shouty [{DIST}]" in r.output and f"upper [{DIST}]" in r.output and f"shouts [{DIST}]" in r.output
