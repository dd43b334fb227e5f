"""Detectors made ready for a run: created from names and ``NAME.key=value`` options, their image
paths confined to a root, and their model answers kept beside the output (what ``cece detect``
and ``cece bench run`` do before :mod:`detectors.runner` scores anything).
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from detectors.base import Detector


def parse_options(items: Iterable[str], names: Iterable[str]) -> dict[str, dict[str, Any]]:
    """``NAME.key=value`` strings -> ``{name: {key: value}}``; values are JSON when they parse
    (numbers, true/false, lists), else plain strings.

    >>> parse_options(["aloha.batch_size=8", "aloha.model_path=/m", "vlm.temps=[0, 1]"], ["aloha", "vlm"])
    {'aloha': {'batch_size': 8, 'model_path': '/m'}, 'vlm': {'temps': [0, 1]}}
    """
    names = list(dict.fromkeys(names))
    out: dict[str, dict[str, Any]] = {n: {} for n in names}
    for item in items:
        target, sep, value = item.partition("=")
        name, dot, key = target.partition(".")
        if not (sep and dot and name and key.isidentifier()):
            raise ValueError(f"--option {item!r}: expected NAME.KEY=VALUE")
        if name not in names:
            raise ValueError(f"--option {item!r}: detector {name!r} is not among -d {', '.join(names)}")
        try:
            out[name][key] = json.loads(value)
        except json.JSONDecodeError:
            out[name][key] = value
    return {n: o for n, o in out.items() if o}


def confine_images(
    detectors: dict[str, Detector], root: str | os.PathLike, *, override: bool = False, allow_urls: bool = False
) -> None:
    """Give every detector that reads sample images (``config.image_root``: vlm, faithscore,
    ensemble members) the folder their paths must lie in: ``root`` where no ``image_root``
    option was given, or everywhere with ``override`` (an explicit ``--image-root``).
    ``allow_urls`` lets http(s) image URLs through (see detectors.backends.images).

    >>> d = create_detectors(["vlm"], ["vlm.backend=http://127.0.0.1:9/v1"])
    >>> confine_images(d, "/data"); d["vlm"].config.image_root
    '/data'
    """
    stack = list(detectors.values())
    while stack:
        det = stack.pop()
        stack += [m for m in getattr(det, "members", ()) if isinstance(m, Detector)]
        config = getattr(det, "config", None)
        if config is None or not hasattr(config, "image_root"):
            continue
        if override or config.image_root is None:
            config.image_root = os.fspath(root)
        if allow_urls and hasattr(config, "allow_urls"):
            config.allow_urls = True


def create_detectors(names: Iterable[str], options: Iterable[str] = ()) -> dict[str, Detector]:
    """``{name: detector}`` for the names given, configured by ``NAME.key=value`` options; any
    problem (unknown name, bad option, a detector that cannot load) is a ValueError saying which.

    >>> sorted(create_detectors(["lexical"], ["lexical.aggregate=max"]))
    ['lexical']
    """
    from detectors import registry

    names = list(dict.fromkeys(names))
    opts = parse_options(options, names)
    out = {}
    for name in names:
        try:
            out[name] = registry.create(name, **opts.get(name, {}))
        except KeyError as exc:
            raise ValueError(exc.args[0]) from None
        except Exception as exc:  # a constructor's complaint, e.g. an unexpected option
            raise ValueError(f"detector {name!r}: {type(exc).__name__}: {exc}") from None
    return out


def answers_folder(output: Path, name: str) -> Path:
    """Where detector ``name`` keeps the model answers of a run into ``output``: ``OUTPUT.answers/NAME``."""
    return output.with_name(output.name + ".answers") / name


def keep_answers(detectors: dict[str, Detector], output: Path) -> None:
    """Give each detector that asks a model (its config has a ``backend``) and has no answer cache
    of its own an on-disk one beside the output (:func:`answers_folder`): the answers of a batch
    are kept as they arrive, so a killed run, resumed, pays only for the requests in flight. A
    ``cache`` the user set (``None`` for none) is kept; the folder is made on the first answer.

    >>> from types import SimpleNamespace
    >>> d = SimpleNamespace(config=SimpleNamespace(backend={"model": "m"}))
    >>> keep_answers({"vlm": d}, Path("out/pred.jsonl")); d.config.backend
    {'model': 'm', 'cache': 'out/pred.jsonl.answers/vlm'}
    """
    for name, detector in detectors.items():
        config = getattr(detector, "config", None)
        if config is None or not hasattr(config, "backend"):
            continue
        spec, folder = config.backend, str(answers_folder(output, name))
        if spec is None:
            spec = {"cache": folder}
        elif isinstance(spec, str):
            spec = {"kind": spec, "cache": folder}
        elif isinstance(spec, dict) and "cache" not in spec:
            spec = {**spec, "cache": folder}
        config.backend = spec
