"""The judge against an annotation, where every confidence is a constant of :mod:`cece.judge`
(1 for a mistake, ``HEDGED`` for a hedged mention, ``DOUBT`` for a triple wrong only because of an
end), so each verdict, score and marked edit below can be worked out by hand."""

from __future__ import annotations

import pytest

from cece import Explainer
from cece.api import default_explainer
from cece.judge import DOUBT, HEDGED

SOFA_MAN = {"objects": ["man", "sofa"], "relationships": [["man", "on", "sofa"]]}
# Visual Genome style: object ids are what the evidence names.
WITH_IDS = {
    "objects": [
        {"object_id": 11, "names": ["dog"]},
        {"object_id": 12, "names": ["sofa"]},
        {"object_id": 13, "names": ["man"]},
    ],
    "relationships": [{"subject_id": 13, "predicate": "near", "object_id": 12}],
}
WEAK = "; weak on its own, marked because the verdict rests on it with the other doubts"


@pytest.fixture(scope="module")
def explainer():
    """Explainers by threshold, sharing the loaded parser; no counterfactuals (not judged here)."""
    parser = default_explainer().parser
    made: dict[float | None, Explainer] = {}

    def at(threshold: float | None = None) -> Explainer:
        if threshold not in made:
            made[threshold] = Explainer(parser=parser, counterfactuals=False, threshold=threshold)
        return made[threshold]

    return at


def _rows(e):
    return [(x.op, x.level, x.cls, x.source, x.status, x.confidence, x.caused_by) for x in e.edits]


def test_replaced_and_more_general_objects_and_their_evidence(explainer):
    e = explainer().explain("A cat on a sofa.", annotation=WITH_IDS)
    cat, man, triple, near = e.edits
    assert (cat.cls, cat.target, cat.confidence, cat.status, cat.hallucinated) == (
        "R",
        "dog",
        1.0,
        "hallucinated",
        True,
    )
    assert cat.evidence == {
        "objects": ["11"],
        "words": ["dog"],
        "note": "the image has 'dog' where the caption says 'cat'",
    }
    assert (man.op, man.status, man.confidence, man.hallucinated) == ("insert", "suggestion", 0.0, False)
    # The triple is wrong because its subject is: a doubt, reported as the cat's consequence.
    assert (triple.status, triple.caused_by, triple.confidence, triple.hallucinated) == ("consequence", 0, DOUBT, False)
    assert triple.evidence["note"] == "the image has no relation 'on' between 'cat' and 'sofa'"
    assert (near.op, near.status) == ("insert", "suggestion")
    assert e.hallucinated and e.score == 1.0

    general = explainer().explain("An animal on a sofa.", annotation=WITH_IDS)
    animal, _, on, _ = general.edits
    # "animal" for a dog is under-specific: a suggestion that blames nothing on the triple.
    assert (animal.cls, animal.status, animal.confidence, animal.hallucinated) == ("U", "suggestion", 0.0, False)
    assert animal.evidence == {"objects": ["11"], "words": ["dog"], "note": "the image side is more specific"}
    assert (on.cls, on.status, on.confidence, on.caused_by, on.hallucinated) == ("D", "hallucinated", 1.0, None, True)


def test_deleted_object_and_triples_without_an_image_triple(explainer):
    e = explainer().explain("A man near a sofa and a guitar.", annotation=WITH_IDS)
    guitar, dog, triple = e.edits
    assert (guitar.op, guitar.cls, guitar.status, guitar.confidence) == ("delete", "D", "hallucinated", 1.0)
    assert guitar.evidence == {
        "objects": [],
        "words": [],
        "note": "the image has no 'guitar' and nothing left to stand for it",
    }
    assert (dog.op, dog.target) == ("insert", "dog")
    assert (triple.source, triple.status, triple.caused_by) == (["man", "next to", "guitar"], "consequence", 0)

    under = explainer().explain("A dog under a sofa.", annotation=WITH_IDS)
    assert [(x.op, x.level, x.status) for x in under.edits] == [
        ("insert", "object", "suggestion"),
        ("delete", "relation", "hallucinated"),
        ("insert", "relation", "suggestion"),
    ]
    wrong = under.edits[1]
    assert wrong.confidence == 1.0 and wrong.caused_by is None
    assert wrong.evidence == {
        "objects": [],
        "words": [],
        "note": "the image has no relation 'under' between 'dog' and 'sofa'",
    }


