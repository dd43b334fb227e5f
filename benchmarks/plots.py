"""The plots of one benchmark run (:func:`benchmarks.leaderboard.write_run_outputs` puts them
in ``leaderboard.md``): precision-recall curves, the reliability diagram and AlignBench's mean
score by sentence position. matplotlib draws to files only (the Agg backend), never a display.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

#: The benchmarks with a score per caption / sentence: they get an ECE and a reliability diagram.
CALIBRATED = ("hat", "foil", "alignbench")


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
            written.append(plot_reliability(rundir, benchmark, unit=unit, curves=curves))
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
    rundir: Path, benchmark: str, *, unit: str, curves: Mapping[str, tuple[list[int], list[float]]]
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
