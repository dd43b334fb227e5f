"""Reading caption records -- one JSON object, a JSON list, or JSONL -- as a stream, with every
problem a :class:`RecordError` naming file, line and field instead of an exception, so one bad
record never costs the others.

This is the one reader of the project: ``cece explain``, ``cece detect``, ``cece report`` and the
benchmark loaders all read through :func:`iter_records`. It takes a path or a text or binary
stream and copes with a UTF-8 byte-order mark, CRLF line ends, invalid UTF-8 (that line's error),
gzip (read as it streams; xz, bzip2, zstd and zip are refused naming the tool), JSON nested too
deeply for Python (an error, never a RecursionError) and blank lines. JSONL is read line by line;
a JSON list or a pretty-printed object is held as text and decoded one element at a time; a
broken list element is that record's error and reading goes on at the next element.

>>> import io
>>> [(r.line, r.value) for r in iter_records(io.BytesIO(b'\\xef\\xbb\\xbf{"id": 1}\\r\\n\\n{"id": 2}\\n'))]
[(1, {'id': 1}), (3, {'id': 2})]
>>> [str(r.value) for r in iter_records(io.BytesIO(b'{"id": 1}\\n{"id": "\\xff"}\\n'), "in.jsonl")][1]
'in.jsonl:2: encoding: invalid UTF-8 (byte 0xff at column 9)'

What a record must hold (ids, caption, image side, paths confined to a folder) is checked in
:mod:`cece.record_checks`.
"""

from __future__ import annotations

import codecs
import gzip
import io
import json
import os
import re
import zlib
from collections.abc import Iterator
from dataclasses import dataclass
from typing import IO, Any

_BOM = codecs.BOM_UTF8
# First bytes of compressed files: gzip is read, the others are refused with the tool to use.
_GZIP = b"\x1f\x8b"
_REFUSED = {
    b"BZh": "bzip2 (bunzip2)",
    b"\xfd7zXZ\x00": "xz (xz -d)",
    b"\x28\xb5\x2f\xfd": "zstd (zstd -d)",
    b"PK\x03\x04": "zip (unzip)",
}
_ESCAPED = re.compile("[\udc80-\udcff]")  # bytes that were not UTF-8, kept by surrogateescape
_SPACE = re.compile(r"[ \t\r\n]*")


@dataclass
class RecordError:
    """A record that could not be read or explained. ``index`` counts records from 0; ``line`` is
    1-based; ``model`` is carried into the error row when the record named one."""

    index: int
    field: str
    message: str
    id: str | int | None = None
    file: str | None = None
    line: int | None = None

    error_type: str | None = None  # the exception's class name, for a failure while explaining
    traceback: str | None = None
    model: str | int | None = None

    def __str__(self) -> str:
        where = f"{self.file or '<input>'}:{self.line if self.line is not None else self.index + 1}"
        return f"{where}: {self.field}: {self.message}"

    @classmethod
    def from_exception(cls, index: int, exc: BaseException, id: Any = None) -> RecordError:
        """The error row of a record whose explanation raised ``exc``."""
        import traceback

        return cls(
            index,
            "explain",
            f"{type(exc).__name__}: {exc}",
            id,
            error_type=type(exc).__name__,
            traceback=traceback.format_exc(),
        )

    def to_dict(self, traceback: bool = False) -> dict[str, Any]:
        """The error row written in place of the record's explanation (the traceback only when
        asked for: it is for debugging, not for readers of the output)."""
        error = {
            "type": self.error_type or "InputError",
            "field": self.field,
            "message": self.message,
            "file": self.file,
            "line": self.line,
        }
        if traceback and self.traceback:
            error["traceback"] = self.traceback
        row: dict[str, Any] = {"id": self.id}
        if self.model is not None:
            row["model"] = self.model
        row["error"] = error
        return row


@dataclass
class Record:
    """One entry of an input: ``value`` is the parsed JSON or a :class:`RecordError`; ``line`` is
    where it starts (1-based); ``item`` its 1-based place in a JSON list (None for JSONL)."""

    line: int
    value: Any
    item: int | None = None


#: A binary stream: a file, standard input's buffer, or gzip's reader over either.
_Bytes = IO[bytes] | gzip.GzipFile


def iter_records(source: str | os.PathLike[str] | IO[bytes], name: str | None = None) -> Iterator[Record]:
    """The records of a file (a path, opened here) or of an open text or binary stream.

    A whole-file JSON object is one record and a JSON list is many; otherwise every non-empty
    line is one JSON record (JSONL). A path that cannot be opened raises OSError.
    """
    if isinstance(source, (str, os.PathLike)):
        with open(source, "rb") as f:
            yield from iter_records(f, name or str(source))
        return
    name = name or getattr(source, "name", None) or "<input>"
    if not isinstance(name, str):
        name = "<input>"
    stream: Any = source
    if hasattr(stream, "buffer"):  # a text stream over bytes (sys.stdin, open(..., "r"))
        stream = stream.buffer
    elif isinstance(stream, io.TextIOBase):  # e.g. io.StringIO
        stream = io.BytesIO(stream.read().encode("utf-8", "surrogateescape"))
    yield from _read_binary(stream, name)


