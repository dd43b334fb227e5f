"""The most frequent edits of each model, each with example captions.

Four lists per model: object hallucinations (replace ``dog -> cat``, ``delete: frisbee``),
over-specialisations (O), under-specialisations (U) and role (triple) edits. Insertions are left
out: they say what a caption missed, not what it got wrong. Examples are indices into the report's
caption list, so the HTML can link to them.

>>> from cece.edits import Edit
>>> edit_label(Edit("replace", "object", "R", source="dog", target="cat"))
'dog -> cat'
>>> edit_label(Edit("delete", "relation", "D", source=["dog", "on", "lap"]))
'delete: [dog, on, lap]'
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from cece.edits import Edit
from cece.explanation import Explanation

# kind -> (title, which edits belong to it)
KINDS: dict[str, tuple[str, Any]] = {
    "objects": ("Object hallucinations (D, R)", lambda e: e.level == "object" and e.cls in ("D", "R")),
    "over": ("Over-specialisations (O)", lambda e: e.level == "object" and e.cls == "O"),
    "under": ("Under-specialisations (U)", lambda e: e.level == "object" and e.cls == "U"),
    "roles": ("Role edits (D, R)", lambda e: e.level == "relation" and e.cls in ("D", "R")),
}


@dataclass
class FrequentEdit:
    """An edit (as text) that a model makes ``count`` times; ``examples`` index captions."""

    label: str
    cls: str
    count: int
    examples: list[int] = field(default_factory=list)


def _side(x: Any) -> str:
    return "[" + ", ".join(map(str, x)) + "]" if isinstance(x, list) else str(x)


def edit_label(e: Edit) -> str:
    """An edit as short text: ``dog -> cat``, ``delete: frisbee``, ``insert: man``."""
    if e.op == "replace":
        return f"{_side(e.source)} -> {_side(e.target)}"
    return f"{e.op}: {_side(e.source if e.op == 'delete' else e.target)}"


def frequent_edits(
    explanations: Iterable[Explanation], top: int = 10, examples: int = 3
) -> dict[str, dict[str, list[FrequentEdit]]]:
    """model -> kind (see :data:`KINDS`) -> the ``top`` most frequent edits, most frequent first.

    Ties keep the order of first appearance, so the lists are deterministic.
    """
    counter = EditCounter(examples)
    for n, ex in enumerate(explanations):
        counter.add(n, ex.model, ex.edits)
    return counter.top(top)


class EditCounter:
    """:func:`frequent_edits` fed one explanation at a time (``add``), so the explanations
    themselves need not be kept; ``n`` is the caption's place, kept as an example."""

    def __init__(self, examples: int = 3) -> None:
        self.examples = examples
        self.counts: dict[str, dict[str, Counter[tuple[str, str]]]] = {}
        self.where: dict[tuple[str, str, str, str], list[int]] = {}

    def add(self, n: int, model: Any, edits: Iterable[Edit]) -> None:
        model = str(model)
        per_kind = self.counts.setdefault(model, {k: Counter() for k in KINDS})
        for edit in edits:
            for kind, (_, belongs) in KINDS.items():
                if not belongs(edit):
                    continue
                sig = (edit_label(edit), edit.cls)
                per_kind[kind][sig] += 1
                seen = self.where.setdefault((model, kind, *sig), [])
                # One example per caption, even when the caption repeats the edit.
                if len(seen) < self.examples and (not seen or seen[-1] != n):
                    seen.append(n)

    def top(self, top: int = 10) -> dict[str, dict[str, list[FrequentEdit]]]:
        return {
            model: {
                kind: [
                    FrequentEdit(label, cls, c, self.where[(model, kind, label, cls)])
                    for (label, cls), c in counter.most_common(top)
                ]
                for kind, counter in per_kind.items()
            }
            for model, per_kind in self.counts.items()
        }


def to_markdown(freq: dict[str, dict[str, list[FrequentEdit]]]) -> str:
    """The lists as markdown, one section per model (``dog -> cat x 12``)."""
    out = ["# Most frequent edits", ""]
    for model, kinds in freq.items():
        out += [f"## {model}", ""]
        for kind, (title, _) in KINDS.items():
            items = kinds.get(kind) or []
            out.append(f"**{title}:** " + ("; ".join(f"{f.label} x {f.count}" for f in items) or "none"))
            out.append("")
    return "\n".join(out)


def to_json(freq: dict[str, dict[str, list[FrequentEdit]]]) -> dict[str, Any]:
    return {m: {k: [vars(f) for f in items] for k, items in kinds.items()} for m, kinds in freq.items()}
