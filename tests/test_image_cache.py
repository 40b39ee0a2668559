"""Fetching case images into the local cache, against a local HTTP server (never the
internet): an import with --fetch-images, one line per image that failed (which case, which
URL, why), the cache content-addressed, a second fetch that finds them cached, a cached URL
image read back for a consultation, and `cases validate` on image files."""

from __future__ import annotations

import hashlib
import json
import socket
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from core.caseio import bundled_cases_dir, load_case_file
from core.image_cache import FetchError, default_cache, fetch
from core.images import load_images
from tui.cli import main

PNG = next(bundled_cases_dir().rglob("card-101-rhythm-strip.png")).read_bytes()
FIXTURE = Path(__file__).parent / "fixtures" / "peers" / "agentclinic" / "nejm_fixture.jsonl"


class _Handler(BaseHTTPRequestHandler):
    hits: list[str] = []

    def do_GET(self) -> None:  # noqa: N802 (the http.server name)
        self.hits.append(self.path)
        if "ic-0101" in self.path:
            self._send(200, "image/png", PNG)
        elif "ic-0102" in self.path:
            self._send(200, "text/html", b"<html>Sign in to see this image</html>")
        else:
            self._send(404, "text/plain", b"gone")

    def _send(self, status: int, ctype: str, body: bytes) -> None:
        self.send_response(status)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture(scope="module")
def web() -> Iterator[str]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()


def nejm_file(tmp_path: Path, base: str) -> Path:
    text = FIXTURE.read_text(encoding="utf-8").replace("https://images.example.org", base)
    path = tmp_path / "nejm.jsonl"
    path.write_text(text, encoding="utf-8")
    return path


def test_import_fetches_reports_each_failure_and_caches_by_content(
        tmp_path: Path, web: str, capsys: pytest.CaptureFixture[str]) -> None:
    db = str(tmp_path / "b.db")
    code = main(["cases", "import", "agentclinic-nejm", str(nejm_file(tmp_path, web)),
                 "--fetch-images", "--db", db])
    out, err = capsys.readouterr()
    assert code == 1
    lines = sorted(err.strip().splitlines())
    assert len(lines) == 2
    assert lines[0].startswith("bedside: cannot fetch the image of case agentclinic-nejm")
    assert lines[0].endswith("ic-0102.jpg?width=1500: not an image (Content-Type text/html)")
    assert lines[1].endswith("ic-0103.jpg?width=1500: the server answered HTTP 404 Not Found")
    assert out.splitlines()[-1].startswith("1 images fetched, 0 already cached, 2 failed")
    digest = hashlib.sha256(PNG).hexdigest()
    cache = default_cache()
    assert (cache.root / "sha256" / f"{digest}.png").read_bytes() == PNG
    entry = json.loads(next((cache.root / "urls").iterdir()).read_text())
    assert entry["url"] == f"{web}/image-challenge/ic-0101.jpg?width=1500"
    assert entry["sha256"] == digest and entry["media_type"] == "image/png"

    # Again: the cached one is not fetched, the others are tried again.
    before = len(_Handler.hits)
    code = main(["cases", "fetch-images", "--cases", "agentclinic", "--db", db])
    out, _ = capsys.readouterr()
    assert code == 1 and "0 images fetched, 1 already cached, 2 failed" in out
    assert not any("ic-0101" in h for h in _Handler.hits[before:])


def test_a_cached_url_image_is_read_for_a_consultation(tmp_path: Path, web: str) -> None:
    assert main(["cases", "import", "agentclinic-nejm", str(nejm_file(tmp_path, web)),
                 "--db", str(tmp_path / "b.db")]) == 0
    from db.store import open_store

    case = next(c for c in open_store(str(tmp_path / "b.db")).list_cases()
                if "ic-0101" in (c.images[0].url or ""))
    missing = load_images(case, "upfront", default_cache())[0]
    assert missing.data is None and "not in the local image cache" in str(missing.problem)
    default_cache().store(str(case.images[0].url), PNG)
    image = load_images(case, "upfront", default_cache())[0]
    assert image.data == PNG and image.upfront and image.name == "ic-0101.jpg"


def test_an_unreachable_server_and_a_changed_cache_file_say_why(tmp_path: Path) -> None:
    with socket.socket() as s:  # a port nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    with pytest.raises(FetchError, match=r"^cannot reach the server \("):
        fetch(f"http://127.0.0.1:{port}/x.png", timeout=5)
    with pytest.raises(FetchError, match="only http and https"):
        fetch("file:///etc/passwd", timeout=5)
    cache = default_cache()
    digest = cache.store("http://example.invalid/a.png", PNG)
    cache.blob(digest, "image/png").write_bytes(PNG[:-1] + b"\x00")
    data, why = cache.read("http://example.invalid/a.png")
    assert data is None and "changed since it was fetched" in str(why)


def test_image_paths_stay_inside_the_case_folder_and_must_be_images(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source = next(bundled_cases_dir().rglob("card-101-*.yaml"))
    text = source.read_text(encoding="utf-8")
    (tmp_path / "images").mkdir()
    (tmp_path / "images" / "card-101-rhythm-strip.png").write_text("not a picture")
    (tmp_path / "card.yaml").write_text(text, encoding="utf-8")
    assert main(["cases", "validate", str(tmp_path / "card.yaml")]) == 1
    out = capsys.readouterr().out
    assert "field 'images.0.path': 'images/card-101-rhythm-strip.png' is not a PNG, JPEG, GIF " \
        "or WebP image" in out
    (tmp_path / "card.yaml").write_text(text.replace("images/card-101", "../card-101"))
    assert main(["cases", "validate", str(tmp_path / "card.yaml")]) == 1
    assert "must be a path relative to the case file's folder, inside it" in \
        capsys.readouterr().out
    # Read from its file, the bundled case finds its image; a copy from elsewhere does not.
    case = load_case_file(source)
    assert load_images(case, "on-request", None)[0].data == \
        (source.parent / "images" / "card-101-rhythm-strip.png").read_bytes()
    copy = case.model_copy(deep=True).read_from(None)
    assert "was not read from its file" in str(load_images(copy, "upfront", None)[0].problem)
