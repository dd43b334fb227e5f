"""The one resumable JSONL writer behind ``cece explain``, ``cece detect``, ``cece report`` and
``cece bench run``, and the summary line every one of them ends with.

:class:`JsonlWriter` holds an exclusive lock (``flock``) on its output for as long as it is open,
so a second run writing the same file is refused (:class:`OutputBusy`) instead of interleaving
with the first. It refuses an output that is one of the run's inputs, creates missing folders,
and writes every row with one ``write`` system call as soon as it is made (nothing waits in a
buffer: a killed run loses only the records in flight). An OS error while writing (a full disk)
becomes :class:`OutputError` with the file named, and the bytes of the half-written row are cut
off again.

Resuming. Opening an existing output reads it once: each row's key (e.g. its id) is *done* and
skipped by the run. What is not kept -- a torn last line (a killed run), an unreadable line in
the middle (reported, only its record is redone), a second row for a key already done, and error
rows (retried by default; ``keep_errors=True`` keeps them and counts them done) -- is dropped by
rewriting the file once, before anything is appended, through a temporary file renamed over it.
So rows never accumulate: one row per key, in the order they were first made.

>>> import tempfile
>>> p = Path(tempfile.mkdtemp()) / "out.jsonl"
>>> _ = p.write_text('{"id": "a"}\\n{"id": "b", "error": {"field": "x"}}\\n{"id": "c"')
>>> with JsonlWriter(p, key=lambda row: row["id"]) as w:
...     sorted(w.done), w.write({"id": "b"})
(['a'], None)
>>> p.read_text()
'{"id": "a"}\\n{"id": "b"}\\n'
"""

from __future__ import annotations

import errno
import fcntl
import json
import os
import tempfile
from collections import deque
from collections.abc import Callable, Hashable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any


class OutputBusy(RuntimeError):
    """Another run holds the output file."""


class OutputError(RuntimeError):
    """The output cannot be opened or written (same file as an input, a full disk, no permission)."""


def _os_write(fd: int, data: bytes | memoryview) -> int:
    """``os.write``; a seam the tests replace to inject a full disk."""
    return os.write(fd, data)


def is_error(row: dict[str, Any]) -> bool:
    """An error row: its ``error`` is set (an object for explanations, a string for detections)."""
    return row.get("error") is not None


