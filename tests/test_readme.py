"""The README tied to the code: its command examples that run offline on the bundled examples run
here (output shape checked), and the defaults and figures it states are the code's."""

from __future__ import annotations

import importlib
import inspect
import json
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from cece.api import Explainer
from cece.counterfactuals.fixed_point import FOLLOW_UPS
from cece.judge import DEFAULT_THRESHOLD
from detectors.runner import run_detectors

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text()
CECE = str(Path(sys.executable).with_name("cece"))


def shell_blocks() -> list[tuple[str, list[str]]]:
    """The README's ```console and ```sh blocks: (tag, lines)."""
    return [(tag, body.splitlines()) for tag, body in re.findall(r"^```(console|sh)\n(.*?)^```", README, re.S | re.M)]


def cece_commands() -> list[list[str]]:
    """Every ``cece ...`` command of those blocks, as arguments: ``$ `` prompts and ``.venv/bin/``
    dropped, ``\\`` continuations joined, ``NAME=value`` lines of the block substituted."""
    out = []
    for tag, lines in shell_blocks():
        text = "\n".join(lines).replace("\\\n", " ")
        env: dict[str, str] = {}
        for line in text.splitlines():
            if tag == "console" and not line.startswith("$ "):
                continue  # output shown after the command
            line = line.removeprefix("$ ").split(" #")[0].strip()
            if m := re.fullmatch(r"([A-Z]+)=(\S+)", line):
                env[m[1]] = m[2]
                continue
            for name, value in env.items():
                line = line.replace(f"${name}", value)
            args = shlex.split(line)
            if args and args[0] in ("cece", ".venv/bin/cece"):
                out.append(args[1:])
    return out


def runs_offline_here(args: list[str]) -> bool:
    """Whether every file the command reads is in the repository (its -o target excepted)."""
    files = [a for i, a in enumerate(args) if not a.startswith("-") and (i == 0 or args[i - 1] not in ("-o", "-d"))]
    files = files[1:]  # the subcommand
    return bool(files) and all((ROOT / f).is_file() for f in files)


def test_readme_commands_on_the_bundled_examples_run_and_give_what_it_says(tmp_path: Path):
    runnable = [a for a in cece_commands() if runs_offline_here(a)]
    assert {a[0] for a in runnable} >= {"explain", "report", "chair"}, runnable
    env = {**os.environ, "COLUMNS": "100"}
    for args in runnable:
        args = [str(tmp_path / a.replace("/", "_")) if i and args[i - 1] == "-o" else a for i, a in enumerate(args)]
        r = subprocess.run([CECE, *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
        assert r.returncode == 0, (args, r.stderr[-2000:])
        out = Path(args[args.index("-o") + 1]) if "-o" in args else None
        if args[0] == "explain":
            assert "Verdict:" in r.stdout and "Counterfactual:" in r.stdout, args
            # what the README shows it prints, it prints (a refit that moves a figure moves the README)
            shown, printed = lines_shown(args), {line.strip("│ ").rstrip() for line in r.stdout.splitlines()}
            assert set(shown) <= printed, (sorted(set(shown) - printed), r.stdout[:3000])
            if args[:2] == ["explain", "cece/examples/demo.jsonl"]:
                assert [x.split(":")[0] for x in shown[:3]] == ["Verdict", "Caption", "Counterfactual"]
        elif args[0] == "report":
            rows = [json.loads(x) for x in (out / "explanations.jsonl").read_text().splitlines()]
            assert rows and all("edits" in row for row in rows) and (out / "index.html").is_file()
        elif args[0] == "chair":  # one file per model when there are several: chair.MODEL.json
            written = sorted(out.parent.glob(f"{out.stem}.*.json"))
            assert len(written) == args.index("--annotations") - 1  # the results files, one model each
            assert all(set(json.loads(f.read_text())["overall_metrics"]) == {"CHAIRs", "CHAIRi"} for f in written)
            assert "CHAIRs" in r.stdout


def lines_shown(args: list[str]) -> list[str]:
    """The verdict, caption and counterfactual lines, and the edits table's rows, that the README
    shows under the console command ``cece *args`` (none when it shows no output for it)."""
    for tag, lines in shell_blocks():
        command = lines[0].removeprefix("$ ").removeprefix(".venv/bin/").split(" #")[0].split()
        if tag == "console" and command == ["cece", *args]:
            return [
                line.strip("│ ").rstrip()
                for line in lines[1:]
                if re.match(r"(│ )?(Verdict|Caption|Counterfactual):", line) or re.match(r"│ +\d* +│", line)
            ]
    return []


def test_stated_threshold_and_follow_ups_are_the_codes():
    stated = set(re.findall(r"(?:>=|<) (0\.\d\d)\)", README)) | set(re.findall(r"\*\*threshold, (0\.\d\d)\*\*", README))
    assert stated == {f"{DEFAULT_THRESHOLD:.2f}"}
    assert f"`FOLLOW_UPS = {FOLLOW_UPS}`" in README and "rounds" not in README.split("FOLLOW_UPS")[0][-200:]
    assert 'by default\n   (`Explainer(senses="context")`' in README
    assert inspect.signature(Explainer).parameters["senses"].default == "context"


def _cli():
    return importlib.import_module("halcece.main").main


@pytest.mark.parametrize(
    ("command", "option", "library_default"),
    [
        ("explain", "batch_size", inspect.signature(Explainer).parameters["batch_size"].default),
        ("report", "batch_size", inspect.signature(Explainer).parameters["batch_size"].default),
        ("detect", "batch_size", inspect.signature(run_detectors).parameters["batch_size"].default),
        ("explain", "threshold", None),  # None: the confidence model's own (the help says so)
    ],
)
def test_help_defaults_are_the_librarys(command: str, option: str, library_default):
    params = {p.name: p for p in _cli().commands[command].params}
    assert params[option].default == library_default
