"""Images for chat requests, and what a judge sees of a sample: its image or its references.

OpenAI-compatible servers take images as ``image_url`` content parts; a local file is sent inline
as a base64 ``data:`` URL so that the server never needs access to our disk. http(s) URLs and
data URLs pass through unchanged.

>>> to_data_url(b"\\x89PNG\\r\\n\\x1a\\n" + b"0" * 8)[:30]
'data:image/png;base64,iVBORw0K'
"""

from __future__ import annotations

import base64
import mimetypes
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

_MAGIC = [(b"\x89PNG\r\n\x1a\n", "image/png"), (b"\xff\xd8\xff", "image/jpeg"), (b"GIF8", "image/gif"),
          (b"BM", "image/bmp")]


def sniff_mime(data: bytes, name: str = "") -> str:
    """The MIME type from the first bytes (PNG, JPEG, GIF, WebP, BMP), else from the file name."""
    for magic, mime in _MAGIC:
        if data.startswith(magic):
            return mime
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return "image/webp"
    guessed = mimetypes.guess_type(name)[0] if name else None
    return guessed if guessed and guessed.startswith("image/") else "application/octet-stream"


def to_data_url(image: str | bytes | os.PathLike, root: str | os.PathLike | None = None) -> str:
    """A URL a chat server accepts for ``image``: bytes and file paths become base64 data URLs
    (relative paths are looked up in ``root`` first, then the working directory)."""
    if isinstance(image, bytes):
        return f"data:{sniff_mime(image)};base64,{base64.b64encode(image).decode('ascii')}"
    text = os.fspath(image)
    if text.startswith(("data:", "http://", "https://")):
        return text
    path = Path(text).expanduser()
    if not path.is_absolute() and root is not None and (Path(root) / path).exists():
        path = Path(root) / path
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise FileNotFoundError(f"cannot read image {text!r}: {exc.strerror or exc}") from None
    return f"data:{sniff_mime(data, path.name)};base64,{base64.b64encode(data).decode('ascii')}"


@dataclass(frozen=True)
class Evidence:
    """What a judge is shown of the image: the image itself (``images``) or, for a text-only
    backend or a sample without an image, the reference captions as text (``preface``)."""

    images: tuple[str, ...] = ()
    preface: str = ""
    kind: str = "image"  # "image" | "references"


def sample_evidence(sample: dict[str, Any], backend: Any, *, image_root: str | None = None,
                    use_references: bool = True) -> Evidence:
    """The image when the sample has one and the backend sees images; else the references
    (if allowed); else a ``ValueError`` that says what is missing."""
    image = sample.get("image")
    if image and getattr(backend, "supports_images", False):
        return Evidence(images=(to_data_url(image, image_root),), kind="image")
    refs = sample.get("references")
    if use_references and refs:
        lines = "\n".join(f"- {r}" for r in refs)
        return Evidence(preface="You cannot see the image, but people who saw it described it "
                                f"like this:\n{lines}\n", kind="references")
    if image:
        raise ValueError(f"backend {getattr(backend, 'kind', backend)!r} cannot see images and the "
                         "sample has no references")
    raise ValueError("the sample has neither an 'image' nor 'references' to judge against")


def evidence_missing(sample: dict[str, Any], use_references: bool = True) -> str | None:
    """Why a judge cannot score this sample (no image and no usable references), or None."""
    if sample.get("image") or (use_references and sample.get("references")):
        return None
    return "needs an 'image' (or 'references'), which this sample lacks"
