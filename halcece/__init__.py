"""The ``cece`` command line: the top of the stack, the only package that may import every other one.

``halcece.main`` holds ``cece explain | detect | report | doctor | bench perf``; ``halcece.bench`` the
``cece bench run | show | list`` commands. ``python -m halcece`` runs it as the console script does.
"""

from halcece.main import main

__all__ = ["main"]