def test_replaced_triple_names_the_image_objects(explainer):
    by_id = explainer().explain("A florbix near a sofa.", annotation=WITH_IDS)
    triple = by_id.edits[-1]
    assert (triple.cls, triple.target) == ("R", ["man", "next to", "sofa"])
    assert triple.evidence == {
        "objects": ["13", "12"],
        "words": ["near"],
        "note": "the image has ['man', 'next to', 'sofa']",
    }
    # An end not in WordNet is not judged: the triple is only a doubt, never a hallucination.
    assert (triple.confidence, triple.status, triple.hallucinated) == (DOUBT, "unverified", False)
    assert by_id.score == DOUBT and not by_id.hallucinated
    unnamed = explainer().explain("A man near a sofa.", annotation=SOFA_MAN)
    (on,) = unnamed.edits
    assert (on.cls, on.target, on.confidence, on.status) == ("R", ["man", "on", "sofa"], 1.0, "hallucinated")
    assert on.evidence["objects"] == ["#0", "#1"] and on.evidence["words"] == ["on"]


def test_hedged_mentions_are_doubts_and_their_triples_are_not_consequences(explainer):
    e = explainer().explain("Possibly a cat near a sofa.", annotation=SOFA_MAN)
    assert _rows(e) == [
        ("replace", "object", "R", "cat", "unverified", HEDGED, None),
        ("delete", "relation", "D", ["cat", "next to", "sofa"], "unverified", DOUBT, None),
        ("insert", "relation", "I", None, "suggestion", 0.0, None),
    ]
    assert e.score == pytest.approx(1 - (1 - HEDGED) * (1 - DOUBT)) and not e.hallucinated
    colour = explainer().explain(
        "Possibly a red car.", annotation={"objects": [{"names": ["car"], "attributes": ["blue"]}]}
    )
    assert [(x.level, x.confidence, x.status) for x in colour.edits] == [("attribute", HEDGED, "unverified")]
    count = explainer().explain("Two dogs.", annotation={"objects": ["dog", "dog", "dog"]})
    assert [(x.level, x.op, x.confidence, x.status) for x in count.edits if x.op != "insert"] == [
        ("count", "replace", 1.0, "hallucinated")
    ]


def test_a_low_threshold_calls_a_hedged_mention_hallucinated(explainer):
    e = explainer(0.1).explain("Possibly a cat near a sofa.", annotation=SOFA_MAN)
    cat, triple, _ = e.edits
    assert (cat.status, cat.hallucinated) == ("hallucinated", True) and WEAK not in cat.evidence["note"]
    assert (triple.status, triple.caused_by, triple.hallucinated) == ("consequence", 0, False)
    assert e.hallucinated and e.threshold == 0.1
    # A confidence equal to the threshold reaches it: hallucinated on its own, not as a weak doubt.
    (cat,) = explainer(HEDGED).explain("Possibly a cat.", annotation=["dog"]).edits
    assert (cat.status, cat.evidence["note"]) == ("hallucinated", "the image has 'dog' where the caption says 'cat'")


def test_the_verdict_rests_on_the_first_doubts_that_carry_it(explainer):
    # Two hedged mentions (0.2 each): 1 - 0.8^2 = 0.36 reaches 0.3, and one of them alone does not.
    e = explainer(0.3).explain("There is possibly a cat. There is possibly a guitar.", annotation=SOFA_MAN)
    cat, guitar, _ = e.edits
    assert e.score == pytest.approx(0.36) and e.hallucinated
    assert (cat.status, cat.hallucinated) == ("hallucinated", True)
    assert cat.evidence["note"] == "the image has 'man' where the caption says 'cat'" + WEAK
    assert (guitar.status, guitar.hallucinated, guitar.evidence["note"].endswith(WEAK)) == ("unverified", False, False)
    below = explainer(0.4).explain("There is possibly a cat. There is possibly a guitar.", annotation=SOFA_MAN)
    assert not below.hallucinated and {x.status for x in below.edits if x.op != "insert"} == {"unverified"}


