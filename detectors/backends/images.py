"""Images for chat requests, and what a judge sees of a sample: its image or its references.

OpenAI-compatible servers take images as ``image_url`` content parts; a local file is sent inline
as a base64 ``data:`` URL so that the server never needs access to our disk; data URLs only when
they declare an image type. A sample's http(s) URL would make the server fetch whatever it names
(an internal address, a page that is no image), so it is refused unless the user allows it
(``allow_urls``: ``cece detect --allow-image-urls`` or option ``NAME.allow_urls=true``), and even
then only when its path names a PNG, JPEG, GIF, WebP or BMP file and it carries no credentials.

A sample's image path is untrusted input: :func:`load_image` resolves it inside an image root
(symlinks followed) and refuses, without opening it, anything that lands outside -- ``..``, an
absolute path elsewhere, a symlink out -- as well as anything that is not a regular file. Only
PNG, JPEG, GIF, WebP and BMP files are sent, recognised by their first bytes, not their names.

>>> to_data_url(b"\\x89PNG\\r\\n\\x1a\\n" + b"0" * 8)[:30]
'data:image/png;base64,iVBORw0K'
>>> checked_image_url("https://example.org/a/dog.jpg?size=2", allow_urls=True)
'https://example.org/a/dog.jpg?size=2'
>>> load_image("../../../../etc/passwd", "/tmp")
Traceback (most recent call last):
...
detectors.backends.images.ImageError: image '../../../../etc/passwd' is outside the image root /tmp
"""

from __future__ import annotations

import base64
import binascii
import os
import stat
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

IMAGE_TYPES = ("image/png", "image/jpeg", "image/gif", "image/webp", "image/bmp")
IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".jpe", ".gif", ".webp", ".bmp")
MAX_IMAGE_BYTES = 50 * 2**20  # a bigger "image" is a mistake (or a device) and too big to send
_MAGIC = [
    (b"\x89PNG\r\n\x1a\n", "image/png"),
    (b"\xff\xd8\xff", "image/jpeg"),
    (b"GIF8", "image/gif"),
    (b"BM", "image/bmp"),
]


class ImageError(ValueError):
    """An image that may not or cannot be sent: outside the root, not an image, unreadable."""


def sniff_mime(data: bytes) -> str | None:
    """The image type from the first bytes (PNG, JPEG, GIF, WebP, BMP), else None.

    >>> sniff_mime(b"GIF89a..."), sniff_mime(b"root:x:0:0:root")
    ('image/gif', None)
    """
    for magic, mime in _MAGIC:
        if data.startswith(magic):
            return mime
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return "image/webp"
    return None


def confine(path: str | os.PathLike, root: str | os.PathLike) -> Path:
    """``path`` resolved inside ``root``; an :class:`ImageError` when it resolves anywhere else.
    Nothing is opened."""
    base = Path(root).resolve()
    target = (base / os.fspath(path)).resolve()  # an absolute path replaces the base
    if not target.is_relative_to(base):
        raise ImageError(f"image {os.fspath(path)!r} is outside the image root {base}")
    return target


def load_image(path: str | os.PathLike, root: str | os.PathLike | None) -> str:
    """The data URL of the image file at ``path`` below ``root`` (see the module docstring).
    ``root=None`` is for paths the calling code chose itself, never for a sample's: the file is
    then read wherever it is, still only if it is an image."""
    target = confine(path, root) if root is not None else Path(path).resolve()
    name = os.fspath(path)
    try:
        info = target.stat()
        if not stat.S_ISREG(info.st_mode):
            raise ImageError(f"image {name!r} is not a regular file")
        if info.st_size > MAX_IMAGE_BYTES:
            raise ImageError(f"image {name!r} is larger than {MAX_IMAGE_BYTES // 2**20} MB")
        with target.open("rb") as f:
            head = f.read(16)
            mime = sniff_mime(head)
            if mime is None:  # checked before the rest is read: a text file is never sent
                raise ImageError(f"{name!r} is not a PNG, JPEG, GIF, WebP or BMP image")
            data = head + f.read()
    except OSError as exc:
        raise ImageError(f"cannot read image {name!r}: {exc.strerror or exc}") from None
    return f"data:{mime};base64,{base64.b64encode(data).decode('ascii')}"


