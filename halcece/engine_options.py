"""The ``--workers``, ``--engine``, ``--address`` and ``--batch-size`` options of the commands that
work through records, and the :class:`cece.engine.EngineOptions` they make."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import click

from cece.engine import ENGINES, EngineName, EngineOptions


def engine_options(command: Callable[..., Any]) -> Callable[..., Any]:
    """The ``--workers``, ``--engine`` and ``--address`` options shared by the commands that work
    through records; the command gets them as ``workers``, ``engine``, ``address`` (make them
    :func:`engine_of`)."""
    command = click.option(
        "--address",
        metavar="ADDR",
        default=None,
        help="With --engine ray: the Ray cluster to join ('auto': the one this machine is part of; "
        "default: start a local Ray).",
    )(command)
    command = click.option(
        "--engine",
        type=click.Choice(sorted(ENGINES)),
        default="local",
        show_default=True,
        help="Where batches run: local processes, or Ray actors (pip install 'halcece[ray]').",
    )(command)
    return click.option(
        "-w",
        "--workers",
        type=click.IntRange(min=1),
        default=None,
        metavar="N",
        help="Worker processes (or Ray actors), each loading the models once and using its share of "
        "the cores; this process is one of them and works while the others load (1: this process "
        "alone, on one core). A lost worker is replaced and its batches run again; the output is "
        "the same for any N. "
        "[default: the usable cores; with --engine ray, the cluster's CPUs]",
    )(command)


def batch_size_option(default: int, help: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """The ``--batch-size`` option (a positive integer; ``help`` says what one batch is)."""
    return click.option("--batch-size", type=click.IntRange(min=1), default=default, show_default=True, help=help)


def engine_of(engine: EngineName, workers: int | None, address: str | None) -> EngineOptions:
    """The EngineOptions of a command, or a usage error (e.g. --address without --engine ray)."""
    try:
        return EngineOptions(engine, workers, address)
    except ValueError as exc:
        raise click.UsageError(str(exc)) from None
