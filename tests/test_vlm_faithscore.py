"""The vlm, ensemble and faithscore detectors end to end, offline: model answers come from a
scripted OpenAI-compatible server on 127.0.0.1, graph verification from fixture annotations."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from fixtures import llm_server as llm  # noqa: E402  (tests/ is on sys.path under pytest)

from detectors.base import Detector
from detectors.ensemble import EnsembleDetector
from detectors.faithscore import FaithScoreDetector
from detectors.faithscore.llm import VERIFY_PROMPT
from detectors.vlm import VLMDetector

PNG, Reply, ScriptedServer = llm.PNG, llm.Reply, llm.ScriptedServer

FIXTURES = Path(__file__).parent / "fixtures"
CAPTION = "A brown dog sits on a red sofa."


@pytest.fixture(scope="module")
def parser():
    from parsers import CaptionParser

    return CaptionParser()


@pytest.fixture
def image(tmp_path, monkeypatch):
    """An image file inside the working directory (the default image root)."""
    monkeypatch.chdir(tmp_path)
    path = tmp_path / "pixel.png"
    path.write_bytes(PNG)
    return str(path)


def judge(server, **options) -> VLMDetector:
    backend = {"base_url": server.url, "model": "judge", "backoff": 0.01, "max_workers": 4}
    return VLMDetector(backend=backend, **options)


def sentence_of(body) -> str:
    return re.search(r'Sentence to judge: "(.*)"', llm.prompt_of(body)).group(1)


# -- AlignBench ------------------------------------------------------------------------------
def test_alignbench_scores_sentences_and_counts_unparsable_answers(image):
    answers = {"A dog sits on a sofa.": 'Here you go: {"score": 90}', "The dog is purple.": "I cannot tell from here."}
    with ScriptedServer(lambda body, n: answers[sentence_of(body)]) as server:
        d = judge(server, protocol="alignbench").detect(
            {"id": "a1", "caption": "A dog sits on a sofa. The dog is purple.", "image": image}
        )
    assert d.error is None
    # the unreadable judgement gives its sentence no score (never a neutral 0.5) and says so
    assert [(s.start, s.end, round(s.score, 6)) for s in d.sentences] == [(0, 21, 0.1)]
    assert d.details["unscored"] == [[22, 40]] and d.score == pytest.approx(0.1)
    assert d.details["parse_failures"] == 1 and d.details["unparsed"] == ["I cannot tell from here."]
    assert {b["max_tokens"] for b in server.bodies} == {160}  # the protocol's default
    assert server.bodies[0]["response_format"]["json_schema"]["schema"]["required"] == ["score"]
    assert all(llm.images_of(b)[0].startswith("data:image/png;base64,") for b in server.bodies)
    assert "parse_failures" in d.to_dict()["details"]


def test_alignbench_self_ensemble_averages_sampled_judgements(image):
    by_seed = {0: 60, 1: 80, 2: 100}
    with ScriptedServer(lambda body, n: json.dumps({"score": by_seed[body["seed"]]})) as server:
        d = judge(server, protocol="alignbench", samples=3).detect(
            {"id": "a2", "caption": "A dog sits on a sofa.", "image": image}
        )
    assert d.details["alignment"] == [[60.0, 80.0, 100.0]] and d.details["judgements"] == 3
    assert d.score == pytest.approx(0.2)
    assert sorted(b["seed"] for b in server.bodies) == [0, 1, 2]
    assert {b["temperature"] for b in server.bodies} == {0.7}


def test_judge_uses_references_when_there_is_no_image():
    with ScriptedServer(lambda body, n: '{"score": 100}') as server:
        d = judge(server).detect({"id": "a3", "caption": "A dog.", "references": ["a dog on grass"]})
        missing = judge(server).detect({"id": "a4", "caption": "A dog."})
    assert d.score == 0.0 and d.details["evidence"] == "references"
    assert "- a dog on grass" in llm.prompt_of(server.bodies[0]) and not llm.images_of(server.bodies[0])
    assert missing.error and "image" in missing.error and server.count == 1


# -- DetailVerifyBench -----------------------------------------------------------------------
def test_detailverify_maps_tags_to_caption_spans(image):
    answer = (
        "<think>the sofa is blue</think>"
        "<result>A brown  dog sits on a <hallucination>red</HALLUCINATION> sofa.</result>"
    )
    with ScriptedServer(lambda body, n: answer) as server:
        d = judge(server, protocol="detailverify").detect({"id": "d1", "caption": CAPTION, "image": image})
    assert d.score == 1.0 and d.details["parse_failures"] == 0
    assert [(s.start, s.end, s.text, s.score) for s in d.spans] == [(22, 25, "red", 1.0)]
    assert CAPTION[22:25] == "red" and d.sentences[0].score == 1.0


def test_detailverify_retries_an_invalid_copy():
    def answers(body, n):
        if "previous answer was not usable" in llm.prompt_of(body):
            return "A <HALLUCINATION>brown dog</HALLUCINATION> sits on a red sofa."
        return "A dog sits on a <HALLUCINATION>red</HALLUCINATION> couch."  # rewrote the caption

    with ScriptedServer(answers) as server:
        d = judge(server, protocol="detailverify").detect({"id": "d2", "caption": CAPTION, "references": ["x"]})
    assert server.count == 2 and d.details["parse_failures"] == 1
    assert "differs from the caption" in d.details["invalid"][0]
    assert [(s.start, s.end, s.text) for s in d.spans] == [(2, 11, "brown dog")]


def test_detailverify_gives_up_with_an_error_and_understands_no_hallucination():
    with ScriptedServer(lambda body, n: "A <HALLUCINATION>dog sits on a red sofa.") as server:
        failed = judge(server, protocol="detailverify", retries=2).detect(
            {"id": "d3", "caption": CAPTION, "references": ["x"]}
        )
    assert failed.score is None and "no valid tagged caption after 3 attempts: an unclosed tag" in failed.error
    assert failed.details["parse_failures"] == 3 and server.count == 3  # no retry served from the cache
    with ScriptedServer(lambda body, n: "<result>NO HALLUCINATION</result>") as server:
        clean = judge(server, protocol="detailverify").detect({"id": "d4", "caption": CAPTION, "references": ["x"]})
    assert clean.score == 0.0 and clean.spans == []


def test_detailverify_self_ensemble_votes_on_spans():
    tagged = {
        0: "A brown dog sits on a <HALLUCINATION>red</HALLUCINATION> sofa.",
        1: "A <HALLUCINATION>brown</HALLUCINATION> dog sits on a <HALLUCINATION>red</HALLUCINATION> sofa.",
    }
    with ScriptedServer(lambda body, n: tagged[body["seed"]]) as server:
        sample = {"id": "d5", "caption": CAPTION, "references": ["x"]}
        any_ = judge(server, protocol="detailverify", samples=2).detect(sample)
        fraction = judge(server, protocol="detailverify", samples=2, span_score="fraction").detect(sample)
    assert [(s.text, s.score) for s in any_.spans] == [("brown", 0.5), ("red", 1.0)]
    assert any_.score == 1.0 and fraction.score == pytest.approx((1 / 8 + 2 / 8) / 2)  # of 8 words


def test_a_batch_shares_rounds_and_keeps_order(image):
    with ScriptedServer(lambda body, n: '{"score": 75}') as server:
        out = judge(server).detect_batch(
            [
                {"id": "b1", "caption": "A dog.", "image": image},
                {"id": "b2"},
                {"id": "b3", "caption": "A cat. A hat.", "image": image},
            ]
        )
    assert [d.id for d in out] == ["b1", "b2", "b3"] and out[1].error
    assert out[0].score == out[2].score == pytest.approx(0.25) and server.count == 3


# -- ensemble --------------------------------------------------------------------------------
def test_ensemble_averages_members_merges_spans_and_survives_a_failure(image, parser):
    answers = {"A brown dog sits on a red sofa.": '{"score": 40}'}
    with ScriptedServer(lambda body, n: answers[sentence_of(body)]) as server:
        dead = {"base_url": "http://127.0.0.1:9/v1", "model": "m", "max_retries": 0, "timeout": 1}
        ens = EnsembleDetector(
            members=[
                {"name": "vlm", "backend": {"base_url": server.url, "model": "judge"}},
                FaithScoreDetector(parser=parser),
                {"name": "vlm", "backend": dead},
            ],
            weights=[1, 3, 1],
        )
        sample = {
            "id": "e1",
            "caption": CAPTION,
            "image": image,
            "annotation": {
                "objects": [{"names": ["dog"], "attributes": ["brown"]}, {"names": ["couch"], "attributes": ["blue"]}],
                "relationships": [],
            },
        }
        d = ens.detect(sample)
    members = {m["member"]: m for m in d.details["members"]}
    assert members["vlm#1"]["score"] == pytest.approx(0.6)
    assert members["faithscore"]["score"] == pytest.approx(0.25)  # "red" is false, 3 of 4 verified
    assert members["vlm#2"]["score"] is None and "gave up after 1 attempt" in members["vlm#2"]["error"]
    assert d.error is None and d.score == pytest.approx((0.6 + 3 * 0.25) / 4)
    assert [(s.text, s.label) for s in d.spans] == [("red sofa", "colour")]
    assert d.spans[0].score == pytest.approx(3 / 4)  # only faithscore (weight 3 of 4) marked it
    assert d.sentences[0].score == pytest.approx((0.6 + 3 * 0.25) / 4)


def test_ensemble_fails_only_when_every_member_fails():
    class Broken(Detector):
        name = "broken"

        def detect(self, sample):
            raise RuntimeError("boom")

    d = EnsembleDetector(members=[Broken(), Broken()]).detect({"id": "e2", "caption": "A dog."})
    assert d.score is None and "every member failed" in d.error and "boom" in d.error


def test_an_unconfigured_backend_fails_samples_not_the_batch(monkeypatch):
    monkeypatch.delenv("CECE_LLM_BASE_URL", raising=False)
    out = VLMDetector().detect_batch([{"id": "u1", "caption": "A dog.", "image": "x.png"}, {"id": "u2"}])
    assert [d.id for d in out] == ["u1", "u2"]
    assert "CECE_LLM_BASE_URL" in out[0].error and "caption" in out[1].error


# -- FaithScore ------------------------------------------------------------------------------
EXPECTED = {
    "vg-dogs": [
        ("count", "Two brown dogs", True),
        ("colour", "brown dogs", True),
        ("entity", "dogs", True),
        ("relation", "dogs are sitting on a red sofa", True),
        ("colour", "red sofa", False),
        ("entity", "sofa", True),
        ("entity", "cat", False),
        ("relation", "cat sleeps near the window", False),
        ("entity", "window", True),
    ],
    "refs-tennis": [
        ("entity", "man", True),
        ("relation", "man in a black shirt", True),
        ("relation", "man in a black shirt holds a tennis racket", True),
        ("colour", "black shirt", False),
        ("entity", "shirt", True),
        ("entity", "tennis racket", True),
        ("relation", "tennis racket on a court", False),
        ("entity", "court", True),
    ],
    "labels-desk": [
        ("entity", "woman", True),
        ("relation", "woman with a laptop", None),
        ("relation", "woman with a laptop and a cup", None),
        ("entity", "laptop", True),
        ("entity", "cup", False),
    ],
}


def test_faithscore_graph_verifier_on_annotations_and_references(parser):
    samples = [json.loads(line) for line in (FIXTURES / "llm_faithscore.jsonl").read_text().splitlines()]
    out = FaithScoreDetector(parser=parser).detect_batch(samples)
    for sample, d in zip(samples, out, strict=True):
        assert d.error is None and d.details["verifier"] == "graph"
        got = [(f["kind"], sample["caption"][f["start"] : f["end"]], f["verdict"]) for f in d.details["facts"]]
        assert got == EXPECTED[sample["id"]], sample["id"]
        judged = [v for _, _, v in got if v is not None]
        assert d.details["faithscore"] == pytest.approx(sum(judged) / len(judged))
        assert d.score == pytest.approx(1 - d.details["faithscore"])
        assert [(s.text, s.label) for s in d.spans] == [(t, k) for k, t, v in got if v is False]
        assert d.details["parse_failures"] == 0
    dogs = out[0]
    assert [s["label"] for s in dogs.details["sub_sentences"]] == ["descriptive", "analytical", "descriptive"]
    assert [round(s.score, 6) for s in dogs.sentences] == [round(1 - 5 / 6, 6), round(1 - 1 / 3, 6)]


def test_faithscore_vlm_verifier_end_to_end(image, parser):
    def verdicts(body, n):
        statement = re.search(r"Statement: (.*?) Is the statement correct", llm.prompt_of(body)).group(1)
        return {"The sofa is red.": "No.", "The dog is brown.": "hmm, hard to say"}.get(statement, "Yes, it is.")

    with ScriptedServer(verdicts) as server:
        det = FaithScoreDetector(parser=parser, backend={"base_url": server.url, "model": "judge", "max_workers": 4})
        d = det.detect({"id": "f1", "caption": CAPTION, "image": image})
    assert d.details["verifier"] == "vlm" and d.error is None
    got = {f["text"]: f["verdict"] for f in d.details["facts"]}
    assert got == {
        "The dog is brown.": None,
        "There is a dog.": True,
        "The dog sits on the sofa.": True,
        "The sofa is red.": False,
        "There is a sofa.": True,
    }
    assert d.details["parse_failures"] == 1 and d.score == pytest.approx(1 - 3 / 4)
    assert [(s.text, s.label) for s in d.spans] == [("red sofa", "colour")]
    assert server.count == 5 and all(llm.images_of(b) for b in server.bodies)
    prompts = [llm.prompt_of(b) for b in server.bodies]
    assert VERIFY_PROMPT.format(preface="", statement="There is a dog.", what="the image") in prompts
    assert d.details["answers"] == ["yes", "yes", "no", "yes"] and d.details["prompts"] == [VERIFY_PROMPT.id]


def test_faithscore_model_labels_and_facts_verified_on_the_graph(parser):
    caption = "A brown dog sits on a red sofa, which looks comfortable."

    def answers(body, n):
        prompt = llm.prompt_of(body)
        if "cut into numbered parts" in prompt:
            return '```json\n{"labels": ["D", "A"]}\n```'
        return json.dumps(
            {
                "entities": ["There is a dog.", "There is a sofa."],
                "colors": ["The sofa is red."],
                "relations": ["The dog is on the sofa."],
                "counting": [],
            }
        )

    with ScriptedServer(answers) as server:
        det = FaithScoreDetector(
            parser=parser, labeler="llm", decomposer="llm", backend={"base_url": server.url, "model": "judge"}
        )
        d = det.detect(
            {
                "id": "f2",
                "caption": caption,
                "annotation": {
                    "objects": [
                        {"object_id": 1, "names": ["dog"]},
                        {"object_id": 2, "names": ["sofa"], "attributes": ["green"]},
                    ],
                    "relationships": [{"subject_id": 1, "object_id": 2, "predicate": "on"}],
                },
            }
        )
    assert server.count == 2 and d.details["parse_failures"] == 0  # labels, then one descriptive part
    got = [(f["kind"], f["text"], caption[f["start"] : f["end"]], f["verdict"]) for f in d.details["facts"]]
    assert got == [
        ("entity", "There is a dog.", "dog", True),
        ("relation", "The dog is on the sofa.", "dog sits on a red sofa", True),
        ("colour", "The sofa is red.", "red sofa", False),
        ("entity", "There is a sofa.", "sofa", True),
    ]
    assert d.score == pytest.approx(0.25)


def test_faithscore_unreadable_model_steps_fall_back_and_are_counted(parser):
    with ScriptedServer(lambda body, n: "I cannot do that.") as server:
        det = FaithScoreDetector(
            parser=parser, labeler="llm", decomposer="llm", backend={"base_url": server.url, "model": "judge"}
        )
        d = det.detect({"id": "f3", "caption": CAPTION, "annotation": ["dog", "sofa"]})
    assert d.details["parse_failures"] == 2  # the labels and the one descriptive part
    assert [f["text"] for f in d.details["facts"]] == [
        "The dog is brown.",
        "There is a dog.",
        "The dog sits on the sofa.",
        "The sofa is red.",
        "There is a sofa.",
    ]
    assert d.score == 0.0  # labels only: colours and relations cannot be judged, entities hold
