"""Writing a command's rows as they are made, and closing the run with its summary line and exit
status (explain, detect, report)."""

from __future__ import annotations

import sys

import click

from cece.output import OutputError
from halcece.inputs import safe_text as _safe
from halcece.stopping import Terminated, interrupted_status


def open_writer(output: str, key, *, inputs, overwrite: bool, keep_errors: bool, ascii: bool = True):
    """The locked, resumed output (cece.output.JsonlWriter); a refusal is a one-line error, exit 1."""
    from cece.output import JsonlWriter, OutputBusy

    inputs = [inputs] if isinstance(inputs, str) else list(inputs)
    writer = JsonlWriter(
        output,
        key=key,
        inputs=[i for i in inputs if i != "-"],
        overwrite=overwrite,
        keep_errors=keep_errors,
        warn=lambda m: click.echo(_safe(m), err=True),
        ascii=ascii,
    )
    try:
        return writer.open()
    except (OutputBusy, OutputError) as exc:
        raise click.ClickException(str(exc)) from None


def write_row(writer, row: dict | bytes, summary, *, line: int | None = None, name: str | None = None) -> None:
    """Count one row and write it (with -o; ``row`` may be its encoded line, see
    ``JsonlWriter.write``); a row that is not JSON (NaN...) becomes its error row."""
    if writer is None:
        summary.written += 1
        return
    try:
        writer.write(row)
    except (ValueError, TypeError, RecursionError) as exc:
        summary.errors += 1
        error = {
            "type": type(exc).__name__,
            "field": "output",
            "message": f"not JSON: {exc}",
            "file": name,
            "line": line,
        }
        click.echo(_safe(f"{name}:{line}: output: not JSON: {exc}"), err=True)
        writer.write({"id": row.get("id") if isinstance(row, dict) else None, "error": error})
    summary.written += 1


def finish(
    summary,
    output: str | None,
    flagged: int | None = None,
    *,
    interrupted: BaseException | bool = False,
    failure: str | None = None,
) -> None:
    """The summary line on standard error, then the exit status: 130 interrupted (143 by SIGTERM),
    1 when the output failed, 2 when any record failed or a model answer could not be parsed, else 0."""
    if flagged is not None:
        summary.note = f"({flagged} hallucinated)"
    if failure:
        click.echo(f"error: {_safe(failure)}", err=True)
    where = output if output is None or output.startswith("to ") else f"to {output}"
    stopped = "terminated: " if isinstance(interrupted, Terminated) else "interrupted: "
    click.echo((stopped if interrupted else "") + summary.line(where or ""), err=True)
    code = interrupted_status(interrupted) if interrupted else 1 if failure else summary.exit_code
    if code:
        sys.exit(code)