def _read_binary(stream: _Bytes, name: str) -> Iterator[Record]:
    head = stream.read(8)
    if head.startswith(_GZIP):
        stream = gzip.GzipFile(fileobj=_Prefixed(head, stream), mode="rb")
        head = b""
    else:
        for magic, tool in _REFUSED.items():
            if head.startswith(magic):
                yield Record(
                    1,
                    RecordError(
                        0,
                        "file",
                        f"compressed with {tool.split()[0]}: decompress it "
                        f"first ({tool.split('(')[1].rstrip(')')}) or give it gzipped",
                        file=name,
                        line=1,
                    ),
                )
                return
    lines = _lines(head, stream, name)
    first: list[tuple[int, bytes]] = []
    for lineno, raw in lines:
        if isinstance(raw, RecordError):
            yield Record(lineno, raw)
            return
        first.append((lineno, raw))
        if raw.strip():
            break
    if not first or not first[-1][1].strip():
        return
    lineno, raw = first[-1]
    text = raw.lstrip()
    if text.startswith(b"[") or (text.startswith(b"{") and not _parses(raw)):
        yield from _read_document(first, lines, name)
    else:
        yield from _read_jsonl(first[-1:], lines, name)


def _lines(head: bytes, stream: _Bytes, name: str) -> Iterator[tuple[int, Any]]:
    """Numbered raw lines (BOM and line end removed); a decompression error is one last error."""
    lineno = 0
    pending = head
    try:
        for chunk in stream:
            if pending:
                chunk, pending = pending + chunk, b""
            lineno += 1
            if lineno == 1 and chunk.startswith(_BOM):
                chunk = chunk[len(_BOM) :]
            yield lineno, chunk.rstrip(b"\n").rstrip(b"\r")
        if pending:
            lineno += 1
            yield lineno, (pending[len(_BOM) :] if pending.startswith(_BOM) else pending).rstrip(b"\r\n")
    except (OSError, EOFError, zlib.error) as exc:
        yield lineno + 1, RecordError(0, "file", f"cannot read: {exc}", file=name, line=lineno + 1)


def _parses(raw: bytes) -> bool:
    try:
        json.loads(raw)
        return True
    except (ValueError, RecursionError):
        return False


def _read_jsonl(first: list[tuple[int, bytes]], lines: Iterator[tuple[int, Any]], name: str) -> Iterator[Record]:
    index = 0
    for lineno, raw in _chain(first, lines):
        if isinstance(raw, RecordError):
            raw.index = index
            yield Record(lineno, raw)
            return
        if not raw.strip():
            continue
        yield Record(lineno, _decode_line(raw, index, name, lineno))
        index += 1


def _decode_line(raw: bytes, index: int, name: str, lineno: int) -> Any:
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        return RecordError(
            index,
            "encoding",
            f"invalid UTF-8 (byte 0x{raw[exc.start]:02x} at column {exc.start + 1})",
            file=name,
            line=lineno,
        )
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        return RecordError(index, "json", f"invalid JSON: {exc.msg} (column {exc.colno})", file=name, line=lineno)
    except RecursionError:
        return RecordError(index, "json", "nested too deeply", file=name, line=lineno)


def _chain(first: list[Any], rest: Iterator[Any]) -> Iterator[Any]:
    yield from first
    yield from rest


def _read_document(first: list[tuple[int, bytes]], lines: Iterator[tuple[int, Any]], name: str) -> Iterator[Record]:
    """A JSON list (element by element) or one pretty-printed object. A document that does not
    parse while its second non-blank line does on its own is JSONL with a bad first line."""
    held = list(_chain(first, lines))
    broken = next((r for _, r in held if isinstance(r, RecordError)), None)
    start = first[0][0]
    text = "\n".join(r.decode("utf-8", "surrogateescape") for _, r in held if not isinstance(r, RecordError))
    out = list(_decode_document(text, start, name))
    if any(isinstance(r.value, RecordError) and r.value.field == "json" for r in out):
        rest = [(n, r) for n, r in held[1:] if not isinstance(r, RecordError) and r.strip()]
        if rest and _parses(rest[0][1]):
            yield from _read_jsonl(held[:1], iter(held[1:]), name)
            return
    yield from out
    if broken is not None:
        broken.index = len(out)
        yield Record(broken.line or 0, broken)


