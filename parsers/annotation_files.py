"""Annotation files read as streams (ijson): only the images a run asks for are kept, so memory
does not grow with the file, and each file is read once.

A file is one of these shapes (recognised from its first element or its top-level keys):

- ``visual_genome``: Visual Genome ``scene_graphs.json``, a list of ``{image_id, objects, relationships}``;
- ``vg_objects`` / ``vg_relationships`` / ``vg_attributes``: Visual Genome's split files, lists of
  ``{image_id (or id), objects | relationships | attributes}`` (merged per image by the caller);
- ``coco_instances``: ``{images, annotations: [{image_id, category_id}], categories}``;
- ``coco_captions``: ``{images, annotations: [{image_id, caption}]}`` (COCO captions, nocaps);
- ``references``: ``{image id: [reference captions]}``.

Image ids are compared as text, an integer-looking one without leading zeros (:func:`image_key`),
so ``16903``, ``"16903"`` and ``"016903"`` are one image.

>>> import io, json
>>> f = io.BytesIO(json.dumps([{"image_id": 7, "objects": [], "relationships": []},
...                            {"image_id": 8, "objects": [], "relationships": []}]).encode())
>>> got = read_annotation_file(f, {"8"}, "sg.json")
>>> got.kind, sorted(got.by_image)
('visual_genome', ['8'])
"""

from __future__ import annotations

import io
import re
from collections.abc import Callable, Container
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

import ijson

CHUNK = 1 << 20
_COCO_KEYS = {"info", "licenses", "images", "annotations", "categories", "type"}
#: The shapes, as named in errors about a file that is none of them.
EXPECTED = (
    "a list of Visual Genome records {image_id, objects, relationships} (scene_graphs.json) "
    "or of {image_id, objects | relationships | attributes} (objects.json, relationships.json, "
    "attributes.json); COCO instances {images, annotations: [{image_id, category_id}], categories}; "
    "COCO or nocaps captions {images, annotations: [{image_id, caption}]}; or {image id: [reference captions]}"
)
_SPLIT = {"objects": "vg_objects", "relationships": "vg_relationships", "attributes": "vg_attributes"}


class AnnotationsFileError(ValueError):
    """An annotations file that cannot be read, or whose shape is none of the known ones."""


def image_key(value: Any) -> str:
    """The text an image id is compared by.

    >>> [image_key(v) for v in (16903, "16903", "016903", " a1 ")]
    ['16903', '16903', '16903', 'a1']
    """
    text = str(value).strip()
    return str(int(text)) if text.isdigit() else text


@dataclass
class AnnotationFile:
    """What one file holds on the wanted images: ``by_image`` maps an image key to its part
    (a VG record or split-file entry, COCO instances ``{"annotations", "categories"}``, or a list of
    reference captions); ``seen`` counts the images the file lists (wanted or not)."""

    path: str
    kind: str
    by_image: dict[str, Any] = field(default_factory=dict)
    seen: int = 0

    @property
    def side(self) -> str:
        """Which side of a record the file fills: ``references`` or ``annotation``."""
        return "references" if self.kind in ("coco_captions", "references") else "annotation"


def read_annotation_file(
    source: str | Path | IO[bytes], wanted: Container[str] | None, name: str | None = None
) -> AnnotationFile:
    """Stream one annotations file, keeping the images whose key is in ``wanted`` (all when None).
    Raises :class:`AnnotationsFileError` naming the file for one that cannot be read or is of
    none of the known shapes (the message lists them)."""
    if isinstance(source, (str, Path)):
        try:
            with open(source, "rb") as f:
                return read_annotation_file(f, wanted, name or str(source))
        except OSError as exc:
            raise AnnotationsFileError(f"{name or source}: cannot read: {exc.strerror}") from None
    name = name or str(getattr(source, "name", "<annotations>"))
    head = source.read(CHUNK)
    if head.startswith(b"\xef\xbb\xbf"):
        head = head[3:]
    start = head.lstrip()[:1]
    try:
        if start == b"[":
            reader: _Reader = _ListReader(name, wanted)
        elif start == b"{":
            reader = _coco_or_references(head, name, wanted, complete=len(head) < CHUNK)
        else:
            raise AnnotationsFileError(f"{name}: not an annotations file: expected {EXPECTED}")
        chunk = head
        while chunk:
            reader.feed(chunk)
            chunk = source.read(CHUNK)
        return reader.finish()
    except ijson.JSONError as exc:
        raise AnnotationsFileError(f"{name}: cannot read as JSON: {exc}") from None


