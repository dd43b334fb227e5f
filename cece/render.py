"""Terminal view of an Explanation: the caption with hallucinated words marked, edits, metrics."""

from __future__ import annotations

from typing import Any

from rich.console import Console, Group
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from cece.counterfactuals.diff import word_diff
from cece.edits import Edit
from cece.explanation import Explanation

# One colour per class, used for the marked caption and the edits table alike.
CLASS_STYLES = {"D": "bold red", "R": "bold magenta", "O": "bold yellow", "U": "cyan", "I": "green"}
CLASS_NAMES = {"D": "delete", "R": "replace", "O": "over-specific", "U": "under-specific", "I": "missing"}


def marked_caption(e: Explanation) -> Text:
    """The caption with the words of each claim marked: hallucinated ones styled by class and
    tagged ``[class]``, unverified ones (the image side is silent) underlined and tagged ``[?]``.
    Where marks overlap, a hallucinated one wins over an unverified one, then the wider one (an
    object's extent "at home plate" over the unverified "at" inside it)."""
    marks = sorted(
        {
            (a, b, ed.cls, ed.status)
            for ed in e.edits
            if ed.status in ("hallucinated", "unverified")
            for a, b in ed.marked
            if 0 <= a < b <= len(e.caption)
        },
        key=lambda m: (m[3] != "hallucinated", m[0] - m[1], m[0]),
    )
    owner: list[tuple[str, str] | None] = [None] * len(e.caption)
    for start, end, cls, status in marks:
        for i in range(start, end):
            if owner[i] is None:
                owner[i] = (cls, status)
    text = Text()
    i = 0
    while i < len(e.caption):
        j = i
        while j < len(e.caption) and owner[j] == owner[i]:
            j += 1
        mark = owner[i]
        if mark is None:
            text.append(e.caption[i:j])
        elif mark[1] == "hallucinated":
            text.append(e.caption[i:j], style=CLASS_STYLES.get(mark[0], "bold"))
            text.append(f"[{mark[0]}]", style="dim")
        else:
            text.append(e.caption[i:j], style="underline")
            text.append("[?]", style="dim")
        i = j
    return text


def counterfactual_diff(e: Explanation, plain: bool = False) -> Text:
    """The counterfactual as a word diff against the caption: removed words struck through in
    red, new words in bold green (``plain``, for output without colour: ``[-removed-]`` and
    ``{+added+}``); the note when there is no grammatical rewrite."""
    if e.counterfactual is None:
        return Text(f"none ({e.counterfactual_note})", style="yellow")
    out = Text()
    for kind, words in word_diff(e.caption, e.counterfactual):
        if plain and kind != "=":
            words = f"[-{words}-]" if kind == "-" else f"{{+{words}+}}"
        style = {"-": "strike red", "+": "bold green"}.get(kind, "")
        out.append(words + " ", style=style)
    if e.fixed_point is False:
        out.append("(still hallucinated when explained again)", style="yellow")
    return out


def _fmt(x: object) -> Text:
    """A cell as plain Text: triples like [dog, on, lap] must not be read as rich markup."""
    if x is None:
        return Text("-")
    if isinstance(x, list):
        return Text("[" + ", ".join(map(str, x)) + "]")
    return Text(str(x))


STATUS_STYLES = {"hallucinated": "bold red", "unverified": "yellow", "consequence": "dim", "suggestion": "dim"}


def _evidence(ev: dict[str, Any]) -> Text:
    """The evidence of an edit in a few words: where it comes from, then why."""
    where = []
    if ev.get("references"):
        where.append("refs " + ",".join(str(k + 1) for k in ev["references"]))
    elif ev.get("objects"):
        where.append("objects " + ",".join(map(str, ev["objects"])))
    if ev.get("words"):
        where.append("'" + "', '".join(map(str, ev["words"][:4])) + "'")
    # The fitted model's main reasons (log-odds contributions), strongest first.
    reasons = ", ".join(f"{name} {c:+.1f}" for name, c in ev.get("reasons", [])[:2])
    return Text("; ".join(filter(None, [" ".join(where), ev.get("note"), reasons and f"[{reasons}]"])))


