"""DetailVerifyBench: long captions whose hallucinated words are wrapped in ``<HALLUCINATION>`` tags.

Three formats, told apart per record:

- **real** (``real_test.jsonl``): ``filename``, ``category``, ``Modify``, ``GT_description``,
  ``description_tag`` (tags in upper or mixed case), ``hallucination_labels``
  (``[{"text", "labels": [type, ...]}]``). Sample id = ``filename``; image =
  ``IMAGES/category/filename`` (else found by name).
- **synthetic** (``synthetic_test.jsonl``): ``id``, ``image_path``, ``original_description``,
  ``description_tag``, ``category``, ``hallucination_labels`` (injection edits
  ``{"final_replacement", "attribute_type", "applied", ...}``). Sample id = the image file name.
- **website** (``data/examples/examples.json`` of the project page): a JSON list of
  ``{"filename", "category", "image", "natural": {...}, "injected": {"adversarial", "tldr",
  "halloc"}}``, each variant with ``description_tag`` and ``hallucination_labels``. Samples
  ``real/NAME`` (natural), ``synthetic/NAME`` (adversarial), ``tldr/NAME``, ``halloc/NAME``.

The caption is the tagged text without its tags; gold spans are the tagged stretches, each with
its type. :attr:`DVBGold.label_records` keeps the ``hallucination_labels`` as the benchmark's
own pipeline hands them to its metric script (synthetic edits become ``{"text":
final_replacement, "labels": [attribute_type]}`` for applied edits, as its converter does), so
that the ``official`` mode can reproduce that script exactly.

>>> parse_tagged("A <Hallucination>red</Hallucination> car.")
('A red car.', [(2, 5)])
>>> tag_phrases("A red car and a red hat.", [" red ", "RED"])
'A <HALLUCINATION>red</HALLUCINATION> car and a <HALLUCINATION>red</HALLUCINATION> hat.'
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from benchmarks.loaders.common import Checker, DataError, ImageRoot, benchmark_records

Sample = dict
OPEN, CLOSE = "<HALLUCINATION>", "</HALLUCINATION>"
_TAG = re.compile(r"</?hallucination>", re.IGNORECASE)
WEBSITE_SPLITS = (
    ("real", ("natural",)),
    ("synthetic", ("injected", "adversarial")),
    ("tldr", ("injected", "tldr")),
    ("halloc", ("injected", "halloc")),
)


@dataclass
class DVBGold:
    id: str
    split: str
    caption: str
    tagged: str  # the caption with upper-case tags, what the official script reads
    spans: list[tuple[int, int, str]] = field(default_factory=list)  # (start, end, type)
    label_records: list[dict[str, Any]] | None = None


def parse_tagged(text: str) -> tuple[str, list[tuple[int, int]]]:
    """The text without tags (any case) and the tagged stretches' char spans in it; a nested,
    unclosed or unopened tag is a ValueError."""
    clean: list[str] = []
    spans: list[tuple[int, int]] = []
    pos, start, length = 0, None, 0
    for m in _TAG.finditer(text):
        piece = text[pos : m.start()]
        clean.append(piece)
        length += len(piece)
        closing = m.group().startswith("</")
        if closing == (start is None):
            raise ValueError(
                f"{'closing' if closing else 'nested'} tag at char {m.start()} without "
                f"{'an opening' if closing else 'closing the previous'} one"
            )
        if start is not None and closing:
            spans.append((start, length))
            start = None
        else:
            start = length
        pos = m.end()
    if start is not None:
        raise ValueError("a tag is never closed")
    clean.append(text[pos:])
    return "".join(clean), spans


def to_tagged(caption: str, spans: list[tuple[int, int]]) -> str:
    """``caption`` with each (merged) span wrapped in upper-case tags."""
    out, pos = [], 0
    for a, b in merge(spans):
        out += [caption[pos:a], OPEN, caption[a:b], CLOSE]
        pos = b
    return "".join(out + [caption[pos:]])


def merge(spans: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Sorted union of char spans (touching spans join); empty spans are dropped."""
    out: list[list[int]] = []
    for a, b in sorted((a, b) for a, b, *_ in spans if b > a):
        if out and a <= out[-1][1]:
            out[-1][1] = max(out[-1][1], b)
        else:
            out.append([a, b])
    return [(a, b) for a, b in out]


