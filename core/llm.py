"""The one module that talks to models, through litellm (imported lazily, on first call).

Importing litellm takes seconds, so it never happens on an event loop: `load_litellm_async`
imports it in a worker thread, once per process however many callers wait for it, and
`preload()` starts that import in the background (the app calls it at start-up so the
first model batch does not wait).

`LLMClient.complete` sends chat messages to any model litellm accepts, optionally through
an OpenAI-compatible base URL and in JSON mode (`AgentSpec.response_format`), streams text
pieces to `on_delta`, and retries with exponential backoff on rate limits, server errors,
time-outs, malformed and empty replies.
After the last retry it raises `ModelError` with a one-line reason. API keys are held in
memory only: never in a spec, a raw request, an event or a log line. Messages may carry
image content parts (`core.images`); the stored raw request keeps each image's sha256, not
its base64. `vision_support` says whether litellm knows a model to see images.

Must not import at module level: litellm (it takes seconds and must stay off start-up
paths).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import os
import threading
import time
from dataclasses import dataclass
from typing import Any

from core.agents.base import DeltaFn, Reply, no_delta
from core.config import AgentSpec
from core.errors import CredentialError, ModelError
from core.images import redact_images
from core.transcript import Usage

_FATAL_STATUS = {400, 401, 403, 404, 413, 422}  # retrying cannot help
_PLACEHOLDER_KEY = "sk-local-no-key"  # local OpenAI-compatible servers ignore the key


_import_lock = threading.Lock()
_import_future: concurrent.futures.Future[Any] | None = None


def load_litellm() -> Any:
    """Import litellm with its network price-map fetch disabled; quiet its banners.

    Blocking (seconds on first call): from async code use `load_litellm_async`.
    """
    os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
    import litellm

    litellm.suppress_debug_info = True
    litellm.drop_params = True  # providers without `seed` etc. just ignore them
    return litellm


def _import_in_thread(future: concurrent.futures.Future[Any]) -> None:
    try:
        future.set_result(load_litellm())
    except BaseException as err:  # hand every failure to the waiters, the thread ends
        future.set_exception(err)


def preload() -> concurrent.futures.Future[Any]:
    """Start importing litellm in a background thread (once per process); return the future.

    Never blocks. Safe to call from any thread, with or without an event loop.
    """
    global _import_future
    with _import_lock:
        if _import_future is None or _import_future.cancelled() or (
                _import_future.done() and _import_future.exception() is not None):
            _import_future = concurrent.futures.Future()
            threading.Thread(target=_import_in_thread, args=(_import_future,),
                             name="litellm-import", daemon=True).start()
        return _import_future


async def load_litellm_async() -> Any:
    """litellm, imported off the event loop: the loop keeps running while it loads."""
    future = _import_future
    if future is not None and future.done() and not future.cancelled() \
            and future.exception() is None:
        return future.result()  # the common case: no thread hop at all
    # Shielded: a caller cancelled while litellm loads (a consultation stopped during its
    # first model call) must not cancel the shared import every later call waits on.
    return await asyncio.shield(asyncio.wrap_future(preload()))


class EmptyReply(Exception):
    """The model answered with no text."""


@dataclass
class Attempt:
    """What one call produced."""

    text: str
    usage: Usage
    raw_response: dict[str, Any]


def vision_support(lib: Any, model: str) -> bool | None:
    """Whether litellm knows `model` to see images: True, False (its model map lists the
    model's capabilities, and image input is not among them), or None when litellm does not
    know the model or lists none of its capabilities (a local server, a bare Ollama entry)."""
    try:
        info = lib.get_model_info(model)
    except Exception:  # litellm raises its own "not mapped" error types
        return None
    entry = lib.model_cost.get(info.get("key")) or {}
    if entry.get("supports_vision") is not None:
        return bool(entry["supports_vision"])
    return False if any(k.startswith("supports_") for k in entry) else None


def raw_request(spec: AgentSpec, messages: list[dict[str, Any]], *,
                stored: bool = False) -> dict[str, Any]:
    """The request as sent, or as `stored` (each image's base64 replaced by its sha256):
    model, parameters, JSON mode when asked for, and messages; never a key."""
    req: dict[str, Any] = {"model": spec.model,
                           "messages": redact_images(messages) if stored else messages}
    for name in ("api_base", "temperature", "max_tokens", "seed", "timeout"):
        value = getattr(spec, name)
        if value is not None:
            req[name] = value
    if spec.response_format == "json":
        req["response_format"] = {"type": "json_object"}
    req.pop("api_key", None)
    return req


def _reason(err: BaseException) -> str:
    """A one-line reason for an error, without echoing anything that could be a key."""
    name = type(err).__name__
    msg = str(err).strip().splitlines()[0] if str(err).strip() else ""
    if "sk-" in msg:
        msg = msg.split("sk-")[0] + "[redacted]"
    return f"{name}: {msg[:200]}" if msg else name


def _retryable(err: BaseException) -> bool:
    status = getattr(err, "status_code", None)
    return not (isinstance(status, int) and status in _FATAL_STATUS)


def _credential(err: BaseException) -> bool:
    """Whether the provider refused the key (401/403, or litellm's error types for it)."""
    return getattr(err, "status_code", None) in (401, 403) or type(err).__name__ in (
        "AuthenticationError", "PermissionDeniedError")


class LLMClient:
    """Calls models. One client may serve many consultations concurrently."""

    def __init__(self, api_key: str | None = None, *, backoff_scale: float = 1.0,
                 stream: bool | None = None) -> None:
        """`api_key` overrides the environment for every call (kept in memory only);
        `backoff_scale` multiplies retry delays (tests make it small); `stream=False` never
        streams, whatever a spec says: for headless batches where nobody watches token
        deltas (litellm spends about half as much CPU on a whole reply as on a stream of
        it). Streaming is transport, not configuration: it changes no key and no result."""
        self._api_key = api_key
        self.backoff_scale = backoff_scale
        self._stream = stream
        self._unpriced: set[str] = set()  # models litellm has no price for (skip the lookup)

    async def vision(self, model: str) -> bool | None:
        """`vision_support` of a model (litellm imported off the event loop)."""
        return vision_support(await load_litellm_async(), model)

    def streams(self, spec: AgentSpec) -> bool:
        """Whether a call for this spec is streamed."""
        return spec.stream if self._stream is None else self._stream and spec.stream

    def _key(self, spec: AgentSpec) -> str | None:
        if self._api_key:
            return self._api_key
        if spec.api_key_env:
            return os.environ.get(spec.api_key_env)
        return _PLACEHOLDER_KEY if spec.api_base else None  # provider's own env variable

    def _kwargs(self, spec: AgentSpec, messages: list[dict[str, Any]]) -> dict[str, Any]:
        kw = raw_request(spec, messages)
        kw["stream"] = self.streams(spec)
        if kw["stream"]:
            kw["stream_options"] = {"include_usage": True}
        kw["max_retries"] = 0  # we retry ourselves, with our own backoff and records
        key = self._key(spec)
        if key:
            kw["api_key"] = key
        return kw

    async def complete(self, spec: AgentSpec, messages: list[dict[str, Any]],
                       on_delta: DeltaFn = no_delta) -> Reply:
        """One reply from the model, retried on transient failures; ModelError at the end."""
        if spec.kind != "llm" or not spec.model:
            raise ModelError(f"agent kind '{spec.kind}' is not a model")
        lib = await load_litellm_async()
        errors: list[str] = []
        started = time.perf_counter()
        credential = False
        for attempt in range(spec.retries + 1):
            try:
                async with asyncio.timeout(spec.timeout):
                    got = await self._once(lib, spec, messages, on_delta)
            except asyncio.CancelledError:
                raise
            except Exception as err:  # every provider error type; classified below
                if isinstance(err, TimeoutError):
                    err = TimeoutError(f"no reply within {spec.timeout:g} s")
                errors.append(_reason(err))
                credential = _credential(err)
                if attempt >= spec.retries or not _retryable(err):
                    break
                await asyncio.sleep(spec.backoff * self.backoff_scale * 2 ** attempt)
                continue
            return Reply(text=got.text, usage=got.usage, model=spec.model,
                         raw_request=raw_request(spec, messages, stored=True),
                         raw_response=got.raw_response,
                         meta={"attempts": attempt + 1, "errors": errors,
                               "call_ms": round((time.perf_counter() - started) * 1000, 1)})
        error = CredentialError if credential else ModelError
        raise error(f"{spec.model}: {errors[-1]} (after {len(errors)} attempt(s))")

    async def embed(self, spec: AgentSpec, texts: list[str]) -> list[list[float]]:
        """One embedding per text from an embedding model (litellm's `aembedding`, through
        `spec.api_base` when given), retried like `complete`; ModelError at the end."""
        if spec.kind != "llm" or not spec.model:
            raise ModelError(f"agent kind '{spec.kind}' is not a model")
        lib = await load_litellm_async()
        kw: dict[str, Any] = {"model": spec.model, "input": list(texts), "max_retries": 0}
        if spec.api_base:
            kw["api_base"] = spec.api_base
        key = self._key(spec)
        if key:
            kw["api_key"] = key
        errors: list[str] = []
        for attempt in range(spec.retries + 1):
            try:
                async with asyncio.timeout(spec.timeout):
                    response = await lib.aembedding(**kw)
                data = sorted(response.data, key=lambda d: _field(d, "index") or 0)
                vectors = [list(_field(d, "embedding") or []) for d in data]
                if len(vectors) != len(texts) or not all(vectors):
                    raise EmptyReply("the model returned no embedding")
                return vectors
            except asyncio.CancelledError:
                raise
            except Exception as err:  # every provider error type
                errors.append(_reason(err))
                if attempt >= spec.retries or not _retryable(err):
                    break
                await asyncio.sleep(spec.backoff * self.backoff_scale * 2 ** attempt)
        raise ModelError(f"{spec.model}: {errors[-1]} (after {len(errors)} attempt(s))")

    async def _once(self, lib: Any, spec: AgentSpec, messages: list[dict[str, Any]],
                    on_delta: DeltaFn) -> Attempt:
        response = await lib.acompletion(**self._kwargs(spec, messages))
        if self.streams(spec):
            return await self._collect_stream(lib, spec, response, on_delta)
        text = response.choices[0].message.content or ""
        if not text.strip():
            raise EmptyReply("the model returned an empty reply")
        usage = self._usage(lib, spec, getattr(response, "usage", None))
        return Attempt(text, usage, _dump(response))

    async def _collect_stream(self, lib: Any, spec: AgentSpec, response: Any,
                              on_delta: DeltaFn) -> Attempt:
        pieces: list[str] = []
        usage_obj, finish, rid = None, None, None
        async for chunk in response:
            rid = rid or getattr(chunk, "id", None)
            if getattr(chunk, "usage", None):
                usage_obj = chunk.usage
            for choice in chunk.choices or ():
                piece = getattr(choice.delta, "content", None)
                finish = choice.finish_reason or finish
                if piece:
                    pieces.append(piece)
                    on_delta(piece)
        text = "".join(pieces)
        if not text.strip():
            raise EmptyReply("the model returned an empty reply")
        usage = self._usage(lib, spec, usage_obj)
        raw = {"id": rid, "model": spec.model, "content": text, "finish_reason": finish,
               "usage": usage.model_dump()}
        return Attempt(text, usage, raw)

    def _usage(self, lib: Any, spec: AgentSpec, usage: Any) -> Usage:
        prompt = int(getattr(usage, "prompt_tokens", 0) or 0)
        completion = int(getattr(usage, "completion_tokens", 0) or 0)
        cost = 0.0
        model = spec.model or ""
        if model not in self._unpriced:
            try:  # unknown models (local servers) have no price: cost stays 0
                p, c = lib.cost_per_token(model=model, prompt_tokens=prompt,
                                          completion_tokens=completion)
                cost = float(p + c)
            except Exception:
                self._unpriced.add(model)
        return Usage(prompt_tokens=prompt, completion_tokens=completion, cost_usd=cost)


def _dump(response: Any) -> dict[str, Any]:
    try:
        data = response.model_dump()
    except Exception:
        data = {"content": str(response)}
    if isinstance(data, dict):
        data.pop("api_key", None)
    return data


def _field(item: Any, name: str) -> Any:
    """A field of a response item that may be a dict or an object."""
    return item.get(name) if isinstance(item, dict) else getattr(item, name, None)