def checked_data_url(url: str) -> str:
    """``url`` when it is a data URL of an image type (declared and, for base64, sniffed)."""
    header, _, data = url.partition(",")
    mime = header[5:].split(";")[0].strip().lower()
    if mime not in IMAGE_TYPES:
        raise ImageError(f"a data URL of type {mime or 'unknown'!r} is not an image")
    if header.endswith(";base64"):
        try:
            head = base64.b64decode(data[:24] + "=" * (-len(data[:24]) % 4))
        except (binascii.Error, ValueError):
            raise ImageError("a data URL whose base64 is broken") from None
        if sniff_mime(head) is None:
            raise ImageError(f"a data URL that says {mime} but holds no image")
    return url


def checked_image_url(url: str, allow_urls: bool) -> str:
    """``url`` (http or https) when web images are allowed, it names an image file by its
    path's suffix and carries no user or password; else an :class:`ImageError` saying why."""
    parts = urlsplit(url)
    shown = (
        url
        if not (parts.username or parts.password)
        else parts._replace(netloc="***@" + parts.netloc.rpartition("@")[2]).geturl()
    )
    if not allow_urls:
        raise ImageError(
            f"image {shown!r} is a web address, which the model server would fetch: refused "
            "unless allowed (cece detect --allow-image-urls, or option NAME.allow_urls=true)"
        )
    if parts.username or parts.password:
        raise ImageError(f"image URL {shown!r} carries credentials: refused")
    if not parts.path.lower().endswith(IMAGE_SUFFIXES):
        raise ImageError(
            f"image URL {shown!r} does not name a PNG, JPEG, GIF, WebP or BMP file "
            f"(its path must end in {', '.join(IMAGE_SUFFIXES)})"
        )
    return url


def to_data_url(image: str | bytes | os.PathLike, root: str | os.PathLike | None = None) -> str:
    """A URL a chat server accepts for ``image``: image bytes and image files (confined to
    ``root`` when given, see :func:`load_image`) become base64 data URLs; http(s) URLs pass
    through."""
    if isinstance(image, bytes):
        mime = sniff_mime(image)
        if mime is None:
            raise ImageError("bytes that are not a PNG, JPEG, GIF, WebP or BMP image")
        return f"data:{mime};base64,{base64.b64encode(image).decode('ascii')}"
    text = os.fspath(image)
    if text.startswith(("http://", "https://")):
        return text
    if text.startswith("data:"):
        return checked_data_url(text)
    return load_image(text, root)


@dataclass(frozen=True)
class Evidence:
    """What a judge is shown of the image: the image itself (``images``) or, for a text-only
    backend or a sample without an image, the reference captions as text (``preface``)."""

    images: tuple[str, ...] = ()
    preface: str = ""
    kind: str = "image"  # "image" | "references"


def sample_evidence(
    sample: dict[str, Any],
    backend: Any,
    *,
    image_root: str | os.PathLike | None = None,
    use_references: bool = True,
    allow_urls: bool = False,
    images: str = "auto",
) -> Evidence:
    """The image when the sample has one and the backend sees images (a path must lie inside
    ``image_root``, default the working directory; an http(s) URL needs ``allow_urls``, see
    :func:`checked_image_url`); else the references (if allowed); else a ``ValueError`` that
    says what is missing. A refused image is an :class:`ImageError`, never a silent fall-back
    to the references. ``images="never"``: the references even when the image could be sent."""
    image = sample.get("image")
    if image and images != "never" and getattr(backend, "supports_images", False):
        if not isinstance(image, str):
            raise ImageError(f"'image' must be a path or URL string, not {type(image).__name__}")
        if image.lower().startswith(("http://", "https://")):
            return Evidence(images=(checked_image_url(image, allow_urls),), kind="image")
        root = image_root if image_root is not None else os.getcwd()
        return Evidence(images=(to_data_url(image, root),), kind="image")
    refs = sample.get("references")
    if use_references and refs:
        lines = "\n".join(f"- {r}" for r in refs)
        return Evidence(
            preface=f"You cannot see the image, but people who saw it described it like this:\n{lines}\n",
            kind="references",
        )
    if image:
        why = (
            "images are not sent (images=never)"
            if images == "never"
            else f"backend {getattr(backend, 'kind', backend)!r} cannot see images"
        )
        raise ValueError(f"{why} and the sample has no references")
    raise ValueError("the sample has neither an 'image' nor 'references' to judge against")


def evidence_missing(sample: dict[str, Any], use_references: bool = True) -> str | None:
    """Why a judge cannot score this sample (no image and no usable references), or None."""
    if sample.get("image") or (use_references and sample.get("references")):
        return None
    return "needs an 'image' (or 'references'), which this sample lacks"
