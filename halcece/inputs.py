"""What several commands share: their input files and annotation set, and text safe to print."""

from __future__ import annotations

import click


def input_options(command):
    """``--annotations FILE`` (repeatable) and ``--model NAME``: the files users already have."""
    command = click.option(
        "--model",
        metavar="NAME",
        help="The model of records that name none  [default: with several files or COCO results / "
        "LLaVA answers, each file's stem]",
    )(command)
    return click.option(
        "--annotations",
        multiple=True,
        type=click.Path(exists=True, dir_okay=False),
        metavar="FILE",
        help="Resolve records' image_id (repeatable): COCO captions or instances, nocaps captions, Visual "
        "Genome scene_graphs.json (or objects.json / relationships.json / attributes.json), or "
        "{image id: [reference captions]}. Read once as a stream, keeping only the images asked for.",
    )(command)


def run_inputs(paths: tuple[str, ...], annotations: tuple[str, ...], model: str | None, *, every: bool = False):
    """(the input files, the annotation set) of a command; an unreadable or unknown file is a
    one-line error naming it (exit 1)."""
    from cece.annotation_sets import AnnotationSet, AnnotationsFileError
    from cece.inputs import open_inputs, wanted_images

    if paths.count("-") > 1:
        raise click.UsageError("standard input (-) can be given once")
    try:
        inputs = open_inputs(paths, model=model, every=every, spool_stdin=bool(annotations))
    except OSError as exc:
        raise click.ClickException(f"{exc.filename}: cannot read: {exc.strerror}") from None
    try:
        found = AnnotationSet.load(annotations, wanted_images(inputs)) if annotations else AnnotationSet()
    except AnnotationsFileError as exc:
        raise click.ClickException(str(exc)) from None
    return inputs, found


def safe_text(text: str) -> str:
    """Text for the terminal: lone surrogates escaped (no encoding can write them)."""
    return text.encode("utf-8", "backslashreplace").decode("utf-8")
