"""A real browser for the `bedside serve` test: headless Chromium from the system packages,
driven over its DevTools protocol by a small client of our own (aiohttp's websocket client,
already installed with textual-serve).

- `Chromium` starts the browser on an empty profile, offline by construction (every host
  name but 127.0.0.1 resolves to nothing), and opens a page target.
- `Page` sends protocol commands, keeps every network request the page makes, feeds the
  terminal output the served app sends over its websocket into a terminal emulator (pyte),
  so a test can wait for what the reader sees, and presses keys as a keyboard would.
- `png_pixels` decodes a screenshot (8-bit RGB/RGBA PNG, as Chromium writes them).
"""

from __future__ import annotations

import asyncio
import base64
import json
import os
import shutil
import struct
import subprocess
import time
import zlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

#: The flags the test starts Chromium with: headless, no sandbox (root in CI), nothing of
#: its own on the network, an empty profile (added per run).
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--no-default-browser-check", "--no-proxy-server",
         # Nothing but this machine can be reached: a request for another host fails at
         # once instead of leaving it (the test still sees it and fails).
         "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1",
         "--remote-debugging-port=0", "--remote-allow-origins=*"]
KEYS = {"Enter": ("Enter", 13, "\r"), "Tab": ("Tab", 9, "\t"), "Escape": ("Escape", 27, "")}


def chromium() -> str | None:
    """The system's Chromium, if installed."""
    return shutil.which("chromium")


