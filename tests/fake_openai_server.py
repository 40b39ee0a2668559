"""A local OpenAI-compatible chat server for tests, demos and benchmarks (127.0.0.1 only).

Serves `POST /v1/chat/completions` (streaming SSE and plain JSON), `POST /v1/embeddings`
(a deterministic bag-of-words vector per input) and `GET /v1/models` over
HTTP/1.1 keep-alive on an asyncio loop in a background thread; TCP_NODELAY is set on every
accepted socket. Replies are scripted per role, detected from the prompt id our system
prompts end with (`bedside/<role>/v1`; a case conference's host and revising doctors are
the roles 'host-assess', 'host-agree', 'host-final', 'revision' and 'revision-plain'). Faults are injected per request, from a queue
(`server.faults.append("429")`) or a rule (`fault_rule(body, n) -> fault | None`):
"429", "500", "401" (a bad API key, as OpenAI words it), "hang" (no answer for
`hang_seconds`), "malformed" (invalid JSON / SSE), "empty" (a reply with no content),
"huge" (a reply of `huge_chars` characters, whatever `max_tokens` says), "echo-key" (a
reply that quotes the request's API key and Authorization header back), "echo-key-401" (a
refusal that names the key, as some servers word it) and "echo-key-500" (a server error that
quotes the request's headers, as a misconfigured proxy does). `chunk_delay` spaces the streamed
chunks out (seconds between chunks), so a client can be watched, or cancelled, mid-reply. `hold(after=n)` lets
the next n replies go and makes every later one wait until `release()`, so a client's run
stays in the middle, at a known point, for as long as a test needs (its consultations
neither end nor fail meanwhile).

Message content may be a string or a list of parts (`{"type": "text"}` and
`{"type": "image_url"}`, as vision models take them); `message_text` reads the text of
either, `image_urls` the images of a message or a whole request, and
`server.images_received()` says, per request, its role and the images it carried (what
the image tests check). `looking_doctor` is a doctor that asks for the images until it has
been sent one, then diagnoses.

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
import zlib
from collections.abc import Callable
from typing import Any

ROLE_RE = re.compile(r"bedside/((?:doctor|patient|examiner|moderator|report|host|revision|"
                     r"translator|critique|reflect|notebook|ah|rjua)(?:-[a-z]+)?)/v\d+")
# Prompt ids that play a role of the same name (AI Hospital's protocol keeps the doctor).
ROLE_ALIASES = {"doctor-aihospital": "doctor"}
#: The API key the tests send this server: a placeholder it never checks (not key-shaped, so
#: no secret scanner takes it for one; long enough for bedside to hide it like a real key).
TEST_KEY = "placeholder-for-the-local-server"
Reply = str | Callable[[dict[str, Any], int], str]


def message_text(content: Any) -> str:
    """The text of a message's content: a string, or the text parts of a list of parts."""
    if isinstance(content, list):
        return "\n".join(str(p.get("text", "")) for p in content
                         if isinstance(p, dict) and p.get("type") == "text")
    return str(content if content is not None else "")


def image_urls(item: dict[str, Any]) -> list[str]:
    """The image URLs (data URLs) of one message, or of every message of a request body."""
    if "messages" in item:
        return [u for m in item.get("messages", []) for u in image_urls(m)]
    content = item.get("content")
    if not isinstance(content, list):
        return []
    return [str(p.get("image_url", {}).get("url", "")) for p in content
            if isinstance(p, dict) and p.get("type") == "image_url"]


def looking_doctor(body: dict[str, Any], n: int) -> str:
    """REQUEST IMAGES until an image has been sent, then a diagnosis naming how many."""
    seen = len(image_urls(body))
    if not seen:
        return "I need to see the images first. REQUEST IMAGES"
    return f"DIAGNOSIS READY: Atrial fibrillation with rapid ventricular response ({seen} seen)"


def default_doctor(body: dict[str, Any], n: int) -> str:
    """Two questions, one test request, then a diagnosis (by the doctor's own turn count)."""
    said = sum(1 for m in body.get("messages", []) if m.get("role") == "assistant")
    script = ["What brings you in today?", "When did it start?",
              "I would like some tests. REQUEST TEST: ECG, troponin and chest X-ray",
              "DIAGNOSIS READY: Inferior ST-elevation myocardial infarction"]
    return script[min(said, len(script) - 1)]


def default_translator(body: dict[str, Any], n: int) -> str:
    """`bedside cases translate`: every text of the JSON object back under its key, marked
    with the target language's own name ("हिन्दी: …"), as one JSON object."""
    messages = body.get("messages", [])
    system = str(messages[0].get("content", "")) if messages else ""
    found = re.search(r"into [^(\n]+\(([^)]+)\)", system)
    mark = found.group(1) if found else "translated"
    texts = json.loads(str(messages[-1].get("content", "{}")))
    return json.dumps({k: f"{mark}: {v}" for k, v in texts.items()}, ensure_ascii=False)
