"""The mutation score per module of the last ``make mutation`` run (mutmut's results):
killed / (killed + survived + not covered), timeouts counted as killed."""

from __future__ import annotations

import subprocess
import sys
from collections import Counter, defaultdict
from pathlib import Path


def main() -> int:
    mutmut = Path(sys.executable).with_name("mutmut")
    out = subprocess.run([str(mutmut), "results", "--all", "true"], capture_output=True, text=True, check=True).stdout
    by_module: dict[str, Counter[str]] = defaultdict(Counter)
    for line in out.splitlines():
        name, _, status = line.strip().rpartition(": ")
        if name:
            by_module[name.split(".x", 1)[0].rstrip(".")][status] += 1
    for module, n in sorted(by_module.items()):
        killed = n["killed"] + n["timeout"]
        judged = killed + n["survived"] + n["no tests"]
        score = f"{100 * killed / judged:.1f} %" if judged else "-"
        print(
            f"{module:22} {score:>8}  killed {killed}, survived {n['survived']}, not covered {n['no tests']}, "
            f"not run {n['not checked']}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
