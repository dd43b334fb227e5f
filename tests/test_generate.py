"""The generator of labelled hallucinations (benchmarks.generate, benchmarks.perturb) and the
per-kind figures (benchmarks.by_kind): each kind on hand-written captions, labels that line up
with caption.split(), determinism for a seed, and the HAT loader reading what it writes."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from benchmarks.by_kind import kind_rows
from benchmarks.by_kind import main as by_kind_main
from benchmarks.cohyponyms import co_hyponyms
from benchmarks.companions import companions, nouns
from benchmarks.generate import generate, main, reference_sets
from benchmarks.loaders import hat
from benchmarks.perturb import KINDS, perturb
from benchmarks.perturb_words import Change, apply
from detectors.base import Detection, SpanScore
from knowledge import is_hypernym, noun_synset, path_distance

EVIDENCE = ["A photo of an animal outside.", "Something in a picture."]


def changed(caption: str, kind: str, evidence=EVIDENCE, seed: int = 0):
    """The perturbed caption and its labelled words."""
    p = perturb(caption, evidence, kind, rng=random.Random(seed))
    assert p is not None, f"{kind} not made on {caption!r}"
    assert [len(p.labels)] == [len(p.caption.split())]
    return p.caption, [w for w, y in zip(p.caption.split(), p.labels, strict=True) if y]


# -- each kind, on hand-written captions -----------------------------------------------------
def test_attribute_swap_labels_only_the_new_colour_and_avoids_the_evidence():
    for seed in range(5):
        caption, words = changed(
            "A dog sitting on a red couch.",
            "attribute",
            ["A dog on a blue sofa.", "A dog resting on a white couch."],
            seed,
        )
        new = caption.split()[5]
        assert words == [new] and new not in ("red", "blue", "white")
        assert caption.replace(new, "red", 1) == "A dog sitting on a red couch."
    assert perturb("A dog sitting on a couch.", [], "attribute", rng=random.Random(0)) is None  # nothing to swap
    # a size for its opposite, material for another; the article follows the new word, unlabelled
    caption, words = changed("A small dog on a bed.", "attribute")
    assert words == [caption.split()[1]] and caption.split()[1] in ("large", "big", "huge")
    caption, words = changed(
        "A white sink.",
        "attribute",
        [
            "A sink.",
            *(f"A {c} sink." for c in ("black", "red", "blue", "green", "yellow", "brown", "pink", "purple", "gray")),
        ],
    )
    assert (caption, words) == ("An orange sink.", ["orange"])


def test_count_change_makes_noun_and_verb_agree_and_labels_the_count():
    made = [changed("A dog runs across the grass.", "count", ["Three puppies."], seed) for seed in range(8)]
    # "run" agrees only; an uncounted many too ("some donuts" where the image has one)
    assert {(c, tuple(w)) for c, w in made} == {
        ("Two dogs run across the grass.", ("Two", "dogs")),
        ("Some dogs run across the grass.", ("Some", "dogs")),
    }
    made = [changed("A man is sitting on a bench.", "count", ["Three people.", "A bench."], s) for s in range(8)]
    assert {(c, tuple(w)) for c, w in made} == {
        ("Two men are sitting on a bench.", ("Two", "men")),
        ("Some men are sitting on a bench.", ("Some", "men")),
        ("A man is sitting on two benches.", ("two", "benches.")),
        ("A man is sitting on some benches.", ("some", "benches.")),
    }
    caption, words = changed("Three zebras are standing in a field.", "count", ["Four zebras.", "A zebra."])
    assert (caption, words) == ("Two zebras are standing in a field.", ["Two"])
    caption, words = changed("Two zebras are standing in a field.", "count", ["Zebras in a field.", "Three."])
    assert (caption, words) == ("A zebra is standing in a field.", ["A", "zebra"])
    # a pronoun that would no longer agree: not made
    assert perturb("A man holding his phone.", [], "count", rng=random.Random(0)) is None


def test_state_swap_keeps_the_verb_form():
    caption, words = changed("A man sitting on a bench.", "state", ["A man standing.", "He is kneeling."])
    assert (caption, words) == ("A man lying on a bench.", ["lying"])
    caption, words = changed("A dog runs on a lawn.", "state")
    assert (caption, words) == ("A dog walks on a lawn.", ["walks"])
    assert changed("A bus parked on the street.", "state") == ("A bus driving on the street.", ["driving"])
    assert changed("A MONKEY IS SITTING ON A BRANCH.", "state", ["A monkey standing.", "Kneeling."])[1] == ["LYING"]
    assert perturb("A man eating a sandwich.", [], "state", rng=random.Random(0)) is None


@pytest.mark.parametrize(
    "caption",
    [
        "A muffin sits on a plate.",  # a thing that sits, stands or lies rests there: no new fact
        "A microwave sitting on top of a refrigerator.",
        "A red telephone booth that is standing on the sidewalk.",
        "A stove stands next to a fireplace and a cup lies on it.",
    ],
)
def test_state_swap_only_poses_a_person_or_an_animal(caption):
    assert all(perturb(caption, [], "state", rng=random.Random(seed)) is None for seed in range(4))


def test_state_swap_of_a_bird_or_insect_excludes_its_rest():
    # a bird's or an insect's sitting, standing and lying are one rest (knowledge.states.Body)
    for caption in ("An owl sitting on a branch.", "A butterfly is standing on a flower on a green plant."):
        made = {tuple(changed(caption, "state", seed=seed)[1]) for seed in range(6)}
        assert made == {("kneeling",)}


@pytest.mark.parametrize(
    "caption",
    [
        "A girl that is sitting on a bench.",  # the relative pronoun stands for the girl
        "A herd of cows lying in a field.",  # the herd's members lie
        "She is standing by a wall.",
        "A man holding a baby while lying on a couch.",  # the subject of the verb it depends on
    ],
)
def test_state_swap_finds_who_is_posed(caption):
    assert changed(caption, "state")[1]


def test_relation_swap_to_the_opposite():
    assert changed("A cat on a table.", "relation") == ("A cat under a table.", ["under"])
    assert changed("A man standing in front of a bus.", "relation") == ("A man standing behind a bus.", ["behind"])
    assert changed("A man standing behind a bus.", "relation") == (
        "A man standing in front of a bus.",
        ["in", "front", "of"],
    )
    assert changed("A man riding a horse.", "relation") == ("A man walking beside a horse.", ["walking", "beside"])
    # the evidence already says it: not made; nor a preposition without its object at the end
    assert perturb("A cat on a table.", ["A cat sleeping under the table."], "relation", rng=random.Random(0)) is None
    assert perturb("A cat sitting outside of", [], "relation", rng=random.Random(0)) is None


@pytest.mark.parametrize(
    "caption",
    [
        "A vintage car is on display in a museum.",  # an idiom, not a place: "under display" says nothing
        "The red shopping cart is lying on its side.",  # a side of a thing, not a thing
        "A black car parked on the side of the road.",
        "A man in a suit sitting at a piano on stage.",
    ],
)
def test_relation_swap_needs_a_thing_on_the_other_end(caption):
    assert all(perturb(caption, [], "relation", rng=random.Random(seed)) is None for seed in range(4))


def test_a_surface_is_a_thing_to_swap_a_relation_with():
    assert changed("A pizza on a wooden surface.", "relation")[1] == ["under"]


def test_object_swap_is_a_co_hyponym_in_the_same_number():
    for seed in range(4):
        caption, words = changed("Two dogs sitting on a bench.", "object", ["Two dogs on a bench."], seed)
        old = "dogs" if "bench" in caption else "bench."
        assert len(words) == 1 and caption.split().index(words[0]) == [
            "Two",
            "dogs",
            "sitting",
            "on",
            "a",
            "bench.",
        ].index(old)
        new = words[0].rstrip(".")
        assert path_distance(noun_synset(new), noun_synset(old.rstrip("."))) == 2  # siblings
        if old == "dogs":
            assert new.endswith("s") and new not in ("dogs",)
    assert "dog" not in co_hyponyms("dog.n.01") and all("_" not in w for w in co_hyponyms("dog.n.01"))


def test_object_swap_may_swap_a_noun_modifier_as_foil_does():
    # "a tree branch" -> "a shrub branch": the modifier is a thing too, and the head stays
    made = {changed("A bird on a tree branch.", "object", ["A bird on a branch."], seed)[0] for seed in range(8)}
    modifiers = {c.split()[4] for c in made if c.startswith("A bird on a ")}
    assert modifiers and "tree" not in modifiers
    assert all(path_distance(noun_synset(w), noun_synset("tree")) == 2 for w in modifiers)


def test_added_object_is_labelled_in_full_and_absent_from_the_evidence():
    caption, words = changed("A man sitting on a bench.", "added", ["A man on a bench.", "A woman sits."])
    assert caption.startswith("A man sitting on a bench ") and caption.endswith(".")
    assert words[0] in ("with", "and") and words[1] in ("a", "an") and len(words) == 3
    noun = words[2].rstrip(".")
    assert noun not in ("man", "bench", "woman") and noun in co_hyponyms("man.n.01") + co_hyponyms(noun_synset("bench"))
    assert perturb("A man is walking slowly.", [], "added", rng=random.Random(0)) is None  # ends on no noun


def test_an_added_object_is_none_the_references_name_a_kind_of():
    # "and a man" where a reference sees people may be one of them: no reference could tell
    image = ["A woman sitting on a bench.", "People on a bench in a park.", "Two persons sit."]
    there = frozenset(w for w, _ in nouns(image))
    for seed in range(8):
        p = perturb(image[0], image[1:], "added", rng=random.Random(seed), present=there)
        noun = p.caption.split()[-1].rstrip(".")
        synset = noun_synset(noun)
        assert synset is not None and not is_hypernym("person.n.01", synset), p.caption


def test_a_companion_is_what_other_images_have_beside_a_thing_the_caption_names():
    others = [
        ["A cat on a bed with a blanket.", "A blanket on a bed."],
        ["A bed and a blanket.", "A bed with an animal."],
        ["A dog on a bed with a pillow.", "A pillow on a bed."],
        ["A bed with a pillow."],
        ["A lamp beside a bed."],  # once only: no pattern
    ]
    seen = companions(nouns(refs) for refs in others)
    assert seen["bed"]["blanket"] == 2 and seen["bed"]["pillow"] == 2 and "lamp" not in seen["bed"]
    image = ["A man sleeping on a bed.", "A man asleep.", "A man in bed with a pillow."]
    there = frozenset(w for w, _ in nouns(image))
    for seed in range(5):
        p = perturb(image[0], image[1:2], "companion", rng=random.Random(seed), companions=seen, present=there)
        words = [w for w, y in zip(p.caption.split(), p.labels, strict=True) if y]
        # the pillow is in this image (a reference not in the evidence names it): only the blanket
        assert p.caption.startswith("A man sleeping on a bed ") and words[1:] == ["a", "blanket."]
    # nothing is added that is a kind of what is there, or without co-occurrence counts
    car = {"car": Counter(vehicle=5)}
    assert perturb("A car on a street.", [], "companion", rng=random.Random(0), companions=car) is None
    assert perturb("A man sleeping on a bed.", [], "companion", rng=random.Random(0)) is None


def test_clean_is_the_caption_with_no_labels_and_unknown_kinds_are_refused():
    p = perturb("  A dog   on a bed. ", [], "clean", rng=random.Random(0))
    assert (p.caption, p.labels) == ("A dog on a bed.", [False] * 5)
    with pytest.raises(ValueError, match="unknown perturbation"):
        perturb("A dog.", [], "teleport", rng=random.Random(0))


# -- labels line up with caption.split() -------------------------------------------------------
def test_apply_labels_the_words_holding_new_text():
    assert apply("A dog on a mat.", [Change(11, 14, "rug")]) == ("A dog on a rug.", [False] * 4 + [True])
    assert apply("An apple.", [Change(0, 2, "A", False), Change(3, 8, "pear")]) == ("A pear.", [False, True])
    with pytest.raises(ValueError):
        apply("A dog.", [Change(0, 4, "x"), Change(2, 5, "y")])


words = st.lists(
    st.sampled_from(["a", "dog", "red", "on", "the", "bench.", "two", "cats,", "sitting"]), min_size=1, max_size=12
)


@settings(max_examples=80, deadline=None)
@given(words, st.data())
def test_apply_gives_one_label_per_split_word(ws, data):
    text = " ".join(ws)
    cuts = sorted(data.draw(st.lists(st.integers(0, len(text)), max_size=6, unique=True)))
    changes = [
        Change(a, b, data.draw(st.sampled_from(["", "x", " y z ", "big dog"])), data.draw(st.booleans()))
        # An odd cut at the end opens no span: pairs stop at the shorter slice.
        for a, b in zip(cuts[::2], cuts[1::2], strict=False)
    ]
    new, labels = apply(text, changes)
    assert len(labels) == len(new.split())


captions = st.builds(
    lambda det, adj, noun, verb, prep, obj: f"{det} {adj}{noun} {verb} {prep} a {obj}.",
    st.sampled_from(["A", "Two", "The"]),
    st.sampled_from(["", "red ", "small ", "wooden "]),
    st.sampled_from(["dog", "man", "bus", "cats", "horse"]),
    st.sampled_from(["sitting", "is standing", "runs", "parked", "riding"]),
    st.sampled_from(["on", "in front of", "behind", "near"]),
    st.sampled_from(["bench", "table", "street", "car"]),
)


@settings(max_examples=25, deadline=None)
@given(captions, st.sampled_from(KINDS), st.integers(0, 3))
def test_every_perturbation_has_one_label_per_word_and_changes_only_labelled_or_agreeing_words(caption, kind, seed):
    p = perturb(caption, [], kind, rng=random.Random(seed))
    if p is None:
        return
    assert len(p.labels) == len(p.caption.split()) and any(p.labels)
    if kind != "added" and kind != "relation" and len(p.caption.split()) == len(caption.split()):
        for old, new, y in zip(caption.split(), p.caption.split(), p.labels, strict=True):
            # an unlabelled word is unchanged, or changed only to agree (article, verb number)
            assert y or old == new or old.lower() in ("a", "an", "is", "are", "runs", "run")


# -- the generator ---------------------------------------------------------------------------
SETS = [
    (0, ["A dog sitting on a red couch.", "A brown dog on a sofa.", "A dog resting on a couch."], "a.jpg"),
    (1, ["A man riding a horse on a beach.", "A person on a horse.", "A rider on the sand."], "b.jpg"),
    (2, ["Two cats lying on a bed.", "Cats sleep on a bed.", "Two kittens on a blanket."], ""),
    (3, ["A bus parked on the street.", "A yellow bus by the road.", "A school bus."], ""),
    (4, ["A woman standing in front of a car.", "A lady by a car.", "A woman and a car."], ""),
    (5, ["A single reference."], ""),
]


def test_generate_is_deterministic_for_a_seed_and_balanced():
    a = generate(SETS * 4, seed=0, per_set=2)
    assert a == generate(SETS * 4, seed=0, per_set=2)
    assert a != generate(SETS * 4, seed=1, per_set=2)
    kinds = [r["perturbation"] for r in a]
    assert 0.25 <= kinds.count("clean") / len(kinds) <= 0.75 and len(set(kinds) - {"clean"}) >= 4
    for r in a:
        assert [w for w, _ in r["grounding"]] == r["caption"].split()
        assert r["contains_hallucination"] == (r["perturbation"] != "clean") == any(y for _, y in r["grounding"])
        assert r["caption"] not in r["references"] and len(r["references"]) == 2
        assert not r["sample_id"].startswith("5:")  # a set of one reference has no evidence
    assert len(generate(SETS, seed=0, n=3)) == 3
    assert all(len(r["references"]) == 1 for r in generate(SETS, seed=0, evidence=1))


def test_evidence_drawn_from_a_range_varies_within_it():
    sets = [(k, [f"A dog number {i} on a red couch." for i in range(10)], "") for k in range(40)]
    counts = {len(r["references"]) for r in generate(sets, seed=0, evidence=(3, 9))}
    assert counts <= set(range(3, 10)) and len(counts) >= 4


def test_a_failing_reference_set_is_reported_and_passed_over(monkeypatch):
    import benchmarks.generate as gen

    def perturb_or_fail(caption, evidence, kind, rng, **kwargs):
        if "horse" in " ".join([caption, *evidence]):  # set 1, whichever caption it gives
            raise RuntimeError("parser trouble")
        return perturb(caption, evidence, kind, rng=rng, **kwargs)

    monkeypatch.setattr(gen, "perturb", perturb_or_fail)
    heard = []
    records = generate(SETS, seed=0, warn=heard.append)
    assert heard == ["reference set 1: RuntimeError: parser trouble"]
    assert sorted({r["source"] for r in records}) == [0, 2, 3, 4]


def test_the_hat_loader_and_the_per_kind_table_read_the_output(tmp_path, capsys):
    src = tmp_path / "refs.jsonl"
    src.write_text("".join(json.dumps({"references": refs}) + "\n" for _, refs, _ in SETS[:5] * 3))
    out = tmp_path / "gen.json"
    assert main([str(src), "-o", str(out), "--seed", "0", "--per-set", "2"]) == 0
    assert "records ->" in capsys.readouterr().out
    records = json.loads(out.read_text())
    samples, gold = hat.load(out)
    assert len(samples) == len(records)
    for r in records:
        g = gold[r["sample_id"]]
        assert g.label == int(r["contains_hallucination"]) and g.word_labels == [int(y) for _, y in r["grounding"]]
    # a detector that flags exactly the labelled words: every kind fully recalled, no clean flagged
    dets = {}
    for r in records:
        g = gold[r["sample_id"]]
        spans = [SpanScore(a, b, r["caption"][a:b], 1.0) for (a, b), y in zip(g.words, g.word_labels, strict=True) if y]
        dets[r["sample_id"]] = Detection(
            r["sample_id"], "oracle", score=1.0 if spans else 0.0, spans=spans, hallucinated=bool(spans)
        )
    kinds = {r["sample_id"]: r["perturbation"] for r in records}
    rows = {row[0]: row for row in kind_rows(kinds, gold, dets)}
    assert rows["clean"][1:4] == [sum(k == "clean" for k in kinds.values()), 0.0, 0.0]
    assert all(row[2:] == [1.0, 1.0, 1.0, 1.0, 1.0] for k, row in rows.items() if k != "clean")
    run = tmp_path / "run" / "predictions"
    run.mkdir(parents=True)
    (run / "oracle.jsonl").write_text("".join(json.dumps(d.to_dict()) + "\n" for d in dets.values()))
    assert by_kind_main([str(out), str(tmp_path / "run"), "-d", "oracle"]) == 0
    assert "| clean |" in capsys.readouterr().out


def test_reference_sets_join_the_foil_baseline_and_name_bad_records(tmp_path, capsys):
    foil = tmp_path / "foil.json"
    foil.write_text(
        json.dumps(
            [
                {
                    "references": ["A dog.", "A puppy. "],
                    "baseline": "A dog on grass.",
                    "foil": "A cat on grass.",
                    "image_path": "x.jpg",
                }
            ]
        )
    )
    assert list(reference_sets(foil)) == [(0, ["A dog.", "A puppy.", "A dog on grass."], "x.jpg")]
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"references": ["A dog."]}\n{"references": "A dog."}\n')
    assert main([str(bad), "-o", str(tmp_path / "o.json")]) == 1
    assert f"{bad}:line 2: references: expected a list of strings" in capsys.readouterr().err
    assert not (tmp_path / "o.json").exists()
    with pytest.raises(SystemExit):
        main([str(foil), "-o", str(tmp_path / "o.json"), "--evidence", "0"])
    assert "expected a whole number from 1, got '0'" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main([str(foil), "-o", str(tmp_path / "o.json"), "--evidence", "5-3"])
    assert "expected LO-HI with LO <= HI, got '5-3'" in capsys.readouterr().err
    assert main([str(foil), "-o", str(tmp_path / "o.json"), "--evidence", "1-2"]) == 0
