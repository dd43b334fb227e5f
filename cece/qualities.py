"""Colour, size and material edits: what the caption says a faithful thing looks like that the
image side contradicts (:mod:`cece.attributes` makes them with the count, state and modifier
edits), and the helpers all those edits share: where in the caption a value is said, which
reference entities are the thing itself, and the evidence of a tally.

Against references each claim is tallied per reference (:mod:`cece.agreement`); several colours
are tallied as a list and, unless the list is contradicted as a whole, each on its own
(:func:`_one_of_several`: "a *pink* and yellow spider" where they say "black and yellow").

>>> from parsers import Concept, SceneGraph
>>> cap = SceneGraph([Concept("car", "car", "car.n.01", {"colour": ["red"]}, [(6, 9)], (0, 9))], text="A red car.")
>>> img = SceneGraph([Concept("car", "car", "car.n.01", {"colour": ["blue"]})], kind="annotation")
>>> [(e.source, e.target) for e in quality_edits(cap, img, 0, [0])]
[('red', 'blue')]
"""

from __future__ import annotations

import re
from collections.abc import Callable
from collections.abc import Set as AbstractSet
from functools import partial
from typing import Any

from cece.agreement import Tally, said, tally
from cece.edits import Edit
from cece.evidence import evidence_of, same_thing
from parsers import Concept, SceneGraph, Span
from parsers.attribute_words import VAGUE_COLOURS
from parsers.attributes import attribute_kind, base_colour, colours_clash, materials_clash, sizes_clash
from parsers.draft_graph import POSTURE_PARTICLES

_CLASHES: dict[str, Callable[..., Any]] = {"colour": colours_clash, "size": sizes_clash, "material": materials_clash}
#: Colours that name a metal: of what a thing is made, "a *copper* kettle" says metal.
METAL_COLOURS = frozenset({"copper", "gold", "golden", "silver", "bronze"})
#: The attribute kinds a reference's words are read from, per kind of claim.
_SAID_AS = {"colour": ("colour",), "size": ("size",), "material": ("material", "colour")}


def word_span(text: str, span: Span | None, test: Callable[[str], bool]) -> Span | None:
    if span is None:
        return None
    for m in re.finditer(r"[\w-]+", text[span[0] : span[1]]):
        if test(m.group().lower()):
            return span[0] + m.start(), span[0] + m.end()
    return None


def with_particle(text: str, span: Span) -> Span:
    """``span`` of a posture verb with the particle after it ("lying down" is rewritten "running",
    not "running down"); not a pair of adverbs ("running back and forth").

    >>> t = "Dogs lying down. Kids running up and down."
    >>> [t[slice(*with_particle(t, s))] for s in [(5, 10), (22, 29)]]
    ['lying down', 'running']
    """
    m = _PARTICLE_AFTER.match(text, span[1])
    return (span[0], m.end()) if m else span


#: A posture particle after a word, not the first of a pair of adverbs ("up and down").
_PARTICLE_AFTER = re.compile(rf"\s+(?:{'|'.join(sorted(POSTURE_PARTICLES))})\b(?!\s+(?:and|or)\s+\w)", re.IGNORECASE)


def value_span(text: str, span: Span | None, words: set[str]) -> Span | None:
    """The first run of ``words`` inside ``span``: all the words of a value ("dark yellow"), not
    only its first.

    >>> value_span("the dark yellow gravy", (0, 21), {"dark", "yellow"})
    (4, 15)
    """
    first = word_span(text, span, words.__contains__)
    if first is None or span is None:
        return first
    end = first[1]
    while m := re.match(r"\s+([\w-]+)", text[end : span[1]]):
        if m.group(1).lower() not in words:
            break
        end += m.end()
    return first[0], end


def rest_of_sentence(text: str, span: Span | None) -> Span | None:
    """From the end of ``span`` to the end of its sentence, where a clause may say more of it."""
    if span is None:
        return None
    end = re.search(r"[.!?](\s|$)", text[span[1] :])
    return span[1], span[1] + end.start() if end else len(text)


