"""Build a report directory from explanations, or from a captions file end to end.

``build_report`` only reads finished :class:`cece.Explanation` objects, so any caller that has
explanations (the CLI, a notebook) gets the same tables, figures and page. ``run_report`` is what
``cece report`` does: read and check the records, explain them resumably, then build.

Files written to the report directory::

    index.html                                 the self-contained page
    tables.md, tables.json                     the three tables (+ linguistic ones)
    objects.csv, object_edits.csv, roles.csv   one row per model
    frequent_edits.md, frequent_edits.json     the most frequent edits with example caption ids
    linguistic.csv, correlations.csv           with linguistic metrics only
    explanations.jsonl                         every explanation (run_report; resumable)
"""

from __future__ import annotations

import csv
import io
import json
import tempfile
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from cece.explanation import Explanation
from cece.records import RecordError
from cece.report import frequent as freq_mod
from cece.report import tables as tables_mod
from cece.report.captions import caption_item
from cece.report.figures import GROUPS, PALETTE, distribution_svg, model_colors
from cece.report.html import PageData, write_page
from cece.report.intervals import Row, interval_tables
from cece.report.linguistic import LinguisticReport, linguistic_report

if TYPE_CHECKING:  # both bring the parser in: imported where a report runs
    from cece.api import Explainer
    from cece.engine import EngineOptions
    from cece.report.inputs import ReportItem


@dataclass
class Report:
    """What was built: the numbers and where they were written."""

    outdir: Path
    models: list[tables_mod.ModelMetrics]
    tables: list[tables_mod.Table]
    frequent: dict[str, dict[str, list[freq_mod.FrequentEdit]]]
    linguistic: LinguisticReport | None
    n_captions: int
    files: list[Path] = field(default_factory=list)
    errors: list[RecordError] = field(default_factory=list)
    resumed: int = 0  # explanations already in explanations.jsonl (not redone)
    written: int = 0  # rows this run wrote there (explanations and error rows)

    @property
    def index(self) -> Path:
        return self.outdir / "index.html"


def build_report(
    explanations: Iterable[Explanation],
    outdir: str | Path,
    *,
    references: Sequence[list[str] | None] | Mapping[tuple[str, str], list[str] | None] | None = None,
    linguistic: bool = False,
    title: str = "HalCECE report",
    top: int = 10,
    errors: int = 0,
) -> Report:
    """Write every report file for ``explanations`` into ``outdir`` and return the numbers.

    ``references[i]`` (reference captions or None) goes with the i-th explanation -- or
    ``references[(model, id)]`` when it is a mapping -- and is used only with ``linguistic=True``.
    ``errors`` is the number of unusable records, shown on the page.

    The explanations are read once, as they come: each is reduced to its numbers
    (:class:`cece.report.tables.CaptionRow`), its edits are counted and its caption's HTML is
    spooled to a temporary file, so memory does not grow with their edits and graphs.

    >>> from cece import Explainer                                    # doctest: +SKIP
    >>> ex = Explainer().explain_many([{"id": "1", "model": "m", "caption": "A dog.",
    ...                                 "annotation": ["cat"]}])      # doctest: +SKIP
    >>> build_report(ex, "out/r").index                               # doctest: +SKIP
    PosixPath('out/r/index.html')
    """
    out = Path(outdir)
    out.mkdir(parents=True, exist_ok=True)
    rows: list[tables_mod.CaptionRow] = []
    refs: list[list[str] | None] = []
    counter = freq_mod.EditCounter()
    colors: dict[str, str] = {}  # the palette in order of first appearance, as model_colors gives it
    with tempfile.TemporaryFile("w+", encoding="utf-8", dir=out) as items:
        for n, e in enumerate(explanations):
            row = tables_mod.CaptionRow.of(e)
            rows.append(row)
            if linguistic and references is not None:
                refs.append(
                    references.get((row.model, str(e.id))) if isinstance(references, Mapping) else references[n]
                )
            counter.add(n, row.model, e.edits)
            color = colors.setdefault(row.model, PALETTE[len(colors) % len(PALETTE)])
            items.write(("\n" if n else "") + caption_item(n, e, color))
        models = tables_mod.model_metrics(rows)
        names = [m.model for m in models]
        colors = model_colors(names)
        tables = tables_mod.all_tables(models) + interval_tables(
            [
                Row(r.model, str(r.id), float(r.objects.hal_rate), float(r.chair[0] > 0), float(r.hallucinated))
                for r in rows
            ]
        )
        frequent = counter.top(top)
        ling = linguistic_report(rows, refs) if linguistic and references is not None else None
        figures = {g: distribution_svg(rows, g, names, colors=colors) for g in GROUPS} if rows else {}
        report = Report(out, models, tables, frequent, ling, len(rows))

        def write(name: str, text: str) -> None:
            (out / name).write_text(text, encoding="utf-8")
            report.files.append(out / name)

        md = [f"# {title}", ""] + [f"## {t.title}\n\n{tables_mod.to_markdown(t)}\n\n{t.note}\n" for t in tables]
        for t in tables:
            write(f"{t.name}.csv", tables_mod.to_csv(t))
        data = tables_mod.to_json(models, tables)
        if ling:
            md.append(_linguistic_markdown(ling))
            write("linguistic.csv", _csv([asdict(m) for m in ling.models]))
            write("correlations.csv", _csv([asdict(c) for c in ling.correlations]))
            data["linguistic"] = {
                "models": [asdict(m) for m in ling.models],
                "correlations": [asdict(c) for c in ling.correlations],
            }
        write("tables.md", "\n".join(md))
        write("tables.json", json.dumps(data, indent=2))
        write("frequent_edits.md", freq_mod.to_markdown(frequent))
        write("frequent_edits.json", json.dumps(freq_mod.to_json(frequent), indent=2))
        items.seek(0)
        page = PageData(
            title,
            rows,
            names,
            colors,
            tables,
            figures,
            frequent,
            ling,
            errors,
            items=iter(lambda: items.read(1 << 16), ""),
        )
        with (out / "index.html").open("w", encoding="utf-8") as f:
            write_page(page, f)
        report.files.append(out / "index.html")
    return report


