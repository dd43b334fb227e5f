"""The counterfactual caption: the caption with its hallucinations edited away, and nothing else.

Only hallucinated edits change text (or the subset asked for); unverified claims, consequences
and suggestions leave it alone, and a caption with no hallucination comes back byte for byte.
Each edit kind has its rewrite, made on the caption's dependency tree (:mod:`cece.counterfactuals.tree`):

- object R / O: the image's word, in the caption's number ("cats" -> "dogs"), "a" / "an" fitted,
  none before what the references only say as a mass ("eating a sandwich" -> "eating pasta");
- object D: the noun phrase and every word that only depended on it (:func:`cece.counterfactuals.tree.removal`);
- attribute R: the image's value ("red" -> "blue");
- count R: the image's count, with the noun's number and its verb made to agree ("Three giraffes
  are" -> "Two giraffes are", "Two horses are" -> "A horse is");
- relation R: the image's predicate in the caption's verb form ("standing next to" -> "sitting on");
- relation D (an annotation's triple between two faithful objects): "and" for a preposition
  joining two noun phrases ("A room with a sofa" -> "A room and a sofa"), else the relation's
  object phrase.

When an edit has no grammatical rewrite (deleting the subject of the only sentence; the object a
main verb cannot do without) the counterfactual is None and ``note`` says why, rather than broken
English.

>>> from cece import explain
>>> e = explain("A cat on a sofa.", annotation=["dog", "sofa"])
>>> e.counterfactual
'A dog on a sofa.'
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from typing import Any

from cece.counterfactuals.nouns import bare_span, count_changes, holds_things, noun_changes, portion_head
from cece.counterfactuals.text import Change, apply
from cece.counterfactuals.tree import members_of, modifier_removal, removal, token_at
from cece.counterfactuals.words import case_like, noun_form, verb_form
from cece.edits import Edit
from cece.evidence import salience
from cece.mass import said_name, said_plural, uncounted
from cece.stand_ins import roles_of, stand_ins
from knowledge import (
    PREPOSITIONS,
    lexname,
    objecthood,
    participle_tag,
    place_part,
    relation_key,
    state_of_predicate,
    verbs_exclude,
)
from parsers import SceneGraph


@dataclass
class Counterfactual:
    """The rewritten ``text`` (None when no grammatical rewrite exists, ``note`` says why) and the
    ``changes`` made: char ranges of the original caption, their new text and the index of the
    edit each serves."""

    text: str | None
    note: str | None = None
    changes: list[Change] = field(default_factory=list)

    def changed_by(self) -> dict[int, list[tuple[int, int, str]]]:
        """Edit index -> the ``(start, end, new text)`` it changed in the caption."""
        out: dict[int, list[tuple[int, int, str]]] = {}
        for c in self.changes:
            if c.edit is not None:
                out.setdefault(c.edit, []).append((c.start, c.end, c.new))
        return out


@dataclass
class _Text:
    """What every rewrite of one caption reads: its graphs, its parse, the heads of the nouns
    that stay (``keep``: a cut that can leave them, does) and of those that go (``gone``)."""

    caption: SceneGraph
    image: SceneGraph
    doc: Any
    keep: set[int]
    gone: set[int]
    used: dict[int, str] = field(default_factory=dict)  # image concept -> the caption word that took it

    def head(self, concept: int) -> Any | None:
        spans = self.caption.concepts[concept].spans
        return token_at(self.doc, *spans[0]) if spans else None


def rewrite(
    caption: SceneGraph, image: SceneGraph, edits: list[Edit], *, doc: Any, chosen: Iterable[int] | None = None
) -> Counterfactual:
    """The counterfactual of ``caption`` (parsed as spaCy ``doc``) for the hallucinated ``edits``,
    or the ``chosen`` edit indices (see the module docstring)."""
    picked = sorted(set(chosen)) if chosen is not None else [k for k, e in enumerate(edits) if e.hallucinated]
    removed = {edits[k].caption_index for k in picked if edits[k].level == "object" and edits[k].op == "delete"}
    removed |= {
        caption.relations[edits[k].caption_index].object
        for k in picked
        if edits[k].level == "relation" and edits[k].op == "delete"
    }
    heads = {
        i: {t.i for a, b in c.spans if (t := token_at(doc, a, b)) is not None} for i, c in enumerate(caption.concepts)
    }
    ctx = _Text(
        caption,
        image,
        doc,
        keep={t for i, ts in heads.items() if i not in removed for t in ts},
        gone={t for i in removed for t in heads.get(i, ())},
        # what a replacement puts in already: a stand-in saying it again would name it twice
        # ("The meat is laying on the red meat")
        used={
            edits[k].image_index: caption.concepts[edits[k].caption_index].lemma.lower()
            for k in picked
            if edits[k].level == "object" and edits[k].op == "replace"
        },
    )
    # cuts first: what is said of a noun phrase that goes, goes with it
    order = sorted(picked, key=lambda k: edits[k].op != "delete")
    changes: list[Change] = []
    modifiers: list[Change] = []
    for k in order:
        e = edits[k]
        if e.level in ("attribute", "count", "relation") and _inside_cut(ctx, e, changes):
            continue
        made = _changes(ctx, e)
        if made is None:
            return Counterfactual(None, _why(caption, e))
        modifier = e.level == "attribute" and e.op == "delete"
        (modifiers if modifier else changes).extend(Change(c.start, c.end, c.new, k) for c in made)
    # a noun replaced with its modifiers takes them with it: "a *flower* shirt" -> "jeans"; a cut
    # of the modifier would leave "shirt", the replacement lost inside the cut
    changes += [c for c in modifiers if not any(x.new and x.start <= c.start < c.end <= x.end for x in changes)]
    if not changes:
        return Counterfactual(caption.text)
    return Counterfactual(apply(caption.text, changes), None, changes)


def _inside_cut(ctx: _Text, e: Edit, changes: list[Change]) -> bool:
    """Whether the noun edit ``e`` speaks of (or, for a triple, an end of it) was cut away."""
    if e.level == "relation":
        r = ctx.caption.relations[e.caption_index]
        ends = [r.subject, r.object]
    else:
        ends = [e.caption_index]
    heads = [t for i in ends if (t := ctx.head(i)) is not None]
    return any(c.new == "" and c.start <= t.idx < c.end for t in heads for c in changes)


def _why(caption: SceneGraph, e: Edit) -> str:
    words = ", ".join(f"'{caption.text[a:b]}'" for a, b in e.spans[:1]) or repr(e.source)
    return f"no grammatical rewrite removes {words}: the sentence cannot stand without it"


def _changes(ctx: _Text, e: Edit) -> list[Change] | None:
    if e.op == "insert" or (e.cls == "U" and e.level == "object"):
        return []
    text = ctx.caption.text
    if e.level == "object":
        c = ctx.caption.concepts[e.caption_index]
        if e.op == "delete":
            # a subject is said as what the image has instead, without the words that described
            # the wrong thing ("a cooked beer" -> "a turkey"; "A yellow pineapple floating in a
            # martini glass" -> "A drink floating ...", not "A martini glass"), and so is the same
            # wrong word said again ("another cookie"); cut when the image side has nothing else
            h = ctx.head(e.caption_index)
            subject = (
                ctx.image.kind == "references" and h is not None and h.dep_ in _SUBJECT_DEPS and h.head.dep_ == "ROOT"
            )
            instead = c.lemma.lower() in ctx.used.values() or subject
            cut = None if instead else _remove(ctx, c)
            g = _stand_in(ctx, e.caption_index) if cut is None else None
            if g is None and instead:
                cut = _remove(ctx, c)
            return (
                cut
                if g is None
                else [x for a, b in c.spans for x in _noun_changes(ctx, *bare_span(ctx.doc, a, b), old=c, new=g)]
            )
        g = ctx.image.concepts[e.image_index]
        if _listed(ctx, c, g):  # "cars, buses and people" where the buses are cars: "cars and people"
            return _remove(ctx, c)
        return [x for a, b in c.spans for x in _noun_changes(ctx, a, b, old=c, new=g)]
    if e.level == "attribute":
        if e.op == "delete":  # a modifier naming what is not there: "a *passenger* jet" -> "a jet"
            return [x for a, b in e.spans for x in _unsay(ctx.doc, a, b)]
        tallied = (e.evidence.get("agreement") or {}).get("kind")
        if tallied == "state":  # "walking" -> "running"
            return [Change(a, b, predicate_like(str(e.target), ctx.doc, (a, b))) for a, b in e.spans]
        if tallied == "sex":  # the noun says it: "two men" -> "two women"
            plural = ctx.caption.concepts[e.caption_index].plural
            return [Change(a, b, case_like(noun_form(str(e.target), plural), text[a:b])) for a, b in e.spans]
        value = str(e.target).split(" / ")[0]
        return [
            Change(*_attribute_words(ctx.doc, a, b, str(e.source)), case_like(value, text[a:b])) for a, b in e.spans
        ]
    if e.level == "count":
        return count_changes(ctx.caption, e, ctx.doc)
    return _relation(ctx, e)


def _noun_changes(ctx: _Text, a: int, b: int, *, old: Any, new: Any) -> list[Change]:
    """:func:`noun_changes` with the image's word said as the references say it (a mass without
    "a", "jeans" in the plural, "a cherry picker" by its whole name)."""
    mass = uncounted(ctx.image, new)
    named = replace(new, lemma=said_name(ctx.image, new))
    return noun_changes(
        ctx.doc, a, b, old=old, new=named, uncounted=mass, said_plural=not mass and said_plural(ctx.image, new)
    )


#: What a subject is: a verb's, or the head of a caption that is one noun phrase.
_SUBJECT_DEPS = ("nsubj", "nsubjpass", "ROOT")


def _stand_in(ctx: _Text, i: int) -> Any | None:
    """The image concept that subject ``i`` most likely stands in for, when it is a thing the
    image side names and no caption concept speaks of (:func:`cece.stand_ins.stand_ins`). A
    subject is a verb's, or the head of a caption that is one noun phrase ("A kid playing
    baseball."). What another caption word already became is not said again ("The meat is laying
    on the red meat"), but the same wrong word said twice is the same thing twice ("One cookie is
    holding up a paper and another cookie is drawing": another girl)."""
    heads = [ctx.head(i)] if ctx.caption.concepts[i].spans else []
    if not heads or heads[0] is None or heads[0].dep_ not in _SUBJECT_DEPS:
        return None
    c = ctx.caption.concepts[i]
    j = stand_ins([i], ctx.caption.concepts, ctx.image, salience(ctx.image), roles_of(ctx.caption))[i]
    if j is None or objecthood(ctx.image.concepts[j].synset) != "thing":
        return None
    if _own_body_part(heads[0], c) and not _body_part(ctx.image.concepts[j]):
        return None  # "has *his arm* crossed" where they see a hat: his arm is not the hat
    return ctx.image.concepts[j] if ctx.used.setdefault(j, c.lemma.lower()) == c.lemma.lower() else None


