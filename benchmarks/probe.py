"""How fast the machine is right now, as one number: a fixed piece of pure-Python work, timed.

A shared or virtual machine can change speed within minutes while nothing on it changes (other
tenants' load on the host). Our pipeline is about half Python, so its records/s follow
that speed; a speed table printed with the probe taken before and after it can be compared with
another table taken at a like probe, and not otherwise.

>>> ms = speed_probe(repeat=1)
>>> ms > 0
True
"""

from __future__ import annotations

import time


def _work(n: int) -> int:
    # Dict and list traffic, small calls and string slices: the kind of work our parsers and
    # explanations do between the numeric libraries' calls.
    seen: dict[int, int] = {}
    words = ["dog", "cat", "man", "table", "shirt", "kite", "grass", "boy"]
    total = 0
    for i in range(n):
        k = i % 1000
        seen[k] = seen.get(k, 0) + i
        w = words[i % len(words)]
        total += len(w[1:]) + (1 if w.startswith("c") else 0)
    return total + len(seen)


def speed_probe(repeat: int = 5, n: int = 200_000) -> float:
    """Milliseconds for the fixed work (the fastest of ``repeat`` tries); lower is faster.

    The fastest try, not the mean: it says what the machine can do now, not how often it was
    interrupted during the probe.
    """
    best = float("inf")
    for _ in range(repeat):
        t = time.perf_counter()
        _work(n)
        best = min(best, time.perf_counter() - t)
    return round(1000 * best, 1)