def default_rewrite(body: dict[str, Any], n: int) -> str:
    """The Agent Hospital patient-voice rewrite: the account told again, every fact kept."""
    text = str(body.get("messages", [{}])[-1].get("content", ""))
    said = re.search(r"What they said: (.*)", text)
    return "Well, doctor, here it is. " + (said.group(1).strip() if said else "I feel unwell.")


def default_triage(body: dict[str, Any], n: int) -> str:
    """The whole hospital's triage nurse: the emergency department under 92 % oxygen
    saturation, else respiratory medicine (a reply in words before its DEPARTMENT line)."""
    text = message_text(body.get("messages", [{}])[-1].get("content"))
    found = re.search(r"SpO2 (\d+) %", text)
    low = found is not None and int(found.group(1)) < 92
    return ("The saturation is low: she needs the emergency team.\nDEPARTMENT: Emergency"
            if low else "A chest problem without red flags.\nDEPARTMENT: Respiratory medicine")


def embedding(text: str, dims: int = 64) -> list[float]:
    """A deterministic bag-of-words vector (the fake embedding model): texts sharing words
    point the same way."""
    vec = [0.0] * dims
    for word in re.findall(r"[a-z0-9]+", text.lower()):
        vec[zlib.crc32(word.encode()) % dims] += 1.0
    return vec


DEFAULT_REPLIES: dict[str, Reply] = {
    "doctor": default_doctor,
    "patient": "It started about an hour ago and it feels like a heavy weight on my chest.",
    "examiner": "Electrocardiogram: ST elevation in II, III and aVF.",
    "moderator": "Yes.",
    "report": ("Symptoms: chest pain\nExaminations: ECG\nDiagnostic results: inferior STEMI\n"
               "Diagnostic rationale: ST elevation\nTreatment plan: primary PCI"),
    # The doctor tools' requests (core/prompts/tool_texts.py).
    "critique": ("The draft explains the chest pain and the inferior ST elevation; nothing "
                 "argues against it."),
    "reflect": "DIAGNOSIS READY: Inferior ST-elevation myocardial infarction",
    "notebook": "Chest pain with inferior ST elevation: think of inferior STEMI early.",
    "one_step": ("DIAGNOSIS READY: Inferior ST-elevation myocardial infarction\n"
                 "Symptoms: crushing chest pain\nExaminations: ECG, troponin\n"
                 "Diagnostic results: inferior STEMI\nDiagnostic rationale: ST elevation "
                 "in II, III and aVF\nTreatment plan: aspirin, ticagrelor, primary PCI"),
    "report_judge": ('{"symptoms": "A", "examinations": "B", "diagnostic_results": "A", '
                     '"rationale": "B", "treatment_plan": "C"}'),
    "rating_patient": '{"confidence": 8, "compliance": 9, "consult_again": 7}',
    "fidelity_grader": ('{"consistent": "yes", "addresses": "yes", "accurate": "yes", '
                        '"reason": "matches the record"}'),
    "translator": default_translator,
    "ah-examination": "ANSWER: Chest X-ray",
    "ah-diagnosis": "ANSWER: Community-acquired pneumonia",
    "ah-treatment": "ANSWER: moderate",
    "ah-reflect": ("PRINCIPLE: Fever with coloured phlegm and a focal consolidation on the "
                   "chest X-ray points to community-acquired pneumonia."),
    "ah-rewrite": default_rewrite,
    # RJUA's single-answer tasks (core/prompts/rjua_texts.py).
    "rjua-reasoning": "REQUEST TEST: ECG, troponin, D-dimer, CT head",
    "rjua-qa": ("DIAGNOSIS READY: Inferior STEMI\nTreatment plan: aspirin, ticagrelor, "
                "heparin and primary PCI"),
    "ah-triage": default_triage,  # the whole hospital's triage nurse (core.hospital.triage)
    # A case conference (core.solvers.collaborate): the host's readings, its joint report
    # and a doctor's revision. Scripted per test for anything but agreement at once.
    "host-assess": "CONSENSUS: yes",
    "host-agree": "CONSENSUS: yes",
    "host-final": ("Symptoms: chest pain\nExaminations: ECG\nDiagnostic results: inferior "
                   "STEMI\nDiagnostic rationale: both doctors agree\nTreatment plan: "
                   "primary PCI"),
    "revision": ("Symptoms: chest pain\nExaminations: ECG\nDiagnostic results: inferior "
                 "STEMI\nDiagnostic rationale: unchanged\nTreatment plan: primary PCI"),
    "revision-plain": ("Symptoms: chest pain\nExaminations: ECG\nDiagnostic results: "
                       "inferior STEMI\nDiagnostic rationale: unchanged\nTreatment plan: "
                       "primary PCI"),
    "unknown": "OK.",
}
# The metric prompts (core/prompts/metric_texts.py) carry no id line; they are told apart by
# their opening words, so a demo run can be scored end to end against this server.
METRIC_OPENINGS = (("You are a doctor. Below is everything known", "one_step"),
                   ("You grade a doctor's final report", "report_judge"),
                   ("You are the patient described below", "rating_patient"),
                   ("You check one answer of a simulated", "fidelity_grader"))
