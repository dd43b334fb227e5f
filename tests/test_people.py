"""People the references name by what they do ("a bride", "a waitress"), which WordNet files far
from "man" and "woman" and without a sex: the gloss gives it (knowledge.sex_index), and a plain
word for a person is another name for one whose sex and age fit (cece.costs)."""

from __future__ import annotations

from cece import explain
from cece.api import default_explainer
from knowledge import ancestors, another_name, corefer_distance, people_clash, sex_of
from parsers.references import from_references

WEDDING = [
    "A bride and groom cutting their wedding cake.",
    "A couple cuts a cake.",
    "A newly married couple slicing a cake.",
]
BRIDE = ["A bride cutting a wedding cake.", "A bride cuts her cake.", "A woman in a white dress slicing a cake."]


def hallucinated_objects(e):
    return [(x.cls, x.source) for x in e.edits if x.level == "object" and x.status == "hallucinated"]


def test_the_gloss_says_the_sex_the_hypernyms_do_not():
    assert (sex_of("bride.n.01"), sex_of("groom.n.01"), sex_of("waitress.n.01")) == ("f", "m", "f")
    assert people_clash("man.n.01", "waitress.n.01") and not people_clash("woman.n.01", "waitress.n.01")
    assert another_name("woman.n.01", "bride.n.01") and not another_name("man.n.01", "bride.n.01")
    assert sex_of("skier.n.01") is None  # a gloss that says neither leaves it open


def test_a_man_and_a_woman_are_the_bride_and_groom():
    # six WordNet edges apart, past a deletion: both were deleted as hallucinated
    e = explain("A man and a woman cutting a cake together.", references=WEDDING)
    assert not e.hallucinated and hallucinated_objects(e) == []
    assert e.counterfactual == "A man and a woman cutting a cake together."


def test_a_man_is_not_the_bride():
    assert hallucinated_objects(explain("A man cutting a cake.", references=BRIDE)) == [("R", "man")]
    assert not explain("A woman cutting a cake.", references=BRIDE).hallucinated


DINER = ["A waitress carries plates in a restaurant.", "A server bringing food to a table.", "A waitress at a diner."]


def test_another_name_is_not_traded_for_a_thing_in_the_same_place():
    # the references put the plates in the restaurant and the waitress nowhere: "a woman ... in a
    # restaurant" was re-paired with the plates, and the rewrite read "A plate serving food"
    e = explain("A woman serving food in a restaurant.", references=DINER)
    assert not e.hallucinated and hallucinated_objects(e) == []
    assert e.counterfactual == "A woman serving food in a restaurant."
    waiter = [r.replace("waitress", "waiter") for r in DINER]
    assert not explain("A man serving food in a restaurant.", references=waiter).hallucinated
    assert hallucinated_objects(explain("A man serving food in a restaurant.", references=DINER)) == [("D", "man")]


def test_a_machines_operator_is_a_person():
    # WordNet files drivers, racers and chauffeurs under operator.n.02, a causal agent beside the
    # person: a reference's "bike racer" was no other name for the man the others see
    assert "person.n.01" in ancestors("racer.n.01") and "person.n.01" in ancestors("chauffeur.n.01")
    assert corefer_distance("man.n.01", "driver.n.01") is not None
    refs = ["A man riding a racing bicycle.", "Bike racer wearing a helmet.", "A man rides a bike down the street."]
    g = from_references(refs, default_explainer().parser)
    assert [(c.lemma, c.aliases) for c in g.concepts if c.lemma == "man"] == [("man", ["racer"])]


def test_a_person_another_reference_names_by_the_other_sex_is_not_merely_another_name():
    # the rider is the man of the other references: "a woman" is no other name for them
    refs = ["A rider on a brown horse.", "A man riding a brown horse.", "A horse with a man on it."]
    e = explain("A woman riding a brown horse.", references=refs)
    assert [(x.level, x.source, x.target) for x in e.edits if x.hallucinated] == [("attribute", "woman", "man")]
    assert e.edits_of("attribute")[0].evidence["agreement"]["against"] == 2
    assert e.counterfactual == "A man riding a brown horse."
    assert explain("A man riding a brown horse.", references=refs).hallucinated is False
    refs = ["The driver of a red car stops at a light.", "A red car on a street.", "A red car at a light."]
    assert explain("A woman driving a red car.", references=refs).hallucinated is False
