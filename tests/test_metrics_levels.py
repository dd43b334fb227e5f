"""Caption metrics read each edit on its own: edits of other levels may come in any order, and
every edit of a class counts."""

from __future__ import annotations

from cece.edits import Edit
from cece.metrics import object_metrics, role_metrics


def test_object_metrics_skip_other_levels_wherever_they_are():
    edits = [
        Edit(op="delete", level="relation", cls="D", hallucinated=True),
        Edit(op="delete", level="object", cls="D", hallucinated=True),
        Edit(op="replace", level="attribute", cls="R", hallucinated=True),
        Edit(op="replace", level="object", cls="R", wup=0.5, hallucinated=True),
        Edit(op="insert", level="object", cls="I"),
    ]
    m = object_metrics(edits, n_objects=4, n_image_objects=0, ancestors=[])
    assert (m.d, m.r, m.i, m.hal, m.hal_rate, m.r_similarity) == (1, 1, 1, 2, 0.5, 0.5)
    assert m.granularity == 1.0  # no image objects: nothing missed


def test_role_metrics_skip_other_levels_and_count_every_triple():
    edits = [
        Edit(op="delete", level="object", cls="D", hallucinated=True),
        Edit(op="delete", level="relation", cls="D", status="hallucinated", hallucinated=True),
        Edit(op="replace", level="attribute", cls="R", status="hallucinated", hallucinated=True),
        Edit(op="delete", level="relation", cls="D", status="consequence"),
        Edit(op="insert", level="relation", cls="I", status="suggestion"),
        Edit(op="insert", level="relation", cls="I", status="suggestion"),
    ]
    m = role_metrics(edits, n_roles=4, n_image_roles=0)
    assert (m.d, m.r, m.i, m.hal_rate, m.granularity, m.unverified) == (2, 0, 2, 0.5, 1.0, 0)