METRIC_ROLES = ("unknown", *(role for _, role in METRIC_OPENINGS))


def _roles(message: dict[str, Any]) -> list[str]:
    content = message_text(message.get("content"))
    found = [ROLE_ALIASES.get(m.group(1), m.group(1)) for m in ROLE_RE.finditer(content)]
    return found + [role for opening, role in METRIC_OPENINGS if content.startswith(opening)]


def detect_role(body: dict[str, Any]) -> str:
    """The role a request plays: the prompt id of its last message when it carries one (a
    report, a critique, a notebook request after the dialogue), else the system prompt's
    (the dialogue goes on after an earlier tool request), else the last one found."""
    messages = body.get("messages", [])
    if not messages:
        return "unknown"
    last, first = _roles(messages[-1]), _roles(messages[0])
    if last:
        return last[-1]
    if first:
        return first[-1]
    found = [role for message in messages for role in _roles(message)]
    return found[-1] if found else "unknown"


def _bearer(headers: dict[str, str]) -> str:
    """The key a request carried (OpenAI clients send `Authorization: Bearer KEY`)."""
    return headers.get("authorization", "").removeprefix("Bearer ").strip()


def _words(text: str) -> int:
    return max(1, len(text.split()))


class FakeOpenAIServer:
    """The server; a context manager that starts it on an ephemeral port (or `port`)."""

    def __init__(self, *, latency: float = 0.0, port: int = 0,
                 replies: dict[str, Reply] | None = None,
                 fault_rule: Callable[[dict[str, Any], int], str | None] | None = None,
                 hang_seconds: float = 30.0, chunk_words: int = 4,
                 chunk_delay: float = 0.0, huge_chars: int = 1_000_000) -> None:
        self.latency, self.port, self.hang_seconds = latency, port, hang_seconds
        self.huge_chars = huge_chars
        self.chunk_delay = chunk_delay
        self.replies = {**DEFAULT_REPLIES, **(replies or {})}
        self.faults: collections.deque[str] = collections.deque()
        self.fault_rule, self.chunk_words = fault_rule, chunk_words
        self.requests: list[dict[str, Any]] = []  # every request body, in arrival order
        self.embedded: list[str] = []  # every text sent to /v1/embeddings
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

    def images_received(self) -> list[tuple[str, int]]:
        """(role, number of image parts) of every request so far, in arrival order."""
        with self._lock:
            bodies = list(self.requests)
        return [(detect_role(b), len(image_urls(b))) for b in bodies]

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
        elif method == "POST" and path.rstrip("/").endswith("/embeddings"):
            await self._embeddings(writer, json.loads(body or b"{}"))
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
        if fault in ("echo-key-401", "echo-key-500"):
            status = int(fault[-3:])
            await self._send_json(writer, status, {"error": {
                "message": f"Incorrect API key provided: {_bearer(headers)}; sent "
                f"authorization: {headers.get('authorization', '')}" if status == 401 else
                f"upstream failed for request with Authorization: "
                f"{headers.get('authorization', '')} (api_key={_bearer(headers)})",
                "type": "invalid_request_error", "code": fault}})
            return
        if fault in ("429", "500"):
            await self._send_json(writer, int(fault), {"error": {
                "message": "rate limited" if fault == "429" else "server error",
                "type": "fake", "code": fault}})
            return
        text = "" if fault == "empty" else self._reply_text(body, n)
        if fault == "huge":
            text = (text + " ") * (self.huge_chars // (len(text) + 1) + 1)
        elif fault == "echo-key":
            text = (f"{text} (you sent the key {_bearer(headers)} with the header "
                    f"'authorization: {headers.get('authorization', '')}', api_key="
                    f"{_bearer(headers)})")
        usage = {"prompt_tokens": sum(_words(message_text(m.get("content")))
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

    async def _embeddings(self, writer: asyncio.StreamWriter, body: dict[str, Any]) -> None:
        """`POST /v1/embeddings`: one `embedding()` per input, recorded in `embedded`."""
        given = body.get("input", [])
        texts = [given] if isinstance(given, str) else [str(t) for t in given]
        with self._lock:
            self.embedded.extend(texts)
        await self._send_json(writer, 200, {
            "object": "list", "model": body.get("model", "fake-embed"),
            "data": [{"object": "embedding", "index": i, "embedding": embedding(t)}
                     for i, t in enumerate(texts)],
            "usage": {"prompt_tokens": sum(_words(t) for t in texts),
                      "total_tokens": sum(_words(t) for t in texts)}})

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
