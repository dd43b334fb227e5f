"""The `cece` command: explain, detect, report, doctor, calibrate (:mod:`halcece.calibrate`) and bench
(with :mod:`halcece.bench`)."""

from __future__ import annotations

import json
import sys
from collections import deque
from collections.abc import Iterator
from typing import Any

import click

from cece.engine import EngineName
from cece.output import OutputBusy, OutputError
from halcece.engine_options import batch_size_option, engine_of, engine_options
from halcece.inputs import input_options
from halcece.inputs import run_inputs as _inputs
from halcece.inputs import safe_text as _safe
from halcece.runs import finish as _finish
from halcece.runs import open_writer as _open_writer
from halcece.runs import write_row as _write
from halcece.stopping import stop_on_sigterm
from halcece.weights import detector_weights, load_weights, weights_option

EXIT_BAD_INPUT = 2


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="halcece")
def main() -> None:
    """halcece: explain hallucinations in image captions with WordNet-costed graph edits."""
    # A caption may hold lone surrogates (JSON "\ud800"), which no encoding can write: print them
    # escaped rather than die mid-run. (JSONL output escapes them itself.)
    for stream in (sys.stdout, sys.stderr):
        if hasattr(stream, "reconfigure"):
            stream.reconfigure(errors="backslashreplace")
    stop_on_sigterm()


@main.command()
@click.argument("files", nargs=-1, required=True, type=click.Path(allow_dash=True, dir_okay=False))
@click.option(
    "-o",
    "--output",
    type=click.Path(dir_okay=False),
    help="Write explanations as JSONL here (folders created), each as soon as it is made. "
    "Re-running resumes: records whose id is already in the file are skipped, error "
    "rows are retried.",
)
@click.option(
    "-f",
    "--format",
    "fmt",
    type=click.Choice(["table", "json"]),
    default="table",
    show_default=True,
    help="What to print on standard output (with -o, only json is printed).",
)
@click.option("-q", "--quiet", is_flag=True, help="Print nothing on standard output and no progress bar.")
@click.option("--overwrite", is_flag=True, help="Start OUTPUT afresh instead of resuming it.")
@click.option("--keep-errors", is_flag=True, help="On resuming, keep error rows instead of retrying them.")
@batch_size_option(256, "Records explained at a time (with several workers, at most 64: batches spread over them).")
@click.option(
    "--threshold",
    type=click.FloatRange(0.0, 1.0),
    default=None,
    metavar="T",
    help="Confidence at which an edit, and so a caption, is called hallucinated "
    "[default: the confidence model's own, fitted with it; see the README, 'Choosing the threshold'].",
)
@weights_option()
@click.option(
    "--debug", is_flag=True, help="Put the traceback of a failed record in its error row and on standard error."
)
@input_options
@engine_options
def explain(
    files: tuple[str, ...],
    *,
    output: str | None,
    fmt: str,
    quiet: bool,
    overwrite: bool,
    keep_errors: bool,
    batch_size: int,
    threshold: float | None,
    weights: str | None,
    debug: bool,
    annotations: tuple[str, ...],
    model: str | None,
    workers: int | None,
    engine: EngineName,
    address: str | None,
) -> None:
    """Explain the hallucinations in the captions of FILES.

    A FILE holds one JSON record, a JSON list of records, or JSONL (one record per line; gzip is
    read too); `-` reads standard input. A record is {"id", "model", "caption", "annotation" |
    "references" | "image_id"}: the id a string or an integer, unique per model; the annotation a
    Visual Genome scene graph, {"objects": [...], "relationships": [...]}, COCO-style objects, a
    list of labels, or a path to a JSON file of any of these inside FILE's folder. COCO results
    ([{"image_id", "caption"}]) and LLaVA / POPE answer files ({"question_id", "text"}) are read
    as they are; image_id is resolved with --annotations. Several FILES are one model each (named
    by the file's stem unless its records name one).

    Bad records, and records whose explanation fails, are reported as FILE:LINE: FIELD: message on
    standard error and written to OUTPUT as error rows {"id", "error": {"type", "field", "message",
    "file", "line"}}; the others are still explained and written. A summary line (written, errors,
    parse failures, skipped) closes the run; the exit status is 2 when any record failed, 1 when
    OUTPUT cannot be written (e.g. a full disk), 130 when interrupted, 143 on SIGTERM (what was done
    is kept either way).

    Records are explained by --workers processes (or Ray actors with --engine ray), and written
    in input order by this one: the output is byte for byte the same for any number of workers.
    """
    from rich.console import Console
    from tqdm import tqdm

    from cece.api import Explainer
    from cece.engine import EngineError, run_ordered
    from cece.output import Summary
    from cece.pipeline import PARALLEL_BATCH, ExplainTask, Skipped, batches, explain_inputs
    from cece.records import RecordError
    from cece.render import render

    options = engine_of(engine, workers, address)
    explainer = Explainer(batch_size=batch_size, threshold=threshold, weights=load_weights(weights))
    inputs, found = _inputs(files, annotations, model)
    writer = (
        _open_writer(output, _explained_id, inputs=files, overwrite=overwrite, keep_errors=keep_errors)
        if output
        else None
    )
    summary, flagged = Summary(), 0
    tables = not quiet and not writer and fmt == "table"
    task = ExplainTask(explainer, keep=tables, checked=True)
    console = Console(highlight=False)
    in_flight: deque = deque()  # records handed to the engine, not yet answered (in order)

    def todo() -> Iterator[Any]:
        for item in explain_inputs(inputs, writer.done if writer else set(), annotations=found):
            if isinstance(item, Skipped):
                summary.skipped += 1
                continue
            in_flight.append(item)
            yield item.record

    records = todo()
    size = min(batch_size, PARALLEL_BATCH) if options.parallel else batch_size
    bar = tqdm(unit="caption", file=sys.stderr, disable=True if quiet or not writer else None)
    try:
        for done in run_ordered(
            task, batches(records, size), engine=options.engine, workers=options.workers, address=options.address
        ):
            for _, result in done:
                item = in_flight.popleft()
                name, line = item.file, item.line
                bar.update(1)
                if isinstance(result, RecordError):
                    result.file, result.line = name, line
                    summary.errors += 1
                    click.echo(_safe(str(result)), err=True)
                    if debug and result.traceback:
                        click.echo(result.traceback, err=True)
                    _write(writer, result.to_dict(debug), summary)
                    continue
                flagged += result.hallucinated
                _write(writer, result.row, summary, line=line, name=name)
                if quiet or (writer and fmt == "table"):
                    continue
                if fmt == "json":
                    click.echo(
                        result.row.decode().rstrip("\n") if isinstance(result.row, bytes) else json.dumps(result.row)
                    )
                else:
                    render(result.explanation, console)
    except KeyboardInterrupt as exc:
        _finish(summary, output, flagged, interrupted=exc)
    except (OutputBusy, OutputError, EngineError) as exc:
        _finish(summary, output, flagged, failure=str(exc))
    finally:
        bar.close()
        if writer:
            writer.close()
    _finish(summary, output, flagged)


