"""Faults and misuse around the one writer: kill -9 and resume, SIGINT, two writers, a full disk,
output = input, a corrupt line in the middle of an output, error rows retried without duplicates."""

from __future__ import annotations

import errno
import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from fixtures.processes import wait_for_lines

import cece.output
from cece.output import JsonlWriter, OutputBusy, OutputError
from halcece import main

CECE = str(Path(sys.executable).with_name("cece"))
CAPTIONS = [
    "A dog on a sofa.",
    "A girl eating a pizza.",
    "A cat sleeping on a bed next to a lamp.",
    "Two men riding horses on a beach.",
    "A red car parked near a tree.",
]
LABELS = ["dog", "sofa", "woman", "pizza", "cat", "bed", "man", "horse", "beach", "car", "tree"]


def records(n: int) -> list[dict]:
    return [
        {"id": f"r{i:03d}", "caption": CAPTIONS[i % len(CAPTIONS)], "annotation": LABELS[: 3 + i % 8]} for i in range(n)
    ]


def write_input(path: Path, n: int) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in records(n)))
    return path


def run(*args: str):
    return CliRunner().invoke(main, list(args))


def ids(path: Path) -> list[str]:
    return [json.loads(x)["id"] for x in path.read_text().splitlines()]


def test_kill_9_at_several_points_then_resume_gives_the_clean_output(tmp_path: Path):
    src = write_input(tmp_path / "in.jsonl", 40)
    clean = tmp_path / "clean.jsonl"
    assert run("explain", str(src), "-q", "-o", str(clean)).exit_code == 0
    out = tmp_path / "killed.jsonl"
    cmd = [CECE, "explain", str(src), "-q", "-o", str(out), "--batch-size", "1"]
    for at in (1, 9, 23):  # kill again and again: each run resumes the one before
        proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        wait_for_lines(out, at, proc)
        proc.kill()
        proc.wait()
        assert out.read_bytes().count(b"\n") >= at
    with out.open("ab") as f:
        f.write(b'{"id": "r0')  # and a row torn by the kill
    r = run("explain", str(src), "-q", "-o", str(out))
    assert r.exit_code == 0, r.output
    assert "cut short" in r.stderr
    assert out.read_bytes() == clean.read_bytes()  # nothing lost, nothing doubled, same order


