"""Leaderboards: a run's ``leaderboard.md`` and plots, and several runs merged into one table.

Every row says how its figures came about: ``errors`` (samples without a valid prediction) and
``parse failures`` (model answers that could not be read), ``judge`` = "degenerate judge" for a
model judge whose answers did not vary over the run (with a line saying how), and on DetailVerifyBench ``dropped``
(samples left out, as the benchmark's pipeline leaves failed answers out). A detector with no
valid prediction shows ``n/a`` in every figure, never a number computed from its failures; an
en dash is a figure that does not apply (verdict columns of a detector that gives no verdicts).

>>> markdown_table(["detector", "AP"], [["lexical", 0.51234], ["aloha", None], ["vlm", NA]])
'| detector | AP |\\n| --- | --- |\\n| lexical | 0.512 |\\n| aloha | – |\\n| vlm | n/a |'
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

KEY_COLUMNS = ("benchmark", "run", "detector")
NA = "n/a"  # the cell of a detector with no valid prediction
CALIBRATED = ("hat", "foil", "alignbench")  # a score per caption / sentence: ECE and reliability diagram
DEGENERATE = "degenerate judge"  # the mark of a model judge whose answers did not vary


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


def scored(m: Mapping[str, Any]) -> bool:
    """Whether a detector's ``metrics.json`` entry has any valid prediction behind its figures
    (entries written before ``valid`` was recorded count as scored)."""
    return m.get("valid", 1) != 0


def summary_rows(metrics: Mapping[str, Any], run: str = "") -> list[dict[str, Any]]:
    """One row per detector of a run's ``metrics.json``: benchmark, run, detector, the summary
    columns (``n/a`` without a valid prediction), ``errors``, ``parse failures`` and, on
    DetailVerifyBench, ``dropped``."""
    rows = []
    for name, m in metrics["detectors"].items():
        ok = scored(m)
        row = {
            "benchmark": metrics["benchmark"],
            "run": run,
            "detector": name,
            **{k: v if ok else NA for k, v in m["summary"].items()},
            "errors": m.get("errors", m["details"].get("errors")),
            "parse failures": m.get("parse_failures"),
        }
        if metrics["benchmark"] == "detailverify":
            row["dropped"] = m.get("dropped")
        if m.get("judge"):  # figures of a judge that did not look at its input
            row["judge"] = DEGENERATE
        rows.append(row)
    return rows


def judge_note(dets: Mapping[str, Any]) -> list[str]:
    """A line for each detector whose judge's answers did not vary: its figures are marked.

    >>> judge_note({"vlm": {"judge": "answers do not vary: 30 of 30 were 100"}, "lexical": {}})
    ['degenerate judge: `vlm` -- answers do not vary: 30 of 30 were 100; its figures say nothing about the captions.']
    """
    return [
        f"{DEGENERATE}: `{name}` -- {m['judge']}; its figures say nothing about the captions."
        for name, m in dets.items()
        if m.get("judge")
    ]


def status_note(dets: Mapping[str, Any]) -> list[str]:
    """A line for each detector with no valid prediction: why its cells are n/a.

    >>> status_note({"vlm": {"valid": 0, "errors": 24, "parse_failures": 24}, "lexical": {"valid": 24}})
    ['n/a: `vlm` has no valid prediction to score (24 errors, 24 parse failures; the error rows are in predictions/).']
    """
    return [
        f"n/a: `{name}` has no valid prediction to score ({m.get('errors')} errors, "
        f"{m.get('parse_failures')} parse failures; the error rows are in predictions/)."
        for name, m in dets.items()
        if not scored(m)
    ]


# -- one run ---------------------------------------------------------------------------------
def _foil_section(dets: Mapping[str, Any]) -> list[str]:
    keys = [
        "AP",
        "AUROC",
        "ECE",
        "LA",
        "word P",
        "word R",
        "word F1",
        "span P",
        "gold-word R",
        "verdict P",
        "verdict R",
        "flagged clean",
        "bal acc",
        "pair acc",
    ]
    rows = [
        [name, dom, r["n"], *(r.get(k) for k in keys)]
        for name, m in dets.items()
        for dom, r in m["details"].get("by_domain", {}).items()
    ]
    header = ["detector", "domain", "captions", *keys]
    return ["## By domain", "", markdown_table(header, rows)]


def _alignbench_section(dets: Mapping[str, Any]) -> list[str]:
    names = list(dets)
    captioners = sorted({c for m in dets.values() for c in m["details"]["auroc_by_captioner"]})
    per = {n: dets[n]["details"]["auroc_by_captioner"] for n in names}
    out = [
        "## AUROC per captioner",
        "",
        markdown_table(["captioner", *names], [[c, *(per[n].get(c) for n in names)] for c in captioners]),
    ]
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
    out += [
        "",
        "## Mean score of incorrect sentences by error type",
        "",
        markdown_table(
            ["error type", *names], [[t, *(by_type[n].get(t, {}).get("mean") for n in names)] for t in types]
        ),
    ]
    return out


def _dvb_section(dets: Mapping[str, Any]) -> list[str]:
    out: list[str] = []
    splits = list(dict.fromkeys(k for m in dets.values() for k in m["details"]))
    for split in splits:
        rows, types, halves = [], dict[str, Any](), []
        names = [n for n, m in dets.items() if (m["details"].get(split) or {}).get("official")]
        for name in names:
            part = dets[name]["details"][split]
            for mode in ("official", "aligned"):
                r = part[mode]
                rows.append(
                    [
                        name,
                        mode,
                        r["n"],
                        part.get("dropped"),
                        *r["token"].values(),
                        *r["sentence"].values(),
                        r["response"]["f1"],
                    ]
                )
                for t, v in r["types"].items():
                    types.setdefault(t, {})[f"{name} {mode}"] = v["recall"]
            half = part["official"].get("split_half")
            if half:
                halves.append(
                    [
                        name,
                        *(
                            half[h][k]
                            for h in ("first_half", "second_half")
                            for k in ("precision", "recall", "f1", "iou", "avg_gt_hal_count", "avg_test_hal_count")
                        ),
                        part["official"].get("no_hallucination_expanded"),
                    ]
                )
        cols = [f"{n} {mode}" for n in names for mode in ("official", "aligned")]
        header = [
            "detector",
            "mode",
            "scored",
            "dropped",
            "tok P",
            "tok R",
            "tok F1",
            "tok IoU",
            "sent P",
            "sent R",
            "sent F1",
            "resp F1",
        ]
        out += [
            f"## {split}",
            "",
            markdown_table(header, rows),
            "",
            "Recall by hallucination type:",
            "",
            markdown_table(["type", *cols], [[t, *(v.get(c) for c in cols)] for t, v in sorted(types.items())]),
            "",
        ]
        if halves:
            half_cols = [f"{h} {k}" for h in ("1st", "2nd") for k in ("P", "R", "F1", "IoU", "gold hal", "pred hal")]
            out += [
                "Official split-half figures (tokens before / after the middle of each caption; "
                "hal = hallucinated tokens per caption) and answers read as NO HALLUCINATION:",
                "",
                markdown_table(["detector", *half_cols, "NO HALLUCINATION"], halves),
                "",
            ]
    return out


def write_run_outputs(rundir: Path, metrics: Mapping[str, Any], evaluations: Mapping[str, Any]) -> None:
    """``leaderboard.md`` and the plots of one run."""
    rundir = Path(rundir)
    rows = summary_rows(metrics)
    cols = columns(rows)
    dets = metrics["detectors"]
    md = [
        f"# {metrics['benchmark']} leaderboard",
        "",
        f"Data: `{metrics['data']}`, {metrics['n_samples']} samples; a span counts as predicted "
        f"when its score is at least {metrics['threshold']}"
        + (
            " (for span P and gold-word R, at least its detection's own threshold when it gives one); "
            "verdict columns are – for a detector that gives no verdicts."
            if metrics["benchmark"] in ("hat", "foil")
            else "."
        ),
        "",
        markdown_table(["detector", *cols], [[r["detector"], *(r.get(c) for c in cols)] for r in rows]),
        "",
    ]
    md += [*status_note(dets), ""] if status_note(dets) else []
    md += [*judge_note(dets), ""] if judge_note(dets) else []
    valid = {n: m for n, m in dets.items() if scored(m)}  # the sections hold figures only
    if valid:
        section = {"foil": _foil_section, "alignbench": _alignbench_section, "detailverify": _dvb_section}.get(
            metrics["benchmark"]
        )
        md += (section(valid) + [""]) if section else []
    for png, title in plot_run(rundir, metrics["benchmark"], evaluations):
        md += [f"![{title}]({png})", ""]
    (rundir / "leaderboard.md").write_text("\n".join(md).rstrip() + "\n", encoding="utf-8")


def plot_run(rundir: Path, benchmark: str, evaluations: Mapping[str, Any]) -> list[tuple[str, str]]:
    """Precision-recall curves per detector, the reliability diagram of their scores (HAT,
    nocaps-FOIL, AlignBench) and AlignBench's mean score by sentence position; returns
    ``(file name, title)`` of each plot written."""
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
        ax.set(
            xlabel="recall",
            ylabel="precision",
            xlim=(0, 1.02),
            ylim=(0, 1.02),
            title=f"{benchmark}: {unit}-level precision-recall",
        )
        ax.legend(loc="lower left", fontsize=8)
        _save(fig, rundir / "pr_curves.png")
        written.append(("pr_curves.png", "precision-recall curves"))
        if benchmark in CALIBRATED:
            written.append(plot_reliability(rundir, benchmark, unit, curves))
    positions = {n: e.extra["positions"] for n, e in evaluations.items() if e.extra.get("positions")}
    if positions:
        fig, ax = plt.subplots(figsize=(5.5, 4.5))
        for k, (name, table) in enumerate(positions.items()):
            for label, style, marker in (("correct", "-", "o"), ("incorrect", "--", "x")):
                pts = sorted((p, v[label]["mean"]) for p, v in table.items() if label in v)
                if pts:
                    ax.plot(
                        [p for p, _ in pts],
                        [m for _, m in pts],
                        style,
                        marker=marker,
                        color=f"C{k}",
                        label=f"{name} {label}",
                    )
        # The default locator is a MaxNLocator, which takes ``integer``; Locator's type does not.
        ax.xaxis.get_major_locator().set_params(integer=True)  # type: ignore[call-arg]  # see above
        ax.set(
            xlabel="sentence position (0 = first)",
            ylabel="mean hallucination score",
            title="AlignBench: mean score by sentence position",
        )
        ax.legend(fontsize=8)
        _save(fig, rundir / "score_by_position.png")
        written.append(("score_by_position.png", "mean score by sentence position"))
    return written


def _save(fig: Any, path: Path) -> None:
    import matplotlib.pyplot as plt

    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


def plot_reliability(
    rundir: Path, benchmark: str, unit: str, curves: Mapping[str, tuple[list[int], list[float]]]
) -> tuple[str, str]:
    """``reliability.png``: per detector, the share of hallucinated items against the mean score
    in each of 10 equal-width score bins (scikit-learn's ``calibration_curve``; the ECE of
    :func:`benchmarks.metrics.expected_calibration_error` in the legend). A perfectly calibrated
    score lies on the diagonal; points below it are scores too high for what they flag."""
    import matplotlib.pyplot as plt
    import numpy as np
    from sklearn.calibration import calibration_curve

    from benchmarks.evaluate import calibration_error

    fig, ax = plt.subplots(figsize=(5.5, 4.5))
    ax.plot([0, 1], [0, 1], ":", color="grey", label="perfectly calibrated")
    for name, (y, given) in curves.items():
        s = np.asarray(given, dtype=float)
        if not len(s) or not np.all((s >= 0) & (s <= 1)):
            continue  # not probabilities: no diagram (its ECE is n/a too)
        frac, mean = calibration_curve(y, s, n_bins=10, strategy="uniform")
        ax.plot(mean, frac, marker="o", label=f"{name} (ECE {calibration_error(y, list(s)):.3f})")
    ax.set(
        xlabel="mean score in bin",
        ylabel="share hallucinated",
        xlim=(0, 1),
        ylim=(0, 1.02),
        title=f"{benchmark}: {unit}-level reliability (10 bins)",
    )
    ax.legend(loc="upper left", fontsize=8)
    _save(fig, rundir / "reliability.png")
    return "reliability.png", "reliability diagram"


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
