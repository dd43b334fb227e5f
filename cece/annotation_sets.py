"""``--annotations FILE...``: records' ``image_id`` resolved against annotation files.

Each file is streamed once (:func:`parsers.annotation_files.read_annotation_file`), keeping only
the images the inputs ask for. Per image, the files' parts are put together: a Visual Genome
scene graph (or its split objects / relationships / attributes files, merged by ``object_id``)
else COCO instances make the ``annotation``; COCO / nocaps captions and ``{image id: [references]}``
files make the ``references`` (all of them, in file order). A record's own ``annotation`` or
``references`` wins over the files'. An image found in no file is that record's error, naming the
files searched.

>>> import io, json
>>> from parsers.annotation_files import read_annotation_file
>>> refs = read_annotation_file(io.BytesIO(b'{"7": ["A dog."]}'), None, "refs.json")
>>> sets = AnnotationSet([refs])
>>> sets.resolve({"id": 1, "caption": "A cat.", "image_id": "007"})["references"]
['A dog.']
>>> sets.resolve({"id": 2, "caption": "A cat.", "image_id": 8})
'8 is in none of the annotation files searched (refs.json)'
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from parsers.annotation_files import AnnotationFile, AnnotationsFileError, image_key, read_annotation_file

__all__ = ["AnnotationSet", "AnnotationsFileError"]


@dataclass
class AnnotationSet:
    files: list[AnnotationFile] = field(default_factory=list)

    @classmethod
    def load(cls, paths: Iterable[str], wanted: set[str] | None) -> AnnotationSet:
        """Read every file once, keeping the ``wanted`` image keys (all when None)."""
        return cls([read_annotation_file(p, wanted) for p in paths])

    def __bool__(self) -> bool:
        return bool(self.files)

    def sides(self, image: Any) -> dict[str, Any] | None:
        """``{"annotation": ..., "references": ...}`` (either may be None) of an image, or None
        when no file has it."""
        key = image_key(image)
        parts = [(f, f.by_image[key]) for f in self.files if key in f.by_image]
        if not parts:
            return None
        refs = [r for f, p in parts if f.side == "references" for r in p] or None
        return {"annotation": _annotation([(f.kind, p) for f, p in parts]), "references": refs}

    def resolve(self, rec: dict[str, Any]) -> dict[str, Any] | str:
        """``rec`` with its missing annotation / references filled from the files by its
        ``image_id``, or the message saying the image is in none of them."""
        if not self.files or rec.get("image_id") is None:
            return rec
        if not isinstance(rec["image_id"], (str, int)) or isinstance(rec["image_id"], bool):
            return f"expected a string or integer, got {type(rec['image_id']).__name__}"
        if rec.get("annotation") is not None and rec.get("references") is not None:
            return rec
        found = self.sides(rec["image_id"])
        if found is None:
            if rec.get("annotation") is not None or rec.get("references") is not None:
                return rec
            return (
                f"{rec['image_id']} is in none of the annotation files searched "
                f"({', '.join(f.path for f in self.files)})"
            )
        out = dict(rec)
        for side in ("annotation", "references"):
            if out.get(side) is None and found[side] is not None:
                out[side] = found[side]
        return out


def _annotation(parts: list[tuple[str, Any]]) -> dict[str, Any] | None:
    """One image's annotation from its files' parts: a VG scene graph, else the split VG files
    merged, else COCO instances (the first file of a kind wins)."""
    kinds: dict[str, Any] = {}
    for kind, part in parts:
        kinds.setdefault(kind, part)
    if "visual_genome" in kinds:
        whole: dict[str, Any] = kinds["visual_genome"]
        return whole
    if any(k in kinds for k in ("vg_objects", "vg_relationships", "vg_attributes")):
        objects = [dict(o) for o in kinds.get("vg_objects", []) if isinstance(o, dict)]
        by_id = {o.get("object_id", o.get("id")): o for o in objects}
        for a in kinds.get("vg_attributes", []):  # attributes.json lists objects with their attributes
            if not isinstance(a, dict):
                continue
            oid = a.get("object_id", a.get("id"))
            if oid in by_id:
                by_id[oid]["attributes"] = a.get("attributes") or []
            else:
                objects.append(a)
                by_id[oid] = a
        return {"objects": objects, "relationships": list(kinds.get("vg_relationships", []))}
    return kinds.get("coco_instances")
