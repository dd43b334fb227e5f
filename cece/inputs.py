"""The input files of a run, in the shapes users already have, read through the one reader
(:func:`cece.records.iter_records`) and made into caption records.

Shapes read, per record:

- this project's records ``{"id", "model", "caption", "annotation" | "references" | "image_id"}``;
- COCO results ``{"image_id", "caption"}`` (what captioners write for the COCO evaluation server):
  the id is the image id;
- LLaVA / POPE answer files ``{"question_id", "text", "model_id"?, "image"?}``: the caption is
  ``text``, the id ``question_id``, the model ``model_id``; an image file name gives the image id
  (``COCO_val2014_000000016903.jpg`` -> 16903).

A record without a model is named by ``--model``, else -- when the run reads several files, or
its records are of a foreign shape, or the command needs models (``report``, ``chair``) -- by its
file's stem: each file is one model. With ``--annotations`` each record's ``image_id`` is looked
up in the annotation files (:mod:`cece.annotation_sets`), which are read once, after a first
quick pass over the inputs has collected the image ids they ask for.

>>> normalize({"image_id": 16903, "caption": "A dog."}, Naming(stem="modelA"))
{'image_id': 16903, 'caption': 'A dog.', 'id': 16903, 'model': 'modelA'}
>>> normalize({"question_id": 3, "text": "A cat.", "model_id": "llava"}, Naming(stem="a"))["model"]
'llava'
"""

from __future__ import annotations

import contextlib
import shutil
import sys
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from cece.records import Record, RecordError, iter_records
from parsers.annotation_files import image_id_from_path, image_key


@dataclass
class Naming:
    """How a record without a model is named: ``model`` (``--model``) first, then ``stem`` when
    ``every`` record needs one or the record is of a foreign shape."""

    stem: str | None = None
    model: str | None = None
    every: bool = False


def normalize(rec: Any, naming: Naming) -> Any:
    """A record of any of the shapes above as this project's record (a new dict; others untouched)."""
    if not isinstance(rec, dict):
        return rec
    out = dict(rec)
    foreign = False
    if "caption" not in out and "question_id" in out and isinstance(out.get("text"), str):
        out["caption"] = out["text"]  # LLaVA / POPE answers
        out.setdefault("id", out["question_id"])
        foreign = True
    if "id" not in out and out.get("image_id") is not None:
        out["id"] = out["image_id"]  # COCO results
        foreign = True
    if out.get("image_id") is None and isinstance(out.get("image"), str):
        image = image_id_from_path(out["image"])
        if image is not None:
            out["image_id"] = image
    if out.get("model") is None:
        named = out.get("model_id") if isinstance(out.get("model_id"), str) else None
        named = named or naming.model or (naming.stem if naming.every or foreign else None)
        if named is not None:
            out["model"] = named
    return out


@dataclass
class InputFile:
    """One input: ``name`` for messages, ``base`` the folder relative annotation paths are under."""

    path: str
    name: str
    base: Path
    naming: Naming
    stream: IO[bytes] | None = None

    def records(self) -> Iterator[tuple[Record, Any]]:
        """``(entry, record)`` pairs: the raw entry (for its line) and the normalised record or
        the entry's :class:`RecordError`. The file is read from its start each time."""
        with contextlib.ExitStack() as stack:
            if self.stream is not None:
                if self.stream.seekable():
                    self.stream.seek(0)
                source: IO[bytes] = self.stream  # the caller's stream: left open
            else:
                source = stack.enter_context(open(self.path, "rb"))
            for entry in iter_records(source, self.name):
                value = entry.value
                yield entry, value if isinstance(value, RecordError) else normalize(value, self.naming)


def open_inputs(
    paths: list[str] | tuple[str, ...], *, model: str | None = None, every: bool = False, spool_stdin: bool = False
) -> list[InputFile]:
    """The input files of a run, each checked readable now (raises OSError naming it otherwise).
    Several files name their models by stem; ``-`` is standard input (copied to a temporary file
    when ``spool_stdin``: it is read twice with ``--annotations``)."""
    every = every or len(paths) > 1
    out = []
    for p in paths:
        if p == "-":
            stream: IO[bytes] = sys.stdin.buffer
            if spool_stdin:
                spooled = tempfile.TemporaryFile()  # noqa: SIM115 -- the run reads it later, through its InputFile
                shutil.copyfileobj(sys.stdin.buffer, spooled)
                stream = spooled
            out.append(InputFile(p, "<stdin>", Path.cwd(), Naming("stdin", model, every), stream))
            continue
        with open(p, "rb"):
            pass
        out.append(InputFile(p, p, Path(p).resolve().parent, Naming(Path(p).name.split(".")[0], model, every)))
    return out


def wanted_images(inputs: list[InputFile]) -> set[str]:
    """The image ids the inputs' records ask for (a first pass, before annotation files are read)."""
    wanted: set[str] = set()
    for f in inputs:
        for _, rec in f.records():
            if isinstance(rec, dict) and rec.get("image_id") is not None and isinstance(rec["image_id"], (str, int)):
                wanted.add(image_key(rec["image_id"]))
    return wanted
