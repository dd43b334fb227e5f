"""Public functions that had no test of their own: SceneGraph.to_networkx, register_backend and the
speed report of ``cece bench perf``."""

from __future__ import annotations

import json
from dataclasses import fields

import networkx as nx
import pytest
from click.testing import CliRunner

from parsers import Concept, Relation, SceneGraph


def test_to_networkx_keeps_every_concept_and_relation_with_their_fields():
    g = SceneGraph(text="A dog on a sofa next to a dog.")
    g.add_concept(Concept(text="dog", lemma="dog", synset="dog.n.01", attributes={"colour": ["brown"]}, spans=[(2, 5)]))
    g.add_concept(Concept(text="sofa", lemma="sofa", synset="sofa.n.01"))
    g.add_concept(Concept(text="dog", lemma="dog", synset="dog.n.01"))
    g.add_relation(Relation(0, "on", 1, canonical="on"))
    g.add_relation(Relation(2, "next to", 1, canonical="next to"))
    g.add_relation(Relation(0, "lying on", 1, canonical="lie on", verb_synset="lie.v.02"))  # a parallel edge
    nxg = g.to_networkx()
    assert isinstance(nxg, nx.MultiDiGraph)
    assert sorted(nxg.nodes) == [0, 1, 2] and nxg.number_of_edges() == 3
    assert nxg.nodes[0]["synset"] == "dog.n.01" and nxg.nodes[0]["attributes"] == {"colour": ["brown"]}
    assert nxg.nodes[0] == g.concepts[0].to_dict()
    assert sorted(d["canonical"] for _, _, d in nxg.edges(data=True)) == ["lie on", "next to", "on"]
    assert {d["predicate"] for d in nxg.get_edge_data(0, 1).values()} == {"on", "lying on"}
    assert nxg.get_edge_data(0, 1)[1]["verb_synset"] == "lie.v.02"
    assert not nxg.has_edge(1, 0)  # directed: subject -> object
    assert SceneGraph().to_networkx().number_of_nodes() == 0


def test_to_networkx_of_a_parsed_caption_matches_its_triples():
    from parsers import CaptionParser

    g = CaptionParser().parse("A man holding a red umbrella stands next to a bus.")
    nxg = g.to_networkx()
    triples = {(nxg.nodes[u]["lemma"], d["canonical"], nxg.nodes[v]["lemma"]) for u, v, d in nxg.edges(data=True)}
    assert triples == {(g.concepts[r.subject].lemma, r.canonical, g.concepts[r.object].lemma) for r in g.relations}
    assert len(triples) >= 2


def test_to_dict_writes_every_field_in_declaration_order_and_copies_the_lists():
    c = Concept(
        text="dogs",
        lemma="dog",
        synset="dog.n.01",
        attributes={"colour": ["brown"]},
        spans=[(2, 6)],
        phrase_span=(0, 6),
        uncertain=True,
        alternatives=["cat"],
        plural=True,
        source_id="7",
        aliases=["puppy"],
        recovered=True,
    )
    r = Relation(0, "lying on", 1, canonical="lie on", verb_synset="lie.v.02", span=(7, 15))
    for obj in (c, r):
        d = obj.to_dict()
        assert list(d) == [f.name for f in fields(obj)]  # a new field must reach the output too
        assert type(obj).from_dict(json.loads(json.dumps(d))) == obj
    d = c.to_dict()
    d["attributes"]["colour"].append("white"), d["aliases"].append("hound"), d["alternatives"].clear()
    assert c.attributes == {"colour": ["brown"]} and c.aliases == ["puppy"] and c.alternatives == ["cat"]