def _body_part(c: Any) -> bool:
    return bool(c.synset) and lexname(c.synset) == "noun.body"


def _own_body_part(head: Any, c: Any) -> bool:
    """Whether concept ``c`` (head token ``head``) is a part of its possessor's body ("*his*
    arm", "the man's hand"): only another such part stands in for it."""
    return _body_part(c) and any(t.dep_ == "poss" for t in head.children)


def _attribute_words(doc: Any, a: int, b: int, value: str) -> tuple[int, int]:
    """The words saying attribute ``value`` from its span ``[a, b)`` on: all of a coordination
    the value names ("black and white" for "black white")."""
    t = token_at(doc, a, b)
    words = value.lower().split()
    if t is None or len(words) < 2:
        return a, b
    members = [m for m in members_of(t) if m.i >= t.i]
    named = [m for m in members if m.lower_ in words]
    return (a, named[-1].idx + len(named[-1])) if len(named) > 1 else (a, b)


def _unsay(doc: Any, a: int, b: int) -> list[Change]:
    t = token_at(doc, a, b)
    return modifier_removal(doc, t) if t is not None else [Change(a, b, "")]


def _listed(ctx: _Text, c: Any, g: Any) -> bool:
    """Whether ``g`` is named already by another member of the list caption noun ``c`` is in."""
    t = token_at(ctx.doc, *c.spans[0]) if c.spans else None
    names = {noun_form(g.lemma, False), noun_form(g.lemma, True)}
    return t is not None and any(m.i != t.i and m.lower_ in names for m in members_of(t))


