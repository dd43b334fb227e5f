"""`cece explain` and `cece doctor` as a user runs them."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from halcece import main

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
    for needle in (
        "paper-dog-on-lap",
        "Counterfactual",
        "A [-dog-] {+laptop+} sitting on a lap.",
        "Edits",
        "Metrics",
        "HalRate",
        "Granularity",
    ):
        assert needle in r.output


def test_json_output_and_file(tmp_path):
    src = write_lines(tmp_path / "in.jsonl", [json.dumps(GOOD)])
    out = tmp_path / "out.jsonl"
    r = run("explain", str(src), "--format", "json", "-o", str(out))
    assert r.exit_code == 0
    printed = json.loads(r.stdout.strip().splitlines()[-1])
    written = json.loads(out.read_text().splitlines()[0])
    assert printed == written
    assert written["edits"][0]["class"] == "O"


def test_stdin():
    r = run("explain", "-", "--format", "json", input=json.dumps(GOOD))
    assert r.exit_code == 0
    assert json.loads(r.stdout)["id"] == "ok"
    assert r.stderr.strip() == "1 written (1 hallucinated), 0 errors, 0 parse failures, 0 skipped (already done)"


@pytest.mark.parametrize(
    "line, field",
    [
        ('{"id": "x", "caption": "A dog.", "annotation": ["dog"]', "json"),
        ('{"id": "x", "annotation": ["dog"]}', "caption"),
        ('{"id": "x", "caption": 5, "annotation": ["dog"]}', "caption"),
        ('{"id": "x", "caption": "A dog."}', "annotation"),
        ('{"id": "x", "caption": "A dog.", "annotation": {"what": 1}}', "annotation"),
        ('{"id": "x", "caption": "A dog.", "references": "A dog."}', "references"),
        ('{"id": "x", "caption": "A dog.", "annotation": {"objects": "dog"}}', "annotation.objects"),
        ('{"id": "x", "caption": "A dog.", "annotation": ["A dog sleeps on a sofa."]}', "annotation[0]"),
    ],
)
def test_bad_record_names_file_line_field_and_others_still_run(tmp_path, line, field):
    src = write_lines(
        tmp_path / "in.jsonl", [json.dumps({**GOOD, "id": "first"}), line, json.dumps({**GOOD, "id": "third"})]
    )
    out = tmp_path / "out.jsonl"
    r = CliRunner().invoke(main, ["explain", str(src), "-q", "-o", str(out)])
    assert r.exit_code == 2
    *errors, summary = [ln for ln in r.stderr.splitlines() if ln.strip()]
    assert len(errors) == 1
    assert errors[0].startswith(f"{src}:2: {field}")
    assert summary.endswith("1 error, 0 parse failures, 0 skipped (already done)")
    rows = [json.loads(x) for x in out.read_text().splitlines()]
    assert [row["id"] for row in rows if "error" not in row] == ["first", "third"]
    [bad] = [row["error"] for row in rows if "error" in row]
    assert (bad["field"], bad["line"], "traceback" in bad) == (field, 2, False)
    assert not bad["message"].startswith(field)  # said once, in its own place


@pytest.mark.parametrize("debug", [False, True])
def test_exception_inside_one_record_is_its_error_row(tmp_path, monkeypatch, debug):
    from cece.api import Explainer

    real = Explainer.explain_graphs

    def flaky(self, caption, image, **kw):  # a fault injected into one record only
        if kw.get("id") == "boom":
            raise ZeroDivisionError("injected")
        return real(self, caption, image, **kw)

    monkeypatch.setattr(Explainer, "explain_graphs", flaky)
    src = write_lines(tmp_path / "in.jsonl", [json.dumps({**GOOD, "id": i}) for i in ("a", "boom", "c")])
    out = tmp_path / "out.jsonl"
    r = CliRunner().invoke(main, ["explain", str(src), "-q", "-o", str(out), *(["--debug"] if debug else [])])
    assert r.exit_code == 2
    assert f"{src}:2: explain: ZeroDivisionError: injected" in r.stderr
    assert r.stderr.strip().endswith(
        f"3 written to {out} (2 hallucinated), 1 error, 0 parse failures, 0 skipped (already done)"
    )
    assert ("Traceback" in r.stderr) is debug
    rows = [json.loads(x) for x in out.read_text().splitlines()]
    assert [row["id"] for row in rows] == ["a", "boom", "c"]
    assert rows[1]["error"]["type"] == "ZeroDivisionError"
    assert ("traceback" in rows[1]["error"]) is debug
    # a re-run retries the failed record and only that one
    monkeypatch.setattr(Explainer, "explain_graphs", real)
    r = CliRunner().invoke(main, ["explain", str(src), "-q", "-o", str(out)])
    assert r.exit_code == 0 and "1 written" in r.stderr and "2 skipped" in r.stderr
    assert [json.loads(x)["id"] for x in out.read_text().splitlines()] == ["a", "c", "boom"]  # no duplicate


def test_threshold_option(tmp_path):
    rec = {"id": "r", "caption": "A cat on a sofa.", "references": ["A dog on a sofa.", "A dog lying on a couch."]}
    src = write_lines(tmp_path / "in.jsonl", [json.dumps(rec)])
    low = json.loads(run("explain", str(src), "-f", "json", "--threshold", "0.1").stdout)
    high = json.loads(run("explain", str(src), "-f", "json", "--threshold", "1").stdout)
    assert (low["threshold"], low["hallucinated"]) == (0.1, True)
    assert (high["threshold"], high["hallucinated"]) == (1.0, False)
    assert CliRunner().invoke(main, ["explain", str(src), "--threshold", "2"]).exit_code == 2


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