def test_register_backend_makes_a_kind_that_detectors_can_name():
    from detectors.backends import (
        BACKENDS,
        Backend,
        available_backends,
        create_backend,
        register_backend,
        resolve_backend,
    )
    from detectors.vlm import VLMDetector

    class Canned(Backend):
        kind = "canned"

        def __init__(self, answer: str = '{"score": 40}') -> None:
            self.answer = answer
            super().__init__()

        def payload(self, request):
            return {"p": request.prompt}

        def _send(self, payload, request):
            return [self.answer]

    assert "canned" not in available_backends()
    register_backend("canned", Canned)
    try:
        assert "canned" in available_backends() and {"openai", "transformers"} <= set(available_backends())
        assert isinstance(create_backend("canned"), Canned)
        assert resolve_backend({"kind": "canned", "answer": "x"}).answer == "x"
        det = VLMDetector(backend={"kind": "canned"}, use_references=True)
        d = det.detect({"id": "a", "caption": "A dog. A cat.", "references": ["A dog and a cat."]})
        assert d.error is None and [round(s.score, 2) for s in d.sentences] == [0.6, 0.6]
        register_backend("canned", lambda **o: Canned('{"score": 100}'))  # a later registration wins
        assert create_backend("canned").answer == '{"score": 100}'
    finally:
        BACKENDS.unregister("canned")
    assert "canned" not in available_backends()
    with pytest.raises(KeyError, match="unknown backend 'canned'; available: .*openai"):
        create_backend("canned")
    assert type(create_backend("vllm", base_url="http://127.0.0.1:9/v1", model="m")).__name__ == "OpenAIBackend"


def test_bench_perf_prints_consistent_speed_figures(monkeypatch):
    import benchmarks.perf as perf
    from halcece import main

    # The cold start is a fresh `cece explain` process (seconds): timed by `cece bench perf`, not here.
    monkeypatch.setattr(perf, "cold_start", lambda: 1.25)
    r = CliRunner().invoke(main, ["bench", "perf", "-n", "8"])
    assert r.exit_code == 0, r.output
    fig = json.loads(r.output)
    assert fig["captions"] == 8 and fig["cold_start_explain_one_caption_s"] == 1.25
    rates = [k for k in fig if k.endswith("_per_s")]
    assert {"raw_nlp_pipe_captions_per_s", "our_parser_captions_per_s", "full_explain_captions_per_s"} <= set(rates)
    assert all(fig[k] > 0 for k in rates)
    assert fig["parser_vs_upstream"] == pytest.approx(
        fig["our_parser_captions_per_s"] / fig["upstream_sng_parser_loop_captions_per_s"], abs=0.01
    )
    assert fig["explain_vs_raw_nlp_pipe"] == pytest.approx(
        fig["full_explain_captions_per_s"] / fig["raw_nlp_pipe_captions_per_s"], abs=0.01
    )
    assert fig["references_texts_per_s"] == pytest.approx(6 * fig["references_explain_records_per_s"], abs=0.1)
    assert 0.0 <= fig["hallucinated_share"] <= 1.0
    assert set(fig["ged_seconds_by_nodes"]) == {"10", "100", "500"}
    assert all(v > 0 for v in fig["ged_seconds_by_nodes"].values())


def test_perf_captions_are_deterministic_and_varied():
    from benchmarks.synthetic import make_captions

    a = make_captions(50)
    assert a == make_captions(50) and a != make_captions(50, seed=1)
    assert len(set(a)) > 40 and all(c[0].isupper() and c.endswith(".") for c in a)


def test_the_scaling_harness_answers_help_without_running(capsys):
    from benchmarks.scaling import main as scaling_main

    with pytest.raises(SystemExit) as exit_:
        scaling_main(["--help"])
    assert exit_.value.code == 0 and "--quick" in capsys.readouterr().out


def test_the_command_line_answers_help_without_loading_spacy_or_torch():
    import subprocess
    import sys

    code = (
        "import sys; from click.testing import CliRunner; from halcece import main; "
        "r = CliRunner().invoke(main, ['--help']); "
        "print(r.exit_code, 'explain' in r.output, sorted(m for m in ('spacy', 'torch', 'thinc') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split()
    assert out == ["0", "True", "[]"]
    import parsers

    assert {"CaptionParser", "SceneGraph", "to_scene_graph"} <= set(dir(parsers))
    with pytest.raises(AttributeError, match="no attribute 'Parser'"):
        parsers.Parser  # noqa: B018 -- the attribute look-up is the test
