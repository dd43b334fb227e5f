"""Leaderboards: a run's ``leaderboard.md`` (its plots are drawn by :mod:`benchmarks.plots`), and
several runs merged into one table.

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

from benchmarks.plots import plot_run

KEY_COLUMNS = ("benchmark", "run", "detector")
NA = "n/a"  # the cell of a detector with no valid prediction
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