def _key(text: str) -> str:
    # The benchmark matches a tag to its label by lower-cased, punctuation-free text.
    return re.sub(r"[^\w\s]", "", text.strip().lower())


def _types(caption: str, spans: list[tuple[int, int]], records: list[dict[str, Any]] | None) -> list[str]:
    """Each tagged stretch's type: the first unused label record with the same text."""
    pool: dict[str, list[dict[str, Any]]] = {}
    for r in records or []:
        pool.setdefault(_key(str(r.get("text", ""))), []).append(r)
    out = []
    for a, b in spans:
        found = pool.get(_key(caption[a:b]))
        r = found.pop(0) if found else {}
        labels = r.get("labels")
        out.append(
            str(labels[0])
            if isinstance(labels, list) and labels
            else str(r.get("label") or r.get("attribute_type") or "Unknown")
        )
    return out


def _gold(
    c: Checker, rid: str, split: str, tagged: str, field_name: str, records: list[dict[str, Any]] | None
) -> DVBGold:
    try:
        caption, spans = parse_tagged(tagged)
    except ValueError as exc:
        c.fail(field_name, str(exc))
    # The benchmark's converter upper-cases "<Hallucination>" tags; any case is accepted here.
    upper = _TAG.sub(lambda m: CLOSE if m.group().startswith("</") else OPEN, tagged)
    typed = [(a, b, t) for (a, b), t in zip(spans, _types(caption, spans, records), strict=True)]
    return DVBGold(rid, split, caption, upper, typed, records)


def _labels(c: Checker, key: str, value: Any) -> list[dict[str, Any]]:
    if value is None:
        return []
    if not (isinstance(value, list) and all(isinstance(v, dict) for v in value)):
        c.fail(key, "expected a list of objects")
    return value


def _real(c: Checker, root: ImageRoot | None) -> tuple[Sample, DVBGold]:
    name, category = c.string("filename"), c.string("category")
    if c.record.get("Modify", "Yes") not in ("Yes", "No"):
        c.fail("Modify", f'expected "Yes" or "No", got {c.record.get("Modify")!r}')
    records = _labels(c, "hallucination_labels", c.record.get("hallucination_labels"))
    for r in records:
        if not isinstance(r.get("text"), str) or not isinstance(r.get("labels", []), list):
            c.fail("hallucination_labels", 'expected {"text": ..., "labels": [...]} items')
    gold = _gold(c, name, "real", c.string("description_tag"), "description_tag", records)
    if not records:  # the benchmark's converter then takes the tagged texts, without types
        gold.label_records = [{"text": gold.caption[a:b], "labels": []} for a, b, _ in gold.spans]
    image = (root.path(f"{category}/{name}", c.file, c.where, "filename") or root.by_name(name)) if root else None
    return _sample(gold, image), gold


def _synthetic(c: Checker, root: ImageRoot | None) -> tuple[Sample, DVBGold]:
    image_path = c.string("image_path")
    name = Path(image_path).name or str(c.record.get("id"))
    edits = _labels(c, "hallucination_labels", c.record.get("hallucination_labels"))
    records = [
        {"text": e["final_replacement"], "labels": [e["attribute_type"]] if e.get("attribute_type") else []}
        for e in edits
        if e.get("applied", False) and e.get("final_replacement")
    ]
    gold = _gold(c, name, "synthetic", c.string("description_tag"), "description_tag", records)
    image = (root.path(image_path, c.file, c.where, "image_path") or root.by_name(name)) if root else None
    return _sample(gold, image), gold


