"""A local OpenAI-compatible chat server for tests, demos and benchmarks (127.0.0.1 only).

Serves `POST /v1/chat/completions` (streaming SSE and plain JSON) and `GET /v1/models` over
HTTP/1.1 keep-alive on an asyncio loop in a background thread; TCP_NODELAY is set on every
accepted socket. Replies are scripted per role, detected from the prompt id our system
prompts end with (`bedside/<role>/v1`). Faults are injected per request, from a queue
(`server.faults.append("429")`) or a rule (`fault_rule(body, n) -> fault | None`):
"429", "500", "401" (a bad API key, as OpenAI words it), "hang" (no answer for
`hang_seconds`), "malformed" (invalid JSON / SSE) and "empty" (a reply with no content). `chunk_delay` spaces the streamed chunks out (seconds
between chunks), so a client can be watched, or cancelled, mid-reply. `hold(after=n)` lets
the next n replies go and makes every later one wait until `release()`, so a client's run
stays in the middle, at a known point, for as long as a test needs (its consultations
neither end nor fail meanwhile).

    with FakeOpenAIServer(latency=0.0) as server:
        litellm.completion(model="openai/fake", api_base=server.base_url, api_key="sk-test-not-real", ...)

    python -m tests.fake_openai_server --port 8765 --latency 0.2
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import json
import re
import socket
import threading
import time
from collections.abc import Callable
from typing import Any

ROLE_RE = re.compile(r"bedside/(doctor|patient|examiner|moderator|report)/v\d+")
Reply = str | Callable[[dict[str, Any], int], str]


def default_doctor(body: dict[str, Any], n: int) -> str:
    """Two questions, one test request, then a diagnosis (by the doctor's own turn count)."""
    said = sum(1 for m in body.get("messages", []) if m.get("role") == "assistant")
    script = ["What brings you in today?", "When did it start?",
              "I would like some tests. REQUEST TEST: ECG, troponin and chest X-ray",
              "DIAGNOSIS READY: Inferior ST-elevation myocardial infarction"]
    return script[min(said, len(script) - 1)]


DEFAULT_REPLIES: dict[str, Reply] = {
    "doctor": default_doctor,
    "patient": "It started about an hour ago and it feels like a heavy weight on my chest.",
    "examiner": "Electrocardiogram: ST elevation in II, III and aVF.",
    "moderator": "Yes.",
    "report": ("Symptoms: chest pain\nExaminations: ECG\nDiagnostic results: inferior STEMI\n"
               "Diagnostic rationale: ST elevation\nTreatment plan: primary PCI"),
    "one_step": ("DIAGNOSIS READY: Inferior ST-elevation myocardial infarction\n"
                 "Symptoms: crushing chest pain\nExaminations: ECG, troponin\n"
                 "Diagnostic results: inferior STEMI\nDiagnostic rationale: ST elevation "
                 "in II, III and aVF\nTreatment plan: aspirin, ticagrelor, primary PCI"),
    "report_judge": ('{"symptoms": "A", "examinations": "B", "diagnostic_results": "A", '
                     '"rationale": "B", "treatment_plan": "C"}'),
    "rating_patient": '{"confidence": 8, "compliance": 9, "consult_again": 7}',
    "fidelity_grader": ('{"consistent": "yes", "addresses": "yes", "accurate": "yes", '
                        '"reason": "matches the record"}'),
    "unknown": "OK.",
}
# The metric prompts (core/prompts/metric_texts.py) carry no id line; they are told apart by
# their opening words, so a demo run can be scored end to end against this server.
METRIC_OPENINGS = (("You are a doctor. Below is everything known", "one_step"),
                   ("You grade a doctor's final report", "report_judge"),
                   ("You are the patient described below", "rating_patient"),
                   ("You check one answer of a simulated", "fidelity_grader"))
METRIC_ROLES = ("unknown", *(role for _, role in METRIC_OPENINGS))


def detect_role(body: dict[str, Any]) -> str:
    """The role a request plays, from the last prompt id found in its messages."""
    found = "unknown"
    for message in body.get("messages", []):
        content = str(message.get("content", ""))
        for m in ROLE_RE.finditer(content):
            found = m.group(1)
        for opening, role in METRIC_OPENINGS:
            if content.startswith(opening):
                found = role
    return found


def _words(text: str) -> int:
    return max(1, len(text.split()))


class FakeOpenAIServer:
    """The server; a context manager that starts it on an ephemeral port (or `port`)."""

    def __init__(self, *, latency: float = 0.0, port: int = 0,
                 replies: dict[str, Reply] | None = None,
                 fault_rule: Callable[[dict[str, Any], int], str | None] | None = None,
                 hang_seconds: float = 30.0, chunk_words: int = 4,
                 chunk_delay: float = 0.0) -> None:
        self.latency, self.port, self.hang_seconds = latency, port, hang_seconds
        self.chunk_delay = chunk_delay
        self.replies = {**DEFAULT_REPLIES, **(replies or {})}
        self.faults: collections.deque[str] = collections.deque()
        self.fault_rule, self.chunk_words = fault_rule, chunk_words
        self.requests: list[dict[str, Any]] = []  # every request body, in arrival order
        self.headers: list[dict[str, str]] = []
        self._lock = threading.Lock()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._server: asyncio.AbstractServer | None = None
        self._thread: threading.Thread | None = None
        self._ready = threading.Event()
        self._open = threading.Event()
        self._open.set()
        self._passes = 0

    def hold(self, after: int = 0) -> None:
        """Let the next `after` replies go; later ones wait (their requests are read and
        counted) until `release`."""
        with self._lock:
            self._passes = after
            self._open.clear()

    def release(self) -> None:
        """Let held and later replies go."""
        self._open.set()

    @property
    def base_url(self) -> str:
        """`http://127.0.0.1:PORT/v1`, for `api_base`."""
        return f"http://127.0.0.1:{self.port}/v1"

    # -- lifecycle -------------------------------------------------------------------------
    def __enter__(self) -> FakeOpenAIServer:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def start(self) -> None:
        """Start serving in a background thread; returns once the port is bound."""
        self._thread = threading.Thread(target=self._run, name="fake-openai", daemon=True)
        self._thread.start()
        if not self._ready.wait(10):
            raise RuntimeError("fake server did not start")

    def stop(self) -> None:
        """Stop the server and its thread."""
        if self._loop is not None:
            self._loop.call_soon_threadsafe(self._loop.stop)
        if self._thread is not None:
            self._thread.join(5)

    def _run(self) -> None:
        loop = self._loop = asyncio.new_event_loop()
        self._server = loop.run_until_complete(asyncio.start_server(
            self._handle, "127.0.0.1", self.port, backlog=256, reuse_address=True))
        self.port = self._server.sockets[0].getsockname()[1]
        self._ready.set()
        try:
            loop.run_forever()
        finally:
            self._server.close()
            loop.run_until_complete(self._server.wait_closed())
            for task in asyncio.all_tasks(loop):
                task.cancel()
            loop.run_until_complete(asyncio.sleep(0))
            loop.close()

    # -- HTTP ------------------------------------------------------------------------------
    async def _handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        sock = writer.get_extra_info("socket")
        if sock is not None:
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        try:
            while await self._one_request(reader, writer):
                pass
        except (ConnectionError, asyncio.IncompleteReadError, asyncio.CancelledError):
            pass
        finally:
            writer.close()

    async def _one_request(self, reader: asyncio.StreamReader,
                           writer: asyncio.StreamWriter) -> bool:
        line = await reader.readline()
        if not line:
            return False
        method, path, _ = line.decode("latin-1").split(" ", 2)
        headers: dict[str, str] = {}
        while (h := await reader.readline()) not in (b"\r\n", b"\n", b""):
            k, _, v = h.decode("latin-1").partition(":")
            headers[k.strip().lower()] = v.strip()
        body = await reader.readexactly(int(headers.get("content-length", 0) or 0))
        if method == "GET" and path.rstrip("/").endswith("/models"):
            await self._send_json(writer, 200, {"object": "list", "data": [
                {"id": "fake", "object": "model", "owned_by": "bedside-tests"}]})
        elif method == "POST" and path.rstrip("/").endswith("/chat/completions"):
            await self._chat(writer, json.loads(body or b"{}"), headers)
        else:
            await self._send_json(writer, 404, {"error": {"message": "not found"}})
        return headers.get("connection", "").lower() != "close"

    async def _send(self, writer: asyncio.StreamWriter, status: int, ctype: str,
                    payload: bytes) -> None:
        reason = {200: "OK", 401: "Unauthorized", 404: "Not Found", 429: "Too Many Requests",
                  500: "Internal Server Error"}.get(status, "OK")
        head = (f"HTTP/1.1 {status} {reason}\r\nContent-Type: {ctype}\r\n"
                f"Content-Length: {len(payload)}\r\nConnection: keep-alive\r\n\r\n")
        writer.write(head.encode() + payload)
        await writer.drain()

    async def _send_json(self, writer: asyncio.StreamWriter, status: int, data: Any) -> None:
        await self._send(writer, status, "application/json", json.dumps(data).encode())

    # -- chat ------------------------------------------------------------------------------
    def _next_fault(self, body: dict[str, Any], n: int) -> str | None:
        with self._lock:
            if self.faults:
                return self.faults.popleft()
        return self.fault_rule(body, n) if self.fault_rule else None

    def _reply_text(self, body: dict[str, Any], n: int) -> str:
        reply = self.replies.get(detect_role(body), self.replies["unknown"])
        return reply(body, n) if callable(reply) else reply

    async def _wait_if_held(self) -> None:
        with self._lock:
            if not self._open.is_set() and self._passes > 0:
                self._passes -= 1
                return
        while not self._open.is_set():
            await asyncio.sleep(0.02)

    async def _chat(self, writer: asyncio.StreamWriter, body: dict[str, Any],
                    headers: dict[str, str]) -> None:
        with self._lock:
            n = len(self.requests)
            self.requests.append(body)
            self.headers.append(headers)
        fault = self._next_fault(body, n)
        if self.latency:
            await asyncio.sleep(self.latency)
        await self._wait_if_held()
        if fault == "hang":
            await asyncio.sleep(self.hang_seconds)
        if fault == "401":
            await self._send_json(writer, 401, {"error": {
                "message": "Incorrect API key provided: sk-bad***. You can find your API key "
                "at your provider's dashboard.", "type": "invalid_request_error",
                "code": "invalid_api_key"}})
            return
        if fault in ("429", "500"):
            await self._send_json(writer, int(fault), {"error": {
                "message": "rate limited" if fault == "429" else "server error",
                "type": "fake", "code": fault}})
            return
        text = "" if fault == "empty" else self._reply_text(body, n)
        usage = {"prompt_tokens": sum(_words(str(m.get("content", "")))
                                      for m in body.get("messages", [])),
                 "completion_tokens": _words(text) if text else 0}
        usage["total_tokens"] = usage["prompt_tokens"] + usage["completion_tokens"]
        model = body.get("model", "fake")
        if body.get("stream"):
            await self._stream(writer, model, text, usage, fault == "malformed")
        elif fault == "malformed":
            await self._send(writer, 200, "application/json", b'{"id": "x", "choices": [')
        else:
            await self._send_json(writer, 200, {
                "id": f"chatcmpl-{n}", "object": "chat.completion", "created": int(time.time()),
                "model": model, "usage": usage, "choices": [{
                    "index": 0, "finish_reason": "stop",
                    "message": {"role": "assistant", "content": text}}]})

    async def _stream(self, writer: asyncio.StreamWriter, model: str, text: str,
                      usage: dict[str, int], malformed: bool) -> None:
        def chunk(delta: dict[str, Any], finish: str | None = None,
                  use: dict[str, int] | None = None) -> bytes:
            data: dict[str, Any] = {"id": "chatcmpl-s", "object": "chat.completion.chunk",
                                    "created": 0, "model": model,
                                    "choices": [{"index": 0, "delta": delta,
                                                 "finish_reason": finish}] if use is None else []}
            if use is not None:
                data["usage"] = use
            return b"data: " + json.dumps(data).encode() + b"\n\n"

        words = text.split(" ")
        pieces = [" ".join(words[i:i + self.chunk_words]) + " "
                  for i in range(0, len(words), self.chunk_words)] if text else []
        if pieces:
            pieces[-1] = pieces[-1][:-1]
        out = [chunk({"role": "assistant", "content": ""})]
        out += [chunk({"content": p}) for p in pieces]
        if malformed:
            out.append(b"data: {not json at all\n\n")
        out += [chunk({}, "stop"), chunk({}, use=usage), b"data: [DONE]\n\n"]
        if not self.chunk_delay:
            await self._send(writer, 200, "text/event-stream", b"".join(out))
            return
        # Spaced out: chunked transfer encoding, one HTTP chunk per SSE event.
        writer.write(b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n"
                     b"Transfer-Encoding: chunked\r\nConnection: keep-alive\r\n\r\n")
        for piece in out:
            writer.write(f"{len(piece):x}\r\n".encode() + piece + b"\r\n")
            await writer.drain()
            await asyncio.sleep(self.chunk_delay)
        writer.write(b"0\r\n\r\n")
        await writer.drain()


def main(argv: list[str] | None = None) -> None:
    """Run the server in the foreground until interrupted."""
    parser = argparse.ArgumentParser(description="Local OpenAI-compatible fake server.")
    parser.add_argument("--port", type=int, default=8765, help="0 picks a free port")
    parser.add_argument("--latency", type=float, default=0.0, help="seconds per reply")
    parser.add_argument("--fault", default=None, help="answer every request with this fault "
                        "(e.g. 401: a bad API key)")
    args = parser.parse_args(argv)
    server = FakeOpenAIServer(latency=args.latency, port=args.port)
    if args.fault:
        server.fault_rule = lambda body, n: args.fault
    server.start()
    print(f"listening on {server.base_url}", flush=True)
    try:
        while True:
            time.sleep(3600)
    except KeyboardInterrupt:
        server.stop()


if __name__ == "__main__":
    main()
