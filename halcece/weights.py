"""``--weights WEIGHTS.json``: a fitted confidence model (``cece calibrate``) for explain, detect,
report and bench run."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import click


def weights_option(help_prefix: str = "A confidence model") -> Callable[[Any], Any]:
    """The ``--weights`` click option."""
    return click.option(
        "--weights",
        type=click.Path(exists=True, dir_okay=False),
        metavar="WEIGHTS.json",
        help=f"{help_prefix} written by `cece calibrate` [default: the one shipped, fitted as the README's "
        "'Choosing the threshold' says].",
    )


def load_weights(weights: str | None):
    """The confidence model of ``--weights`` (None: the shipped one), or a usage error naming the file."""
    if weights is None:
        return None
    from cece.confidence import load_model

    try:
        return load_model(weights)
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="--weights") from exc


def detector_weights(names: tuple[str, ...], weights: str | None) -> tuple[str, ...]:
    """``--weights FILE`` as the halcece detector's ``--option`` (the file checked now, so a bad one
    is refused before any output)."""
    if weights is None:
        return ()
    if "halcece" not in names:
        raise click.UsageError("--weights is the halcece detector's confidence model: add -d halcece")
    load_weights(weights)
    return (f"halcece.weights={json.dumps(str(Path(weights).resolve()))}",)
