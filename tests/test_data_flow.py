"""Data in plain sight: the input side yields what it found (records with their file and line,
skipped records as items), records carry no marker keys, each record is checked once, and an
Explainer keeps no state of one batch into the next."""

from __future__ import annotations

import json
from pathlib import Path

import cece.api
import cece.pipeline
from cece.api import Explainer
from cece.inputs import open_inputs
from cece.pipeline import ExplainTask, Found, Skipped, batches, explain_inputs
from cece.records import RecordError
from parsers import CaptionParser

ROWS = [
    {"id": 1, "caption": "A dog on a sofa.", "annotation": ["dog", "sofa"]},
    {"id": 2, "caption": "A cat.", "annotation": "../outside.json"},
    {"id": 3, "caption": 7, "annotation": "../outside.json"},
    {"id": 4, "caption": "A cat on a bed.", "references": ["A dog on a bed.", "A dog sleeping on a bed."]},
    {"id": 5, "caption": "A red bus.", "annotation": ["bus"]},
]


def _input(tmp_path: Path) -> Path:
    folder = tmp_path / "in"
    folder.mkdir()
    src = folder / "captions.jsonl"
    src.write_text("".join(json.dumps(r) + "\n" for r in ROWS))
    return src


def test_inputs_yield_records_with_their_lines_and_skipped_items(tmp_path: Path):
    src = _input(tmp_path)
    found = list(explain_inputs(open_inputs([str(src)]), {(None, "5")}))
    assert [(type(f), f.line) for f in found] == [(Found, 1), (Found, 2), (Found, 3), (Found, 4), (Skipped, 5)]
    assert all(f.file == str(src) for f in found)
    good, refused, bad_caption, refs = (f.record for f in found[:4])
    assert good["id"] == 1 and refs["id"] == 4
    # A refused path is the record's error, not a key left on the record for a later check.
    assert isinstance(refused, RecordError) and refused.field == "annotation" and "leaves" in refused.message
    assert (refused.file, refused.line) == (str(src), 2)
    # Its own fields are reported first, as before.
    assert isinstance(bad_caption, RecordError) and bad_caption.field == "caption"
    assert not any("annotation_refused" in f.record for f in found[:4] if isinstance(f.record, dict))


def test_each_record_is_checked_once(tmp_path: Path, monkeypatch):
    """The pipeline checks; the explainer, told so, does not check again."""
    calls: list[object] = []
    for module, name in ((cece.pipeline, "check_own_fields"), (cece.api, "check_record")):
        real = getattr(module, name)

        def counted(record, index, _real=real):
            calls.append(record.get("id") if isinstance(record, dict) else record)
            return _real(record, index)

        monkeypatch.setattr(module, name, counted)
    src = _input(tmp_path)
    records = [f.record for f in explain_inputs(open_inputs([str(src)]), set())]
    task = ExplainTask(Explainer(), checked=True)
    results = [r for batch in batches(records, 2) for _, r in task(batch)]
    assert sorted(calls) == [1, 2, 3, 4, 5]
    assert [isinstance(r, RecordError) for r in results] == [False, True, True, False, False]
    # Unchecked records (the library's explain_many) are still checked, by the explainer.
    calls.clear()
    out = list(Explainer().explain_many([{"id": "x", "caption": "A dog."}]))
    assert calls == ["x"] and isinstance(out[0], RecordError) and out[0].field == "annotation"


def test_a_batch_leaves_no_state_behind():
    """The parser's memory of Docs is raised for a batch only; nothing of the batch is kept on
    the Explainer but the bounded reference caches."""
    parser = CaptionParser(batch_size=1)
    before = parser.doc_memory
    explainer = Explainer(parser=parser)
    keys = set(vars(explainer))
    batch = [
        (i, {"id": i, "caption": c, "references": ["A dog on a sofa.", "A man reads."]})
        for i, c in enumerate(["A cat on a sofa.", "A dog on a bed.", "A man reads a book."])
    ]
    results = explainer.explain_batch(batch)
    assert all(r.counterfactual is not None or r.counterfactual_note for r in results)
    assert parser.doc_memory == before
    assert set(vars(explainer)) == keys and "_batch_refs" not in keys
    # The same records, one batch or three, give the same rows.
    again = Explainer(parser=CaptionParser(batch_size=1))
    one_by_one = [again.explain_batch([pair])[0] for pair in batch]
    assert [r.to_dict() for r in results] == [r.to_dict() for r in one_by_one]
