"""Hostile input through the real CLI: every bad record is one error row naming file:line:field,
its neighbours in the same file are all written, and nothing ends in a traceback.

Each case is a line put between two good records (line 1 and line 3) of a JSONL file; ``None`` as
the field means the line is a good record too, however odd (all three rows written, exit 0).
"""

from __future__ import annotations

import gzip
import json
import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from detectors.base import Detection, Detector
from detectors.runner import run_detectors
from halcece import main

DOG = {"caption": "A dog on a sofa.", "annotation": ["dog", "sofa"]}


def rec(**fields) -> bytes:
    return json.dumps({"id": "bad", **DOG, **fields}).encode()


def raw(text: str) -> bytes:
    return text.encode("utf-8", "surrogatepass")


CASES: dict[str, tuple[bytes, str | None]] = {
    # -- bytes and JSON --
    "invalid UTF-8 in the caption": (b'{"id": "bad", "caption": "A \xff dog.", "annotation": ["dog"]}', "encoding"),
    "invalid UTF-8 in the id": (b'{"id": "b\xc3\x28", "caption": "A dog.", "annotation": ["dog"]}', "encoding"),
    "latin-1 line": ('{"id": "bad", "caption": "Un caf\xe9.", "annotation": ["cup"]}'.encode("latin-1"), "encoding"),
    "truncated JSON": (b'{"id": "bad", "caption": "A dog.", "annot', "json"),
    "trailing garbage": (rec() + b" }}", "json"),
    "100k nested lists": (b"[" * 100_000, "json"),
    "100k nested objects": (b'{"a":' * 100_000, "json"),
    "NUL bytes": (b"\x00\x00\x00", "json"),
    "a bare word": (b"caption", "json"),
    "single quotes": (b"{'id': 'bad', 'caption': 'A dog.'}", "json"),
    "a list, not an object": (b"[1, 2, 3]", "record"),
    "a string, not an object": (b'"A dog on a sofa."', "record"),
    "null": (b"null", "record"),
    "a number": (b"42", "record"),
    # -- ids --
    "id missing": (json.dumps(DOG).encode(), "id"),
    "id null": (rec(id=None), "id"),
    "id Infinity": (b'{"id": Infinity, "caption": "A dog.", "annotation": ["dog"]}', "id"),
    "id -Infinity": (b'{"id": -Infinity, "caption": "A dog.", "annotation": ["dog"]}', "id"),
    "id NaN": (b'{"id": NaN, "caption": "A dog.", "annotation": ["dog"]}', "id"),
    "id fractional": (rec(id=1.5), "id"),
    "id true": (rec(id=True), "id"),
    "id a dict": (rec(id={"a": 1}), "id"),
    "id a list": (rec(id=["a"]), "id"),
    "id empty": (rec(id=""), "id"),
    "id blank": (rec(id="   "), "id"),
    "id duplicate": (rec(id="first"), "id"),
    "id with rich markup": (rec(id="bad[/bold]id", model="[red]x"), None),
    "id closing tag": (rec(id="[/]"), None),
    "id a huge integer": (rec(id=10**30), None),
    "id lone surrogate": (raw('{"id": "b\\ud800d", "caption": "A dog.", "annotation": ["dog"]}'), None),
    "model rich markup": (rec(model="[/]"), None),
    # -- captions --
    "caption missing": (json.dumps({"id": "bad", "annotation": ["dog"]}).encode(), "caption"),
    "caption null": (rec(caption=None), "caption"),
    "caption a number": (rec(caption=5), "caption"),
    "caption a list": (rec(caption=["A dog."]), "caption"),
    "caption of 1 MB": (rec(caption="a dog " * 175_000), "caption"),
    "caption lone surrogate": (raw('{"id": "bad", "caption": "A \\ud800 dog.", "annotation": ["dog"]}'), None),
    "caption empty": (rec(caption=""), None),
    "caption punctuation only": (rec(caption="- - ! ?"), None),
    "caption hyphen gap": (rec(caption="An x- ray of a hand.", annotation=None, references=["An x- ray."]), None),
    "caption zero-width and controls": (rec(caption="A\u200b dog\u0007 on a\u202e sofa."), None),
    "caption not English": (rec(caption="Ein Hund sitzt auf dem Sofa."), "caption"),
    # -- the image side --
    "references empty": (rec(annotation=None, references=[]), "references"),
    "references blank": (rec(annotation=None, references=["", "  "]), "references"),
    "references a string": (rec(annotation=None, references="A dog."), "references"),
    "references numbers": (rec(annotation=None, references=[1, 2]), "references"),
    "no image side": (json.dumps({"id": "bad", "caption": "A dog."}).encode(), "annotation"),
    "annotation unknown shape": (rec(annotation={"what": 1}), "annotation"),
    "annotation a number": (rec(annotation=7), "annotation"),
    "annotation path ..": (rec(annotation="../outside.json"), "annotation"),
    "annotation path absolute": (rec(annotation="/etc/passwd"), "annotation"),
    "annotation symlink out": (rec(annotation="link.json"), "annotation"),
    "annotation path missing": (rec(annotation="absent.json"), "annotation"),
    "annotation file not JSON": (rec(annotation="broken.json"), "annotation"),
    "annotation labels with markup": (rec(annotation=["dog", "[/bold]", "sofa"]), None),
}


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    (tmp_path / "outside.json").write_text('["dog"]')
    data = tmp_path / "data"
    data.mkdir()
    (data / "link.json").symlink_to(tmp_path / "outside.json")
    (data / "broken.json").write_text("{not json")
    return data


