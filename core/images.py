"""Clinical images in a consultation: which the doctor sees when, reading them, and how they
travel to a model and into the record.

The `--images` factor (`IMAGE_MODES`) decides when the doctor sees a case's images:
- `upfront` (the default): the images the case marks `given_upfront` come with the
  presentation; any others only on request;
- `on-request`: none at the start; the doctor must write `REQUEST IMAGES` (one turn).
The engine answers `REQUEST IMAGES` itself, as a `system` turn of kind `images` holding the
images' references: no agent answers it, so the patient and the examiner never see an
image (the examiner's view stays findings and results). A case without images ignores the
mode; its consultations record `case_images: 0` and group as `none`.

`load_images` reads a case's images (blocking: call it off the event loop): a `path` from
the case file's folder (never outside it), a `url` from the local cache
(`core.image_cache`; nothing is fetched at run time). Each becomes a `CaseImage` holding its
bytes, or the one-line reason it cannot be had. Only image files are accepted (PNG, JPEG,
GIF, WebP, told by their first bytes, at most `MAX_BYTES`).

Models receive an image as an OpenAI-style content part with a base64 data URL
(`image_part`); a stored raw request holds the image's sha256 instead (`redact_images`), so
the record does not grow by the image's size at every turn.
"""

from __future__ import annotations

import base64
import hashlib
import re
from dataclasses import dataclass, field
from typing import Any, Protocol

from core.case import Case, ImageRef


class ImageSource(Protocol):
    """Where URL images are read from (the local cache, `core.image_cache.ImageCache`)."""

    def read(self, url: str) -> tuple[bytes | None, str | None]:
        """(bytes, None) for a cached URL, else (None, the one-line reason)."""
        ...

UPFRONT, ON_REQUEST = "upfront", "on-request"
IMAGE_MODES = (UPFRONT, ON_REQUEST)
NO_IMAGES = "none"  # the images value of a consultation whose case has none
MAX_BYTES = 20 * 1024 * 1024  # what OpenAI accepts for one image
REQUEST_KEYWORD = "REQUEST IMAGES"
_MAGIC = ((b"\x89PNG\r\n\x1a\n", "image/png"), (b"\xff\xd8\xff", "image/jpeg"),
          (b"GIF87a", "image/gif"), (b"GIF89a", "image/gif"))
_DATA_URL = re.compile(r"^data:(image/[\w.+-]+);base64,(.*)$", re.S)


def media_type(data: bytes) -> str | None:
    """The image type of `data` from its first bytes, or None when it is no image we take."""
    for magic, kind in _MAGIC:
        if data.startswith(magic):
            return kind
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return "image/webp"
    return None


def shown_upfront(ref: ImageRef, mode: str) -> bool:
    """Whether an image comes with the presentation under `mode`."""
    return mode == UPFRONT and ref.given_upfront


@dataclass(frozen=True)
class CaseImage:
    """One image of a case as a consultation has it: what identifies it, and its bytes or
    why they cannot be had."""

    number: int  # 1-based, in the case's order
    name: str  # the file name shown with it
    description: str | None
    source: str  # the case's path or URL, as written
    upfront: bool  # shown with the presentation in this consultation
    data: bytes | None = field(default=None, repr=False)
    media_type: str | None = None
    sha256: str | None = None
    problem: str | None = None  # one line: why the bytes cannot be had

    @property
    def label(self) -> str:
        """'Image 1 (ecg.png): Rhythm strip, lead II' — how the image is named to a doctor."""
        caption = f": {self.description}" if self.description else ""
        return f"Image {self.number} ({self.name}){caption}"

    def reference(self) -> dict[str, Any]:
        """What a record keeps of the image (a turn's meta, a stored request): never bytes."""
        return {"number": self.number, "name": self.name, "description": self.description,
                "source": self.source, "sha256": self.sha256, "media_type": self.media_type,
                "bytes": len(self.data) if self.data is not None else None}

    def data_url(self) -> str:
        """The image as a base64 data URL (raises ValueError when it has no bytes)."""
        if self.data is None or self.media_type is None:
            raise ValueError(f"image {self.number} has no data: {self.problem}")
        return f"data:{self.media_type};base64,{base64.b64encode(self.data).decode('ascii')}"


