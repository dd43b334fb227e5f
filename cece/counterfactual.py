"""The counterfactual caption: the caption with its hallucinations edited away, through char spans.

Replacements (object R and O, and the changed end or predicate of a role R) rewrite the words they
touch; deletions (object D) remove the noun phrase together with the predicate that ties it to the
rest of the sentence. Under-specialisations (U) and insertions are suggestions and leave the text as
it is. A role D between two faithful objects removes the predicate and its object phrase ("A dog
sitting on a lap." -> "A dog sitting."), unless that object is needed elsewhere.

>>> apply_operations("A dog on a sofa.", [(2, 5, "cat")])
'A cat on a sofa.'
"""

from __future__ import annotations

import re

from cece.costs import PREPOSITIONS, relation_key
from cece.edits import Edit
from parsers import SceneGraph, Span

Operation = tuple[int, int, str]  # replace text[start:end] by the string


def inflect(lemma: str, plural: bool) -> str:
    """A lemma in the number of the word it replaces (regular English plurals)."""
    if not plural:
        return lemma
    if re.search(r"(s|x|z|ch|sh)$", lemma):
        return lemma + "es"
    if re.search(r"[^aeiou]y$", lemma):
        return lemma[:-1] + "ies"
    return lemma + "s"


def gerund(verb: str) -> str:
    """The -ing form of a regular English verb ("sit" -> "sitting", "ride" -> "riding")."""
    if verb.endswith("ie"):
        return verb[:-2] + "ying"
    if verb.endswith("e") and not verb.endswith(("ee", "ye", "oe")):
        return verb[:-1] + "ing"
    if re.fullmatch(r"[^aeiou]*[aeiou][^aeiouwxy]", verb):
        return verb + verb[-1] + "ing"
    return verb + "ing"


def predicate_like(target: str, source: str) -> str:
    """The target predicate in the verb form of the caption's ("chasing" + "catch" -> "catching")."""
    words = target.split()
    if not words or relation_key(target) == target and len(words) == 1 and target in PREPOSITIONS:
        return target
    head = source.split()[0].lower() if source.split() else ""
    if head.endswith("ing") and words[0] not in PREPOSITIONS:
        words[0] = gerund(words[0])
    elif head.endswith("s") and not head.endswith("ss") and words[0] not in PREPOSITIONS:
        words[0] = inflect(words[0], True)
    return " ".join(words)


def apply_operations(text: str, operations: list[Operation]) -> str:
    """Apply non-overlapping span operations (the first of overlapping ones wins), then tidy."""
    chosen: list[Operation] = []
    for op in sorted(operations, key=lambda o: (o[0], -(o[1] - o[0]))):
        if chosen and op[0] < chosen[-1][1]:
            continue
        chosen.append(op)
    out = text
    for start, end, repl in reversed(chosen):
        out = out[:start] + repl + out[end:]
    return _tidy(out) if chosen else out


def _tidy(text: str) -> str:
    text = re.sub(r"[ \t]{2,}", " ", text)
    text = re.sub(r"\s+([.,;:!?])", r"\1", text)
    text = re.sub(r"(^|[.!?]\s+)([a-z])", lambda m: m.group(1) + m.group(2).upper(), text.strip())
    return text


def _phrase(c) -> Span | None:
    return c.phrase_span or (c.spans[0] if c.spans else None)


def _cover(*spans: Span | None) -> Span | None:
    spans = [s for s in spans if s]
    return (min(s[0] for s in spans), max(s[1] for s in spans)) if spans else None


def counterfactual(caption: SceneGraph, image: SceneGraph, edits: list[Edit]) -> str:
    """Rewrite ``caption.text`` so that the hallucinations in ``edits`` are gone."""
    ops: list[Operation] = []
    replaced: set[int] = set()
    edits = [e for e in edits if e.hallucinated]  # unverified claims and consequences stay
    for e in edits:
        if e.level == "object" and e.op == "replace" and e.cls in ("R", "O"):
            c = caption.concepts[e.source_index]
            word = inflect(image.concepts[e.target_index].lemma, c.plural)
            ops += [(s, t, word) for s, t in c.spans[:1]]
            replaced.add(e.source_index)
        elif e.level == "object" and e.op == "delete":
            ops.append(_deletion(caption, e.source_index))
    for e in edits:
        if e.level != "relation" or e.op == "insert":
            continue
        r = caption.relations[e.source_index]
        if e.op == "replace":
            ops += _role_replacement(caption, image, r, image.relations[e.target_index], replaced)
        else:
            ops += _role_deletion(caption, r)
    return apply_operations(caption.text, [o for o in ops if o])


def _used_elsewhere(caption: SceneGraph, node: int, relation) -> bool:
    return any(x is not relation and node in (x.subject, x.object) for x in caption.relations)


def _role_replacement(caption: SceneGraph, image: SceneGraph, r, t, replaced: set[int]) -> list[Operation]:
    """Rewrite a replaced triple: the predicate, or an end that only this triple speaks of.

    An end that other triples of the caption also use stays as it is (rewriting "woman" to fix one
    wrong triple would break the others); the wrong triple is then dropped from the text instead.
    """
    ops: list[Operation] = []
    for end, target_node in ((r.subject, t.subject), (r.object, t.object)):
        c, tgt = caption.concepts[end], image.concepts[target_node]
        if end in replaced or c.lemma == tgt.lemma or not c.spans:
            continue
        if _used_elsewhere(caption, end, r):
            return _role_deletion(caption, r)
        ops.append((*c.spans[0], inflect(tgt.lemma, c.plural)))
        replaced.add(end)
    if r.span and relation_key(t.canonical) != relation_key(r.canonical) and t.canonical:
        ops.append((*r.span, predicate_like(t.canonical, r.predicate)))
    return ops


def _role_deletion(caption: SceneGraph, r) -> list[Operation]:
    """Drop a wrong triple from the text: its predicate and the object phrase after it, unless
    the object is needed by another triple."""
    obj = _phrase(caption.concepts[r.object])
    if not r.span or not obj or obj[0] < r.span[0] or _used_elsewhere(caption, r.object, r):
        return []
    return [(*_cover(r.span, obj), "")]


def _deletion(caption: SceneGraph, i: int) -> Operation | None:
    """Remove concept ``i``'s phrase and the predicate binding it: "next to a guitar", "A guitar on"."""
    c = caption.concepts[i]
    span = _phrase(c)
    if span is None:
        return None
    as_object = [r for r in caption.relations if r.object == i and r.span and r.span[1] <= span[0]]
    as_subject = [r for r in caption.relations if r.subject == i and r.span and r.span[0] >= span[1]]
    if as_object:
        span = _cover(span, max(as_object, key=lambda r: r.span[0]).span)
    elif as_subject:
        span = _cover(span, min(as_subject, key=lambda r: r.span[0]).span)
    return (span[0], span[1], "")