def _change(ed: Edit) -> Text:
    """``from -> to`` of an edit, its class styled."""
    out = Text(ed.cls, style=CLASS_STYLES.get(ed.cls, "")) + Text(f" {ed.level}: ")
    return out + _fmt(ed.source) + Text(" -> ") + _fmt(ed.target)


def edits_table(e: Explanation) -> Table:
    """The claims and their consequences, one row each; suggestions are listed under it."""
    t = Table(title="Edits", show_lines=False, expand=False)
    for col in ("#", "status", "conf", "edit", "words", "evidence"):
        t.add_column(col)
    for k, ed in enumerate(e.edits):
        if ed.status == "suggestion":
            continue
        status = ed.status if ed.caused_by is None else f"consequence of #{ed.caused_by}"
        t.add_row(
            str(k),
            Text(status, style=STATUS_STYLES.get(ed.status, "")),
            f"{ed.confidence:.2f}",
            _change(ed),
            Text(" | ".join(e.caption[a:b] for a, b in ed.marked) or "-"),
            _evidence(ed.evidence),
        )
    return t


def suggestions(e: Explanation) -> Text | None:
    """What the image side has that the caption could add or state more specifically."""
    items = [
        _fmt(ed.target).plain if ed.op == "insert" else f"{_fmt(ed.source).plain} -> {_fmt(ed.target).plain}"
        for ed in e.edits
        if ed.status == "suggestion"
    ]
    return Text("Could also say: " + "; ".join(items), style="dim") if items else None


def metrics_table(e: Explanation) -> Table:
    t = Table(title="Metrics", show_header=True)
    t.add_column("objects")
    t.add_column("")
    t.add_column("roles")
    t.add_column("")
    o, r = e.objects, e.roles
    left = [
        ("#objects", o.n_objects),
        ("#ancestors", f"{o.n_ancestors:.1f}"),
        ("Hal (D+R+O)", o.hal),
        ("HalRate", f"{o.hal_rate:.2f}"),
        ("Granularity", f"{o.granularity:.2f}"),
        ("U", o.u),
        ("Similarity of R", "-" if o.r_similarity is None else f"{o.r_similarity:.2f}"),
    ]
    right = [
        ("#roles", r.n_roles),
        ("D", r.d),
        ("R", r.r),
        ("HalRate", f"{r.hal_rate:.2f}"),
        ("Granularity", f"{r.granularity:.2f}"),
        ("I", r.i),
        ("", ""),
    ]
    for (a, b), (c, d) in zip(left, right, strict=True):
        t.add_row(a, str(b), c, str(d))
    return t


def render(e: Explanation, console: Console) -> None:
    """Print one explanation."""
    # Ids and model names are data: Text, never markup ("bad[/bold]id" must print as it is).
    title = Text(
        " ".join(str(x) for x in (e.id, f"({e.model})" if e.model else None) if x not in (None, "")) or "caption"
    )
    legend = Text("  ".join(f"[{k}] {v}" for k, v in CLASS_NAMES.items()) + "  [?] unverified", style="dim")
    verdict = (
        Text(f"hallucinated (score {e.score:.2f} >= {e.threshold:g})", style="bold red")
        if e.hallucinated
        else Text(f"faithful (score {e.score:.2f} < {e.threshold:g})", style="bold green")
    )
    verdict += Text(f"  {e.mode} mode", style="dim")
    parts = [
        Text("Verdict:        ", style="bold") + verdict,
        Text("Caption:        ", style="bold") + marked_caption(e),
        Text("Counterfactual: ", style="bold") + counterfactual_diff(e, plain=console.color_system is None),
        legend,
    ]
    parts += [Text(f"warning: {w}", style="yellow") for w in e.warnings]
    console.print(Panel(Group(*parts), title=title, title_align="left"))
    claims = [ed for ed in e.edits if ed.status != "suggestion"]
    if claims:
        console.print(edits_table(e))
    elif e.hallucinated is False:
        console.print(Text("No claim is contradicted or unsupported: the caption matches the image.", style="green"))
    if (more := suggestions(e)) is not None:
        console.print(more)
    console.print(metrics_table(e))