def _remove(ctx: _Text, c: Any) -> list[Change] | None:
    """Cut every mention of concept ``c`` ("a dog ... the dog"); None when one cannot go."""
    out: list[Change] = []
    for a, b in c.spans:
        t = token_at(ctx.doc, a, b)
        cut = removal(ctx.doc, t, keep=ctx.keep, gone=ctx.gone, holder=holds_things(c.lemma)) if t is not None else None
        whole = portion_head(t, c.phrase_span)
        if t is not None and whole is not t:  # "a piece of cake" goes whole where a cut of it takes the cake too
            whole_cut = removal(ctx.doc, whole, keep=ctx.keep, gone=ctx.gone, holder=holds_things(c.lemma))
            if whole_cut is not None and any(x.start <= t.idx < x.end for x in whole_cut):
                cut = whole_cut
        if cut is None:
            return None
        out += cut
    return out if c.spans else None


def _relation(ctx: _Text, e: Edit) -> list[Change] | None:
    caption, doc = ctx.caption, ctx.doc
    r = caption.relations[e.caption_index]
    if e.op == "delete":  # an annotation's triple between two faithful objects: drop its object
        return _drop_object(ctx, r)
    if e.evidence.get("agreement"):
        # what the references contradict is how two things they name relate -- the subject's
        # posture or motion, or its place: only the predicate changes, and the caption's words for
        # the two stay ("The food is sitting on the grill", not "The peach ...")
        return [Change(*r.span, predicate_like(e.target[1], doc, r.span))] if r.span else None
    t = ctx.image.relations[e.image_index]
    out = []
    for end, other in ((r.subject, t.subject), (r.object, t.object)):
        c, g = caption.concepts[end], ctx.image.concepts[other]
        if c.lemma != g.lemma and c.spans:
            # a faithful thing in the wrong place: only this triple speaks of it, so it is the
            # triple's thing that changes ("A dog sitting on a lap" -> "A laptop sitting on ...")
            if any(x is not r and end in (x.subject, x.object) for x in caption.relations):
                return _drop_object(ctx, r)  # it is needed elsewhere: drop the triple
            if any(x.lemma == g.lemma for x in caption.concepts):
                return None  # the caption names that thing already: "a bus and a car" is no "a bus and a bus"
            out += [x for a, b in c.spans[:1] for x in _noun_changes(ctx, a, b, old=c, new=g)]
    if r.span and (relation_key(t.canonical) != relation_key(r.canonical) or verbs_exclude(t.canonical, r.canonical)):
        out.append(Change(*r.span, predicate_like(t.canonical, doc, r.span)))
    return out or None


