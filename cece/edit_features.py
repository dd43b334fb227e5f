"""The evidence features of an edit judged against reference captions.

Reference captions are partial and paraphrased, so whether an edit's words are really wrong is a
matter of evidence. Each claim (an object, relation, attribute or count edit that is not a
suggestion) is described by a few interpretable numbers, each in [0, 1]; the fitted model of
:mod:`cece.confidence` turns them into the edit's confidence. Exactly one *kind* feature is 1 per
edit (it gives each kind its own intercept); the others weigh the evidence:

=====================  ========================================================================
feature                what it measures
=====================  ========================================================================
object deleted         kind: no reference names the object or anything close (class D)
object replaced        kind: the references name something else in its place (class R)
object over-specific   kind: they only name something more general (class O)
relation contradicted  kind: the references relate the two things in a way that excludes it, or
                       put the subject in a state that excludes the caption's
relation silent        kind: no reference says how the two things relate
count exact            kind: an exact number the references contradict
count plural           kind: plural where the references only ever say one
attribute clash        kind: a colour, size or material the references contradict, or a person's
                       sex as the noun says it ("a boy" where most of them see a girl)
modifier unnamed       kind: a noun modifier naming a thing no reference names
dissimilarity          1 - Wu-Palmer similarity to the closest thing the references name (of an object
                       or of a noun modifier: "a *bus* racer")
near miss              that closest thing is close kin (Wu-Palmer >= 0.8): a sibling, as in a swapped
                       object ("cat" where they all see a dog), rather than something unrelated
part                   the object is a body part (there whenever its owner is; rarely said)
part of named          the object is a part of a thing the references name (a wheel where they see a
                       car, a roof where they see a house: WordNet's meronymy, :mod:`knowledge.meronymy`)
stuff                  a substance, place, setting or scenery (often left unsaid), of an object or
                       of a noun modifier ("the *kitchen* counter")
abstract               an abstraction, or a word WordNet does not know
general                a top concept ("person", "animal", "food": WordNet's noun.Tops), which names
                       the thing without saying what it is
hedged                 the caption hedges it ("possibly a cat")
stand-in salience      share of references naming the thing the object most likely stands in for
person clash           a person where they name one of another sex or age ("a woman" where they see a
                       man), not another word for the same person ("an athlete" for a player)
word in references     the caption's word occurs in a reference anyway (a parse may have missed it)
role clash             the sentence has it do what only somebody does, and its word names no one
                       who could ("a *human mouth* wearing a coat"; :mod:`knowledge.agents`)
garment                the object is clothing (:func:`knowledge.is_garment`), which references
                       often leave unsaid ("people in *wetsuits* riding surfboards")
colour near miss       of a colour the references contradict, how close it is to the nearest colour
                       they say instead as people see them: 1 - CIEDE2000 / 50, 0 from 50 on (red
                       and blue are 49 apart; :func:`parsers.attributes.colour_distance`). "Gold"
                       for their "tan" (11 apart) is 0.79: a near miss of perception
others doubted         log(1 + how many other things the caption names have an object claim too): a
                       caption that names many things the references leave unsaid is a detailed one,
                       less likely wrong about each of them
end doubted            a relation, attribute or count whose object is itself unsupported
against                share of the references speaking of the thing that contradict the claim
support                share of the references speaking of the thing that agree with the claim
mentioned              share of all references that mention the thing at all
references             how many references there are, over 10 (few references leave more unsaid)
=====================  ========================================================================

and each kind's own slope for each of these (:data:`SLOPES`, "attribute clash x support": the
evidence feature on an edit of that kind, 0 on the others).

>>> from parsers import Concept
>>> cap = SceneGraph([Concept("cat", "cat", "cat.n.01", spans=[(2, 5)])], text="A cat.")
>>> img = SceneGraph([Concept("dog", "dog", "dog.n.01", spans=[(2, 5)])], text="A dog.", kind="references",
...                  parts=[(0, 6)])
>>> e = Edit("replace", "object", "R", source="cat", target="dog", source_index=0, target_index=0)
>>> x = edit_features(e, Context.of([e], cap, img))
>>> x["object replaced"], round(x["dissimilarity"], 2), x["mentioned"], x["word in references"]
(1.0, 0.14, 1.0, 0.0)
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from cece.edits import Edit
from cece.evidence import NEAR, mentioned_in, salience, type_support
from cece.stand_ins import roles_of, uncovered_salience
from knowledge import is_garment, lemmatize, lexname, noun_synset, objecthood, people_clash
from knowledge.agents import can_act
from knowledge.meronymy import part_of_any
from parsers import Concept, SceneGraph
from parsers.attributes import colour_distance

KINDS = (
    "object deleted",
    "object replaced",
    "object over-specific",
    "relation contradicted",
    "relation silent",
    "count exact",
    "count plural",
    "attribute clash",
    "modifier unnamed",
)
EVIDENCE = (
    "dissimilarity",
    "near miss",
    "part",
    "part of named",
    "stuff",
    "abstract",
    "general",
    "hedged",
    "stand-in salience",
    "person clash",
    "word in references",
    "role clash",
    "garment",
    "colour near miss",
    "others doubted",
    "end doubted",
    "against",
    "support",
    "mentioned",
    "references",
)
#: Each kind's own slope for each piece of evidence: the evidence's value on an edit of that kind,
#: 0 on the others. What a share of supporting references or a near miss says depends on what
#: is claimed: one reference naming the colour clears a colour claim, one naming a sibling object
#: does not clear a swapped object.
SLOPES = tuple(f"{kind} x {evidence}" for kind in KINDS for evidence in EVIDENCE)
#: Every feature, in the order of the model's coefficients.
FEATURES = KINDS + EVIDENCE + SLOPES
#: Features added after model files were first written: a file fitted before them loads with
#: them at weight 0 (:class:`cece.confidence.ConfidenceModel`).
ADDED_LATER = frozenset(SLOPES) | {
    "person clash",
    "role clash",
    "general",
    "part of named",
    "others doubted",
    "garment",
    "colour near miss",
}


@dataclass
class Context:
    """What the features of one record's edits share: both graphs, the salience of each image
    concept, the stand-in salience of each unsupported caption concept, the caption concepts
    that have an object edit, the roles the caption gives its concepts (:func:`roles_of`) and the
    synsets the image side names."""

    caption: SceneGraph
    image: SceneGraph
    salience: list[float] = field(default_factory=list)
    standing: dict[int, float] = field(default_factory=dict)
    doubted: set[int] = field(default_factory=set)
    reference_words: frozenset[str] = frozenset()
    roles: dict[int, str] = field(default_factory=dict)
    named: tuple[str, ...] = ()  # the synsets the references name

    @classmethod
    def of(cls, edits: list[Edit], caption: SceneGraph, image: SceneGraph) -> Context:
        """The context of ``edits`` (one record's) against ``image``."""
        sal = salience(image)
        bad = sorted(
            e.caption_index for e in edits if e.level == "object" and e.op != "insert" and e.cls in ("D", "R", "O")
        )
        roles = roles_of(caption) if bad else {}  # only object claims weigh a role, and each is in bad
        standing = uncovered_salience(bad, caption.concepts, image, sal, roles) if bad else {}
        named = tuple(sorted({g.synset for g in image.concepts if g.synset}))
        return cls(caption, image, sal, standing, set(bad), _lemmas(image.text), roles, named)


@lru_cache(maxsize=4096)
def _lemmas(text: str) -> frozenset[str]:
    words = re.findall(r"[a-z]+(?:-[a-z]+)*", text.lower())
    return frozenset(words) | frozenset(lemmatize(w) for w in words)


@lru_cache(maxsize=4096)
def _person_clash(a: str | None, b: str | None) -> bool:
    """Whether two synsets are people of another sex or age ("woman" / "man", "boy" / "man"):
    only people have the sex and age :func:`knowledge.people_clash` compares."""
    return a is not None and b is not None and people_clash(a, b)


def _kind(e: Edit) -> str:
    if e.level == "object":
        return {"D": "object deleted", "O": "object over-specific"}.get(e.cls, "object replaced")
    if e.level == "relation":
        return "relation silent" if e.target_index is None else "relation contradicted"
    if e.level == "count":
        return "count plural" if e.source == "several" else "count exact"
    if _agreement(e).get("kind") == "state":  # "a man *walking*": a state, as in a triple
        return "relation contradicted"
    return "modifier unnamed" if e.op == "delete" else "attribute clash"


def _agreement(e: Edit) -> dict[str, Any]:
    a = e.evidence.get("agreement") if isinstance(e.evidence, dict) else None
    return a if isinstance(a, dict) else {}


def edit_features(e: Edit, ctx: Context) -> dict[str, float]:
    """The features (:data:`FEATURES`) of claim ``e`` of the record ``ctx`` describes."""
    x = dict.fromkeys(FEATURES, 0.0)
    kind = _kind(e)
    x[kind] = 1.0
    _evidence(x, e, ctx)
    for evidence in EVIDENCE:
        x[f"{kind} x {evidence}"] = x[evidence]
    return x


def _evidence(x: dict[str, float], e: Edit, ctx: Context) -> None:
    """Fill in the :data:`EVIDENCE` features of ``x``."""
    caption, image = ctx.caption, ctx.image
    owner = None
    if e.level == "relation":
        r = caption.relations[e.caption_index]
        x["end doubted"] = float(r.subject in ctx.doubted or r.object in ctx.doubted)
        owner = r.subject
    elif e.source_index is not None:
        owner = e.source_index
    refs = len(image.parts) or 1
    x["references"] = min(refs, 10) / 10
    if owner is None or owner >= len(caption.concepts):
        return
    c = caption.concepts[owner]
    x["hedged"] = float(c.uncertain)
    if e.level == "object":
        support = type_support(c, image)
        x["dissimilarity"] = 1.0 - support.wup
        x["near miss"] = float(support.kind is None and support.wup >= NEAR)
        # a top concept ("person", "animal", "food") names the thing without saying what it is
        if c.synset:
            x["general"] = float(lexname(c.synset) == "noun.Tops")
        kind = objecthood(c.synset)
        if kind != "thing":
            x[kind] = 1.0
        x["stand-in salience"] = ctx.standing.get(owner, 0.0)
        x["part of named"] = float(part_of_any(c.synset, ctx.named))
        if e.target_index is not None:
            x["person clash"] = float(_person_clash(c.synset, image.concepts[e.target_index].synset))
        x["word in references"] = float(c.lemma.lower() in ctx.reference_words or c.text.lower() in ctx.reference_words)
        x["role clash"] = float(ctx.roles.get(owner) == "doer" and not can_act(c.synset))
        x["garment"] = float(is_garment(c.synset))
        x["others doubted"] = math.log1p(len(ctx.doubted - {owner}))
    elif e.level in ("attribute", "count"):
        x["end doubted"] = float(owner in ctx.doubted)
        if x["modifier unnamed"] and isinstance(e.source, str):
            # A noun modifier is a thing named: how far it is from what they name ("a *bus* racer"
            # where they all see a bicycle) weighs as for an object.
            word = e.source.lower()
            synset = noun_synset(word)
            support = type_support(Concept(word, word, synset), image)
            x["dissimilarity"] = 1.0 - support.wup
            x["near miss"] = float(support.kind is None and support.wup >= NEAR)
            x["word in references"] = float(word in ctx.reference_words)
            # and a place or setting ("the *kitchen* counter") is as often left unsaid as one named
            kind = objecthood(synset) if synset else "abstract"
            if kind != "thing":
                x[kind] = 1.0
    agreement = _agreement(e)
    if agreement.get("kind") == "colour":
        x["colour near miss"] = _colour_near_miss(e, c)
    if agreement:
        speaking = max(int(agreement.get("of") or 0), 1)
        x["against"] = min(float(agreement.get("against") or 0) / speaking, 1.0)
        x["support"] = min(float(agreement.get("support") or 0) / speaking, 1.0)
    elif e.target_index is not None and e.level in ("attribute", "count") and image.parts:
        # Without a tally, the references that mention the thing it was compared with.
        x["against"] = len(mentioned_in(image, image.concepts[e.target_index])) / refs
    if e.target_index is not None and e.level != "relation" and e.target_index < len(ctx.salience):
        x["mentioned"] = ctx.salience[e.target_index]


def _colour_near_miss(e: Edit, c: Concept) -> float:
    """How close the caption's colours of colour claim ``e`` (those of ``c`` its words say) are
    to the nearest of the colours the references say instead (``e.target``, "tan / beige"):
    1 - CIEDE2000 / 50, at least 0; 0 where no distance is known."""
    if not isinstance(e.source, str) or not isinstance(e.target, str):
        return 0.0
    words = set(e.source.lower().split())
    mine = [v for v in c.attributes.get("colour", []) if set(v.lower().split()) <= words]
    found = [d for m in mine for t in e.target.split(" / ") if (d := colour_distance(m, t)) is not None]
    return max(0.0, 1.0 - min(found) / 50) if found else 0.0