def test_a_triple_that_outlives_its_fixed_end_still_counts_as_a_doubt(explainer):
    # The cat becomes the man, the triple stays (said of the man): 1 - 0.8 x 0.95 = 0.24 >= 0.22.
    replaced = explainer(0.22).explain("A cat near a sofa. There is possibly a guitar.", annotation=SOFA_MAN)
    cat, guitar, triple, _ = replaced.edits
    assert (cat.status, triple.status, triple.caused_by) == ("hallucinated", "consequence", 0)
    assert (guitar.confidence, guitar.status, guitar.evidence["note"].endswith(WEAK)) == (HEDGED, "hallucinated", True)
    # The same when the replaced cat is the triple's object: the man stays near the dog.
    near_dog = {"objects": ["man", "dog"], "relationships": [["man", "near", "dog"]]}
    ended = explainer(0.22).explain("A man near a cat. There is possibly a guitar.", annotation=near_dog)
    assert [(x.source, x.status, x.caused_by) for x in ended.edits] == [
        ("cat", "hallucinated", None),
        ("guitar", "hallucinated", None),
        (["man", "next to", "cat"], "consequence", 0),
    ]
    # The feathers go, the mohawk stays behind (on the parrot): its triple outlives the fix too.
    mohawk = {"objects": ["parrot", "mohawk"], "relationships": [["parrot", "with", "mohawk"]]}
    subject = explainer(0.22).explain("Feathers with a mohawk. There is possibly a guitar.", annotation=mohawk)
    assert [(x.source, x.status) for x in subject.edits if x.level == "object" and x.op == "delete"] == [
        ("feather", "hallucinated"),
        ("guitar", "hallucinated"),
    ]
    # The guitar the man holds goes, and its triple with it: the hedged cat alone (0.2) stays a doubt.
    held = {"objects": ["man", "mohawk"], "relationships": [["man", "with", "mohawk"]]}
    gone = explainer(0.22).explain("A man with a guitar. There is possibly a cat.", annotation=held)
    guitar, cat = gone.edits[:2]
    assert (guitar.status, cat.source, cat.status, cat.hallucinated) == ("hallucinated", "cat", "unverified", False)


def test_a_silent_triple_is_never_a_hallucination_at_any_threshold(explainer):
    # "florbix" is not in WordNet and nothing on the image relates to it: the triple is silence.
    e = explainer(0.01).explain(
        "A florbix near a sofa.", annotation={"objects": ["dog", "sofa"], "relationships": [["dog", "on", "sofa"]]}
    )
    triple = next(x for x in e.edits if x.op == "delete")
    assert (triple.confidence, triple.status, triple.hallucinated) == (DOUBT, "unverified", False)
    assert e.score == DOUBT and not e.hallucinated  # above the threshold, but nothing is claimed
    # The same with the unknown word at the other end.
    other = explainer(0.01).explain(
        "A sofa near a florbix.", annotation={"objects": ["dog", "sofa"], "relationships": [["dog", "on", "sofa"]]}
    )
    triple = next(x for x in other.edits if x.op == "delete")
    assert (triple.status, triple.hallucinated, other.hallucinated) == ("unverified", False, False)


def test_attributes_of_a_wrong_object_follow_it_and_an_unnamed_modifier_is_a_doubt(explainer):
    e = explainer().explain("A red cat.", annotation={"objects": [{"names": ["dog"], "attributes": ["blue"]}]})
    cat, red = e.edits
    assert (cat.status, red.level, red.status, red.caused_by, red.hallucinated) == (
        "hallucinated",
        "attribute",
        "consequence",
        0,
        False,
    )
    # "boat" in "a boat trailer" names nothing the image has: a doubt, not a replacement.
    (boat,) = explainer().explain("A boat trailer.", annotation=["trailer"]).edits
    assert (boat.op, boat.level, boat.source, boat.confidence, boat.status) == (
        "delete",
        "attribute",
        "boat",
        DOUBT,
        "unverified",
    )
    # ... but "dog" in "a dog bed" says whom the bed is for, not that a dog is there
    assert explainer().explain("A dog bed.", annotation=["bed"]).edits == []
    # A hedged attribute at a threshold equal to its confidence is hallucinated on its own.
    blue = {"objects": [{"names": ["car"], "attributes": ["blue"]}]}
    (colour,) = explainer(HEDGED).explain("Possibly a red car.", annotation=blue).edits
    assert colour.status == "hallucinated" and not colour.evidence["note"].endswith(WEAK)


