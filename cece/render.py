"""Terminal view of an Explanation: the caption with hallucinated words marked, edits, metrics."""

from __future__ import annotations

from rich.console import Console, Group
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from cece.explanation import Explanation

# One colour per class, used for the marked caption and the edits table alike.
CLASS_STYLES = {"D": "bold red", "R": "bold magenta", "O": "bold yellow", "U": "cyan", "I": "green"}
CLASS_NAMES = {"D": "delete", "R": "replace", "O": "over-specific", "U": "under-specific", "I": "missing"}


def marked_caption(e: Explanation) -> Text:
    """The caption with each edited object word styled by its class and tagged ``[class]``."""
    text = Text()
    marks = sorted({(s[0], s[1], ed.cls) for ed in e.edits if ed.level == "object" for s in ed.spans})
    pos = 0
    for start, end, cls in marks:
        if start < pos:
            continue
        text.append(e.caption[pos:start])
        text.append(e.caption[start:end], style=CLASS_STYLES.get(cls, "bold"))
        text.append(f"[{cls}]", style="dim")
        pos = end
    text.append(e.caption[pos:])
    return text


def _fmt(x) -> Text:
    """A cell as plain Text: triples like [dog, on, lap] must not be read as rich markup."""
    if x is None:
        return Text("-")
    if isinstance(x, list):
        return Text("[" + ", ".join(map(str, x)) + "]")
    return Text(str(x))


def edits_table(e: Explanation) -> Table:
    t = Table(title="Edits", show_lines=False, expand=False)
    for col in ("class", "op", "level", "from", "to", "cost", "Wu-Palmer", "LCA"):
        t.add_column(col)
    for ed in e.edits:
        t.add_row(Text(ed.cls, style=CLASS_STYLES.get(ed.cls, "")), ed.op, ed.level, _fmt(ed.source),
                  _fmt(ed.target), f"{ed.cost:g}", "-" if ed.wup is None else f"{ed.wup:.2f}", _fmt(ed.lca))
    return t


def metrics_table(e: Explanation) -> Table:
    t = Table(title="Metrics", show_header=True)
    t.add_column("objects")
    t.add_column("")
    t.add_column("roles")
    t.add_column("")
    o, r = e.objects, e.roles
    left = [("#objects", o.n_objects), ("#ancestors", f"{o.n_ancestors:.1f}"),
            ("Hal (D+R+O)", o.hal), ("HalRate", f"{o.hal_rate:.2f}"), ("Granularity", f"{o.granularity:.2f}"),
            ("U", o.u), ("Similarity of R", "-" if o.r_similarity is None else f"{o.r_similarity:.2f}")]
    right = [("#roles", r.n_roles), ("D", r.d), ("R", r.r), ("HalRate", f"{r.hal_rate:.2f}"),
             ("Granularity", f"{r.granularity:.2f}"), ("I", r.i), ("", "")]
    for (a, b), (c, d) in zip(left, right):
        t.add_row(a, str(b), c, str(d))
    return t


def render(e: Explanation, console: Console) -> None:
    """Print one explanation."""
    title = " ".join(x for x in (e.id, f"({e.model})" if e.model else None) if x) or "caption"
    legend = Text("  ".join(f"[{k}] {v}" for k, v in CLASS_NAMES.items()), style="dim")
    parts = [Text("Caption:        ", style="bold") + marked_caption(e),
             Text("Counterfactual: ", style="bold") + Text(e.counterfactual, style="green"), legend]
    parts += [Text(f"warning: {w}", style="yellow") for w in e.warnings]
    console.print(Panel(Group(*parts), title=title, title_align="left"))
    if e.edits:
        console.print(edits_table(e))
    else:
        console.print(Text("No edits: the caption matches the image.", style="green"))
    console.print(metrics_table(e))