def _drop_object(ctx: _Text, r: Any) -> list[Change] | None:
    """Undo a wrong triple between two things the image has, keeping both nouns: a preposition
    joining two noun phrases becomes "and", which names both things and relates neither ("A room
    with a sofa." -> "A room and a sofa."); otherwise the object phrase is cut ("on a cutting
    board"), unless another triple needs it."""
    joined = _unrelate(ctx, r)
    if joined is not None:
        return joined
    if any(x is not r and r.object in (x.subject, x.object) for x in ctx.caption.relations):
        return None
    t = ctx.head(r.object)
    return removal(ctx.doc, t, keep=ctx.keep, gone=ctx.gone) if t is not None else None


def _unrelate(ctx: _Text, r: Any) -> list[Change] | None:
    """``[Change(preposition -> "and")]`` when triple ``r`` is a lone preposition between its
    subject noun and that preposition's object ("a desk *with* a computer"), or a bare participle
    and its preposition ("a plate *topped with* a pancake"), and the subject is no verb's subject
    (whose verb would then have to agree with two things); else None."""
    s, o = ctx.head(r.subject), ctx.head(r.object)
    tokens = [t for t in ctx.doc if r.span and r.span[0] <= t.idx < r.span[1]]
    if s is None or o is None or len(tokens) not in (1, 2):
        return None
    p, o = tokens[-1], members_of(o)[0]  # "with a stove and a sink": the list hangs from "with"
    verb = tokens[0] if len(tokens) == 2 else None
    if p.pos_ != "ADP" or p.dep_ != "prep" or o.head.i != p.i or o.dep_ != "pobj":
        return None
    if verb is None:
        if p.head.i != s.i or s.dep_ in ("nsubj", "nsubjpass"):
            return None
    elif not _bare_participle(verb, s, p):
        return None
    return [Change(tokens[0].idx, p.idx + len(p), "and")]