def closest(c: Concept, image: SceneGraph, found: list[int]) -> list[int]:
    """Of the reference entities a caption concept speaks of, those that are the same thing when
    there are any: the colour of the apples is not the pear's ("a yellow pear" beside "red
    apples")."""
    return [j for j in found if same_thing(c, image.concepts[j])] or found


def agreed(image: SceneGraph, found: list[int], t: Tally, note: str) -> dict[str, Any]:
    """The evidence of an edit tallied over references: who said it, and the tally."""
    split = " (as many references agree as contradict it)" if t.verdict() == "split" else ""
    return {**evidence_of(image, found, note + split), "agreement": t.to_dict()}


def _agrees(
    clash: Callable[[list[str], list[str]], bool], kind: str, mine: list[str], values: list[str]
) -> bool | None:
    """Whether one reference's ``values`` agree with the caption's ``kind`` claim (``mine``);
    None when it has none, or only vague colours ("colorful" neither confirms nor denies
    "green": it is consistent with it, :func:`cece.agreement.tally`). Of a material, a metal's
    colour ("copper") says metal."""
    values = [_as_material(v) for v in values if _of_kind(v, kind)] if kind == "material" else values
    values = [v for v in values if v not in VAGUE_COLOURS]
    return None if not values else not clash(mine, values)


def _of_kind(value: str, kind: str) -> bool:
    """Whether a reference's attribute ``value`` speaks to a ``kind`` claim (:data:`_SAID_AS`)."""
    return kind != "material" or value in METAL_COLOURS or attribute_kind(value) == "material"


def _as_material(value: str) -> str:
    return "metal" if value in METAL_COLOURS else value


def quality_edits(caption: SceneGraph, image: SceneGraph, i: int, found: list[int]) -> list[Edit]:
    """The colour, size and material edits of caption concept ``i`` against the image concepts
    ``found`` it speaks of (:func:`cece.attributes.partners`)."""
    c = caption.concepts[i]
    out = []
    for kind, clash in _CLASHES.items():
        mine = c.attributes.get(kind, [])
        if image.kind == "references" and kind == "size" and namesakes(caption, i):
            continue
        if image.kind == "references" and mine:
            found = closest(c, image, found)
            other = _said_of_another(caption, image, i, found, kind)
            t, theirs = _tally(image, found, kind, mine, other)
            # One colour of several the references contradict is the mistake, rather than a
            # list they are split on; a list they contradict as a whole is one mistake.
            several = _one_of_several(image, found, mine) if kind == "colour" and t.verdict() != "contradicted" else []
            one = [
                _quality_edit(caption, image, i, found, kind, [v], theirs_v, t_v)
                for v, skip in several
                for t_v, theirs_v in [_tally(image, found, kind, [v], skip | other)]
                if t_v.verdict() == "contradicted"
            ]
            whole = [_quality_edit(caption, image, i, found, kind, mine, theirs, t)] if t.verdict() else []
            out += [e for e in one or whole if e]
        elif clash(mine, theirs := [v for j in found for v in image.concepts[j].attributes.get(kind, [])]):
            out += [e for e in [_quality_edit(caption, image, i, found, kind, mine, theirs, None)] if e]
    return out


def namesakes(caption: SceneGraph, i: int) -> list[int]:
    """The caption's other concepts named by concept ``i``'s word ("A very large *elephant* next to
    a baby *elephant*"). A size compares them: a reference's "small elephant" may be the other
    one, so against references neither size is a claim (:func:`quality_edits`)."""
    lemma = caption.concepts[i].lemma.lower()
    return [k for k, o in enumerate(caption.concepts) if k != i and o.lemma.lower() == lemma]


