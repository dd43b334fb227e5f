"""Detectors: the registry, the built-in detectors' behaviour, the Detection contract, `cece detect`."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from detectors import registry
from detectors.aloha import ALOHaDetector
from detectors.base import Detection, Detector, SpanScore
from detectors.configure import parse_options
from detectors.halcece import HalCECEDetector
from detectors.lexical import LexicalDetector
from detectors.runner import contract_problem, done_pairs, run_detectors
from halcece import main

FIXTURE = Path(__file__).parent / "fixtures" / "detect_samples.jsonl"
SAMPLES = {s["id"]: s for s in map(json.loads, FIXTURE.read_text().splitlines())}


class Echo(Detector):
    """A third-party-style detector: scores the share of caption words in upper case."""

    name = "echo"

    def __init__(self, weight: float = 1.0) -> None:
        self.weight = weight

    def detect(self, sample):
        words = sample["caption"].split()
        score = self.weight * sum(w[:1].isupper() for w in words) / max(len(words), 1)
        return Detection(id=sample["id"], detector=self.name, score=score)


@pytest.fixture(scope="module")
def halcece():
    return HalCECEDetector()


@pytest.fixture(scope="module")
def aloha():
    return ALOHaDetector()


@pytest.fixture(scope="module")
def lexical():
    return LexicalDetector()


@pytest.fixture(scope="module")
def echo_registered():
    registry.register(Echo)
    yield "echo"
    registry.unregister("echo")


def by_id(detector, *ids):
    return {d.id: d for d in detector.detect_batch([SAMPLES[i] for i in ids])}


def top(d: Detection) -> SpanScore:
    return max(d.spans, key=lambda s: s.score)


# -- registry ---------------------------------------------------------------------------------
def test_builtins_come_from_entry_points():
    from cece.plugins import declared

    eps = {e.name for e in declared(registry.GROUP)}
    for name in ("halcece", "aloha", "lexical", "vlm", "faithscore", "ensemble", "chair"):
        assert name in eps and name in registry.available()
    assert registry.get("lexical") is LexicalDetector


def test_third_party_detector_registered_at_run_time(echo_registered):
    assert "echo" in registry.available()
    d = registry.create("echo", weight=0.5).detect_batch([{"id": "a", "caption": "Big dog"}])[0]
    assert d.score == 0.25 and d.error is None
    with pytest.raises(KeyError, match="available"):
        registry.get("no-such-detector")


# -- halcece ----------------------------------------------------------------------------------
# The detector is a thin adapter over the core explanation (tests/test_evidence.py tests the
# judgement itself); here: the adapter, and that both give the same verdict and score.
def test_halcece_foil_outscores_its_baseline_and_points_at_the_foil(halcece):
    d = by_id(halcece, "rifle-base", "rifle-foil")
    assert d["rifle-foil"].score > 0.5 > d["rifle-base"].score
    assert d["rifle-foil"].hallucinated and not d["rifle-base"].hallucinated
    assert top(d["rifle-foil"]).text == "cello" and top(d["rifle-foil"]).label in ("object-R", "object-D")


def test_halcece_detector_and_explain_agree(halcece, tmp_path):
    from click.testing import CliRunner

    from cece import explain
    from halcece import main

    usable = [s for s in SAMPLES.values() if s.get("annotation") or s.get("references")]
    src = tmp_path / "in.jsonl"
    src.write_text("".join(json.dumps(s) + "\n" for s in usable))
    CliRunner().invoke(main, ["explain", str(src), "-q", "-o", str(tmp_path / "e.jsonl")])
    cli = {r["id"]: r for r in map(json.loads, (tmp_path / "e.jsonl").read_text().splitlines())}
    detections = {d.id: d for d in halcece.detect_batch(usable)}
    for s in usable:
        e = explain(s["caption"], s.get("annotation"), s.get("references"))
        d = detections[s["id"]]
        assert (
            (d.score, d.hallucinated)
            == (e.score, e.hallucinated)
            == (cli[s["id"]]["score"], cli[s["id"]]["hallucinated"])
        ), s["id"]


def test_halcece_hedged_object_is_never_the_verdict(halcece):
    d = by_id(halcece, "rifle-foil", "rifle-hedged")
    hedged = [s for s in d["rifle-hedged"].spans if s.text == "cello"]
    # how sure the hedged cello is is fitted (cece/data/confidence.json), and may be as sure as
    # the foil's; a hedge alone never makes the verdict
    assert hedged and not hedged[0].hallucinated and top(d["rifle-foil"]).hallucinated
    assert d["rifle-foil"].hallucinated and not d["rifle-hedged"].hallucinated


def test_halcece_against_an_annotation(halcece):
    d = by_id(halcece, "sofa-annotation", "sofa-faithful")
    assert d["sofa-faithful"].score == 0.0 and d["sofa-faithful"].spans == []
    assert d["sofa-faithful"].hallucinated is False
    bad = d["sofa-annotation"]
    # marked: the words the rewrite takes out with the cello
    assert [(s.text, s.label) for s in bad.spans] == [("a cello", "object-D")]
    assert bad.hallucinated and bad.threshold == halcece.explainer.threshold
    # two sentences: only the first holds the hallucination
    assert [s.score > 0 for s in bad.sentences] == [True, False]
    assert "cello" not in bad.details["counterfactual"]


def test_halcece_attribute_contradictions_and_kinds(halcece):
    d = by_id(halcece, "horses-count", "kitchen-colour", "fruit-kinds")
    assert (top(d["horses-count"]).text, top(d["horses-count"]).label) == ("Two", "count-R")
    assert (top(d["kitchen-colour"]).text, top(d["kitchen-colour"]).label) == ("white", "attribute-R")
    # "fruit" is faithful to the banana and the apple the references name
    assert not [s for s in d["fruit-kinds"].spans if s.label.startswith("object-")]


def test_halcece_judges_a_noun_the_parser_lost(halcece):
    # spaCy reads "croissant" as an adjective here; the parser's repair finds the noun again
    refs = ["A wheelbarrow full of dirt.", "A cart filled with soil.", "A wheelbarrow of dirt in a garden."]
    d = halcece.detect({"id": "lost", "caption": "A large croissant full of dirt.", "references": refs})
    assert (top(d).text, top(d).label) == ("large croissant", "object-D") and d.score > 0.5


def test_halcece_plural_against_a_singular_image_side(halcece):
    refs = ["A woman eating a donut.", "A girl takes a bite of a donut.", "A woman with a donut."]
    d = halcece.detect({"id": "n", "caption": "A woman eating some donuts.", "references": refs})
    assert (top(d).text, top(d).label) == ("donuts", "count-R")
    one = halcece.detect({"id": "1", "caption": "A woman eating a donut.", "references": refs})
    assert not [s for s in one.spans if s.label == "count-R"]
    # "people" may well be the man and the woman the references name
    pair = ["A man and a woman on a bench.", "A man sitting with a woman."]
    both = halcece.detect({"id": "p", "caption": "People on a bench.", "references": pair})
    assert not [s for s in both.spans if s.label == "count-R"]


def test_halcece_detector_and_explainer_agree_with_thresholds(halcece):
    from cece.api import Explainer

    explainer = Explainer()
    for sample in SAMPLES.values():
        if sample.get("annotation") is None and not sample.get("references"):
            continue
        d = halcece.detect(sample)
        e = explainer.explain(sample["caption"], sample.get("annotation"), sample.get("references"))
        assert (d.score, d.hallucinated, d.threshold) == (e.score, e.hallucinated, e.threshold), sample["id"]


def test_halcece_is_deterministic_and_needs_an_image_side(halcece):
    ids = list(SAMPLES)
    first = [d.to_dict() for d in halcece.detect_batch([SAMPLES[i] for i in ids])]
    again = [d.to_dict() for d in HalCECEDetector(batch_size=3).detect_batch([SAMPLES[i] for i in ids])]
    assert first == again
    missing = first[ids.index("no-references")]
    assert missing["score"] is None and "needs 'annotation' or 'references'" in missing["error"]


# -- aloha ------------------------------------------------------------------------------------
def test_aloha_scores_objects_and_takes_the_minimum(aloha):
    d = by_id(aloha, "rifle-base", "rifle-foil")
    assert d["rifle-base"].score < 0.1
    foil = d["rifle-foil"]
    assert top(foil).text == "cello" and foil.score == pytest.approx(top(foil).score)
    assert all(s.label == "object" for s in foil.spans)


def test_aloha_fixes_the_reference_defects(aloha):
    d = by_id(aloha, "fruit-kinds", "no-objects")
    # four candidate objects, three reference objects: the unassigned one is unsupported
    assert d["fruit-kinds"].score == 1.0
    assert d["no-objects"].score == 0.0 and d["no-objects"].spans == []


def test_aloha_hedges_and_alternatives(aloha):
    hedged = by_id(aloha, "rifle-hedged")["rifle-hedged"]
    assert "cello" not in [s.text for s in hedged.spans] and hedged.score < 0.1
    alt = aloha.detect(
        {"id": "x", "caption": "A man holding a cello or a rifle.", "references": SAMPLES["rifle-base"]["references"]}
    )
    assert alt.score < 0.1 and [s.text for s in alt.spans] == ["man", "rifle"]


def test_aloha_model_path_must_exist():
    with pytest.raises(ValueError, match="no sentence-embedding model"):
        ALOHaDetector(model_path="/no/such/model")


# -- lexical ----------------------------------------------------------------------------------
def test_lexical_missing_content_words(lexical):
    d = by_id(lexical, "rifle-foil", "kitchen-colour", "no-objects")
    assert [s.text for s in d["rifle-foil"].spans] == ["cello"] and d["rifle-foil"].score == 0.25
    assert [s.text for s in d["kitchen-colour"].spans] == ["white"]
    assert d["no-objects"].score == 0.0
    assert LexicalDetector(aggregate="max").detect(SAMPLES["rifle-foil"]).score == 1.0


# -- the Detection contract and the runner -----------------------------------------------------
def test_every_detection_honours_the_contract(halcece, aloha, lexical):
    for det in (halcece, aloha, lexical):
        for d in det.detect_batch(list(SAMPLES.values())):
            assert contract_problem(d, SAMPLES[d.id]["caption"]) is None, (det.name, d)
            assert d.detector == det.name and (d.score is None) == (d.error is not None)
            assert Detection.from_dict(json.loads(json.dumps(d.to_dict()))) == d


def test_runner_turns_broken_detectors_into_error_lines(tmp_path):
    class OutOfRange(Detector):
        name = "bad"

        def detect(self, sample):
            return Detection(sample["id"], self.name, score=1.5)

    class Crashes(Detector):
        name = "crash"

        def detect_batch(self, samples):
            raise RuntimeError("boom")

    out = tmp_path / "out.jsonl"
    with out.open("w") as sink:
        stats = run_detectors({"bad": OutOfRange(), "crash": Crashes()}, [{"id": "a", "caption": "A dog."}], sink)
    lines = [json.loads(x) for x in out.read_text().splitlines()]
    assert stats.written == 2 and stats.failed == 2
    assert "not in [0, 1]" in lines[0]["error"] and "boom" in lines[1]["error"]


def test_parse_options():
    assert parse_options(["halcece.batch_size=8", "halcece.explain=true"], ["halcece"]) == {
        "halcece": {"batch_size": 8, "explain": True}
    }
    for bad in ("halcece=1", "other.x=1", "halcece.=1"):
        with pytest.raises(ValueError):
            parse_options([bad], ["halcece"])


# -- cece detect -------------------------------------------------------------------------------
NAMES = ["halcece", "aloha", "lexical", "echo"]


def detect(src: Path, out: Path, *extra: str):
    args = ["detect", str(src), "-o", str(out)] + [x for n in NAMES for x in ("-d", n)] + list(extra)
    return CliRunner().invoke(main, args, catch_exceptions=False)


def read(out: Path) -> list[dict]:
    return [json.loads(x) for x in out.read_text().splitlines()]


def test_cece_detect_writes_one_valid_line_per_sample_and_detector(tmp_path, echo_registered):
    out = tmp_path / "out.jsonl"
    r = detect(FIXTURE, out, "--option", "echo.weight=0.5", "--batch-size", "4")
    assert r.exit_code == 2, r.output  # some samples lack what some detectors need: error lines
    lines = read(out)
    assert sorted((x["id"], x["detector"]) for x in lines) == sorted((i, n) for i in SAMPLES for n in NAMES)
    for x in lines:
        assert contract_problem(Detection.from_dict(x), SAMPLES[x["id"]]["caption"]) is None
    errors = {(x["id"], x["detector"]) for x in lines if x["error"]}
    assert ("no-references", "aloha") in errors and ("no-references", "lexical") in errors
    assert ("no-references", "halcece") in errors and ("no-references", "echo") not in errors
    assert ("sofa-annotation", "halcece") not in errors and ("sofa-annotation", "aloha") in errors


def test_cece_detect_resumes_after_a_kill_mid_line(tmp_path, echo_registered):
    out = tmp_path / "out.jsonl"
    assert detect(FIXTURE, out).exit_code == 2  # error lines for samples lacking references
    full = out.read_text()
    cut = full.index("\n", len(full) // 2) + 30  # a run killed while writing a line
    out.write_text(full[:cut])
    kept = [json.loads(x) for x in full[:cut].splitlines()[:-1]]
    r = detect(FIXTURE, out)
    assert r.exit_code == 2 and f"{sum(x['error'] is None for x in kept)} skipped" in r.output  # errors retried
    pairs = [(x["id"], x["detector"]) for x in read(out)]
    assert len(pairs) == len(set(pairs)) == len(SAMPLES) * len(NAMES)
    scored = {(x["id"], x["detector"]) for x in read(out) if x["error"] is None}
    assert done_pairs(out) == scored  # error lines are not done: the next run retries them


def test_cece_detect_reports_bad_lines_and_scores_the_rest(tmp_path, echo_registered):
    src = tmp_path / "in.jsonl"
    good = {"id": "ok", "caption": "A dog.", "references": ["A dog."]}
    src.write_text(
        "\n".join(
            [
                json.dumps(good),
                '{"id": "x", "caption": ',
                json.dumps({"caption": "A cat."}),
                json.dumps({"id": "y", "caption": 3}),
                json.dumps(good),
            ]
        )
        + "\n"
    )
    out = tmp_path / "out.jsonl"
    r = CliRunner().invoke(main, ["detect", str(src), "-o", str(out), "-d", "lexical", "-d", "echo"])
    assert r.exit_code == 2
    errors = [x for x in r.stderr.splitlines() if x.startswith(str(src))]
    assert [e.split(": ")[0].rsplit(":", 1)[1] + ":" + e.split(": ")[1] for e in errors] == [
        "2:json",
        "3:id",
        "4:caption",
        "5:id",
    ]
    rows = [(x["id"], x["detector"], x["error"]) for x in read(out)]
    assert [r for r in rows if r[2] is None] == [("ok", "lexical", None), ("ok", "echo", None)]
    # each bad line is an error line per detector, naming file:line:field (a bad id is no key)
    bad = [(i, d, e.split(": ")[0].rsplit(":", 1)[1] + ":" + e.split(": ")[1]) for i, d, e in rows if e]
    assert sorted(bad, key=str) == sorted(
        (
            (i, d, w)
            for d in ("lexical", "echo")
            for i, w in ((None, "2:json"), (None, "3:id"), ("y", "4:caption"), (None, "5:id"))
        ),
        key=str,
    )


def test_cece_detect_rejects_unknown_detectors_and_options(tmp_path):
    out = tmp_path / "out.jsonl"
    r = CliRunner().invoke(main, ["detect", str(FIXTURE), "-o", str(out), "-d", "nope"])
    assert r.exit_code == 2 and "unknown detector 'nope'" in r.output
    r = CliRunner().invoke(
        main, ["detect", str(FIXTURE), "-o", str(out), "-d", "lexical", "--option", "lexical.colour=red"]
    )
    assert r.exit_code == 2 and "detector 'lexical'" in r.output and not out.exists()


def test_model_judges_build_their_backend_and_parser_when_loaded():
    from detectors.backends.openai_compat import OpenAIBackend
    from detectors.faithscore.detector import FaithScoreDetector
    from detectors.vlm import VLMDetector

    server = {"kind": "openai", "base_url": "http://127.0.0.1:9/v1", "model": "m"}  # built, never called
    vlm = VLMDetector(backend=server)
    assert vlm._backend is None  # listing or configuring a detector needs no server
    vlm.load()
    assert isinstance(vlm._backend, OpenAIBackend)
    rules, model = (
        FaithScoreDetector(verifier="graph", backend=server),
        FaithScoreDetector(labeler="llm", backend=server),
    )
    rules.load(), model.load()
    assert rules._parser is not None and rules._backend is None  # rules and graphs only: no model to build
    assert isinstance(model._backend, OpenAIBackend)


def test_a_worker_loads_its_detectors_first_and_a_failed_load_fails_only_that_detectors_samples():
    from detectors.ensemble import EnsembleDetector
    from detectors.runner import DetectTask, DetectWork

    class Loads(Detector):
        name = "loads"
        loaded = False

        def load(self) -> None:
            self.loaded = True

        def detect(self, sample):
            return Detection(id=sample["id"], detector=self.name, score=1.0 if self.loaded else 0.0)

    class NoWeights(Detector):
        name = "noweights"

        def load(self) -> None:
            raise RuntimeError("no weights at /models/x")

        def detect(self, sample):
            self.load()

    halcece, member = HalCECEDetector(), Loads()
    task = DetectTask(
        {
            "loads": Loads(),
            "noweights": NoWeights(),
            "halcece": halcece,
            "ensemble": EnsembleDetector(members=[NoWeights(), member]),
        }
    )
    task.setup()
    assert halcece.explainer._parser is not None and member.loaded
    sample = {"id": "s1", "caption": "A dog on a sofa.", "references": ["A dog lies on a couch."]}
    got = task(DetectWork([(name, [sample]) for name in task.detectors], 1))
    assert got[0][0].score == 1.0
    assert got[1][0].error == "RuntimeError: no weights at /models/x"
    assert got[2][0].error is None and got[3][0].error is None