class _Reader:
    def __init__(self, name: str, wanted: Container[str] | None) -> None:
        self.name, self.wanted = name, wanted
        self.file = AnnotationFile(name, "")
        self.coros: list[Any] = []

    def want(self, image: Any) -> str | None:
        key = image_key(image)
        return key if self.wanted is None or key in self.wanted else None

    def feed(self, chunk: bytes) -> None:
        for coro in self.coros:
            coro.send(chunk)

    def finish(self) -> AnnotationFile:
        for coro in self.coros:
            coro.close()
        return self.file

    def unknown(self, what: str) -> AnnotationsFileError:
        return AnnotationsFileError(f"{self.name}: not an annotations file ({what}): expected {EXPECTED}")


class _Sink:
    """An ijson push target: calls ``fn`` on each item as the parser finishes it."""

    def __init__(self, fn: Callable[[Any], None]) -> None:
        self.send = fn


class _ListReader(_Reader):
    """A top-level list: Visual Genome scene graphs or one of its split files."""

    def __init__(self, name: str, wanted: Container[str] | None) -> None:
        super().__init__(name, wanted)
        self.coros = [ijson.items_coro(_Sink(self.item), "item", use_float=True)]

    def item(self, rec: Any) -> None:
        if not isinstance(rec, dict):
            raise self.unknown(f"item {self.file.seen + 1} is a {type(rec).__name__}, not an object")
        kind = self.file.kind or self._kind(rec)
        image = rec.get("image_id", rec.get("id")) if kind != "visual_genome" else rec.get("image_id")
        if image is None:
            raise self.unknown(f"item {self.file.seen + 1} has no image_id")
        self.file.seen += 1
        key = self.want(image)
        if key is not None:
            if kind == "visual_genome":
                self.file.by_image[key] = rec
            else:  # split files: keep only the part named by the kind, merged per image by the caller
                part = kind.split("_")[1]
                self.file.by_image.setdefault(key, []).extend(rec.get(part) or [])

    def _kind(self, rec: dict[str, Any]) -> str:
        if "image_id" in rec and ("objects" in rec and "relationships" in rec):
            self.file.kind = "visual_genome"
        else:
            parts = [k for k in _SPLIT if k in rec]
            if len(parts) != 1 or ("image_id" not in rec and "id" not in rec):
                raise self.unknown(f"its first item has the keys {sorted(rec)[:8]}")
            self.file.kind = _SPLIT[parts[0]]
        return self.file.kind


def _coco_or_references(head: bytes, name: str, wanted: Container[str] | None, complete: bool) -> _Reader:
    """Tell a COCO file from ``{image id: [references]}`` by the keys in the file's first chunk
    (``complete``: the chunk is the whole file, so a parse error in it is the file's)."""
    keys: list[str] = []
    first_value = None
    try:
        for prefix, event, value in ijson.parse(io.BytesIO(head)):
            if prefix == "" and event == "map_key":
                keys.append(value)
            elif first_value is None and keys and prefix == keys[0]:
                first_value = event
            if len(keys) >= 2 or (keys and keys[0] in _COCO_KEYS):
                break
    except ijson.JSONError as exc:
        if complete or not keys:  # else the head ends mid-file, and what it showed is enough
            raise AnnotationsFileError(f"{name}: cannot read as JSON: {exc}") from None
    if not keys and head.strip() == b"{}":
        return _ReferencesReader(name, wanted)
    if any(k in _COCO_KEYS for k in keys):
        return _CocoReader(name, wanted)
    if keys and first_value == "start_array":
        return _ReferencesReader(name, wanted)
    raise AnnotationsFileError(f"{name}: not an annotations file (top-level keys {keys[:5]}): expected {EXPECTED}")


