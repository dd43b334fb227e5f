"""The `cece` command line. This module is the only one that may import every package."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

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


@main.command()
@click.argument("file", type=click.Path(allow_dash=True, dir_okay=False))
@click.option("-o", "--output", type=click.Path(dir_okay=False, writable=True),
              help="Write explanations as JSONL here, as they are made. Re-running resumes: "
                   "records whose id is already in the file are skipped.")
@click.option("-f", "--format", "fmt", type=click.Choice(["table", "json"]), default="table",
              show_default=True, help="What to print on standard output.")
@click.option("-q", "--quiet", is_flag=True, help="Print nothing on standard output (use with -o).")
@click.option("--overwrite", is_flag=True, help="Start OUTPUT afresh instead of resuming it.")
@click.option("--batch-size", type=click.IntRange(min=1), default=256, show_default=True,
              help="Captions parsed at a time.")
@click.option("--threshold", type=click.FloatRange(0.0, 1.0), default=None, metavar="T",
              help="Confidence at which an edit, and so a caption, is called hallucinated "
                   "[default: 0.25, chosen on dev data: see the README, 'Choosing the threshold'].")
@click.option("--debug", is_flag=True, help="Put the traceback of a failed record in its error row and on standard error.")
def explain(file: str, output: str | None, fmt: str, quiet: bool, overwrite: bool, batch_size: int,
            threshold: float | None, debug: bool) -> None:
    """Explain the hallucinations in the captions of FILE.

    FILE holds one JSON record, a JSON list of records, or JSONL (one record per line); `-` reads
    standard input. A record is {"id", "model", "caption", "annotation" | "references"}: the
    annotation may be a Visual Genome scene graph, {"objects": [...], "relationships": [...]},
    COCO-style objects, a list of labels, or a path to a JSON file of any of these (relative to
    FILE's folder).

    Bad records, and records whose explanation fails, are reported as FILE:LINE: FIELD: message on
    standard error and written to OUTPUT as error rows {"id", "error": {"type", "field", "message",
    "file", "line"}}; the others are still explained and written. A summary line closes the run;
    the exit status is 2 when any record failed. A re-run retries the error rows.
    """
    from rich.console import Console
    from tqdm import tqdm

    from cece.api import Explainer
    from cece.judge import DEFAULT_THRESHOLD
    from cece.records import RecordError, done_keys, read_records, resolve_paths
    from cece.render import render

    name = "<stdin>" if file == "-" else file
    base = Path.cwd() if file == "-" else Path(file).resolve().parent
    try:
        stream = sys.stdin if file == "-" else open(file, encoding="utf-8")
    except OSError as exc:
        raise click.ClickException(f"{name}: cannot read: {exc.strerror}") from exc
    with stream:
        entries = list(read_records(stream, name))

    out_path = Path(output) if output else None
    done = set() if (out_path is None or overwrite) else done_keys(out_path, _explained_id)
    records, lines, failures, skipped, flagged, written = [], [], [], 0, 0, 0
    for line, rec in entries:
        if isinstance(rec, RecordError):
            failures.append(rec)
        elif isinstance(rec, dict) and rec.get("id") is not None and str(rec["id"]) in done:
            skipped += 1
        else:
            records.append(resolve_paths(rec, base) if isinstance(rec, dict) else rec)
            lines.append(line)

    console = Console(highlight=False)
    sink = out_path.open("w" if overwrite or not done else "a", encoding="utf-8") if out_path else None

    def write(row: dict) -> None:
        if sink:
            sink.write(json.dumps(row) + "\n")
            sink.flush()

    for err in failures:
        click.echo(str(err), err=True)
        write(err.to_dict())
    explainer = Explainer(batch_size=batch_size, threshold=DEFAULT_THRESHOLD if threshold is None else threshold)
    bar = tqdm(total=len(records), unit="caption", disable=None if sink and quiet else True, file=sys.stderr)
    try:
        for result in explainer.explain_many(records):
            bar.update(1)
            if isinstance(result, RecordError):
                result.file, result.line = name, lines[result.index]
                click.echo(str(result), err=True)
                if debug and result.traceback:
                    click.echo(result.traceback, err=True)
                write(result.to_dict(debug))
                failures.append(result)
                continue
            written += 1
            flagged += result.hallucinated
            data = result.to_dict()
            if sink:
                sink.write(json.dumps(data) + "\n")
                sink.flush()
            if quiet:
                continue
            if fmt == "json":
                click.echo(json.dumps(data))
            else:
                render(result, console)
    finally:
        bar.close()
        if sink:
            sink.close()
    where = f" to {output}" if output else ""
    click.echo(f"{written} explained{where} ({flagged} hallucinated), {len(failures)} failed, "
               f"{skipped} already there", err=True)
    if failures:
        sys.exit(EXIT_BAD_INPUT)


def _explained_id(row: dict) -> str | None:
    """The id of an explanation row of an output file; None for an error row, so it is retried."""
    return None if row.get("id") is None or "error" in row else str(row["id"])


@main.command()
@click.option("-q", "--quiet", is_flag=True, help="Only print what is missing.")
def doctor(quiet: bool) -> None:
    """Check the offline resources (WordNet, spaCy model, embedding model) and say how to fix them.

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
@click.argument("samples", type=click.Path(allow_dash=True, dir_okay=False))
@click.option("-d", "--detector", "names", multiple=True, required=True, metavar="NAME",
              help="A detector to run (repeatable); unknown names list the available ones.")
@click.option("-o", "--output", required=True, type=click.Path(dir_okay=False, writable=True),
              help="Detection JSONL, one line per sample per detector, written as made. Re-running "
                   "resumes: (id, detector) pairs already in the file are skipped.")
@click.option("--option", "options", multiple=True, metavar="NAME.KEY=VALUE",
              help="A detector option, e.g. aloha.model_path=/models/minilm (value parsed as JSON when it can be).")
@click.option("--batch-size", type=int, default=64, show_default=True, help="Samples per detect_batch call.")
@click.option("--overwrite", is_flag=True, help="Start OUTPUT afresh instead of resuming it.")
def detect(samples: str, names: tuple[str, ...], output: str, options: tuple[str, ...], batch_size: int,
           overwrite: bool) -> None:
    """Score the captions of SAMPLES with hallucination detectors.

    SAMPLES is JSONL (or a JSON list) of {"id", "caption", "references"?, "annotation"?, "image"?};
    `-` reads standard input. Each output line is a Detection: {"id", "detector", "score" (0-1,
    higher = more likely hallucinated), "spans", "sentences", "error"}. A sample lacking what a
    detector needs gets an error line. Bad samples are reported as FILE:LINE: FIELD: message on
    standard error, the others are still scored, and the exit status is 2.
    """
    from tqdm import tqdm

    from detectors.runner import create_detectors, done_pairs, pending, read_samples, run_detectors

    try:
        detectors = create_detectors(names, options)
    except ValueError as exc:
        raise click.UsageError(str(exc)) from exc
    names = tuple(detectors)
    name = "<stdin>" if samples == "-" else samples
    try:
        stream = sys.stdin if samples == "-" else open(samples, encoding="utf-8")
    except OSError as exc:
        raise click.ClickException(f"{name}: cannot read: {exc.strerror}") from exc
    with stream:
        base = Path.cwd() if samples == "-" else Path(samples).resolve().parent
        entries = list(read_samples(stream, name, base))
    good = [e for e in entries if isinstance(e, dict)]
    for e in entries:
        if not isinstance(e, dict):
            click.echo(str(e), err=True)
    out_path = Path(output)
    done = set() if overwrite else done_pairs(out_path)
    bar = tqdm(total=pending(good, names, done), unit="detection", file=sys.stderr, disable=None)
    with out_path.open("w" if overwrite else "a", encoding="utf-8") as sink:
        try:
            stats = run_detectors(detectors, good, sink, done, batch_size, bar)
        finally:
            bar.close()
    click.echo(f"{stats.written} detections written to {output} ({stats.failed} with an error, "
               f"{stats.skipped} already there)", err=True)
    if len(good) < len(entries):
        sys.exit(EXIT_BAD_INPUT)


@main.command()
@click.argument("captions", type=click.Path(exists=True, dir_okay=False))
@click.option("--annotations", multiple=True, type=click.Path(exists=True, dir_okay=False),
              help="Resolves records' image_id: a Visual Genome scene-graph list, COCO instances, or "
                   "{image id: [reference captions]} (repeatable: e.g. scene graphs and references).")
@click.option("-o", "--output", "outdir", required=True, type=click.Path(file_okay=False), metavar="REPORTDIR",
              help="The report directory (index.html, tables, explanations.jsonl for resuming).")
@click.option("--with-linguistic", is_flag=True,
              help="Also ROUGE-1/2/L and BLEU against the references, and their correlation with HalCECE.")
@click.option("--top", type=int, default=10, show_default=True, help="Frequent edits listed per model and kind.")
@click.option("--overwrite", is_flag=True, help="Explain everything afresh instead of resuming.")
@click.option("--batch-size", type=int, default=256, show_default=True, help="Captions parsed at a time.")
def report(captions: str, annotations: tuple[str, ...], outdir: str, with_linguistic: bool, top: int,
           overwrite: bool, batch_size: int) -> None:
    """Per-model edit report of the captions in CAPTIONS (JSONL or a JSON list).

    A record is {"id", "model", "caption", "annotation" | "references" | "image_id"}. Explanations
    are written to REPORTDIR/explanations.jsonl as they are made, and a re-run skips the (model, id)
    pairs already there. Bad records are reported as FILE:LINE: FIELD: message on standard error,
    the others are still reported on, and the exit status is 2.
    """
    from cece.report import AnnotationsFileError, run_report

    try:
        result = run_report(captions, outdir, annotations=annotations, linguistic=with_linguistic,
                            overwrite=overwrite, batch_size=batch_size, top=top,
                            on_error=lambda err: click.echo(str(err), err=True))
    except AnnotationsFileError as exc:
        raise click.ClickException(str(exc)) from exc
    if with_linguistic and result.linguistic is None:
        click.echo("warning: no record has references: linguistic metrics skipped", err=True)
    click.echo(f"Report of {result.n_captions} captions from {len(result.models)} models: {result.index}")
    if result.errors:
        sys.exit(EXIT_BAD_INPUT)


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
    """`cece bench run | show | list` live in benchmarks.cli (light imports until they run)."""
    from benchmarks.cli import bench_run_group

    for command in bench_run_group.commands.values():
        bench.add_command(command)


_add_benchmark_commands()


if __name__ == "__main__":
    main()
