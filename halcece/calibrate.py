"""``cece calibrate``: refit the confidence model on a user's own labelled captions."""

from __future__ import annotations

import sys

import click

from halcece.engine_options import batch_size_option


@click.command("calibrate")
@click.argument("labelled", nargs=-1, required=True, type=click.Path(exists=True, dir_okay=False))
@click.option(
    "-o",
    "--output",
    required=True,
    type=click.Path(dir_okay=False),
    metavar="WEIGHTS.json",
    help="Where to write the fitted model (use it with --weights).",
)
@batch_size_option(256, "Captions explained at a time.")
@click.option("-q", "--quiet", is_flag=True, help="No progress bar.")
def calibrate(labelled: tuple[str, ...], *, output: str, batch_size: int, quiet: bool) -> None:
    """Fit the confidences of edits and captions on LABELLED captions; write WEIGHTS.json.

    LABELLED files are HAT JSON (captions with word labels in `grounding` and their
    `references`), nocaps-FOIL JSON (a clean and a foiled caption per record), or what
    `python -m benchmarks.generate` makes from reference sets (HAT's shape). Each caption is
    explained against its references; each claim becomes a training row labelled wrong when its
    words overlap a labelled word; a logistic regression is fitted on those, and another on the
    captions' labels (README, 'Choosing the threshold'). Prints the cross-validated figures and
    the strongest features; `cece explain --weights WEIGHTS.json` (and detect, report, bench run)
    then use the model.
    """
    from tqdm import tqdm

    from benchmarks.calibrate import calibrate as fit_files
    from benchmarks.calibrate import describe
    from benchmarks.loaders import DataError
    from cece.api import Explainer

    bar = tqdm(unit="caption", file=sys.stderr, disable=True if quiet else None)
    try:
        model = fit_files(labelled, Explainer(batch_size=batch_size, counterfactuals=False), progress=bar.update)
    except (DataError, ValueError) as exc:
        raise click.ClickException(str(exc)) from exc
    finally:
        bar.close()
    try:
        model.save(output)
    except OSError as exc:
        raise click.ClickException(f"{output}: cannot write: {exc.strerror or exc}") from None
    click.echo(describe(model))
    click.echo(f"written: {output}")
