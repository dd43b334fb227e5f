"""The ``cece`` command line: the top of the stack, the only package that may import every other one.

``cli.main`` holds ``cece explain | detect | report | doctor | bench perf``; ``cli.bench`` the
``cece bench run | show | list`` commands. ``python -m cli`` runs it as the console script does.
"""

from cli.main import main

__all__ = ["main"]