def image_part(image: CaseImage) -> dict[str, Any]:
    """The OpenAI-style content part carrying the image (what litellm passes on)."""
    return {"type": "image_url", "image_url": {"url": image.data_url()}}


def image_parts(images: list[CaseImage] | tuple[CaseImage, ...]) -> list[dict[str, Any]]:
    """A text part naming each image, then the image itself."""
    parts: list[dict[str, Any]] = []
    for image in images:
        parts.append({"type": "text", "text": image.label})
        parts.append(image_part(image))
    return parts


def _read_file(case: Case, ref: ImageRef) -> tuple[bytes | None, str | None]:
    """(bytes, None) or (None, why) for an image file beside the case file."""
    folder = case.folder
    if folder is None:
        return None, (f"its file '{ref.path}' is relative to the case file, and this copy of "
                      "the case was not read from its file")
    root = folder.resolve()
    target = (root / str(ref.path)).resolve()
    if not target.is_relative_to(root):  # a link pointing out of the folder
        return None, f"'{ref.path}' leads outside the case's folder"
    try:
        size = target.stat().st_size
        if size > MAX_BYTES:
            return None, f"'{ref.path}' is larger than {MAX_BYTES // 2**20} MB"
        return target.read_bytes(), None
    except FileNotFoundError:
        return None, f"no file '{ref.path}' in {root}"
    except OSError as err:
        return None, f"cannot read '{ref.path}' ({err.strerror or err})"


def _read(case: Case, ref: ImageRef, cache: ImageSource | None) -> tuple[bytes | None, str]:
    """The bytes of one image (a file first, then the cached URL) or why not."""
    why = ""
    if ref.path:
        data, problem = _read_file(case, ref)
        if data is not None:
            return data, ""
        why = problem or ""
    if ref.url:
        if cache is None:
            return None, why or "no local image cache to look in"
        data, problem = cache.read(ref.url)
        if data is not None:
            return data, ""
        why = f"{why}; {problem}" if why else str(problem)
    return None, why


def load_images(case: Case, mode: str, cache: ImageSource | None) -> list[CaseImage]:
    """Every image of `case`, in order, with its bytes or the reason it cannot be had.
    Blocking (reads files): run it off the event loop."""
    out = []
    for number, ref in enumerate(case.images, start=1):
        data, why = _read(case, ref, cache)
        kind = media_type(data) if data is not None else None
        if data is not None and kind is None:
            data, why = None, "the file is not a PNG, JPEG, GIF or WebP image"
        out.append(CaseImage(
            number=number, name=ref.name, description=ref.description,
            source=ref.path or ref.url or "", upfront=shown_upfront(ref, mode), data=data,
            media_type=kind, sha256=hashlib.sha256(data).hexdigest() if data else None,
            problem=None if data is not None else f"image {number} of case {case.id} "
            f"({ref.url or ref.path}): {why}"))
    return out


def redact_images(messages: Any) -> Any:
    """`messages` with every base64 data URL of an image part replaced by the image's
    sha256 and size (`sha256:HEX`), for storing: the same image at every turn would
    otherwise be stored again and again. Text and everything else is kept as it is."""
    if isinstance(messages, list):
        return [redact_images(m) for m in messages]
    if not isinstance(messages, dict):
        return messages
    out = {k: redact_images(v) for k, v in messages.items()}
    url = out.get("url") if isinstance(out.get("url"), str) else None
    match = _DATA_URL.match(url) if url else None
    if match:
        try:
            data = base64.b64decode(match.group(2), validate=True)
        except ValueError:
            data = match.group(2).encode()
        out["url"] = f"sha256:{hashlib.sha256(data).hexdigest()}"
        out["media_type"], out["bytes"] = match.group(1), len(data)
    return out


def has_images(messages: Any) -> bool:
    """Whether any message carries an image part."""
    return any(isinstance(m, dict) and isinstance(m.get("content"), list)
               and any(isinstance(p, dict) and p.get("type") == "image_url"
                       for p in m["content"]) for m in messages or [])

