"""``cece bench run | show | list``: the benchmark commands (added to ``cece bench`` by :mod:`halcece.main`).

Heavy imports (detectors, numpy, matplotlib) happen inside the commands, so ``cece --help``
stays fast.
"""

from __future__ import annotations

import sys
from pathlib import Path

import click

from benchmarks.loaders import BENCHMARKS
from cece.engine import EngineName
from halcece.engine_options import batch_size_option, engine_options
from halcece.weights import detector_weights, weights_option


@click.command("run")
@click.argument("benchmark", type=click.Choice(sorted(BENCHMARKS)))
@click.option(
    "--data",
    type=click.Path(dir_okay=False),
    help="The benchmark's data file (see `cece bench list`); without it the run says "
    "which file it expects and where to get it.",
)
@click.option(
    "--images",
    type=click.Path(exists=True, file_okay=False),
    help="Folder of the benchmark's images; image paths may not leave it.",
)
@click.option(
    "-d", "--detector", "names", multiple=True, required=True, metavar="NAME", help="A detector to run (repeatable)."
)
@click.option(
    "-o",
    "--output",
    "rundir",
    required=True,
    type=click.Path(file_okay=False),
    metavar="RUNDIR",
    help="The run directory: predictions/NAME.jsonl (resumable), metrics.json, leaderboard.md, plots.",
)
@click.option(
    "--option",
    "options",
    multiple=True,
    metavar="NAME.KEY=VALUE",
    help="A detector option, e.g. vlm.protocol=detailverify (value parsed as JSON when it can be).",
)
@batch_size_option(64, "Samples per detect_batch call.")
@click.option(
    "--threshold",
    type=float,
    default=0.5,
    show_default=True,
    help="A span counts as a predicted hallucination from this score on.",
)
@click.option("--limit", type=int, help="Only the first N samples (a quick look).")
@click.option("--overwrite", is_flag=True, help="Start RUNDIR afresh instead of resuming it.")
@weights_option("For -d halcece: a confidence model")
@engine_options
def bench_run(
    benchmark: str,
    *,
    data: str | None,
    images: str | None,
    names: tuple[str, ...],
    rundir: str,
    options: tuple[str, ...],
    batch_size: int,
    threshold: float,
    limit: int | None,
    overwrite: bool,
    weights: str | None,
    workers: int | None,
    engine: EngineName,
    address: str | None,
) -> None:
    """Score detectors on BENCHMARK and write a leaderboard.

    Predictions are written as they are made; a killed run resumes where it stopped when run
    again with the same arguments, retrying the samples that got an error. A summary line per
    detector (written, errors, parse failures, skipped; whether a model judge's answers did not
    vary, whose figures the leaderboard then marks "degenerate judge") and the leaderboard
    (markdown) close the run; the exit status is 2 when any prediction has an error or a model
    answer could not be parsed, 1 when the run cannot go ahead, 130 when interrupted (143 on
    SIGTERM). Batches are scored by --workers processes (or Ray actors); the predictions are the
    same whatever the number of workers.
    """
    from tqdm import tqdm

    from benchmarks.loaders import DataError
    from benchmarks.run import RunError, run_benchmark
    from cece.engine import EngineError, EngineOptions
    from cece.output import OutputBusy, OutputError, Summary
    from detectors.configure import confine_images, create_detectors, parse_options

    options = detector_weights(names, weights) + options
    if images:  # the loaders keep image paths inside --images; the model judges read them there
        options = tuple(f"{n}.image_root={images}" for n in names if n in ("vlm", "faithscore")) + options
    try:
        detectors = create_detectors(names, options)
        parsed = parse_options(options, names)
        where = EngineOptions(engine, workers, address)
    except ValueError as exc:
        raise click.UsageError(str(exc)) from exc
    if images:  # ensemble members too
        confine_images(detectors, images, override=True)
    try:
        result = run_benchmark(
            benchmark,
            data,
            rundir,
            detectors=detectors,
            options=parsed,
            images=images,
            batch_size=batch_size,
            threshold=threshold,
            limit=limit,
            overwrite=overwrite,
            warn=lambda m: click.echo(m, err=True),
            progress=lambda total: tqdm(total=total, unit="detection", file=sys.stderr, disable=None),
            engine=where,
        )
    except (DataError, RunError, OutputBusy, OutputError, EngineError) as exc:
        raise click.ClickException(str(exc)) from exc
    except OSError as exc:  # e.g. a full disk while writing predictions
        raise click.ClickException(f"{exc.filename or rundir}: cannot write: {exc.strerror or exc}") from None
    except KeyboardInterrupt as exc:
        from halcece.stopping import interrupted_status

        click.echo(f"interrupted: what was done is in {rundir}/predictions; run again to resume", err=True)
        sys.exit(interrupted_status(exc))
    total = Summary()
    for name, stats in result.stats.items():
        s = stats.summary()
        judge = (result.metrics.get("detectors", {}).get(name) or {}).get("judge")
        if judge and not s.warnings:  # a resumed run: the predictions as a whole did not vary
            s.warnings.append(f"{name}: the judge's {judge} -- its figures say nothing about the captions")
        click.echo(f"{name}: {s.line()}", err=True)
        total.errors += s.errors
        total.parse_failures += s.parse_failures
    if images and result.missing_images:
        click.echo(f"warning: {result.missing_images} samples have no image under {images}", err=True)
    click.echo((Path(rundir) / "leaderboard.md").read_text(encoding="utf-8"))
    if total.exit_code:
        sys.exit(total.exit_code)


