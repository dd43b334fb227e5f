"""The browsable caption list: every caption with its claims highlighted.

Hallucinated edits are marked by class; unverified ones (the image side is silent) get a quiet
``e-unverified`` mark; consequences of another edit are not marked again (one mistake, one mark).
Edit spans may overlap, so the caption is cut at every span boundary and each piece is marked by
the edits covering it: a hallucinated edit wins over an unverified one, an object edit over a role
edit, and the hover text (``title``) lists all of them with status and confidence.

>>> from cece.edits import Edit
>>> highlight("A dog on a lap.", [Edit("replace", "object", "R", "dog", "cat", wup=0.86, spans=[(2, 5)],
...                                    confidence=1.0, hallucinated=True, status="hallucinated")])
'A <mark class="e-R" title="R replace: dog -&gt; cat (Wu-Palmer 0.86) · hallucinated 1.00">dog</mark> on a lap.'
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape
from itertools import pairwise

from cece.counterfactuals.diff import word_diff
from cece.edits import Edit
from cece.explanation import Explanation
from cece.report.frequent import edit_label

CLASS_NAMES = {"D": "delete", "R": "replace", "O": "over-specific", "U": "under-specific", "I": "missing"}


def describe(e: Edit) -> str:
    """Hover text for one edit: ``R replace: dog -> cat (Wu-Palmer 0.86)``."""
    level = "" if e.level == "object" else "role "
    label = edit_label(e)
    if e.op == "replace":
        label = f"{CLASS_NAMES.get(e.cls, e.op) if e.level == 'object' else 'replace'}: {label}"
    text = f"{level}{e.cls} {label}"
    text += f" (Wu-Palmer {e.wup:.2f})" if e.wup is not None and e.level == "object" else ""
    return text + f" · {e.status} {e.confidence:.2f}"


def highlight(caption: str, edits: Sequence[Edit]) -> str:
    """The caption as HTML with each edited stretch in a ``<mark>`` (see the module docstring)."""
    marks = [
        (s, t, e)
        for e in edits
        if e.op != "insert" and e.status != "consequence"
        for s, t in e.marked
        if 0 <= s < t <= len(caption)
    ]
    if not marks:
        return escape(caption)
    bounds = sorted({0, len(caption), *(s for s, _, _ in marks), *(t for _, t, _ in marks)})
    out = []
    for a, b in pairwise(bounds):
        piece = escape(caption[a:b])
        covering = _unique([e for s, t, e in marks if s <= a and b <= t])
        if not covering or not caption[a:b].strip():
            out.append(piece)
            continue
        sure = [e for e in covering if e.status != "unverified"] or covering
        objects = [e for e in sure if e.level == "object"]
        main = objects[0] if objects else sure[0]
        kind = "" if objects else "role-"
        css = "e-unverified" if main.status == "unverified" else f"e-{kind}{main.cls}"
        title = escape("\n".join(describe(e) for e in covering))
        out.append(f'<mark class="{css}" title="{title}">{piece}</mark>')
    return "".join(out)


def diff_html(old: str, new: str) -> str:
    """The rewrite as HTML: removed words in ``<del>``, new words in ``<ins>``.

    >>> diff_html("A cat on a sofa.", "A dog on a sofa.")
    'A <del>cat</del> <ins>dog</ins> on a sofa.'
    """
    parts = []
    for kind, words in word_diff(old, new):
        tag = {"-": "del", "+": "ins"}.get(kind)
        parts.append(f"<{tag}>{escape(words)}</{tag}>" if tag else escape(words))
    return " ".join(parts)


def _unique(edits: list[Edit]) -> list[Edit]:
    """Edits without repeats, by identity (an Edit is a mutable dataclass, so not hashable)."""
    seen: list[Edit] = []
    for e in edits:
        if not any(e is s for s in seen):
            seen.append(e)
    return seen


def caption_item(n: int, e: Explanation, color: str) -> str:
    """One ``<li>`` of the caption list; ``id="c{n}"`` is the anchor frequent edits link to."""
    classes = " ".join(sorted({x.cls for x in e.edits if x.status in ("hallucinated", "suggestion")}))
    unverified = [x for x in e.edits if x.status == "unverified"]
    missing = [str(x.target) for x in e.edits if x.level == "object" and x.cls == "I"]
    o, r = e.objects, e.roles
    stats = f"score {e.score:.2f} · HalRate {o.hal_rate:.2f} · Granularity {o.granularity:.2f}"
    if r.judged and r.n_roles:
        stats += f" · role HalRate {r.hal_rate:.2f}"
    parts = [
        f'<li class="cap" id="c{n}" data-model="{escape(str(e.model), quote=True)}" data-cls="{classes}" '
        f'data-hal="{int(e.hallucinated)}">',
        f'<div class="head"><span class="badge" style="--c:{color}">{escape(str(e.model))}</span>'
        f"<code>{escape(str(e.id))}</code>{stats}</div>",
        f'<p class="text">{highlight(e.caption, e.edits)}</p>',
    ]
    if e.counterfactual is None:
        parts.append(f'<p class="cf">&#8594; <i>no grammatical rewrite: {escape(str(e.counterfactual_note))}</i></p>')
    elif e.counterfactual != e.caption:
        parts.append(f'<p class="cf">&#8594; {diff_html(e.caption, e.counterfactual)}</p>')
    if missing:
        parts.append(f'<p class="miss">not mentioned: {escape(", ".join(missing))}</p>')
    if unverified:
        words = dict.fromkeys(e.caption[a:b] for x in unverified for a, b in x.spans)
        parts.append(f'<p class="miss">unverified (the image side is silent): {escape(", ".join(words))}</p>')
    parts.append("</li>")
    return "".join(parts)


def caption_list(explanations: Sequence[Explanation], colors: dict[str, str]) -> str:
    """The filter bar and the list of all captions."""
    items = "\n".join(caption_item(n, e, colors.get(str(e.model), "#555")) for n, e in enumerate(explanations))
    filters = caption_filters(list(dict.fromkeys(str(e.model) for e in explanations)))
    return f"{filters}{CAPTIONS_OPEN}\n{items}\n{CAPTIONS_CLOSE}"


CAPTIONS_OPEN, CAPTIONS_CLOSE = '<ol class="captions" id="captions">', "</ol>"


def caption_filters(models: Sequence[str]) -> str:
    """The filter bar above the caption list (by model, by class)."""
    model_opts = "".join(f'<option value="{escape(m, quote=True)}">{escape(m)}</option>' for m in models)
    cls_opts = "".join(f'<option value="{k}">{k} {v}</option>' for k, v in CLASS_NAMES.items())
    return (
        f'<div class="filters"><label>Model <select id="f-model"><option value="">all</option>{model_opts}'
        f'</select></label><label>Class <select id="f-cls"><option value="">any</option>'
        f'<option value="hal">hallucinated</option><option value="ok">not hallucinated</option>{cls_opts}'
        f'</select></label><span id="f-count"></span></div>'
    )
