"""Leaderboards: a run's ``leaderboard.md`` and plots, and several runs merged into one table.

>>> markdown_table(["detector", "AP"], [["lexical", 0.51234], ["aloha", None]])
'| detector | AP |\\n| --- | --- |\\n| lexical | 0.512 |\\n| aloha | – |'
"""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path
from typing import Any, Iterable, Mapping, Sequence

KEY_COLUMNS = ("benchmark", "run", "detector")


def fmt(value: Any) -> str:
    """3 decimals for floats, an en dash for a missing value (NaN is stored as null)."""
    if value is None:
        return "–"
    if isinstance(value, float):
        return f"{value:.3f}"
    return str(value)


def markdown_table(header: Sequence[str], rows: Iterable[Sequence[Any]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "| " + " | ".join("---" for _ in header) + " |"]
    lines += ["| " + " | ".join(fmt(v) for v in row) + " |" for row in rows]
    return "\n".join(lines)


def columns(rows: Iterable[Mapping[str, Any]], skip: Sequence[str] = KEY_COLUMNS) -> list[str]:
    cols: dict[str, None] = {}
    for r in rows:
        cols.update((k, None) for k in r if k not in skip)
    return list(cols)


def summary_rows(metrics: Mapping[str, Any], run: str = "") -> list[dict[str, Any]]:
    """One row per detector of a run's ``metrics.json``: benchmark, run, detector, the summary
    columns and the number of samples it failed on."""
    return [{"benchmark": metrics["benchmark"], "run": run, "detector": name, **m["summary"],
             "errors": m["details"].get("errors")} for name, m in metrics["detectors"].items()]


# -- one run ---------------------------------------------------------------------------------
def _foil_section(dets: Mapping[str, Any]) -> list[str]:
    keys = ["AP", "AUROC", "LA", "word P", "word R", "word F1", "span P", "gold-word R",
            "verdict P", "verdict R", "flagged clean", "bal acc", "pair acc"]
    rows = [[name, dom, r["n"], *(r.get(k) for k in keys)]
            for name, m in dets.items() for dom, r in m["details"].get("by_domain", {}).items()]
    header = ["detector", "domain", "captions", *keys]
    return ["## By domain", "", markdown_table(header, rows)]


def _alignbench_section(dets: Mapping[str, Any]) -> list[str]:
    names = list(dets)
    captioners = sorted({c for m in dets.values() for c in m["details"]["auroc_by_captioner"]})
    per = {n: dets[n]["details"]["auroc_by_captioner"] for n in names}
    out = ["## AUROC per captioner", "",
           markdown_table(["captioner", *names], [[c, *(per[n].get(c) for n in names)] for c in captioners])]
    positions = sorted({int(p) for m in dets.values() for p in m["details"]["mean_score_by_position"]})
    header = ["position"] + [f"{n} {lab}" for n in names for lab in ("correct", "incorrect")]
    rows = []
    for p in positions:
        row: list[Any] = [p]
        for n in names:
            cell = dets[n]["details"]["mean_score_by_position"].get(str(p), {})
            row += [cell.get(lab, {}).get("mean") for lab in ("correct", "incorrect")]
        rows.append(row)
    out += ["", "## Mean score by sentence position (0 = first)", "", markdown_table(header, rows)]
    types = sorted({t for m in dets.values() for t in m["details"]["mean_score_by_error_type"]})
    by_type = {n: dets[n]["details"]["mean_score_by_error_type"] for n in names}
    out += ["", "## Mean score of incorrect sentences by error type", "",
            markdown_table(["error type", *names], [[t, *(by_type[n].get(t, {}).get("mean") for n in names)]
                                                    for t in types])]
    return out


def _dvb_section(dets: Mapping[str, Any]) -> list[str]:
    out: list[str] = []
    splits = [k for k in next(iter(dets.values()))["details"] if k != "errors"]
    for split in splits:
        rows, types = [], {}
        for name, m in dets.items():
            for mode in ("official", "aligned"):
                r = m["details"][split][mode]
                rows.append([name, mode, *r["token"].values(), *r["sentence"].values(), r["response"]["f1"]])
                for t, v in r["types"].items():
                    types.setdefault(t, {})[f"{name} {mode}"] = v["recall"]
        cols = [f"{n} {mode}" for n in dets for mode in ("official", "aligned")]
        header = ["detector", "mode", "tok P", "tok R", "tok F1", "tok IoU", "sent P", "sent R", "sent F1", "resp F1"]
        out += [f"## {split}", "", markdown_table(header, rows),
            "", "Recall by hallucination type:", "",
            markdown_table(["type", *cols], [[t, *(v.get(c) for c in cols)] for t, v in sorted(types.items())]), ""]
    return out


def write_run_outputs(rundir: Path, metrics: Mapping[str, Any], evaluations: Mapping[str, Any]) -> None:
    """``leaderboard.md`` and the plots of one run."""
    rundir = Path(rundir)
    rows = summary_rows(metrics)
    cols = columns(rows)
    dets = metrics["detectors"]
    md = [f"# {metrics['benchmark']} leaderboard", "",
          f"Data: `{metrics['data']}`, {metrics['n_samples']} samples; a span counts as predicted "
          f"when its score is at least {metrics['threshold']}"
          + (" (for span P and gold-word R, at least its detection's own threshold when it gives one); "
             "verdict columns are – for a detector that gives no verdicts."
             if metrics["benchmark"] in ("hat", "foil") else "."), "",
          markdown_table(["detector", *cols], [[r["detector"], *(r.get(c) for c in cols)] for r in rows]), ""]
    if dets:
        section = {"foil": _foil_section, "alignbench": _alignbench_section,
                   "detailverify": _dvb_section}.get(metrics["benchmark"])
        md += (section(dets) + [""]) if section else []
    for png, title in plot_run(rundir, metrics["benchmark"], evaluations):
        md += [f"![{title}]({png})", ""]
    (rundir / "leaderboard.md").write_text("\n".join(md).rstrip() + "\n", encoding="utf-8")


def plot_run(rundir: Path, benchmark: str, evaluations: Mapping[str, Any]) -> list[tuple[str, str]]:
    """Precision-recall curves per detector (and AlignBench's mean score by sentence position);
    returns ``(file name, title)`` of each plot written."""
    import matplotlib

    matplotlib.use("Agg")  # files only, never a display
    import matplotlib.pyplot as plt

    from benchmarks.caption_metrics import precision_recall_curve
    from benchmarks.metrics import average_precision

    written = []
    curves = {n: e.curve for n, e in evaluations.items() if e.curve and any(e.curve[0])}
    if curves:
        unit = {"alignbench": "sentence", "detailverify": "token"}.get(benchmark, "caption")
        fig, ax = plt.subplots(figsize=(5.5, 4.5))
        for name, (y, s) in curves.items():
            p, r, _ = precision_recall_curve(y, s)
            # P_k holds on (R_{k-1}, R_k]: the area under these steps is the AP in the legend.
            ax.step([0.0, *r], [p[0], *p], where="pre", label=f"{name} (AP {average_precision(y, s):.3f})")
        ax.set(xlabel="recall", ylabel="precision", xlim=(0, 1.02), ylim=(0, 1.02),
               title=f"{benchmark}: {unit}-level precision-recall")
        ax.legend(loc="lower left", fontsize=8)
        fig.tight_layout()
        fig.savefig(rundir / "pr_curves.png", dpi=120)
        plt.close(fig)
        written.append(("pr_curves.png", "precision-recall curves"))
    positions = {n: e.extra["positions"] for n, e in evaluations.items() if e.extra.get("positions")}
    if positions:
        fig, ax = plt.subplots(figsize=(5.5, 4.5))
        for k, (name, table) in enumerate(positions.items()):
            for label, style, marker in (("correct", "-", "o"), ("incorrect", "--", "x")):
                pts = sorted((p, v[label]["mean"]) for p, v in table.items() if label in v)
                if pts:
                    ax.plot([p for p, _ in pts], [m for _, m in pts], style, marker=marker, color=f"C{k}",
                            label=f"{name} {label}")
        ax.xaxis.get_major_locator().set_params(integer=True)
        ax.set(xlabel="sentence position (0 = first)", ylabel="mean hallucination score",
               title="AlignBench: mean score by sentence position")
        ax.legend(fontsize=8)
        fig.tight_layout()
        fig.savefig(rundir / "score_by_position.png", dpi=120)
        plt.close(fig)
        written.append(("score_by_position.png", "mean score by sentence position"))
    return written


# -- several runs ----------------------------------------------------------------------------
def merge_runs(rundirs: Iterable[str | Path]) -> list[dict[str, Any]]:
    """The summary rows of every run's ``metrics.json`` (run = the directory's name)."""
    rows = []
    for d in rundirs:
        path = Path(d) / "metrics.json"
        try:
            metrics = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, json.JSONDecodeError) as exc:
            raise ValueError(f"{path}: not a finished run ({exc})") from None
        rows += summary_rows(metrics, Path(d).resolve().name)
    return rows


def render(rows: Sequence[Mapping[str, Any]], fmt_name: str) -> str:
    """Rows as ``markdown`` (one table per benchmark), ``csv`` or ``json``."""
    if fmt_name == "json":
        return json.dumps(list(rows), indent=2, ensure_ascii=False)
    if fmt_name == "csv":
        buf = io.StringIO()
        writer = csv.DictWriter(buf, fieldnames=[*KEY_COLUMNS, *columns(rows)], lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)
        return buf.getvalue()
    out = []
    for bench, group in grouped(rows).items():
        cols = columns(group)
        table = [[r["detector"], r["run"], *(r.get(c) for c in cols)] for r in group]
        out += [f"## {bench}", "", markdown_table(["detector", "run", *cols], table), ""]
    return "\n".join(out).rstrip() + "\n"


def grouped(rows: Sequence[Mapping[str, Any]]) -> dict[str, list[Mapping[str, Any]]]:
    out: dict[str, list[Mapping[str, Any]]] = {}
    for r in rows:
        out.setdefault(r["benchmark"], []).append(r)
    return out
