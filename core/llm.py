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

Everything that leaves `complete` (and `embed`) — the reply, its raw request and response,
the errors of its attempts, the final error — has the value of every key in use hidden
(`core.secrets`), so a server that echoes the key cannot get it stored, logged or printed.

A reply is cut to `reply_cap(spec)` characters (8 per token of `max_tokens`) before anyone
sees it: a server that ignores `max_tokens` could otherwise send megabytes that would be
stored in the turn, its raw response and every later prompt that re-sends the dialogue.
The cut is recorded in the reply's meta (`truncated`, `original_chars`).

With a router file (`bedside run --router FILE`, `core.router`), a model named in the file
is called through litellm's own Router (built once per client, on the first call), which
picks the deployment, applies its rate limits, retries and fallbacks; the reply's meta
names the deployment that answered (`deployment`: model_id, api_base, as litellm tells).

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
from typing import TYPE_CHECKING, Any

from core.agents.base import DeltaFn, Reply, no_delta
from core.config import AgentSpec
from core.errors import CredentialError, ModelError
from core.images import redact_images
from core.secrets import Redactor, secret_values
from core.transcript import Usage

if TYPE_CHECKING:
    from core.router import RouterFile

_FATAL_STATUS = {400, 401, 403, 404, 413, 422}  # retrying cannot help
#: What bedside sends a server given by --api-base without a key (local OpenAI-compatible
#: servers ignore it); public so the benchmarks send the very same value.
PLACEHOLDER_KEY = "sk-local-no-key"
# A token is about 4 characters of English and fewer of Chinese; 8 per token leaves an
# honest reply whole and bounds a server that ignores max_tokens.
CHARS_PER_TOKEN = 8
_UNLIMITED_TOKENS = 4096  # the bound when a spec sets no max_tokens


def reply_cap(spec: AgentSpec) -> int:
    """Most characters of a reply that are kept (stored and re-sent)."""
    return CHARS_PER_TOKEN * (spec.max_tokens or _UNLIMITED_TOKENS)


def _cap_strings(value: Any, cap: int) -> Any:
    """`value` (a raw response) with every string longer than `cap` cut to `cap`."""
    if isinstance(value, str):
        return value[:cap] if len(value) > cap else value
    if isinstance(value, dict):
        return {k: _cap_strings(v, cap) for k, v in value.items()}
    if isinstance(value, list):
        return [_cap_strings(v, cap) for v in value]
    return value


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
    original_chars: int | None = None  # the reply's length when it was longer than `text`
    deployment: dict[str, Any] | None = None  # which router deployment answered


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


