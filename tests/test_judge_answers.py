"""What model judges answer is checked, not only parsed: facts grounded in what was asked, labels
read from prose, records with nothing judged left unscored, judges whose answers do not vary
reported, prompts a small model cannot parrot, and images refused by a text-only server. Model
answers come from a scripted OpenAI-compatible server on 127.0.0.1."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner
from fixtures import llm_server as llm  # noqa: E402  (tests/ is on sys.path under pytest)

from detectors import prompts
from detectors.faithscore import FaithScoreDetector
from detectors.faithscore.grounding import ungrounded
from detectors.faithscore.llm import DECOMPOSE_PROMPT, LABEL_PROMPT, parse_labels
from detectors.runner import RunStats, run_detectors
from detectors.vlm import VLMDetector
from halcece import main

FIXTURES = Path(__file__).parent / "fixtures"


@pytest.fixture(scope="module")
def parser():
    from parsers import CaptionParser

    return CaptionParser()


def backend(server, **more):
    return {"base_url": server.url, "model": "judge", "backoff": 0.01, "max_workers": 4, **more}


# -- facts must be facts of the caption --------------------------------------------------------
def test_model_facts_not_in_their_text_are_refused_counted_and_shown(parser):
    caption = "A glass display case holds chocolate donuts."
    junk = {
        "entity": ["There is a <object>.", "entity", "There are donuts.", "There is a case."],
        "colour": ["The dog is brown.", "red"],
        "count": ["There are two cats.", "1"],
        "relation": ["The donuts are in the display case."],
        "attribute": ["The case is made of glass."],
    }

    def answers(body, n):
        prompt = llm.prompt_of(body)
        if prompt.startswith("Here is a description"):
            return "Answer: D. The answer is: D"  # prose, not JSON
        if "atomic facts" in prompt:
            return json.dumps(junk)
        return '{"answer": "yes"}'

    with llm.ScriptedServer(answers) as server:
        d = FaithScoreDetector(
            parser=parser, labeler="llm", decomposer="llm", verifier="vlm", backend=backend(server)
        ).detect({"id": "f", "caption": caption, "references": ["Donuts in a glass case."]})
    kept = [f["text"] for f in d.details["facts"]]
    assert kept == [
        "The case is made of glass.",
        "The donuts are in the display case.",
        "There is a case.",
        "There are donuts.",
    ]  # in caption order
    refused = {r["text"]: r["reason"] for r in d.details["refused_facts"]}
    assert refused == {
        "There is a <object>.": "a placeholder of the prompt",
        "entity": "'entity' is not in the text",
        "The dog is brown.": "'dog' is not in the text",
        "red": "'red' is not in the text",
        "There are two cats.": "'2' is not in the text",
        "1": "'1' is not in the text",
    }
    assert d.details["parse_failures"] == 6 and d.details["sub_sentences"][0]["label"] == "descriptive"
    assert d.score == 0.0 and d.details["answers"] == ["yes"] * 4
    assert d.details["prompts"] == [LABEL_PROMPT.id, DECOMPOSE_PROMPT.id, prompts.FAITHSCORE_VERIFY.id]
    body = server.bodies[1]  # the decomposition: held to the schema the prose describes
    assert body["response_format"]["json_schema"]["schema"]["required"] == list(prompts.FACT_KINDS)


def test_an_answer_of_nothing_but_inventions_falls_back_to_the_graph(parser):
    def answers(body, n):
        if "atomic facts" in llm.prompt_of(body):
            return json.dumps({"entity": ["There is a dog."], "colour": ["The dog is brown."]})
        return "No."

    sample = {"id": "g", "caption": "A big elephant stands in the water.", "references": ["A zebra."]}
    with llm.ScriptedServer(answers) as server:
        d = FaithScoreDetector(parser=parser, decomposer="llm", verifier="vlm", backend=backend(server)).detect(sample)
        graph = FaithScoreDetector(parser=parser, verifier="vlm", backend=backend(server)).detect(sample)
    assert [f["text"] for f in d.details["facts"]] == [f["text"] for f in graph.details["facts"]]  # the graph's
    assert len(d.details["facts"]) >= 2 and d.details["parse_failures"] == 2 and d.score == 1.0


@pytest.mark.parametrize(
    "fact, text, why",
    [
        ("The couch is brown.", "A brown sofa", None),  # a WordNet synonym
        ("The dogs are sitting on the sofa.", "Two dogs sit on a sofa", None),  # lemmas
        ("There are 2 dogs.", "Two dogs sit", None),  # digits and number words
        ("There is a person.", "A man rides", "'person' is not in the text"),
        ("The man is tall.", "A tall and happy man", None),
        ("Tall.", "A tall man", "names nothing"),
    ],
)
def test_grounding(fact, text, why):
    assert ungrounded(fact, text) == why


@pytest.mark.parametrize(
    "answer, n, labels",
    [
        ("Answer: D. The answer is: D", 1, ["descriptive"]),
        ("1. D\n2. A", 2, ["descriptive", "analytical"]),
        ("Part 1: descriptive\nPart 2: analytical", 2, ["descriptive", "analytical"]),
        ('{"labels": ["A", "D"]}', 2, ["analytical", "descriptive"]),
        ("A dog sits on a sofa.", 1, None),  # the article is no label
        ("1. D", 2, None),  # a part without a label
        ("The answer is D. Answer: A", 1, None),  # two different labels
    ],
)
def test_labels_are_read_from_prose(answer, n, labels):
    assert parse_labels(answer, n) == labels


# -- nothing judged is not 0.0 ------------------------------------------------------------------
def test_a_caption_with_nothing_judged_has_no_score_and_says_why(parser):
    with llm.ScriptedServer(lambda body, n: '{"labels": ["A", "A"]}') as server:
        det = FaithScoreDetector(parser=parser, labeler="llm", backend=backend(server))
        rows = [{"id": "n", "caption": "A dog runs. It looks happy.", "references": ["A dog runs."]}]
        sink, stats = io.StringIO(), RunStats()
        run_detectors({"faithscore": det}, rows, sink, stats=stats)
    line = json.loads(sink.getvalue())
    assert line["score"] is None and line["error"] is None
    assert line["details"]["not_judged"] == "no descriptive sub-sentence: nothing to check against the image"
    assert line["sentences"] == [] and stats.not_judged == 1 and stats.failed == 0
    assert "1 not judged" in stats.summary().line()


def test_facts_the_verifier_cannot_judge_leave_the_record_unjudged(parser):
    with llm.ScriptedServer(lambda body, n: "I cannot tell.") as server:
        d = FaithScoreDetector(parser=parser, verifier="vlm", backend=backend(server)).detect(
            {"id": "u", "caption": "A dog.", "references": ["A cat."]}
        )
    assert d.score is None and d.details["not_judged"] == "none of the 1 facts could be judged (see facts)"
    assert d.details["parse_failures"] == 1


@pytest.mark.parametrize("verifier", ["vlm", "graph"])
def test_facts_about_abstractions_are_never_judged(parser, verifier):
    # A model labels the whole caption descriptive, so the graph's facts are about "sense",
    # "calm" and "afternoon": nothing a picture shows. Were they asked, the judge would say "no".
    def answers(body, n):
        return '{"labels": ["D", "D"]}' if "numbered parts" in llm.prompt_of(body) else "No."

    caption = "It suggests a sense of calm, evoking a lazy afternoon."
    with llm.ScriptedServer(answers) as server:
        det = FaithScoreDetector(parser=parser, labeler="llm", verifier=verifier, backend=backend(server))
        d = det.detect({"id": "a", "caption": caption, "references": ["A cat sleeping on a windowsill."]})
        assert server.count == 1  # the labelling: not one verification
        mixed = det.detect(
            {"id": "m", "caption": "A dog sits on a sofa, evoking a sense of calm.", "references": ["A dog."]}
        )
        racket = det.detect({"id": "r", "caption": "A man swings a racket.", "references": ["A tennis player."]})
    facts = d.details["facts"]
    assert {f["text"] for f in facts} >= {"There is a sense.", "There is an afternoon."}
    assert all(f["verdict"] is None and "names no visible thing" in f["not_judged"] for f in facts)
    assert d.score is None and d.error is None and d.spans == []
    assert d.details["not_judged"].startswith("no fact about a visible thing ('sense' names no visible thing")
    # Beside facts about things, they are left out of the score, not counted as hallucinations.
    judged = {f["text"]: f["verdict"] for f in mixed.details["facts"] if "not_judged" not in f}
    assert "There is a dog." in judged and "There is a sense." not in judged
    assert mixed.score is not None and "not_judged" not in mixed.details
    # A thing in a rare sense only ("racket" is mostly a din) is still a thing.
    assert not any("not_judged" in f for f in racket.details["facts"]) and racket.score == 1.0


# -- prompts a small model cannot parrot ---------------------------------------------------------
def test_no_prompt_shows_an_example_that_is_a_valid_answer():
    for p in (prompts.ALIGNBENCH, prompts.FAITHSCORE_LABEL, prompts.FAITHSCORE_DECOMPOSE, prompts.FAITHSCORE_VERIFY):
        shown = re.findall(r"\{\{.*?\}\}", p.text)  # the answer format written in the prompt
        assert shown, p.id
        for fmt in shown:
            assert re.search(r"<[^<>]+>", fmt), f"{p.id} shows a literal answer: {fmt}"
    # the schema asks for what the prose describes
    assert '"score": <0-100>' in prompts.ALIGNBENCH.text
    assert prompts.ALIGNBENCH.schema["properties"]["score"] == {"type": "integer", "minimum": 0, "maximum": 100}
    for kind in prompts.FACT_KINDS:
        assert f'"{kind}": [<facts>]' in prompts.FAITHSCORE_DECOMPOSE.text
    assert '"D" or "A"' in prompts.FAITHSCORE_LABEL.text and prompts.label_schema(3)["properties"]["labels"]["items"][
        "enum"
    ] == ["D", "A"]


# -- a judge whose answers do not vary -----------------------------------------------------------
def test_a_judge_that_always_answers_the_same_is_reported():
    rows = [{"id": f"r{i}", "caption": f"A dog number {i} runs.", "references": ["A dog."]} for i in range(9)]
    with llm.ScriptedServer(lambda body, n: '{"score": 73}') as server:
        sink, stats = io.StringIO(), RunStats()
        run_detectors({"vlm": VLMDetector(backend=backend(server))}, rows, sink, stats=stats)
    line = stats.summary().line()
    assert "vlm: the judge's answers do not vary: 9 of 9 were 73" in line
    first = json.loads(sink.getvalue().splitlines()[0])
    assert first["details"]["answers"] == [73] and first["details"]["prompts"] == ["alignbench/v2"]
    with llm.ScriptedServer(
        lambda body, n: json.dumps({"score": 10 * int(re.search(r"number (\d)", llm.prompt_of(body))[1])})
    ) as server:
        stats = RunStats()
        run_detectors({"vlm": VLMDetector(backend=backend(server))}, rows, io.StringIO(), stats=stats)
    assert stats.warnings() == []


def test_bench_run_marks_a_degenerate_judge(tmp_path):
    out, root = tmp_path / "ab", tmp_path / "images"
    for rel in ("val2014/COCO_val2014_000000000042.jpg", "images/sd/7.png"):
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_bytes(llm.PNG)
    with llm.ScriptedServer(lambda body, n: '{"score": 100}') as server:
        r = CliRunner().invoke(
            main,
            [
                "bench",
                "run",
                "alignbench",
                "--data",
                str(FIXTURES / "bench_alignbench.jsonl"),
                "--images",
                str(root),
                "-d",
                "vlm",
                "--option",
                "vlm.backend=" + json.dumps(backend(server)),
                "-o",
                str(out),
            ],
        )
    assert r.exit_code == 0, r.output
    assert "vlm: the judge's answers do not vary: 10 of 10 were 100" in r.output
    board = (out / "leaderboard.md").read_text()
    assert "| degenerate judge |" in board
    assert "degenerate judge: `vlm` -- answers do not vary: 10 of 10 were 100" in board
    assert json.loads((out / "metrics.json").read_text())["detectors"]["vlm"]["judge"].startswith("answers do not")


# -- images and text-only servers ----------------------------------------------------------------
REFUSAL = llm.Reply(
    status=500,
    body=json.dumps(
        {
            "error": {
                "code": 500,
                "type": "server_error",
                "message": "image input is not supported - hint: if this is unexpected, you may need to provide the "
                "mmproj",
            }
        }
    ).encode(),
)


def text_only(answer: str):
    def reply(body, n):
        if llm.images_of(body):
            return REFUSAL
        return "<result>A dog sits.</result>" if "<result>" in llm.prompt_of(body) else answer

    return reply


@pytest.fixture
def image(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "pixel.png").write_bytes(llm.PNG)
    return "pixel.png"


def test_images_auto_falls_back_to_references_and_says_so_once(image, capsys):
    rows = [
        {"id": f"i{k}", "caption": "A dog sits.", "image": image, "references": ["A dog sitting."]} for k in range(3)
    ] + [{"id": "bare", "caption": "A cat.", "image": image}]
    with llm.ScriptedServer(text_only('{"score": 90}')) as server:
        out = VLMDetector(backend=backend(server), batch_size=1).detect_batch(rows)
        more = VLMDetector(backend=backend(server), protocol="detailverify").detect(rows[0])
    assert [d.details["evidence"] for d in out[:3]] == ["references"] * 3 and out[0].score == pytest.approx(0.1)
    assert "image input is not supported" in out[0].details["images_refused"]
    assert "refused the image" in out[3].error and "no references" in out[3].error
    # after the first refusal no image is sent again by that detector
    assert sum(bool(llm.images_of(b)) for b in server.bodies) == 2  # one per detector
    assert more.error is None and more.details["evidence"] == "references"
    assert capsys.readouterr().err.count("does not take images") == 2  # once per detector


def test_images_always_and_never(image):
    row = {"id": "i", "caption": "A dog sits.", "image": image, "references": ["A dog sitting."]}
    with llm.ScriptedServer(text_only('{"score": 90}')) as server:
        always = VLMDetector(backend=backend(server), images="always").detect(row)
        never = VLMDetector(backend=backend(server), images="never").detect(row)
        faith = FaithScoreDetector(verifier="vlm", backend=backend(server), images="auto").detect(row)
    assert "image input is not supported" in always.error
    assert never.error is None and never.details["evidence"] == "references"
    assert faith.error is None and faith.details["evidence"] == "references" and "images_refused" in faith.details
    with pytest.raises(ValueError, match="images must be one of auto, always, never"):
        VLMDetector(images="sometimes")