@click.command("show")
@click.argument("rundirs", nargs=-1, required=True, type=click.Path(exists=True, file_okay=False))
@click.option(
    "-f",
    "--format",
    "fmt_name",
    type=click.Choice(["table", "markdown", "csv", "json"]),
    default="table",
    show_default=True,
)
@click.option("-o", "--output", type=click.Path(dir_okay=False, writable=True), help="Write here instead of printing.")
def bench_show(rundirs: tuple[str, ...], fmt_name: str, output: str | None) -> None:
    """Merge the leaderboards of finished runs (RUNDIR ...) into one table per benchmark."""
    from benchmarks.leaderboard import columns, fmt, grouped, merge_runs, render

    try:
        rows = merge_runs(rundirs)
    except ValueError as exc:
        raise click.ClickException(str(exc)) from exc
    if fmt_name != "table" or output:
        text = render(rows, "markdown" if fmt_name == "table" else fmt_name)
        if output:
            Path(output).write_text(text, encoding="utf-8")
        else:
            click.echo(text, nl=False)
        return
    from rich.console import Console
    from rich.table import Table

    console = Console(highlight=False)
    for bench, group in grouped(rows).items():
        cols = columns(group)
        table = Table(title=bench, title_justify="left")
        width = sum(max(len(c), 6) + 3 for c in cols) + sum(
            max(len(str(r[k])) for r in group) + 3 for k in ("detector", "run")
        )
        if width <= console.width:
            for c in ("detector", "run", *cols):
                table.add_column(c, justify="left" if c in ("detector", "run") else "right")
            for r in group:
                table.add_row(r["detector"], r["run"], *(fmt(r.get(c)) for c in cols))
        else:  # too wide for the terminal: one row per metric, one column per detector and run
            table.add_column("metric")
            for r in group:
                table.add_column(f"{r['detector']}\n{r['run']}", justify="right")
            for c in cols:
                table.add_row(c, *(fmt(r.get(c)) for r in group))
        console.print(table)


@click.command("list")
def bench_list() -> None:
    """Name the benchmarks and what each needs."""
    for b in BENCHMARKS.values():
        click.echo(
            f"{b.name}\n  --data    {b.data}\n  --images  {b.images}\n"
            f"  scores    {b.unit}\n  samples   carry {b.provides}\n"
        )


bench_run_group = click.Group(
    "bench",
    commands=[bench_run, bench_show, bench_list],
    help="Benchmarks: run detectors, merge leaderboards, list benchmarks.",
)
