"""``cece report``: per-model edit reports of caption files (the work is in :mod:`cece.report`)."""

from __future__ import annotations

import click

from cece.engine import EngineName
from cece.output import OutputBusy, OutputError
from halcece.engine_options import batch_size_option, engine_of, engine_options
from halcece.inputs import input_options
from halcece.inputs import safe_text as _safe
from halcece.runs import finish as _finish
from halcece.weights import load_weights, weights_option


@click.command()
@click.argument("captions", nargs=-1, required=True, type=click.Path(exists=True, dir_okay=False))
@click.option(
    "-o",
    "--output",
    "outdir",
    required=True,
    type=click.Path(file_okay=False),
    metavar="REPORTDIR",
    help="The report directory (index.html, tables, explanations.jsonl for resuming).",
)
@click.option(
    "--with-linguistic",
    is_flag=True,
    help="Also ROUGE-1/2/L and BLEU against the references, and their correlation with HalCECE.",
)
@click.option("--top", type=int, default=10, show_default=True, help="Frequent edits listed per model and kind.")
@click.option("--overwrite", is_flag=True, help="Explain everything afresh instead of resuming.")
@batch_size_option(256, "Captions explained at a time (with several workers, at most 64).")
@weights_option()
@input_options
@engine_options
def report(
    captions: tuple[str, ...],
    *,
    outdir: str,
    with_linguistic: bool,
    top: int,
    overwrite: bool,
    batch_size: int,
    weights: str | None,
    annotations: tuple[str, ...],
    model: str | None,
    workers: int | None,
    engine: EngineName,
    address: str | None,
) -> None:
    """Per-model edit report of the captions in CAPTIONS (JSONL or JSON lists), with 95 % bootstrap
    intervals per model and paired tests between models on the same images.

    A record is {"id", "model", "caption", "annotation" | "references" | "image_id"}; COCO results
    and LLaVA / POPE answer files are read as they are. Each CAPTIONS file is one model, named by
    its stem unless its records name one. Explanations (and error rows) are written to
    REPORTDIR/explanations.jsonl as they are made, and a re-run skips the (model, id) pairs already
    explained there and retries the errors. Bad records are reported as FILE:LINE: FIELD: message
    on standard error, the others are still reported on. A summary line closes the run; the exit
    status is 2 when any record failed, 1 when the report cannot be written, 130 when interrupted
    (143 on SIGTERM).
    """
    from cece.api import Explainer
    from cece.engine import EngineError
    from cece.output import Summary
    from cece.report import AnnotationsFileError, run_report

    where = engine_of(engine, workers, address)
    errors = []

    def on_error(err) -> None:
        errors.append(err)
        click.echo(_safe(str(err)), err=True)

    try:
        result = run_report(
            list(captions),
            outdir,
            annotations=annotations,
            linguistic=with_linguistic,
            overwrite=overwrite,
            batch_size=batch_size,
            top=top,
            on_error=on_error,
            engine=where,
            model=model,
            explainer=Explainer(batch_size=batch_size, weights=load_weights(weights)),
        )
    except AnnotationsFileError as exc:
        raise click.ClickException(str(exc)) from exc
    except KeyboardInterrupt as exc:
        _finish(Summary(errors=len(errors)), f"to {outdir}", interrupted=exc)
    except (OutputBusy, OutputError, EngineError) as exc:
        _finish(Summary(errors=len(errors)), f"to {outdir}", failure=str(exc))
    if with_linguistic and result.linguistic is None:
        click.echo("warning: no record has references: linguistic metrics skipped", err=True)
    click.echo(f"Report of {result.n_captions} captions from {len(result.models)} models: {result.index}")
    _finish(Summary(written=result.written, errors=len(result.errors), skipped=result.resumed), f"to {outdir}")