def _explained_id(row: dict) -> tuple[str | None, str] | None:
    """The resume key of an explanation row: its model and id (cece.pipeline.record_key)."""
    from cece.pipeline import record_key

    return None if row.get("id") is None else record_key(row)


@main.command()
@click.option("-q", "--quiet", is_flag=True, help="Only print what is missing.")
def doctor(quiet: bool) -> None:
    """Check the offline resources (WordNet, spaCy model, embedding model) and say how to fix them;
    list the plugins of each registry (detectors, backends, benchmarks: entry-point groups).

    Builds the WordNet index cache on first run. Exits with status 1 when something is missing.
    """
    from cece.doctor import run_checks

    checks = run_checks()
    for c in checks:
        if quiet and c.ok:
            continue
        mark = click.style("ok     ", fg="green") if c.ok else click.style("MISSING", fg="red")
        click.echo(f"{mark} {c.name}: {c.found}")
        if not c.ok:
            click.echo(f"        fix: {c.fix}")
    if not all(c.ok for c in checks):
        sys.exit(1)


@main.command()
@click.argument("samples", nargs=-1, required=True, type=click.Path(allow_dash=True, dir_okay=False))
@click.option(
    "-d",
    "--detector",
    "names",
    multiple=True,
    required=True,
    metavar="NAME",
    help="A detector to run (repeatable); unknown names list the available ones.",
)
@click.option(
    "-o",
    "--output",
    required=True,
    type=click.Path(dir_okay=False),
    help="Detection JSONL (folders created), one line per sample per detector, each written "
    "as soon as it is made. Re-running resumes: (id, detector) pairs already in the file "
    "are skipped, error lines retried.",
)
@click.option(
    "--option",
    "options",
    multiple=True,
    metavar="NAME.KEY=VALUE",
    help="A detector option, e.g. aloha.model_path=/models/minilm (value parsed as JSON when it can be).",
)
@batch_size_option(64, "Samples per detect_batch call.")
@click.option("--overwrite", is_flag=True, help="Start OUTPUT afresh instead of resuming it.")
@click.option("--keep-errors", is_flag=True, help="On resuming, keep error lines instead of retrying them.")
@click.option(
    "--image-root",
    type=click.Path(exists=True, file_okay=False),
    metavar="DIR",
    help="The folder samples' image paths must lie in (resolved: '..', absolute paths and "
    "symlinks leading out are refused)  [default: the (first) SAMPLES file's folder; for -, "
    "the working directory]",
)
@click.option(
    "--allow-image-urls",
    is_flag=True,
    help="Send samples' http(s) image URLs (of PNG/JPEG/GIF/WebP/BMP files) to the model "
    "server, which fetches them; refused by default.",
)
@click.option("-q", "--quiet", is_flag=True, help="No progress bar.")
@weights_option("For -d halcece: a confidence model")
@input_options
@engine_options
def detect(
    samples: tuple[str, ...],
    *,
    names: tuple[str, ...],
    output: str,
    options: tuple[str, ...],
    batch_size: int,
    overwrite: bool,
    keep_errors: bool,
    image_root: str | None,
    allow_image_urls: bool,
    quiet: bool,
    weights: str | None,
    annotations: tuple[str, ...],
    model: str | None,
    workers: int | None,
    engine: EngineName,
    address: str | None,
) -> None:
    """Score the captions of SAMPLES with hallucination detectors.

    SAMPLES is JSONL (or a JSON list; gzip is read too) of {"id", "caption", "references"?,
    "annotation"?, "image"?, "image_id"?}; `-` reads standard input. COCO results and LLaVA / POPE
    answer files are read as they are (see `cece explain --help`); several SAMPLES files are one
    model each, and their lines carry "model". Each output line is a Detection: {"id",
    "detector", "score" (0-1, higher = more likely hallucinated), "spans", "sentences", "error"}.
    An "image" path is read only inside --image-root (default: SAMPLES' folder) and only when it
    is a PNG, JPEG, GIF, WebP or BMP file; an http(s) image URL only with --allow-image-urls.
    A sample lacking what a detector needs, or one a detector fails on, gets an error line; a bad
    sample is reported as FILE:LINE: FIELD: message on standard error and gets an error line per
    detector; the others are still scored. A summary line (written, errors, parse failures,
    skipped) closes the run; the exit status is 2 when any line has an error or a model answer
    could not be parsed, 1 when OUTPUT cannot be written, 130 when interrupted (143 on SIGTERM). Batches are scored
    by --workers processes (or Ray actors), each with its own detectors; lines are written in the
    same order whatever the number of workers.
    """
    from tqdm import tqdm

    from cece.engine import EngineError
    from detectors.configure import confine_images, create_detectors
    from detectors.runner import RunStats, detect_to_file
    from detectors.samples import read_inputs

    where = engine_of(engine, workers, address)
    try:
        detectors = create_detectors(names, detector_weights(names, weights) + options)
    except ValueError as exc:
        raise click.UsageError(str(exc)) from exc
    inputs, found = _inputs(samples, annotations, model)
    base = inputs[0].base
    confine_images(detectors, image_root or base, override=image_root is not None, allow_urls=allow_image_urls)
    stats = RunStats()

    def entries():
        for e in read_inputs(inputs, found):
            if not isinstance(e, dict):
                click.echo(_safe(str(e)), err=True)
            yield e

    try:
        detect_to_file(
            detectors,
            entries(),
            output,
            inputs=[s for s in samples if s != "-"],
            overwrite=overwrite,
            keep_errors=keep_errors,
            batch_size=batch_size,
            stats=stats,
            warn=lambda m: click.echo(_safe(m), err=True),
            progress=lambda total: tqdm(
                total=total, unit="detection", file=sys.stderr, disable=True if quiet else None
            ),
            engine=where,
        )
    except KeyboardInterrupt as exc:
        _finish(stats.summary(), output, interrupted=exc)
    except (OutputBusy, OutputError, EngineError) as exc:
        _finish(stats.summary(), output, failure=str(exc))
    _finish(stats.summary(), output)


@main.group()
def bench() -> None:
    """Benchmarks and speed measurements."""


@bench.command("perf")
@click.option("-n", "--captions", type=int, default=1000, show_default=True, help="Captions to time.")
def bench_perf(captions: int) -> None:
    """Print speed figures as JSON (parser, explain, cold start, GED sizes)."""
    from benchmarks.perf import run

    click.echo(json.dumps(run(captions), indent=2))


def _add_benchmark_commands() -> None:
    """`cece bench run | show | list` live in halcece.bench, `cece chair` in halcece.chair (light imports
    until they run)."""
    from halcece.bench import bench_run_group
    from halcece.chair import chair

    for command in bench_run_group.commands.values():
        bench.add_command(command)
    main.add_command(chair)


_add_benchmark_commands()


def _add_calibrate_and_report_commands() -> None:
    """`cece calibrate` lives in halcece.calibrate, `cece report` in halcece.report."""
    from halcece.calibrate import calibrate
    from halcece.report import report

    main.add_command(calibrate)
    main.add_command(report)


_add_calibrate_and_report_commands()


if __name__ == "__main__":
    main()