def _csv(rows: list[dict[str, Any]]) -> str:
    buf = io.StringIO()
    if rows:
        w = csv.DictWriter(buf, fieldnames=list(rows[0]), lineterminator="\n")
        w.writeheader()
        w.writerows(rows)
    return buf.getvalue()


def _linguistic_markdown(ling: LinguisticReport) -> str:
    def f(x: float | None) -> str:
        return "-" if x is None else f"{x:.3f}"

    lines = [
        "## Linguistic metrics",
        "",
        "| Model | Captions | ROUGE-1 | ROUGE-2 | ROUGE-L | BLEU |",
        "| --- | --- | --- | --- | --- | --- |",
    ]
    lines += [
        f"| {m.model} | {m.n_captions} | {f(m.rouge1)} | {f(m.rouge2)} | {f(m.rougeL)} | {f(m.bleu)} |"
        for m in ling.models
    ]
    lines += [
        "",
        "## Correlations (Pearson r / Spearman rho, across captions)",
        "",
        "| HalCECE metric | linguistic | n | Pearson r | Spearman rho |",
        "| --- | --- | --- | --- | --- |",
    ]
    lines += [
        f"| {c.halcece} | {c.linguistic} | {c.n} | {f(c.pearson_r)} | {f(c.spearman_rho)} |" for c in ling.correlations
    ]
    return "\n".join(lines) + "\n"


def run_report(
    captions: str | Path | Sequence[str | Path],
    outdir: str | Path,
    *,
    annotations: Sequence[str | Path] = (),
    linguistic: bool = False,
    overwrite: bool = False,
    batch_size: int = 256,
    top: int = 10,
    on_error: Callable[[RecordError], None] | None = None,
    progress: bool | None = None,
    explainer: Explainer | None = None,
    title: str | None = None,
    engine: EngineOptions | None = None,
    model: str | None = None,
) -> Report:
    """``cece report``: read, check, explain resumably into ``outdir/explanations.jsonl``, build.

    ``captions`` is one captions file or several (one model each, named by its stem unless its
    records name one; ``model`` names the records that name none instead).
    Bad records are passed to ``on_error`` as they are found (``FILE:LINE: FIELD: message``) and
    listed in ``Report.errors``; the others are reported on. Raises
    :class:`cece.report.inputs.AnnotationsFileError` for an unreadable captions or annotations file.
    ``engine`` (:class:`cece.engine.EngineOptions`) says where captions are explained.
    """
    from cece.annotation_sets import AnnotationSet
    from cece.api import Explainer
    from cece.inputs import wanted_images
    from cece.report.inputs import iter_items, open_captions
    from cece.report.run import EXPLANATIONS, explain_items

    inputs = open_captions(captions, model)  # opened now: an unreadable file is refused before any output
    found = AnnotationSet.load([str(p) for p in annotations], wanted_images(inputs)) if annotations else None
    errors: list[RecordError] = []
    refs: dict[tuple[str, str], list[str] | None] = {}
    names = ", ".join(Path(f.path).name for f in inputs)
    entries = iter_items(inputs, found)

    def good_items() -> Iterator[ReportItem]:
        """The usable records as they are read; the others reported at once."""
        for entry in entries:
            if isinstance(entry, RecordError):
                errors.append(entry)
                if on_error:
                    on_error(entry)
                continue
            if linguistic and entry.references:
                refs[entry.key] = entry.references
            yield entry

    items = good_items()
    explainer = explainer or Explainer(batch_size=batch_size)
    exps, failed, stats = explain_items(
        items,
        Path(outdir) / EXPLANATIONS,
        explainer,
        source=[f.path for f in inputs],
        overwrite=overwrite,
        on_error=on_error,
        progress=progress,
        engine=engine,
    )
    report = build_report(
        exps,
        outdir,
        references=refs,
        linguistic=linguistic,
        top=top,
        title=title or f"HalCECE report: {names}",
        errors=len(errors) + len(failed),
    )
    report.errors = errors + failed
    report.resumed, report.written = stats.resumed, stats.explained + stats.failed
    report.files.append(Path(outdir) / EXPLANATIONS)
    return report
