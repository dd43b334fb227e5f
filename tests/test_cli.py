"""`cece explain` and `cece doctor` as a user runs them."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from cece.cli import main

EXAMPLES = Path(__file__).resolve().parents[1] / "cece" / "examples"
GOOD = {"id": "ok", "caption": "A girl eating a pizza.", "annotation": ["woman", "pizza"]}


def run(*args, input=None):
    return CliRunner().invoke(main, list(args), input=input, catch_exceptions=False)


def write_lines(path: Path, lines: list[str]) -> Path:
    path.write_text("\n".join(lines) + "\n")
    return path


def test_demo_examples_table(tmp_path):
    shutil.copytree(EXAMPLES, tmp_path / "ex")
    r = run("explain", str(tmp_path / "ex" / "demo.jsonl"))
    assert r.exit_code == 0, r.output
    for needle in ("paper-dog-on-lap", "Counterfactual", "A laptop sitting on a lap.", "Edits", "Metrics",
                   "HalRate", "Granularity"):
        assert needle in r.output


def test_json_output_and_file(tmp_path):
    src = write_lines(tmp_path / "in.jsonl", [json.dumps(GOOD)])
    out = tmp_path / "out.jsonl"
    r = run("explain", str(src), "--format", "json", "-o", str(out))
    assert r.exit_code == 0
    printed = json.loads(r.output.strip().splitlines()[-1])
    written = json.loads(out.read_text().splitlines()[0])
    assert printed == written
    assert written["edits"][0]["class"] == "O"


def test_stdin():
    r = run("explain", "-", "--format", "json", input=json.dumps(GOOD))
    assert r.exit_code == 0
    assert json.loads(r.output)["id"] == "ok"


@pytest.mark.parametrize("line, field", [
    ('{"id": "x", "caption": "A dog.", "annotation": ["dog"]', "json"),
    ('{"id": "x", "annotation": ["dog"]}', "caption"),
    ('{"id": "x", "caption": 5, "annotation": ["dog"]}', "caption"),
    ('{"id": "x", "caption": "A dog."}', "annotation"),
    ('{"id": "x", "caption": "A dog.", "annotation": {"what": 1}}', "annotation"),
    ('{"id": "x", "caption": "A dog.", "references": "A dog."}', "references"),
])
def test_bad_record_names_file_line_field_and_others_still_run(tmp_path, line, field):
    src = write_lines(tmp_path / "in.jsonl", [json.dumps({**GOOD, "id": "first"}), line,
                                              json.dumps({**GOOD, "id": "third"})])
    out = tmp_path / "out.jsonl"
    r = CliRunner().invoke(main, ["explain", str(src), "-q", "-o", str(out)])
    assert r.exit_code == 2
    errors = [ln for ln in r.stderr.splitlines() if ln.strip()]
    assert len(errors) == 1
    assert errors[0].startswith(f"{src}:2: {field}")
    assert [json.loads(x)["id"] for x in out.read_text().splitlines()] == ["first", "third"]


def test_malformed_single_json_file(tmp_path):
    src = tmp_path / "caption.json"
    src.write_text('{\n  "id": "x",\n  "caption": "A dog."\n  "annotation": ["dog"]\n}\n')
    r = CliRunner().invoke(main, ["explain", str(src)])
    assert r.exit_code == 2
    assert r.stderr.startswith(f"{src}:4: json: invalid JSON")


def test_missing_file_is_a_clear_error(tmp_path):
    r = CliRunner().invoke(main, ["explain", str(tmp_path / "nope.json")])
    assert r.exit_code != 0 and "nope.json" in r.output


def test_resume_skips_done_ids_and_redoes_a_truncated_line(tmp_path):
    recs = [{**GOOD, "id": f"r{i}"} for i in range(4)]
    src = write_lines(tmp_path / "in.jsonl", [json.dumps(r) for r in recs])
    out = tmp_path / "out.jsonl"
    assert run("explain", str(src), "-q", "-o", str(out)).exit_code == 0
    full = out.read_text().splitlines()
    out.write_text("\n".join(full[:2]) + "\n" + full[2][: len(full[2]) // 2])  # killed mid-line
    assert run("explain", str(src), "-q", "-o", str(out)).exit_code == 0
    ids = [json.loads(x)["id"] for x in out.read_text().splitlines()]
    assert sorted(ids) == ["r0", "r1", "r2", "r3"] and len(ids) == 4


def test_doctor_reports_everything_found():
    r = run("doctor")
    assert r.exit_code == 0, r.output
    for name in ("WordNet", "spaCy", "embedding", "lapjv", "SceneGraphParser"):
        assert name in r.output


def test_console_script_help_in_a_fresh_process():
    exe = Path(sys.executable).with_name("cece")
    r = subprocess.run([str(exe), "explain", "--help"], capture_output=True, text=True, check=True)
    assert "--format" in r.stdout and "exit status is 2" in r.stdout