def test_ties_and_order_of_the_doubts_the_verdict_rests_on(explainer):
    # Exactly at the threshold (1 - 0.8^2 = 0.36) is hallucinated; the first of two equal doubts is marked.
    at = explainer(0.36).explain("There is possibly a cat. There is possibly a guitar.", annotation=SOFA_MAN)
    assert at.score == 0.36 and at.hallucinated
    assert [x.status for x in at.edits[:2]] == ["hallucinated", "unverified"]
    # The cat is certain; the two doubts left (0.36) still reach 0.36: the first of them goes too.
    more = explainer(0.36).explain(
        "A cat. There is possibly a guitar. There is possibly a hat.", annotation=["man", "sofa"]
    )
    assert [(x.source, x.status) for x in more.edits] == [
        ("cat", "hallucinated"),
        ("guitar", "hallucinated"),
        ("hat", "unverified"),
    ]
    # The most confident doubt is marked first: the hedged cat (0.2), not its triple (0.05).
    first = explainer(0.22).explain("Possibly a cat near a sofa.", annotation=SOFA_MAN)
    cat, triple, _ = first.edits
    assert (cat.status, triple.status, first.score) == ("hallucinated", "unverified", 0.24)


def test_objects_after_a_suggestion_and_a_triple_whose_ends_both_go(explainer):
    both = explainer(0.22).explain(
        "An animal on a sofa and a guitar.", annotation={"objects": ["dog", "sofa"], "relationships": []}
    )
    assert [(x.cls, x.source, x.status) for x in both.edits] == [
        ("U", "animal", "suggestion"),
        ("D", "guitar", "hallucinated"),
    ]
    # Feathers and guitar both go: their triple goes with them, no doubt left beside the hat (0.2).
    mohawk = {"objects": ["parrot", "mohawk"], "relationships": [["parrot", "with", "mohawk"]]}
    gone = explainer(0.22).explain("Feathers with a guitar. There is possibly a hat.", annotation=mohawk)
    assert [(x.source, x.status) for x in gone.edits if x.level == "object" and x.op == "delete"] == [
        ("feather", "hallucinated"),
        ("guitar", "hallucinated"),
        ("hat", "unverified"),
    ]


def test_judge_reads_edits_in_any_order():
    from cece.edits import Edit
    from cece.judge import judge

    parser = default_explainer().parser
    caption = parser.parse("A cat on a sofa.")
    image = Explainer(parser=parser).image_graph(annotation=["dog", "sofa", "lamp"])
    edits = [
        Edit("insert", "object", "I", target="lamp", target_index=2),
        Edit("replace", "object", "R", source="cat", target="dog", source_index=0, target_index=0),
    ]
    assert judge(edits, caption, image, classes={0: "R", 1: None}, threshold=0.5) == 1.0
    assert [(x.status, x.confidence) for x in edits] == [("suggestion", 0.0), ("hallucinated", 1.0)]


def test_a_word_plural_in_form_only_says_no_number(explainer):
    # "jeans", "sunglasses" are one thing: against one instance, "several -> 1" was claimed (and
    # "A woman in jeans." rewritten "A woman in a jean."); a vague count still says several
    ex = explainer(None)
    for caption, objects in (
        ("A woman in jeans.", ["woman", "jeans"]),
        ("Sunglasses on a table.", ["sunglasses", "table"]),
    ):
        e = ex.explain(caption, annotation={"objects": objects, "relationships": []})
        assert not e.hallucinated and not [x for x in e.edits if x.level == "count"], caption
    e = ex.explain("A group of dogs on a sofa.", annotation={"objects": ["dog", "sofa"], "relationships": []})
    assert [(x.level, x.source, x.target) for x in e.edits if x.level == "count"] == [("count", "several", "1")]