def _reason(err: BaseException, redactor: Redactor) -> str:
    """A one-line reason for an error, every key in it hidden (before it is cut, so a cut
    cannot leave half a key)."""
    name = type(err).__name__
    msg = redactor.text(str(err).strip().splitlines()[0]) if str(err).strip() else ""
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
                 stream: bool | None = None, router: RouterFile | None = None) -> None:
        """`api_key` overrides the environment for every call (kept in memory only);
        `backoff_scale` multiplies retry delays (tests make it small); `stream=False` never
        streams, whatever a spec says: for headless batches where nobody watches token
        deltas (litellm spends about half as much CPU on a whole reply as on a stream of
        it). Streaming is transport, not configuration: it changes no key and no result; so is
        `router` (a checked router file): the models it names go through litellm's Router."""
        self._api_key = api_key
        self._router_file = router
        self._router: Any = None
        self._routed = set(router.names()) if router else set()
        self._router_keys = secret_values(router.env_vars()) if router else []
        self.backoff_scale = backoff_scale
        self._stream = stream
        self._unpriced: set[str] = set()  # models litellm has no price for (skip the lookup)
        self._env_keys: dict[str | None, list[str]] = {}  # secret_values, by api_key_env

    def _redactor(self, spec: AgentSpec) -> Redactor:
        """What hides the keys of a call: the key it sends (read now) and the environment's
        keys (read once per client: scanning the environment costs more than a call's
        redaction)."""
        name = spec.api_key_env
        if name not in self._env_keys:
            self._env_keys[name] = secret_values([name] if name else [])
        return Redactor(keys=[self._key(spec)],
                        values=self._env_keys[name] + self._router_keys)

    async def vision(self, model: str) -> bool | None:
        """`vision_support` of a model (litellm imported off the event loop)."""
        return vision_support(await load_litellm_async(), model)

    def streams(self, spec: AgentSpec) -> bool:
        """Whether a call for this spec is streamed."""
        return spec.stream if self._stream is None else self._stream and spec.stream

    def routed(self, spec: AgentSpec) -> bool:
        """Whether calls for this spec go through the router."""
        return spec.model in self._routed

    def _key(self, spec: AgentSpec) -> str | None:
        if self.routed(spec):
            return None  # the deployment's own key, from the router file's environment
        if self._api_key:
            return self._api_key
        if spec.api_key_env:
            return os.environ.get(spec.api_key_env)
        return PLACEHOLDER_KEY if spec.api_base else None  # provider's own env variable

    def _kwargs(self, spec: AgentSpec, messages: list[dict[str, Any]]) -> dict[str, Any]:
        kw = raw_request(spec, messages)
        kw["stream"] = self.streams(spec)
        if kw["stream"]:
            kw["stream_options"] = {"include_usage": True}
        kw["max_retries"] = 0  # we retry ourselves, with our own backoff and records
        if self.routed(spec):  # the deployment gives the server and the key
            kw.pop("api_base", None)
            return kw
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
        redactor = self._redactor(spec)
        errors: list[str] = []
        started = time.perf_counter()
        credential = False
        for attempt in range(spec.retries + 1):
            try:
                async with asyncio.timeout(spec.timeout):
                    got = await self._once(lib, spec, messages, on_delta, redactor)
            except asyncio.CancelledError:
                raise
            except Exception as err:  # every provider error type; classified below
                if isinstance(err, TimeoutError):
                    err = TimeoutError(f"no reply within {spec.timeout:g} s")
                errors.append(_reason(err, redactor))
                credential = _credential(err)
                if attempt >= spec.retries or not _retryable(err):
                    break
                await asyncio.sleep(spec.backoff * self.backoff_scale * 2 ** attempt)
                continue
            meta: dict[str, Any] = {
                "attempts": attempt + 1, "errors": errors,
                "call_ms": round((time.perf_counter() - started) * 1000, 1)}
            if got.deployment:
                meta["deployment"] = got.deployment
            reply = _capped(Reply(text=got.text, usage=got.usage, model=spec.model,
                                  raw_request=raw_request(spec, messages, stored=True),
                                  raw_response=got.raw_response, meta=meta),
                            reply_cap(spec), got.original_chars)
            return _redacted(reply, redactor)
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
        redactor = self._redactor(spec)
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
                errors.append(_reason(err, redactor))
                if attempt >= spec.retries or not _retryable(err):
                    break
                await asyncio.sleep(spec.backoff * self.backoff_scale * 2 ** attempt)
        raise ModelError(f"{spec.model}: {errors[-1]} (after {len(errors)} attempt(s))")

    async def _once(self, lib: Any, spec: AgentSpec, messages: list[dict[str, Any]],
                    on_delta: DeltaFn, redactor: Redactor) -> Attempt:
        response = await self._call(lib, spec, messages)
        if self.streams(spec):
            got = await self._collect_stream(lib, spec, response, on_delta, redactor)
        else:
            text = response.choices[0].message.content or ""
            if not text.strip():
                raise EmptyReply("the model returned an empty reply")
            usage = self._usage(lib, spec, getattr(response, "usage", None))
            got = Attempt(text, usage, _dump(response))
        if self.routed(spec):
            from core.router import deployment_of

            got.deployment = deployment_of(response)
        return got

    async def _call(self, lib: Any, spec: AgentSpec, messages: list[dict[str, Any]]) -> Any:
        """litellm's response: through the router for a model it routes (built on the
        first such call), else directly."""
        if not self.routed(spec):
            return await lib.acompletion(**self._kwargs(spec, messages))
        if self._router is None:
            from core.router import build_router

            assert self._router_file is not None
            self._router = build_router(lib, self._router_file)
        return await self._router.acompletion(**self._kwargs(spec, messages))

    async def _collect_stream(self, lib: Any, spec: AgentSpec, response: Any,
                              on_delta: DeltaFn, redactor: Redactor) -> Attempt:
        pieces: list[str] = []
        usage_obj, finish, rid = None, None, None
        cap, total = reply_cap(spec), 0
        async for chunk in response:
            rid = rid or getattr(chunk, "id", None)
            if getattr(chunk, "usage", None):
                usage_obj = chunk.usage
            for choice in chunk.choices or ():
                piece = getattr(choice.delta, "content", None)
                finish = choice.finish_reason or finish
                if piece and total < cap:  # past the cap, pieces are only counted
                    pieces.append(piece[:cap - total])
                    on_delta(redactor.text(pieces[-1]))  # a key split over pieces is
                    # hidden in the completed turn, which replaces the streamed text
                total += len(piece or "")
        text = "".join(pieces)
        if not text.strip():
            raise EmptyReply("the model returned an empty reply")
        usage = self._usage(lib, spec, usage_obj)
        raw = {"id": rid, "model": spec.model, "content": text, "finish_reason": finish,
               "usage": usage.model_dump()}
        return Attempt(text, usage, raw, total if total > len(text) else None)

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


def _redacted(reply: Reply, redactor: Redactor) -> Reply:
    """The reply with every key in use hidden in its text, raw response and the settings of
    its raw request (an api_base may carry `?api_key=`). The request's messages are left:
    they are our prompts and earlier replies, each hidden when it came back, and walking
    the whole dialogue at every call would cost more than the call."""
    reply.text = redactor.text(reply.text)
    reply.raw_response = redactor.data(reply.raw_response)
    if isinstance(reply.raw_request, dict):
        reply.raw_request = {k: v if k == "messages" else redactor.data(v)
                             for k, v in reply.raw_request.items()}
    return reply


def _capped(reply: Reply, cap: int, original_chars: int | None) -> Reply:
    """The reply cut to `cap` characters (text and raw response), the cut in its meta."""
    reply.raw_response = _cap_strings(reply.raw_response, cap)  # any field, not only the text
    original = max(original_chars or 0, len(reply.text))
    if original > cap or original_chars is not None:
        reply.text = reply.text[:cap]
        reply.meta.update(truncated=True, original_chars=original)
    return reply


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