def _website(c: Checker, root: ImageRoot | None) -> list[tuple[Sample, DVBGold]]:
    name = c.string("filename")
    rel = c.string("image", optional=True)
    image = ((rel and root.path(rel, c.file, c.where, "image")) or root.by_name(name)) if root else None
    out = []
    for split, keys in WEBSITE_SPLITS:
        variant: Any = c.record
        for k in keys:
            variant = variant.get(k) if isinstance(variant, dict) else None
        if variant is None:
            continue
        where = ".".join(keys)
        if not isinstance(variant, dict) or not isinstance(variant.get("description_tag"), str):
            c.fail(f"{where}.description_tag", "expected a string")
        records = _labels(c, f"{where}.hallucination_labels", variant.get("hallucination_labels"))
        gold = _gold(c, f"{split}/{name}", split, variant["description_tag"], f"{where}.description_tag", records)
        out.append((_sample(gold, image), gold))
    return out


def _sample(gold: DVBGold, image: str | None) -> Sample:
    sample: Sample = {"id": gold.id, "caption": gold.caption}
    if image:
        sample["image"] = image
    return sample


def load(path: str | os.PathLike, images: str | os.PathLike | None = None) -> tuple[list[Sample], dict[str, DVBGold]]:
    """Samples and gold of a DetailVerifyBench file in any of the three formats."""
    root = ImageRoot(images) if images else None
    samples: list[Sample] = []
    gold: dict[str, DVBGold] = {}
    for where, rec in benchmark_records(path):
        c = Checker(path, where, rec)
        if "natural" in rec or "injected" in rec:
            pairs = _website(c, root)
        elif "filename" in rec:
            pairs = [_real(c, root)]
        elif "image_path" in rec:
            pairs = [_synthetic(c, root)]
        else:
            c.fail(
                "record", "neither the real (filename), synthetic (image_path) nor website (natural/injected) format"
            )
        for sample, g in pairs:
            if g.id in gold:
                c.fail("filename", f"duplicate id {g.id!r}")
            samples.append(sample)
            gold[g.id] = g
    if not samples:
        raise DataError(path, "-", "file", "no records")
    return samples, gold


def tag_phrases(caption: str, phrases: list[str]) -> str:
    """The project page's reading of a model's answer (a list of hallucinated phrases): every
    case-insensitive occurrence of each trimmed phrase is tagged."""
    low, spans = caption.lower(), []
    for key in dict.fromkeys(p.strip().lower() for p in phrases if p and p.strip()):
        k = low.find(key)
        while k >= 0:
            spans.append((k, k + len(key)))
            k = low.find(key, k + 1)
    return to_tagged(caption, spans)


def website_predictions(path: str | os.PathLike) -> dict[str, dict[str, str]]:
    """``{model: {sample id: tagged caption}}`` from the project page's
    ``detection_results.json`` (per example and split: ``gt_tagged`` and each model's phrases)."""
    out: dict[str, dict[str, str]] = {}
    for where, rec in benchmark_records(path):
        c = Checker(path, where, rec)
        name = c.string("filename")
        for split in ("real", "synthetic", "tldr", "halloc"):
            part = rec.get(split)
            if part is None:
                continue
            if not (
                isinstance(part, dict)
                and isinstance(part.get("gt_tagged"), str)
                and isinstance(part.get("models"), dict)
            ):
                c.fail(split, 'expected {"gt_tagged": ..., "models": {...}}')
            caption, _ = parse_tagged(part["gt_tagged"])
            for model, phrases in part["models"].items():
                if not (isinstance(phrases, list) and all(isinstance(p, str) for p in phrases)):
                    c.fail(f"{split}.models.{model}", "expected a list of strings")
                out.setdefault(model, {})[f"{split}/{name}"] = tag_phrases(caption, phrases)
    return out


def read_tagged_predictions(path: str | os.PathLike) -> dict[str, str]:
    """``{id: tagged caption}`` from the benchmark's own inference output: records
    ``{"id", "hallucinated_caption_with_tags"}`` or ``{"data": {...}}`` (JSON list or JSONL)."""
    out: dict[str, str] = {}
    for where, rec in benchmark_records(path):
        item = rec.get("data") if isinstance(rec, dict) and isinstance(rec.get("data"), dict) else rec
        c = Checker(path, where, item)
        if not isinstance(item, dict) or item.get("id") is None:
            continue  # the script skips such records too
        out[str(item["id"])] = c.string("hallucinated_caption_with_tags")
    return out
