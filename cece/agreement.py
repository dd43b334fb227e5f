"""How many reference captions agree with a claim of the caption, and how many contradict it.

References are several people's words for one image; where they disagree among themselves, no
one of them makes a fact. A claim about a thing -- its colour, size, material, count, number, a
person's sex, or its state (posture, motion: :mod:`knowledge.states`) -- is tallied per
reference: a reference *supports* it when what it says of that thing agrees, *is against* it
when what it says excludes it, and says nothing either way otherwise (``of`` counts the
references that mention the thing at all). Then (:meth:`Tally.verdict`):

- ``contradicted`` when more references are against the claim than for it -- and, where those
  against it disagree among themselves, when more say the likeliest other value than the claim
  (a plurality: one reference among five saying otherwise, while four agree, does not
  contradict it; "gold eyes" where two say yellow, two orange and one brown is a split). Of a
  state or colour, a reference saying one that neither is the claim nor excludes it is
  *consistent* with it and counts on its side: "a rider sitting on it" is not contradicted by
  one reference saying he runs where six say he rides, nor "an orange motorcycle" by one saying
  red where another says colorful;
- ``split`` when as many are against as for it (two say "two dogs", two "three dogs"): the edit
  is made, but it is for the judge an unverified doubt;
- None otherwise (supported, or nobody says).

Every contradiction edit carries its tally in ``evidence["agreement"]`` (:meth:`Tally.to_dict`).

>>> Tally("count", support=2, against=2, of=4, refs=5).verdict(), Tally("colour", 0, 1, 1, 1).verdict()
('split', 'contradicted')
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Collection, Iterable
from dataclasses import dataclass
from typing import Any

from cece.evidence import mentioned_in
from knowledge.states import Body, body_of, states_agree, states_exclude
from parsers import Concept, SceneGraph


@dataclass
class Tally:
    """References agreeing with a claim (``support``), contradicting it (``against``), mentioning
    the thing at all (``of``), and in all (``refs``); ``kind`` is the claim's kind (state,
    exclusive, spatial, colour, size, material, count, number, sex)."""

    kind: str
    support: int
    against: int
    of: int
    refs: int
    #: how many references say the likeliest other value, when the ones against the claim
    #: disagree among themselves (None: they are one voice)
    plurality: int | None = None
    #: references saying a value that neither agrees with the claim nor excludes it, counted on
    #: its side (states and colours: "riding" for "sitting", "colorful"; see :func:`tally`)
    consistent: int = 0

    def verdict(self) -> str | None:
        """``contradicted``, ``split`` or None (module docstring): the claim's support against
        the likeliest other value ("gold eyes" where two say yellow, two orange, one brown is a
        split, not a contradiction)."""
        top = self.against if self.plurality is None else self.plurality
        side = self.support + self.consistent
        if top > side:
            return "contradicted"
        if top and top == side:
            return "split"
        return None

    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "support": self.support,
            "against": self.against,
            **({"consistent": self.consistent} if self.consistent else {}),
            "of": self.of,
            "refs": self.refs,
            "verdict": self.verdict(),
        }


def said(image: SceneGraph, found: Iterable[int], kinds: tuple[str, ...]) -> dict[int, list[str]]:
    """Per reference, the values of ``kinds`` it gives for the entities ``found``. Of how many
    there are (``count``, ``number``), a reference naming several different things among them
    says their sum: "a man and a woman" are two of the caption's "two people", not one.

    >>> from parsers import Concept
    >>> man = Concept("man", "man", votes={"number": {"one": [0, 1]}})
    >>> woman = Concept("woman", "woman", votes={"number": {"one": [0]}, "count": {"2": [2]}})
    >>> said(SceneGraph([man, woman]), [0, 1], ("count", "number"))
    {0: ['2'], 1: ['one'], 2: ['2']}
    """
    out: dict[int, list[str]] = {}
    named: dict[int, dict[str, list[str]]] = {}  # per reference, per name, the values it gives
    for j in found:
        g = image.concepts[j]
        for value, refs in (x for kind in kinds for x in g.votes.get(kind, {}).items()):
            for k in refs:
                if value not in out.setdefault(k, []):
                    out[k].append(value)
                named.setdefault(k, {}).setdefault(g.lemma.lower(), []).append(value)
    if "count" in kinds or "number" in kinds:
        for k, by_name in named.items():
            if len(by_name) > 1:
                out[k] = [_total(by_name.values())]
    return out


def _total(values: Iterable[list[str]]) -> str:
    """How many things of several kinds a reference names, from each kind's count or number:
    their sum, or ``several`` when one kind's number is only a plural."""
    total = 0
    for vs in values:
        exact = [int(v) for v in vs if v.isdigit()]
        if exact:
            total += max(exact)
        elif set(vs) == {"one"}:  # the same name twice may be one thing said twice
            total += 1
        else:
            return "several"
    return str(total)


def speakers(image: SceneGraph, found: Iterable[int]) -> int:
    """How many references mention any of the entities ``found``."""
    return len({k for j in found for k in mentioned_in(image, image.concepts[j])})


