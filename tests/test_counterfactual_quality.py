"""The counterfactual figures of benchmarks.counterfactual_quality that need no model run: which
word a foil replaced, read off its pair, and how a rewrite fixed it."""

from __future__ import annotations

import json

from benchmarks.counterfactual_quality import _foils, foil_fix
from benchmarks.loaders import BENCHMARKS


def test_the_replaced_word_is_read_off_the_pair(tmp_path):
    rec = {
        "image_path": "a.jpg",
        "references": ["A girl skating on ice.", "A young girl ice skating."],
        "baseline": "A little girl is holding on to a man.",
        "foil": "A little cookie is holding on to a man.",
        "replacement": ["girl", "cookie"],
        "domain": "in-domain",
    }
    path = tmp_path / "foil.json"
    path.write_text(json.dumps([rec]))
    _, gold = BENCHMARKS["foil"].load(str(path))
    assert _foils(gold) == {"0:foil": ("cookie", "girl")}
    foiled = rec["foil"]
    assert foil_fix(foiled, "A little girl is holding on to a man.", "cookie", "girl") == "restored"
    assert foil_fix(foiled, "A little child is holding on to a man.", "cookie", "girl") == "restored"  # more general
    assert foil_fix(foiled, "A little ice is holding on to a man.", "cookie", "girl") == "other"
    assert foil_fix(foiled, "A man.", "cookie", "girl") == "removed"
    assert foil_fix(foiled, foiled, "cookie", "girl") == "kept"
