"""The counterfactual as a fixed point: each rewrite explained again against the same image.

:func:`settle` fills in ``counterfactual``, ``counterfactual_note`` and ``fixed_point`` of a
batch of explanations: the rewrite (:mod:`cece.counterfactuals.rewrite`), one more explanation of it, a follow-up
for what the rewrite itself put in wrong (or, when nothing it put in is, for a claim of the caption
it left wrong, which is then marked on the caption too), and the withdrawal of a rewrite whose
English is broken where its caption's was not (:func:`cece.counterfactuals.grammar.grammar_problems`).
"""

from __future__ import annotations

import re
from typing import Any

from cece.counterfactuals.diff import added_ranges
from cece.counterfactuals.grammar import grammar_problems
from cece.counterfactuals.rewrite import rewrite_safely
from cece.edits import Edit
from parsers import SceneGraph

#: How many times a rewrite whose own new words are still wrong is put right again.
FOLLOW_UPS = 1


def settle(explainer: Any, explanations: list[Any]) -> None:
    """Fill in ``counterfactual``, ``counterfactual_note`` and ``fixed_point`` of each of the
    ``explanations`` (in place), the rewrites of a batch parsed together.

    Each hallucinated caption is rewritten and the rewrite explained again against the same image:
    ``fixed_point`` is whether that finds no hallucination. When what it still finds wrong lies
    in the words the rewrite itself put in ("a blue *lock*" where the image's lock is black), those
    are put right once more ("a black lock"; a triple the image does not have between a noun the
    rewrite put in and another goes) -- unless that would take a noun of the caption with it.
    When nothing the rewrite put in is wrong but a claim of the caption it left is (:func:`_left_wrong`),
    that claim is put right and marked hallucinated on the caption: the marks stopped short of it.
    """
    pending: list[tuple[Any, str]] = []
    first: list[tuple[Any, Any]] = []
    for e in explanations:
        if not e.hallucinated:
            continue
        cf = rewrite_safely(explainer.parser, e)
        first.append((e, cf))
        e.counterfactual, e.counterfactual_note = cf.text, cf.note
        if cf.text is not None and cf.text != e.caption:
            pending.append((e, cf.text))
        elif cf.text is not None:  # e.g. "several" said of a noun with no singular ("sunglasses")
            e.fixed_point, e.counterfactual_note = False, "the hallucinated edits change no words"
    for round_ in range(FOLLOW_UPS + 1):
        if not pending:
            break
        graphs = explainer.parser.parse_many([text for _, text in pending])
        later: list[tuple[Any, str]] = []
        for (e, text), graph in zip(pending, graphs, strict=True):
            again = explainer.explain_graphs(graph, e.image_graph, rewrite_caption=False)
            e.counterfactual, e.fixed_point = text, not again.hallucinated
            if again.hallucinated and round_ < FOLLOW_UPS:
                new = added_ranges(e.caption, text)
                fixes = [
                    k for k, x in enumerate(again.edits) if x.hallucinated and _touches(x, again.caption_graph, new)
                ]
                # Nothing the rewrite put in is wrong, but claims of the caption it left are: the
                # caption's marks stopped where its own confidences said enough, and without the
                # words that went those claims weigh more. They are the caption's mistakes too.
                own = [] if fixes else _left_wrong(e, again)
                fixes = fixes or [k for k, _ in own]
                nxt = rewrite_safely(explainer.parser, again, fixes) if fixes else None
                if (
                    nxt is not None
                    and nxt.text is not None
                    and nxt.text != text
                    and (own or _keeps(again.caption_graph, new, nxt.text))
                ):
                    later.append((e, nxt.text))
                    for _, j in own:
                        e.edits[j].hallucinated, e.edits[j].status = True, "hallucinated"
        pending = later
    _refuse_broken(explainer.parser, [e for e in explanations if e.counterfactual not in (None, e.caption)])
    for e, cf in first:
        if e.counterfactual is not None:
            _mark_extents(e, cf.changed_by())


