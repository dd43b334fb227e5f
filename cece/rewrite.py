"""The counterfactual caption: the caption with its hallucinations edited away, and nothing else.

Only hallucinated edits change text (or the subset asked for); unverified claims, consequences
and suggestions leave it alone, and a caption with no hallucination comes back byte for byte.
Each edit kind has its rewrite, made on the caption's dependency tree (:mod:`cece.rewrite_tree`):

- object R / O: the image's word, in the caption's number ("cats" -> "dogs"), "a" / "an" fitted;
- object D: the noun phrase and every word that only depended on it (:func:`cece.rewrite_tree.removal`);
- attribute R: the image's value ("red" -> "blue");
- count R: the image's count, with the noun's number and its verb made to agree ("Three giraffes
  are" -> "Two giraffes are", "Two horses are" -> "A horse is");
- relation R: the image's predicate in the caption's verb form ("standing next to" -> "sitting on");
- relation D (an annotation's triple between two faithful objects): the relation's object phrase.

When an edit has no grammatical rewrite (deleting the subject of the only sentence; the object a
main verb cannot do without) the counterfactual is None and ``note`` says why, rather than broken
English.

>>> from cece import explain
>>> e = explain("A cat on a sofa.", annotation=["dog", "sofa"])
>>> e.counterfactual
'A dog on a sofa.'
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterable

from cece.edits import Edit
from cece.rewrite_text import Change, apply
from cece.rewrite_tree import agreement, removal, token_at
from cece.rewrite_words import article, case_like, noun_form, number_word, verb_form
from knowledge import PREPOSITIONS, relation_key
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


def rewrite(caption: SceneGraph, image: SceneGraph, edits: list[Edit], doc: Any,
            chosen: Iterable[int] | None = None) -> Counterfactual:
    """The counterfactual of ``caption`` (parsed as spaCy ``doc``) for the hallucinated ``edits``,
    or the ``chosen`` edit indices (see the module docstring)."""
    picked = sorted(set(chosen)) if chosen is not None else [k for k, e in enumerate(edits) if e.hallucinated]
    changes: list[Change] = []
    for k in picked:
        e = edits[k]
        made = _changes(caption, image, e, doc)
        if made is None:
            return Counterfactual(None, _why(caption, e))
        changes += [Change(c.start, c.end, c.new, k) for c in made]
    if not changes:
        return Counterfactual(caption.text)
    return Counterfactual(apply(caption.text, changes), None, changes)


def _why(caption: SceneGraph, e: Edit) -> str:
    words = ", ".join(f"'{caption.text[a:b]}'" for a, b in e.spans[:1]) or repr(e.source)
    return f"no grammatical rewrite removes {words}: the sentence cannot stand without it"


def _changes(caption: SceneGraph, image: SceneGraph, e: Edit, doc: Any) -> list[Change] | None:
    if e.op == "insert" or (e.cls == "U" and e.level == "object"):
        return []
    if e.level == "object":
        c = caption.concepts[e.source_index]
        if e.op == "delete":
            t = token_at(doc, *c.spans[0]) if c.spans else None
            return removal(doc, t) if t is not None else None
        lemma = image.concepts[e.target_index].lemma
        out = []
        for a, b in c.spans:
            t = token_at(doc, a, b)
            out.append(Change(a, b, case_like(noun_form(lemma, bool(t is not None and t.tag_ in ("NNS", "NNPS"))),
                                               caption.text[a:b])))
        return out
    if e.level == "attribute":
        if e.op == "delete":  # a modifier naming what is not there: "a *passenger* jet" -> "a jet"
            return [Change(a, b, "") for a, b in e.spans]
        value = str(e.target).split(" / ")[0]
        return [Change(a, b, case_like(value, caption.text[a:b])) for a, b in e.spans]
    if e.level == "count":
        return _count(caption, e, doc)
    return _relation(caption, image, e, doc)


def _count(caption: SceneGraph, e: Edit, doc: Any) -> list[Change] | None:
    c = caption.concepts[e.source_index]
    head = token_at(doc, *c.spans[0]) if c.spans else None
    target = str(e.target).split("/")[0]
    if head is None or not e.spans:
        return None
    one = target == "1"
    out: list[Change] = []
    if e.source == "several":  # "cakes" where the image has one cake
        singular = noun_form(c.lemma, False)
        det = next((t for t in head.lefts if t.dep_ == "det"), None)
        first = next((t for t in head.lefts if t.dep_ != "det"), head)  # "a *red* cake"
        if det is None:
            out.append(Change(first.idx, first.idx, article(first.text if first.i != head.i else singular) + " "))
        elif det.lower_ in ("some", "several", "many", "few", "these", "those"):
            out.append(Change(det.idx, det.idx + len(det), case_like("a", det.text)))
        out.append(Change(head.idx, head.idx + len(head), singular))
    else:
        a, b = e.spans[0]
        word = article(doc.text[b:].split()[0] if b < len(doc.text) else "") if one else number_word(target)
        out.append(Change(a, b, case_like(word, caption.text[a:b])))
        if head.tag_ in ("NNS", "NNPS") and one:
            out.append(Change(head.idx, head.idx + len(head), noun_form(c.lemma, False)))
        elif head.tag_ in ("NN", "NNP") and not one:
            out.append(Change(head.idx, head.idx + len(head), noun_form(c.lemma, True)))
    return out + agreement(head, plural=not one)


def _relation(caption: SceneGraph, image: SceneGraph, e: Edit, doc: Any) -> list[Change] | None:
    r = caption.relations[e.source_index]
    if e.op == "delete":  # an annotation's triple between two faithful objects: drop its object
        return _drop_object(caption, r, doc)
    t = image.relations[e.target_index]
    out = []
    for end, other in ((r.subject, t.subject), (r.object, t.object)):
        c, g = caption.concepts[end], image.concepts[other]
        if c.lemma != g.lemma and c.spans:
            # a faithful thing in the wrong place: only this triple speaks of it, so it is the
            # triple's thing that changes ("A dog sitting on a lap" -> "A laptop sitting on ...")
            if any(x is not r and end in (x.subject, x.object) for x in caption.relations):
                return _drop_object(caption, r, doc)  # it is needed elsewhere: drop the triple
            out += [Change(a, b, case_like(noun_form(g.lemma, c.plural), caption.text[a:b])) for a, b in c.spans[:1]]
    if r.span and relation_key(t.canonical) != relation_key(r.canonical):
        out.append(Change(*r.span, predicate_like(t.canonical, doc, *r.span)))
    return out or None


def _drop_object(caption: SceneGraph, r: Any, doc: Any) -> list[Change] | None:
    """Cut a wrong triple's object phrase ("on a cutting board"), unless another triple needs it."""
    if any(x is not r and r.object in (x.subject, x.object) for x in caption.relations):
        return None
    obj = caption.concepts[r.object]
    t = token_at(doc, *obj.spans[0]) if obj.spans else None
    return removal(doc, t) if t is not None else None


def predicate_like(target: str, doc: Any, start: int, end: int) -> str:
    """The image predicate ``target`` ("sit on", "on") in the form of the caption's predicate at
    ``[start, end)``: the verb takes the caption verb's tag ("sitting on"); a bare preposition
    keeps the caption's verb ("standing next to" + "on" -> "standing on")."""
    words = target.split()
    tokens = [t for t in doc if start <= t.idx < end]
    verb = next((t for t in tokens if t.pos_ in ("VERB", "AUX")), None)
    if not words:
        return doc.text[start:end]
    if words[0] in PREPOSITIONS or " ".join(words) in PREPOSITIONS:
        return f"{verb.text} {target}" if verb is not None and tokens and tokens[0].i == verb.i else target
    if verb is not None:
        words[0] = verb_form(words[0], verb.tag_)
    return " ".join(words)