class _ReferencesReader(_Reader):
    def __init__(self, name: str, wanted: Container[str] | None) -> None:
        super().__init__(name, wanted)
        self.file.kind = "references"
        self.coros = [ijson.kvitems_coro(_Sink(self.pair), "", use_float=True)]

    def pair(self, kv: tuple[str, Any]) -> None:
        image, refs = kv
        if not (isinstance(refs, list) and all(isinstance(r, str) for r in refs)):
            raise self.unknown(f"the value of {image!r} is not a list of reference captions")
        self.file.seen += 1
        key = self.want(image)
        if key is not None:
            self.file.by_image.setdefault(key, []).extend(refs)


class _CocoReader(_Reader):
    """COCO instances or captions (nocaps too): annotations, images and categories, each a stream."""

    def __init__(self, name: str, wanted: Container[str] | None) -> None:
        super().__init__(name, wanted)
        self.anns: dict[str, list[dict[str, Any]]] = {}
        self.images: set[str] = set()
        self.categories: list[dict[str, Any]] = []
        self.captions = self.instances = 0
        self.coros = [
            ijson.items_coro(_Sink(self.annotation), "annotations.item", use_float=True),
            ijson.items_coro(_Sink(self.image), "images.item", use_float=True),
            ijson.items_coro(_Sink(self.categories.append), "categories.item", use_float=True),
        ]

    def annotation(self, ann: Any) -> None:
        if not isinstance(ann, dict) or "image_id" not in ann:
            raise self.unknown("an element of 'annotations' has no image_id")
        if isinstance(ann.get("caption"), str):
            self.captions += 1
        elif "category_id" in ann:
            self.instances += 1
        else:
            raise self.unknown("an element of 'annotations' has neither caption nor category_id")
        key = self.want(ann["image_id"])
        if key is not None:  # segmentation polygons and boxes are not kept: only what names the object
            self.anns.setdefault(key, []).append({k: ann[k] for k in ("id", "category_id", "caption") if k in ann})

    def image(self, img: Any) -> None:
        if isinstance(img, dict) and "id" in img:
            key = self.want(img["id"])
            if key is not None:
                self.images.add(key)

    def finish(self) -> AnnotationFile:
        super().finish()
        if self.captions and self.instances:
            raise self.unknown("'annotations' mixes captions and instances")
        f = self.file
        f.seen = len(self.images)
        if self.captions:
            f.kind = "coco_captions"
            f.by_image = {k: [a["caption"] for a in v] for k, v in self.anns.items()}
            return f
        f.kind = "coco_instances"
        names = {c.get("id"): c for c in self.categories if isinstance(c, dict)}
        for anns in self.anns.values():
            for a in anns:
                if a["category_id"] not in names:
                    raise self.unknown(f"category_id {a['category_id']!r} is not in 'categories'")
        # Images listed without any instance are known to hold none of the categories.
        for k in self.images | set(self.anns):
            anns = self.anns.get(k, [])
            used = {a["category_id"] for a in anns}
            f.by_image[k] = {"annotations": anns, "categories": [names[c] for c in names if c in used]}
        return f


_DIGITS = re.compile(r"(\d+)(?!.*\d)")


def image_id_from_path(path: str) -> str | None:
    """The image id in an image file name, as COCO and Visual Genome name their files.

    >>> image_id_from_path("val2014/COCO_val2014_000000016903.jpg"), image_id_from_path("2345.jpg")
    ('16903', '2345')
    """
    m = _DIGITS.search(Path(path).stem)
    return image_key(m.group(1)) if m else None