def _mark_extents(e: Any, changed: dict[int, list[tuple[int, int, str]]]) -> None:
    """Give each hallucinated object the rewrite takes out the ``extent`` of the words that go
    with it: the run of changed words around its own ("the umpire behind him is watching him"),
    up to another object's words, without conjunctions at either end (they join, they claim
    nothing)."""
    words = [m.span() for m in re.finditer(r"\w+(?:['’-]\w+)*", e.caption)]
    for k, ranges in changed.items():
        edit = e.edits[k]
        if edit.level != "object" or edit.op != "delete" or not edit.hallucinated or not edit.spans:
            continue
        spans = [(x, y) for x, y, _ in ranges] + list(edit.spans)
        # another object's phrase is its own to mark: "peppers" does not take "potatoes"
        theirs = [
            s
            for j, x in enumerate(e.edits)
            if j != k and x.level == "object" and x.op != "insert"
            for s in _phrase(e.caption_graph, x)
        ]
        gone = [
            any(x <= a and b <= y for x, y in spans) and not any(x < b and a < y for x, y in theirs) for a, b in words
        ]
        own = [i for i, (a, b) in enumerate(words) if any(x <= a and b <= y for x, y in edit.spans)]
        if not own:
            continue
        lo, hi = own[0], own[-1]
        while lo > 0 and gone[lo - 1]:
            lo -= 1
        while hi + 1 < len(words) and gone[hi + 1]:
            hi += 1
        while lo < own[0] and e.caption[slice(*words[lo])].lower() in _JOINERS:
            lo += 1
        while hi > own[-1] and e.caption[slice(*words[hi])].lower() in _JOINERS:
            hi -= 1
        if all(gone[lo : hi + 1]):
            edit.extent = [(words[lo][0], words[hi][1])]


def _phrase(graph: SceneGraph, x: Edit) -> list[tuple[int, int]]:
    """The noun phrase of object edit ``x``'s caption concept (article and adjectives included)."""
    c = graph.concepts[x.caption_index]
    return [c.phrase_span] if c.phrase_span else list(x.spans)


_JOINERS = frozenset({"and", "or", "but", "as", "well"})


def _refuse_broken(parser: Any, explanations: list[Any]) -> None:
    """No counterfactual rather than broken English: a rewrite with a grammar problem its caption
    did not have (:func:`cece.counterfactuals.grammar.grammar_problems`) is withdrawn, the note says which."""
    for e in explanations:
        before, after = grammar_problems(parser.doc(e.caption)), grammar_problems(parser.doc(e.counterfactual))
        broken = [p for p in after if p not in before]
        if broken:
            e.counterfactual, e.fixed_point = None, None
            e.counterfactual_note = f"no grammatical rewrite found (the best one has: {'; '.join(broken)})"


def _left_wrong(e: Any, again: Any) -> list[tuple[int, int]]:
    """``(k, j)``: claim ``k`` of ``again`` (the rewrite explained) is hallucinated and is claim
    ``j`` of the caption, which was not marked: the same level, operation and words."""
    out = []
    for k, x in enumerate(again.edits):
        if not x.hallucinated:
            continue
        same = [
            j
            for j, y in enumerate(e.edits)
            if not y.hallucinated
            and y.op == x.op != "insert"
            and y.level == x.level
            and y.cls == x.cls
            and y.status != "suggestion"
            and y.caused_by is None  # a consequence is reported with its cause, never again
            and y.source == x.source
        ]
        if len(same) != 1:
            return []  # a claim the caption does not have once: leave the rewrite as it is
        out.append((k, same[0]))
    return out


def _keeps(graph: SceneGraph, new: list[tuple[int, int]], text: str) -> bool:
    """Whether ``text`` still has every noun of ``graph`` (a rewrite) that the rewrite did not
    put in itself: a follow-up never takes a word of the caption with it."""
    words = set(re.findall(r"\w+", text.lower()))
    for c in graph.concepts:
        for a, b in c.spans[:1]:
            if not any(a < y and x < b for x, y in new):
                last = re.findall(r"\w+", graph.text[a:b].lower())[-1:]
                if last and last[0] not in words:
                    return False
    return True


def _touches(e: Edit, graph: SceneGraph, ranges: list[tuple[int, int]]) -> bool:
    """Whether edit ``e`` (of an explanation of a rewrite) is about words in ``ranges``: its own
    words, or the noun its attribute, count or triple is said of."""
    spans = list(e.spans)
    if e.level in ("object", "attribute", "count") and e.source_index is not None:
        spans += graph.concepts[e.source_index].spans
    elif e.level == "relation" and e.source_index is not None:
        r = graph.relations[e.source_index]
        spans += [s for end in (r.subject, r.object) for s in graph.concepts[end].spans]
    return any(a < y and x < b for a, b in spans for x, y in ranges)
