"""``index.html``: one self-contained page -- tables, figures, frequent edits, linguistic scores and the
caption list -- with inline CSS, JavaScript and SVG, so it opens offline and can be mailed as one file.

>>> "<table" in table_html(Table("t", "T", ["Model"], [["m"]], ["model"], [{"model": "m"}]))
True
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from html import escape
from typing import TextIO

from cece.explanation import Explanation
from cece.report.assets import CSS, JS
from cece.report.captions import CAPTIONS_CLOSE, CAPTIONS_OPEN, CLASS_NAMES, caption_filters, caption_item
from cece.report.figures import GROUPS
from cece.report.frequent import KINDS, FrequentEdit
from cece.report.linguistic import HALCECE, LINGUISTIC, LinguisticReport
from cece.report.tables import Captioned, Table


@dataclass
class PageData:
    """Everything the page shows, already computed. ``explanations`` may be
    :class:`cece.report.tables.CaptionRow` s (id, model, caption) when ``items`` is given: the
    caption list's ``<li>`` elements in the same order, one per line, in pieces of any size
    (e.g. read from a file)."""

    title: str
    explanations: Sequence[Captioned]
    models: list[str]
    colors: dict[str, str]
    tables: list[Table]
    figures: dict[str, str]  # group -> inline SVG
    frequent: dict[str, dict[str, list[FrequentEdit]]]
    linguistic: LinguisticReport | None = None
    errors: int = 0
    items: Iterable[str] | None = None


def table_html(t: Table) -> str:
    head = "".join(f"<th>{escape(h)}</th>" for h in t.headers)
    body = "".join("<tr>" + "".join(f"<td>{escape(c)}</td>" for c in row) + "</tr>" for row in t.rows)
    return f'<table class="metrics" id="table-{t.name}"><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>'


def _badge(model: str, colors: dict[str, str]) -> str:
    return f'<span class="badge" style="--c:{colors.get(model, "#555")}">{escape(model)}</span>'


def _frequent_html(d: PageData) -> str:
    ids = [str(e.id) for e in d.explanations]
    cards = []
    for model, kinds in d.frequent.items():
        blocks = []
        for kind, (title, _) in KINDS.items():
            items = kinds.get(kind) or []
            if not items:
                blocks.append(f"<h4>{escape(title)}</h4><p class='ex'>none</p>")
                continue
            lis = "".join(
                f'<li class="k-{f.cls}"><span class="lbl">{escape(f.label.replace(" -> ", " → "))}</span> '
                f'<span class="n">× {f.count}</span> '
                + " ".join(
                    f'<a href="#c{n}" title="{escape(d.explanations[n].caption)}">{escape(ids[n])}</a>'
                    for n in f.examples
                )
                + "</li>"
                for f in items
            )
            blocks.append(f"<h4>{escape(title)}</h4><ol>{lis}</ol>")
        cards.append(f"<section>{_badge(model, d.colors)}{''.join(blocks)}</section>")
    return f'<div class="freq" id="frequent-edits">{"".join(cards)}</div>'


def _num(x: float | None, digits: int = 3) -> str:
    return "-" if x is None else f"{x:.{digits}f}"


def _linguistic_html(ling: LinguisticReport) -> str:
    head = "".join(
        f"<th>{h}</th>" for h in ("Model", "Captions", "ROUGE-1", "ROUGE-2", "ROUGE-L", "BLEU", "BLEU (mean sentence)")
    )
    rows = "".join(
        f"<tr><td>{escape(m.model)}</td><td>{m.n_captions}</td><td>{_num(m.rouge1)}</td>"
        f"<td>{_num(m.rouge2)}</td><td>{_num(m.rougeL)}</td><td>{_num(m.bleu)}</td>"
        f"<td>{_num(m.bleu_sentence)}</td></tr>"
        for m in ling.models
    )
    by = {(c.halcece, c.linguistic): c for c in ling.correlations}
    chead = "".join(f"<th>{x}</th>" for x in ("HalCECE metric",) + LINGUISTIC)
    crows = "".join(
        f"<tr><td>{escape(label)}</td>"
        + "".join(
            f'<td title="n={by[(label, k)].n}, Pearson p={_num(by[(label, k)].pearson_p, 3)}, '
            f'Spearman p={_num(by[(label, k)].spearman_p, 3)}">{_num(by[(label, k)].pearson_r, 2)} / '
            f"{_num(by[(label, k)].spearman_rho, 2)}</td>"
            for k in LINGUISTIC
        )
        + "</tr>"
        for label, _, _ in HALCECE
    )
    return (
        f'<table class="metrics" id="table-linguistic"><thead><tr>{head}</tr></thead><tbody>{rows}</tbody></table>'
        '<p class="note">ROUGE F-measures (best reference, rouge-score); BLEU-4 (NLTK, smoothed).</p>'
        f'<h3>Correlation with HalCECE across captions</h3><table class="metrics" id="table-correlations">'
        f"<thead><tr>{chead}</tr></thead><tbody>{crows}</tbody></table>"
        '<p class="note">Pearson r / Spearman ρ over all captions with references (hover for n and p).</p>'
    )


def render_page(d: PageData) -> str:
    """The whole page as one string."""
    return "".join(page_parts(d))


def write_page(d: PageData, out: TextIO) -> None:
    """The page written piece by piece (the caption list as it comes), never held whole."""
    for part in page_parts(d):
        out.write(part)


def page_parts(d: PageData) -> Iterator[str]:
    """The page in pieces: head and tables, then each caption, then the end."""
    legend = "".join(f'<span class="k-{k}"><b>{k}</b> {v}</span>' for k, v in CLASS_NAMES.items())
    legend += '<span><mark class="e-unverified">dotted</mark> unverified: the image side is silent</span>'
    tables = "".join(f"<h3>{escape(t.title)}</h3>{table_html(t)}<p class='note'>{escape(t.note)}</p>" for t in d.tables)
    figures = "".join(d.figures[g] for g in GROUPS if g in d.figures)
    nav = [("tables", "Tables"), ("distributions", "Distributions"), ("frequent", "Frequent edits")]
    ling = ""
    if d.linguistic:
        nav.append(("linguistic", "Linguistic"))
        ling = f'<h2 id="linguistic">Linguistic metrics</h2>{_linguistic_html(d.linguistic)}'
    nav.append(("captions", "Captions"))
    errors = f" · {d.errors} records could not be used" if d.errors else ""
    yield f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>{escape(d.title)}</title><style>{CSS}</style></head>
<body>
<header><h1>{escape(d.title)}</h1><p>{len(d.explanations)} captions from {len(d.models)} models:
{" ".join(_badge(m, d.colors) for m in d.models)}{errors}</p></header>
<nav>{"".join(f'<a href="#{a}">{t}</a>' for a, t in nav)}</nav>
<main>
<h2 id="tables">HalCECE metrics per model</h2>
<p class="legend">{legend}</p>
{tables}
<h2 id="distributions">Distributions across captions</h2>
{figures}
<h2 id="frequent">Most frequent edits</h2>
{_frequent_html(d)}
{ling}
<h2 id="captions">Captions</h2>
<p class="note">Hover a highlighted word for its edit. Filled: object edits; dashed underline: role (triple) edits.</p>
{caption_filters(d.models)}{CAPTIONS_OPEN}
"""
    if d.items is not None:
        yield from d.items
    else:
        for n, e in enumerate(d.explanations):
            if not isinstance(e, Explanation):  # a CaptionRow has no edits to mark
                raise TypeError("PageData: captions given as CaptionRows need their list items in `items`")
            yield ("\n" if n else "") + caption_item(n, e, d.colors.get(str(e.model), "#555"))
    yield f"""
{CAPTIONS_CLOSE}
</main>
<script>{JS}</script>
</body></html>
"""