def _said_of_another(caption: SceneGraph, image: SceneGraph, i: int, found: list[int], kind: str) -> set[int]:
    """The references whose only ``kind`` values for the entities ``found`` are what the caption
    says of another thing it names by the same word, and not of concept ``i``: "One white bowl
    beside a patterned *green* bowl", where they see a white bowl and a patterned one, speak of the
    white one; they do not say the patterned bowl is white. A reference saying it of several
    ("two white bowls") says it of both."""
    c = caption.concepts[i]
    group = base_colour if kind == "colour" else str
    mine = {group(v) for v in c.attributes.get(kind, [])}
    others = {group(v) for k in namesakes(caption, i) for v in caption.concepts[k].attributes.get(kind, [])} - mine
    if not others:
        return set()
    values = said(image, found, _SAID_AS[kind])
    # one of them ("a white bowl next to another bowl"), not "two white bowls" or "blue canoes",
    # which say it of both
    one = {
        r
        for r, ns in said(image, found, ("count", "number")).items()
        if {"one", "1"} & set(ns) and set(ns) <= {"one", "1", "several"}
    }
    return {r for r, vs in values.items() if vs and {group(v) for v in vs} <= others and r in one}


def _one_of_several(image: SceneGraph, found: list[int], mine: list[str]) -> list[tuple[str, set[int]]]:
    """Each of several caption colours ("a *pink* and yellow spider") as a claim of its own, with
    the references that say nothing of it: those naming fewer colours than the caption, some of
    them its own, may be leaving it out ("a white cat" for a black and white one). One naming as
    many colours and not this one says otherwise ("black and yellow": the spider is not pink);
    the list as a whole is judged first (:func:`quality_edits`), so "a red bus" for a blue and
    white one is one mistake, not two."""
    bases = {base_colour(v) for v in mine if v not in VAGUE_COLOURS}
    if len(bases) < 2:
        return []
    named = {
        k: {base_colour(v) for v in values if v not in VAGUE_COLOURS}
        for k, values in said(image, found, ("colour",)).items()
    }
    return [
        (v, {k for k, b in named.items() if b & bases and base_colour(v) not in b and len(b) < len(bases)})
        for v in dict.fromkeys(v for v in mine if v not in VAGUE_COLOURS)
    ]


def _tally(
    image: SceneGraph, found: list[int], kind: str, mine: list[str], skip: AbstractSet[int] = frozenset()
) -> tuple[Tally, list[str]]:
    """The references' tally of the ``kind`` claim ``mine`` (leaving out the references
    ``skip``), and the values of those against it."""
    t, others = tally(
        image,
        found,
        _SAID_AS[kind],
        agrees=partial(_agrees, _CLASHES[kind], kind, mine),
        label=kind,
        group=base_colour if kind == "colour" else str,
        consistent=kind == "colour",  # "colorful" neither confirms nor denies "green"
        skip=skip,
    )
    return t, [v for v in others if _of_kind(v, kind)]


def _quality_edit(
    caption: SceneGraph,
    image: SceneGraph,
    i: int,
    found: list[int],
    kind: str,
    mine: list[str],
    theirs: list[str],
    t: Tally | None,
) -> Edit | None:
    """The R edit of caption concept ``i``'s ``kind`` values ``mine`` to the image side's
    ``theirs``, on the caption words that say them (None when no word does)."""
    c = caption.concepts[i]
    if kind == "colour":
        # Of one of several colours, what the references say instead is none of the caption's
        # others: "black and yellow" against the caption's "pink and yellow" says black; nor
        # one it gives another thing of the name ("a gray car next to a blue one": red, not gray).
        said_too = {
            base_colour(v) for k in [i, *namesakes(caption, i)] for v in caption.concepts[k].attributes.get(kind, [])
        }
        theirs = [v for v in theirs if base_colour(v) not in said_too] or theirs
    words = {w for v in mine for w in v.split()}
    span = value_span(caption.text, c.phrase_span, words) or value_span(
        caption.text, rest_of_sentence(caption.text, c.phrase_span), words
    )  # "a limousine that is *blue*"
    if not span:
        return None
    with_value = [
        j
        for j in found
        if any(_of_kind(v, kind) for said_as in _SAID_AS[kind] for v in image.concepts[j].attributes.get(said_as, []))
    ]
    note = f"{kind}: the image side says " + ", ".join(dict.fromkeys(theirs))
    return Edit(
        "replace",
        "attribute",
        "R",
        source=" ".join(mine),
        target=" / ".join(dict.fromkeys(theirs)),
        spans=[span],
        source_index=i,
        target_index=with_value[0],
        evidence=agreed(image, with_value, t, note) if t else evidence_of(image, with_value, note),
    )