def test_sigint_prints_the_summary_exits_130_and_keeps_what_was_done(tmp_path: Path):
    n = 1000  # ~100 records/s in annotation mode: enough that the run cannot end before the signal lands
    src = write_input(tmp_path / "in.jsonl", n)
    out = tmp_path / "out.jsonl"
    # A suite started in the background of a non-interactive shell inherits SIGINT ignored, and an
    # ignored signal stays ignored across exec: give the run the disposition a terminal gives it.
    proc = subprocess.Popen(
        [CECE, "explain", str(src), "-q", "-o", str(out), "--batch-size", "1", "-w", "1"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    wait_for_lines(out, 3, proc)
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    assert "Traceback" not in err
    last = err.strip().splitlines()[-1]
    assert last.startswith("interrupted: ") and "written to" in last
    done = ids(out)  # every line whole
    assert int(last.split()[1]) == len(done) and len(done) < n
    r = run("explain", str(src), "-q", "-o", str(out), "-w", "1")
    assert r.exit_code == 0 and f"{len(done)} skipped" in r.stderr
    assert ids(out) == [r["id"] for r in records(n)]


def test_a_second_writer_on_the_same_output_is_refused(tmp_path: Path):
    src = write_input(tmp_path / "in.jsonl", 3)
    out = tmp_path / "out.jsonl"
    with JsonlWriter(out, key=lambda row: row["id"]) as first:
        first.write({"id": "x"})
        for cmd in (
            ["explain", str(src), "-q", "-o", str(out)],
            ["detect", str(src), "-d", "lexical", "-o", str(out), "-q"],
        ):
            r = run(*cmd)
            assert r.exit_code == 1 and "another run is writing to this file" in r.output
        with pytest.raises(OutputBusy):
            JsonlWriter(out, key=lambda row: row["id"]).open()
    assert out.read_text() == '{"id": "x"}\n'  # the refused runs touched nothing


def test_a_second_writer_process_is_refused(tmp_path: Path):
    src = write_input(tmp_path / "in.jsonl", 5000)  # long enough to outlast the second one's start
    out = tmp_path / "out.jsonl"
    proc = subprocess.Popen(
        [CECE, "explain", str(src), "-q", "-o", str(out), "--batch-size", "1", "-w", "1"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        wait_for_lines(out, 1, proc)
        r = subprocess.run(
            [CECE, "explain", str(src), "-q", "-o", str(out)], capture_output=True, text=True, timeout=120
        )
        assert r.returncode == 1 and "another run is writing" in r.stderr
    finally:
        proc.kill()
        proc.wait()


def test_full_disk_is_a_clear_error_and_leaves_no_torn_line(tmp_path: Path, monkeypatch):
    src = write_input(tmp_path / "in.jsonl", 6)
    out = tmp_path / "out.jsonl"
    real = os.write
    calls = {"n": 0}

    def full(fd, data):
        calls["n"] += 1
        if calls["n"] <= 2:
            return real(fd, data)
        if calls["n"] == 3:
            return real(fd, bytes(data)[:17])  # a short write, then the disk is full
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(cece.output, "_os_write", full)
    r = run("explain", str(src), "-q", "-o", str(out))
    assert r.exit_code == 1 and "Traceback" not in r.output
    assert f"error: {out}: cannot write: disk full" in r.stderr
    assert r.stderr.strip().splitlines()[-1].startswith("2 written")
    assert out.read_bytes().endswith(b"\n") and ids(out) == ["r000", "r001"]
    monkeypatch.setattr(cece.output, "_os_write", real)
    assert run("explain", str(src), "-q", "-o", str(out)).exit_code == 0
    assert ids(out) == [r["id"] for r in records(6)]


def test_full_disk_in_detect(tmp_path: Path, monkeypatch):
    src = tmp_path / "in.jsonl"
    src.write_text(
        "".join(json.dumps({"id": str(i), "caption": "A dog.", "references": ["A dog."]}) + "\n" for i in range(4))
    )

    def full(fd, data):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(cece.output, "_os_write", full)
    r = run("detect", str(src), "-d", "lexical", "-o", str(tmp_path / "o.jsonl"), "-q")
    assert r.exit_code == 1 and "cannot write: disk full" in r.stderr and "Traceback" not in r.output
    assert (tmp_path / "o.jsonl").read_bytes() == b""


def test_output_equal_to_input_is_refused(tmp_path: Path):
    src = write_input(tmp_path / "in.jsonl", 2)
    before = src.read_bytes()
    (tmp_path / "hard.jsonl").hardlink_to(src)
    (tmp_path / "soft.jsonl").symlink_to(src)
    for out in (src, tmp_path / "hard.jsonl", tmp_path / "soft.jsonl", tmp_path / "." / "in.jsonl"):
        for extra in ([], ["--overwrite"]):
            r = run("explain", str(src), "-q", "-o", str(out), *extra)
            assert r.exit_code == 1 and "the output is the input file" in r.output
            r = run("detect", str(src), "-d", "lexical", "-o", str(out), *extra)
            assert r.exit_code == 1 and "the output is the input file" in r.output
    r = run("report", str(src), "-o", str(tmp_path))  # REPORTDIR/explanations.jsonl is not the input
    assert src.read_bytes() == before


def test_report_refuses_its_own_explanations_file_as_input(tmp_path: Path):
    rep = tmp_path / "rep"
    rep.mkdir()
    src = rep / "explanations.jsonl"
    src.write_text("".join(json.dumps({**r, "model": "m"}) + "\n" for r in records(2)))
    before = src.read_bytes()
    r = run("report", str(src), "-o", str(rep))
    assert r.exit_code == 1 and "the output is the input file" in r.output
    assert src.read_bytes() == before


def test_a_corrupt_line_in_the_middle_redoes_only_its_record(tmp_path: Path):
    src = write_input(tmp_path / "in.jsonl", 8)
    out = tmp_path / "out.jsonl"
    assert run("explain", str(src), "-q", "-o", str(out)).exit_code == 0
    clean = out.read_text().splitlines()
    broken = list(clean)
    broken[3] = broken[3][:50] + "\x00garbage"
    out.write_text("\n".join(broken) + "\n")
    r = run("explain", str(src), "-q", "-o", str(out))
    assert r.exit_code == 0, r.output
    assert f"{out}:4: unreadable line dropped" in r.stderr
    assert r.stderr.strip().splitlines()[-1].startswith("1 written") and "7 skipped" in r.stderr
    assert sorted(out.read_text().splitlines()) == sorted(clean)


def test_error_rows_are_retried_and_replaced_and_keep_errors_keeps_them(tmp_path: Path):
    src = tmp_path / "in.jsonl"
    good = records(2)
    bad = {"id": "bad", "caption": "A dog.", "annotation": "later.json"}
    src.write_text("".join(json.dumps(r) + "\n" for r in [good[0], bad, good[1]]))
    out = tmp_path / "out.jsonl"
    assert run("explain", str(src), "-q", "-o", str(out)).exit_code == 2
    for _ in range(2):
        r = run("explain", str(src), "-q", "-o", str(out), "--keep-errors")
        assert r.exit_code == 0 and "3 skipped" in r.stderr and len(ids(out)) == 3
    r = run("explain", str(src), "-q", "-o", str(out))  # retried by default
    assert r.exit_code == 2 and "1 written" in r.stderr and len(ids(out)) == 3
    (tmp_path / "later.json").write_text('["dog"]')  # the cause is fixed: the retry succeeds
    r = run("explain", str(src), "-q", "-o", str(out))
    assert r.exit_code == 0
    rows = [json.loads(x) for x in out.read_text().splitlines()]
    assert [x["id"] for x in rows] == ["r000", "r001", "bad"] and not any("error" in x for x in rows)


def test_every_record_failing_exits_2(tmp_path: Path):
    src = tmp_path / "in.jsonl"
    src.write_text("".join(json.dumps({"id": str(i), "caption": "A dog."}) + "\n" for i in range(5)))
    r = run("explain", str(src), "-q", "-o", str(tmp_path / "o.jsonl"))
    assert r.exit_code == 2 and "5 written to" in r.stderr and "5 errors" in r.stderr
    r = run("detect", str(src), "-d", "lexical", "-o", str(tmp_path / "d.jsonl"), "-q")
    assert r.exit_code == 2 and "5 errors" in r.stderr


def test_with_an_output_no_table_is_printed(tmp_path: Path):
    src = write_input(tmp_path / "in.jsonl", 2)
    r = run("explain", str(src), "-o", str(tmp_path / "o.jsonl"))
    assert r.exit_code == 0 and r.stdout == ""
    r = run("explain", str(src), "-o", str(tmp_path / "p.jsonl"), "-f", "json")
    assert [json.loads(x)["id"] for x in r.stdout.splitlines()] == ["r000", "r001"]


def test_output_into_missing_folders_and_not_a_directory(tmp_path: Path):
    src = write_input(tmp_path / "in.jsonl", 1)
    assert run("explain", str(src), "-q", "-o", str(tmp_path / "a" / "b" / "o.jsonl")).exit_code == 0
    assert run("detect", str(src), "-d", "lexical", "-o", str(tmp_path / "c" / "d.jsonl"), "-q").exit_code == 2
    assert (tmp_path / "c" / "d.jsonl").exists()
    r = run("explain", str(src), "-q", "-o", str(tmp_path / "a"))
    assert r.exit_code != 0 and "Traceback" not in r.output


def test_writer_rows_that_are_not_json_write_nothing(tmp_path: Path):
    with JsonlWriter(tmp_path / "o.jsonl", key=lambda row: row["id"]) as w:
        with pytest.raises(ValueError):
            w.write({"id": "a", "score": float("nan")})
        w.write({"id": "b", "caption": "\ud800"})  # a lone surrogate is written escaped
    assert (tmp_path / "o.jsonl").read_text() == '{"id": "b", "caption": "\\ud800"}\n'
    with pytest.raises(OutputError):
        JsonlWriter(tmp_path, key=lambda row: row["id"]).open()
