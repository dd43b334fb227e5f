"""Distributions of each phenomenon across captions: one small-multiple figure per table group.

Each panel is one per-caption metric; each model gets a bar per bin showing the share of its
captions in that bin, so models with different numbers of captions compare directly. Rates and
similarities are binned to the nearest 0.1, counts to integers (the last bin collects the tail).
Figures are SVG text, ready to inline into HTML (no files, no network).

Matplotlib is used through :class:`matplotlib.figure.Figure` only -- not pyplot -- so no GUI
backend is ever chosen and nothing global is touched.

>>> bins_for("rate", [0.0, 0.26, 1.0])[2]
['0', '.1', '.2', '.3', '.4', '.5', '.6', '.7', '.8', '.9', '1']
>>> bins_for("count", [7, 8.4, 30])
(7, 13, ['7', '8', '9', '10', '11', '12', '13', '14', '15', '16', '17', '18', '19+'])
"""

from __future__ import annotations

import io
import math
import re
from collections.abc import Iterable, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from cece.report.tables import Captioned

if TYPE_CHECKING:  # matplotlib is imported where a figure is drawn
    from matplotlib.figure import Figure

# Colour-blind-safe palette (Okabe-Ito), shared with the HTML's model badges.
PALETTE = ["#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#F0E442", "#000000"]
MAX_COUNT_BIN = 12


@dataclass(frozen=True)
class Panel:
    level: str  # "objects" | "roles": which metrics object of an Explanation
    key: str
    label: str
    kind: str  # "rate" (0..1) | "count"


GROUPS: dict[str, tuple[str, list[Panel]]] = {
    "objects": (
        "Objects",
        [
            Panel("objects", "n_objects", "#objects", "count"),
            Panel("objects", "n_ancestors", "#ancestors", "count"),
            Panel("objects", "hal_rate", "HalRate", "rate"),
            Panel("objects", "granularity", "Granularity", "rate"),
            Panel("objects", "u_rate", "U rate", "rate"),
        ],
    ),
    "object_edits": (
        "Object edits",
        [
            Panel("objects", "d_rate", "D rate", "rate"),
            Panel("objects", "o_rate", "O rate", "rate"),
            Panel("objects", "r_rate", "R rate", "rate"),
            Panel("objects", "r_similarity", "Similarity of R", "rate"),
        ],
    ),
    "roles": (
        "Roles (judged captions)",
        [
            Panel("roles", "n_roles", "#roles", "count"),
            Panel("roles", "d", "D", "count"),
            Panel("roles", "r", "R", "count"),
            Panel("roles", "hal_rate", "HalRate", "rate"),
            Panel("roles", "granularity", "Granularity", "rate"),
        ],
    ),
}


def model_colors(models: Sequence[str]) -> dict[str, str]:
    return {m: PALETTE[i % len(PALETTE)] for i, m in enumerate(models)}


def panel_values(explanations: Iterable[Captioned], panel: Panel) -> dict[str, list[float]]:
    """model -> the panel's metric for each caption where it is defined."""
    out: dict[str, list[float]] = {}
    for e in explanations:
        metrics = getattr(e, panel.level)
        if panel.level == "roles" and not e.roles.judged:
            continue
        value = getattr(metrics, panel.key)
        if value is not None:
            out.setdefault(str(e.model), []).append(float(value))
    return out


def bins_for(kind: str, values: Sequence[float]) -> tuple[int, int, list[str]]:
    """(first bin value, number of bins, labels) for a panel.

    Rates: 0, .1, ..., 1. Counts: integers from the smallest value seen, at most
    ``MAX_COUNT_BIN`` + 1 bins, the last one collecting the tail (``12+``).
    """
    if kind == "rate":
        return 0, 11, ["0"] + [f".{k}" for k in range(1, 10)] + ["1"]
    ints = [int(round(v)) for v in values] or [0]
    lo = min(ints)
    hi = min(max(ints), lo + MAX_COUNT_BIN)
    labels = [str(k) for k in range(lo, hi + 1)]
    if max(ints) > hi:
        labels[-1] += "+"
    return lo, hi - lo + 1, labels


def _bin(kind: str, value: float, lo: int, n: int) -> int:
    k = int(round(value * 10)) if kind == "rate" else int(round(value)) - lo
    return min(n - 1, max(0, k))


def distribution_svg(
    explanations: Sequence[Captioned], group: str, models: Sequence[str], *, colors: dict[str, str] | None = None
) -> str:
    """The group's small-multiple figure as an inline-ready ``<svg>`` element."""
    from matplotlib.figure import Figure

    title, panels = GROUPS[group]
    colors = colors or model_colors(models)
    cols = 3  # the same grid for every group, so all figures share one scale on the page
    rows = math.ceil(len(panels) / cols)
    fig = Figure(figsize=(3.4 * cols, 2.5 * rows + 0.5), layout="constrained")
    axes = fig.subplots(rows, cols, squeeze=False).ravel()
    width = 0.8 / max(1, len(models))
    # The grid may hold more axes than panels (hidden below): zip stops at the last panel.
    for ax, panel in zip(axes, panels, strict=False):
        values = panel_values(explanations, panel)
        lo, n, labels = bins_for(panel.kind, [v for vs in values.values() for v in vs])
        for k, model in enumerate(models):
            vs = values.get(model, [])
            counts = [0] * n
            for v in vs:
                counts[_bin(panel.kind, v, lo, n)] += 1
            share = [c / len(vs) if vs else 0.0 for c in counts]
            ax.bar(
                [i - 0.4 + width * (k + 0.5) for i in range(n)], share, width=width, color=colors[model], label=model
            )
        ax.set_title(panel.label, fontsize=10)
        ax.set_xticks(range(n), labels, fontsize=7)
        ax.set_ylim(0, 1)
        ax.tick_params(axis="y", labelsize=7)
        ax.spines[["top", "right"]].set_visible(False)
    axes[0].set_ylabel("share of captions", fontsize=8)
    for ax in axes[len(panels) :]:
        ax.set_visible(False)
    fig.suptitle(title, fontsize=11)
    fig.legend(
        *axes[0].get_legend_handles_labels(),
        loc="outside lower center",
        ncols=min(len(models), 6),
        fontsize=8,
        frameon=False,
    )
    return _svg(fig, group)


def _svg(fig: Figure, group: str) -> str:
    """The figure as bare SVG markup: no XML prolog, scalable, ids unique to the figure."""
    buf = io.StringIO()
    # Text stays text (smaller, searchable); a fixed salt and no date make the output reproducible.
    with _rc({"svg.fonttype": "none", "svg.hashsalt": f"cece-{group}"}):
        fig.savefig(buf, format="svg", metadata={"Date": None})
    svg = buf.getvalue()
    svg = svg[svg.index("<svg") :]
    svg = re.sub(r"<metadata>.*?</metadata>\s*", "", svg, flags=re.S)  # RDF boilerplate, not drawing
    svg = re.sub(
        r'<svg([^>]*?) width="[^"]*" height="[^"]*"',
        rf'<svg\1 class="figure" role="img" aria-label="{group} distributions"',
        svg,
        count=1,
    )
    # Several figures share one page: keep their clip-path ids apart.
    return re.sub(r'(id="|url\(#|href="#)([A-Za-z_][\w.-]*)', rf"\1{group}-\2", svg)


def _rc(params: dict[str, Any]) -> AbstractContextManager[None]:
    import matplotlib

    # Keys are rcParams names, which matplotlib checks when it applies them.
    return matplotlib.rc_context(params)  # type: ignore[arg-type]  # see above