class JsonlWriter:
    """An output JSONL file, locked, resumed and appended to row by row (see the module).

    ``key(row)`` names the record a row is for (None: a row that cannot be resumed on, e.g. the
    error row of a record without a usable id -- such error rows are always redone). ``inputs``
    are the run's input files, which the output may not be. ``warn(message)`` hears about lines
    dropped on resume. ``ascii`` escapes non-ASCII text in rows (as ``json.dumps`` does by default).
    """

    def __init__(
        self,
        path: str | os.PathLike[str],
        *,
        key: Callable[[dict[str, Any]], Hashable | None],
        inputs: Iterable[str | os.PathLike[str] | None] = (),
        overwrite: bool = False,
        keep_errors: bool = False,
        warn: Callable[[str], None] | None = None,
        ascii: bool = True,
    ) -> None:
        self.path = Path(path)
        self.key = key
        self.inputs = [Path(p) for p in inputs if p is not None]
        self.overwrite, self.keep_errors = overwrite, keep_errors
        self.warn = warn or (lambda message: None)
        self.ascii = ascii
        self.done: set[Hashable] = set()  # keys with a row in the file (error rows only with keep_errors)
        self.dropped = 0  # lines dropped on opening
        self._fds: list[int] = []  # every fd we hold a lock on; the last one is written to

    # -- opening -------------------------------------------------------------------------------
    def __enter__(self) -> JsonlWriter:
        return self.open()

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def open(self) -> JsonlWriter:
        """Lock the output (creating it and its folders), then resume or empty it."""
        for source in self.inputs:
            if _same_file(source, self.path):
                raise OutputError(f"{self.path}: the output is the input file {source}: write to another file")
        if self.path.is_dir():
            raise OutputError(f"{self.path}: is a directory: give a file name")
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            fd = self._open_locked()
        except OSError as exc:
            raise OutputError(f"{self.path}: cannot open for writing: {exc.strerror or exc}") from None
        self._fds.append(fd)
        try:
            if self.overwrite:
                os.ftruncate(fd, 0)
            else:
                self._resume(fd)
        except OSError as exc:
            self.close()
            raise OutputError(f"{self.path}: cannot resume: {exc.strerror or exc}") from None
        return self

    def _open_locked(self) -> int:
        for _ in range(5):
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_APPEND, 0o644)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                os.close(fd)
                raise OutputBusy(
                    f"{self.path}: another run is writing to this file; wait for it to finish or write to another file"
                ) from None
            # Another run may have renamed a rewritten file over the path between open and lock.
            if os.path.exists(self.path) and os.path.samestat(os.fstat(fd), os.stat(self.path)):
                return fd
            os.close(fd)
        raise OutputBusy(f"{self.path}: the file keeps changing under us: is another run writing to it?")

    def _resume(self, fd: int) -> None:
        """Read the rows already there; rewrite the file once if any line is to go."""
        drop: set[int] = set()
        size = os.fstat(fd).st_size
        torn = False
        with open(os.dup(fd), "rb") as f:
            f.seek(0)
            for n, raw in enumerate(f, 1):
                if not raw.endswith(b"\n"):
                    torn = True
                    drop.add(n)
                    self.warn(f"{self.path}:{n}: last line cut short (a killed run?): its record is redone")
                    break
                if not raw.strip():
                    drop.add(n)
                    continue
                try:
                    row = json.loads(raw)
                except (ValueError, RecursionError):
                    row = None
                if not isinstance(row, dict):
                    drop.add(n)
                    self.warn(f"{self.path}:{n}: unreadable line dropped: its record is redone")
                    continue
                if not self._keep(row):
                    drop.add(n)
        self.dropped = len(drop) - torn
        if not drop:
            return
        if drop == {max(drop)} and torn:  # only a torn tail: cut it off in place
            os.ftruncate(fd, size - len(self._last_line(fd)))
            return
        self._rewrite(fd, drop)

    def _keep(self, row: dict[str, Any]) -> bool:
        key = self._key(row)
        if key is None:
            return not is_error(row)  # an error row nothing can resume on is redone; a row kept
        if key in self.done:
            return False  # a second row for the same record (e.g. from an older version)
        if is_error(row) and not self.keep_errors:
            return False
        self.done.add(key)
        return True

    def _key(self, row: dict[str, Any]) -> Hashable | None:
        err = row.get("error")
        if isinstance(err, dict) and err.get("field") == "id":
            return None  # the record's id is what was wrong: nothing to resume on
        try:
            return self.key(row)
        except (KeyError, TypeError, ValueError):
            return None

    @staticmethod
    def _last_line(fd: int) -> bytes:
        with open(os.dup(fd), "rb") as f:
            f.seek(0)
            tail = deque(f, maxlen=1)  # reads the lines through, keeping only the last
        return tail[0] if tail else b""

    def _rewrite(self, fd: int, drop: set[int]) -> None:
        """The kept lines into a locked temporary file renamed over the output (atomic: a kill
        leaves the old file or the new one). The old file stays locked until we close."""
        tmp, name = tempfile.mkstemp(dir=self.path.parent, prefix=f".{self.path.name}.", suffix=".tmp")
        try:
            fcntl.flock(tmp, fcntl.LOCK_EX)
            with open(os.dup(fd), "rb") as f, open(os.dup(tmp), "wb") as out:
                f.seek(0)
                for n, raw in enumerate(f, 1):
                    if n not in drop:
                        out.write(raw)
                out.flush()
                os.fsync(out.fileno())
            os.chmod(name, 0o644)
            os.replace(name, self.path)
        except BaseException:
            os.close(tmp)
            if os.path.exists(name):
                os.unlink(name)
            raise
        os.lseek(tmp, 0, os.SEEK_END)
        self._fds.append(tmp)

    # -- writing -------------------------------------------------------------------------------
    def write(self, row: dict[str, Any] | bytes) -> None:
        """Append one row and hand it to the OS at once. ``row`` is a dict, or its line as
        :func:`encode_row` made it with this writer's ``ascii`` (a worker process encodes its rows
        itself, so that the one writer of a parallel run only writes).

        Raises ValueError for a row that is not JSON (NaN, a non-string key...) -- nothing is
        written -- and :class:`OutputError` when the OS refuses the bytes (nothing is left of them).
        """
        data = row if isinstance(row, bytes) else encode_row(row, self.ascii)
        fd = self._fds[-1]
        start = os.fstat(fd).st_size
        try:
            view = memoryview(data)
            while view:
                view = view[_os_write(fd, view) :]
        except OSError as exc:
            try:
                os.ftruncate(fd, start)  # no torn line left behind
                os.lseek(fd, start, os.SEEK_SET)
            except OSError:
                pass  # the next run cuts it off
            what = "disk full" if exc.errno == errno.ENOSPC else (exc.strerror or str(exc))
            raise OutputError(f"{self.path}: cannot write: {what}") from None

    def close(self) -> None:
        """Release the lock(s)."""
        while self._fds:
            os.close(self._fds.pop())