def tally(
    image: SceneGraph,
    found: list[int],
    kinds: tuple[str, ...],
    *,
    agrees: Callable[[list[str]], bool | None],
    label: str,
    group: Callable[[str], str] | None = None,
    consistent: bool = False,
    skip: Collection[int] = (),
) -> tuple[Tally, Counter[str]]:
    """The tally of a claim over what each reference says (:func:`said`) of ``found``: ``agrees``
    maps one reference's values to True (support), False (against) or None (neither). Also the
    values of the references against it, by how many said each (the likeliest truth first).
    ``group`` maps a value to what it says ("crimson" -> red): given, the plurality is counted
    over groups. ``consistent``: a reference whose values are neither is consistent with the
    claim (a compatible state, a vague colour) rather than silent (a singular "a dog" on a
    count is weak, :func:`weigh_singular`). ``skip``: references left out."""
    by_ref = {k: v for k, v in said(image, found, kinds).items() if k not in skip}
    support = against = neither = 0
    others: Counter[str] = Counter()
    groups: Counter[str] = Counter()
    for values in by_ref.values():
        verdict = agrees(values)
        if verdict is True:
            support += 1
        elif verdict is False:
            against += 1
            others.update(values)
            if group is not None:
                groups.update(
                    dict.fromkeys(group(v) for v in values).keys()
                )  # in order: ties go the same way every run
        elif values:
            neither += 1
    neither = neither if consistent else 0
    if group is not None and groups:
        order = {g: k for k, (g, _) in enumerate(groups.most_common())}
        others = Counter(dict(sorted(others.items(), key=lambda kv: (order[group(kv[0])], -kv[1]))))
        return Tally(
            label, support, against, speakers(image, found), len(image.parts), groups.most_common(1)[0][1], neither
        ), others
    return Tally(label, support, against, speakers(image, found), len(image.parts), consistent=neither), others


def state_tally(image: SceneGraph, found: list[int], mine: str, caption_thing: Concept) -> tuple[Tally, Counter[str]]:
    """The tally of state ``mine`` said of ``caption_thing`` over the references speaking of the
    entities ``found`` (:func:`state_agrees`, compatible states consistent with it). Of one
    thing ("the person is standing"), a reference speaking of them only as an uncounted many
    ("people sitting at tables") says how the group is, not how that one is: it is left out.

    >>> from parsers import Concept
    >>> people = Concept("people", "people", votes={"state": {"sit": [0, 1]}, "number": {"several": [0, 1]}})
    >>> man = Concept("man", "man", votes={"state": {"stand": [2]}, "number": {"one": [2]}})
    >>> image = SceneGraph([people, man], parts=[(0, 1), (2, 3), (4, 5)])
    >>> state_tally(image, [0, 1], "stand", Concept("person", "person", "person.n.01"))[0].verdict() is None
    True
    >>> state_tally(image, [0, 1], "stand", Concept("people", "people", "person.n.01", plural=True))[0].verdict()
    'contradicted'
    >>> cat = Concept("cat", "cat", votes={"state": {"sit": [0, 1], "walk": [2], "stand": [3], "lie": [4]}})
    >>> image = SceneGraph([cat], parts=[(0, 1), (2, 3), (4, 5), (6, 7), (8, 9)])
    >>> state_tally(image, [0], "sit", Concept("cat", "cat", "cat.n.01"))[0].verdict() is None
    True
    """
    skip = set() if _many(caption_thing) else _only_many(image, found)
    agrees = state_agrees(mine, body_of(caption_thing.synset))
    # those against it may disagree among themselves: "sitting" said by two of five is not
    # contradicted by one each saying walking, standing and lying (the plurality of the module)
    return tally(image, found, ("state",), agrees=agrees, label="state", group=str, consistent=True, skip=skip)


def _many(c: Concept) -> bool:
    return c.plural or any(v != "1" for v in c.attributes.get("count", []))


def _only_many(image: SceneGraph, found: list[int]) -> set[int]:
    """The references that speak of the entities ``found`` only as an uncounted many ("people",
    "others"); "two women sitting" says how each of the two is."""
    return {
        k
        for k, values in said(image, found, ("count", "number")).items()
        if values and not any(v == "one" or v.isdigit() for v in values)
    }


def state_agrees(mine: str, body: Body = "mammal") -> Callable[[list[str]], bool | None]:
    """A reference supports state ``mine`` when it says a state that agrees with it, is against it
    when it only says states that exclude it (of a subject of ``body``:
    :data:`knowledge.states.Body`)."""

    def agrees(values: list[str]) -> bool | None:
        if any(states_agree(mine, v, body) for v in values):
            return True
        if any(states_exclude(mine, v, body) for v in values):
            return False
        return None

    return agrees


def count_agrees(n: str, total: str | None = None) -> Callable[[list[str]], bool | None]:
    """A reference supports exact count ``n`` when it says ``n`` (or a plural, of several), or
    ``total``, how many the caption names of the thing in all ("a white man next to *two* black
    men" where they say three men); it is against it when it gives other exact numbers only, or a
    plural of one. A singular mention without a number ("a girl") is weak: see
    :func:`weigh_singular`."""

    def agrees(values: list[str]) -> bool | None:
        exact = {v for v in values if v.isdigit()}
        if exact:
            return n in exact or total in exact
        if any(v in ("several", "many", "few") for v in values):
            return n != "1"
        if "one" in values:
            return True if n == "1" else None
        return None

    return agrees


def number_agrees(values: list[str]) -> bool | None:
    """For a plural caption mention without a number: a reference giving a number above one or
    a plural supports it; one saying one only is weak (:func:`weigh_singular`)."""
    exact = {v for v in values if v.isdigit()}
    if exact:
        return exact != {"1"}
    if any(v in ("several", "many", "few") for v in values):
        return True
    return None


def weigh_singular(t: Tally, image: SceneGraph, found: list[int]) -> Tally:
    """An indefinite singular ("a girl") does not deny others ("a girl and another girl"), so it
    only counts against a number above one when no reference says otherwise at all: then every
    reference speaking of the thing saw one."""
    if t.support or t.against:
        return t
    singular = [k for k, values in said(image, found, ("count", "number")).items() if values == ["one"]]
    return Tally(t.kind, 0, len(singular), t.of, t.refs)
