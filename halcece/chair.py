"""`cece chair`: CHAIR per model over COCO results files, written in CHAIR's own JSON shape."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click


@click.command("chair")
@click.argument("results", nargs=-1, required=True, type=click.Path(exists=True, dir_okay=False, allow_dash=True))
@click.option(
    "--annotations",
    multiple=True,
    type=click.Path(exists=True, dir_okay=False),
    metavar="FILE",
    help="Ground truth by image_id (repeatable): COCO instances and/or COCO captions (both, as "
    "the published CHAIR uses them), or any other --annotations file of `cece explain`.",
)
@click.option("--model", metavar="NAME", help="The model of records that name none  [default: each file's stem]")
@click.option(
    "-o",
    "--output",
    type=click.Path(dir_okay=False),
    metavar="FILE",
    help="Write CHAIR's JSON here (overall_metrics, sentences); with several models, one file "
    "per model: FILE's name with .MODEL before its suffix.",
)
def chair(results: tuple[str, ...], *, annotations: tuple[str, ...], model: str | None, output: str | None) -> None:
    """CHAIRs and CHAIRi (Rohrbach et al., 2018) of the captions in RESULTS, per model.

    RESULTS are COCO results files ([{"image_id", "caption"}], one per model, named by the file's
    stem), LLaVA / POPE answer files, or this project's records. Each image's ground truth is the
    categories of its COCO instances plus those its reference captions mention, or whichever is
    given -- as `chair.py --cap_file RESULTS --coco_path COCO` computes it. A record that cannot be
    scored (an image id in no annotation file...) is reported as FILE:LINE: FIELD: message and
    left out; the exit status is then 2.
    """
    from detectors.chair_eval import ChairEvaluation
    from detectors.samples import read_inputs
    from halcece.inputs import run_inputs, safe_text

    inputs, found = run_inputs(results, annotations, model, every=True)
    evals: dict[str, ChairEvaluation] = {}
    failed = 0
    for rec in read_inputs(inputs, found):
        name = str(rec.model if not isinstance(rec, dict) else rec.get("model"))
        ev = evals.setdefault(name, ChairEvaluation(name))
        if not isinstance(rec, dict):
            failed += 1
            click.echo(safe_text(str(rec)), err=True)
            ev.errors.append(rec.to_dict())
            continue
        try:
            ev.add(rec)
        except ValueError as exc:
            failed += 1
            click.echo(safe_text(f"{rec['id']}: {exc}"), err=True)
            ev.errors.append({"id": rec["id"], "model": name, "error": str(exc)})
    click.echo(f"{'model':<24} {'captions':>8} {'mentions':>8} {'CHAIRs':>7} {'CHAIRi':>7}")
    for name, ev in evals.items():
        click.echo(
            f"{name:<24} {len(ev.sentences):>8} {ev.mentions:>8} {100 * ev.chair_s:>7.1f} {100 * ev.chair_i:>7.1f}"
        )
    if output:
        out = Path(output)
        out.parent.mkdir(parents=True, exist_ok=True)
        for name, ev in evals.items():
            path = out if len(evals) == 1 else out.with_name(f"{out.stem}.{name}{out.suffix}")
            path.write_text(json.dumps(ev.output(), indent=2), encoding="utf-8")
            click.echo(f"wrote {path}", err=True)
    if failed:
        click.echo(f"{failed} records could not be scored", err=True)
        sys.exit(2)
