"""The local image cache: case images fetched from the web, stored once by their content.

Layout under `$BEDSIDE_HOME/images/` (`default_cache`):
- `sha256/<hex>.<ext>`: an image's bytes, named by their sha256 (content-addressed: a
  picture reached by two URLs is stored once, and a stored request's `sha256:` reference
  names its file);
- `urls/<sha256 of the URL>.json`: which content a URL gave, its type, size and when.
Each file is written to a temporary name and renamed into place, so a reader never sees
half a file and two fetches at once cannot leave a broken one.

`fetch_images` fetches every URL image of the given cases that is not cached yet (`bedside
cases fetch-images`, or `bedside cases import … --fetch-images`): http and https only, a
time limit per image, at most `core.images.MAX_BYTES`, and only PNG, JPEG, GIF or WebP
content is kept. Each failure is one line naming the case, the URL and why. Runs never
fetch: a consultation whose image is not cached says so (`core.images.load_images`).
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
import urllib.error
import urllib.request
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

from core.case import Case
from core.home import bedside_home
from core.images import MAX_BYTES, media_type
from core.transcript import utc_now

_EXT = {"image/png": ".png", "image/jpeg": ".jpg", "image/gif": ".gif", "image/webp": ".webp"}
USER_AGENT = "bedside (clinical benchmark workbench; image cache)"


class FetchError(Exception):
    """One image could not be fetched; the message is the one-line reason."""


def _write(path: Path, data: bytes) -> None:
    """Write `data` to `path` atomically (temporary file in the same folder, then rename)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".part-")
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(data)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


class ImageCache:
    """The cache in one folder."""

    def __init__(self, root: Path) -> None:
        self.root = Path(root)

    def _pointer(self, url: str) -> Path:
        return self.root / "urls" / f"{hashlib.sha256(url.encode()).hexdigest()}.json"

    def blob(self, sha256: str, kind: str) -> Path:
        """Where the image with this content hash and type is stored."""
        return self.root / "sha256" / f"{sha256}{_EXT.get(kind, '.img')}"

    def has(self, url: str) -> bool:
        """Whether the URL's image is cached (and its file is intact)."""
        return self.read(url)[0] is not None

    def read(self, url: str) -> tuple[bytes | None, str | None]:
        """(bytes, None) for a cached URL, else (None, the one-line reason)."""
        try:
            entry = json.loads(self._pointer(url).read_text(encoding="utf-8"))
            data = self.blob(entry["sha256"], entry["media_type"]).read_bytes()
        except FileNotFoundError:
            return None, "not in the local image cache (run `bedside cases fetch-images`)"
        except (OSError, ValueError, KeyError, TypeError) as err:
            return None, f"the local image cache entry is unreadable ({type(err).__name__}); " \
                "fetch it again with `bedside cases fetch-images --again`"
        if hashlib.sha256(data).hexdigest() != entry["sha256"]:
            return None, "the cached file was changed since it was fetched; fetch it again " \
                "with `bedside cases fetch-images --again`"
        return data, None

    def store(self, url: str, data: bytes) -> str:
        """Keep `data` as the image of `url`; return its sha256. ValueError for non-images."""
        kind = media_type(data)
        if kind is None:
            raise ValueError("not a PNG, JPEG, GIF or WebP image")
        digest = hashlib.sha256(data).hexdigest()
        blob = self.blob(digest, kind)
        if not blob.exists():
            _write(blob, data)
        entry = {"url": url, "sha256": digest, "media_type": kind, "bytes": len(data),
                 "fetched_at": utc_now()}
        _write(self._pointer(url), json.dumps(entry, indent=1).encode())
        return digest


def default_cache() -> ImageCache:
    """The cache under the bedside home ($BEDSIDE_HOME/images)."""
    return ImageCache(bedside_home() / "images")


def fetch(url: str, timeout: float) -> bytes:
    """The image at `url` (http or https), at most MAX_BYTES; FetchError with the reason."""
    if not url.startswith(("http://", "https://")):
        raise FetchError("only http and https URLs are fetched")
    request = urllib.request.Request(url, headers={"User-Agent": USER_AGENT})
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:  # noqa: S310
            ctype = response.headers.get("Content-Type", "")
            data = response.read(MAX_BYTES + 1)
    except urllib.error.HTTPError as err:
        raise FetchError(f"the server answered HTTP {err.code} {err.reason}") from None
    except urllib.error.URLError as err:
        raise FetchError(f"cannot reach the server ({err.reason})") from None
    except TimeoutError:
        raise FetchError(f"no answer within {timeout:g} s") from None
    except OSError as err:
        raise FetchError(f"the connection failed ({err.strerror or err})") from None
    if len(data) > MAX_BYTES:
        raise FetchError(f"larger than {MAX_BYTES // 2**20} MB")
    if media_type(data) is None:
        raise FetchError(f"not an image (Content-Type {ctype or 'not given'})")
    return data


@dataclass(frozen=True)
class FetchFailure:
    """One image that could not be fetched."""

    case_id: str
    url: str
    reason: str

    def __str__(self) -> str:
        return f"case {self.case_id}: {self.url}: {self.reason}"


@dataclass
class FetchReport:
    """What `fetch_images` did."""

    fetched: list[tuple[str, str]] = field(default_factory=list)  # (case id, URL)
    cached: int = 0  # already in the cache, not fetched again
    failed: list[FetchFailure] = field(default_factory=list)


def wanted(cases: Iterable[Case]) -> list[tuple[str, str]]:
    """(case id, URL) of every URL image of the cases, each URL once, in order."""
    seen: dict[str, str] = {}
    for case in cases:
        for ref in case.images:
            if ref.url and ref.url not in seen:
                seen[ref.url] = case.id
    return [(case_id, url) for url, case_id in seen.items()]


def fetch_images(cases: Iterable[Case], cache: ImageCache, *, timeout: float = 20.0,
                 again: bool = False, workers: int = 4,
                 progress: Callable[[str, str, str | None], None] | None = None
                 ) -> FetchReport:
    """Fetch the URL images of `cases` that are not cached (all of them with `again`).
    `progress(case_id, url, failure_or_None)` is called after each fetch."""
    report = FetchReport()
    todo = []
    for case_id, url in wanted(cases):
        if not again and cache.has(url):
            report.cached += 1
        else:
            todo.append((case_id, url))

    def one(item: tuple[str, str]) -> tuple[str, str, str | None]:
        case_id, url = item
        try:
            cache.store(url, fetch(url, timeout))
            return case_id, url, None
        except (FetchError, ValueError) as err:
            return case_id, url, str(err)
        except OSError as err:  # the cache folder itself
            return case_id, url, f"cannot write the image cache ({err.strerror or err})"

    with ThreadPoolExecutor(max_workers=max(1, workers)) as pool:
        for case_id, url, failure in pool.map(one, todo):
            if failure is None:
                report.fetched.append((case_id, url))
            else:
                report.failed.append(FetchFailure(case_id, url, failure))
            if progress is not None:
                progress(case_id, url, failure)
    return report
