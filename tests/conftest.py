"""Shared test settings.

Property tests explore new random cases on a developer's machine; in CI (``CI`` set) they replay a
fixed derandomised sequence so a landing never depends on the luck of the draw.
"""

import os

from hypothesis import settings

settings.register_profile("ci", derandomize=True, print_blob=True)
if os.environ.get("CI"):
    settings.load_profile("ci")
