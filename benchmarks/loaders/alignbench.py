"""AlignBench (``halcap_bench.jsonl`` of ``omron-sinicx/AlignBench``): one row per caption sentence.

Columns: ``model`` (the captioner), ``image_source``, ``image_name``, ``image_type``,
``sentence_index``, ``caption`` (the sentence), ``annotation`` (``correct`` / ``incorrect`` /
``unknown``), ``error_type``, ``error_words``, ``agreement_ratio``, ``fleiss_Pi``, ``n_correct``,
``n_incorrect``, ``n_unknown``, ``image_url``, ``image_path_in_repo``.

Rows are grouped into captions by (model, image_source, image_name, image_path_in_repo) and
ordered by ``sentence_index``; the caption is its sentences joined by single spaces, so each
sentence keeps exact char offsets. ``unknown`` sentences stay in the caption (the detector
reads the whole text) but are excluded from scoring. ``error_words`` (a list of strings, a JSON
list in a string, or one string) are located in their sentence, case-insensitively, left to
right; a word not found is counted in ``unlocated``. ``error_type`` is a string, a list of
strings, or empty.

Images, under a user-given root: generated images (a non-empty ``image_path_in_repo``) by that
path; COCO / CC12M images by file name (``image_name``) anywhere below the root.

Any other value is a :class:`DataError` naming file, line and field.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from itertools import pairwise
from numbers import Real
from typing import Any

from benchmarks.loaders.common import Checker, DataError, ImageRoot, Span, benchmark_records, is_missing

Sample = dict
LABELS = ("correct", "incorrect", "unknown")
NUMERIC = ("agreement_ratio", "fleiss_Pi", "n_correct", "n_incorrect", "n_unknown")


@dataclass
class GoldSentence:
    """One annotated sentence: char span in the caption, 0-based ``position`` in it, label."""

    start: int
    end: int
    position: int
    label: str
    error_types: list[str] = field(default_factory=list)
    error_spans: list[Span] = field(default_factory=list)


@dataclass
class AlignBenchGold:
    id: str
    caption: str
    model: str
    sentences: list[GoldSentence]
    unlocated: int = 0  # error words not found in their sentence


def _error_words(c: Checker, value: Any) -> list[str]:
    if is_missing(value):
        return []
    if isinstance(value, str):
        text = value.strip()
        if text.startswith("["):
            try:
                value = json.loads(text)
            except json.JSONDecodeError:
                c.fail("error_words", f"looks like a JSON list but does not parse: {text[:60]!r}")
        else:
            return [text]
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return [v for v in value if v.strip()]
    c.fail("error_words", f"expected a list of strings or a string, got {type(value).__name__}")
    return []


def _error_types(c: Checker, value: Any) -> list[str]:
    if is_missing(value):
        return []
    if isinstance(value, str):
        return [value.strip()]
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return [v.strip() for v in value if v.strip()]
    c.fail("error_type", f"expected a string or a list of strings, got {type(value).__name__}")
    return []


def _locate(sentence: str, words: list[str], offset: int) -> tuple[list[Span], int]:
    spans, missed, pos = [], 0, 0
    low = sentence.lower()
    for w in words:
        k = low.find(w.strip().lower(), pos)
        if k < 0:
            k = low.find(w.strip().lower())  # annotators do not always list words in order
        if k < 0:
            missed += 1
            continue
        spans.append((offset + k, offset + k + len(w.strip())))
        pos = k + len(w.strip())
    return sorted(spans), missed


def _row(path: str | os.PathLike, where: str, rec: Any) -> dict[str, Any]:
    c = Checker(path, where, rec)
    model = c.string("model")
    if not model.strip():
        c.fail("model", "empty")
    name = rec.get("image_name")
    if isinstance(name, bool) or not isinstance(name, (str, int)) or str(name).strip() == "":
        c.fail("image_name", "expected a non-empty string")
    index = rec.get("sentence_index")
    if isinstance(index, float) and index.is_integer():
        index = int(index)
    if isinstance(index, bool) or not isinstance(index, int) or index < 0:
        c.fail("sentence_index", f"expected a non-negative integer, got {index!r}")
    sentence = c.string("caption")
    label = rec.get("annotation")
    if not (isinstance(label, str) and label.strip().lower() in LABELS):
        c.fail("annotation", f"expected one of {', '.join(LABELS)}, got {label!r}")
    for key in NUMERIC:
        v = rec.get(key)
        if not (v is None or (isinstance(v, Real) and not isinstance(v, bool))):
            c.fail(key, f"expected a number or null, got {type(v).__name__}")
    for key in ("image_source", "image_type", "image_url", "image_path_in_repo"):
        if not (rec.get(key) is None or isinstance(rec.get(key), str) or is_missing(rec.get(key))):
            c.fail(key, f"expected a string or null, got {type(rec.get(key)).__name__}")
    repo_path, source = rec.get("image_path_in_repo"), rec.get("image_source")
    return {
        "model": model.strip(),
        "source": source.strip() if isinstance(source, str) else "",
        "name": str(name).strip(),
        "index": index,
        "sentence": sentence.strip(),
        "label": label.strip().lower(),
        "types": _error_types(c, rec.get("error_type")),
        "words": _error_words(c, rec.get("error_words")),
        "repo_path": repo_path.strip() if isinstance(repo_path, str) else "",
        "where": where,
    }


def load(
    path: str | os.PathLike, images: str | os.PathLike | None = None
) -> tuple[list[Sample], dict[str, AlignBenchGold]]:
    """Samples (one per caption) and gold sentences of an AlignBench JSONL file."""
    root = ImageRoot(images) if images else None
    groups: dict[tuple[str, str, str, str], list[dict[str, Any]]] = {}
    for where, rec in benchmark_records(path):
        row = _row(path, where, rec)
        groups.setdefault((row["model"], row["source"], row["name"], row["repo_path"]), []).append(row)
    if not groups:
        raise DataError(path, "-", "file", "no rows")
    samples: list[Sample] = []
    gold: dict[str, AlignBenchGold] = {}
    for (model, source, name, repo_path), rows in groups.items():
        rows.sort(key=lambda r: r["index"])
        for prev, row in pairwise(rows):
            if row["index"] == prev["index"]:
                raise DataError(
                    path,
                    row["where"],
                    "sentence_index",
                    f"sentence {row['index']} of {model}/{name} repeats ({prev['where']})",
                )
        caption, sentences, unlocated = "", [], 0
        for pos, row in enumerate(rows):
            start = len(caption) + (1 if caption else 0)
            caption = f"{caption} {row['sentence']}" if caption else row["sentence"]
            spans, missed = _locate(row["sentence"], row["words"], start)
            unlocated += missed
            sentences.append(GoldSentence(start, len(caption), pos, row["label"], row["types"], spans))
        rid = "/".join(p for p in (model, source, repo_path or name) if p)
        sample: Sample = {"id": rid, "caption": caption, "model": model}
        if root is not None:
            found = (
                root.path(repo_path, path, rows[0]["where"], "image_path_in_repo") if repo_path else root.by_name(name)
            )
            if found:
                sample["image"] = found
        samples.append(sample)
        gold[rid] = AlignBenchGold(rid, caption, model, sentences, unlocated)
    return samples, gold
