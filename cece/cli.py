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


def _done_ids(path: Path) -> set[str]:
    """Ids already written to a JSONL output; a truncated last line is dropped so it is redone."""
    done: set[str] = set()
    if not path.exists():
        return done
    good = 0
    with path.open("rb") as f:
        for raw in f:
            try:
                rec = json.loads(raw)
            except json.JSONDecodeError:
                break
            good += len(raw)
            if isinstance(rec, dict) and rec.get("id") is not None:
                done.add(str(rec["id"]))
    with path.open("r+b") as f:  # cut a half-written line left by a killed run
        f.truncate(good)
    return done


@main.command()
@click.argument("file", type=click.Path(allow_dash=True, dir_okay=False))
@click.option("-o", "--output", type=click.Path(dir_okay=False, writable=True),
              help="Write explanations as JSONL here, as they are made. Re-running resumes: "
                   "records whose id is already in the file are skipped.")
@click.option("-f", "--format", "fmt", type=click.Choice(["table", "json"]), default="table",
              show_default=True, help="What to print on standard output.")
@click.option("-q", "--quiet", is_flag=True, help="Print nothing on standard output (use with -o).")
@click.option("--overwrite", is_flag=True, help="Start OUTPUT afresh instead of resuming it.")
@click.option("--batch-size", type=int, default=256, show_default=True, help="Captions parsed at a time.")
def explain(file: str, output: str | None, fmt: str, quiet: bool, overwrite: bool, batch_size: int) -> None:
    """Explain the hallucinations in the captions of FILE.

    FILE holds one JSON record, a JSON list of records, or JSONL (one record per line); `-` reads
    standard input. A record is {"id", "model", "caption", "annotation" | "references"}: the
    annotation may be a Visual Genome scene graph, {"objects": [...], "relationships": [...]},
    COCO-style objects, a list of labels, or a path to a JSON file of any of these (relative to
    FILE's folder).

    Bad records are reported as FILE:LINE: FIELD: message on standard error; the others are still
    explained and written, and the exit status is 2.
    """
    from rich.console import Console
    from tqdm import tqdm

    from cece.api import Explainer
    from cece.records import RecordError, read_records, resolve_paths
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
    done = set() if (out_path is None or overwrite) else _done_ids(out_path)
    records, lines, failures = [], [], 0
    for line, rec in entries:
        if isinstance(rec, RecordError):
            click.echo(str(rec), err=True)
            failures += 1
        elif not (isinstance(rec, dict) and rec.get("id") is not None and str(rec["id"]) in done):
            records.append(resolve_paths(rec, base) if isinstance(rec, dict) else rec)
            lines.append(line)

    console = Console(highlight=False)
    sink = out_path.open("w" if overwrite or not done else "a", encoding="utf-8") if out_path else None
    bar = tqdm(total=len(records), unit="caption", disable=None if sink and quiet else True, file=sys.stderr)
    try:
        for result in Explainer(batch_size=batch_size).explain_many(records):
            bar.update(1)
            if isinstance(result, RecordError):
                result.file, result.line = name, lines[result.index]
                click.echo(str(result), err=True)
                failures += 1
                continue
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
    if failures:
        sys.exit(EXIT_BAD_INPUT)


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


@main.group()
def bench() -> None:
    """Benchmarks and speed measurements."""


@bench.command("perf")
@click.option("-n", "--captions", type=int, default=1000, show_default=True, help="Captions to time.")
def bench_perf(captions: int) -> None:
    """Print speed figures as JSON (parser, explain, cold start, GED sizes)."""
    from benchmarks.perf import run

    click.echo(json.dumps(run(captions), indent=2))


if __name__ == "__main__":
    main()