def _bare_participle(verb: Any, s: Any, p: Any) -> bool:
    """Whether ``verb`` is a participle saying only ``p`` of noun ``s``: after it ("a plate
    *topped* with ..."), or the root of a caption without a finite verb, which spaCy reads as
    the noun's verb; nothing else hangs from it."""
    after = verb.dep_ == "acl" and verb.head.i == s.i
    root = verb.dep_ == "ROOT" and s.head.i == verb.i and s.dep_ in ("nsubj", "nsubjpass") and verb.tag_ == "VBN"
    rest = [c for c in verb.children if c.i not in (s.i, p.i) and c.dep_ != "punct"]
    return verb.tag_ in ("VBN", "VBG") and (after or root) and not rest


def predicate_like(target: str, doc: Any, span: tuple[int, int]) -> str:
    """The image predicate ``target`` ("sit on", "on") in the form of the caption's predicate at
    ``span`` (``[start, end)``): the verb takes the caption verb's tag ("sitting on"); a bare
    preposition keeps the caption's verb ("standing next to" + "on" -> "standing on"); a place's
    part takes back its article ("on surface of" -> "on the surface of")."""
    start, end = span
    words = _with_articles(target.split())
    target = " ".join(words)
    tokens = [t for t in doc if start <= t.idx < end]
    verb = next((t for t in tokens if t.pos_ in ("VERB", "AUX")), None)
    if not words:
        return str(doc.text[start:end])
    if words[0] in PREPOSITIONS or " ".join(words) in PREPOSITIONS:
        return f"{verb.text} {target}" if verb is not None and tokens and tokens[0].i == verb.i else target
    # a verb in the caption's verb's form; in place of a bare preposition, a participle ("A woman
    # in a kitchen" -> "A woman holding a knife"); a participle in the form its state takes
    # ("parked" -> "driving", not "driven")
    tag = verb.tag_ if verb is not None else "VBG"
    if tag in ("VBN", "VBG") and (state := state_of_predicate(target)) is not None:
        tag = participle_tag(state)
    words[0] = verb_form(words[0], tag)
    return " ".join(words)


def _with_articles(words: list[str]) -> list[str]:
    """A canonical predicate's words with "the" before a place's part between a preposition and
    "of" ("in middle of" -> "in the middle of")."""
    out: list[str] = []
    for k, w in enumerate(words):
        out += ["the", w] if place_part(words, k) else [w]
    return out


def rewrite_safely(parser: Any, e: Any, chosen: Iterable[int] | None = None) -> Counterfactual:
    """:func:`rewrite` of explanation ``e``; a rewrite that cannot be made (an edit pointing at
    what the tree does not have) is a None with a note, never a failure of the record."""
    try:
        return rewrite(e.caption_graph, e.image_graph, e.edits, doc=parser.doc(e.caption_graph.text), chosen=chosen)
    except (IndexError, KeyError, ValueError, AttributeError) as exc:
        return Counterfactual(None, f"no rewrite: {type(exc).__name__}: {exc}")