def encode_row(row: dict[str, Any], ascii: bool = True) -> bytes:
    """One output line of ``row``: its JSON (non-ASCII text escaped when ``ascii``), a newline,
    UTF-8. Raises ValueError (or TypeError) for a row that is not JSON (NaN, a non-string key...).

    >>> encode_row({"id": 1, "caption": "café"}), encode_row({"caption": "café"}, ascii=False)
    (b'{"id": 1, "caption": "caf\\\\u00e9"}\\n', b'{"caption": "caf\\xc3\\xa9"}\\n')
    """
    text = json.dumps(row, ensure_ascii=ascii, allow_nan=False)
    try:
        return (text + "\n").encode("utf-8")
    except UnicodeEncodeError:  # a lone surrogate: written escaped, as JSON allows
        return (json.dumps(row, allow_nan=False) + "\n").encode("utf-8")


def _same_file(a: Path, b: Path) -> bool:
    try:
        return a.resolve() == b.resolve() or (b.exists() and os.path.samefile(a, b))
    except OSError:
        return False


@dataclass
class Summary:
    """What a run did, for its last line and its exit status.

    >>> s = Summary(written=3, errors=1, skipped=2)
    >>> s.line("to out.jsonl"), s.exit_code
    ('3 written to out.jsonl, 1 error, 0 parse failures, 2 skipped (already done)', 2)
    >>> Summary(written=3, not_judged=1, warnings=["vlm: the judge's answers do not vary"]).line()
    ... # doctest: +NORMALIZE_WHITESPACE
    "3 written, 0 errors, 0 parse failures, 0 skipped (already done), 1 not judged;
    vlm: the judge's answers do not vary"
    """

    written: int = 0  # rows written, error rows included
    errors: int = 0  # records that failed (an error row, or an input error)
    parse_failures: int = 0  # model answers that could not be read (counted by the detectors)
    skipped: int = 0  # records already done in the output
    note: str = ""  # e.g. "(5 hallucinated)"
    not_judged: int = 0  # detections with nothing to judge (no score; they say why)
    warnings: list[str] = field(default_factory=list)  # e.g. a judge whose answers did not vary

    def line(self, where: str = "") -> str:
        head = " ".join(x for x in (f"{self.written} written", where, self.note) if x)
        line = (
            f"{head}, {self.errors} error{'s' if self.errors != 1 else ''}, {self.parse_failures} parse "
            f"failure{'s' if self.parse_failures != 1 else ''}, {self.skipped} skipped (already done)"
        )
        line += f", {self.not_judged} not judged" if self.not_judged else ""
        return "; ".join([line, *self.warnings])

    @property
    def exit_code(self) -> int:
        """0, or 2 when any record failed or any model answer could not be parsed."""
        return 2 if self.errors or self.parse_failures else 0