def _decode_document(text: str, start: int, name: str) -> Iterator[Record]:
    decoder = json.JSONDecoder()
    counted, line = 0, start

    def line_at(pos: int) -> int:
        nonlocal counted, line
        line += text.count("\n", counted, pos)
        counted = pos
        return line

    def error(pos: int, field: str, message: str, index: int) -> Record:
        where = line_at(pos)
        return Record(where, RecordError(index, field, message, file=name, line=where))

    pos = _skip_space(text, 0)
    listed = text.startswith("[", pos)
    if listed:
        pos = _skip_space(text, pos + 1)
    index = 0
    while pos < len(text) and not (listed and text.startswith("]", pos)):
        try:
            value, end = decoder.raw_decode(text, pos)
        except (json.JSONDecodeError, RecursionError) as exc:
            if isinstance(exc, RecursionError):
                yield error(pos, "json", "nested too deeply", index)
            elif listed:  # named by the line the element starts on, where its record would be
                failed = start + text.count("\n", 0, exc.pos)
                yield error(pos, "json", f"invalid JSON: {exc.msg} (line {failed}, column {exc.colno})", index)
            else:
                yield error(exc.pos, "json", f"invalid JSON: {exc.msg} (column {exc.colno})", index)
            following = _next_element(text, pos, getattr(exc, "pos", pos)) if listed else None
            if following is None:
                return
            index, pos = index + 1, following
            continue
        bad = _ESCAPED.search(text, pos, end)
        if bad:
            yield error(bad.start(), "encoding", f"invalid UTF-8 (byte 0x{ord(bad.group()) - 0xDC00:02x})", index)
        else:
            yield Record(line_at(pos), value, index + 1 if listed else None)
        index += 1
        pos = _skip_space(text, end)
        if not listed:
            if pos < len(text):
                yield error(pos, "json", "invalid JSON: extra data after the record", index)
            return
        if text.startswith(",", pos):
            pos = _skip_space(text, pos + 1)
        elif not text.startswith("]", pos):
            yield error(pos, "json", "invalid JSON: expected ',' or ']'", index)
            return
    if listed and not text.startswith("]", pos):
        yield error(pos, "json", "invalid JSON: the list is not closed", index)


def _next_element(text: str, start: int, broken: int) -> int | None:
    """Where the list element after a broken one (starting at ``start``, failing at ``broken``)
    begins, or None. Candidates, in order: after each comma outside strings at the broken
    element's own depth, the failure point itself (a missing '}' fails at the next '{'), and
    each line starting with the broken element's indentation and first character. The first
    candidate that decodes and is followed by ',' or ']' is taken."""
    indent_at = text.rfind("\n", 0, start) + 1
    indent = text[indent_at:start]
    candidates = set(_top_commas(text, start))
    if broken > start and text[broken : broken + 1] in "{[":
        candidates.add(broken)
    if not indent.strip():  # the element opens its line: pretty-printed, one element per line start
        opener = re.compile(rf"\n{re.escape(indent)}(?={re.escape(text[start])})")
        candidates.update(m.end() for m in opener.finditer(text, start + 1))
    decoder = json.JSONDecoder()
    for pos in sorted(candidates):
        pos = _skip_space(text, pos)
        if pos <= start or text[pos : pos + 1] in ("", "]", ","):
            continue
        try:
            end = decoder.raw_decode(text, pos)[1]
        except (ValueError, RecursionError):
            continue
        after = _skip_space(text, end)
        if text[after : after + 1] in (",", "]"):
            return pos
    return None


def _top_commas(text: str, start: int) -> Iterator[int]:
    """Positions just after each ',' at depth 0 (outside strings) from ``start`` on."""
    depth, quoted, escaped = 0, False, False
    for pos in range(start, len(text)):
        ch = text[pos]
        if quoted:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"' or ch == "\n":  # a string never spans lines: an unclosed one ends here
                quoted = False
        elif ch == '"':
            quoted = True
        elif ch in "{[":
            depth += 1
        elif ch in "}]":
            depth -= 1
            if depth < 0:
                return
        elif ch == "," and depth == 0:
            yield pos + 1


def _skip_space(text: str, pos: int) -> int:
    """Where the first character after ``pos`` that is not JSON white space is."""
    m = _SPACE.match(text, pos)
    assert m is not None  # the pattern matches the empty string too
    return m.end()


class _Prefixed(io.RawIOBase):
    """A binary stream with bytes already read put back in front (to sniff gzip on stdin)."""

    def __init__(self, head: bytes, rest: _Bytes) -> None:
        self._head, self._rest = head, rest

    def readable(self) -> bool:
        return True

    def readinto(self, buf: Any) -> int:
        if self._head:
            n = min(len(buf), len(self._head))
            buf[:n], self._head = self._head[:n], self._head[n:]
            return n
        data = self._rest.read(len(buf))
        buf[: len(data)] = data
        return len(data)