def run(*args: str):
    return CliRunner().invoke(main, list(args))


def rows(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


@pytest.mark.parametrize("case", list(CASES))
def test_explain_hostile_line(folder: Path, case: str):
    line, field = CASES[case]
    src = folder / "in.jsonl"
    good = [json.dumps({"id": i, **DOG}).encode() for i in ("first", "third")]
    src.write_bytes(b"\n".join([good[0], line, good[1]]) + b"\n")
    out = folder / "out" / "explained.jsonl"  # a folder that does not exist yet
    r = run("explain", str(src), "-q", "-o", str(out))
    assert r.exception is None or isinstance(r.exception, SystemExit), r.output
    assert "Traceback" not in r.output
    written = rows(out)
    ok = [row["id"] for row in written if "error" not in row]
    assert ok[0] == "first" and ok[-1] == "third"
    if field is None:
        assert r.exit_code == 0, r.output
        assert len(ok) == 3 and len(written) == 3
        return
    assert r.exit_code == 2, r.output
    assert ok == ["first", "third"]
    [bad] = [row for row in written if "error" in row]
    assert (bad["error"]["field"], bad["error"]["file"], bad["error"]["line"]) == (field, str(src), 2)
    assert f"{src}:2: {field}: " in r.stderr
    assert r.stderr.strip().splitlines()[-1].startswith("3 written")
    if field == "caption" and "MB" in case:
        assert "20,000" in bad["error"]["message"]  # the limit is named
    # a re-run retries the error row and replaces it: no duplicate rows
    again = run("explain", str(src), "-q", "-o", str(out))
    assert again.exit_code == 2 and "2 skipped" in again.stderr
    assert len(rows(out)) == 3


@pytest.mark.parametrize(
    "case",
    ["id with rich markup", "id closing tag", "model rich markup", "caption lone surrogate", "id a huge integer"],
)
def test_table_output_prints_data_as_text(folder: Path, case: str):
    src = folder / "in.jsonl"
    src.write_bytes(CASES[case][0] + b"\n")
    r = run("explain", str(src))
    assert r.exit_code == 0 and "Traceback" not in r.output, r.output
    shown = json.loads(CASES[case][0].decode("utf-8", "surrogatepass"))
    assert str(shown["id"])[:6] in r.stdout and "Metrics" in r.stdout


def test_bom_crlf_and_blank_lines(tmp_path: Path):
    src = tmp_path / "in.jsonl"
    lines = [json.dumps({"id": i, **DOG}).encode() for i in ("a", "b")]
    src.write_bytes(b"\xef\xbb\xbf" + lines[0] + b"\r\n\r\n   \r\n" + lines[1] + b"\r\n")
    out = tmp_path / "out.jsonl"
    r = run("explain", str(src), "-q", "-o", str(out))
    assert r.exit_code == 0, r.output
    assert [row["id"] for row in rows(out)] == ["a", "b"]


def test_a_bom_on_a_pretty_printed_json_list(tmp_path: Path):
    src = tmp_path / "in.json"
    src.write_bytes(b"\xef\xbb\xbf" + json.dumps([{"id": i, **DOG} for i in "ab"], indent=2).encode())
    out = tmp_path / "out.jsonl"
    assert run("explain", str(src), "-q", "-o", str(out)).exit_code == 0
    assert [row["id"] for row in rows(out)] == ["a", "b"]


def test_a_json_list_with_a_bad_element_names_its_line(tmp_path: Path):
    src = tmp_path / "in.json"
    src.write_text(
        '[\n  {"id": "a", "caption": "A dog.", "annotation": ["dog"]},\n  {"id": 2.5, "caption": "x"},\n'
        '  {"id": "c", "caption": "A dog.", "annotation": ["dog"]}\n]\n'
    )
    out = tmp_path / "out.jsonl"
    r = run("explain", str(src), "-q", "-o", str(out))
    assert r.exit_code == 2 and f"{src}:3: id: " in r.stderr
    assert [row["id"] for row in rows(out) if "error" not in row] == ["a", "c"]


def test_gzip_input_is_read(tmp_path: Path):
    src = tmp_path / "in.jsonl.gz"
    src.write_bytes(gzip.compress(b"\n".join(json.dumps({"id": i, **DOG}).encode() for i in "abc") + b"\n"))
    out = tmp_path / "out.jsonl"
    r = run("explain", str(src), "-q", "-o", str(out))
    assert r.exit_code == 0, r.output
    assert [row["id"] for row in rows(out)] == ["a", "b", "c"]


def test_a_cut_gzip_file_keeps_what_it_could_read(tmp_path: Path):
    data = gzip.compress(b"\n".join(json.dumps({"id": f"r{i}", **DOG}).encode() for i in range(200)) + b"\n")
    src = tmp_path / "in.jsonl.gz"
    src.write_bytes(data[: len(data) - 20])
    out = tmp_path / "out.jsonl"
    r = run("explain", str(src), "-q", "-o", str(out))
    assert r.exit_code == 2 and "Traceback" not in r.output
    assert f"{src}:" in r.stderr and ": file: cannot read" in r.stderr
    assert len([row for row in rows(out) if "error" not in row]) > 100


@pytest.mark.parametrize(
    "magic, tool", [(b"\xfd7zXZ\x00\x00", "xz"), (b"BZh91AY", "bzip2"), (b"\x28\xb5\x2f\xfd\x00", "zstd")]
)
def test_other_compressed_inputs_are_refused_naming_the_tool(tmp_path: Path, magic: bytes, tool: str):
    src = tmp_path / "in.jsonl.x"
    src.write_bytes(magic + os.urandom(64))
    r = run("explain", str(src), "-q", "-o", str(tmp_path / "out.jsonl"))
    assert r.exit_code == 2 and f"{src}:1: file: compressed with {tool}" in r.stderr


def test_stdin_with_invalid_utf8(tmp_path: Path):
    data = json.dumps({"id": "a", **DOG}).encode() + b'\n{"id": "\xfe"}\n'
    r = CliRunner().invoke(main, ["explain", "-", "-f", "json"], input=data)
    assert r.exit_code == 2 and "<stdin>:2: encoding: invalid UTF-8" in r.stderr
    assert json.loads(r.stdout.splitlines()[0])["id"] == "a"


def test_batch_size_below_one_is_refused():
    for cmd in (["explain", "x.jsonl"], ["detect", "x.jsonl", "-d", "lexical", "-o", "o.jsonl"]):
        for n in ("0", "-1"):
            r = run(*cmd, "--batch-size", n)
            assert r.exit_code == 2 and "--batch-size" in r.output


DETECT_CASES = [
    "invalid UTF-8 in the caption",
    "100k nested lists",
    "id Infinity",
    "id a dict",
    "id duplicate",
    "caption of 1 MB",
    "references empty",
    "annotation path ..",
    "annotation symlink out",
    "caption lone surrogate",
    "id with rich markup",
]


@pytest.mark.parametrize("case", DETECT_CASES)
def test_detect_hostile_line(folder: Path, case: str):
    line, field = CASES[case]
    src = folder / "in.jsonl"
    good = [
        json.dumps({"id": i, "caption": "A dog.", "references": ["A dog on a sofa."]}).encode()
        for i in ("first", "third")
    ]
    if field is None:  # the detector needs references
        line = json.dumps({**json.loads(line.decode("utf-8", "surrogatepass")), "references": ["A dog."]}).encode(
            "utf-8", "surrogatepass"
        )
    src.write_bytes(b"\n".join([good[0], line, good[1]]) + b"\n")
    out = folder / "new" / "det.jsonl"
    r = run("detect", str(src), "-d", "lexical", "-o", str(out), "-q")
    assert "Traceback" not in r.output, r.output
    written = rows(out)
    assert len(written) == 3 and [x["id"] for x in written if x["id"] in ("first", "third")] == ["first", "third"]
    assert all(x["error"] is None for x in written if x["id"] in ("first", "third"))
    if case == "caption lone surrogate":  # the run goes on; lexical's own spaCy call may refuse it
        assert r.exit_code == (2 if written[1]["error"] else 0)
        return
    assert r.exit_code == (0 if field is None else 2), r.output
    if field is not None:
        [bad] = [x for x in written if x["error"]]
        assert bad["error"].startswith(f"{src}:2: {field}: ")


class _Fussy(Detector):
    """Raises on the whole batch when any sample in it says 'boom'."""

    name = "fussy"

    def detect(self, sample):
        return Detection(sample["id"], self.name, score=0.5)

    def detect_batch(self, samples):
        if any("boom" in s["caption"] for s in samples):
            raise RuntimeError("cannot take 'boom'")
        return [self.detect(s) for s in samples]


def test_a_sample_that_breaks_its_batch_costs_only_its_own_line():
    import io

    samples = [{"id": str(i), "caption": "boom" if i == 3 else "A dog."} for i in range(8)]
    sink = io.StringIO()
    stats = run_detectors({"fussy": _Fussy()}, samples, sink, batch_size=8)
    lines = [json.loads(x) for x in sink.getvalue().splitlines()]
    assert [x["id"] for x in lines] == [str(i) for i in range(8)]
    assert [x["error"] is not None for x in lines] == [i == 3 for i in range(8)]
    assert "cannot take 'boom'" in lines[3]["error"] and (stats.written, stats.failed) == (8, 1)


def test_parse_failures_reported_by_a_detector_make_the_exit_status(tmp_path: Path, monkeypatch):
    from detectors import registry

    class Vague(Detector):
        name = "vague"

        def detect(self, sample):
            return Detection(sample["id"], self.name, score=0.5, details={"parse_failures": 2})

    monkeypatch.setattr(registry, "create", lambda name, **kw: Vague())
    src = tmp_path / "in.jsonl"
    src.write_text(json.dumps({"id": "a", "caption": "A dog."}) + "\n")
    r = run("detect", str(src), "-d", "vague", "-o", str(tmp_path / "o.jsonl"), "-q")
    assert r.exit_code == 2 and "1 written to" in r.stderr and "0 errors, 2 parse failures" in r.stderr


_A = '{"id": "a", "caption": "A dog.", "annotation": ["dog"]}'
_C = '{"id": "c", "caption": "A dog.", "annotation": ["dog"]}'
BROKEN_LISTS = {  # the broken element "b" starts on line 3 (1 for one-line lists)
    "a bad value": (f'[\n  {_A},\n  {{"id": "b", "caption": oops, "annotation": ["dog"]}},\n  {_C}\n]\n', 3),
    "a missing brace": (f'[\n  {_A},\n  {{"id": "b", "caption": "x", "annotation": ["dog"],\n  {_C}\n]\n', 3),
    "an unclosed string": (f'[\n  {_A},\n  {{"id": "b", "caption": "A dog, "annotation": ["dog"]}},\n  {_C}\n]\n', 3),
    "junk after nested objects": (
        f'[\n  {_A},\n  {{"id": "b", "caption": "x", "annotation": {{"objects": '
        f'[{{"name": "dog"}}, {{"name": "cat"}}]}} bad}},\n  {_C}\n]\n',
        3,
    ),
    "one line, a bad value": (f'[{_A}, {{"id": "b", "caption": x}}, {_C}]', 1),
    "one line, a trailing comma": (f'[{_A}, {{"id": "b", "caption": "x",}}, {_C}]', 1),
    "pretty-printed, a missing comma": (
        "[\n  " + _A + ',\n  {\n    "id": "b",\n    "caption": "x"\n    "annotation": ["dog"]\n  },\n  ' + _C + "\n]\n",
        3,
    ),
}


@pytest.mark.parametrize("case", list(BROKEN_LISTS))
def test_a_syntax_error_inside_a_json_list_costs_only_that_element(tmp_path: Path, case: str):
    text, line = BROKEN_LISTS[case]
    src = tmp_path / "in.json"
    src.write_text(text)
    out = tmp_path / "out.jsonl"
    r = run("explain", str(src), "-q", "-o", str(out))
    assert r.exit_code == 2 and "Traceback" not in r.output, r.output
    written = rows(out)
    assert [row["id"] for row in written if "error" not in row] == ["a", "c"]  # the rest is not lost
    [bad] = [row for row in written if "error" in row]
    assert (bad["error"]["field"], bad["error"]["file"], bad["error"]["line"]) == ("json", str(src), line)
    assert f"{src}:{line}: json: invalid JSON" in r.stderr


def test_a_json_list_broken_at_its_end_keeps_what_came_before(tmp_path: Path):
    src = tmp_path / "in.json"
    src.write_text(f'[\n  {_A},\n  {{"id": "b", "caption": x}}\n]\n')
    out = tmp_path / "out.jsonl"
    r = run("explain", str(src), "-q", "-o", str(out))
    assert r.exit_code == 2 and f"{src}:3: json: " in r.stderr
    assert [row.get("id") for row in rows(out)] == ["a", None]
