"""What every benchmark loader shares: the gold-label dataclasses, data errors that name the place,
reading JSON / JSONL records (through :mod:`cece.records`, the one reader), and image paths that
cannot leave their image root (:func:`cece.record_checks.inside`).

A loader returns ``(samples, gold)``: samples are dicts in the Sample contract (``id``,
``caption``, ``references``?, ``image``?), gold maps each sample id to its labels.

>>> str(DataError("hat.json", "record 3", "caption", "expected a string"))
'hat.json:record 3: caption: expected a string'
>>> token_spans("A dog, a cat.")
[(0, 1), (2, 5), (5, 6), (7, 8), (9, 12), (12, 13)]
"""

from __future__ import annotations

import math
import os
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal, NoReturn, overload

from cece.record_checks import inside
from cece.records import RecordError, iter_records

Span = tuple[int, int]

# Words (with inner hyphens/apostrophes) and single punctuation marks: punctuation is its own token
# so that a foil word diffs as "eraser", not "eraser.".
_TOKEN = re.compile(r"\w+(?:[-']\w+)*|[^\w\s]")


class DataError(ValueError):
    """A benchmark file that does not have the documented shape, at ``file``:``where``:``field``."""

    def __init__(self, file: str | os.PathLike, where: str, field: str, message: str) -> None:
        self.file, self.where, self.field, self.message = str(file), where, field, message
        super().__init__(f"{self.file}:{where}: {field}: {message}")


@dataclass
class CaptionGold:
    """Caption-level gold (HAT, nocaps-FOIL): ``label`` 1 = hallucinated; ``spans`` the
    hallucinated char spans; ``words`` / ``word_labels`` the scored words and their labels;
    ``group`` a reporting group (FOIL domain); ``pair`` ties a foil to its clean caption;
    ``image`` the image as the file names it (captions of one image share their references)."""

    id: str
    caption: str
    label: int
    spans: list[Span] = field(default_factory=list)
    words: list[Span] = field(default_factory=list)
    word_labels: list[int] = field(default_factory=list)
    group: str | None = None
    pair: str | None = None
    image: str | None = None


def token_spans(text: str) -> list[Span]:
    """Char spans of the words and punctuation marks of ``text``."""
    return [m.span() for m in _TOKEN.finditer(text)]


def whitespace_spans(text: str) -> list[Span]:
    """Char spans of ``text.split()``'s tokens, in order (HAT's word unit).

    >>> whitespace_spans(" a  bc ")
    [(1, 2), (4, 6)]
    """
    return [m.span() for m in re.finditer(r"\S+", text)]


def is_missing(value: Any) -> bool:
    """None, NaN (pandas' empty cell) or an empty / blank string."""
    return (
        value is None
        or (isinstance(value, float) and math.isnan(value))
        or (isinstance(value, str) and not value.strip())
    )


def benchmark_records(path: str | os.PathLike) -> Iterator[tuple[str, Any]]:
    """``(where, record)`` for a JSON list (``where`` = "record N", 1-based) or JSONL
    ("line N"), read by the project's one reader (:func:`cece.records.iter_records`: BOM, CRLF,
    gzip...); a benchmark file must be whole, so its first problem is a :class:`DataError`."""
    try:
        for r in iter_records(path):
            if isinstance(r.value, RecordError):
                raise DataError(path, f"line {r.line}", r.value.field, r.value.message)
            yield (f"record {r.item}" if r.item is not None else f"line {r.line}"), r.value
    except OSError as exc:
        raise DataError(path, "-", "file", f"cannot read: {exc.strerror or exc}") from None


class Checker:
    """Field checks for one record that raise a :class:`DataError` naming file, place and field."""

    def __init__(self, file: str | os.PathLike, where: str, record: Any) -> None:
        self.file, self.where = file, where
        if not isinstance(record, dict):
            self.fail("record", f"expected a JSON object, got {type(record).__name__}")
        self.record: dict[str, Any] = record

    def fail(self, field: str, message: str) -> NoReturn:
        raise DataError(self.file, self.where, field, message)

    @overload
    def string(self, key: str, optional: Literal[False] = False) -> str: ...

    @overload
    def string(self, key: str, optional: bool) -> str | None: ...

    def string(self, key: str, optional: bool = False) -> str | None:
        value = self.record.get(key)
        if value is None and optional:
            return None
        if not isinstance(value, str):
            self.fail(key, "missing" if key not in self.record else f"expected a string, got {_kind(value)}")
        return value

    @overload
    def strings(self, key: str, optional: Literal[False] = False) -> list[str]: ...

    @overload
    def strings(self, key: str, optional: bool) -> list[str] | None: ...

    def strings(self, key: str, optional: bool = False) -> list[str] | None:
        value = self.record.get(key)
        if value is None and optional:
            return None
        if not (isinstance(value, list) and all(isinstance(v, str) for v in value)):
            self.fail(key, "missing" if key not in self.record else f"expected a list of strings, got {_kind(value)}")
        return value

    def boolean(self, key: str) -> bool:
        value = self.record.get(key)
        if not isinstance(value, bool):
            self.fail(key, "missing" if key not in self.record else f"expected true or false, got {_kind(value)}")
        return value


def _kind(value: Any) -> str:
    return "null" if value is None else type(value).__name__


class ImageRoot:
    """Images under a user-given root: by relative path, or by file name anywhere below it
    (COCO / CC12M images keep their names but not a fixed folder layout)."""

    def __init__(self, root: str | os.PathLike) -> None:
        self.root = Path(root).resolve()
        if not self.root.is_dir():
            raise DataError(root, "-", "images", "not a directory")
        self._by_name: dict[str, Path] | None = None

    def path(self, relative: str, file: str | os.PathLike, where: str, field: str) -> str | None:
        """The image at ``relative`` below the root (None when absent); a path that resolves
        outside the root is a :class:`DataError`."""
        target = inside(self.root, relative)
        if target is None:
            raise DataError(file, where, field, f"image path {relative!r} resolves outside the image root {self.root}")
        return str(target) if target.is_file() else None

    def by_name(self, name: str) -> str | None:
        """The first file called ``name`` below the root (sorted walk, symlinks not followed)."""
        if self._by_name is None:
            self._by_name = {}
            for folder, dirs, files in os.walk(self.root):
                dirs.sort()
                for f in sorted(files):
                    self._by_name.setdefault(f, Path(folder) / f)
        found = self._by_name.get(Path(name).name)
        return str(found) if found is not None and inside(self.root, found) else None
