"""`bedside serve` in a real browser (issue 16, the browser path): how a multi-site reader
study reaches clinicians, and a hospital reading room may be offline.

- The served page names no host: every address on it is relative to the page (checked on
  the page as served, no browser needed), and everything it names is served.
- In headless Chromium (from the system packages; .ci/run installs it with a CJK font): the
  page opens, a Chinese case title on the case list renders as glyphs (not as the empty
  boxes of a missing font: the screenshot's cells of that title are as many different
  images as the title has different characters), a reader rates one transcript with key
  presses, the rating is in the SQLite database, and no request the page made left
  127.0.0.1. Screenshots are kept in the test's folder (`served-home.png`, the case list;
  `served-rating.png`, the transcript and its form; `served-rated.png`).
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import urllib.request
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urljoin, urlparse

import pytest

from tests.browser_support import (Chromium, Page, chromium, environment, free_port,
                                   png_pixels)
from tui.cli import main

TITLE = "岁男性喝酒后上腹剧痛伴呕吐"  # gi-004's title after "43", all CJK
SCORES = {"realism_doctor": "7", "realism_patient": "6", "realism_examiner": "5",
          "empathy_doctor": "8"}  # the four required questions, in the form's order


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    """`bedside serve` on a free port over a database with one consultation of the Chinese
    case gi-004 and a study of it with one rater, alice."""
    root = tmp_path_factory.mktemp("serve")
    db = root / "b.db"
    assert main(["run", "--db", str(db), "--cases", "gi-004", "--json"]) == 0
    study = root / "study.toml"
    study.write_text('name = "browser"\nraters = ["alice"]\noverlap = 1\ncalibration = 0\n')
    assert main(["--db", str(db), "study", "create", str(study)]) == 0
    port = free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "tui.cli", "serve", "--db", str(db), "--port", str(port)],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=environment(root / "home"))
    url = f"http://127.0.0.1:{port}/"
    try:
        _wait_served(url, server)
        yield url, db
    finally:
        server.terminate()
        try:
            server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()


def _wait_served(url: str, server: subprocess.Popen[bytes]) -> None:
    import time

    deadline = time.monotonic() + 120
    while True:
        try:
            urllib.request.urlopen(url, timeout=5).read()
            return
        except OSError:
            assert server.poll() is None, "bedside serve exited"
            assert time.monotonic() < deadline, "bedside serve never answered"
            time.sleep(0.2)


def test_the_served_page_names_no_other_host_and_serves_all_it_names(
        served: tuple[str, Path]) -> None:
    url, _ = served
    page = urllib.request.urlopen(url, timeout=30).read().decode()
    named = re.findall(r"""(?:src|href)\s*=\s*["']([^"']+)["']|url\(\s*["']?([^"')]+)""", page)
    addresses = [a or b for a, b in named]
    assert addresses, page
    assert "googleapis" not in page and "//" not in "".join(addresses), addresses
    for address in addresses:  # relative: the page's own host, and each one is there
        assert not urlparse(address).netloc and not urlparse(address).scheme, address
        with urllib.request.urlopen(urljoin(url, address), timeout=30) as resp:
            assert resp.status == 200 and resp.read(), address


@pytest.mark.skipif(chromium() is None, reason="chromium is not installed: this test drives "
                    "the served app in headless Chromium (.ci/run installs it with "
                    "apt-get: chromium fonts-noto-cjk)")
async def test_a_reader_rates_in_a_real_browser_offline(
        served: tuple[str, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    url, db = served
    async with Chromium(tmp_path / "profile") as browser:
        page = await browser.new_page()
        try:
            await page.send("Page.navigate", url=url)
            await page.shows("Cases", "Studies", TITLE)
            shot = await page.send("Page.captureScreenshot", format="png")
            (tmp_path / "served-home.png").write_bytes(_b64(shot["data"]))
            await _title_renders(page)
            await _rate(page, tmp_path)
            shot = await page.send("Page.captureScreenshot", format="png")
            (tmp_path / "served-rated.png").write_bytes(_b64(shot["data"]))
        finally:
            await page.close()
    capsys.readouterr()
    assert main(["--db", str(db), "ratings", "export", "--study", "browser", "--format",
                 "jsonl"]) == 0
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert {r["item"]: r["value"] for r in rows if r["rater"] == "alice"} == SCORES
    # Every request the page made — the page, its style, script and fonts, the app's
    # websocket — went to the serving machine.
    asked = [u for u in page.requests if not u.startswith("data:")]
    assert any(u.startswith("ws://127.0.0.1:") for u in asked), asked
    assert all(urlparse(u).hostname == "127.0.0.1" for u in asked), asked


async def _title_renders(page: Page) -> None:
    """The title's cells on a screenshot: each character's two cells are drawn (ink) and
    the characters look different from each other. A missing font draws every one as the
    same box (or nothing), so the images would be one."""
    row, first, cells = page.find(TITLE)
    left, top, width, height = await page.evaluate(
        "(() => { const r = document.querySelector('.xterm-screen').getBoundingClientRect();"
        " return [r.left, r.top, r.width, r.height]; })()")
    cell_w, cell_h = width / page.screen.columns, height / page.screen.lines
    clip = {"x": left + first * cell_w, "y": top + row * cell_h, "width": cells * cell_w,
            "height": cell_h, "scale": 1}
    shot = await page.send("Page.captureScreenshot", format="png", clip=clip)
    w, h, pixels = png_pixels(_b64(shot["data"]))
    background = Counter(p for line in pixels for p in line).most_common(1)[0][0]
    glyphs = []
    for i in range(len(TITLE)):
        x0, x1 = round(i * w / len(TITLE)), round((i + 1) * w / len(TITLE))
        ink = frozenset((x - x0, y) for y in range(h) for x in range(x0, x1)
                        if sum(abs(a - b) for a, b in zip(pixels[y][x], background, strict=True)) > 150)
        glyphs.append(ink)
    assert all(len(g) >= 10 for g in glyphs), (
        f"the CJK title's cells are (nearly) empty, ink {[len(g) for g in glyphs]}: no font "
        "drew it (no CJK font?)")
    assert len(set(glyphs)) == len(set(TITLE)), (
        f"{len(set(glyphs))} different images for {len(set(TITLE))} different characters: "
        "the CJK title renders as boxes (no CJK font?)")


async def _rate(page: Page, shots: Path) -> None:
    """Studies tab, the study, the rater's name (any case), the instructions, the four
    required scores (digit, Tab), Enter to save."""
    await page.evaluate("document.querySelector('.xterm-helper-textarea').focus()")
    await page.press("4")
    await page.shows("browser")
    await page.press("Enter")
    await page.shows("Who is rating")
    await page.type("Alice")
    await page.shows("Alice")  # typed into the prompt
    await page.press("Enter")
    await page.shows("Instructions")
    await page.press("Enter")
    await page.shows("How realistic is the doctor")
    shot = await page.send("Page.captureScreenshot", format="png")
    (shots / "served-rating.png").write_bytes(_b64(shot["data"]))
    for i, score in enumerate(SCORES.values()):
        if i:
            await page.press("Tab")
        await page.press(score)
    await page.press("Enter")
    # Done: the header says so, not "time left: estimating…".
    await page.shows("All transcripts rated", "alice · 1 / 1 · all rated")


def _b64(data: str) -> bytes:
    import base64

    return base64.b64decode(data)

