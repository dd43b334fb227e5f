"""Attribute and count edits: what the caption says about a faithful thing that the image
side contradicts.

Only contradictions become edits; an attribute the image side says nothing about is no evidence
either way. Against an annotation, a caption concept is compared with the instances of the image
object it was matched to (every image object that is the same thing: how many there are is the
count); against references, with every reference entity it speaks of
(:func:`cece.evidence.covers`).

- level ``count``: the caption gives an exact number ``n`` and the image side's number is known
  and different; or the caption says several ("some *donuts*") where the image side has exactly
  one.
- level ``attribute``: colour, size or material that clash (:mod:`parsers.attributes`); a
  noun modifier naming a visible thing the image side never names ("a *carrot* window"), which
  is claimed as much as its head is (op ``delete``); and, against references, the state a verb
  without an object states ("a man *walking*" where they see him running) and the sex a noun
  says of a person ("a *boy*" where most of them see a girl).

Against references, counts and colours, sizes and materials are tallied per reference
(:mod:`cece.agreement`): an edit is made where more references contradict the caption than
agree with it, and where as many do as not (a split, for the judge an unverified doubt); its
``evidence["agreement"]`` says how many did which. Several colours are tallied as a list and,
unless the list is contradicted as a whole, each on its own (:mod:`cece.qualities`).

>>> from parsers import Concept, SceneGraph
>>> cap = SceneGraph([Concept("horses", "horse", "horse.n.01", {"count": ["2"]}, [(4, 10)], (0, 10))],
...                  text="Two horses.")
>>> img = SceneGraph([Concept("horse", "horse", "horse.n.01")], kind="annotation")
>>> [(e.level, e.source, e.target, cap.text[slice(*e.spans[0])]) for e in attribute_edits(cap, img, [0])]
[('count', '2', '1', 'Two')]
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from collections.abc import Set as AbstractSet
from dataclasses import replace

from cece.agreement import Tally, count_agrees, number_agrees, state_tally, tally, weigh_singular
from cece.counterfactuals.words import article
from cece.edit_kinds import Level
from cece.edits import Edit, another_name_for
from cece.evidence import covers, evidence_of, mentioned_in, same_thing, type_support
from cece.mass import counted_in_word, in_its_word, uncounted
from cece.qualities import agreed, closest, namesakes, quality_edits, with_particle, word_span
from knowledge import (
    get_hierarchy,
    is_animate,
    is_hypernym,
    is_thing,
    lemmatize,
    made_to_hold,
    noun_synset,
    objecthood,
    one_pair,
    plural_only,
    sex_of,
)
from knowledge.states import state_of_verb
from parsers import Concept, SceneGraph, Span
from parsers.attribute_words import VAGUE_COUNTS
from parsers.attributes import attribute_kind, count_value


def partners(caption: SceneGraph, image: SceneGraph, i: int, *, mapping: Sequence[int]) -> list[int]:
    """The image concepts caption concept ``i`` is compared with (see the module docstring)."""
    c = caption.concepts[i]
    if image.kind == "references":
        return [j for j, g in enumerate(image.concepts) if covers(c, g)]
    j = mapping[i] if i < len(mapping) else -1
    return _same_as(image, j) if j >= 0 else []


def _same_as(image: SceneGraph, j: int) -> list[int]:
    """Image concept ``j`` and those that are the same thing."""
    return [k for k, g in enumerate(image.concepts) if k == j or same_thing(image.concepts[j], g)]


def _number(c: Concept) -> str | None:
    """How many of it the caption says: its count, "1" for a singular, None for a bare plural."""
    exact = [v for v in c.attributes.get("count", []) if v.isdigit()]
    return exact[0] if exact else None if c.plural else "1"


def _one_of_them(caption: SceneGraph, image: SceneGraph, i: int, found: list[int]) -> bool:
    """Whether concept ``i`` is one of several the caption names ("five people ... as *one*
    person looks at a laptop", "*one* girl ... and another girl"): the references' total is no
    count of it."""
    c = caption.concepts[i]
    if _number(c) != "1" or not c.attributes.get("count"):
        return False
    for k, other in enumerate(caption.concepts):
        several = _number(other) != "1" or other.lemma.lower() == c.lemma.lower()
        if k != i and several and set(partners(caption, image, k, mapping=())) & set(found):
            return True
    return False


def _total(caption: SceneGraph, image: SceneGraph, i: int, found: list[int], n: str) -> str | None:
    """How many the caption names in all of what concept ``i`` (``n`` of them) is among: with
    the other concepts of its name that speak of the same reference entities ("A white man next
    to two black men" names three men); None when it names them once, or one without a number."""
    same = [k for k in namesakes(caption, i) if set(partners(caption, image, k, mapping=())) & set(found)]
    numbers = [_number(caption.concepts[k]) for k in same]
    if not same or not all(x is not None and x.isdigit() for x in numbers):
        return None
    return str(int(n) + sum(int(x) for x in numbers if x))


def _more_general(mine: str | None, theirs: str | None) -> bool:
    return mine is not None and theirs is not None and mine != theirs and is_hypernym(mine, theirs)


def image_count(image: SceneGraph, found: list[int]) -> list[str] | None:
    """What an annotation says of how many there are: the exact numbers it gives, else how many
    instances it has; None without any (references are tallied instead: :mod:`cece.agreement`)."""
    if not found:
        return None
    said = [v for j in found for v in image.concepts[j].attributes.get("count", []) if v.isdigit()]
    return sorted(set(said)) if said else [str(len(found))]


def _reference_count(
    caption: SceneGraph, image: SceneGraph, i: int, found: list[int], mapping: Sequence[int] = ()
) -> Edit | None:
    """A count edit against references, by their tally (module docstring); ``mapping`` is the
    match's, caption concept to image concept."""
    c = caption.concepts[i]
    if objecthood(c.synset) == "part":
        # "holding it in one hand" against "in his hands": a caption's number of body parts says
        # which of them do something, a reference's how many are seen; neither denies the other.
        return None
    if _one_of_them(caption, image, i, found):
        return None
    near = closest(c, image, found)
    if not all(_more_general(c.synset, image.concepts[j].synset) for j in near):
        found = near
    else:
        # "two people" are the references' man and woman, even where one reference's "people"
        # was merged into the woman: a general word's count is the sum of what it covers --
        # but for what the caption names apart ("two older people ... with the young boy"), by
        # its name or by another the match paired with it ("... with the young *bull*")
        besides = (k for k in range(len(caption.concepts)) if k != i)
        apart = _paired(image, i, mapping) | {j for k in besides for j in partners(caption, image, k, mapping=())}
        found = [j for j in found if j in near or j not in apart]
    exact = [v for v in c.attributes.get("count", []) if v.isdigit()]
    if len(exact) > 1:
        return None
    if exact:
        n = exact[0]
        # a reference's count in the caption's own word, where that word is the more general
        # ("two branches" of the tree branch others name)
        in_word = {j: g for j in found if (g := counted_in_word(image, image.concepts[j], c.lemma)) is not None}
        if in_word:
            image = replace(image, concepts=[in_word.get(j, g) for j, g in enumerate(image.concepts)])
        total = _total(caption, image, i, found, n)
        t, others = tally(image, found, ("count", "number"), agrees=count_agrees(n, total), label="count", group=str)
        if n != "1":
            t = weigh_singular(t, image, found)
            others = others or Counter({"one": t.against})
        span = word_span(caption.text, c.phrase_span, lambda w: count_value(w) == n)
        source = n
    else:
        # Several without a number, where references say one -- of this very word ("people"
        # over "a man" and "a woman" is no contradiction), and not as a mass ("kinds of meats"
        # where they say "some meat").
        if not c.plural or not _vague(c):
            return None
        # As the references that say this very word say it: "fruit" merged with one reference's
        # "a pomegranate" says nothing of how many fruits there are.
        paired = _paired(image, i, mapping)
        same = [j for j in found if image.concepts[j].lemma.lower() == c.lemma.lower() and j not in paired]
        own = {j: w for j in same if (w := in_its_word(image, image.concepts[j], c.lemma))}
        if not own or any(uncounted(image, w) for w in own.values()):
            return None
        same = list(own)
        image = replace(image, concepts=[own.get(j, g) for j, g in enumerate(image.concepts)])
        t, others = tally(image, same, ("count", "number"), agrees=number_agrees, label="number")
        t = weigh_singular(t, image, same)
        others = others or Counter({"one": t.against})
        span, source = (c.spans[0] if c.spans else None), "several"
    if span is None or t.verdict() is None:
        return None
    values = list(others)
    # "one" where they say several is several, not the singular some of them also say
    plural = source == "1" or "one" not in values
    target = next((v for v in values if v.isdigit()), None) or ("several" if plural else "1")
    return _tallied(image, "count", i, source, target, span, found, t, f"the references say {target}")


def _paired(image: SceneGraph, i: int, mapping: Sequence[int]) -> set[int]:
    """The image concepts the match paired with the caption's concepts other than ``i``, and
    those that are the same thing ("A boat with several little boats towed behind it": the
    references' one boat is the first)."""
    return {j for k, m in enumerate(mapping) if k != i and m >= 0 for j in _same_as(image, m)}


def _tallied(
    image: SceneGraph, level: Level, i: int, source: str, target: str, span: Span, found: list[int], t: Tally, note: str
) -> Edit:
    """The R edit of caption concept ``i``'s ``source`` to ``target`` the references' tally ``t``
    over ``found`` (the first of them its target) makes."""
    return Edit(
        "replace",
        level,
        "R",
        source=source,
        target=target,
        spans=[span],
        source_index=i,
        target_index=found[0],
        evidence=agreed(image, found, t, note),
    )


def _vague(c: Concept) -> bool:
    """Whether the caption gives concept ``c`` no number but at most a vague count ("a group of
    men", "many cars"): said of one thing, it says several all the same -- unless its word is
    plural in form only ("jeans", "sunglasses", "scissors": :mod:`knowledge.plurals`)."""
    word = (c.text.lower().split() or [c.lemma])[-1]
    if plural_only(c.lemma, c.synset) or one_pair(word, c.synset):
        return False
    return all(v in VAGUE_COUNTS.values() for v in c.attributes.get("count", []))


def _count_edit(
    caption: SceneGraph, image: SceneGraph, i: int, found: list[int], mapping: Sequence[int] = ()
) -> Edit | None:
    if image.kind == "references":
        return _reference_count(caption, image, i, found, mapping)
    c = caption.concepts[i]
    exact = [v for v in c.attributes.get("count", []) if v.isdigit()]
    theirs = image_count(image, found)
    if theirs is None or len(exact) > 1:
        return None
    if exact:
        n = exact[0]
        if n in theirs or (theirs == ["1"] and n == "1"):
            return None
        span = word_span(caption.text, c.phrase_span, lambda w: count_value(w) == n)
        source = n
    else:
        # Several without a number, where the annotation has exactly one.
        if not c.plural or theirs != ["1"] or not _vague(c):
            return None
        span, source = (c.spans[0] if c.spans else None), "several"
    if span is None:
        return None
    return Edit(
        "replace",
        "count",
        "R",
        source=source,
        target=theirs[0] if len(theirs) == 1 else "/".join(theirs),
        spans=[span],
        source_index=i,
        target_index=found[0],
        evidence=evidence_of(image, found, f"the image side says {' or '.join(theirs)}"),
    )


def _state_edits(caption: SceneGraph, image: SceneGraph, i: int, found: list[int]) -> list[Edit]:
    """Against references, the state an intransitive verb puts the concept in ("a man *walking*",
    :mod:`parsers.intransitive`) where more references put it in a state that excludes it: an R
    edit to the state most of them say. (A split makes no edit: a verb with no object is the
    weakest of claims.)"""
    c = caption.concepts[i]
    if image.kind != "references" or not c.attributes.get("state"):
        return []
    out = []
    found = closest(c, image, found)
    after = c.phrase_span[1] if c.phrase_span else max((b for _, b in c.spans), default=0)
    for word in c.attributes["state"]:
        mine = state_of_verb(word)
        if mine is None:
            continue
        t, others = state_tally(image, found, mine, c)
        span = word_span(caption.text, (after, len(caption.text)), word.__eq__)
        if t.verdict() != "contradicted" or span is None:
            continue
        span = with_particle(caption.text, span)
        best = others.most_common(1)[0][0]
        said = [j for j in found if best in image.concepts[j].votes.get("state", {})] or found
        out.append(_tallied(image, "attribute", i, word, best, span, said, t, f"state: the references say {best}"))
    return out


def _sex_edit(caption: SceneGraph, image: SceneGraph, i: int, mapping: Sequence[int]) -> Edit | None:
    """Against references, a person the caption names by sex ("a *boy*") where more references
    name the person by the other ("a girl"): the noun says it as a colour word says a colour, and
    it is tallied the same way (a split is an unverified doubt). Where one reference names both a
    man and a woman for it, it may be either: no edit. The person is the entity the caption's
    word is merged into, or the one the match pairs it with where the word is another name for
    them ("a woman" for the references' "rider", whom the others call a man)."""
    c = caption.concepts[i]
    mine = sex_of(c.synset)
    support = type_support(c, image) if image.kind == "references" and mine is not None and c.spans else None
    if support is None:
        return None
    if support.kind == "same" and support.index is not None:
        person = support.index
    elif i < len(mapping) and (j := mapping[i]) >= 0 and another_name_for(c, image.concepts[j]):
        person = j
    else:
        return None
    # Their names, and those of any other person a reference names by sex but none beside them
    # ("a man walking a dog" where four see a woman, one a man).
    own = set(mentioned_in(image, image.concepts[person]))
    said: dict[int, dict[str, list[tuple[int, str]]]] = {}  # per reference, per sex: (entity, name)
    for j, g in enumerate(image.concepts):
        if j != person and own & set(mentioned_in(image, g)):
            continue
        for a, b in g.spans:
            name, k = lemmatize(image.text[a:b].lower()), image.part_of(a)
            sex = sex_of(noun_synset(name) or g.synset)
            if sex is not None and k is not None:
                said.setdefault(k, {}).setdefault(sex, []).append((j, name))
    if any(len(sexes) > 1 for sexes in said.values()):
        return None
    against = [named for sexes in said.values() if mine not in sexes for named in sexes.values()]
    t = Tally("sex", len(said) - len(against), len(against), len(said), len(image.parts))
    if t.verdict() is None:
        return None
    names = Counter(n for named in against for n in dict.fromkeys(n for _, n in named))
    best = names.most_common(1)[0][0]
    found = sorted({j for named in against for j, n in named if n == best})
    a, b = c.spans[0]
    return _tallied(image, "attribute", i, caption.text[a:b], best, (a, b), found, t, f"the references say {best}")


def _modifier_edits(caption: SceneGraph, image: SceneGraph, i: int) -> list[Edit]:
    """Noun modifiers naming a visible thing the image side never names; not those of a holding
    device, which say what it is made to hold (:func:`knowledge.made_to_hold`: "a *cupcake*
    holder" where they see a muffin in it), nor a person or animal modifying a lifeless thing,
    which says whom it is for, not who is there ("a *dog* bed", "a *bakers* rack", "a *horse*
    trailer")."""
    c = caption.concepts[i]
    out: list[Edit] = []
    if made_to_hold(c.lemma):
        return out
    lifeless = c.synset is not None and not is_animate(c.synset)
    adjectives = get_hierarchy().adjective_lemmas
    for word in c.attributes.get("other", []):
        if " " in word or attribute_kind(word) != "other" or word in adjectives:
            continue
        synset = noun_synset(word)
        if not is_thing(synset) or type_support(Concept(word, word, synset), image).kind is not None:
            continue
        if lifeless and is_animate(synset):
            continue
        span = word_span(caption.text, c.phrase_span, word.__eq__)
        if span:
            out.append(
                Edit(
                    "delete",
                    "attribute",
                    "D",
                    source=word,
                    spans=[span],
                    source_index=i,
                    evidence=evidence_of(image, [], f"nothing on the image side is {article(word)} {word}"),
                )
            )
    return out


def attribute_edits(
    caption: SceneGraph, image: SceneGraph, mapping: Sequence[int], *, skip: AbstractSet[int] = frozenset()
) -> list[Edit]:
    """Count, colour / size / material and modifier edits of the caption concepts not in ``skip``
    (those that cannot be judged), in caption order."""
    out: list[Edit] = []
    for i in range(len(caption.concepts)):
        if i in skip:
            continue
        found = partners(caption, image, i, mapping=mapping)
        if found:
            count = _count_edit(caption, image, i, found, mapping)
            out += [count] if count else []
            out += quality_edits(caption, image, i, found)
            out += _state_edits(caption, image, i, found)
            sex = _sex_edit(caption, image, i, mapping)
            out += [sex] if sex else []
        out += _modifier_edits(caption, image, i)
    return out
