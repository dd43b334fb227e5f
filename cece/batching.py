"""What :meth:`cece.api.Explainer.explain_batch` does with a batch besides explaining it: which
records' image sides are reference captions, the parse that falls back to one caption at a time,
and the parser's memory of Docs kept for as long as the batch lasts.

>>> references_of({"references": ["A dog."]}), references_of({"annotation": ["dog"], "references": ["A dog."]})
(['A dog.'], None)
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from cece.records import RecordError
from parsers import CaptionParser, SceneGraph


def references_of(record: dict[str, Any]) -> list[str] | None:
    """The reference captions the record's image side is built from, or None (an annotation
    wins over references; a malformed list is left to :func:`parsers.to_scene_graph` to name)."""
    refs = record.get("references")
    if record.get("annotation") is not None or not isinstance(refs, list):
        return None
    return refs if all(isinstance(t, str) for t in refs) else None


def passed(error: RecordError, index: int) -> RecordError:
    """A record the caller already found bad, passed through the stream at its place."""
    error.index = index
    return error


def parse_each(parser: CaptionParser, captions: list[str]) -> list[SceneGraph | Exception]:
    """The captions' graphs, parsed together; if that fails, one by one, so a caption the
    parser cannot take costs only its own record (its exception in its place)."""
    try:
        return list(parser.parse_many(captions))
    except Exception:  # noqa: BLE001
        out: list[SceneGraph | Exception] = []
        for caption in captions:
            try:
                out.append(parser.parse(caption))
            except Exception as exc:  # noqa: BLE001
                out.append(exc)
        return out


@contextmanager
def doc_memory(parser: CaptionParser, docs: int) -> Iterator[None]:
    """The parser keeps at least its last ``docs`` Docs inside the block, and its own number
    after it: the batch that needs them changes nothing that outlives it."""
    before = parser.doc_memory
    parser.doc_memory = max(before, docs)
    try:
        yield
    finally:
        parser.doc_memory = before