class Chromium:
    """A headless Chromium process and its DevTools endpoint (an async context manager)."""

    def __init__(self, profile: Path, width: int = 1280, height: int = 860) -> None:
        self.profile, self.size = profile, (width, height)
        self.proc: subprocess.Popen[bytes] | None = None
        self.port = 0

    async def __aenter__(self) -> Chromium:
        exe = chromium()
        assert exe, "chromium is not installed"
        self.profile.mkdir(parents=True, exist_ok=True)
        self.proc = subprocess.Popen(
            [exe, *FLAGS, f"--user-data-dir={self.profile}",
             f"--window-size={self.size[0]},{self.size[1]}", "about:blank"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        active = self.profile / "DevToolsActivePort"
        await until(lambda: active.exists() and len(active.read_text().split()) >= 2,
                    "Chromium never opened its DevTools port", proc=self.proc)
        self.port = int(active.read_text().split()[0])
        return self

    async def new_page(self) -> Page:
        """A page target with the network and page domains on."""
        import aiohttp

        session = aiohttp.ClientSession()
        async with session.put(f"http://127.0.0.1:{self.port}/json/new?about:blank") as resp:
            target = await resp.json(content_type=None)
        page = Page(session, await session.ws_connect(target["webSocketDebuggerUrl"],
                                                      max_msg_size=0))
        await page.start()
        return page

    async def __aexit__(self, *exc: object) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


class Page:
    """One page over the DevTools protocol: commands, requests seen, the terminal shown."""

    def __init__(self, session: Any, ws: Any) -> None:
        self.session, self.ws = session, ws
        self.next_id = 0
        self.waiting: dict[int, asyncio.Future[dict[str, Any]]] = {}
        #: Every URL the page asked for (documents, styles, scripts, fonts, websockets).
        self.requests: list[str] = []
        #: The terminal the served app draws in, as the browser's xterm.js receives it.
        self.screen: Any = None
        self.stream: Any = None
        self.reader: asyncio.Task[None] | None = None

    async def start(self) -> None:
        """Read the protocol's messages; turn on what the test watches."""
        self.reader = asyncio.create_task(self._read())
        for domain in ("Network.enable", "Page.enable", "Runtime.enable"):
            await self.send(domain)

    async def close(self) -> None:
        """Stop reading and close the connection."""
        if self.reader is not None:
            self.reader.cancel()
        await self.ws.close()
        await self.session.close()

    async def send(self, method: str, **params: Any) -> dict[str, Any]:
        """One command; its result (an error is an AssertionError)."""
        self.next_id += 1
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self.waiting[self.next_id] = future
        await self.ws.send_str(json.dumps({"id": self.next_id, "method": method,
                                           "params": params}))
        reply = await asyncio.wait_for(future, 120)
        assert "error" not in reply, (method, reply["error"])
        return reply.get("result", {})

    async def _read(self) -> None:
        async for message in self.ws:
            data = json.loads(message.data)
            if "id" in data:
                future = self.waiting.pop(data["id"], None)
                if future is not None and not future.done():
                    future.set_result(data)
            else:
                self._event(data["method"], data.get("params", {}))

    def _event(self, method: str, params: dict[str, Any]) -> None:
        if method == "Network.requestWillBeSent":
            self.requests.append(params["request"]["url"])
        elif method == "Network.webSocketCreated":
            self.requests.append(params["url"])
            self._terminal(params["url"])
        elif method == "Network.webSocketFrameReceived" and self.stream is not None:
            frame = params["response"]
            if frame.get("opcode") == 2:  # binary: the terminal's output bytes
                self.stream.feed(base64.b64decode(frame["payloadData"]))

    def _terminal(self, url: str) -> None:
        """A screen as large as the browser's terminal says it is (?width=&height=)."""
        import pyte
        from urllib.parse import parse_qs, urlparse

        query = parse_qs(urlparse(url).query)
        self.screen = pyte.Screen(int(query["width"][0]), int(query["height"][0]))
        self.stream = pyte.ByteStream(self.screen)

    def text(self) -> str:
        """The terminal as the reader sees it, line by line."""
        return "\n".join(self.screen.display) if self.screen is not None else ""

    async def shows(self, *words: str, timeout: float = 180) -> None:
        """Wait until every word is on the terminal."""
        await until(lambda: all(w in self.text() for w in words),
                    f"the page never showed {words}", timeout=timeout,
                    detail=self.text)

    def find(self, text: str) -> tuple[int, int, int]:
        """(row, first cell, cells) of `text` on the terminal (wide characters take two
        cells each, as the terminal lays them out)."""
        for row in range(self.screen.lines):
            line = self.screen.buffer[row]
            cells = [(x, line[x].data) for x in range(self.screen.columns)
                     if line[x].data != ""]
            joined = "".join(d for _, d in cells)
            at = joined.find(text)
            if at >= 0:
                start = cells[at][0]
                last = cells[at + len(text) - 1][0]
                width = 2 if line[last].data and ord(line[last].data) > 0x2E80 else 1
                return row, start, last + width - start
        raise AssertionError(f"{text!r} is not on the terminal:\n{self.text()}")

    async def evaluate(self, expression: str) -> Any:
        """A JavaScript expression's value in the page."""
        result = await self.send("Runtime.evaluate", expression=expression,
                                 returnByValue=True, awaitPromise=True)
        return result["result"].get("value")

    async def press(self, key: str) -> None:
        """One key as a keyboard sends it (a character, or Enter, Tab, Escape)."""
        name, code, text = KEYS[key] if key in KEYS else (key, ord(key.upper()), key)
        down = {"key": name, "windowsVirtualKeyCode": code, "nativeVirtualKeyCode": code}
        await self.send("Input.dispatchKeyEvent", type="keyDown", text=text, **down)
        await self.send("Input.dispatchKeyEvent", type="keyUp", **down)

    async def type(self, text: str) -> None:
        """Characters, one key each."""
        for ch in text:
            await self.press(ch)


async def until(predicate: Callable[[], bool], message: str, *, timeout: float = 180,
                proc: subprocess.Popen[bytes] | None = None,
                detail: Callable[[], str] | None = None) -> None:
    """Poll `predicate` (0.1 s apart) until it holds; fail with `message` after `timeout`
    seconds or when `proc` exits. Generous: the machine may be loaded."""
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline or (proc is not None and proc.poll() is not None):
            raise AssertionError(message + (f"\n{detail()}" if detail else ""))
        await asyncio.sleep(0.1)


def png_pixels(data: bytes) -> tuple[int, int, list[list[tuple[int, ...]]]]:
    """(width, height, rows of RGB pixels) of an 8-bit, non-interlaced RGB or RGBA PNG."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, chunks, header = 8, b"", b""
    while pos < len(data):
        (size,), kind = struct.unpack(">I", data[pos:pos + 4]), data[pos + 4:pos + 8]
        body = data[pos + 8:pos + 8 + size]
        if kind == b"IHDR":
            header = body
        elif kind == b"IDAT":
            chunks += body
        pos += 12 + size
    width, height, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", header)
    assert depth == 8 and colour in (2, 6) and not interlace, (depth, colour, interlace)
    step = 3 if colour == 2 else 4
    raw, stride = zlib.decompress(chunks), width * step
    rows: list[list[tuple[int, ...]]] = []
    previous = bytearray(stride)
    for y in range(height):
        kind, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:
                                                          (y + 1) * (stride + 1)])
        for i in range(stride):
            left = line[i - step] if i >= step else 0
            up, corner = previous[i], previous[i - step] if i >= step else 0
            if kind == 1:
                line[i] = (line[i] + left) & 255
            elif kind == 2:
                line[i] = (line[i] + up) & 255
            elif kind == 3:
                line[i] = (line[i] + (left + up) // 2) & 255
            elif kind == 4:
                p = left + up - corner
                near = min((abs(p - left), 0, left), (abs(p - up), 1, up),
                           (abs(p - corner), 2, corner))[2]
                line[i] = (line[i] + near) & 255
        rows.append([tuple(line[x:x + 3]) for x in range(0, stride, step)])
        previous = line
    return width, height, rows


def free_port() -> int:
    """A TCP port nothing listens on now."""
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def environment(home: Path) -> dict[str, str]:
    """The served app's environment: its own BEDSIDE_HOME."""
    return {**os.environ, "BEDSIDE_HOME": str(home)}
